// 设备详情's 数据趋势 (issue 22): device.telemetry.series answers each metric of a device's readings
// as time buckets (mean, least, greatest, how many) within a bounded number of points, over at most
// 31 days, only for a device within the caller's organisations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zoneOffsetMs } from '../../server/domain/businessTime';
import { bucketSecondsFor, SERIES_RANGE_MESSAGE, type TelemetrySeries } from '../../server/operations/devices/telemetrySeries';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let tadmin: string;
let badmin: string;
/** A device of T0001 without any reading: the test writes its history. */
let device: { id: number; code: string };
/** The first reading of the test's history: three hours before the hour the test started in. */
let t0: number;

const HOUR = 3_600_000;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin] = await Promise.all([server.login('tadmin'), server.login('badmin')]);
  [device] = await server.db.query<{ id: number; code: string }>(
    `SELECT d.id, d.code FROM device d
      WHERE d.tenant_code = 'T0001' AND d.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM device_telemetry t WHERE t.device_id = d.id)
      ORDER BY d.code LIMIT 1`,
  );
  t0 = Math.floor(server.now().getTime() / HOUR) * HOUR - 3 * HOUR;
  // Two hours of readings every 10 s: the level counts up, the turbidity cycles 0-9, the
  // temperature comes with every other reading, the signal never, and a text reading is no number.
  await server.db.query(
    `INSERT INTO device_telemetry (device_id, reported_at, metrics, battery_level, signal_strength, temperature)
     SELECT $1, $2::timestamptz + make_interval(secs => i * 10), jsonb_build_object('level', i, 'turbidity', i % 10, 'note', 'ok'), 50, NULL,
            CASE WHEN i % 2 = 0 THEN 20.5 END
       FROM generate_series(0, 719) AS i`,
    [device.id, new Date(t0)],
  );
});
afterAll(() => server.close());

const series = (param: Record<string, unknown>, token = tadmin) => server.call<TelemetrySeries>('device.telemetry.series', { code: device.code, ...param }, { token });
const iso = (ms: number) => new Date(ms).toISOString();

describe('device.telemetry.series', () => {
  it('buckets each metric of a range: mean, least, greatest and count, the platform’s titles and units', async () => {
    const answer = await series({ startTime: iso(t0), endTime: iso(t0 + 2 * HOUR) });
    expect(answer.code, answer.message).toBe('200');
    const data = answer.data!;
    // 2 hours within 240 points: minutes (30 s would touch 241 buckets).
    expect(data.bucketSeconds).toBe(60);
    expect(data).toMatchObject({ deviceCode: device.code, startTime: iso(t0), endTime: iso(t0 + 2 * HOUR) });
    // The device's own metrics first (the platform's order: 液位 before 浊度, unknown ones by name),
    // then the readings every device has; a reading never reported is no series, text is no number.
    expect(data.series.map((s) => [s.key, s.title, s.unit])).toEqual([
      ['level', '液位', 'm'],
      ['turbidity', '浊度', 'NTU'],
      ['temperature', '设备温度', '℃'],
      ['batteryLevel', '电量', '%'],
    ]);
    const level = data.series[0];
    expect(level.points).toHaveLength(120);
    expect(level.points[0]).toEqual({ time: iso(t0), avg: 2.5, min: 0, max: 5, count: 6 });
    expect(level.points[119]).toEqual({ time: iso(t0 + 119 * 60_000), avg: 716.5, min: 714, max: 719, count: 6 });
    expect(level.latest).toEqual({ time: iso(t0 + 719 * 10_000), value: 719 });
    const turbidity = data.series[1];
    expect(turbidity.points[0]).toEqual({ time: iso(t0), avg: 2.5, min: 0, max: 5, count: 6 });
    expect(turbidity.points[1]).toEqual({ time: iso(t0 + 60_000), avg: 5.167, min: 0, max: 9, count: 6 });
    // Every other reading has a temperature: three a minute.
    expect(data.series[2].points[0]).toEqual({ time: iso(t0), avg: 20.5, min: 20.5, max: 20.5, count: 3 });
  });

  it('answers at most the points asked for, however many readings', async () => {
    const answer = await series({ startTime: iso(t0), endTime: iso(t0 + 2 * HOUR), points: 20 });
    expect(answer.data!.bucketSeconds).toBe(600);
    const level = answer.data!.series[0];
    expect(level.points).toHaveLength(12);
    expect(level.points[0]).toEqual({ time: iso(t0), avg: 29.5, min: 0, max: 59, count: 60 });
    expect(level.points.reduce((sum, point) => sum + point.count, 0)).toBe(720);
    for (const [span, points] of [
      [60, 20],
      [3600, 240],
      [86_400, 240],
      [7 * 86_400, 240],
      [31 * 86_400, 240],
      [31 * 86_400, 20],
      [12_345, 37],
    ]) {
      const step = bucketSecondsFor(span, points);
      // A range touches at most one bucket more than it spans, wherever the clock's buckets fall.
      expect(Math.ceil(span / step) + 1, `${span} s in ${points} points`).toBeLessThanOrEqual(points);
    }
    expect(bucketSecondsFor(3600, 240)).toBe(30);
    expect(bucketSecondsFor(31 * 86_400, 240)).toBe(14_400);
  });

  it('a day’s bucket begins at the business day’s midnight', async () => {
    const answer = await series({ startTime: iso(t0 - 20 * 24 * HOUR), endTime: iso(t0 + 2 * HOUR), points: 40 });
    expect(answer.data!.bucketSeconds).toBe(86_400);
    const first = Date.parse(answer.data!.series[0].points[0].time);
    const offset = zoneOffsetMs(new Date(t0), 'Asia/Shanghai');
    expect((first + offset) % (24 * HOUR)).toBe(0);
  });

  it('the last N minutes run up to the server’s time', async () => {
    const now = server.now().getTime();
    await server.db.query("INSERT INTO device_telemetry (device_id, reported_at, metrics) VALUES ($1, $2, '{\"level\": 7.25}')", [device.id, new Date(now - 5 * 60_000)]);
    const recent = await series({ lastMinutes: 60 });
    expect(recent.code, recent.message).toBe('200');
    expect(Date.parse(recent.data!.endTime)).toBeGreaterThanOrEqual(now);
    expect(Date.parse(recent.data!.endTime) - Date.parse(recent.data!.startTime)).toBe(HOUR);
    expect(recent.data!.series.map((s) => s.key)).toEqual(['level']);
    expect(recent.data!.series[0].latest.value).toBe(7.25);
    server.advance(3600);
    expect((await series({ lastMinutes: 60 })).data!.series).toEqual([]);
  });

  it('a range is at most 31 days, and either the last minutes or a start and an end', async () => {
    const day = 24 * HOUR;
    expect(await series({ startTime: iso(t0 - 31 * day - 1000), endTime: iso(t0) })).toMatchObject({ code: '400', message: SERIES_RANGE_MESSAGE });
    expect(SERIES_RANGE_MESSAGE).toBe('时间范围不能超过31天');
    expect((await series({ startTime: iso(t0 - 31 * day), endTime: iso(t0) })).code).toBe('200');
    expect(await series({ startTime: iso(t0), endTime: iso(t0) })).toMatchObject({ code: '400', message: '参数错误：endTime（须晚于开始时间）' });
    expect(await series({ startTime: '2026-02-30 00:00:00', endTime: iso(t0) })).toMatchObject({ code: '400', message: '参数错误：startTime（时间不正确）' });
    expect(await series({ startTime: iso(t0) })).toMatchObject({ code: '400', message: '参数错误：endTime（不能为空）' });
    expect(await series({})).toMatchObject({ code: '400', message: '参数错误：startTime（不能为空）' });
    expect(await series({ lastMinutes: 60, endTime: iso(t0) })).toMatchObject({ code: '400', message: '参数错误：lastMinutes（不能与 startTime、endTime 同时使用）' });
    expect((await series({ lastMinutes: 31 * 24 * 60 + 1 })).code).toBe('400');
    expect((await series({ lastMinutes: 60, points: 5000 })).code).toBe('400');
  });

  it('only a device within the caller’s organisations: another tenant’s is not acknowledged', async () => {
    expect(await series({ lastMinutes: 60 }, badmin)).toMatchObject({ code: '404', message: '设备不存在' });
    expect(await series({ lastMinutes: 60, code: 'ZZZZ00000000' })).toMatchObject({ code: '404', message: '设备不存在' });
  });
});
