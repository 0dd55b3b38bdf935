import jsep from 'jsep';

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

export class ExpressionError extends Error {
  constructor(
    readonly expression: string,
    reason: string,
  ) {
    super(`表达式 {{${expression}}} ${reason}`);
    this.name = 'ExpressionError';
  }
}

type Scope = Readonly<Record<string, unknown>>;

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

function propertyName(expression: string, node: jsep.MemberExpression, scope: Scope): string | number {
  const key = node.computed ? evaluateNode(expression, node.property, scope) : (node.property as jsep.Identifier).name;
  if (typeof key !== 'string' && typeof key !== 'number') throw new ExpressionError(expression, '的属性名必须是字符串或数字');
  if (FORBIDDEN_PROPERTIES.has(String(key))) throw new ExpressionError(expression, `不允许读取属性 ${String(key)}`);
  return key;
}

function member(expression: string, node: jsep.MemberExpression, scope: Scope): { target: unknown; value: unknown } {
  const target = evaluateNode(expression, node.object, scope);
  if (target === null || target === undefined) {
    if (node.optional) return { target, value: undefined };
    throw new ExpressionError(expression, '读取了空值的属性');
  }
  const key = propertyName(expression, node, scope);
  return { target, value: (target as Record<string | number, unknown>)[key] };
}

function evaluateNode(expression: string, node: jsep.Expression, scope: Scope): unknown {
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
      return (node as jsep.ArrayExpression).elements.map((element) => (element ? evaluateNode(expression, element, scope) : undefined));
    case 'MemberExpression':
      return member(expression, node as jsep.MemberExpression, scope).value;
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      const args = call.arguments.map((argument) => evaluateNode(expression, argument, scope));
      if (call.callee.type === 'MemberExpression') {
        const { target, value } = member(expression, call.callee as jsep.MemberExpression, scope);
        if (typeof value !== 'function') throw new ExpressionError(expression, '调用了不是函数的值');
        return (value as (...values: unknown[]) => unknown).apply(target, args);
      }
      const callee = evaluateNode(expression, call.callee, scope);
      if (typeof callee !== 'function') throw new ExpressionError(expression, '调用了不是函数的值');
      return (callee as (...values: unknown[]) => unknown)(...args);
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      const operate = UNARY[unary.operator];
      if (!operate) throw new ExpressionError(expression, `不支持运算符 ${unary.operator}`);
      return operate(evaluateNode(expression, unary.argument, scope));
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      // jsep parses && and || as binary operators: keep their short-circuit.
      if (binary.operator === '&&') return evaluateNode(expression, binary.left, scope) && evaluateNode(expression, binary.right, scope);
      if (binary.operator === '||') return evaluateNode(expression, binary.left, scope) || evaluateNode(expression, binary.right, scope);
      if (binary.operator === '??') return evaluateNode(expression, binary.left, scope) ?? evaluateNode(expression, binary.right, scope);
      const operate = BINARY[binary.operator];
      if (!operate) throw new ExpressionError(expression, `不支持运算符 ${binary.operator}`);
      return operate(evaluateNode(expression, binary.left, scope), evaluateNode(expression, binary.right, scope));
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      return evaluateNode(expression, conditional.test, scope)
        ? evaluateNode(expression, conditional.consequent, scope)
        : evaluateNode(expression, conditional.alternate, scope);
    }
    default:
      throw new ExpressionError(expression, `不支持 ${node.type} 语法`);
  }
}

/** Evaluates one expression (the text between `{{` and `}}`) over `scope`. */
export function evaluateExpression(expression: string, scope: Scope = {}): unknown {
  return evaluateNode(expression, parse(expression), scope);
}

/** Whether an expression is in the supported language (the schema check reports the reason). */
export function expressionProblem(expression: string): string | null {
  try {
    checkNode(expression, parse(expression));
    return null;
  } catch (error) {
    return (error as Error).message;
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
