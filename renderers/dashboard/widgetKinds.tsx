import { Empty, Statistic, Table } from 'antd';
import type { ComponentType } from 'react';
import { seriesColours } from '../displays/colours';
import { renderCell } from '../displays/displays';
import { Registry } from '../registry';
import { readPath } from '../schema/template';
import { useRenderer, type DashboardWidgetProps } from '../services';
import { Chart } from './Chart';
import { chartOption, rowsOf } from './options';

/**
 * One kind of dashboard widget: what it draws from its operation's answer (the card around it
 * loads, retries and titles it), with the props a widget of the console's own gets
 * (RendererServices.widgets), so a built-in and an extension are written alike.
 */
export interface WidgetKind {
  /** Draws the answer (`data`: the operation's, or the part `rowsField` names). */
  Body: ComponentType<DashboardWidgetProps>;
  /** Lines of the loading skeleton (a figure's card is short). */
  skeletonRows: number;
  /** Its width at 1200 px and wider when the page gives no `span` (of 24); 12 when left out. */
  span?: number;
}

/**
 * The widget types a dashboard may name (`"type"`): the built-ins below are entries like any other,
 * so adding one is one `register` and a test (tests/unit/renderer/widgetKinds.test.tsx);
 * `npm run check` and `npm run schemas` (names.schema.json's `widget`) read the names from here.
 */
export const WIDGET_KINDS = new Registry<WidgetKind>('仪表盘组件类型');

function StatisticBody({ widget, data }: DashboardWidgetProps) {
  const { formats } = useRenderer();
  const value = widget.valueField ? readPath(data, widget.valueField) : ((data as Record<string, unknown> | null | undefined)?.value ?? data);
  // A named field (a dotted path) that holds nothing shows "-": a figure that does not apply is not 0.
  if (widget.valueField !== undefined && (value === undefined || value === null)) return <Statistic value="-" />;
  const formatted = widget.display && formats[widget.display] ? formats[widget.display](value) : undefined;
  return <Statistic value={formatted ?? (value as number | string | undefined) ?? 0} suffix={widget.suffix} />;
}

function TableBody({ widget, data }: DashboardWidgetProps) {
  const services = useRenderer();
  const rows = rowsOf(widget.rowsField ? readPath(data, widget.rowsField) : data);
  return (
    <Table
      size="small"
      rowKey="__rowKey"
      dataSource={rows.map((row, index) => ({ __rowKey: String(row.id ?? index), ...row }))}
      pagination={false}
      scroll={{ y: widget.height ?? 280 }}
      columns={(widget.columns ?? []).map((column) => ({ key: column.field, title: column.title, render: (_v: unknown, row: Record<string, unknown>) => renderCell(column, row, services) }))}
    />
  );
}

function ChartBody({ widget, data }: DashboardWidgetProps) {
  const { formats, dictionaries } = useRenderer();
  const source = widget.rowsField ? readPath(data, widget.rowsField) : data;
  if (widget.type !== 'gauge' && rowsOf(source).length === 0) return <Empty description="暂无数据" style={{ height: widget.height ?? 280 }} />;
  const option = chartOption(widget, widget.type === 'gauge' ? data : source, formats.number, dictionaries);
  // What the chart tells by colour, in words on its container too (never by colour alone).
  return (
    <div data-series-colours={seriesColours(option)}>
      <Chart option={option} height={widget.height} label={widget.title} />
    </div>
  );
}

WIDGET_KINDS.register('statistic', { Body: StatisticBody, skeletonRows: 1, span: 6 })
  .register('line', { Body: ChartBody, skeletonRows: 5 })
  .register('bar', { Body: ChartBody, skeletonRows: 5 })
  .register('pie', { Body: ChartBody, skeletonRows: 5 })
  .register('gauge', { Body: ChartBody, skeletonRows: 5 })
  .register('table', { Body: TableBody, skeletonRows: 5 });
