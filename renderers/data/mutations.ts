import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import { invalidateAfterChange } from './invalidation';
import type { DataSource } from './queries';

export interface OperationMutationOptions<T, P> {
  /**
   * What else the change makes stale, by operation name, besides the operation's own entity and
   * what lies below it (renderers/data/invalidation.ts): `mall.order.create` → `mall.goods.page`.
   */
  invalidates?: readonly string[];
  /** The caller shows a failure itself (in its place): the cache tells nobody. */
  handlesErrors?: boolean;
  /** After success, once what the change made stale is marked so. */
  onSuccess?: (answer: T, param: P) => void;
}

/**
 * A change made by a `call` operation (a publish, an order, a mark-as-read), as a TanStack
 * mutation in the source's cache: its failure is told by the MutationCache's onError (unless it
 * handles its own), and after success every cached answer it makes stale is marked so (those an
 * open page tab shows load again at once), not awaited: the change is done, the lists follow.
 */
export function useOperationMutationIn<T, P>(source: DataSource, operation: string, options: OperationMutationOptions<T, P> = {}): UseMutationResult<T, Error, P> {
  const { transport, queries } = source;
  const { invalidates, handlesErrors, onSuccess } = options;
  return useMutation<T, Error, P>(
    {
      mutationKey: [operation],
      mutationFn: (param) => transport.call<T>(operation, param),
      meta: handlesErrors ? { handlesErrors: true } : undefined,
      onSuccess: (answer, param) => {
        void invalidateAfterChange(queries, operation, invalidates);
        onSuccess?.(answer, param);
      },
    },
    queries,
  );
}
