import { Alert, Button, Card, Descriptions, Grid, Skeleton, Space, Table, Tabs } from 'antd';
import { lazy, Suspense, useMemo, useRef, type CSSProperties, type ReactNode } from 'react';
import { ActionButton } from '../actions/ActionButton';
import { actionScope, actionVisible, conditionHolds, type ActionRuntime } from '../actions/runAction';
import { makeScope, readPath, resolveTemplate, NO_PARAMS } from '../schema/template';
import { displayTraits, renderCell } from '../displays/displays';
import { useOperationQuery, useRefresh } from '../data/queries';
import { useFormHost } from '../form/FormHost';
import { PageAddressContext } from '../list/listAddress';
import type { DetailPage, DetailSection } from '../schema/types';
import { useRenderer } from '../services';
import { useScrollRegion } from '../runtime/scrollRegion';

const PageRenderer = lazy(() => import('../PageRenderer'));
// echarts comes with a series section only: the detail page itself stays without it.
const SeriesSection = lazy(() => import('./SeriesSection'));

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
const UNBROKEN: CSSProperties = { whiteSpace: 'nowrap' };

interface Props {
  page: DetailPage;
  view: string;
  params?: Record<string, unknown>;
}

function SectionBody({ section, main, params }: { section: DetailSection; main: Row; params: Record<string, unknown> }) {
  const services = useRenderer();
  const scope = useMemo(() => makeScope({ params, record: main, user: services.user }), [params, main, services.user]);
  const param = useMemo(() => resolveTemplate(section.param ?? {}, scope), [section.param, scope]);
  // A section of its own operation (the page's refresh reloads it too; a failed one loads again when the platform is back).
  // A series section asks its operation itself, with the range its user picked.
  const own = useOperationQuery<Row>(section.operation, param, { enabled: section.type !== 'series' });
  // A table section scrolls sideways on a narrow screen: the keyboard reaches its scrolling box.
  const tableBox = useRef<HTMLDivElement>(null);
  useScrollRegion(tableBox, section.title);
  if (section.type === 'series') {
    return (
      <Suspense fallback={<Skeleton active />}>
        <SeriesSection section={section} main={main} params={params} />
      </Suspense>
    );
  }
  if (section.type === 'list' && section.page) {
    return (
      <Suspense fallback={<Skeleton active />}>
        {/* A child list keeps its filters and page in memory: the address is the detail page's. */}
        <PageAddressContext.Provider value={null}>
          <PageRenderer view={section.page} params={{ ...params, parent: main }} />
        </PageAddressContext.Provider>
      </Suspense>
    );
  }
  if (section.operation && own.error !== null) return <Alert type="error" showIcon message="加载失败" description={own.error} />;
  if (section.operation && own.loading) return <Skeleton active />;
  const answer = own.data ?? {};
  const source: unknown = section.operation ? (section.source ? readPath(answer, section.source) : answer) : section.source ? readPath(main, section.source) : main;
  if (section.type === 'table') {
    const rows = (Array.isArray(source) ? source : ((source as { records?: Row[] } | null)?.records ?? [])) as Row[];
    return (
      <div ref={tableBox}>
        <Table<Row>
          size="small"
          rowKey="__rowKey"
          dataSource={rows.map((row, index) => ({ __rowKey: String(row.id ?? index), ...row }))}
          pagination={rows.length > 10 ? { pageSize: 10 } : false}
          scroll={{ x: 'max-content' }}
          columns={(section.columns ?? []).map((column) => ({ key: column.field, title: column.title, width: column.width, render: (_v: unknown, row: Row) => renderCell(column, row, services) }))}
        />
      </div>
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
        {(section.fields ?? [])
          .filter((field) => conditionHolds(field.visibleWhen, makeScope({ params, record, user: services.user })))
          .map((field) => (
          <Descriptions.Item key={field.field} label={field.title}>
            {displayTraits(field.display).unbroken ? <span style={UNBROKEN}>{renderCell(field, record, services)}</span> : renderCell(field, record, services)}
          </Descriptions.Item>
        ))}
      </Descriptions>
    </div>
  );
}

/** A detail page: description sections, child tables and lists, stacked or as tabs. */
export default function DetailRenderer({ page, view, params = NO_PARAMS }: Props) {
  const services = useRenderer();
  // The page's refresh reloads its load and every section of its own operation.
  const refresh = useRefresh([page.load.operation, ...page.sections.flatMap((section) => (section.operation ? [section.operation] : []))]);
  const { openForm, showResult, confirm, host } = useFormHost(refresh);
  const runtime: ActionRuntime = useMemo(() => ({ services, refresh, openForm, showResult, confirm }), [services, refresh, openForm, showResult, confirm]);
  const param = useMemo(() => resolveTemplate(page.load.param ?? {}, makeScope({ params, user: services.user })), [page.load.param, params, services.user]);
  const main = useOperationQuery<Row>(page.load.operation, param);
  // Below antd's lg breakpoint (a phone, a tablet beside the sider) the actions leave the card's
  // head, where they squeezed its title away and ran past the card, for a wrapping line atop its body.
  const narrow = Grid.useBreakpoint().lg === false;

  if (main.error !== null) {
    return (
      <Card title={page.title}>
        <Alert type="error" showIcon message="数据加载失败" description={main.error} action={<Button size="small" onClick={main.reload}>重试</Button>} />
      </Card>
    );
  }
  if (main.loading) {
    return (
      <Card title={page.title}>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  const record = main.data ?? {};
  const scope = actionScope({ record, params }, services);
  const actions = (page.actions ?? []).filter((action) => actionVisible(action, services.buttons, scope));
  const bar = actions.length ? (
    <Space wrap data-testid="detail-actions">
      {actions.map((action) => (
        <ActionButton key={action.label} action={action} scope={scope} runtime={runtime} />
      ))}
    </Space>
  ) : null;
  const extra = narrow ? null : bar;
  const barAtop = narrow && bar ? <div style={{ marginBottom: 16 }}>{bar}</div> : null;
  const sections: Array<{ key: string; title: string; body: ReactNode }> = page.sections.map((section, index) => ({
    key: String(index),
    title: section.title,
    body: <SectionBody section={section} main={record} params={params} />,
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
