import { describe, expect, it } from 'vitest';
import { evaluateExpression, ExpressionError, expressionProblem } from '../../../renderers/form/expressions';

describe('schema expressions without eval', () => {
  const scope = {
    $self: { value: 'abc', query: (path: string) => ({ path }) },
    $form: { initialValues: { roleCode: 'R1', items: [1, 2, 3] }, values: { kind: 'gateway', count: 4 } },
    $deps: ['direct', 0],
    $values: { enabled: true },
  };

  it('evaluates what the schemas write: negation, member access, comparisons, logic and conditionals', () => {
    expect(evaluateExpression('!!$form.initialValues.roleCode', scope)).toBe(true);
    expect(evaluateExpression('!$form.initialValues.missing', scope)).toBe(true);
    expect(evaluateExpression("$deps[0] === 'direct'", scope)).toBe(true);
    expect(evaluateExpression("$form.values.kind !== 'gateway' ? 'none' : 'flex'", scope)).toBe('flex');
    expect(evaluateExpression('$form.values.count * 2 + 1 >= 9', scope)).toBe(true);
    expect(evaluateExpression('$deps[1] || 10', scope)).toBe(10);
    expect(evaluateExpression('$deps[5] ?? "默认"', scope)).toBe('默认');
    expect(evaluateExpression("'共' + $form.initialValues.items.length + '项'", scope)).toBe('共3项');
    expect(evaluateExpression('[1, $values.enabled]', scope)).toEqual([1, true]);
    expect(evaluateExpression('$form.values?.missing?.deeper', scope)).toBeUndefined();
    expect(evaluateExpression('$self.query("a.b").path', scope)).toBe('a.b');
    expect(evaluateExpression('$form.initialValues.items.includes(2)', scope)).toBe(true);
    expect(evaluateExpression('Math.max($deps[1], 3)', scope)).toBe(3);
    expect(evaluateExpression('undefined === $values.none', scope)).toBe(true);
  });

  it('short-circuits && and || like JavaScript', () => {
    expect(evaluateExpression('false && $nothing.at.all', scope)).toBe(false);
    expect(evaluateExpression('true || $nothing.at.all', scope)).toBe(true);
  });

  it('refuses what could run code or reach outside the scope', () => {
    const refused = [
      "$self.constructor.constructor('return this')()",
      "$form['constructor']",
      '$form.__proto__',
      'window.location',
      'document.cookie',
      'globalThis',
      'Function("alert(1)")()',
      'eval("1")',
      'alert(1)',
      '$self.query.constructor',
      'Math.max.constructor("x")',
    ];
    for (const expression of refused) expect(() => evaluateExpression(expression, scope), expression).toThrow(ExpressionError);
  });

  it('names the expression and the reason in Chinese', () => {
    expect(() => evaluateExpression('window.x', scope)).toThrow('表达式 {{window.x}} 引用了未知的名称 window');
    expect(() => evaluateExpression("$form['constructor']", scope)).toThrow('不允许读取属性 constructor');
    expect(() => evaluateExpression('1 +', scope)).toThrow(/无法解析/);
    expect(() => evaluateExpression('$form.values.kind()', scope)).toThrow('调用了不是函数的值');
  });

  it('checks an expression before any scope exists (npm run check)', () => {
    expect(expressionProblem('!!$form.initialValues.roleCode')).toBeNull();
    expect(expressionProblem('a.constructor')).toMatch(/不允许读取属性 constructor/);
    expect(expressionProblem('a ~ b')).not.toBeNull();
    expect(expressionProblem('this.x')).toMatch(/不支持/);
  });
});
