import type { QueryClient } from '@tanstack/react-query';
import { keyOperation } from './keys';

/**
 * The entity an operation belongs to: its name without the last dotted segment (the verb).
 * `device.delete` → `device`, `system.user.modify` → `system.user`; a name without a dot is its own.
 */
export function entityOf(operation: string): string {
  const dot = operation.lastIndexOf('.');
  return dot < 0 ? operation : operation.slice(0, dot);
}

/**
 * Does a change made by `changed` (a call, a form submit) make the answers of `shown` stale? Yes
 * when `shown` belongs to the same entity or below it (`device.delete` → `device.page`,
 * `device.get`, `device.group.list`), or when the page schema declared it in `invalidates`.
 */
export function isStaleAfter(changed: string, shown: string, declared: readonly string[] = []): boolean {
  const entity = entityOf(changed);
  return shown === entity || shown.startsWith(`${entity}.`) || declared.includes(shown);
}

/**
 * Marks every cached answer a change made stale; those some mounted component shows (any open
 * page tab, hidden kept-alive ones included) are fetched again at once, the rest when next shown.
 * Not awaited by callers: the change is done, the lists follow.
 */
export function invalidateAfterChange(queries: QueryClient, changed: string, declared: readonly string[] = []): Promise<void> {
  return queries.invalidateQueries({
    predicate: (query) => {
      const shown = keyOperation(query.queryKey);
      return shown !== undefined && isStaleAfter(changed, shown, declared);
    },
  });
}

/**
 * Reloads what a page shows: the answers of these operations (the `refresh` action, 重试, the
 * refresh button). A fetch already under way is kept rather than started again.
 */
export function refreshOperations(queries: QueryClient, operations: readonly string[]): Promise<void> {
  const names = new Set(operations);
  return queries.invalidateQueries(
    {
      predicate: (query) => {
        const shown = keyOperation(query.queryKey);
        return shown !== undefined && names.has(shown);
      },
    },
    { cancelRefetch: false },
  );
}
