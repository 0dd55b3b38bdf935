import '@ant-design/v5-patch-for-react-19';
import { App as AntdApp, ConfigProvider, Form, Input, Table, Tag, type TableColumnsType } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import { Provider as StoreProvider } from 'jotai';
import { useEffect, useState, type Key } from 'react';
import { createRoot } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import PageRenderer from '../../../renderers/PageRenderer';
import { RendererContext, type DataProvider, type RendererServices } from '../../../renderers/services';
import { formatCount } from '../../../src/format/numbers';
import { FORMATS } from '../../../src/format/formats';
import { OrganizationSwitcher } from '../../../src/frame/OrganizationSwitcher';
import { consoleStore, sessionAtom } from '../../../src/session/session';
import type { OrganizationNode } from '../../../src/session/types';
import { NAMED_VALIDATORS } from '../../../src/validation/named';

/**
 * The benchmark pages: `?case=list|form|tree&impl=schema|antd&size=N`. Each page publishes its
 * measurements on `window.bench` for scripts/bench/client.ts to read.
 */
interface BenchWindow {
  bench: { done: boolean; renderMs?: number; settledMs?: number; laterMutations?: number; firstRenderMs?: number; error?: string };
}
const benchWindow = window as unknown as Window & BenchWindow;
benchWindow.bench = { done: false };

const query = new URLSearchParams(window.location.search);
const benchCase = query.get('case') ?? 'list';
const impl = query.get('impl') ?? 'schema';
const size = Number(query.get('size') ?? 100);

const STATES = [
  { value: 'online', label: '在线', color: 'green' },
  { value: 'offline', label: '离线', color: 'default' },
  { value: 'inactive', label: '未激活', color: 'orange' },
];
const stateLabel = (value: unknown) => STATES.find((state) => state.value === value)?.label ?? '未知';

/** N rows of 20 columns: dictionary tags, date-times, counts and text. */
function rowsOf(count: number): Array<Record<string, unknown>> {
  const base = Date.UTC(2026, 10, 1);
  return Array.from({ length: count }, (_, i) => {
    const row: Record<string, unknown> = { id: i + 1 };
    for (let c = 0; c < 5; c += 1) row[`state${c}`] = STATES[(i + c) % 3].value;
    for (let c = 0; c < 5; c += 1) row[`time${c}`] = new Date(base + (i * 37 + c) * 60_000).toISOString();
    for (let c = 0; c < 5; c += 1) row[`count${c}`] = (i * 97 + c * 1013) % 50_000;
    for (let c = 0; c < 5; c += 1) row[`text${c}`] = `设备-${i}-${c}`;
    return row;
  });
}

const FIELDS = [0, 1, 2, 3, 4].flatMap((c) => [
  { field: `state${c}`, title: `状态${c}`, display: 'tag', dictType: 'device_online_state' },
  { field: `time${c}`, title: `时间${c}`, display: 'datetime' },
  { field: `count${c}`, title: `计数${c}`, display: 'count' },
  { field: `text${c}`, title: `文本${c}`, display: 'text' },
]);

/** Resolves one page of rows and marks the moment the data is handed over. */
let dataAt = 0;
const profiling = query.get('profile') === '1';
const rows = rowsOf(size);
function deliver<T>(value: T): Promise<T> {
  return new Promise((resolve) =>
    setTimeout(() => {
      dataAt = performance.now();
      // For traces: where "data to painted rows" starts.
      performance.mark('bench-data');
      // `&profile=1`: a CPU profile from the data to the painted rows (scripts/bench/profileList.ts).
      if (profiling) console.profile('render');
      resolve(value);
    }, 50),
  );
}

/** Resolves after the rows are in the DOM and a frame has been painted. */
function whenPainted(selector: string, expected: number, onPainted: (ms: number) => void): void {
  const check = () => {
    if (dataAt && document.querySelectorAll(selector).length >= expected) {
      requestAnimationFrame(() =>
        setTimeout(() => {
          if (profiling) console.profileEnd('render');
          onPainted(performance.now() - dataAt);
        }, 0),
      );
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

const data: DataProvider = {
  call: async () => undefined as never,
  page: async (_operation, pageParam) => deliver({ records: rows.slice(0, pageParam.pageSize), total: rows.length, pageNumber: 1, pageSize: pageParam.pageSize }) as never,
  download: async () => ({ fileName: '', size: 0 }),
  upload: async () => undefined as never,
};

const services: RendererServices = {
  data,
  dictionaries: { label: (_type, value) => stateLabel(value), options: () => STATES.map(({ value, label }) => ({ value, label })) },
  notify: { success: () => undefined, error: () => undefined, warning: () => undefined, info: () => undefined },
  buttons: [],
  navigate: () => undefined,
  validators: NAMED_VALIDATORS,
  formats: FORMATS,
};

/**
 * The renderer virtualises its 1,000-row page unless `&virtual=0` (the row of issue 20: 1,000 rows
 * of 20 columns drawn whole, against the same hand-written table); `&virtual=1` virtualises both.
 */
const virtual = query.has('virtual') ? query.get('virtual') === '1' : size > 100;
const listSchema = {
  schemaVersion: 1,
  kind: 'list',
  title: '基准列表',
  operation: 'bench.page',
  rowKey: 'id',
  pageSize: Math.min(size, 1000),
  virtual,
  columns: FIELDS.map((f) => ({ ...f, width: 140 })),
  batchActions: [{ type: 'refresh', label: '刷新' }],
};

/** `&virtual=1`: the baseline virtualises as antd's own `virtual` table does (for select-all and scrolling). */
const handWrittenVirtual = query.get('virtual') === '1';
/**
 * `&total=known`: the baseline's pagination knows the total before the data arrives. A real page
 * cannot (the total comes with the rows), and then antd mounts the pagination with the rows and
 * pays for it; kept for comparison with earlier runs.
 */
const totalKnownEarly = query.get('total') === 'known';
/**
 * `&spin=0`: the leanest hand-written table, without antd's own loading state (its Spin blurs the
 * table and takes the blur off every cell after the rows are painted, a second style and paint
 * wave the renderer does not have): the limit the renderer is also compared with.
 */
const spinning = query.get('spin') !== '0';

/**
 * The baseline: the same table written by hand with antd, as most consoles do (all rows rendered).
 * Its selection is held in state, as a page with batch actions must hold it, and counted.
 */
function HandWrittenList() {
  const [records, setRecords] = useState<Array<Record<string, unknown>> | null>(null);
  const [selected, setSelected] = useState<Key[]>([]);
  useEffect(() => {
    void data.page('bench.page', { pageNumber: 1, pageSize: size }).then((result) => setRecords(result.records as Array<Record<string, unknown>>));
  }, []);
  const columns: TableColumnsType<Record<string, unknown>> = FIELDS.map((f) => ({
    key: f.field,
    dataIndex: f.field,
    title: f.title,
    width: 140,
    render: (value: unknown) => {
      if (f.display === 'tag') return <Tag color={STATES.find((s) => s.value === value)?.color}>{stateLabel(value)}</Tag>;
      if (f.display === 'datetime') return dayjs(String(value)).format('YYYY-MM-DD HH:mm:ss');
      if (f.display === 'count') return formatCount(Number(value));
      return String(value);
    },
  }));
  return (
    <>
      {selected.length > 0 && <span>已选择 {selected.length} 项</span>}
      <Table
        rowKey="id"
        size="middle"
        loading={spinning && !records}
        dataSource={records ?? []}
        columns={columns}
        rowSelection={{ selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: setSelected }}
        virtual={handWrittenVirtual}
        scroll={handWrittenVirtual ? { x: 2900, y: 560 } : { x: 2900 }}
        pagination={{ pageSize: size, total: totalKnownEarly ? size : (records?.length ?? 0) }}
      />
    </>
  );
}

/** A form of N text inputs: the renderer's (Formily) against antd's Form. */
const formSchema = {
  schemaVersion: 1,
  kind: 'form',
  title: '基准表单',
  submit: { operation: 'bench.save' },
  schema: {
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: size }, (_, i) => [`field${i}`, { type: 'string', title: `字段${i}`, 'x-decorator': 'FormItem', 'x-component': 'Input' }]),
    ),
  },
};

function HandWrittenForm() {
  return (
    <Form layout="vertical">
      {Array.from({ length: size }, (_, i) => (
        <Form.Item key={i} name={`field${i}`} label={`字段${i}`}>
          <Input aria-label={`字段${i}`} />
        </Form.Item>
      ))}
    </Form>
  );
}

/** N organisations: 10 tenants × projects × areas. */
function organizationsOf(count: number): OrganizationNode[] {
  let made = 0;
  const node = (code: string, name: string, type: number, children: OrganizationNode[] = []): OrganizationNode =>
    ({ organizationCode: code, organizationName: name, organizationType: type, children }) as OrganizationNode;
  const tenants: OrganizationNode[] = [];
  for (let t = 0; made < count; t += 1) {
    const projects: OrganizationNode[] = [];
    made += 1;
    for (let p = 0; p < 20 && made < count; p += 1) {
      const areas: OrganizationNode[] = [];
      made += 1;
      for (let a = 0; a < 49 && made < count; a += 1) {
        areas.push(node(`T${t}P${p}A${a}`, `租户${t}项目${p}区域${a}`, 4));
        made += 1;
      }
      projects.push(node(`T${t}P${p}`, `租户${t}项目${p}`, 3, areas));
    }
    tenants.push(node(`T${t}`, `租户${t}`, 2, projects));
  }
  return tenants;
}

function Bench() {
  if (benchCase === 'tree') {
    consoleStore.set(sessionAtom, { user: { roleList: [] }, menus: [], dictionaries: {}, organizations: organizationsOf(size) } as never);
    return (
      <StoreProvider store={consoleStore}>
        <OrganizationSwitcher collapsed={false} onSwitch={async () => undefined} />
      </StoreProvider>
    );
  }
  if (benchCase === 'form') return impl === 'antd' ? <HandWrittenForm /> : <PageRenderer view="bench/form" schema={formSchema} />;
  return impl === 'antd' ? <HandWrittenList /> : <PageRenderer view="bench/list" schema={listSchema} />;
}

/**
 * `&settle=1`: after the rows are painted, waits until the page has made no DOM change for
 * SETTLE_QUIET_MS and publishes when its last change landed (`settledMs`, from the data) and how
 * many changes came after the paint: a page whose rows are in but that keeps rebuilding them (a
 * second wave of mutations, issue 20) is not done.
 */
const settle = query.get('settle') === '1';
const SETTLE_QUIET_MS = 3000;
function whenSettled(paintedMs: number): void {
  const paintedAt = performance.now();
  let last = paintedAt;
  let lastPainted = paintedMs;
  let later = 0;
  const observer = new MutationObserver((records) => {
    later += records.length;
    last = performance.now();
    lastPainted = last - dataAt;
  });
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
  const check = () => {
    if (performance.now() - last >= SETTLE_QUIET_MS) {
      observer.disconnect();
      Object.assign(benchWindow.bench, { done: true, renderMs: paintedMs, settledMs: lastPainted, laterMutations: later });
    } else setTimeout(check, 250);
  };
  setTimeout(check, 250);
}

const started = performance.now();
if (benchCase === 'list') {
  whenPainted('.ant-table-row', (impl === 'schema' && virtual) || handWrittenVirtual ? 10 : size, (ms) =>
    settle ? whenSettled(ms) : Object.assign(benchWindow.bench, { done: true, renderMs: ms }),
  );
} else if (benchCase === 'form') {
  const check = () => {
    if (document.querySelectorAll('input').length >= size) {
      requestAnimationFrame(() => setTimeout(() => Object.assign(benchWindow.bench, { done: true, firstRenderMs: performance.now() - started }), 0));
    } else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
} else benchWindow.bench.done = true;

const router = createMemoryRouter([{ path: '*', element: <RendererContext.Provider value={services}><Bench /></RendererContext.Provider> }]);
createRoot(document.getElementById('root') as HTMLElement).render(
  <ConfigProvider locale={zhCN}>
    <AntdApp>
      <RouterProvider router={router} />
    </AntdApp>
  </ConfigProvider>,
);
