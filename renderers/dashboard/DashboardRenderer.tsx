import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, DatePicker, Row, Skeleton, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from '../runtime/dayjs';
import { useMemo, useRef, useState } from 'react';
import { NO_PARAMS, resolveTemplate } from '../schema/template';
import type { DashboardPage, DashboardWidget } from '../schema/types';
import { useRenderer, type NamedValidator } from '../services';
import { useScrollRegion } from '../runtime/scrollRegion';
import { useOperationQuery, useRefresh } from '../data/queries';
import { WIDGET_KINDS } from './widgetKinds';

type Range = [Dayjs, Dayjs];
const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

const PRESETS: Record<NonNullable<NonNullable<DashboardPage['timeRange']>['default']>, () => Range> = {
  today: () => [dayjs().startOf('day'), dayjs().endOf('day')],
  last7days: () => [dayjs().subtract(6, 'day').startOf('day'), dayjs().endOf('day')],
  last30days: () => [dayjs().subtract(29, 'day').startOf('day'), dayjs().endOf('day')],
  last90days: () => [dayjs().subtract(89, 'day').startOf('day'), dayjs().endOf('day')],
};

function Widget({ widget, range, params }: { widget: DashboardWidget; range: Range | null; params: Record<string, unknown> }) {
  const services = useRenderer();
  // A dashboard follows its route: `{{params.orgCode}}` is the address's query.
  const param = useMemo(() => {
    const base = (resolveTemplate(widget.param ?? {}, { params, user: services.user }) ?? {}) as Record<string, unknown>;
    return range ? { ...base, startTime: range[0].format(TIME_FORMAT), endTime: range[1].format(TIME_FORMAT) } : base;
  }, [widget.param, range, params, services.user]);
  // The dashboard's refresh reloads every widget; one that failed loads again when the platform is back.
  const answer = useOperationQuery<unknown>(widget.operation, param);
  const loading = answer.loading;
  // A table widget scrolls inside its card (a fixed header): the keyboard reaches its scrolling body.
  const card = useRef<HTMLDivElement>(null);
  useScrollRegion(card, widget.title, '.ant-table-body');
  // A built-in kind (./widgetKinds.tsx) or one the console registered (RendererServices.widgets):
  // both draw the answer the same way, given the same props.
  const Body = WIDGET_KINDS.get(widget.type)?.Body ?? services.widgets?.[widget.type];
  let body;
  if (!Body) body = <Alert type="error" showIcon message={`未注册的仪表盘组件 ${widget.type}`} />;
  else if (loading) body = <Skeleton active paragraph={{ rows: WIDGET_KINDS.get(widget.type)?.skeletonRows ?? 5 }} />;
  else if (answer.error !== null) body = <Alert type="error" showIcon message="加载失败" description={answer.error} />;
  else body = <Body widget={widget} data={answer.data} params={params} />;

  return (
    <Card ref={card} title={widget.title} size="small" data-testid="dashboard-widget" data-widget-type={widget.type}>
      {body}
    </Card>
  );
}

/** The time-range rule (SPEC §5: start and end must differ, 请输入不同的时间) through the named validator. */
export function rangeProblem(value: [Dayjs, Dayjs], validators: Readonly<Record<string, NamedValidator>>): string | undefined {
  return validators.timeRange?.([value[0].valueOf(), value[1].valueOf()], {});
}

/** A dashboard: a responsive grid of statistic cards and charts, with a time-range filter. */
export default function DashboardRenderer({ page, view, params = NO_PARAMS }: { page: DashboardPage; view: string; params?: Record<string, unknown> }) {
  const { validators } = useRenderer();
  const [range, setRange] = useState<Range | null>(() => (page.timeRange ? PRESETS[page.timeRange.default ?? 'last7days']() : null));
  const [rangeError, setRangeError] = useState<string | undefined>();
  const refresh = useRefresh(page.widgets.map((widget) => widget.operation));

  const changeRange = (value: [Dayjs | null, Dayjs | null] | null) => {
    if (!value || !value[0] || !value[1]) return;
    const message = rangeProblem([value[0], value[1]], validators);
    setRangeError(message);
    if (!message) setRange([value[0], value[1]]);
  };

  return (
    <div data-testid="dashboard-page" data-view={view}>
      <Card style={{ marginBottom: 16 }} styles={{ body: { padding: '12px 16px' } }}>
        <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 16, flexWrap: 'wrap' }}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {page.title}
          </Typography.Title>
          <Space wrap>
            {page.timeRange && (
              <Space direction="vertical" size={0}>
                <DatePicker.RangePicker
                  showTime
                  value={range}
                  onChange={changeRange}
                  status={rangeError ? 'error' : undefined}
                  presets={[
                    { label: '今天', value: PRESETS.today() },
                    { label: '近7天', value: PRESETS.last7days() },
                    { label: '近30天', value: PRESETS.last30days() },
                    { label: '近90天', value: PRESETS.last90days() },
                  ]}
                  aria-label="时间范围"
                />
                {rangeError && <Typography.Text type="danger">{rangeError}</Typography.Text>}
              </Space>
            )}
            <Button icon={<ReloadOutlined />} onClick={refresh} aria-label="刷新" />
          </Space>
        </div>
      </Card>
      <Row gutter={[16, 16]}>
        {page.widgets.map((widget, index) => (
          <Col key={`${widget.title}-${index}`} xs={24} md={Math.max(widget.span ?? 12, 12)} xl={widget.span ?? WIDGET_KINDS.get(widget.type)?.span ?? 12}>
            <Widget widget={widget} range={range} params={params} />
          </Col>
        ))}
      </Row>
    </div>
  );
}
