import type { EChartsCoreOption } from 'echarts/core';
import { MEANING_COLOURS } from '../../../renderers/displays/colours';
import { formatNumber } from '../../format/numbers';

/** dashboard.overview */
export interface Overview {
  deviceTotal: number;
  onlineCount: number;
  offlineCount: number;
  inactiveCount: number;
  /** The online share, as a percentage (78.5) or a fraction (0.785). */
  onlineRate: number;
  faultyCount: number;
  lowBatteryCount: number;
  sleepingCount: number;
  productCount: number;
  projectCount: number;
  alarmToday: number;
  alarmPending: number;
}

/** dashboard.deviceTrend */
export interface DeviceTrendDay {
  day: string;
  newDevices: number;
  totalDevices: number;
}

/** dashboard.alarmTrend */
export interface AlarmTrendDay {
  day: string;
  total: number;
  level1: number;
  level2: number;
  level3: number;
  level4: number;
}

/** A record of alarm.record.page. */
export interface AlarmRecord {
  code: string;
  deviceCode: string;
  deviceName: string;
  level: number | string;
  alarmType: string;
  state: string;
  title: string;
  triggeredAt: string;
}

/** The KPI cards of the board, in order. */
export const KPI_CARDS: ReadonlyArray<{ field: keyof Overview; title: string; unit: string; colour: string }> = [
  { field: 'deviceTotal', title: '设备总数', unit: '台', colour: '#4fc3ff' },
  { field: 'onlineCount', title: '在线设备', unit: '台', colour: '#52c41a' },
  { field: 'offlineCount', title: '离线设备', unit: '台', colour: '#ff7875' },
  { field: 'inactiveCount', title: '未激活', unit: '台', colour: '#bfbfbf' },
  { field: 'faultyCount', title: '故障设备', unit: '台', colour: '#ff4d4f' },
  { field: 'lowBatteryCount', title: '低电量', unit: '台', colour: '#faad14' },
  { field: 'alarmToday', title: '今日告警', unit: '条', colour: '#ff9c6e' },
  { field: 'alarmPending', title: '待处理告警', unit: '条', colour: '#ffc53d' },
];

/**
 * The online rate as a percentage. The platform answers a percentage; a fraction is read as one
 * when that is what the counts say, and the counts decide when no rate came.
 */
export function onlineRatePercent(overview: Pick<Overview, 'onlineRate' | 'onlineCount' | 'deviceTotal'>): number {
  const rate = Number(overview.onlineRate);
  const fromCounts = overview.deviceTotal > 0 ? (overview.onlineCount / overview.deviceTotal) * 100 : null;
  let percent: number;
  if (!Number.isFinite(rate)) percent = fromCounts ?? 0;
  else if (rate > 1) percent = rate;
  else if (fromCounts === null) percent = rate * 100;
  else percent = Math.abs(rate * 100 - fromCounts) <= Math.abs(rate - fromCounts) ? rate * 100 : rate;
  return Math.round(Math.min(100, Math.max(0, percent)) * 10) / 10;
}

const AXIS_TEXT = '#8fa8cf';
const axisNumber = (value: number) => formatNumber(value);
const SPLIT_LINE = 'rgba(79, 195, 255, 0.12)';
const shortDay = (day: string) => day.slice(5);

function darkAxes(days: string[]) {
  return {
    grid: { left: 48, right: 16, top: 36, bottom: 28 },
    xAxis: { type: 'category', data: days.map(shortDay), axisLabel: { color: AXIS_TEXT }, axisLine: { lineStyle: { color: SPLIT_LINE } } },
    // Counts with thousand separators and at most two decimals (issue 21), on the axis and in the tooltip.
    yAxis: { type: 'value', axisLabel: { color: AXIS_TEXT, formatter: axisNumber }, splitLine: { lineStyle: { color: SPLIT_LINE } } },
    tooltip: { trigger: 'axis', valueFormatter: (value: unknown) => formatNumber(value) },
    legend: { top: 0, textStyle: { color: AXIS_TEXT } },
  };
}

/** New devices per day (bars) and the fleet size (line, right axis). */
export function deviceTrendOption(days: readonly DeviceTrendDay[]): EChartsCoreOption {
  const base = darkAxes(days.map((d) => d.day));
  return {
    ...base,
    grid: { ...base.grid, right: 56 },
    yAxis: [
      { ...base.yAxis, name: '新增', nameTextStyle: { color: AXIS_TEXT } },
      { type: 'value', name: '总数', scale: true, nameTextStyle: { color: AXIS_TEXT }, axisLabel: { color: AXIS_TEXT, formatter: axisNumber }, splitLine: { show: false } },
    ],
    series: [
      { type: 'bar', name: '新增设备', data: days.map((d) => d.newDevices), itemStyle: { color: '#4fc3ff' }, barMaxWidth: 10 },
      { type: 'line', name: '设备总数', yAxisIndex: 1, smooth: true, symbol: 'none', data: days.map((d) => d.totalDevices), lineStyle: { color: '#52c41a', width: 2 }, itemStyle: { color: '#52c41a' } },
    ],
  };
}

/** Alarms per day, stacked by level (labels and colours from the alarm_level dictionary, as every page draws them). */
export function alarmTrendOption(days: readonly AlarmTrendDay[], levelLabel: (level: string) => string, levelColour: (level: string) => string = () => MEANING_COLOURS.default): EChartsCoreOption {
  const levels = ['level1', 'level2', 'level3', 'level4'] as const;
  return {
    ...darkAxes(days.map((d) => d.day)),
    series: levels.map((level, index) => ({
      type: 'bar',
      stack: 'alarms',
      name: levelLabel(String(index + 1)),
      data: days.map((d) => d[level]),
      itemStyle: { color: levelColour(String(index + 1)) },
      barMaxWidth: 14,
    })),
  };
}

/** The online-rate gauge. */
export function onlineGaugeOption(percent: number): EChartsCoreOption {
  return {
    series: [
      {
        type: 'gauge',
        min: 0,
        max: 100,
        radius: '92%',
        progress: { show: true, width: 12, itemStyle: { color: percent >= 80 ? '#52c41a' : percent >= 60 ? '#faad14' : '#ff4d4f' } },
        axisLine: { lineStyle: { width: 12, color: [[1, 'rgba(79, 195, 255, 0.15)']] } },
        axisTick: { show: false },
        splitLine: { length: 8, lineStyle: { color: AXIS_TEXT, width: 1 } },
        axisLabel: { color: AXIS_TEXT, distance: 16, fontSize: 10 },
        pointer: { width: 4, itemStyle: { color: '#4fc3ff' } },
        title: { color: AXIS_TEXT, offsetCenter: [0, '70%'], fontSize: 12 },
        detail: { valueAnimation: false, formatter: '{value}%', color: '#e6f4ff', fontSize: 24, offsetCenter: [0, '38%'] },
        data: [{ value: percent, name: '在线率' }],
      },
    ],
  };
}
