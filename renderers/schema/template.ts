import { evaluateExpression, ExpressionError, expressionError, scopeNames } from '../form/expressions';

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
const TEMPLATE = /\{\{([\s\S]*?)\}\}/g;
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

/** The expression and filters of the text between `{{` and `}}`; throws an ExpressionError for an unknown filter. */
function compile(source: string): Compiled {
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
  let value = evaluateExpression(expression, scope, options);
  for (const filter of filters) {
    const args = filter.args?.trim() ? (evaluateExpression(`[${filter.args}]`, scope, options) as unknown[]) : [];
    value = TEMPLATE_FILTERS[filter.name](value, ...args);
  }
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

/**
 * The problems of the templates in one string, as sentences naming the template: syntax, unknown
 * filters, and names outside `roots` (a root of the scope that is never filled where the template
 * stands gets its own sentence). `$names` are Formily's (`$deps`, `$self`) where `formily` is set.
 */
export function templateTextProblems(text: string, roots: readonly string[], options: { formily?: boolean } = {}): string[] {
  const problems: string[] = [];
  const opened = (text.match(/\{\{/g) ?? []).length;
  const matches = [...text.matchAll(TEMPLATE)];
  if (matches.length !== opened) problems.push(`模板 ${text} 有未闭合的 {{`);
  for (const match of matches) {
    const source = match[1];
    let names: string[];
    try {
      const { expression } = compile(source);
      if (!expression) {
        problems.push(`模板 ${text} 中有空的 {{}}`);
        continue;
      }
      const refused = expressionError(expression);
      if (refused) {
        problems.push(`模板 ${text} ${refused.reason}`);
        continue;
      }
      names = scopeNames(expression);
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      problems.push(`模板 ${text} ${error.reason}`);
      continue;
    }
    for (const name of names) {
      if (roots.includes(name) || (options.formily && name.startsWith('$'))) continue;
      const known: readonly string[] = [...SCOPE_ROOTS, RESULT_ROOT];
      problems.push(
        known.includes(name)
          ? roots.length
            ? `模板 ${text} 读取的 ${name} 在此处不存在（可用：${roots.join('、')}）`
            : `模板 ${text} 读取的 ${name} 在此处不存在（此处没有可读取的数据）`
          : `模板 ${text} 引用了未知的名称 ${name}（可用：${roots.length ? roots.join('、') : '无'}）`,
      );
    }
  }
  return problems;
}

/** The params of a page opened without any: one shared object, so hooks see a stable value. */
export const NO_PARAMS: Readonly<Record<string, unknown>> = Object.freeze({});
