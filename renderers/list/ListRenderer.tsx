import { Alert, Button, Card, Grid, Pagination, Spin, Table, Tag, type TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { cloneElement, isValidElement, lazy, Suspense, useCallback, useContext, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type HTMLAttributes, type Key, type ReactNode } from 'react';
import { RowActions, rowActionsWidth } from '../actions/RowActions';
import { actionScope, actionVisible, conditionHolds, type ActionRuntime } from '../actions/runAction';
import { TemplateScopeProvider } from '../schema/scope';
import { makeScope, NO_PARAMS } from '../schema/template';
import { useFirstPaintHold } from '../runtime/firstPaint';
import { useLazyPageHost } from '../runtime/lazyPageHost';
import { useScrollRegion } from '../runtime/scrollRegion';
import { SecondaryText } from '../runtime/text';
import { displayTraits, renderCell } from '../displays/displays';
import type { ListPage } from '../schema/types';
import { permitted, useRenderer } from '../services';
import { CUT_CSS, fitColumns, minimumWidth, READABLE_WIDTH } from './columnWidths';
import { IDENTIFIER_CLASS, IDENTIFIER_CSS, identifierWidth, isIdentifier, LIVE_MARK_WIDTH } from './identifiers';
import { arrange, clearPreferences, defaultPreferences, loadPreferences, savePreferences, type ColumnPreferences } from './columnPreferences';
import { FilterForm } from './FilterForm';
import { FilterToggle } from './FilterToggle';
import { PageAddressContext } from './listAddress';
import { ListToolbar } from './ListToolbar';
import { LIVE_MARK_FADE_MS, rowMarkKey, useLiveMarks } from './liveMark';
import { useListController } from './useListController';

/** The card view is fetched only by a list shown at a phone's width. */
const ListCards = lazy(() => import('./ListCards'));

/** The accessible names of the selection boxes (issue 21: an axe crawl found them unnamed). */
export const SELECT_PAGE_LABEL = '全选本页';
export const SELECT_ROW_LABEL = '选择';

type Row = Record<string, unknown>;

const PAGE_SIZES = { plain: [10, 20, 50, 100], virtual: [10, 20, 50, 100, 500, 1000] };
/** The selection column's width (checkboxes). */
const SELECTION_WIDTH = 48;
const DEFAULT_COLUMN_WIDTH = 140;
const GROUPED = new Intl.NumberFormat('en-US');

/** 共 13,900 条; a list longer than the server counts exactly: 共 10,000+ 条. */
export function totalText(total: number, atLeast?: number): string {
  return atLeast === undefined ? `共 ${GROUPED.format(total)} 条` : `共 ${GROUPED.format(atLeast)}+ 条`;
}

/**
 * The pager's count. Past what the server counts exactly the pager's pages follow the server's
 * estimate (page 694 of 13,900 rows is there), so the estimate is shown as one beside the rows
 * counted: 共 10,000+ 条（估算约 13,900 条） — not a count of 10,000 with pages past it unexplained.
 */
export function PagerTotal({ total, atLeast }: { total: number; atLeast?: number }) {
  if (atLeast === undefined) return <>{totalText(total)}</>;
  return (
    <>
      <span>{totalText(total, atLeast)}</span>
      <span data-testid="pager-estimate" title="超过确切计数的部分按数据库估算，页数随之估算">{`（估算约 ${GROUPED.format(total)} 条）`}</span>
    </>
  );
}

/** What marks a row the live stream brought (`liveMark`): a word, not a colour alone. */
export const LIVE_MARK_TEXT = '新';
export const LIVE_MARK_TITLE = '页面打开后实时到达';
/**
 * A new row's highlight fades from when its event arrived (a row drawn later, on another page or
 * after a reload of the list, starts part-way through): the cells' background, so that the fixed
 * columns fade with the rest. None for a user who asked for less motion: the tag says it.
 */
const LIVE_MARK_STYLE = `@keyframes live-new-row-fade { from { background-color: #fff1b8; } to { background-color: transparent; } }
.live-new-row > td { animation: live-new-row-fade ${LIVE_MARK_FADE_MS}ms ease-out; animation-delay: var(--live-mark-delay, 0ms); }
@media (prefers-reduced-motion: reduce) { .live-new-row > td { animation: none; } }`;

/** The mark on a card of a row the live stream brought. */
const CARD_LIVE_MARK = (
  <Tag color="error" title={LIVE_MARK_TITLE} data-testid="live-mark" style={{ marginInlineEnd: 4 }}>
    {LIVE_MARK_TEXT}
  </Tag>
);

/**
 * The width the table may take (its holder's), in steps of 8 px so that a resize by a pixel does
 * not build the columns again; 0 until measured (and in a DOM without layout).
 */
function useAvailableWidth() {
  const holder = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = holder.current;
    if (!element) return;
    const measure = () => setWidth(Math.floor(element.clientWidth / 8) * 8);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { holder, width };
}

/**
 * rc-table renders every cell's content again whenever the table renders: selecting a row, or all
 * 1,000, redrew every visible cell of every column. A column built once by `columns` below draws a
 * row again only when the row is a new object or the column itself was rebuilt (its inputs
 * changed: preferences, sort, services, actions), because a rebuild starts with nothing drawn.
 * What each row has drawn is one number of bits a row (a bit a column), not a set a column: 21
 * WeakSets over 1,000 rows held 650 KiB of the page's heap (issue 35, goal 5).
 */
function drawnCells() {
  const drawn = new WeakMap<Row, number[]>();
  return (column: number) => {
    const word = column >> 5;
    const bit = 1 << (column & 31);
    return {
      drawing: (record: Row) => {
        let words = drawn.get(record);
        if (!words) drawn.set(record, (words = []));
        words[word] = (words[word] ?? 0) | bit;
      },
      shouldCellUpdate: (record: Row, previous: Row) => record !== previous || ((drawn.get(record)?.[word] ?? 0) & bit) === 0,
    };
  };
}

/** Chinese names for the selection boxes: antd names the header one "Select all", the rows' not at all. */
function selectPageTitle(checkbox: ReactNode): ReactNode {
  return isValidElement<{ 'aria-label'?: string }>(checkbox) ? cloneElement(checkbox, { 'aria-label': SELECT_PAGE_LABEL }) : checkbox;
}

/** A row's box: CheckboxProps does not declare aria-label, which antd passes on to the input; the title is its hover text. */
function selectRowProps(key: string) {
  const name = `${SELECT_ROW_LABEL} ${key}`;
  return { title: name, 'aria-label': name };
}

/** A marked row's attributes: where its highlight's fade has got to, and a name for tests and tools. */
function liveRowProps(at: number | undefined): HTMLAttributes<HTMLElement> & { 'data-live-new'?: 'true' } {
  if (at === undefined) return {};
  return { style: { '--live-mark-delay': `-${Math.max(0, Date.now() - at)}ms` } as CSSProperties, 'data-live-new': 'true' };
}

interface Props {
  page: ListPage;
  view: string;
  params?: Record<string, unknown>;
}

/**
 * A list page: the view over its controller (`useListController`: query, filters, page, order and
 * selection, kept in the address of the route that shows it): filters, the table with its column
 * settings, the pager, actions and export.
 */
export default function ListRenderer({ page, view, params = NO_PARAMS }: Props) {
  const services = useRenderer();
  const { buttons } = services;
  const rowKey = page.rowKey ?? 'id';
  const list = useListController(page, { params, address: useContext(PageAddressContext) });
  const routeScope = useMemo(() => ({ params }), [params]);
  // A column whose `visibleWhen` does not hold for this route and user is not there at all.
  const pageColumns = useMemo(
    () => (page.columns.some((column) => column.visibleWhen !== undefined) ? page.columns.filter((column) => conditionHolds(column.visibleWhen, makeScope({ params, user: services.user }))) : page.columns),
    [page.columns, params, services.user],
  );
  const { state, refresh, selection, select, clearSelection, changeSort } = list;
  const [preferences, setPreferences] = useState<ColumnPreferences>(() => loadPreferences(view, pageColumns));
  // The drawers and dialogs load when first opened (a list's first paint draws none of them).
  const { openForm, showResult, confirm, host } = useLazyPageHost(refresh, (error) => services.notify.error(`${error.message}，请重试`));
  const runtime: ActionRuntime = useMemo(() => ({ services, refresh, openForm, showResult, confirm }), [services, refresh, openForm, showResult, confirm]);
  const { error, loading } = list;
  // The frame's later parts (the bell's popover …) wait for the first rows (or what stands for them).
  useFirstPaintHold(loading && !error && list.rows.length === 0);
  // Rows the live stream brought while the page is open (告警记录: raised alarms) are marked 新.
  const marks = useLiveMarks(page.liveMark, services.live);
  const markField = page.liveMark?.field ?? rowKey;
  const markedAt = useCallback((record: Row) => {
    const key = marks.size ? rowMarkKey(record, markField) : null;
    return key === null ? undefined : marks.get(key);
  }, [marks, markField]);

  const rowActions = useMemo(() => page.rowActions ?? [], [page.rowActions]);
  const batchActions = useMemo(() => (page.batchActions ?? []).filter((a) => permitted(buttons, a.permission)), [page.batchActions, buttons]);
  const toolbar = useMemo(() => (page.toolbar ?? []).filter((a) => permitted(buttons, a.permission)), [page.toolbar, buttons]);
  const canExport = page.export && permitted(buttons, page.export.permission);

  const { holder, width: available } = useAvailableWidth();
  // A table wider than its holder scrolls sideways: the keyboard reaches it, rows with no link or button too.
  useScrollRegion(holder, page.title, '.ant-table-content', true);
  // At a phone's width (below antd's md, as the frame) a list is a column of cards, its filters folded.
  const narrow = Grid.useBreakpoint().md === false;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const permittedRowActions = useMemo(() => rowActions.filter((a) => permitted(buttons, a.permission)), [rowActions, buttons]);
  const actionsWidth = rowActionsWidth(permittedRowActions);
  const selectionWidth = batchActions.length ? SELECTION_WIDTH : 0;

  const shown = useMemo(() => arrange(pageColumns, preferences), [pageColumns, preferences]);
  // What the identifiers of the rows shown need, whole on one line (a key: the columns are built
  // again only when a width changes, not for every new page of rows).
  const rows = list.rows;
  const identifierKey = useMemo(
    () => shown.map((column, index) => (isIdentifier(column) ? identifierWidth(column.field, rows, index === 0 && page.liveMark ? LIVE_MARK_WIDTH : 0) : 0)).join(','),
    [shown, rows, page.liveMark],
  );

  const columns = useMemo(() => {
    const needed = identifierKey.split(',').map(Number);
    const sorted = new Map(state.sort.map((s) => [s.field, s.order === 'asc' ? ('ascend' as const) : ('descend' as const)]));
    const identifier = shown.map((column) => isIdentifier(column));
    const cut = shown.map((column, index) => !identifier[index] && (column.ellipsis ?? displayTraits(column.display).cut === true));
    // At 1440 px a page's columns fit beside its 操作 column: free-text columns narrow (cut with an
    // ellipsis, whole on hover; never below about eight characters) before the table scrolls
    // sideways under the fixed column. An identifier is never narrowed: it takes what its widest
    // value needs, and the table scrolls sideways before one is cut.
    const widths = fitColumns(
      shown.map((column, index) => {
        const asked = column.width ?? DEFAULT_COLUMN_WIDTH;
        const min = minimumWidth(column.title, Boolean(column.sortable));
        if (identifier[index]) return { width: Math.max(asked, min, needed[index] || 0), min, shrinkable: false };
        return { width: asked, min: Math.max(min, Math.min(asked, READABLE_WIDTH)), shrinkable: cut[index] };
      }),
      available,
      actionsWidth + selectionWidth,
    );
    const cells = drawnCells();
    const out: NonNullable<TableProps<Row>['columns']> = shown.map((column, index) => {
      const { drawing, shouldCellUpdate } = cells(index);
      return {
        key: column.field,
        dataIndex: column.field.split('.'),
        title: column.title,
        width: widths[index],
        fixed: column.fixed,
        className: identifier[index] ? IDENTIFIER_CLASS : undefined,
        align: displayTraits(column.display).numeric ? ('right' as const) : undefined,
        ellipsis: cut[index],
        sorter: column.sortable ? true : undefined,
        sortOrder: column.sortable ? (sorted.get(column.field) ?? null) : undefined,
        shouldCellUpdate,
        render: (_value: unknown, record: Row) => {
          drawing(record);
          const cell = renderCell(column, record, services);
          // The first column carries the mark of a row the live stream brought.
          if (index !== 0 || markedAt(record) === undefined) return cell;
          return (
            <>
              <Tag color="error" title={LIVE_MARK_TITLE} data-testid="live-mark" style={{ marginInlineEnd: 4 }}>
                {LIVE_MARK_TEXT}
              </Tag>
              {cell}
            </>
          );
        },
      };
    });
    if (permittedRowActions.length > 0) {
      const { drawing, shouldCellUpdate } = cells(shown.length);
      out.push({
        key: '__actions',
        title: '操作',
        fixed: 'right',
        width: actionsWidth,
        shouldCellUpdate,
        render: (_value: unknown, record: Row) => {
          drawing(record);
          const scope = actionScope({ record, params }, services);
          return <RowActions visible={permittedRowActions.filter((action) => actionVisible(action, buttons, scope))} scope={scope} runtime={runtime} />;
        },
      });
    }
    return out;
  }, [shown, identifierKey, state.sort, permittedRowActions, actionsWidth, selectionWidth, available, buttons, services, params, runtime, markedAt]);

  const scrollX = columns.reduce((sum, c) => sum + (Number(c.width) || DEFAULT_COLUMN_WIDTH), 0) + selectionWidth;

  const scroll = useMemo(() => (page.virtual ? { x: scrollX, y: 560 } : { x: scrollX }), [page.virtual, scrollX]);
  // The row key, the boxes' names and the selection given to the table are the same functions
  // from one render to the next: antd's selection hook walks every row of the page again (its
  // key map, each box's props) whenever the table's rowKey or getCheckboxProps is a new function,
  // and a held selection renders the table twice a click (issue 35).
  const keyOf = useCallback((record: Row) => String(record[rowKey]), [rowKey]);
  const boxProps = useCallback((record: Row) => selectRowProps(keyOf(record)), [keyOf]);
  const rowSelection = useMemo<TableProps<Row>['rowSelection']>(
    () => ({
      selectedRowKeys: selection.keys,
      preserveSelectedRowKeys: true,
      onChange: (keys, rows) => select({ keys, rows }),
      columnTitle: selectPageTitle,
      getCheckboxProps: boxProps,
    }),
    [selection.keys, select, boxProps],
  );
  const onTableChange: TableProps<Row>['onChange'] = (_pagination, _filters, sorter, extra) => {
    if (extra.action !== 'sort') return;
    const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<Row>;
    const field = Array.isArray(s.columnKey) ? s.columnKey.join('.') : String(s.columnKey ?? '');
    changeSort(s.order && field ? [{ field, order: s.order === 'ascend' ? 'asc' : 'desc' }] : []);
  };
  const total = list.total;
  // A card's box ticks its row in the same selection the table's boxes keep.
  const toggleCard = useCallback(
    (key: string, record: Row, selected: boolean) => {
      const keys = selection.keys.filter((k) => String(k) !== key);
      const kept = selection.rows.filter((r) => String(r[rowKey]) !== key);
      select(selected ? { keys: [...keys, record[rowKey] as Key], rows: [...kept, record] } : { keys, rows: kept });
    },
    [selection, select, rowKey],
  );

  const changePreferences = useCallback(
    (next: ColumnPreferences) => {
      setPreferences(next);
      savePreferences(view, next);
    },
    [view],
  );
  const resetPreferences = useCallback(() => {
    clearPreferences(view);
    setPreferences(defaultPreferences(pageColumns));
  }, [view, pageColumns]);

  return (
    <Card title={page.title} data-testid="list-page" data-view={view} styles={{ body: { paddingTop: 16 } }}>
      {page.description && <SecondaryText block>{page.description}</SecondaryText>}
      {page.filters && (
        <FilterToggle folded={narrow} open={filtersOpen} onToggle={setFiltersOpen} filters={state.filters}>
          <TemplateScopeProvider value={routeScope}>
            <FilterForm
              schema={page.filters}
              values={state.filters}
              onSearch={(values) => {
                list.search(values);
                if (narrow) setFiltersOpen(false);
              }}
            />
          </TemplateScopeProvider>
        </FilterToggle>
      )}
      {page.liveMark && <style>{LIVE_MARK_STYLE}</style>}
      <style href="list-identifier" precedence="default">
        {IDENTIFIER_CSS}
      </style>
      <style href="list-cut" precedence="default">
        {CUT_CSS}
      </style>
      <ListToolbar
        toolbar={toolbar}
        batchActions={batchActions}
        params={params}
        filters={state.filters}
        selection={selection}
        onClearSelection={clearSelection}
        runtime={runtime}
        exportLabel={canExport ? (page.export?.label ?? '导出') : null}
        exporting={list.exporting}
        onExport={list.startExport}
        columns={pageColumns}
        preferences={preferences}
        onPreferences={changePreferences}
        onResetPreferences={resetPreferences}
      />
      {/* The table's holder: its width is what the columns are fitted to. */}
      <div ref={holder} style={{ position: 'relative' }}>
        {error ? (
          <Alert
            type="error"
            showIcon
            message="数据加载失败"
            description={error}
            action={
              <Button size="small" onClick={refresh}>
                重试
              </Button>
            }
          />
        ) : narrow ? (
          <Suspense fallback={<Spin style={{ display: 'block', margin: '24px auto' }} />}>
            <ListCards
              rows={list.rows}
              columns={shown}
              rowKey={rowKey}
              actions={permittedRowActions}
              params={params}
              runtime={runtime}
              loading={loading}
              mark={(record) => (markedAt(record) === undefined ? null : CARD_LIVE_MARK)}
              selection={batchActions.length ? { keys: selection.keys, onToggle: toggleCard, label: (key) => `${SELECT_ROW_LABEL} ${key}` } : undefined}
            />
          </Suspense>
        ) : (
          <Table<Row>
            rowKey={keyOf}
            size="middle"
            columns={columns}
            dataSource={list.rows}
            virtual={page.virtual}
            scroll={scroll}
            onChange={onTableChange}
            rowClassName={page.liveMark ? (record) => (markedAt(record) === undefined ? '' : 'live-new-row') : undefined}
            onRow={page.liveMark ? (record) => liveRowProps(markedAt(record)) : undefined}
            rowSelection={batchActions.length ? rowSelection : undefined}
            pagination={false}
          />
        )}
        {/* Loading is shown over the table, not by the table's own Spin: that Spin turns off an
            effect after the rows are painted, and taking its blur (opacity, pointer-events,
            user-select) off the table restyled and repainted every cell a second time (1,000 rows:
            a second wave seconds after the rows were in, issue 20). */}
        {loading && !error && (
          <div style={{ position: 'absolute', inset: 0, zIndex: 4, background: 'rgba(255, 255, 255, 0.5)' }}>
            <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '100%', maxHeight: 400 }}>
              <Spin />
            </div>
          </div>
        )}
      </div>
      {/* Not the table's own pagination: antd shows that only once a total has arrived, so it
          mounted with the rows, and the sync updates of its size changer's mount made React run
          the table's effects before painting the rows (a forced layout of all of them). This one
          is mounted from the start and hidden while there is nothing to page. */}
      <Pagination
        align="end"
        style={{ marginTop: 16, display: total > 0 && !error ? undefined : 'none' }}
        current={state.pageNumber}
        pageSize={state.pageSize}
        total={total}
        size={narrow ? 'small' : undefined}
        showSizeChanger={!narrow}
        showQuickJumper={!narrow}
        showLessItems={narrow}
        pageSizeOptions={PAGE_SIZES[page.virtual ? 'virtual' : 'plain']}
        showTotal={(count) => <PagerTotal total={count} atLeast={list.result?.totalAtLeast} />}
        onChange={list.changePage}
      />
      {host}
    </Card>
  );
}
