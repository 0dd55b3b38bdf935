/**
 * How a data call failed. The console's client rejects with an error of one of these kinds
 * (DESIGN.md "The envelope"); it has told the user already, except for a cancelled call.
 *
 * These are the only failures code above the client may catch and drop: anything else (a
 * TypeError in an action, a bad template) is a programming error and goes to the one reporter
 * (renderers/runtime/errorReporter.ts), never into an empty catch.
 */
export const DATA_ERROR_KINDS = ['business', 'session', 'network', 'cancelled'] as const;
export type DataErrorKind = (typeof DATA_ERROR_KINDS)[number];

export interface DataError extends Error {
  kind: DataErrorKind;
}

/** Is this a data call's failure (of one of `kinds`, any by default)? */
export function isDataError(error: unknown, kinds: readonly DataErrorKind[] = DATA_ERROR_KINDS): error is DataError {
  return error instanceof Error && kinds.includes((error as Partial<DataError>).kind as DataErrorKind);
}

/** A call given up by its caller (the page went away, a newer request replaced it): nothing to show. */
export function isCancelled(error: unknown): boolean {
  return isDataError(error, ['cancelled']);
}

/**
 * A form's refused validation: antd's validateFields rejects with `{ errorFields }`, Formily's
 * submit with the list of its fields' feedback. The messages are on the fields already.
 */
export function isValidationFailure(error: unknown): boolean {
  if (Array.isArray(error)) return error.every((item) => item && typeof item === 'object' && 'messages' in item);
  return typeof error === 'object' && error !== null && Array.isArray((error as { errorFields?: unknown }).errorFields);
}

/** The text a failed load shows in its place. */
export function failureText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : '加载失败';
}
