import type { Rule } from '../../validation/rules';

export interface ValidatorRule {
  validator: (meta: unknown, value: unknown) => Promise<void>;
}

/** Adapts a SPEC §5 rule to an antd form rule. */
export function antdRule(rule: Rule): ValidatorRule {
  return {
    validator: (_meta, value) => {
      const message = rule(value);
      return message ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  };
}
