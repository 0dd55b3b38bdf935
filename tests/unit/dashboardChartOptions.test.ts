import { describe, expect, it } from 'vitest';
import { chartOption, GAUGE_DETAIL_WIDTH, PIE_LABEL_MARGIN, PIE_LEGEND_WIDTH } from '../../renderers/dashboard/options';
import type { DashboardWidget } from '../../renderers/schema/types';

// Issue 21 item 11: the 告警类型分布 pie and the gauges cut or overlapped their labels.

interface PieSeries {
  type: string;
  radius: [string, string];
  center: [string, string];
  avoidLabelOverlap: boolean;
  label: { formatter: string; overflow: string; width?: number; bleedMargin: number };
  labelLayout: { hideOverlap: boolean };
  data: Array<{ name: string; value: number }>;
}
interface PieOption {
  legend: { type: string; bottom: number; textStyle: { width: number; overflow: string }; tooltip: { show: boolean } };
  tooltip: { formatter: (item: { name: string; value: number; percent: number }) => string };
  series: PieSeries[];
}
interface GaugeSeries {
  type: string;
  radius: string;
  center: [string, string];
  axisLabel: { distance: number; formatter: (tick: number) => string };
  detail: { offsetCenter: [number, string]; width: number; overflow: string; formatter: (figure: number) => string };
  title: { show: boolean };
  data: Array<{ value: number }>;
}

const percent = (value: string) => Number(value.replace('%', ''));

// As schemas/pages/dashboards/alarm.json and dashboards/usage.json have them.
const ALARM_TYPES = { type: 'pie', title: '告警类型分布', operation: 'device.alarmBoard.typeStatistics', name: 'name', y: 'count', span: 8 } as DashboardWidget;
const TENANT_LOGINS = { type: 'pie', title: '各租户登录占比', operation: 'x', name: 'tenantName', valueField: 'count', span: 12 } as DashboardWidget;
const CLOSED_RATE = { type: 'gauge', title: '告警关闭率', operation: 'alarm.statistics', valueField: 'closedRate', max: 100, suffix: '%', span: 8 } as DashboardWidget;

describe('pie and gauge options keep their labels inside the card', () => {
  it('a pie avoids and hides overlapping labels, cuts each to the room left to the card’s edge, and pages its legend', () => {
    const rows = [
      { name: '阈值告警', count: 1812 },
      { name: '离线告警', count: 2190 },
      { name: '故障告警', count: 654 },
      { name: '低电量告警', count: 1060 },
    ];
    const option = chartOption(ALARM_TYPES, rows) as unknown as PieOption;
    const [series] = option.series;
    expect(series.type).toBe('pie');
    expect(series.avoidLabelOverlap).toBe(true);
    expect(series.labelLayout).toEqual({ hideOverlap: true });
    expect(series.label.overflow).toBe('truncate');
    // A fixed width would turn echarts' own constraint off (pie labelLayout skips a label with a
    // style width): the label is cut to the room between its line and the edge, less this margin.
    expect(series.label.width).toBeUndefined();
    expect(series.label.bleedMargin).toBe(PIE_LABEL_MARGIN);
    // The ring leaves room at the sides for the outside labels and below for the legend.
    expect(percent(series.radius[1])).toBeLessThanOrEqual(60);
    expect(percent(series.center[1])).toBeLessThan(50);
    expect(option.legend.type).toBe('scroll');
    expect(option.legend.bottom).toBe(0);
    expect(option.legend.textStyle).toEqual({ width: PIE_LEGEND_WIDTH, overflow: 'truncate' });
    expect(option.legend.tooltip.show).toBe(true);
    expect(series.data).toEqual(rows.map((row) => ({ name: row.name, value: row.count })));
    expect(option.tooltip.formatter({ name: '离线告警', value: 2190, percent: 38.31234 })).toBe('离线告警：2,190（38.31%）');
  });

  it('a pie of long names (各租户登录占比) gets the same cut, from valueField', () => {
    const option = chartOption(TENANT_LOGINS, { records: [{ tenantName: '杭州云联科技有限公司', count: 120 }, { tenantName: '苏州智水环境科技有限公司', count: 80 }] }) as unknown as PieOption;
    expect(option.series[0].label.overflow).toBe('truncate');
    expect(option.series[0].label.width).toBeUndefined();
    expect(option.series[0].data).toEqual([
      { name: '杭州云联科技有限公司', value: 120 },
      { name: '苏州智水环境科技有限公司', value: 80 },
    ]);
  });

  it('a gauge draws its scale and its figure inside the dial', () => {
    const option = chartOption(CLOSED_RATE, { closedRate: 79.3456 }) as unknown as { series: GaugeSeries[] };
    const [gauge] = option.series;
    expect(gauge.type).toBe('gauge');
    expect(percent(gauge.radius)).toBeLessThan(100);
    expect(gauge.axisLabel.distance).toBeGreaterThan(0);
    expect(gauge.axisLabel.formatter(100)).toBe('100');
    // Under the hub, within the dial's radius, and never wider than the smallest card's dial.
    expect(gauge.detail.offsetCenter[0]).toBe(0);
    expect(percent(gauge.detail.offsetCenter[1])).toBeLessThan(100);
    expect(gauge.detail.width).toBe(GAUGE_DETAIL_WIDTH);
    expect(gauge.detail.overflow).toBe('truncate');
    expect(gauge.detail.formatter(79.3456)).toBe('79.35%');
    expect(gauge.title.show).toBe(false);
    expect(gauge.data).toEqual([{ value: 79.3456 }]);
  });
});
