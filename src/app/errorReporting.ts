import { isDataError, isValidationFailure } from '../../renderers/data/errors';
import { isRenderReport, reportError, setErrorContext, setErrorReporter, type ErrorReporter } from '../../renderers/runtime/errorReporter';
import type { Notifier } from '../api/notifier';
import { menuTrail } from '../frame/navigation';
import type { MenuResource } from '../session/types';

/**
 * The shell's side of the renderer's one reporter (renderers/runtime/errorReporter.ts, issue 20):
 * a programming error (a TypeError in an action, a render that throws, a promise nobody caught) is
 * logged once, with the page it happened on, and the user is told in a friendly sentence that
 * something went wrong (not the error's text). The four kinds of data failure (business, session,
 * network, cancelled) and refused validations never come here: the client told the user already.
 */

/** What the user is told of an unexpected error (at most once every NOTICE_INTERVAL_MS). */
export const ERROR_NOTICE = '页面出了点问题，操作可能没有完成：请重试或刷新页面，如仍出现请联系管理员';
export const NOTICE_INTERVAL_MS = 5000;

/** The page an error happened on: `页面 全部设备（/device/all?x=1，视图 device/all）`. */
export function pageContext(menus: readonly MenuResource[], location: Pick<Location, 'pathname' | 'search'>): string {
  const entry = menuTrail(menus, location.pathname).at(-1);
  const where = `${location.pathname}${location.search}`;
  if (!entry) return `页面 ${where}`;
  return `页面 ${entry.resourceName}（${where}${entry.fileUrl ? `，视图 ${entry.fileUrl}` : ''}）`;
}

export interface ErrorReportingOptions {
  notify: Pick<Notifier, 'error'>;
  /** The page shown now (pageContext of the session's menus and the address). */
  page: () => string | undefined;
  /** Where the uncaught errors and rejections are heard (the window). */
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  now?: () => number;
}

/** Installs the shell's reporter hook, page context and global listeners; answers how to remove them. */
export function installErrorReporting({ notify, page, target = window, now = Date.now }: ErrorReportingOptions): () => void {
  let noticeAt = -Infinity;
  const hook: ErrorReporter = (_error, where) => {
    // A render error is shown in place of the page by the error boundary (页面出错了 and 重试).
    if (isRenderReport(where)) return;
    const at = now();
    if (at - noticeAt < NOTICE_INTERVAL_MS) return;
    noticeAt = at;
    notify.error(ERROR_NOTICE);
  };
  const previousHook = setErrorReporter(hook);
  const previousContext = setErrorContext(page);
  const onError = (event: ErrorEvent) => reportError(event.error ?? new Error(event.message), '未捕获的错误');
  const onRejection = (event: PromiseRejectionEvent) => {
    if (isDataError(event.reason) || isValidationFailure(event.reason)) return;
    reportError(event.reason, '未处理的异步错误');
  };
  target.addEventListener('error', onError as EventListener);
  target.addEventListener('unhandledrejection', onRejection as EventListener);
  return () => {
    target.removeEventListener('error', onError as EventListener);
    target.removeEventListener('unhandledrejection', onRejection as EventListener);
    setErrorReporter(previousHook);
    setErrorContext(previousContext);
  };
}
