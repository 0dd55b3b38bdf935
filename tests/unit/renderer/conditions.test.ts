import { describe, expect, it } from 'vitest';
import { evaluateExpression } from '../../../renderers/form/expressions';
import { conditionHolds } from '../../../renderers/schema/condition';
import { compileSimple } from '../../../renderers/schema/simpleExpression';
import { makeScope } from '../../../renderers/schema/template';

/**
 * One condition language (issue 33): every condition is a `{{…}}` expression. The comparisons most
 * conditions are compile without jsep (renderers/schema/simpleExpression.ts), so a list page whose
 * row actions compare a field keeps the engine out of its first paint; they must answer exactly
 * what the engine answers.
 */
const SIMPLE = [
  "record.state === 'created'",
  'record.canDelete === true',
  'record.followed === false',
  'record.cardCount === 0',
  'record.cardCount == null',
  'record.missing != null',
  "record.enabled !== '0'",
  "['paid', 'confirmed'].includes(record.state)",
  "!['paid', 'confirmed'].includes(record.state)",
  '[1, 2, null].includes(record.level)',
  'record.stock < record.warnAt',
  'record.stock >= 10 && record.stock <= 20',
  '!record.locked',
  '!!record.locked',
  "record.state === 'created' || (record.canDelete && !record.locked)",
  'params.tab',
  'record.owner.name === "甲"',
  'record.nothing.deeper',
  'undefined === record.nothing',
];

const RECORDS = [
  { state: 'created', canDelete: true, followed: false, cardCount: 0, enabled: '1', level: 1, stock: 5, warnAt: 10, locked: false, owner: { name: '甲' } },
  { state: 'paid', canDelete: false, followed: true, cardCount: 3, enabled: '0', level: null, stock: 15, warnAt: 10, locked: true, owner: null },
  { state: 'confirmed', canDelete: 1, cardCount: null, missing: 0, stock: 20, warnAt: 20 },
  {},
];

describe('conditions without the expression engine', () => {
  it('compiles the comparisons conditions are, and answers what the engine answers, row by row', () => {
    for (const expression of SIMPLE) {
      const simple = compileSimple(expression);
      expect(simple, expression).not.toBeNull();
      for (const record of RECORDS) {
        const scope = makeScope({ record, params: { tab: 'all' } });
        expect(simple?.(scope, true), `${expression} over ${JSON.stringify(record)}`).toEqual(evaluateExpression(expression, scope, { lenient: true }));
      }
    }
  });

  it('leaves to the engine what is beyond paths, literals and comparisons', () => {
    for (const expression of ["user.roleList.includes('admin')", 'Math.max(record.a, 1)', 'record.a + 1', "record.a ? 'x' : 'y'", "record['a']", '-1 < record.a', "'it\\'s' === record.a", 'record.a === record.b === true', '', 'record.', '[record.a].includes(1)', 'a b'])
      expect(compileSimple(expression), expression).toBeNull();
  });

  it('refuses what the engine refuses: an unknown name, a forbidden property, a property of nothing when strict', () => {
    expect(() => compileSimple('nobody === 1')?.(makeScope({}), true)).toThrow('引用了未知的名称 nobody');
    expect(() => compileSimple('record.constructor === 1')?.(makeScope({ record: {} }), true)).toThrow('不允许读取属性 constructor');
    expect(() => compileSimple('record.a.b === 1')?.(makeScope({ record: {} }), false)).toThrow('读取了空值的属性');
  });

  it('a condition holds when its expression is truthy; no condition holds', () => {
    const scope = makeScope({ record: { state: 'paid', stock: 3, warnAt: 5 } });
    expect(conditionHolds("{{['paid', 'confirmed'].includes(record.state)}}", scope)).toBe(true);
    expect(conditionHolds('{{record.stock < record.warnAt}}', scope)).toBe(true);
    expect(conditionHolds("{{record.state === 'created'}}", scope)).toBe(false);
    expect(conditionHolds(undefined, scope)).toBe(true);
  });
});
