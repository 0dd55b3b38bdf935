import type { DataProvider, NotificationProvider } from '../services';
import { reportError } from '../runtime/errorReporter';
import { isDataError } from './errors';

/**
 * What the user is told when a data call fails: the data layer's policy, not the transport's
 * (issue 33). The client rejects with a DataError and tells nobody; the caches' `onError`
 * (queryClient.ts) hand a failure here unless the query or mutation says it handles its own
 * (`meta.handlesErrors`), and a call made outside the cache says so by going through
 * `reportingProvider` or `reportFailure`.
 */

/** What a query or mutation says of itself (TanStack's `meta`). */
export interface DataMeta extends Record<string, unknown> {
  /**
   * The caller shows the failure itself, in its place or not at all (background polling, a panel
   * that shows its own error, the sign-in form): the cache tells nobody. A "301" still ends the
   * session through the session handler.
   */
  handlesErrors?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: DataMeta;
    mutationMeta: DataMeta;
  }
}

/** Told one failed call; the caches call it once per failed query or mutation. */
export type ErrorPolicy = (error: unknown) => void;

/**
 * SPEC §8 as a policy: a refusal shows the platform's message (with a fault's request id), a
 * network failure 系统错误，请联系管理员 (the DataError's message says which); a cancelled call shows
 * nothing; nor does "301", which the session handler announced once for the whole burst. Anything
 * that is not a data call's failure is a programming error and goes to the error reporter.
 */
export function errorPolicy(notify: Pick<NotificationProvider, 'error'>): ErrorPolicy {
  return (error) => {
    if (!isDataError(error)) return reportError(error, '数据请求');
    if (error.kind === 'business' || error.kind === 'network') notify.error(error.message);
  };
}

/** A promise whose failure is told by `policy`; it still rejects, with the same error. */
export function reportFailure<T>(promise: Promise<T>, policy: ErrorPolicy): Promise<T> {
  return promise.catch((error: unknown) => {
    policy(error);
    throw error;
  });
}

/**
 * A data provider for calls made outside the cache (an action's call, a form's submit, a
 * download, an upload): each failure is told by `policy`, as the caches tell theirs.
 */
export function reportingProvider(provider: DataProvider, policy: ErrorPolicy): DataProvider {
  return {
    call: (operation, param, options) => reportFailure(provider.call(operation, param, options), policy),
    page: (operation, pageParam, param, sort, options) => reportFailure(provider.page(operation, pageParam, param, sort, options), policy),
    download: (operation, param, options) => reportFailure(provider.download(operation, param, options), policy),
    upload: (operation, file, fileName, options) => reportFailure(provider.upload(operation, file, fileName, options), policy),
  };
}
