import type { EChartsCoreOption } from 'echarts/core';
import type { DashboardWidget } from '../schema/types';

type Row = Record<string, unknown>;

export function rowsOf(result: unknown): Row[] {
  if (Array.isArray(result)) return result as Row[];
  const records = (result as { records?: unknown } | null)?.records;
  return Array.isArray(records) ? (records as Row[]) : [];
}

/** The echarts option for a chart widget from the rows its operation answered. */
export function chartOption(widget: DashboardWidget, result: unknown): EChartsCoreOption {
  const rows = rowsOf(result);
  if (widget.type === 'pie') {
    const name = widget.name ?? 'name';
    const value = typeof widget.y === 'string' ? widget.y : (widget.valueField ?? 'value');
    return {
      tooltip: { trigger: 'item', formatter: '{b}：{c}（{d}%）' },
      legend: { bottom: 0, type: 'scroll' },
      series: [{ type: 'pie', radius: ['40%', '68%'], data: rows.map((row) => ({ name: String(row[name] ?? ''), value: Number(row[value] ?? 0) })) }],
    };
  }
  if (widget.type === 'gauge') {
    const field = widget.valueField ?? 'value';
    const source = (Array.isArray(result) ? rows[0] : (result as Row | null)) ?? {};
    return {
      series: [{ type: 'gauge', max: widget.max ?? 100, detail: { formatter: `{value}${widget.suffix ?? ''}` }, data: [{ value: Number(source[field] ?? 0) }] }],
    };
  }
  const x = widget.x ?? 'name';
  const ys = Array.isArray(widget.y) ? widget.y : [widget.y ?? 'value'];
  return {
    tooltip: { trigger: 'axis' },
    legend: ys.length > 1 ? { top: 0 } : undefined,
    grid: { left: 48, right: 16, top: ys.length > 1 ? 32 : 16, bottom: 32 },
    xAxis: { type: 'category', data: rows.map((row) => String(row[x] ?? '')) },
    yAxis: { type: 'value' },
    series: ys.map((y) => ({ type: widget.type === 'bar' ? 'bar' : 'line', name: widget.seriesNames?.[y] ?? y, smooth: widget.type === 'line', data: rows.map((row) => Number(row[y] ?? 0)) })),
  };
}
