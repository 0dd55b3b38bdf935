import { isDataError, isValidationFailure } from '../data/errors';

/**
 * The one place a programming error goes (a TypeError in an action, a render that throws): the
 * console, and a hook the shell may set (to count them, send them to the server, tell the user).
 * Failures the user was already told of (a data call's, a refused validation) never come here.
 */
export type ErrorReporter = (error: unknown, where: string) => void;

let hook: ErrorReporter | null = null;
/** Where the user was (the shell's page: menu name, path, view), added to each logged error. */
let context: (() => string | undefined) | null = null;
/** The errors reported already: one error reaching two catches (a boundary and the root's) is logged once. */
const reported = new WeakSet<object>();

/** What a render error's `where` starts with (the boundary shows such an error in place of the page). */
export const RENDER_WHERE = '渲染';

/** The `where` of a render error: 渲染, and the component that threw when React names it. */
export function renderWhere(componentStack?: string | null): string {
  const first = componentStack?.trim().split('\n')[0]?.trim();
  return first ? `${RENDER_WHERE}：${first}` : RENDER_WHERE;
}

export function isRenderReport(where: string): boolean {
  return where.startsWith(RENDER_WHERE);
}

/** Sets the shell's hook (null removes it); answers the one it replaced. */
export function setErrorReporter(reporter: ErrorReporter | null): ErrorReporter | null {
  const previous = hook;
  hook = reporter;
  return previous;
}

/** Sets what the shell says of the page an error happened on (null removes it); answers the one it replaced. */
export function setErrorContext(provider: (() => string | undefined) | null): (() => string | undefined) | null {
  const previous = context;
  context = provider;
  return previous;
}

export function reportError(error: unknown, where: string): void {
  if (typeof error === 'object' && error !== null) {
    if (reported.has(error)) return;
    reported.add(error);
  }
  const page = context?.();
  if (page) console.error(`[${where}] ${page}`, error);
  else console.error(`[${where}]`, error);
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
