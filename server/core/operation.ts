import type { Caller, OperationContext, ServerServices } from './context';
import { schemaOf, type ParamOf, type ParamSchema } from './params';

/** How a business area declares a catalogued operation (schemas/operations.json gives its path and kind). */

export interface OperationSpec<P, R, S extends ParamSchema = ParamSchema> {
  /** Schema of `param`; omitted = an empty object and nothing else. */
  paramSchema?: S;
  /** For an `upload` operation: the largest file it takes (DEFAULT_FILE_LIMIT_BYTES). */
  fileLimitBytes?: number;
  handler: (context: OperationContext<P>) => Promise<R>;
  /**
   * Called when the route refuses the input before the handler runs (a NUL character in a text
   * field, issue 18): an operation that keeps a record of every attempt (auth.login's login log)
   * records this one too. `param` is the body's param with every NUL shown as U+FFFD; the refusal
   * ("400") is answered after it whatever it does.
   */
  onRefusedInput?: (refused: RefusedInput) => Promise<void>;
}

/** What onRefusedInput learns of a refused request. */
export interface RefusedInput extends ServerServices {
  param: unknown;
  caller: Caller | null;
  client: { ip: string; userAgent: string };
  now: Date;
  /** The answer's message: "参数错误：loginName（不能包含空字符）". */
  reason: string;
}

/** An implemented operation, its param type erased: the route validated it against the schema. */
export interface OperationDefinition {
  name: string;
  paramSchema: ParamSchema;
  fileLimitBytes: number;
  handler: (context: OperationContext<unknown>) => Promise<unknown>;
  onRefusedInput?: (refused: RefusedInput) => Promise<void>;
}

/** The file size an `upload` operation accepts unless it says otherwise. */
export const DEFAULT_FILE_LIMIT_BYTES = 5 * 1024 * 1024;

/** The param of an operation that takes none: an empty object. */
export const EMPTY_PARAM = schemaOf<Record<string, never>>({ type: 'object', properties: {}, additionalProperties: false });

/**
 * Implements the catalogued operation `name` (schemas/operations.json gives its path and kind).
 * The handler's `param` is the type of the values `paramSchema` admits (core/params.ts's helpers
 * are TypeBox types: `Static`), an object without fields when there is none; there is no other
 * way to say it (issue 32), so the two cannot disagree. The answer is what the handler returns.
 */
export function defineOperation<S extends ParamSchema = ParamSchema, R = unknown>(name: string, spec: OperationSpec<ParamOf<S>, R, S>): OperationDefinition {
  return {
    name,
    paramSchema: spec.paramSchema ?? EMPTY_PARAM,
    fileLimitBytes: spec.fileLimitBytes ?? DEFAULT_FILE_LIMIT_BYTES,
    handler: (context) => spec.handler(context as OperationContext<ParamOf<S>>),
    ...(spec.onRefusedInput ? { onRefusedInput: spec.onRefusedInput } : {}),
  };
}
