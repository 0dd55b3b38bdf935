import type { EChartsCoreOption } from 'echarts/core';
import { ONLINE_STATE_COLOURS, ONLINE_STATES, type DevicePoint, type MapFocus } from './types';

/**
 * The offline map: devices drawn by longitude and latitude on a plain coordinate plane (no tiles,
 * no network), one scatter series per online state, zoomed and panned with dataZoom.
 */

/**
 * The plot area inside the chart (pixels), fixed so that its centre is known: echarts 6 would
 * otherwise shrink it to fit the axis labels (outerBoundsMode 'none' keeps it as given).
 */
export const MAP_GRID = { left: 84, right: 56, top: 36, bottom: 56 };
export const ZOOM_X = 'zoom-longitude';
export const ZOOM_Y = 'zoom-latitude';

/** West, east, south, north in degrees. */
export interface Extent {
  west: number;
  east: number;
  south: number;
  north: number;
}

/** All of China, for an empty map. */
export const CHINA_EXTENT: Extent = { west: 73, east: 135, south: 18, north: 54 };

/** The points' bounding box with a margin (at least ~2 km), or all of China with no points. */
export function pointsExtent(points: readonly DevicePoint[]): Extent {
  if (points.length === 0) return CHINA_EXTENT;
  let west = Infinity;
  let east = -Infinity;
  let south = Infinity;
  let north = -Infinity;
  for (const point of points) {
    if (point.longitude < west) west = point.longitude;
    if (point.longitude > east) east = point.longitude;
    if (point.latitude < south) south = point.latitude;
    if (point.latitude > north) north = point.latitude;
  }
  const marginX = Math.max((east - west) * 0.05, 0.02);
  const marginY = Math.max((north - south) * 0.05, 0.02);
  return { west: west - marginX, east: east + marginX, south: south - marginY, north: north + marginY };
}

/** The window around a focus, as wide as its span, as tall as the plot's shape allows. */
export function focusWindow(focus: Pick<MapFocus, 'longitude' | 'latitude' | 'span'>, plotWidth: number, plotHeight: number): Extent {
  const aspect = plotWidth > 0 && plotHeight > 0 ? plotHeight / plotWidth : 0.75;
  // A degree of longitude is cos(latitude) of a degree of latitude on the ground.
  const spanY = focus.span * aspect * Math.cos((focus.latitude * Math.PI) / 180);
  return {
    west: focus.longitude - focus.span / 2,
    east: focus.longitude + focus.span / 2,
    south: focus.latitude - spanY / 2,
    north: focus.latitude + spanY / 2,
  };
}

export function unionExtent(a: Extent, b: Extent): Extent {
  return { west: Math.min(a.west, b.west), east: Math.max(a.east, b.east), south: Math.min(a.south, b.south), north: Math.max(a.north, b.north) };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The tooltip of a device (its texts escaped: names and addresses are user data). */
export function deviceTooltip(point: DevicePoint, stateLabel: (state: string) => string): string {
  const colour = ONLINE_STATE_COLOURS[point.onlineState] ?? '#8c8c8c';
  return [
    `<b>${escapeHtml(point.name)}</b>`,
    `设备编码：${escapeHtml(point.code)}`,
    `产品：${escapeHtml(point.productName || '—')}`,
    `状态：<span style="color:${colour}">●</span> ${escapeHtml(stateLabel(point.onlineState))}`,
    `地址：${escapeHtml(point.address || '—')}`,
    `坐标：${point.longitude.toFixed(5)}, ${point.latitude.toFixed(5)}`,
  ].join('<br/>');
}

export interface OfflineMapOptions {
  stateLabel: (state: string) => string;
  dark?: boolean;
  /** The searched place: a pin, and the axes stretched to reach it. */
  focus?: MapFocus | null;
  /** The plot size, to shape the focus window. */
  plot?: { width: number; height: number };
  /** groupByState(points), when the caller already has it. */
  groups?: Map<string, number[]>;
}

/** The indexes of the points of each online state (the known states first, always present). */
export function groupByState(points: readonly DevicePoint[]): Map<string, number[]> {
  const groups = new Map<string, number[]>(ONLINE_STATES.map((state) => [state, []]));
  points.forEach((point, index) => {
    let group = groups.get(point.onlineState);
    if (!group) {
      group = [];
      groups.set(point.onlineState, group);
    }
    group.push(index);
  });
  return groups;
}

const SERIES_PREFIX = 'devices-';

/** The point behind a chart event (tooltip, click), from its series and data index. */
export function pointOfEvent(points: readonly DevicePoint[], groups: Map<string, number[]>, params: unknown): DevicePoint | undefined {
  const { seriesId, dataIndex } = (params ?? {}) as { seriesId?: unknown; dataIndex?: unknown };
  if (typeof seriesId !== 'string' || !seriesId.startsWith(SERIES_PREFIX) || typeof dataIndex !== 'number') return undefined;
  const index = groups.get(seriesId.slice(SERIES_PREFIX.length))?.[dataIndex];
  return index === undefined ? undefined : points[index];
}

export function offlineMapOption(points: readonly DevicePoint[], { stateLabel, dark = false, focus, plot, groups = groupByState(points) }: OfflineMapOptions): EChartsCoreOption {
  let extent = pointsExtent(points);
  if (focus) extent = unionExtent(extent, focusWindow(focus, plot?.width ?? 0, plot?.height ?? 0));
  const text = dark ? '#c9d6ee' : '#595959';
  const line = dark ? 'rgba(120, 160, 230, 0.16)' : '#f0f0f0';
  const axis = (name: string, min: number, max: number, suffix: string) => ({
    type: 'value',
    name,
    min,
    max,
    scale: true,
    nameTextStyle: { color: text },
    // echarts picks round ticks (30.325, 30.33): shown as they are, to five places at most. The
    // axis ends are the points' extent (30.44397), not round: no label there (issue 21).
    axisLabel: { color: text, showMinLabel: false, showMaxLabel: false, formatter: (value: number) => `${Number(value.toFixed(5))}°${suffix}` },
    axisLine: { lineStyle: { color: line } },
    splitLine: { lineStyle: { color: line, type: 'dashed' } },
  });
  const series: Record<string, unknown>[] = [...groups.entries()].map(([state, indexes]) => ({
    id: `${SERIES_PREFIX}${state}`,
    name: stateLabel(state),
    type: 'scatter',
    data: indexes.map((index) => [points[index].longitude, points[index].latitude]),
    symbolSize: points.length > 3000 ? 5 : 8,
    large: true,
    largeThreshold: 2000,
    itemStyle: { color: ONLINE_STATE_COLOURS[state] ?? '#8c8c8c', opacity: 0.85 },
    emphasis: { scale: 1.8 },
    cursor: 'pointer',
  }));
  if (focus) {
    series.push({
      id: 'focus',
      name: focus.label ?? '定位',
      type: 'scatter',
      data: [[focus.longitude, focus.latitude]],
      symbol: 'pin',
      symbolSize: 36,
      silent: true,
      z: 10,
      itemStyle: { color: '#1677ff' },
      label: { show: Boolean(focus.label), formatter: focus.label ?? '', position: 'top', color: dark ? '#fff' : '#1f1f1f', fontWeight: 'bold' },
      tooltip: { show: false },
    });
  }
  return {
    animation: false,
    grid: { ...MAP_GRID, outerBoundsMode: 'none' },
    legend: { top: 4, right: 8, data: ONLINE_STATES.map(stateLabel), textStyle: { color: text } },
    tooltip: {
      trigger: 'item',
      confine: true,
      formatter: (params: unknown) => {
        const point = pointOfEvent(points, groups, params);
        return point ? deviceTooltip(point, stateLabel) : '';
      },
    },
    xAxis: axis('经度', extent.west, extent.east, 'E'),
    yAxis: axis('纬度', extent.south, extent.north, 'N'),
    dataZoom: [
      { type: 'inside', id: ZOOM_X, xAxisIndex: 0, filterMode: 'none', minValueSpan: 0.002 },
      { type: 'inside', id: ZOOM_Y, yAxisIndex: 0, filterMode: 'none', minValueSpan: 0.002 },
      ...(dark ? [] : [{ type: 'slider', xAxisIndex: 0, filterMode: 'none', height: 18, bottom: 8, labelFormatter: '' }]),
    ],
    series,
  };
}
