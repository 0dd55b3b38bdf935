import { Alert, Button, Card, Descriptions, Grid, Skeleton, Space, Table, Tabs } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { ActionButton } from '../actions/ActionButton';
import { actionVisible, type ActionRuntime } from '../actions/runAction';
import { renderCell } from '../displays/displays';
import { useFormHost } from '../form/FormHost';
import { useRetryOnReconnect } from '../runtime/reconnect';
import { readPath, resolveTemplate, NO_PARAMS } from '../schema/template';
import type { DetailPage, DetailSection } from '../schema/types';
import { useRenderer } from '../services';

const PageRenderer = lazy(() => import('../PageRenderer'));

type Row = Record<string, unknown>;

/**
 * Descriptions that never break a word: a label stays on one line (its column is as wide as its
 * longest label), and a value breaks only between words, so a code (SDNB01000397) or an IMEI is
 * whole: its column widens instead (the section scrolls sideways on a narrow screen). Chinese text
 * still wraps between characters.
 */
const DESCRIPTION_STYLES = {
  label: { whiteSpace: 'nowrap' },
  content: { wordBreak: 'normal', overflowWrap: 'break-word' },
} as const satisfies { label: CSSProperties; content: CSSProperties };
/** Values that are one unit: a time, a number, an amount. Never on two lines. */
const UNBROKEN_DISPLAYS: ReadonlySet<string> = new Set(['datetime', 'date', 'number', 'count', 'money', 'percent', 'phone', 'duration', 'boolean', 'dict']);
const UNBROKEN: CSSProperties = { whiteSpace: 'nowrap' };
type Loaded = { status: 'loading' } | { status: 'ready'; record: Row } | { status: 'error'; message: string };

interface Props {
  page: DetailPage;
  view: string;
  params?: Record<string, unknown>;
}

function useOperation(operation: string | undefined, param: unknown, nonce: number | string): Loaded {
  const { data } = useRenderer();
  const [state, setState] = useState<{ key: string; loaded: Loaded } | null>(null);
  const key = `${operation}|${JSON.stringify(param)}|${nonce}`;
  useEffect(() => {
    if (!operation) return;
    const controller = new AbortController();
    data
      .call<Row>(operation, param, { signal: controller.signal })
      .then((record) => setState({ key, loaded: { status: 'ready', record: record ?? {} } }))
      .catch((error: Error & { kind?: string }) => {
        if (error.kind !== 'cancelled') setState({ key, loaded: { status: 'error', message: error.message } });
      });
    return () => controller.abort();
    // key stands for operation, param and nonce
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, key]);
  if (!operation) return { status: 'ready', record: {} };
  return state?.key === key ? state.loaded : { status: 'loading' };
}

function SectionBody({ section, main, params, nonce }: { section: DetailSection; main: Row; params: Record<string, unknown>; nonce: number }) {
  const services = useRenderer();
  const scope = useMemo(() => ({ params, record: main }), [params, main]);
  const param = useMemo(() => resolveTemplate(section.param ?? {}, scope), [section.param, scope]);
  // A section that failed loads again when the platform is back (the page's refresh moves `nonce`).
  const [again, setAgain] = useState(0);
  const own = useOperation(section.operation, param, `${nonce}:${again}`);
  useRetryOnReconnect(own.status === 'error', () => setAgain((n) => n + 1));
  if (section.type === 'list' && section.page) {
    return (
      <Suspense fallback={<Skeleton active />}>
        <PageRenderer view={section.page} params={{ ...params, parent: main }} />
      </Suspense>
    );
  }
  if (own.status === 'loading') return <Skeleton active />;
  if (own.status === 'error') return <Alert type="error" showIcon message="加载失败" description={own.message} />;
  const source: unknown = section.operation ? (section.source ? readPath(own.record, section.source) : own.record) : section.source ? readPath(main, section.source) : main;
  if (section.type === 'table') {
    const rows = (Array.isArray(source) ? source : ((source as { records?: Row[] } | null)?.records ?? [])) as Row[];
    return (
      <Table<Row>
        size="small"
        rowKey="__rowKey"
        dataSource={rows.map((row, index) => ({ __rowKey: String(row.id ?? index), ...row }))}
        pagination={rows.length > 10 ? { pageSize: 10 } : false}
        scroll={{ x: 'max-content' }}
        columns={(section.columns ?? []).map((column) => ({ key: column.field, title: column.title, width: column.width, render: (_v: unknown, row: Row) => renderCell(column, row, services) }))}
      />
    );
  }
  const record = (source ?? {}) as Row;
  const columns = section.column ?? 2;
  return (
    <div style={{ overflowX: 'auto' }}>
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, sm: 1, md: Math.min(columns, 2), lg: columns, xl: columns, xxl: columns }}
        styles={DESCRIPTION_STYLES}
      >
        {(section.fields ?? []).map((field) => (
          <Descriptions.Item key={field.field} label={field.title}>
            {UNBROKEN_DISPLAYS.has(field.display ?? 'text') ? <span style={UNBROKEN}>{renderCell(field, record, services)}</span> : renderCell(field, record, services)}
          </Descriptions.Item>
        ))}
      </Descriptions>
    </div>
  );
}

/** A detail page: description sections, child tables and lists, stacked or as tabs. */
export default function DetailRenderer({ page, view, params = NO_PARAMS }: Props) {
  const services = useRenderer();
  const [nonce, setNonce] = useState(0);
  const refresh = useCallback(() => setNonce((n) => n + 1), []);
  const { openForm, host } = useFormHost(refresh);
  const runtime: ActionRuntime = useMemo(() => ({ services, refresh, openForm }), [services, refresh, openForm]);
  const param = useMemo(() => resolveTemplate(page.load.param ?? {}, { params }), [page.load.param, params]);
  const main = useOperation(page.load.operation, param, nonce);
  useRetryOnReconnect(main.status === 'error', refresh);
  // Below antd's lg breakpoint (a phone, a tablet beside the sider) the actions leave the card's
  // head, where they squeezed its title away and ran past the card, for a wrapping line atop its body.
  const narrow = Grid.useBreakpoint().lg === false;

  if (main.status === 'error') {
    return (
      <Card title={page.title}>
        <Alert type="error" showIcon message="数据加载失败" description={main.message} action={<Button size="small" onClick={refresh}>重试</Button>} />
      </Card>
    );
  }
  if (main.status === 'loading') {
    return (
      <Card title={page.title}>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  const record = main.record;
  const actions = (page.actions ?? []).filter((action) => actionVisible(action, services.buttons, record));
  const bar = actions.length ? (
    <Space wrap data-testid="detail-actions">
      {actions.map((action) => (
        <ActionButton key={action.label} action={action} scope={{ record, params }} runtime={runtime} />
      ))}
    </Space>
  ) : null;
  const extra = narrow ? null : bar;
  const barAtop = narrow && bar ? <div style={{ marginBottom: 16 }}>{bar}</div> : null;
  const sections: Array<{ key: string; title: string; body: ReactNode }> = page.sections.map((section, index) => ({
    key: String(index),
    title: section.title,
    body: <SectionBody section={section} main={record} params={params} nonce={nonce} />,
  }));
  return (
    <div data-testid="detail-page" data-view={view}>
      {page.tabs ? (
        <Card title={page.title} extra={extra}>
          {barAtop}
          <Tabs items={sections.map((s) => ({ key: s.key, label: s.title, children: s.body }))} />
        </Card>
      ) : (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          {sections.map((s, index) => (
            <Card key={s.key} title={index === 0 ? `${page.title} · ${s.title}` : s.title} extra={index === 0 ? extra : null}>
              {index === 0 ? barAtop : null}
              {s.body}
            </Card>
          ))}
        </Space>
      )}
      {host}
    </div>
  );
}
