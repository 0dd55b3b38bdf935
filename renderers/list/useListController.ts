import type { Key } from 'react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { usePageQuery, useRefresh } from '../data/queries';
import { NO_PARAMS, resolveTemplate } from '../schema/template';
import type { ListPage } from '../schema/types';
import { useRenderer, type PageResult, type SortParam } from '../services';
import { expectedFailures } from '../runtime/errorReporter';
import { filterDefaults } from './FilterForm';
import { decodeListState, encodeListState, sameListState, type ListState, type PageAddress } from './listAddress';

type Row = Record<string, unknown>;

export const DEFAULT_PAGE_SIZE = 20;

export interface Selection {
  keys: Key[];
  rows: Row[];
}

const NO_SELECTION: Selection = { keys: [], rows: [] };

/** Where a list starts: its filters' defaults, page 1, the schema's page size and order. */
export function listStart(page: ListPage): ListState {
  return {
    filters: filterDefaults(page.filters),
    pageNumber: 1,
    pageSize: page.pageSize ?? DEFAULT_PAGE_SIZE,
    sort: page.defaultSort ? [page.defaultSort] : [],
  };
}

/** The last page a list of `total` rows has at this size (1 for an empty list). */
export function lastPage(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

export interface ListControllerOptions {
  params?: Record<string, unknown>;
  /** Where the list keeps its state in the address; none: in memory only (a child list). */
  address?: PageAddress | null;
}

export interface ListController {
  state: ListState;
  /** The base param with the filters: what the page operation and the export are sent. */
  param: Record<string, unknown>;
  /** The rows shown (the last page's while the next loads). */
  rows: Row[];
  result: PageResult<Row> | undefined;
  total: number;
  /** A request is under way. */
  loading: boolean;
  /** Why the last load failed, when it did. */
  error: string | null;
  /** Reloads what the list shows (the `refresh` action, 重试, the refresh button). */
  refresh: () => void;
  search: (filters: Record<string, unknown>) => void;
  changePage: (pageNumber: number, pageSize: number) => void;
  changeSort: (sort: SortParam[]) => void;
  selection: Selection;
  select: (selection: Selection) => void;
  clearSelection: () => void;
  /** false when idle; null while an export starts; the fraction done once it reports one. */
  exporting: number | null | false;
  startExport: () => void;
}

/**
 * A list page's state and data, without its view (react-admin's useListController): the page
 * query, filters, page, page size and order, kept in the address when the page has one (a reload,
 * Back and Forward, a pasted link restore them), the selection, export, and the page clamp: a
 * page emptied by a change (its last row deleted) moves to the list's new last page.
 */
export function useListController(page: ListPage, { params = NO_PARAMS, address = null }: ListControllerOptions = {}): ListController {
  const { data, notify, user } = useRenderer();
  const start = useMemo(() => listStart(page), [page]);
  const [state, setState] = useState<ListState>(() => (address?.state ? decodeListState(address.state, start, page) : start));
  const [selection, setSelection] = useState<Selection>(NO_SELECTION);
  const [exporting, setExporting] = useState<number | null | false>(false);

  // The address: the latest state and writer for the callbacks, and the history entries seen.
  const latest = useRef({ state, address, start });
  useEffect(() => {
    latest.current = { state, address, start };
  });

  // What the list wrote that the address has not shown yet, oldest first: the router shows a
  // write a render or more later, so 查询 then 重置 before it does would otherwise compare 重置's
  // text with the address as it was before 查询 (equal: nothing written), and then follow 查询's
  // entry when it arrives, back to the filter just reset.
  const unshown = useRef<string[]>([]);

  /** Shows a state, and puts it in the address (when the page has one and it differs). */
  const move = useCallback((next: ListState, mode: 'push' | 'replace') => {
    const { address: where, start: from, state: current } = latest.current;
    if (sameListState(next, current)) return;
    setState(next);
    latest.current = { ...latest.current, state: next };
    if (!where) return;
    const text = encodeListState(next, from);
    if (text === (unshown.current.at(-1) ?? where.state)) return;
    unshown.current.push(text);
    where.write(text, mode);
  }, []);

  // The address moved (Back, Forward, a link, a menu or tab click): follow it. An entry with no
  // state of its own is the list as it starts when Back or Forward led there; a visit to the page
  // (its tab clicked, its menu chosen again) gets the state the list holds written into it.
  const entry = address?.entry;
  const written = address?.state;
  const arrival = address?.arrival;
  useEffect(() => {
    const where = latest.current.address;
    if (entry === undefined || written === undefined || !where) return;
    const { state: current, start: from } = latest.current;
    // One of the list's own writes: passed over when a later one is still to come (the state
    // already holds that one), and nothing to follow when it is the last (the state is its own).
    const own = unshown.current.indexOf(written);
    if (own >= 0) {
      unshown.current = unshown.current.slice(own + 1);
      return;
    }
    // Anything else is the address moving by itself (Back, Forward, a link): it wins.
    unshown.current = [];
    if (written) {
      const next = decodeListState(written, from, page);
      if (!sameListState(next, current)) setState(next);
    } else if (sameListState(current, from)) return;
    else if (arrival === 'traversal') setState(from);
    else where.write(encodeListState(current, from), 'replace');
  }, [entry, written, arrival, page]);

  // Compared by value: a parent may pass an equal params object on every render.
  const paramsKey = JSON.stringify(params);
  const baseParam = useMemo(
    () => (resolveTemplate(page.param ?? {}, { params: JSON.parse(paramsKey) as Record<string, unknown>, user }) ?? {}) as Record<string, unknown>,
    [page.param, paramsKey, user],
  );
  const param = useMemo(() => ({ ...baseParam, ...state.filters }), [baseParam, state.filters]);
  const query = usePageQuery<Row>(page.operation, { param, pageNumber: state.pageNumber, pageSize: state.pageSize, sort: state.sort });
  const result = query.data;

  // The page clamp: a page that came back empty while the list still has rows (its last row was
  // deleted, here or in another tab) moves to the list's last page, in place of the one it was.
  useEffect(() => {
    if (!result || query.placeholder || result.records.length > 0 || state.pageNumber === 1) return;
    const last = lastPage(result.total, state.pageSize);
    if (last < state.pageNumber) move({ ...state, pageNumber: last }, 'replace');
  }, [result, query.placeholder, state, move]);

  const refresh = useRefresh([page.operation]);
  const search = useCallback(
    (filters: Record<string, unknown>) => {
      const current = latest.current.state;
      const next = { ...current, filters, pageNumber: 1 };
      // The same search again is a reload (查询 pressed twice asks the platform again).
      if (sameListState(next, current)) refresh();
      else move(next, 'push');
    },
    [move, refresh],
  );
  const changePage = useCallback((pageNumber: number, pageSize: number) => move({ ...latest.current.state, pageNumber, pageSize }, 'push'), [move]);
  const changeSort = useCallback((sort: SortParam[]) => move({ ...latest.current.state, sort, pageNumber: 1 }, 'push'), [move]);
  const clearSelection = useCallback(() => setSelection(NO_SELECTION), []);

  const exportOperation = page.export?.operation;
  const startExport = useCallback(() => {
    if (!exportOperation) return;
    setExporting(null);
    data
      .download(exportOperation, param, { onProgress: (fraction) => setExporting(fraction) })
      .then((file) => notify.success(`已导出 ${file.fileName}`))
      .catch(expectedFailures(`导出 ${exportOperation}`))
      .finally(() => setExporting(false));
  }, [exportOperation, data, param, notify]);

  return {
    state,
    param,
    rows: result?.records ?? [],
    result,
    total: result?.total ?? 0,
    loading: query.fetching,
    error: query.error,
    refresh,
    search,
    changePage,
    changeSort,
    selection,
    select: setSelection,
    clearSelection,
    exporting,
    startExport,
  };
}
