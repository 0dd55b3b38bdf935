import type { EChartsCoreOption } from 'echarts/core';
import { MEANING_COLOURS } from '../displays/colours';
import type { DashboardWidget } from '../schema/types';
import type { DictionaryProvider } from '../services';

type Row = Record<string, unknown>;
/** How a chart writes a number (the console's `number` format: 6,211; at most 2 decimals). */
export type NumberFormat = (value: unknown) => string;

const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
/** Used when the console hands no `number` format (tests, the playground). */
export const groupedNumber: NumberFormat = (value) => {
  const number = Number(value);
  return Number.isFinite(number) ? GROUPED.format(number) : String(value ?? '');
};

/** Up to this many categories, every one is labelled on the axis. */
const FEW_CATEGORIES = 8;
/** A pie's legend entry is cut past this width (px). */
export const PIE_LEGEND_WIDTH = 96;
/** What a pie's outside label keeps from the card's edge (px). */
export const PIE_LABEL_MARGIN = 8;
/** The widest a gauge's figure is drawn (px): inside the dial of the smallest card. */
export const GAUGE_DETAIL_WIDTH = 120;

export function rowsOf(result: unknown): Row[] {
  if (Array.isArray(result)) return result as Row[];
  const records = (result as { records?: unknown } | null)?.records;
  return Array.isArray(records) ? (records as Row[]) : [];
}

/**
 * The echarts option for a chart widget from the rows its operation answered. Every number a
 * chart writes (axis labels, tooltips, the gauge's figure, pie labels) goes through `format`:
 * thousand separators and at most two decimals, never 0.30000000000000004.
 */
export function chartOption(widget: DashboardWidget, result: unknown, format: NumberFormat = groupedNumber, dictionaries?: DictionaryProvider): EChartsCoreOption {
  const rows = rowsOf(result);
  if (widget.type === 'pie') {
    const name = widget.name ?? 'name';
    const value = typeof widget.y === 'string' ? widget.y : (widget.valueField ?? 'value');
    return {
      tooltip: { trigger: 'item', formatter: (item: { name: string; value: number; percent: number }) => `${item.name}：${format(item.value)}（${format(item.percent)}%）` },
      // One line of names that pages sideways; a long name is cut to its width, the whole of it on hover.
      legend: { bottom: 0, type: 'scroll', textStyle: { width: PIE_LEGEND_WIDTH, overflow: 'truncate' }, tooltip: { show: true } },
      series: [
        {
          type: 'pie',
          // Room above the legend and at the sides for the outside labels: they stay inside the card.
          radius: ['36%', '58%'],
          center: ['50%', '45%'],
          avoidLabelOverlap: true,
          // No fixed width: echarts then cuts each label to the room between its line and the
          // card's edge (a fixed one turns that off, and 杭州云联科技有限公司 ran off a phone's card).
          label: { formatter: '{b}', overflow: 'truncate', bleedMargin: PIE_LABEL_MARGIN },
          labelLine: { length: 8, length2: 8 },
          labelLayout: { hideOverlap: true },
          data: rows.map((row) => ({ name: String(row[name] ?? ''), value: Number(row[value] ?? 0) })),
        },
      ],
    };
  }
  if (widget.type === 'gauge') {
    const field = widget.valueField ?? 'value';
    const source = (Array.isArray(result) ? rows[0] : (result as Row | null)) ?? {};
    const suffix = widget.suffix ?? '';
    return {
      series: [
        {
          type: 'gauge',
          max: widget.max ?? 100,
          // The figure and the scale inside the dial: nothing drawn past the card's edge.
          radius: '88%',
          center: ['50%', '55%'],
          axisLabel: { distance: 14, fontSize: 11, formatter: (tick: number) => format(tick) },
          // The figure sits inside the dial, under the hub, cut rather than drawn over the scale.
          detail: { fontSize: 20, offsetCenter: [0, '60%'], width: GAUGE_DETAIL_WIDTH, overflow: 'truncate', formatter: (figure: number) => `${format(figure)}${suffix}` },
          title: { show: false },
          data: [{ value: Number(source[field] ?? 0) }],
        },
      ],
    };
  }
  const x = widget.x ?? 'name';
  const ys = Array.isArray(widget.y) ? widget.y : [widget.y ?? 'value'];
  return {
    tooltip: { trigger: 'axis', valueFormatter: (value: unknown) => format(value) },
    legend: ys.length > 1 ? { top: 0 } : undefined,
    // echarts 6 keeps the axis labels inside the canvas (outerBounds): the value axis takes the
    // width of its longest label (6,000,000 is not cut) from this margin.
    grid: { left: 16, right: 16, top: ys.length > 1 ? 32 : 16, bottom: 8 },
    // A few categories (告警类型) are all named; a long run of days shows as many as fit.
    xAxis: { type: 'category', data: rows.map((row) => String(row[x] ?? '')), axisLabel: rows.length <= FEW_CATEGORIES ? { interval: 0, overflow: 'truncate' } : {} },
    yAxis: { type: 'value', axisLabel: { formatter: (value: number) => format(value) } },
    series: ys.map((y) => ({
      type: widget.type === 'bar' ? 'bar' : 'line',
      name: seriesName(widget, y, dictionaries),
      smooth: widget.type === 'line',
      data: rows.map((row) => Number(row[y] ?? 0)),
      ...seriesStyle(widget, y, dictionaries),
    })),
  };
}

/** A series' name: the page's, else the label of the dictionary item it stands for, else its field. */
function seriesName(widget: DashboardWidget, y: string, dictionaries: DictionaryProvider | undefined): string {
  const named = widget.seriesNames?.[y];
  if (named) return named;
  const value = widget.seriesDict?.values[y];
  return value !== undefined && dictionaries ? dictionaries.label(widget.seriesDict?.dictType ?? '', value) : y;
}

/** A series standing for a dictionary item is drawn in that item's colour, as its tags are on every page (issue 34). */
function seriesStyle(widget: DashboardWidget, y: string, dictionaries: DictionaryProvider | undefined): { itemStyle?: { color: string }; lineStyle?: { color: string } } {
  const value = widget.seriesDict?.values[y];
  if (value === undefined || !widget.seriesDict) return {};
  const color = MEANING_COLOURS[dictionaries?.colour?.(widget.seriesDict.dictType, value) ?? 'default'];
  return widget.type === 'line' ? { itemStyle: { color }, lineStyle: { color } } : { itemStyle: { color } };
}
