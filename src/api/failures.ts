import { errorPolicy, reportFailure, reportingProvider } from '../../renderers/data/policy';
import type { DataProvider } from '../../renderers/services';
import { api } from './client';
import { notify } from './notifier';

/**
 * The console's error policy (SPEC §8 through renderers/data/policy.ts): a refusal shows the
 * platform's message, a network failure 系统错误，请联系管理员, a cancelled call and "301" (the
 * session handler's) nothing. The console's cache tells its queries' and mutations' failures with
 * it (src/renderer/consoleQueries.ts); calls made outside the cache use `told` or `tellFailureOf`.
 */
export const tellFailure = errorPolicy(notify);

/** A call made outside the cache whose failure the user is told of (it still rejects). */
export function told<T>(promise: Promise<T>): Promise<T> {
  return reportFailure(promise, tellFailure);
}

/**
 * The console's client for calls made outside the cache, each failure told: the renderer's
 * actions, form submits, downloads and uploads (its `data`), and the console's own downloads.
 * Looked up at each call, so a test that replaces `api` sees the calls.
 */
export const toldApi: DataProvider = reportingProvider(
  {
    call: (...args) => api.call(...args),
    page: (...args) => api.page(...args),
    download: (...args) => api.download(...args),
    upload: (...args) => api.upload(...args),
  },
  tellFailure,
);
