import { createContext } from 'react';
import type { ListPage } from '../schema/types';
import type { SortParam } from '../services';

/**
 * Where a page keeps its own state in the address, so that a reload, Back and Forward and a pasted
 * link restore it. The shell gives it to the page its route shows (src/renderer/ConsolePage.tsx);
 * a page inside another (a detail page's child list) gets none and keeps its state in memory.
 */
export interface PageAddress {
  /** The page's state as the address holds it now (URLSearchParams text), '' when none. */
  state: string;
  /** The history entry showing it (a new id whenever the address moves). */
  entry: string;
  /**
   * How the address came to this entry: `traversal` for Back and Forward (an entry without a state
   * is the list as it starts), `visit` for a move to the page (its tab or menu clicked: an entry
   * without a state gets the state the list holds written into it).
   */
  arrival: 'traversal' | 'visit';
  /**
   * Puts a state in the address: `push` for the user's move (Back returns to the one before),
   * `replace` for a correction (a page that no longer exists, a state written back). The shell
   * ignores it while the page is not the one the address shows (a hidden kept-alive tab): only
   * the current route's page writes its address.
   */
  write(state: string, mode: 'push' | 'replace'): void;
}

export const PageAddressContext = createContext<PageAddress | null>(null);

/** What a list shows: its filters, page, page size and order. */
export interface ListState {
  filters: Record<string, unknown>;
  pageNumber: number;
  pageSize: number;
  sort: SortParam[];
}

const PAGE = 'page';
const SIZE = 'size';
const SORT = 'sort';
const MAX_PAGE_SIZE = 1000;

/**
 * A filter value as address text: a string as itself unless it would read as another JSON value
 * ("12", "true", "null"), anything else (numbers, lists, ranges, booleans) as JSON, so that the
 * value comes back with its type: a project id stays a number, a device code of digits a string.
 */
export function filterText(value: unknown): string {
  if (typeof value === 'string') {
    try {
      JSON.parse(value);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      return value;
    }
  }
  return JSON.stringify(value);
}

export function filterValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return text;
  }
}

function sortText(sort: readonly SortParam[]): string {
  return sort.map((s) => (s.order === 'desc' ? `-${s.field}` : s.field)).join(',');
}

/** JSON with object keys in order: equal values read the same whatever order their keys came in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : item,
  );
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/**
 * A list's state as address text, holding only what differs from where the list starts: the
 * list as it starts is '' (a plain address), page 2 of a filtered list `deviceCode=abc&page=2`. A
 * filter with a default that the user cleared is written empty (`state=`); an order cleared from
 * the default one is `sort=`.
 */
export function encodeListState(state: ListState, start: ListState): string {
  const text = new URLSearchParams();
  const names = new Set([...Object.keys(start.filters), ...Object.keys(state.filters)]);
  for (const name of names) {
    const value = state.filters[name];
    if (same(value, start.filters[name])) continue;
    text.set(name, value === undefined ? '' : filterText(value));
  }
  if (state.pageNumber !== 1) text.set(PAGE, String(state.pageNumber));
  if (state.pageSize !== start.pageSize) text.set(SIZE, String(state.pageSize));
  if (!same(state.sort, start.sort)) text.set(SORT, sortText(state.sort));
  return text.toString();
}

function positive(text: string | null, max: number): number | undefined {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value >= 1 && value <= max ? value : undefined;
}

/**
 * The list state an address holds, over where the list starts. What the page does not declare
 * (a filter it has not, a column it cannot sort by, a page that is not a number) is left out: a
 * pasted link cannot send the platform more than the page's own form could.
 */
export function decodeListState(text: string, start: ListState, page: Pick<ListPage, 'filters' | 'columns'>): ListState {
  const address = new URLSearchParams(text);
  const declared = new Set(Object.keys(((page.filters?.properties ?? {}) as Record<string, unknown>) ?? {}));
  const filters: Record<string, unknown> = { ...start.filters };
  for (const [name, value] of address) {
    if (!declared.has(name)) continue;
    if (value === '') delete filters[name];
    else filters[name] = filterValue(value);
  }
  const sortable = new Set([...page.columns.filter((c) => c.sortable).map((c) => c.field), ...start.sort.map((s) => s.field)]);
  let sort = start.sort;
  const sortGiven = address.get(SORT);
  if (sortGiven !== null) {
    const parsed = sortGiven
      .split(',')
      .filter(Boolean)
      .map((part): SortParam => (part.startsWith('-') ? { field: part.slice(1), order: 'desc' } : { field: part, order: 'asc' }));
    if (parsed.every((s) => sortable.has(s.field))) sort = parsed;
  }
  return {
    filters,
    pageNumber: positive(address.get(PAGE), Number.MAX_SAFE_INTEGER) ?? 1,
    pageSize: positive(address.get(SIZE), MAX_PAGE_SIZE) ?? start.pageSize,
    sort,
  };
}

export function sameListState(a: ListState, b: ListState): boolean {
  return a.pageNumber === b.pageNumber && a.pageSize === b.pageSize && same(a.sort, b.sort) && same(a.filters, b.filters);
}
