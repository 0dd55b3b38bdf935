import { Alert, Button, Card, Col, DatePicker, Empty, Row, Segmented, Skeleton, Space, Typography } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useCallback, useMemo, useRef, useState } from 'react';
import { Chart } from '../dashboard/Chart';
import { groupedNumber, type NumberFormat } from '../dashboard/options';
import { useOperationQuery } from '../data/queries';
import dayjs, { type Dayjs } from '../runtime/dayjs';
import { makeScope, resolveTemplate } from '../schema/template';
import type { DetailSection, SeriesRangeName } from '../schema/types';
import { useRenderer, type NamedValidator } from '../services';
import { useLiveRefresh } from './liveRefresh';

/**
 * A detail section of type `series` (设备详情 → 数据趋势): the section's operation answers each
 * metric as time buckets over a range the user picks (the last hour, day or week up to now, or
 * one of their own); one chart per metric, titled with its name and unit. It loads again when the
 * live stream tells of an event that concerns it (`live`), and, while the range runs up to now,
 * every `live.everySeconds`. echarts comes with this chunk only (the detail page loads it lazily).
 */

type RowData = Record<string, unknown>;

export interface SeriesPoint {
  time: string;
  avg: number;
  min: number;
  max: number;
  count: number;
}

export interface MetricSeries {
  key: string;
  title: string;
  unit: string;
  points: SeriesPoint[];
  latest?: { time: string; value: number };
}

interface SeriesAnswer {
  series?: MetricSeries[];
  startTime?: string;
  endTime?: string;
}

const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** The ranges that run up to now, in minutes (what the operation takes as `lastMinutes`). */
export const RECENT_MINUTES: Readonly<Record<Exclude<SeriesRangeName, 'custom'>, number>> = { lastHour: 60, last24Hours: 1440, last7days: 10080 };
const RANGE_LABELS: Readonly<Record<SeriesRangeName, string>> = { lastHour: '近1小时', last24Hours: '近24小时', last7days: '近7天', custom: '自定义' };
const DEFAULT_MAX_DAYS = 31;
/** Below this many points a line shows each as a dot. */
const DOTS_UP_TO = 60;

/** The message for a picked range longer than the section allows (the operation's own for 31 days). */
export const rangeTooLong = (days: number) => `时间范围不能超过${days}天`;

/**
 * Why a picked range cannot be asked for: the time-range rule (SPEC §5: start and end must differ,
 * 请输入不同的时间, through the named validator) or longer than the section allows.
 */
export function customRangeProblem(start: Dayjs, end: Dayjs, maxDays: number, validators: Readonly<Record<string, NamedValidator>>): string | undefined {
  return validators.timeRange?.([start.valueOf(), end.valueOf()], {}) ?? (end.diff(start, 'minute', true) > maxDays * 1440 ? rangeTooLong(maxDays) : undefined);
}

/** `title（unit）`, or the title alone. */
export const seriesTitle = (series: Pick<MetricSeries, 'title' | 'unit'>) => (series.unit ? `${series.title}（${series.unit}）` : series.title);

/** The echarts option of one metric: its bucket means as a line over the range, the least and greatest in the tooltip. */
export function seriesOption(series: MetricSeries, range: { start?: string; end?: string }, format: NumberFormat = groupedNumber, time: (value: unknown) => string = String): EChartsCoreOption {
  const unit = series.unit ? ` ${series.unit}` : '';
  return {
    tooltip: {
      trigger: 'axis',
      // Numbers and times only: a metric's name is the device's to choose and never goes into this HTML.
      formatter: (items: Array<{ data: { value: [string, number]; min: number; max: number; count: number } }>) => {
        const item = items[0]?.data;
        if (!item) return '';
        return [time(item.value[0]), `平均 ${format(item.value[1])}${unit}`, `最小 ${format(item.min)}${unit}`, `最大 ${format(item.max)}${unit}`, `读数 ${format(item.count)} 条`].join('<br/>');
      },
    },
    grid: { left: 16, right: 24, top: 16, bottom: 8 },
    xAxis: { type: 'time', min: range.start, max: range.end },
    yAxis: { type: 'value', scale: true, axisLabel: { formatter: (value: number) => format(value) } },
    series: [
      {
        type: 'line',
        name: series.title,
        showSymbol: series.points.length <= DOTS_UP_TO,
        data: series.points.map((point) => ({ value: [point.time, point.avg], min: point.min, max: point.max, count: point.count })),
      },
    ],
  };
}

/** What the chart's accessible name says: the metric, its points and its newest reading. */
export function seriesLabel(series: MetricSeries, format: NumberFormat = groupedNumber, time: (value: unknown) => string = String): string {
  const latest = series.latest ? `，最新 ${format(series.latest.value)}${series.unit ? ` ${series.unit}` : ''}（${time(series.latest.time)}）` : '';
  return `${seriesTitle(series)}趋势图：${series.points.length} 个数据点${latest}`;
}

function MetricChart({ series, range }: { series: MetricSeries; range: { start?: string; end?: string } }) {
  const { formats } = useRenderer();
  const format = formats.number ?? groupedNumber;
  const time = formats.datetime ?? String;
  const option = useMemo(() => seriesOption(series, range, format, time), [series, range, format, time]);
  return (
    <Card
      size="small"
      title={seriesTitle(series)}
      data-testid="series-chart"
      data-metric={series.key}
      extra={
        series.latest ? (
          <Typography.Text type="secondary" data-testid="series-latest">
            最新 {format(series.latest.value)}
            {series.unit ? ` ${series.unit}` : ''} · {time(series.latest.time)}
          </Typography.Text>
        ) : null
      }
    >
      <Chart option={option} height={220} label={seriesLabel(series, format, time)} />
    </Card>
  );
}

export default function SeriesSection({ section, main, params }: { section: DetailSection; main: RowData; params: Record<string, unknown> }) {
  const services = useRenderer();
  const maxDays = section.timeRange?.maxDays ?? DEFAULT_MAX_DAYS;
  const [choice, setChoice] = useState<SeriesRangeName>(section.timeRange?.default ?? 'lastHour');
  const [custom, setCustom] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(1, 'day'), dayjs()]);
  const [rangeError, setRangeError] = useState<string | undefined>();
  const scope = useMemo(() => makeScope({ params, record: main, user: services.user }), [params, main, services.user]);
  const param = useMemo(() => {
    const base = (resolveTemplate(section.param ?? {}, scope) ?? {}) as RowData;
    return choice === 'custom' ? { ...base, startTime: custom[0].format(TIME_FORMAT), endTime: custom[1].format(TIME_FORMAT) } : { ...base, lastMinutes: RECENT_MINUTES[choice] };
  }, [section.param, scope, choice, custom]);
  const match = useMemo(() => (resolveTemplate(section.live?.match ?? {}, scope) ?? {}) as RowData, [section.live?.match, scope]);
  const answer = useOperationQuery<SeriesAnswer>(section.operation, param);
  // A page tab kept open behind another is not drawn: its chart waits for the events, not the clock.
  const holder = useRef<HTMLDivElement>(null);
  const shown = useCallback(() => (holder.current?.getClientRects().length ?? 0) > 0, []);
  useLiveRefresh(section.live, match, services.live, answer.reload, choice !== 'custom', shown);

  const changeCustom = (value: [Dayjs | null, Dayjs | null] | null) => {
    if (!value || !value[0] || !value[1]) return;
    const [start, end] = value;
    const problem = customRangeProblem(start, end, maxDays, services.validators);
    setRangeError(problem);
    if (!problem) setCustom([start, end]);
  };

  const data = answer.data;
  const range = useMemo(() => ({ start: data?.startTime, end: data?.endTime }), [data?.startTime, data?.endTime]);
  const series = data?.series ?? [];
  let body;
  if (answer.error !== null)
    body = (
      <Alert
        type="error"
        showIcon
        message="加载失败"
        description={answer.error}
        action={
          <Button size="small" onClick={answer.reload}>
            重试
          </Button>
        }
      />
    );
  else if (answer.loading) body = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (series.length === 0) body = <Empty description="所选时间范围内暂无数据" />;
  else
    body = (
      <Row gutter={[16, 16]}>
        {series.map((metric) => (
          <Col key={metric.key} xs={24} xl={12}>
            <MetricChart series={metric} range={range} />
          </Col>
        ))}
      </Row>
    );

  return (
    <div ref={holder} data-testid="series-section">
      <Space wrap style={{ marginBottom: 16 }} align="start">
        <Segmented<SeriesRangeName>
          aria-label="时间范围"
          value={choice}
          onChange={(value) => {
            setRangeError(undefined);
            setChoice(value);
          }}
          options={(Object.keys(RANGE_LABELS) as SeriesRangeName[]).map((value) => ({ value, label: RANGE_LABELS[value] }))}
        />
        {choice === 'custom' && (
          <Space direction="vertical" size={0}>
            <DatePicker.RangePicker
              showTime
              format={TIME_FORMAT}
              value={custom}
              onChange={changeCustom}
              status={rangeError ? 'error' : undefined}
              aria-label="自定义时间范围"
              allowClear={false}
            />
            {rangeError && <Typography.Text type="danger">{rangeError}</Typography.Text>}
          </Space>
        )}
      </Space>
      {body}
    </div>
  );
}
