/**
 * The parameter vocabulary every operation's `paramSchema` is written in (issue 32): bounded text,
 * plain text a person types, display orders, and the times and time ranges of the pickers. One
 * definition each, so that two lists never accept a time or a name differently.
 */

/** A JSON Schema (draft 7, as Fastify's ajv reads it) for an operation's `param`. */
export type ParamSchema = Readonly<Record<string, unknown>>;

/** Schema helpers that keep every string bounded. */
export const text = (maxLength: number, minLength = 0): ParamSchema => ({ type: 'string', minLength, maxLength });
export const objectOf = (properties: Record<string, ParamSchema>, required: string[] = []): ParamSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/**
 * Plain text a person types (names, labels): at least one visible character, and never '<' or
 * '>', so no markup is ever stored ("400" 参数错误：field（格式不正确）).
 */
export const plainText = (maxLength: number): ParamSchema => ({ type: 'string', minLength: 1, maxLength, pattern: '^[^<>]*[^<>\\s][^<>]*$' });

/** Optional plain text (remarks): may be empty, still never '<' or '>'. */
export const optionalPlainText = (maxLength: number): ParamSchema => ({ type: 'string', maxLength, pattern: '^[^<>]*$' });

/** A display order; null (a cleared number input) keeps the current one. */
export const sortOrder: ParamSchema = { anyOf: [{ type: 'integer', minimum: 0, maximum: 1_000_000 }, { type: 'null' }] };

/** A date or date-time as the console's pickers send them (or an ISO time a record carried). */
export const TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?)?$';
export const timeText: ParamSchema = { type: 'string', maxLength: 32, pattern: TIME_PATTERN };
/** An optional time: a cleared picker sends null or an empty string. */
export const optionalTime: ParamSchema = { anyOf: [timeText, { type: 'string', maxLength: 0 }, { type: 'null' }] };
/** [start, end] as the console's range pickers send them. */
export const timeRange: ParamSchema = { type: 'array', minItems: 2, maxItems: 2, items: timeText };
