import { keepPreviousData, useQuery, type QueryObserverResult } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';

/** TanStack's hook, for the data layer's other modules (renderers/data/fileUrls.ts). */
export { useQuery };
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useRenderer, type DataProvider, type PageResult } from '../services';
import { failureText, isCancelled } from './errors';
import { refreshOperations } from './invalidation';
import { operationKey, pageKey, type PageWindow } from './keys';
import { queryClientOf } from './queryClient';

/**
 * Where a component's data comes from: the calls (telling nobody), the cache they are kept in
 * (whose onError tells), and the platform coming back. A page gets the renderer's services'
 * (`useRendererSource`); the console's own screens the console's (src/api/data.ts).
 */
export interface DataSource {
  transport: Pick<DataProvider, 'call' | 'page'>;
  queries: QueryClient;
  /** Subscribes to the platform coming back after the network was lost (answers the unsubscribe). */
  reconnected?: (listener: () => void) => () => void;
}

/** The renderer's data source: its services' transport (or data provider), cache and reconnection. */
export function useRendererSource(): DataSource {
  const services = useRenderer();
  const { transport, data, reconnected } = services;
  const queries = queryClientOf(services);
  return useMemo(() => ({ transport: transport ?? data, queries, reconnected }), [transport, data, queries, reconnected]);
}

/** What a component shows of one query. */
export interface Loaded<T> {
  /** The answer; while a newer one is on its way, the last one (or none yet). */
  data: T | undefined;
  /** Nothing to show yet: no answer for this key has arrived (one may be null: a call that answers nothing). */
  loading: boolean;
  /** A request is under way (the first one, or a reload behind the shown answer). */
  fetching: boolean;
  /** Why the last load failed (the cache has told the user, unless the query handles its errors); never for a cancelled call. */
  error: string | null;
  /** The last load's failure itself (a DataError: its kind and code), null as `error`. */
  failure: Error | null;
  /** Asks again (重试). */
  reload: () => void;
}

function loaded<T>(query: QueryObserverResult<T>, data: T | undefined, waiting: boolean): Loaded<T> {
  const failed = query.isError && !query.isFetching && !isCancelled(query.error);
  // An answer, even null (a call that answers nothing), or the last one kept while another loads.
  const answered = query.isSuccess || query.data !== undefined;
  return {
    data,
    loading: waiting || (!answered && !failed),
    fetching: query.isFetching,
    error: failed ? failureText(query.error) : null,
    failure: failed ? query.error : null,
    reload: () => void query.refetch(),
  };
}

/** While `failed`, loads again (`retry`) as soon as the platform is back. */
function useRetryWhenBack(reconnected: DataSource['reconnected'], failed: boolean, retry: () => void): void {
  const latest = useRef(retry);
  useEffect(() => {
    latest.current = retry;
  });
  useEffect(() => {
    if (!failed || !reconnected) return;
    return reconnected(() => latest.current());
  }, [failed, reconnected]);
}

export interface OperationQueryOptions<T = unknown> {
  /** false: asks nothing (the param is not known yet); the result stays loading. */
  enabled?: boolean;
  /**
   * Only an answer fetched since this component mounted counts (a form's load: editing starts from
   * the record as it is now, never from a cached copy).
   */
  fresh?: boolean;
  /**
   * Asked again this often (ms) while shown: polling (the big screen's panels, the notification
   * counts); or, from the last answer, how long until the next ask (false: no more).
   */
  refetchInterval?: number | ((answer: T | undefined) => number | false);
  /** The caller shows a failure itself (in its place, or not at all): the cache tells nobody. */
  handlesErrors?: boolean;
  /** While another param's answer loads, the last one stays shown (a search as you type). */
  keepPrevious?: boolean;
}

/**
 * The answer of a `call` operation to a param, cached under `operationKey` and shared by every
 * component that asks the same. The request is cancelled through TanStack's signal when nobody
 * shows it any more; a cancelled request shows nothing. A failed one loads again when the
 * platform is back.
 */
export function useOperationQueryIn<T>(source: DataSource, operation: string | undefined, param: unknown, options: OperationQueryOptions<T> = {}): Loaded<T> {
  const { transport } = source;
  const enabled = operation !== undefined && options.enabled !== false;
  const interval = options.refetchInterval;
  const query = useQuery<T | null>(
    {
      queryKey: operationKey(operation ?? '', param),
      // A call that answers nothing is cached as null (TanStack refuses undefined).
      queryFn: async ({ signal }) => (await transport.call<T>(operation ?? '', param, { signal })) ?? null,
      enabled,
      refetchOnMount: options.fresh ? 'always' : true,
      refetchInterval: typeof interval === 'function' ? (query) => interval(query.state.data ?? undefined) : interval,
      placeholderData: options.keepPrevious ? keepPreviousData : undefined,
      meta: options.handlesErrors ? { handlesErrors: true } : undefined,
    },
    source.queries,
  );
  const answer = query.data === null ? undefined : query.data;
  const waiting = !enabled || (options.fresh === true && !query.isFetchedAfterMount);
  const result = loaded(query as QueryObserverResult<T>, waiting ? undefined : answer, waiting);
  useRetryWhenBack(source.reconnected, result.error !== null, result.reload);
  return result;
}

/** `useOperationQueryIn` with the renderer's data source (a detail page, a widget, a form's load, a select's options). */
export function useOperationQuery<T>(operation: string | undefined, param: unknown, options: OperationQueryOptions<T> = {}): Loaded<T> {
  return useOperationQueryIn<T>(useRendererSource(), operation, param, options);
}

export interface PageQuery extends PageWindow {
  /** The param sent: the page's base param with the filters. */
  param: Record<string, unknown>;
}

export interface PageQueryOptions {
  /** false: asks nothing yet. */
  enabled?: boolean;
  /** Asked again this often (ms) while shown (polling). */
  refetchInterval?: number;
  /** The caller shows a failure itself: the cache tells nobody. */
  handlesErrors?: boolean;
}

/** One page of a `page` operation; while another page loads, the last one stays shown. */
export function usePageQueryIn<T>(source: DataSource, operation: string, request: PageQuery, options: PageQueryOptions = {}): Loaded<PageResult<T>> & { placeholder: boolean } {
  const { transport } = source;
  const { param, pageNumber, pageSize, sort } = request;
  const query = useQuery<PageResult<T>>(
    {
      queryKey: pageKey(operation, param, { pageNumber, pageSize, sort }),
      queryFn: async ({ signal }) => {
        const result = await transport.page<T>(operation, { pageNumber, pageSize }, param, [...sort], { signal });
        return { ...result, records: result?.records ?? [] };
      },
      enabled: options.enabled !== false,
      refetchInterval: options.refetchInterval,
      placeholderData: keepPreviousData,
      meta: options.handlesErrors ? { handlesErrors: true } : undefined,
    },
    source.queries,
  );
  const result = loaded(query, query.data, options.enabled === false);
  useRetryWhenBack(source.reconnected, result.error !== null, result.reload);
  return { ...result, placeholder: query.isPlaceholderData };
}

/** `usePageQueryIn` with the renderer's data source (a list page). */
export function usePageQuery<T>(operation: string, request: PageQuery): Loaded<PageResult<T>> & { placeholder: boolean } {
  return usePageQueryIn<T>(useRendererSource(), operation, request);
}

/** The cache the current page's queries live in (for actions that change what they show). */
export function useDataQueries() {
  return queryClientOf(useRenderer());
}

/** A stable callback reloading everything the given operations answered (a page's refresh). */
export function useRefresh(operations: readonly string[]): () => void {
  const queries = useDataQueries();
  const names = operations.join('\n');
  return useCallback(() => {
    void refreshOperations(queries, names.split('\n'));
  }, [queries, names]);
}
