/**
 * How a data call failed. The console's client rejects with an error of one of these kinds
 * (DESIGN.md "The envelope"); it has told the user already, except for a cancelled call.
 */
export type DataErrorKind = 'business' | 'session' | 'network' | 'cancelled';

export interface DataError extends Error {
  kind: DataErrorKind;
}

/** A call given up by its caller (the page went away, a newer request replaced it): nothing to show. */
export function isCancelled(error: unknown): boolean {
  return error instanceof Error && (error as Partial<DataError>).kind === 'cancelled';
}

/** The text a failed load shows in its place. */
export function failureText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : '加载失败';
}
