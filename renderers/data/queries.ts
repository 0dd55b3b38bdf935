import { keepPreviousData, useQuery, type QueryObserverResult } from '@tanstack/react-query';

/** TanStack's hook, for the data layer's other modules (renderers/data/fileUrls.ts). */
export { useQuery };
import { useCallback } from 'react';
import { useRetryOnReconnect } from '../runtime/reconnect';
import { useRenderer, type PageResult } from '../services';
import { failureText, isCancelled } from './errors';
import { refreshOperations } from './invalidation';
import { operationKey, pageKey, type PageWindow } from './keys';
import { queryClientOf } from './queryClient';

/** What a component shows of one query. */
export interface Loaded<T> {
  /** The answer; while a newer one is on its way, the last one (or none yet). */
  data: T | undefined;
  /** Nothing to show yet: no answer for this key has arrived (one may be null: a call that answers nothing). */
  loading: boolean;
  /** A request is under way (the first one, or a reload behind the shown answer). */
  fetching: boolean;
  /** Why the last load failed (the client has told the user); never for a cancelled call. */
  error: string | null;
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
    reload: () => void query.refetch(),
  };
}

export interface OperationQueryOptions {
  /** false: asks nothing (the param is not known yet); the result stays loading. */
  enabled?: boolean;
  /**
   * Only an answer fetched since this component mounted counts (a form's load: editing starts from
   * the record as it is now, never from a cached copy).
   */
  fresh?: boolean;
}

/**
 * The answer of a `call` operation to a param, cached under `operationKey` and shared by every
 * component that asks the same: a detail page, a dashboard widget, a form's load, the options of
 * a select. The request is cancelled through TanStack's signal when nobody shows it any more; a
 * cancelled request shows nothing. A failed one loads again when the platform is back.
 */
export function useOperationQuery<T>(operation: string | undefined, param: unknown, options: OperationQueryOptions = {}): Loaded<T> {
  const services = useRenderer();
  const { data } = services;
  const enabled = operation !== undefined && options.enabled !== false;
  const query = useQuery<T | null>(
    {
      queryKey: operationKey(operation ?? '', param),
      // A call that answers nothing is cached as null (TanStack refuses undefined).
      queryFn: async ({ signal }) => (await data.call<T>(operation ?? '', param, { signal })) ?? null,
      enabled,
      refetchOnMount: options.fresh ? 'always' : true,
    },
    queryClientOf(services),
  );
  const answer = query.data === null ? undefined : query.data;
  const waiting = !enabled || (options.fresh === true && !query.isFetchedAfterMount);
  const result = loaded(query as QueryObserverResult<T>, waiting ? undefined : answer, waiting);
  useRetryOnReconnect(result.error !== null, result.reload);
  return result;
}

export interface PageQuery extends PageWindow {
  /** The param sent: the page's base param with the filters. */
  param: Record<string, unknown>;
}

/** One page of a `page` operation; while another page loads, the last one stays shown. */
export function usePageQuery<T>(operation: string, request: PageQuery): Loaded<PageResult<T>> & { placeholder: boolean } {
  const services = useRenderer();
  const { data } = services;
  const { param, pageNumber, pageSize, sort } = request;
  const query = useQuery<PageResult<T>>(
    {
      queryKey: pageKey(operation, param, { pageNumber, pageSize, sort }),
      queryFn: async ({ signal }) => {
        const result = await data.page<T>(operation, { pageNumber, pageSize }, param, [...sort], { signal });
        return { ...result, records: result?.records ?? [] };
      },
      placeholderData: keepPreviousData,
    },
    queryClientOf(services),
  );
  const result = loaded(query, query.data, false);
  useRetryOnReconnect(result.error !== null, result.reload);
  return { ...result, placeholder: query.isPlaceholderData };
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
