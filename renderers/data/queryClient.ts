import { QueryClient } from '@tanstack/react-query';
import type { DataProvider, RendererServices } from '../services';

/**
 * The renderer's cache of the platform's answers. The console's client has told the user about a
 * failed call already, so a query is not tried again by itself (a retry would say it twice);
 * the renderer loads again when the platform is back (`useRetryOnReconnect`) or on 重试, not on
 * window focus; and a query runs whatever `navigator.onLine` says: a call that cannot go out fails
 * as it always did, instead of waiting paused with a spinner.
 */
export function createDataQueryClient(): QueryClient {
  return new QueryClient({
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
