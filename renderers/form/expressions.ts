import jsep from 'jsep';
import { ExpressionError } from '../schema/expressionError';
import { setExpressionEngine } from '../schema/template';

/**
 * The `{{ … }}` expressions of page schemas (x-reactions, x-visible …) without `eval`.
 *
 * Formily compiles them with `new Function` and `with`, which a Content-Security-Policy without
 * 'unsafe-eval' forbids, and which would run any script a schema carries. Here they are parsed
 * with jsep and evaluated over the scope Formily passes ($self, $form, $deps, $values, $record …):
 * literals, arrays, member access, calls of functions the scope holds, unary, binary, logical and
 * conditional operators. Nothing else: no assignment, no function literals, no `new`, no globals
 * (window, document, Function), and never a prototype's constructor.
 */

export { ExpressionError };

type Scope = Readonly<Record<string, unknown>>;

export interface EvaluateOptions {
  /**
   * Reading a property of nothing gives nothing instead of failing (page templates: a toolbar's
   * `record` is empty, a route may lack `params.id`). Formily's expressions stay strict.
   */
  lenient?: boolean;
}

/** Property names an expression may never read: they lead from a value to the code behind it. */
const FORBIDDEN_PROPERTIES = new Set(['constructor', '__proto__', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);

const BINARY: Record<string, (left: unknown, right: unknown) => unknown> = {
  '===': (a, b) => a === b,
  '!==': (a, b) => a !== b,
  // The loose forms compare as their strict ones: a schema never needs coercion surprises.
  '==': (a, b) => a === b || (a == null && b == null),
  '!=': (a, b) => !(a === b || (a == null && b == null)),
  '<': (a, b) => (a as number) < (b as number),
  '<=': (a, b) => (a as number) <= (b as number),
  '>': (a, b) => (a as number) > (b as number),
  '>=': (a, b) => (a as number) >= (b as number),
  '+': (a, b) => (typeof a === 'string' || typeof b === 'string' ? `${String(a)}${String(b)}` : (a as number) + (b as number)),
  '-': (a, b) => (a as number) - (b as number),
  '*': (a, b) => (a as number) * (b as number),
  '/': (a, b) => (a as number) / (b as number),
  '%': (a, b) => (a as number) % (b as number),
};

const UNARY: Record<string, (value: unknown) => unknown> = {
  '!': (value) => !value,
  '-': (value) => -(value as number),
  '+': (value) => +(value as number),
  typeof: (value) => typeof value,
};

/** The globals an expression may use besides its scope (what `with` used to fall through to). */
const GLOBALS: Readonly<Record<string, unknown>> = { Math, Number, String, Boolean, JSON, Array, Date, parseInt, parseFloat, isNaN };

/** Parsed expressions by source: a schema's reactions run on every change. */
const parsed = new Map<string, jsep.Expression>();

function parse(expression: string): jsep.Expression {
  let tree = parsed.get(expression);
  if (!tree) {
    try {
      tree = jsep(expression);
    } catch (error) {
      throw new ExpressionError(expression, `无法解析：${(error as Error).message}`);
    }
    parsed.set(expression, tree);
  }
  return tree;
}

function propertyName(expression: string, node: jsep.MemberExpression, scope: Scope, lenient: boolean): string | number {
  const key = node.computed ? evaluateNode(expression, node.property, scope, lenient) : (node.property as jsep.Identifier).name;
  if (typeof key !== 'string' && typeof key !== 'number') throw new ExpressionError(expression, '的属性名必须是字符串或数字');
  if (FORBIDDEN_PROPERTIES.has(String(key))) throw new ExpressionError(expression, `不允许读取属性 ${String(key)}`);
  return key;
}

function member(expression: string, node: jsep.MemberExpression, scope: Scope, lenient: boolean): { target: unknown; value: unknown } {
  const target = evaluateNode(expression, node.object, scope, lenient);
  if (target === null || target === undefined) {
    if (node.optional || lenient) return { target, value: undefined };
    throw new ExpressionError(expression, '读取了空值的属性');
  }
  const key = propertyName(expression, node, scope, lenient);
  return { target, value: (target as Record<string | number, unknown>)[key] };
}

function evaluateNode(expression: string, node: jsep.Expression, scope: Scope, lenient = false): unknown {
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).value;
    case 'Identifier': {
      const { name } = node as jsep.Identifier;
      if (name === 'undefined') return undefined;
      if (Object.prototype.hasOwnProperty.call(scope, name)) return scope[name];
      if (Object.prototype.hasOwnProperty.call(GLOBALS, name)) return GLOBALS[name];
      throw new ExpressionError(expression, `引用了未知的名称 ${name}`);
    }
    case 'ArrayExpression':
      return (node as jsep.ArrayExpression).elements.map((element) => (element ? evaluateNode(expression, element, scope, lenient) : undefined));
    case 'MemberExpression':
      return member(expression, node as jsep.MemberExpression, scope, lenient).value;
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      const args = call.arguments.map((argument) => evaluateNode(expression, argument, scope, lenient));
      if (call.callee.type === 'MemberExpression') {
        const { target, value } = member(expression, call.callee as jsep.MemberExpression, scope, lenient);
        if (typeof value !== 'function') throw new ExpressionError(expression, '调用了不是函数的值');
        return (value as (...values: unknown[]) => unknown).apply(target, args);
      }
      const callee = evaluateNode(expression, call.callee, scope, lenient);
      if (typeof callee !== 'function') throw new ExpressionError(expression, '调用了不是函数的值');
      return (callee as (...values: unknown[]) => unknown)(...args);
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      const operate = UNARY[unary.operator];
      if (!operate) throw new ExpressionError(expression, `不支持运算符 ${unary.operator}`);
      return operate(evaluateNode(expression, unary.argument, scope, lenient));
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      // jsep parses && and || as binary operators: keep their short-circuit.
      if (binary.operator === '&&') return evaluateNode(expression, binary.left, scope, lenient) && evaluateNode(expression, binary.right, scope, lenient);
      if (binary.operator === '||') return evaluateNode(expression, binary.left, scope, lenient) || evaluateNode(expression, binary.right, scope, lenient);
      if (binary.operator === '??') return evaluateNode(expression, binary.left, scope, lenient) ?? evaluateNode(expression, binary.right, scope, lenient);
      const operate = BINARY[binary.operator];
      if (!operate) throw new ExpressionError(expression, `不支持运算符 ${binary.operator}`);
      return operate(evaluateNode(expression, binary.left, scope, lenient), evaluateNode(expression, binary.right, scope, lenient));
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      return evaluateNode(expression, conditional.test, scope, lenient)
        ? evaluateNode(expression, conditional.consequent, scope, lenient)
        : evaluateNode(expression, conditional.alternate, scope, lenient);
    }
    default:
      throw new ExpressionError(expression, `不支持 ${node.type} 语法`);
  }
}

/** Evaluates one expression (the text between `{{` and `}}`) over `scope`. */
export function evaluateExpression(expression: string, scope: Scope = {}, options: EvaluateOptions = {}): unknown {
  return evaluateNode(expression, parse(expression), scope, options.lenient === true);
}

/** A name the expression may use besides its scope (Math, Number, JSON …). */
export function isGlobalName(name: string): boolean {
  return name === 'undefined' || Object.prototype.hasOwnProperty.call(GLOBALS, name);
}

/**
 * The names an expression reads from its scope (its roots: `params` of `params.id`), globals left
 * out; throws an ExpressionError when it does not parse. `npm run check` compares them with the
 * scope the expression will have.
 */
export function scopeNames(expression: string): string[] {
  const names = new Set<string>();
  const visit = (node: jsep.Expression | null | undefined): void => {
    if (!node) return;
    switch (node.type) {
      case 'Identifier': {
        const { name } = node as jsep.Identifier;
        if (!isGlobalName(name)) names.add(name);
        return;
      }
      case 'MemberExpression': {
        const memberNode = node as jsep.MemberExpression;
        visit(memberNode.object);
        if (memberNode.computed) visit(memberNode.property);
        return;
      }
      case 'ArrayExpression':
        (node as jsep.ArrayExpression).elements.forEach(visit);
        return;
      case 'CallExpression':
        visit((node as jsep.CallExpression).callee);
        (node as jsep.CallExpression).arguments.forEach(visit);
        return;
      case 'UnaryExpression':
        visit((node as jsep.UnaryExpression).argument);
        return;
      case 'BinaryExpression':
        visit((node as jsep.BinaryExpression).left);
        visit((node as jsep.BinaryExpression).right);
        return;
      case 'ConditionalExpression':
        visit((node as jsep.ConditionalExpression).test);
        visit((node as jsep.ConditionalExpression).consequent);
        visit((node as jsep.ConditionalExpression).alternate);
        return;
      default:
        return;
    }
  };
  visit(parse(expression));
  return [...names];
}

/**
 * The paths an expression reads from its scope, as far as they are plain (`record.owner.name` of
 * `record.owner.name.length > 0` is `record.owner.name.length`; a computed part ends the path):
 * `npm run check` compares `record.…` paths with the fields the operation answers.
 */
export function scopePaths(expression: string): string[] {
  const paths = new Set<string>();
  /** The plain path of a member chain; `open` is false once a computed part ended it. */
  const chain = (node: jsep.Expression): { parts: string[]; open: boolean } | null => {
    if (node.type === 'Identifier') return { parts: [(node as jsep.Identifier).name], open: true };
    if (node.type !== 'MemberExpression') return null;
    const memberNode = node as jsep.MemberExpression;
    const base = chain(memberNode.object);
    if (!base || !base.open) return base;
    if (memberNode.computed) return { parts: base.parts, open: false };
    return { parts: [...base.parts, (memberNode.property as jsep.Identifier).name], open: true };
  };
  const visit = (node: jsep.Expression | null | undefined): void => {
    if (!node) return;
    if (node.type === 'Identifier' || node.type === 'MemberExpression') {
      const found = chain(node);
      if (found && !isGlobalName(found.parts[0])) paths.add(found.parts.join('.'));
      if (node.type === 'MemberExpression') {
        const memberNode = node as jsep.MemberExpression;
        if (memberNode.computed) visit(memberNode.property);
        let object = memberNode.object;
        while (object.type === 'MemberExpression') {
          if ((object as jsep.MemberExpression).computed) visit((object as jsep.MemberExpression).property);
          object = (object as jsep.MemberExpression).object;
        }
        if (object.type !== 'Identifier') visit(object);
      }
      return;
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach((item) => item && typeof item === 'object' && 'type' in item && visit(item as jsep.Expression));
      else if (value && typeof value === 'object' && 'type' in value) visit(value as jsep.Expression);
    }
  };
  visit(parse(expression));
  return [...paths];
}

/** Whether an expression is in the supported language (the schema check reports the reason). */
export function expressionProblem(expression: string): string | null {
  return expressionError(expression)?.message ?? null;
}

/** The ExpressionError an expression is refused with before any scope exists, or null. */
export function expressionError(expression: string): ExpressionError | null {
  try {
    checkNode(expression, parse(expression));
    return null;
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
}

/** The static part of the rules: syntax and forbidden property names, before any scope exists. */
function checkNode(expression: string, node: jsep.Expression): void {
  switch (node.type) {
    case 'Literal':
    case 'Identifier':
      return;
    case 'ArrayExpression':
      (node as jsep.ArrayExpression).elements.forEach((element) => element && checkNode(expression, element));
      return;
    case 'MemberExpression': {
      const memberNode = node as jsep.MemberExpression;
      checkNode(expression, memberNode.object);
      if (memberNode.computed) checkNode(expression, memberNode.property);
      else if (FORBIDDEN_PROPERTIES.has((memberNode.property as jsep.Identifier).name)) {
        throw new ExpressionError(expression, `不允许读取属性 ${(memberNode.property as jsep.Identifier).name}`);
      }
      return;
    }
    case 'CallExpression':
      checkNode(expression, (node as jsep.CallExpression).callee);
      (node as jsep.CallExpression).arguments.forEach((argument) => checkNode(expression, argument));
      return;
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (!UNARY[unary.operator]) throw new ExpressionError(expression, `不支持运算符 ${unary.operator}`);
      checkNode(expression, unary.argument);
      return;
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      if (!BINARY[binary.operator] && !['&&', '||', '??'].includes(binary.operator)) throw new ExpressionError(expression, `不支持运算符 ${binary.operator}`);
      checkNode(expression, binary.left);
      checkNode(expression, binary.right);
      return;
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      checkNode(expression, conditional.test);
      checkNode(expression, conditional.consequent);
      checkNode(expression, conditional.alternate);
      return;
    }
    default:
      throw new ExpressionError(expression, `不支持 ${node.type} 语法`);
  }
}

// Loaded, this module is the templates' engine for every expression beyond a plain path
// (renderers/schema/template.ts keeps jsep out of pages whose templates are all paths).
setExpressionEngine(evaluateExpression);
