// The offline map's drawing: one series per online state in its colour, tooltips with the
// device's (escaped) texts, clicks resolved to devices, and a focus that recentres the view.
import { describe, expect, it } from 'vitest';
import { CHINA_EXTENT, deviceTooltip, focusWindow, groupByState, offlineMapOption, pointOfEvent, pointsExtent } from '../../../src/maps/offlineOption';
import { ONLINE_STATE_COLOURS, type DevicePoint } from '../../../src/maps/types';

const LABELS: Record<string, string> = { online: '在线', offline: '离线', inactive: '未激活' };
const stateLabel = (state: string) => LABELS[state] ?? '未知';

function point(code: string, onlineState: string, longitude: number, latitude: number, name = `设备${code}`): DevicePoint {
  return { code, name, longitude, latitude, onlineState, healthState: 'healthy', productName: 'NB-IoT 智能水表', address: '浙江省杭州市西湖区灵隐路8号' };
}

const POINTS = [point('A00000000001', 'online', 120.1, 30.2), point('A00000000002', 'offline', 120.3, 30.3), point('A00000000003', 'online', 120.2, 30.25), point('A00000000004', 'inactive', 120.15, 30.22)];

interface Series {
  id: string;
  name: string;
  data: number[][];
  itemStyle?: { color: string };
  large?: boolean;
}

describe('offlineMapOption', () => {
  it('draws one large scatter series per online state, coloured and named by the dictionary', () => {
    const option = offlineMapOption(POINTS, { stateLabel }) as { series: Series[]; legend: { data: string[] } };
    expect(option.series.map((s) => s.id)).toEqual(['devices-online', 'devices-offline', 'devices-inactive']);
    expect(option.series.map((s) => s.name)).toEqual(['在线', '离线', '未激活']);
    expect(option.series[0].data).toEqual([
      [120.1, 30.2],
      [120.2, 30.25],
    ]);
    expect(option.series[1].itemStyle?.color).toBe(ONLINE_STATE_COLOURS.offline);
    expect(option.series.every((s) => s.large)).toBe(true);
    expect(option.legend.data).toEqual(['在线', '离线', '未激活']);
  });

  it('fits the axes to the points with a margin, and to all of China with none', () => {
    const option = offlineMapOption(POINTS, { stateLabel }) as { xAxis: { min: number; max: number }; yAxis: { min: number; max: number } };
    expect(option.xAxis.min).toBeLessThan(120.1);
    expect(option.xAxis.max).toBeGreaterThan(120.3);
    expect(option.yAxis.min).toBeLessThan(30.2);
    expect(pointsExtent([])).toEqual(CHINA_EXTENT);
  });

  it('zooms and pans both axes without dropping points, with a slider only on the light map', () => {
    const light = offlineMapOption(POINTS, { stateLabel }) as { dataZoom: Array<{ type: string; filterMode: string }> };
    expect(light.dataZoom.map((z) => z.type)).toEqual(['inside', 'inside', 'slider']);
    expect(light.dataZoom.every((z) => z.filterMode === 'none')).toBe(true);
    const dark = offlineMapOption(POINTS, { stateLabel, dark: true }) as { dataZoom: unknown[] };
    expect(dark.dataZoom).toHaveLength(2);
  });

  it('pins a focus and stretches the axes to reach it', () => {
    const focus = { longitude: 116.4, latitude: 39.9, span: 0.6, label: '北京市', serial: 1 };
    const option = offlineMapOption(POINTS, { stateLabel, focus, plot: { width: 800, height: 600 } }) as { series: Series[]; xAxis: { min: number } };
    const pin = option.series.find((s) => s.id === 'focus')!;
    expect(pin.data).toEqual([[116.4, 39.9]]);
    expect(option.xAxis.min).toBeCloseTo(116.1, 6);
  });
});

describe('focusWindow', () => {
  it('centres the window on the place, as wide as the span and shaped like the plot', () => {
    const view = focusWindow({ longitude: 120.15, latitude: 30.25, span: 0.2 }, 800, 400);
    expect((view.west + view.east) / 2).toBeCloseTo(120.15, 6);
    expect((view.south + view.north) / 2).toBeCloseTo(30.25, 6);
    expect(view.east - view.west).toBeCloseTo(0.2, 6);
    expect(view.north - view.south).toBeCloseTo(0.1 * Math.cos((30.25 * Math.PI) / 180), 6);
  });
});

describe('tooltips and clicks', () => {
  it('finds the device behind an event by series and data index', () => {
    const groups = groupByState(POINTS);
    expect(pointOfEvent(POINTS, groups, { seriesId: 'devices-online', dataIndex: 1 })?.code).toBe('A00000000003');
    expect(pointOfEvent(POINTS, groups, { seriesId: 'devices-inactive', dataIndex: 0 })?.code).toBe('A00000000004');
    expect(pointOfEvent(POINTS, groups, { seriesId: 'focus', dataIndex: 0 })).toBeUndefined();
    expect(pointOfEvent(POINTS, groups, { seriesId: 'devices-online', dataIndex: 9 })).toBeUndefined();
    expect(pointOfEvent(POINTS, groups, null)).toBeUndefined();
  });

  it('names the device, its product, state and address, escaping markup', () => {
    const tooltip = deviceTooltip(point('A00000000009', 'offline', 120, 30, '<img src=x onerror=alert(1)>'), stateLabel);
    expect(tooltip).not.toContain('<img');
    expect(tooltip).toContain('&#60;img');
    expect(tooltip).toContain('设备编码：A00000000009');
    expect(tooltip).toContain('离线');
    expect(tooltip).toContain('浙江省杭州市西湖区灵隐路8号');
  });
});
