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
