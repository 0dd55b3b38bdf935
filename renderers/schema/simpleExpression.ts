import { ExpressionError } from './expressionError';
import { setSimpleCompiler } from './template';

/**
 * The comparisons a condition usually is, evaluated without the expression engine (jsep stays out
 * of a list page's first paint, issue 33): `record.state === 'created'`, `!record.locked`,
 * `['paid', 'confirmed'].includes(record.state)`, `record.stock < record.warnAt`, joined by `&&`,
 * `||` and parentheses. Operands are paths over the scope and literals (strings, numbers, true,
 * false, null, undefined). Anything else answers null here and goes to the engine
 * (renderers/form/expressions.ts), which evaluates these the same way: the unit tests compare both.
 */

type Scope = Readonly<Record<string, unknown>>;
/** A compiled expression: its value over a scope (reading a property of nothing gives nothing when lenient). */
export type SimpleExpression = (scope: Scope, lenient: boolean) => unknown;

/** Property names an expression may never read (the engine refuses the same). */
const FORBIDDEN = new Set(['constructor', '__proto__', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);

const COMPARE: Readonly<Record<string, (a: unknown, b: unknown) => boolean>> = {
  '===': (a, b) => a === b,
  '!==': (a, b) => a !== b,
  // As the engine: the loose forms compare as their strict ones, null and undefined alike.
  '==': (a, b) => a === b || (a == null && b == null),
  '!=': (a, b) => !(a === b || (a == null && b == null)),
  '<': (a, b) => (a as number) < (b as number),
  '<=': (a, b) => (a as number) <= (b as number),
  '>': (a, b) => (a as number) > (b as number),
  '>=': (a, b) => (a as number) >= (b as number),
};

const TOKEN = /\s*(?:(===|!==|==|!=|<=|>=|&&|\|\||[<>!()[\],.])|('(?:[^'\\\n])*'|"(?:[^"\\\n])*")|(\d+(?:\.\d+)?)|([A-Za-z_$][\w$]*))/y;

interface Token {
  kind: 'op' | 'string' | 'number' | 'name';
  text: string;
}

function tokenize(source: string): Token[] | null {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break;
    const match = TOKEN.exec(source);
    if (!match) return null;
    if (match[1]) tokens.push({ kind: 'op', text: match[1] });
    else if (match[2]) tokens.push({ kind: 'string', text: match[2].slice(1, -1) });
    else if (match[3]) tokens.push({ kind: 'number', text: match[3] });
    else tokens.push({ kind: 'name', text: match[4] });
  }
  return tokens;
}

const LITERAL_NAMES: Readonly<Record<string, unknown>> = { true: true, false: false, null: null, undefined: undefined };
/** The engine's globals (Math, Number …): an expression naming one is the engine's. */
const GLOBAL_NAMES = new Set(['Math', 'Number', 'String', 'Boolean', 'JSON', 'Array', 'Date', 'parseInt', 'parseFloat', 'isNaN']);

class Parser {
  private at = 0;
  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
  ) {}

  private peek(text?: string): Token | undefined {
    const token = this.tokens[this.at];
    return text === undefined || (token?.kind === 'op' && token.text === text) ? token : undefined;
  }

  private take(text: string): boolean {
    if (!this.peek(text)) return false;
    this.at += 1;
    return true;
  }

  /** The whole expression, or null when it is not in the subset. */
  parse(): SimpleExpression | null {
    const expression = this.or();
    return expression && this.at === this.tokens.length ? expression : null;
  }

  private or(): SimpleExpression | null {
    let left = this.and();
    while (left && this.take('||')) {
      const [a, b] = [left, this.and()];
      if (!b) return null;
      left = (scope, lenient) => a(scope, lenient) || b(scope, lenient);
    }
    return left;
  }

  private and(): SimpleExpression | null {
    let left = this.comparison();
    while (left && this.take('&&')) {
      const [a, b] = [left, this.comparison()];
      if (!b) return null;
      left = (scope, lenient) => a(scope, lenient) && b(scope, lenient);
    }
    return left;
  }

  private comparison(): SimpleExpression | null {
    const left = this.unary();
    const token = this.peek();
    if (!left || token?.kind !== 'op' || !COMPARE[token.text]) return left;
    this.at += 1;
    const right = this.unary();
    if (!right) return null;
    const compare = COMPARE[token.text];
    return (scope, lenient) => compare(left(scope, lenient), right(scope, lenient));
  }

  private unary(): SimpleExpression | null {
    if (this.take('!')) {
      const operand = this.unary();
      return operand && ((scope, lenient) => !operand(scope, lenient));
    }
    return this.primary();
  }

  private primary(): SimpleExpression | null {
    if (this.take('(')) {
      const inner = this.or();
      return inner && this.take(')') ? inner : null;
    }
    if (this.peek('[')) return this.includes();
    const token = this.tokens[this.at];
    if (!token) return null;
    this.at += 1;
    if (token.kind === 'string') return () => token.text;
    if (token.kind === 'number') {
      const value = Number(token.text);
      return () => value;
    }
    if (token.kind !== 'name') return null;
    if (Object.prototype.hasOwnProperty.call(LITERAL_NAMES, token.text)) {
      const value = LITERAL_NAMES[token.text];
      return () => value;
    }
    return this.path(token.text);
  }

  /** `root.a.b` over the scope. */
  private path(root: string): SimpleExpression | null {
    if (GLOBAL_NAMES.has(root)) return null;
    const keys: string[] = [];
    while (this.peek('.')) {
      const name = this.tokens[this.at + 1];
      if (name?.kind !== 'name') return null;
      this.at += 2;
      keys.push(name.text);
    }
    // `.includes(` and other calls are the engine's.
    if (this.peek('(')) return null;
    const source = this.source;
    return (scope, lenient) => {
      if (!Object.prototype.hasOwnProperty.call(scope, root)) throw new ExpressionError(source, `引用了未知的名称 ${root}`);
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
    };
  }

  /** `[literal, …].includes(operand)`. */
  private includes(): SimpleExpression | null {
    this.at += 1;
    const values: unknown[] = [];
    while (!this.take(']')) {
      const token = this.tokens[this.at];
      if (!token) return null;
      if (token.kind === 'string') values.push(token.text);
      else if (token.kind === 'number') values.push(Number(token.text));
      else if (token.kind === 'name' && Object.prototype.hasOwnProperty.call(LITERAL_NAMES, token.text)) values.push(LITERAL_NAMES[token.text]);
      else return null;
      this.at += 1;
      if (!this.peek(']') && !this.take(',')) return null;
    }
    const name = this.tokens[this.at + 1];
    if (!this.peek('.') || name?.kind !== 'name' || name.text !== 'includes') return null;
    this.at += 2;
    if (!this.take('(')) return null;
    const operand = this.or();
    if (!operand || !this.take(')')) return null;
    return (scope, lenient) => values.includes(operand(scope, lenient));
  }
}

const compiled = new Map<string, SimpleExpression | null>();

/** The expression compiled without the engine, or null when it needs the engine. */
export function compileSimple(expression: string): SimpleExpression | null {
  if (compiled.has(expression)) return compiled.get(expression) ?? null;
  const tokens = tokenize(expression);
  const result = tokens && tokens.length ? new Parser(expression, tokens).parse() : null;
  compiled.set(expression, result);
  return result;
}

// Loaded, this module compiles the comparisons of every template (renderers/schema/template.ts).
setSimpleCompiler(compileSimple);
