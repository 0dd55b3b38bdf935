/**
 * How a data call failed (DESIGN.md "The envelope"). The console's client rejects with a
 * `DataError` and tells nobody: what the user is told is the data layer's policy (the caches'
 * `onError`, renderers/data/queryClient.ts, and `reportFailure` for calls made outside the cache).
 *
 * These are the only failures code above the client may catch and drop: anything else (a
 * TypeError in an action, a bad template) is a programming error and goes to the one reporter
 * (renderers/runtime/errorReporter.ts), never into an empty catch.
 */
export const DATA_ERROR_KINDS = ['business', 'session', 'network', 'cancelled'] as const;
export type DataErrorKind = (typeof DATA_ERROR_KINDS)[number];

/** A data call's failure: what went wrong (`kind`), the platform's `code` and `message`, its request id. */
export class DataError extends Error {
  constructor(
    readonly kind: DataErrorKind,
    /** The envelope's code ("401", "500", …); null when the platform gave none (network, cancelled). */
    readonly code: string | null,
    /** What the user is told (the platform's message, or SPEC §8's). */
    message: string,
    /** The envelope's `data` with the refusal, when it carried any. */
    readonly data?: unknown,
    /** With a fault of the platform ("500"): its id of the request, which its logs name. */
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'DataError';
  }
}

/** Is this a data call's failure (of one of `kinds`, any by default)? A test's stand-in with a `kind` counts too. */
export function isDataError(error: unknown, kinds: readonly DataErrorKind[] = DATA_ERROR_KINDS): error is Error & Pick<DataError, 'kind'> & Partial<DataError> {
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
