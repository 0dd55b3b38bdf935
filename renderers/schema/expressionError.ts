/** A `{{…}}` expression refused or failing: the expression and the reason, in Chinese. */
export class ExpressionError extends Error {
  constructor(
    readonly expression: string,
    /** What is wrong, without the expression (`无法解析：…`). */
    readonly reason: string,
  ) {
    super(`表达式 {{${expression}}} ${reason}`);
    this.name = 'ExpressionError';
  }
}
