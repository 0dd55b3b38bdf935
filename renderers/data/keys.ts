import type { SortParam } from '../services';

/**
 * Query keys: what identifies one answer of the platform in the renderer's cache (TanStack Query).
 * The first element is always the operation's catalogue name, so that what a change touches is
 * found by name (see `invalidation.ts`); then the param sent, and for a page the page asked for.
 * TanStack hashes keys by value with object keys sorted: `{ a, b }` and `{ b, a }` are one key.
 */
export type OperationKey = readonly [operation: string, param: unknown];

export interface PageWindow {
  pageNumber: number;
  pageSize: number;
  sort: readonly SortParam[];
}

export type PageKey = readonly [operation: string, param: unknown, page: PageWindow];

export type DataKey = OperationKey | PageKey;

/** The key of a `call` (or `get`) operation's answer to a param. */
export function operationKey(operation: string, param: unknown): OperationKey {
  return [operation, param ?? {}];
}

/** The key of one page of a `page` operation: param, page number and size, order. */
export function pageKey(operation: string, param: unknown, page: PageWindow): PageKey {
  return [operation, param ?? {}, { pageNumber: page.pageNumber, pageSize: page.pageSize, sort: page.sort }];
}

/** The operation a key belongs to (undefined for a key the renderer did not make). */
export function keyOperation(key: readonly unknown[]): string | undefined {
  return typeof key[0] === 'string' ? key[0] : undefined;
}
