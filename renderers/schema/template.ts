import { ExpressionError } from './expressionError';
import type { SimpleExpression } from './simpleExpression';

/**
 * The value language of page schemas: `{{ … }}` templates, in one evaluator (../form/expressions.ts,
 * jsep, no eval) with one scope everywhere.
 *
 * A string that is exactly one `{{expression}}` gives the expression's value, keeping its type;
 * `{{…}}` inside a longer string is interpolated (nothing shows as empty). Objects and arrays are
 * resolved item by item. An expression may end in filters, `{{params.id | number}}` (route query
 * values are text), `{{selection.keys | join(',')}}`. Reading a property of nothing gives nothing:
 * a toolbar has no `record`, a route may lack `params.id`.
 */

/** What every template, condition and parameter may read, wherever it stands. */
export interface TemplateScope {
  /** The route's query (or what the opening action passed). */
  params?: Readonly<Record<string, unknown>>;
  /** The row, or the detail page's record. */
  record?: Readonly<Record<string, unknown>>;
  /** The form's values (a submit, a select depending on a field), or a list's filters. */
  values?: Readonly<Record<string, unknown>>;
  /** A list's checked rows: `keys` and `rows`. */
  selection?: { readonly keys: readonly unknown[]; readonly rows: readonly unknown[] };
  /** The signed-in user (UserInfo of the session: loginUserCode, orgCodeList, roleList …). */
  user?: Readonly<Record<string, unknown>>;
  /** In an action chain: the answer of the step before. */
  result?: unknown;
}

/** The scope a template is resolved against (a TemplateScope; Formily adds its `$` names). */
export type Scope = Readonly<Record<string, unknown>>;

/** The roots of the scope, in the order messages list them. */
export const SCOPE_ROOTS = ['params', 'record', 'values', 'selection', 'user'] as const;
export type ScopeRoot = (typeof SCOPE_ROOTS)[number];
/** What an action chain's later steps read besides the scope. */
export const RESULT_ROOT = 'result';

/** Filters a template may end in: `{{expression | name}}` or `{{expression | name(arguments)}}`. */
export const TEMPLATE_FILTERS: Readonly<Record<string, (value: unknown, ...args: unknown[]) => unknown>> = {
  /** Route query values are text; an empty one is no number. */
  number: (value) => (value === undefined || value === null || value === '' ? undefined : Number(value)),
  string: (value) => (value === undefined || value === null ? undefined : String(value)),
  boolean: (value) => (value === 'false' || value === '0' ? false : Boolean(value)),
  /** An array as text: `{{selection.keys | join(',')}}`. */
  join: (value, separator = ',') => (Array.isArray(value) ? value.join(String(separator)) : value),
  /** A fallback for nothing: `{{params.kind | default('all')}}`. */
  default: (value, fallback) => (value === undefined || value === null || value === '' ? fallback : value),
};

/** Every `{{…}}` of a string (the text between the braces in group 1). */
export const TEMPLATE = /\{\{([\s\S]*?)\}\}/g;
const FILTER = /^\s*([A-Za-z_$][\w$]*)\s*(?:\(([\s\S]*)\))?\s*$/;

interface Compiled {
  expression: string;
  filters: Array<{ name: string; args: string | undefined }>;
}

/**
 * Splits `expression | filter | filter(args)` at the pipes outside strings and brackets (`||` is
 * the logical or, not a pipe).
 */
function splitPipes(source: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i];
    if (quote) {
      if (char === '\\') i += 1;
      else if (char === quote) quote = null;
      continue;
    }
    if (char === '"' || char === "'" || char === '`') quote = char;
    else if (char === '(' || char === '[' || char === '{') depth += 1;
    else if (char === ')' || char === ']' || char === '}') depth -= 1;
    else if (char === '|' && depth === 0) {
      if (source[i + 1] === '|') {
        i += 1;
        continue;
      }
      parts.push(source.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(source.slice(start));
  return parts;
}

const compiled = new Map<string, Compiled>();

type Engine = (expression: string, scope: Scope, options: { lenient?: boolean }) => unknown;

/**
 * The evaluator of expressions beyond a plain path (renderers/form/expressions.ts, jsep): set when
 * that module loads. A page whose templates are all paths (`{{record.code}}`, `{{params.id |
 * number}}`) never downloads it; PageRenderer loads it first for a page that needs it.
 */
let engine: Engine | null = null;

export function setExpressionEngine(evaluate: Engine): void {
  engine = evaluate;
}

/**
 * The compiler of the comparisons most conditions are (./simpleExpression.ts, 1.4 KiB gzip): set
 * when that module loads, so a page whose templates are all paths fetches neither it nor jsep.
 */
let simpleCompiler: ((expression: string) => SimpleExpression | null) | null = null;

export function setSimpleCompiler(compile: (expression: string) => SimpleExpression | null): void {
  simpleCompiler = compile;
}

const compileSimple = (expression: string): SimpleExpression | null => simpleCompiler?.(expression) ?? null;

/**
 * Loads what the page's templates need beyond plain paths: the comparison compiler, then the
 * expression engine when a template is beyond it too (a page renders after this).
 */
export async function loadExpressionEngine(page?: unknown): Promise<void> {
  if (engine) return;
  if (page !== undefined && !simpleCompiler) await import('./simpleExpression');
  if (page === undefined || needsExpressionEngine(page)) await import('../form/expressions');
}

/** Whether a template goes beyond a plain path and literal filter arguments (it needs ./simpleExpression.ts or the engine). */
function beyondPath(source: string): boolean {
  try {
    const { expression, filters } = compile(source);
    return !PATH.test(expression) || filters.some((filter) => filter.args?.trim() && !LITERAL_ARGUMENT.test(filter.args));
  } catch {
    return false;
  }
}

/** Whether any `{{…}}` in a value (a page schema, any depth) goes beyond plain paths. */
export function needsExpressionLoad(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{') && [...value.matchAll(TEMPLATE)].some((match) => beyondPath(match[1]));
  if (Array.isArray(value)) return value.some(needsExpressionLoad);
  if (value && typeof value === 'object') return Object.values(value).some(needsExpressionLoad);
  return false;
}

const PATH = /^[A-Za-z_$][\w$]*(?:\.[\w$]+)*$/;
const LITERAL_ARGUMENT = /^\s*(?:'([^'\\]*)'|"([^"\\]*)"|(-?\d+(?:\.\d+)?))\s*$/;
/** Property names a template may never read (the engine refuses the same). */
const FORBIDDEN = new Set(['constructor', '__proto__', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);

/** A plain path over the scope, as the engine reads it. */
function readScopePath(source: string, path: string, scope: Scope, lenient: boolean): unknown {
  const [root, ...keys] = path.split('.');
  if (!Object.prototype.hasOwnProperty.call(scope, root)) {
    if (root === 'undefined' && keys.length === 0) return undefined;
    throw new ExpressionError(source, `引用了未知的名称 ${root}`);
  }
  let value: unknown = scope[root];
  for (const key of keys) {
    if (FORBIDDEN.has(key)) throw new ExpressionError(source, `不允许读取属性 ${key}`);
    if (value === null || value === undefined) {
      if (lenient) return undefined;
      throw new ExpressionError(source, '读取了空值的属性');
    }
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A filter's arguments: literals without the engine, anything else through it. */
function filterArguments(source: string, text: string | undefined, scope: Scope, lenient: boolean): unknown[] {
  if (!text?.trim()) return [];
  const literal = LITERAL_ARGUMENT.exec(text);
  if (literal) return [literal[1] ?? literal[2] ?? Number(literal[3])];
  return runEngine(source, `[${text}]`, scope, lenient) as unknown[];
}

function runEngine(source: string, expression: string, scope: Scope, lenient: boolean): unknown {
  if (!engine) throw new ExpressionError(source, '需要表达式引擎：页面在渲染前没有加载它（loadExpressionEngine）');
  return engine(expression, scope, { lenient });
}

/** Whether a template needs the engine: an expression beyond a path or a simple comparison (simpleExpression.ts), or a filter argument beyond a literal. */
function needsEngineFor(source: string): boolean {
  try {
    const { expression, filters } = compile(source);
    return (!PATH.test(expression) && !compileSimple(expression)) || filters.some((filter) => filter.args?.trim() && !LITERAL_ARGUMENT.test(filter.args));
  } catch {
    // An unknown filter fails when the template is resolved, with its own sentence.
    return false;
  }
}

/**
 * Whether any `{{…}}` in a value (a page schema, any depth) needs the expression engine: beyond a
 * path, and beyond a comparison once ./simpleExpression.ts is loaded (before, every expression
 * beyond a path counts).
 */
export function needsExpressionEngine(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{') && [...value.matchAll(TEMPLATE)].some((match) => needsEngineFor(match[1]));
  if (Array.isArray(value)) return value.some(needsExpressionEngine);
  if (value && typeof value === 'object') return Object.values(value).some(needsExpressionEngine);
  return false;
}

/** The expression and filters of the text between `{{` and `}}`; throws an ExpressionError for an unknown filter. */
export function compile(source: string): Compiled {
  let result = compiled.get(source);
  if (result) return result;
  const [expression, ...pipes] = splitPipes(source);
  const filters = pipes.map((pipe) => {
    const match = FILTER.exec(pipe);
    if (!match) throw new ExpressionError(source, `的过滤器 ${pipe.trim()} 无法解析：写作 | 名称 或 | 名称(参数)`);
    if (!Object.prototype.hasOwnProperty.call(TEMPLATE_FILTERS, match[1]))
      throw new ExpressionError(source, `使用了未知的过滤器 ${match[1]}（可用：${Object.keys(TEMPLATE_FILTERS).join('、')}）`);
    return { name: match[1], args: match[2] };
  });
  result = { expression: expression.trim(), filters };
  compiled.set(source, result);
  return result;
}

/**
 * Evaluates the text between `{{` and `}}` (an expression and its filters) over `scope`; reading
 * a property of nothing gives nothing unless `lenient` is false. Formily's compiler goes through
 * here too (renderers/form/formily.tsx).
 */
export function evaluateTemplateExpression(source: string, scope: Scope, options: { lenient?: boolean } = { lenient: true }): unknown {
  const { expression, filters } = compile(source);
  if (!expression) throw new ExpressionError(source, '是空的');
  const lenient = options.lenient !== false;
  let value: unknown;
  if (PATH.test(expression)) value = readScopePath(source, expression, scope, lenient);
  else {
    // A comparison of paths and literals (most conditions) needs no engine either.
    const simple = compileSimple(expression);
    value = simple ? simple(scope, lenient) : runEngine(source, expression, scope, lenient);
  }
  for (const filter of filters) value = TEMPLATE_FILTERS[filter.name](value, ...filterArguments(source, filter.args, scope, lenient));
  return value;
}

/** Whether a string holds a template at all. */
export function isTemplate(value: unknown): value is string {
  return typeof value === 'string' && value.includes('{{');
}

/** The expression of a string that is exactly one `{{…}}`, or null. */
function wholeExpression(text: string): string | null {
  const matches = [...text.matchAll(TEMPLATE)];
  return matches.length === 1 && matches[0][0] === text ? matches[0][1] : null;
}

/**
 * The one scope shape: every root of SCOPE_ROOTS present (empty where it means nothing here, a
 * toolbar's `record`), so reading one is never an unknown name; `params` at least empty.
 */
export function makeScope(parts: TemplateScope | Scope): Scope {
  if (SCOPE_ROOTS.every((root) => Object.prototype.hasOwnProperty.call(parts, root)) && parts.params !== undefined) return parts as Scope;
  const scope: Record<string, unknown> = { params: NO_PARAMS, record: undefined, values: undefined, selection: undefined, user: undefined };
  for (const [key, value] of Object.entries(parts)) if (value !== undefined) scope[key] = value;
  return scope;
}

/** Resolves the templates in a value (any depth) against the scope (see makeScope). */
export function resolveTemplate(template: unknown, given: Scope): unknown {
  const scope = makeScope(given);
  if (typeof template === 'string') {
    if (!template.includes('{{')) return template;
    const whole = wholeExpression(template);
    if (whole !== null) return evaluateTemplateExpression(whole, scope);
    return template.replace(TEMPLATE, (_match, source: string) => {
      const value = evaluateTemplateExpression(source, scope);
      return value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    });
  }
  if (Array.isArray(template)) return template.map((item) => resolveTemplate(item, scope));
  if (template && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, resolveTemplate(value, scope)]));
  }
  return template;
}

/** A value at a dotted path (`pool.total`) of an answer: a field name, never an expression. */
export function readPath(scope: unknown, path: string): unknown {
  let value: unknown = scope;
  for (const key of path.split('.')) {
    if (value === null || value === undefined || typeof value !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The params of a page opened without any: one shared object, so hooks see a stable value. */
export const NO_PARAMS: Readonly<Record<string, unknown>> = Object.freeze({});
