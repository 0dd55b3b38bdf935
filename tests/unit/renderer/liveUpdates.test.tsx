// The pages that follow the live stream (issue 22): a list with `liveMark` marks 新 the rows its
// events announced since it was opened (告警记录, 监控告警), and a detail page's `series` section
// (设备详情 → 数据趋势) asks its operation for the range picked and loads again, at most once every
// few seconds, when an event concerns it.
import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { concerns, LIVE_RELOAD_MS, throttled, useLiveRefresh } from '../../../renderers/detail/liveRefresh';
import { customRangeProblem, seriesLabel, seriesOption, seriesTitle } from '../../../renderers/detail/SeriesSection';
import dayjs from '../../../renderers/runtime/dayjs';
import { NAMED_VALIDATORS } from '../../../src/validation/named';
import { LIVE_MARK_TEXT } from '../../../renderers/list/ListRenderer';
import { LIVE_MARK_LIMIT, markedKey, rowMarkKey, withMark } from '../../../renderers/list/liveMark';
import type { LiveFeed, LiveNotice } from '../../../renderers/services';
import { fakeData, fakeServices, renderWith } from './harness';

vi.mock('../../../renderers/dashboard/Chart', () => ({
  Chart: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

/** A live stream the test drives. */
function fakeFeed() {
  const listeners = new Set<(event: LiveNotice) => void>();
  const feed: LiveFeed & { send(kind: string, payload: Record<string, unknown>): void; listeners: number } = {
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    send: (kind, payload) => {
      act(() => {
        for (const listener of [...listeners]) listener({ id: String(Math.random()), kind, payload, at: '2026-11-28T03:00:00.000Z' });
      });
    },
    get listeners() {
      return listeners.size;
    },
  };
  return feed;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the mark of a row the live stream brought', () => {
  const mark = { event: 'alarm.raised' as const, key: 'alarmCode' };

  it('an event of the mark’s kinds names its row by the payload’s key; any other names none', () => {
    const notice = (kind: string, payload: Record<string, unknown>): LiveNotice => ({ id: '1', kind, payload, at: '' });
    expect(markedKey(mark, notice('alarm.raised', { alarmCode: 'AL2026112800001', deviceCode: 'X' }))).toBe('AL2026112800001');
    expect(markedKey(mark, notice('alarm.recovered', { alarmCode: 'AL2026112800001' }))).toBeNull();
    expect(markedKey(mark, notice('alarm.raised', { deviceCode: 'X' }))).toBeNull();
    expect(markedKey({ event: ['alarm.raised', 'alarm.recovered'], key: 'id' }, notice('alarm.recovered', { id: 7 }))).toBe('7');
    expect(rowMarkKey({ code: 'A', device: { code: 'D' } }, 'device.code')).toBe('D');
    expect(rowMarkKey({ code: null }, 'code')).toBeNull();
  });

  it('keeps the newest marks, each once with when it first arrived', () => {
    let marks: ReadonlyMap<string, number> = new Map();
    marks = withMark(marks, 'a', 1);
    expect(withMark(marks, 'a', 2)).toBe(marks);
    for (let i = 0; i < LIVE_MARK_LIMIT + 5; i += 1) marks = withMark(marks, `k${i}`, 10 + i);
    expect(marks.size).toBe(LIVE_MARK_LIMIT);
    expect(marks.has('a')).toBe(false);
    expect(marks.get(`k${LIVE_MARK_LIMIT + 4}`)).toBe(LIVE_MARK_LIMIT + 14);
  });

  const alarms = [
    { code: 'AL2026112800003', title: '浊度过高' },
    { code: 'AL2026112800002', title: '压力过低' },
    { code: 'AL2026112800001', title: '烟雾报警' },
  ];
  const page = (liveMark?: unknown) => ({
    schemaVersion: 1,
    kind: 'list',
    title: '告警记录',
    operation: 'alarm.record.page',
    rowKey: 'code',
    ...(liveMark ? { liveMark } : {}),
    columns: [
      { field: 'code', title: '告警编号' },
      { field: 'title', title: '告警标题' },
    ],
  });

  it('a list with liveMark marks 新 the rows raised while it is open, a word and a fading highlight, and no other row', async () => {
    const live = fakeFeed();
    renderWith(<PageRenderer view="fixture/alarms" schema={page(mark)} />, fakeServices({ data: fakeData(alarms), live }));
    const row = async (code: string) => (await screen.findByText(code)).closest('tr') as HTMLElement;
    expect(await row('AL2026112800002')).toBeInTheDocument();
    expect(screen.queryByText(LIVE_MARK_TEXT)).toBeNull();
    await waitFor(() => expect(live.listeners).toBe(1));

    live.send('alarm.raised', { alarmCode: 'AL2026112800002', deviceCode: 'SDNB01000397' });
    live.send('alarm.recovered', { alarmCode: 'AL2026112800001' });
    const marked = await row('AL2026112800002');
    expect(within(marked).getByText('新')).toHaveAttribute('title', '页面打开后实时到达');
    expect(marked).toHaveClass('live-new-row');
    expect(marked.dataset.liveNew).toBe('true');
    expect(marked.style.getPropertyValue('--live-mark-delay')).toMatch(/^-\d+ms$/);
    for (const code of ['AL2026112800003', 'AL2026112800001']) {
      const other = await row(code);
      expect(within(other).queryByText('新')).toBeNull();
      expect(other).not.toHaveClass('live-new-row');
    }
    expect(screen.getAllByTestId('live-mark')).toHaveLength(1);
  });

  it('a list without liveMark listens to nothing', async () => {
    const live = fakeFeed();
    renderWith(<PageRenderer view="fixture/plain" schema={page()} />, fakeServices({ data: fakeData(alarms), live }));
    expect(await screen.findByText('AL2026112800002')).toBeInTheDocument();
    expect(live.listeners).toBe(0);
  });
});

describe('a section that loads again on live events', () => {
  it('concerns only events of its kinds whose payload holds the values it matches', () => {
    const live = { events: ['alarm.raised' as const, 'device.online' as const] };
    const notice = (kind: string, payload: Record<string, unknown>): LiveNotice => ({ id: '1', kind, payload, at: '' });
    expect(concerns(live, { deviceCode: 'D1' }, notice('alarm.raised', { deviceCode: 'D1', alarmCode: 'A' }))).toBe(true);
    expect(concerns(live, { deviceCode: 'D1' }, notice('alarm.raised', { deviceCode: 'D2' }))).toBe(false);
    expect(concerns(live, { deviceCode: 'D1' }, notice('device.offline', { deviceCode: 'D1' }))).toBe(false);
    // A value the page does not know yet matches nothing.
    expect(concerns(live, { deviceCode: '' }, notice('alarm.raised', { deviceCode: '' }))).toBe(false);
    expect(concerns(live, {}, notice('device.online', { deviceCode: 'D9' }))).toBe(true);
  });

  it('runs at once, then at most once a pause however many ask meanwhile', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const ask = throttled(run, 3000);
    ask();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    ask();
    ask();
    vi.advanceTimersByTime(1500);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(500);
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(10_000);
    expect(run).toHaveBeenCalledTimes(2);
    ask();
    expect(run).toHaveBeenCalledTimes(3);
    ask();
    ask.cancel();
    vi.advanceTimersByTime(10_000);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('while the range runs up to now, also loads again on the clock, only while shown', () => {
    vi.useFakeTimers();
    const reload = vi.fn();
    let shown = true;
    const live = { events: ['alarm.raised' as const], everySeconds: 10 };
    const { rerender, unmount } = renderHook(({ recent }) => useLiveRefresh(live, {}, undefined, reload, recent, () => shown), { initialProps: { recent: true } });
    vi.advanceTimersByTime(10_000);
    expect(reload).toHaveBeenCalledTimes(1);
    // A page tab kept open behind another is not drawn.
    shown = false;
    vi.advanceTimersByTime(20_000);
    expect(reload).toHaveBeenCalledTimes(1);
    shown = true;
    vi.advanceTimersByTime(10_000);
    expect(reload).toHaveBeenCalledTimes(2);
    // A range of one's own ends where it ends.
    rerender({ recent: false });
    vi.advanceTimersByTime(60_000);
    expect(reload).toHaveBeenCalledTimes(2);
    unmount();
  });
});

describe('a series section (设备详情 → 数据趋势)', () => {
  const turbidity = {
    key: 'turbidity',
    title: '浊度',
    unit: 'NTU',
    points: [
      { time: '2026-11-28T02:10:00.000Z', avg: 1.5, min: 1, max: 2, count: 2 },
      { time: '2026-11-28T02:40:00.000Z', avg: 3, min: 3, max: 3, count: 1 },
    ],
    latest: { time: '2026-11-28T02:40:10.000Z', value: 3 },
  };

  it('draws a metric’s bucket means on a time axis, names it with its unit and its newest reading', () => {
    expect(seriesTitle(turbidity)).toBe('浊度（NTU）');
    expect(seriesTitle({ title: 'pH', unit: '' })).toBe('pH');
    const option = seriesOption(turbidity, { start: '2026-11-28T02:00:00.000Z', end: '2026-11-28T03:00:00.000Z' }) as {
      xAxis: { type: string; min: string };
      series: Array<{ type: string; data: Array<{ value: [string, number]; min: number }> }>;
      tooltip: { formatter: (items: unknown[]) => string };
    };
    expect(option.xAxis).toMatchObject({ type: 'time', min: '2026-11-28T02:00:00.000Z' });
    expect(option.series[0].data[0]).toEqual({ value: ['2026-11-28T02:10:00.000Z', 1.5], min: 1, max: 2, count: 2 });
    expect(option.tooltip.formatter([{ data: option.series[0].data[0] }])).toBe('2026-11-28T02:10:00.000Z<br/>平均 1.5 NTU<br/>最小 1 NTU<br/>最大 2 NTU<br/>读数 2 条');
    expect(seriesLabel(turbidity)).toBe('浊度（NTU）趋势图：2 个数据点，最新 3 NTU（2026-11-28T02:40:10.000Z）');
  });

  it('a range of one’s own: start and end must differ, and at most the days the section allows', () => {
    const start = dayjs('2026-11-01 00:00:00');
    expect(customRangeProblem(start, start, 31, NAMED_VALIDATORS)).toBe('请输入不同的时间');
    expect(customRangeProblem(start, start.add(31, 'day').add(1, 'second'), 31, NAMED_VALIDATORS)).toBe('时间范围不能超过31天');
    expect(customRangeProblem(start, start.add(8, 'day'), 7, NAMED_VALIDATORS)).toBe('时间范围不能超过7天');
    expect(customRangeProblem(start, start.add(31, 'day'), 31, NAMED_VALIDATORS)).toBeUndefined();
  });

  const detail = {
    schemaVersion: 1,
    kind: 'detail',
    title: '设备详情',
    load: { operation: 'device.detail', param: { code: '{{params.code}}' } },
    sections: [
      { title: '基本信息', type: 'descriptions', fields: [{ field: 'code', title: '设备编码' }] },
      {
        title: '数据趋势',
        type: 'series',
        operation: 'device.telemetry.series',
        param: { code: '{{params.code}}' },
        live: { events: ['alarm.raised', 'device.online'], match: { deviceCode: '{{params.code}}' } },
      },
    ],
  };

  it('asks for the last hour first, the range picked next, shows each metric and an empty range as such, and loads again on its device’s events', async () => {
    const data = fakeData();
    let answer: { series: unknown[] } = { series: [turbidity] };
    data.call = vi.fn(async (operation: string) => (operation === 'device.detail' ? { code: 'SDNB01000397' } : { startTime: '', endTime: '', bucketSeconds: 30, ...answer }) as never);
    const live = fakeFeed();
    renderWith(<PageRenderer view="fixture/device" schema={detail} params={{ code: 'SDNB01000397' }} />, fakeServices({ data, live }));
    const chart = await screen.findByTestId('series-chart');
    expect(chart).toHaveAttribute('data-metric', 'turbidity');
    expect(within(chart).getByText('浊度（NTU）')).toBeInTheDocument();
    expect(within(chart).getByRole('img')).toHaveAccessibleName(/^浊度（NTU）趋势图：2 个数据点，最新 3 NTU/);
    const seriesCalls = () => vi.mocked(data.call).mock.calls.filter(([operation]) => operation === 'device.telemetry.series').map(([, param]) => param);
    expect(seriesCalls()).toEqual([{ code: 'SDNB01000397', lastMinutes: 60 }]);

    // Another device's alarm, or an event of a kind it does not wait for, loads nothing.
    live.send('alarm.raised', { deviceCode: 'SDNB01000398', alarmCode: 'A1' });
    live.send('device.offline', { deviceCode: 'SDNB01000397' });
    // Its own device's: loaded again, and a burst of them once more at most until the pause is over.
    answer = { series: [{ ...turbidity, latest: { time: '2026-11-28T02:59:00.000Z', value: 88.5 } }] };
    live.send('alarm.raised', { deviceCode: 'SDNB01000397', alarmCode: 'A2' });
    live.send('device.online', { deviceCode: 'SDNB01000397' });
    await waitFor(() => expect(within(screen.getByTestId('series-chart')).getByTestId('series-latest')).toHaveTextContent('最新 88.5 NTU'));
    expect(seriesCalls()).toHaveLength(2);
    await waitFor(() => expect(seriesCalls()).toHaveLength(3), { timeout: LIVE_RELOAD_MS + 2000 });

    answer = { series: [] };
    fireEvent.click(screen.getByText('近24小时'));
    expect(await screen.findByText('所选时间范围内暂无数据')).toBeInTheDocument();
    expect(seriesCalls().at(-1)).toEqual({ code: 'SDNB01000397', lastMinutes: 1440 });
    fireEvent.click(screen.getByText('自定义'));
    await waitFor(() => expect(seriesCalls().at(-1)).toMatchObject({ code: 'SDNB01000397', startTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) }));
    expect(screen.getByLabelText('时间范围')).toBeInTheDocument();
  });
});
