import { isDataError, isValidationFailure } from '../data/errors';

/**
 * The one place a programming error goes (a TypeError in an action, a render that throws): the
 * console, and a hook the shell may set (to count them, send them to the server, tell the user).
 * Failures the user was already told of (a data call's, a refused validation) never come here.
 */
export type ErrorReporter = (error: unknown, where: string) => void;

let hook: ErrorReporter | null = null;

/** Sets the shell's hook (null removes it); answers the one it replaced. */
export function setErrorReporter(reporter: ErrorReporter | null): ErrorReporter | null {
  const previous = hook;
  hook = reporter;
  return previous;
}

export function reportError(error: unknown, where: string): void {
  console.error(`[${where}]`, error);
  try {
    hook?.(error, where);
  } catch (failure) {
    // A broken hook must not hide the error it was given.
    console.error('[errorReporter]', failure);
  }
}

/**
 * The catch of code that calls the platform: a data call's failure (told by the client, or
 * cancelled) and a form's refused validation end there; anything else is reported.
 * `promise.catch(expectedFailures('导出'))` or `catch (error) { expectedFailures('提交')(error) }`.
 */
export function expectedFailures(where: string): (error: unknown) => void {
  return (error) => {
    if (isDataError(error) || isValidationFailure(error)) return;
    reportError(error, where);
  };
}

/** As expectedFailures, answering `fallback` for the failure: `form.validateFields().catch(expectedOr(null, '修改密码'))`. */
export function expectedOr<T>(fallback: T, where: string): (error: unknown) => T {
  const settle = expectedFailures(where);
  return (error) => {
    settle(error);
    return fallback;
  };
}
