// The personal big screen: KPI cards from dashboard.overview, charts and the map, each panel
// failing on its own (a "501" from a call not served yet never blanks the board), refreshed
// every minute.
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../src/api/client';
import { ApiError } from '../../../src/api/http';
import BigScreenPage, { REFRESH_INTERVAL_MS } from '../../../src/screens/bigScreen/BigScreenPage';
import { alarmTrendOption, deviceTrendOption, onlineRatePercent, type Overview } from '../../../src/screens/bigScreen/panels';
import { consoleStore, sessionAtom } from '../../../src/session/session';
import { renderConsole, signIn, userInfo } from '../account/harness';

vi.mock('../../../src/api/client', () => ({ api: { call: vi.fn(), page: vi.fn(), upload: vi.fn() } }));
vi.mock('../../../src/charts/EChart', () => ({ EChart: ({ label }: { label: string }) => <div role="img" aria-label={label} /> }));
vi.mock('../../../src/maps/DeviceMap', () => ({
  DeviceMap: ({ points }: { points: unknown[] }) => <div data-testid="device-map">{points.length} 个点位</div>,
}));

const OVERVIEW: Overview = {
  deviceTotal: 6210,
  onlineCount: 4980,
  offlineCount: 980,
  inactiveCount: 250,
  onlineRate: 80.2,
  faultyCount: 312,
  lowBatteryCount: 420,
  sleepingCount: 280,
  productCount: 8,
  projectCount: 2,
  alarmToday: 37,
  alarmPending: 126,
};

function answer(failing: string[] = []) {
  vi.mocked(api.call).mockImplementation(async (operation: string) => {
    if (failing.includes(operation)) throw new ApiError('business', '501', '该接口尚未实现');
    switch (operation) {
      case 'dashboard.overview':
        return OVERVIEW as never;
      case 'dashboard.deviceTrend':
        return [{ day: '2026-11-21', newDevices: 3, totalDevices: 6207 }, { day: '2026-11-22', newDevices: 3, totalDevices: 6210 }] as never;
      case 'dashboard.alarmTrend':
        return [{ day: '2026-11-22', total: 5, level1: 1, level2: 1, level3: 2, level4: 1 }] as never;
      case 'device.distribution.list':
        return [{ code: 'WMNB01000001', name: '智能水表-0001', longitude: 120.1, latitude: 30.2, onlineState: 'online', healthState: 'healthy', productName: '水表', address: '' }] as never;
      default:
        throw new Error(`unexpected call ${operation}`);
    }
  });
  vi.mocked(api.page).mockImplementation(async (operation: string) => {
    if (failing.includes(operation)) throw new ApiError('business', '501', '该接口尚未实现');
    return {
      records: [{ code: 'ALM0001', deviceCode: 'WMNB01000001', deviceName: '智能水表-0001', level: 1, alarmType: 'threshold', state: 'pending', title: '水压过高', triggeredAt: '2026-11-22T08:30:00Z' }],
      total: 1,
      pageNumber: 1,
      pageSize: 10,
    } as never;
  });
}

function signInTenant() {
  const session = signIn(userInfo());
  consoleStore.set(sessionAtom, {
    ...session,
    organizations: [{ id: 1, organizationCode: 'T0001', organizationName: '杭州云联科技有限公司', organizationType: 2, children: [] }],
    dictionaries: { alarm_level: { dictType: 'alarm_level', dictName: '告警等级', children: [{ dictValue: '1', dictLabel: '紧急' }] } },
  });
  window.sessionStorage.setItem('tenantCode', 'T0001');
  window.sessionStorage.setItem('customName', '杭州云联科技有限公司');
}

beforeEach(() => {
  vi.mocked(api.call).mockReset();
  vi.mocked(api.page).mockReset();
  signInTenant();
});
afterEach(() => vi.useRealTimers());

describe('the big screen', () => {
  it('shows the tenant, a clock, the KPI numbers, the charts, the map and the latest alarms, every call silent', async () => {
    answer();
    const { notes } = renderConsole(<BigScreenPage />, { path: '/big-screen' });
    expect(await screen.findByTestId('kpi-deviceTotal')).toHaveTextContent('6,210');
    expect(screen.getByTestId('kpi-alarmPending')).toHaveTextContent('126');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('杭州云联科技有限公司');
    expect(screen.getByTestId('big-screen-clock').textContent).toMatch(/^\d{4}-\d{2}-\d{2} 星期. \d{2}:\d{2}:\d{2}$/);
    expect(await screen.findByTestId('device-map')).toHaveTextContent('1 个点位');
    expect(await screen.findByText('水压过高')).toBeInTheDocument();
    expect(screen.getByText('紧急')).toBeInTheDocument();
    for (const label of ['设备在线率', '设备增长趋势', '告警趋势']) expect(screen.getByRole('img', { name: label })).toBeInTheDocument();
    expect(screen.queryByTestId('panel-error')).not.toBeInTheDocument();
    // Each call is cancellable through the cache's signal.
    expect(vi.mocked(api.call).mock.calls.every(([, , options]) => (options as { signal?: unknown }).signal instanceof AbortSignal)).toBe(true);
    expect(notes.error).not.toHaveBeenCalled();
    expect(vi.mocked(api.page).mock.calls[0].slice(0, 4)).toEqual(['alarm.record.page', { pageNumber: 1, pageSize: 10 }, {}, [{ field: 'triggeredAt', order: 'desc' }]]);
    expect(screen.getByTestId('big-screen-exit')).toHaveAttribute('href', '/dashboard');
  });

  it('shows a failing call as an error in its own panel, the rest of the board intact', async () => {
    answer(['dashboard.alarmTrend', 'alarm.record.page']);
    const { notes } = renderConsole(<BigScreenPage />, { path: '/big-screen' });
    const alarmTrend = await screen.findByTestId('panel-alarm-trend');
    expect(await within(alarmTrend).findByTestId('panel-error')).toHaveTextContent('该接口尚未实现');
    expect(await within(screen.getByTestId('panel-latest-alarms')).findByTestId('panel-error')).toBeInTheDocument();
    expect(within(screen.getByTestId('panel-device-trend')).queryByTestId('panel-error')).not.toBeInTheDocument();
    expect(screen.getByTestId('kpi-onlineCount')).toHaveTextContent('4,980');
    // Silent: each panel says its failure itself, never a message over the board.
    expect(notes.error).not.toHaveBeenCalled();
  });

  it('shows the overview failure in place of the KPI cards', async () => {
    answer(['dashboard.overview']);
    renderConsole(<BigScreenPage />, { path: '/big-screen' });
    expect(await within(await screen.findByTestId('big-screen-kpis')).findByTestId('panel-error')).toHaveTextContent('概览加载失败');
    expect(await screen.findByTestId('device-map')).toBeInTheDocument();
  });

  it('reloads every panel each minute', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    answer();
    renderConsole(<BigScreenPage />, { path: '/big-screen' });
    await screen.findByTestId('kpi-deviceTotal');
    const overviewCalls = () => vi.mocked(api.call).mock.calls.filter(([name]) => name === 'dashboard.overview').length;
    expect(overviewCalls()).toBe(1);
    await act(async () => {
      vi.advanceTimersByTime(REFRESH_INTERVAL_MS);
    });
    await waitFor(() => expect(overviewCalls()).toBe(2));
    expect(vi.mocked(api.page)).toHaveBeenCalledTimes(2);
  });
});

describe('the board panels', () => {
  it('reads the online rate as a percentage, or a fraction when the counts say so', () => {
    expect(onlineRatePercent({ onlineRate: 80.2, onlineCount: 4980, deviceTotal: 6210 })).toBe(80.2);
    expect(onlineRatePercent({ onlineRate: 0.802, onlineCount: 4980, deviceTotal: 6210 })).toBe(80.2);
    expect(onlineRatePercent({ onlineRate: 1, onlineCount: 1, deviceTotal: 100 })).toBe(1);
    expect(onlineRatePercent({ onlineRate: 1, onlineCount: 100, deviceTotal: 100 })).toBe(100);
    expect(onlineRatePercent({ onlineRate: Number.NaN, onlineCount: 3, deviceTotal: 4 })).toBe(75);
    expect(onlineRatePercent({ onlineRate: 0, onlineCount: 0, deviceTotal: 0 })).toBe(0);
  });

  it('stacks the alarm levels under their dictionary names and plots the fleet size on its own axis', () => {
    const alarms = alarmTrendOption([{ day: '2026-11-22', total: 5, level1: 1, level2: 1, level3: 2, level4: 1 }], (level) => `L${level}`) as { series: Array<{ name: string; stack: string; data: number[] }>; xAxis: { data: string[] } };
    expect(alarms.series.map((s) => s.name)).toEqual(['L1', 'L2', 'L3', 'L4']);
    expect(alarms.series.every((s) => s.stack === 'alarms')).toBe(true);
    expect(alarms.series[2].data).toEqual([2]);
    expect(alarms.xAxis.data).toEqual(['11-22']);
    const devices = deviceTrendOption([{ day: '2026-11-22', newDevices: 3, totalDevices: 6210 }]) as { series: Array<{ type: string; yAxisIndex?: number; data: number[] }> };
    expect(devices.series.map((s) => [s.type, s.yAxisIndex ?? 0, s.data[0]])).toEqual([
      ['bar', 0, 3],
      ['line', 1, 6210],
    ]);
  });
});
