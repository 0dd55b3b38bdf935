import { resolveTemplate, type Scope } from './template';
import type { Condition } from './types';

/**
 * Does a condition hold over the scope: its `{{…}}` expression's value is truthy. No condition
 * holds. One language for every condition (issue 33): an action's visibleWhen and disabledWhen, a
 * column's or a detail field's visibleWhen; a comparison of paths and literals is evaluated
 * without the expression engine (renderers/schema/simpleExpression.ts).
 */
export function conditionHolds(condition: Condition | undefined, scope: Scope): boolean {
  if (condition === undefined) return true;
  return Boolean(resolveTemplate(condition, scope));
}
