import { useState } from 'react';
import { useQuery, type UseMutationResult } from '@tanstack/react-query';
import { useOperationMutationIn, type OperationMutationOptions } from '../../renderers/data/mutations';
import {
  useOperationQueryIn,
  usePageQueryIn,
  type DataSource,
  type Loaded,
  type OperationQueryOptions,
  type PageQueryOptions,
} from '../../renderers/data/queries';
import { operationKey, pageKey } from '../../renderers/data/keys';
import type { PageResult, SortParam } from '../../renderers/services';
import { consoleQueries } from './cache';
import { api } from './client';
import { onReconnected } from './connectivity';
import type { CallName, DataOf, OperationName, PageName, ParamOf, RecordOf } from './typed';

/**
 * The console's one data layer for its hand-written screens (issue 33): the renderer's hooks
 * (renderers/data, over TanStack Query) on the console's cache, typed by operation name from the
 * generated contracts (src/api/contracts.gen.ts, through src/api/typed.ts). A screen reads with
 * `useOperationQuery` / `usePageQuery` (cancelled through TanStack's signal when it goes away;
 * polling with `refetchInterval`) and changes with `useOperationMutation`, which marks stale what
 * the operation changes in every open tab. Failures are told by the cache (src/api/failures.ts),
 * unless the screen says it shows them itself (`handlesErrors`). No screen loads in an effect.
 */

export type { Loaded } from '../../renderers/data/queries';

/** The console's data source: its client (looked up at each call, so a test that replaces `api` sees the calls), cache and reconnection. */
export const consoleSource: DataSource = {
  transport: {
    call: (...args) => api.call(...args),
    page: (...args) => api.page(...args),
  },
  queries: consoleQueries,
  reconnected: onReconnected,
};

/** The param may be left out where every field is optional; otherwise it is required. */
type QueryArguments<N extends OperationName, O> = Record<string, never> extends ParamOf<N> ? [param?: ParamOf<N>, options?: O] : [param: ParamOf<N>, options?: O];

/** The answer of a `call` operation to a param, from the console's cache. */
export function useOperationQuery<N extends CallName>(operation: N, ...[param, options]: QueryArguments<N, OperationQueryOptions<DataOf<N>>>): Loaded<DataOf<N>> {
  return useOperationQueryIn<DataOf<N>>(consoleSource, operation, param ?? {}, options);
}

/** What one page of a `page` operation is asked with. */
export interface TypedPageQuery<N extends PageName> {
  param: ParamOf<N>;
  pageNumber: number;
  pageSize: number;
  sort: readonly SortParam[];
}

/** One page of a `page` operation, from the console's cache; the last page stays shown while the next loads. */
export function usePageQuery<N extends PageName>(operation: N, request: TypedPageQuery<N>, options?: PageQueryOptions): Loaded<PageResult<RecordOf<N>>> & { placeholder: boolean } {
  const { param, ...window } = request;
  return usePageQueryIn<RecordOf<N>>(consoleSource, operation, { ...window, param: (param ?? {}) as Record<string, unknown> }, options);
}

/** Options of a change: what else it makes stale (by operation name), whether it shows its failure itself, what follows success. */
export type MutationOptions<N extends CallName> = Omit<OperationMutationOptions<DataOf<N>, ParamOf<N>>, 'invalidates'> & { invalidates?: readonly OperationName[] };

/** A change made by a `call` operation, in the console's cache: told on failure, what it changes marked stale on success. */
export function useOperationMutation<N extends CallName>(operation: N, options: MutationOptions<N> = {}): UseMutationResult<DataOf<N>, Error, ParamOf<N>> {
  return useOperationMutationIn<DataOf<N>, ParamOf<N>>(consoleSource, operation, options);
}

/** Options of an imperative read: whether the caller shows its failure itself. */
export interface FetchOptions {
  handlesErrors?: boolean;
}

/**
 * The answer of a `call` operation asked for now, outside a component (the session's start, the
 * card check at start-up): fetched into the console's cache as a query of its own, so that a
 * failure is told by the cache's policy like any other (unless `handlesErrors`), and kept there for
 * whoever shows the same.
 */
export function fetchOperation<N extends CallName>(operation: N, ...[param, options]: QueryArguments<N, FetchOptions>): Promise<DataOf<N>> {
  const sent = param ?? {};
  return consoleQueries
    .fetchQuery<DataOf<N> | null>({
      queryKey: operationKey(operation, sent),
      // A call that answers nothing is cached as null (TanStack refuses undefined), and answered so.
      queryFn: async ({ signal }) => (await api.call<DataOf<N>>(operation, sent, { signal })) ?? null,
      staleTime: 0,
      meta: options?.handlesErrors ? { handlesErrors: true } : undefined,
    })
    .then((answer) => (answer ?? undefined) as DataOf<N>);
}

/** One page of a `page` operation asked for now, outside a component, into the console's cache (as `fetchOperation`). */
export function fetchPage<N extends PageName>(operation: N, request: TypedPageQuery<N>, options?: FetchOptions): Promise<PageResult<RecordOf<N>>> {
  const { param, pageNumber, pageSize, sort } = request;
  const sent = param ?? {};
  return consoleQueries.fetchQuery<PageResult<RecordOf<N>>>({
    queryKey: pageKey(operation, sent, { pageNumber, pageSize, sort }),
    queryFn: ({ signal }) => api.page<RecordOf<N>>(operation, { pageNumber, pageSize }, sent, [...sort], { signal }),
    staleTime: 0,
    meta: options?.handlesErrors ? { handlesErrors: true } : undefined,
  });
}

/**
 * The last answer a query gave, kept while a later one (another param's) loads or fails: a map
 * keeps its points, a board its panel. `initial` until the first answer.
 */
export function useLastAnswer<T>(answer: T | undefined, initial: T): T {
  const [last, setLast] = useState<T>(initial);
  // Stored during render (React's "information from previous renders"), so nothing flashes.
  if (answer !== undefined && answer !== last) setLast(answer);
  return answer ?? last;
}

/**
 * A reading made of several answers in turn (it asks with fetchOperation / fetchPage), held in the
 * console's cache under `key`: read once while `enabled` and never stale (what it found stays found
 * for the key), its failure told by nobody (the reading settles its own). undefined until read.
 */
export function useCombinedReading<T>(key: readonly unknown[], read: () => Promise<T>, { enabled }: { enabled: boolean }): T | undefined {
  const { data } = useQuery(
    { queryKey: ['reading', ...key], queryFn: read, enabled, staleTime: Infinity, retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false, meta: { handlesErrors: true } },
    consoleQueries,
  );
  return data;
}
