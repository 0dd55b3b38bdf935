import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import type { DataProvider, RendererServices } from '../services';
import type { ErrorPolicy } from './policy';

export interface DataQueryClientOptions {
  /**
   * What the user is told of a failed query or mutation (renderers/data/policy.ts): the client
   * tells nobody, the cache does, once per failure, unless its `meta.handlesErrors` says the
   * caller shows it. Without one (the benchmark pages, tests) nobody is told.
   */
  report?: ErrorPolicy;
}

/**
 * The renderer's cache of the platform's answers. Notification is its policy: the QueryCache's
 * and the MutationCache's `onError` tell the user (once per failed query, after its last try).
 * A query is not tried again by itself; the renderer loads again when the platform is back
 * (useRetryWhenBack in ./queries.ts) or on 重试, not on window focus; and a query runs whatever
 * `navigator.onLine` says: a call that cannot go out fails as it always did, instead of waiting
 * paused with a spinner.
 */
export function createDataQueryClient(options: DataQueryClientOptions = {}): QueryClient {
  const { report } = options;
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.handlesErrors) report?.(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.meta?.handlesErrors) report?.(error);
      },
    }),
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false, networkMode: 'always' },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

/** Caches of renderers whose host gave none (the benchmark pages): one per data provider. */
const OWN = new WeakMap<DataProvider, QueryClient>();

/**
 * The query cache a page uses: the console's (one for every page tab, so that a change made in
 * one tab refreshes what the others show), or, when the host gives none, one of the data
 * provider's own.
 */
export function queryClientOf(services: Pick<RendererServices, 'data' | 'queries'>): QueryClient {
  if (services.queries) return services.queries;
  let own = OWN.get(services.data);
  if (!own) {
    own = createDataQueryClient();
    OWN.set(services.data, own);
  }
  return own;
}
