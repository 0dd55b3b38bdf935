// One business time zone (issue 17): the platform's days and months are those of the configured
// zone (TIME_ZONE, default Asia/Shanghai), whatever zone the server process or the database runs
// in. First the module every JavaScript day computation goes through, then the statistics and
// dashboards, asked once per process zone and compared.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE } from '../../server/db/database';
import {
  addDays,
  businessDay,
  businessDaysBetween,
  businessDayStamp,
  businessMinute,
  businessMonth,
  businessSecond,
  instantOfWallClock,
  parseBusinessTime,
  startOfBusinessDay,
  startOfBusinessYear,
  startOfDay,
  wallClockOf,
  weekdayOf,
  zoneOffsetMs,
} from '../../server/domain/businessTime';
import { documentCode } from '../../server/domain/cards';
import { workCode } from '../../server/domain/workOrders';
import { spreadsheet } from '../../server/http/spreadsheet';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';

const SHANGHAI = 'Asia/Shanghai';
const LOS_ANGELES = 'America/Los_Angeles';
const at = (iso: string) => new Date(iso);
/** The process zone the project runs this file in (server-pg sets one), put back after each test. */
const PROJECT_TZ = process.env.TZ;

function restoreProcessZone(): void {
  if (PROJECT_TZ === undefined) delete process.env.TZ;
  else process.env.TZ = PROJECT_TZ;
}

/** Runs `work` with the process in `zone` (Node reads TZ again when it is assigned), then puts it back. */
async function inProcessZone<T>(zone: string, work: () => Promise<T>): Promise<T> {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

describe('the business time module', () => {
  afterEach(restoreProcessZone);

  it('names the business day of an instant in the zone, not in UTC', () => {
    expect(businessDay(at('2026-01-01T17:30:00Z'), SHANGHAI)).toBe('2026-01-02');
    expect(businessDay(at('2026-01-01T15:59:59.999Z'), SHANGHAI)).toBe('2026-01-01');
    expect(businessDay(at('2026-01-01T16:00:00Z'), SHANGHAI)).toBe('2026-01-02');
    expect(businessDay(at('2026-01-01T17:30:00Z'), 'UTC')).toBe('2026-01-01');
    expect(businessDay(at('2026-01-02T07:59:00Z'), LOS_ANGELES)).toBe('2026-01-01');
    expect(businessDayStamp(at('2026-01-01T17:30:00Z'), SHANGHAI)).toBe('20260102');
  });

  it('puts month and year boundaries at the zone\'s midnight', () => {
    expect(businessMonth(at('2026-01-31T15:59:59.999Z'), SHANGHAI)).toBe('2026-01');
    expect(businessMonth(at('2026-01-31T16:00:00Z'), SHANGHAI)).toBe('2026-02');
    expect(businessMonth(at('2025-12-31T16:00:00Z'), SHANGHAI)).toBe('2026-01');
    expect(businessMonth(at('2026-03-01T07:59:59Z'), LOS_ANGELES)).toBe('2026-02');
    expect(startOfBusinessYear(2026, SHANGHAI).toISOString()).toBe('2025-12-31T16:00:00.000Z');
    expect(startOfBusinessYear(2026, 'UTC').toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(wallClockOf(at('2025-12-31T16:00:00Z'), SHANGHAI)).toMatchObject({ year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0, weekday: 4 });
  });

  it('answers the instant a business day starts, across daylight-saving changes too', () => {
    expect(startOfBusinessDay(at('2026-01-01T17:30:00Z'), SHANGHAI).toISOString()).toBe('2026-01-01T16:00:00.000Z');
    expect(startOfBusinessDay(at('2026-01-01T15:30:00Z'), SHANGHAI).toISOString()).toBe('2025-12-31T16:00:00.000Z');
    expect(startOfDay('2026-03-08', LOS_ANGELES).toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(startOfDay('2026-03-09', LOS_ANGELES).toISOString()).toBe('2026-03-09T07:00:00.000Z');
    expect(startOfDay('2026-11-01', LOS_ANGELES).toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(startOfDay('2026-11-02', LOS_ANGELES).toISOString()).toBe('2026-11-02T08:00:00.000Z');
    expect(zoneOffsetMs(at('2026-07-01T00:00:00Z'), SHANGHAI)).toBe(8 * 3_600_000);
    expect(zoneOffsetMs(at('2026-07-01T00:00:00Z'), LOS_ANGELES)).toBe(-7 * 3_600_000);
    expect(instantOfWallClock(SHANGHAI, 2026, 11, 24, 8, 30).toISOString()).toBe('2026-11-24T00:30:00.000Z');
  });

  it('counts calendar days without a zone', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(weekdayOf('2026-11-24')).toBe(2);
    expect(businessDaysBetween(at('2026-01-30T20:00:00Z'), at('2026-02-02T01:00:00Z'), SHANGHAI)).toEqual(['2026-01-31', '2026-02-01', '2026-02-02']);
    expect(businessDaysBetween(at('2026-03-07T12:00:00Z'), at('2026-03-10T12:00:00Z'), LOS_ANGELES)).toEqual(['2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']);
  });

  it('prints times on the zone\'s clock', () => {
    expect(businessMinute(at('2026-03-18T01:30:45Z'), SHANGHAI)).toBe('2026-03-18 09:30');
    expect(businessSecond(at('2026-03-18T16:05:09Z'), SHANGHAI)).toBe('2026-03-19 00:05:09');
  });

  it('reads a time without an offset on the zone\'s clock, one with an offset as written', () => {
    expect(parseBusinessTime('2026-01-02 00:00:00', SHANGHAI).toISOString()).toBe('2026-01-01T16:00:00.000Z');
    expect(parseBusinessTime('2026-01-02', SHANGHAI).toISOString()).toBe('2026-01-01T16:00:00.000Z');
    expect(parseBusinessTime('2026-01-02T09:30', SHANGHAI).toISOString()).toBe('2026-01-02T01:30:00.000Z');
    expect(parseBusinessTime('2026-01-02 09:30:15.5', SHANGHAI).toISOString()).toBe('2026-01-02T01:30:15.500Z');
    expect(parseBusinessTime('2026-01-02T08:00:00Z', SHANGHAI).toISOString()).toBe('2026-01-02T08:00:00.000Z');
    expect(parseBusinessTime('2026-01-02T08:00:00.123Z', SHANGHAI).toISOString()).toBe('2026-01-02T08:00:00.123Z');
    expect(parseBusinessTime('2026-01-02T08:00:00+0800', SHANGHAI).toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect(parseBusinessTime('2026-01-02T08:00:00-05:00', SHANGHAI).toISOString()).toBe('2026-01-02T13:00:00.000Z');
    expect(parseBusinessTime('2026-07-01 00:00:00', LOS_ANGELES).toISOString()).toBe('2026-07-01T07:00:00.000Z');
    for (const bad of ['2026-02-31', '2026-13-01', '2026-01-01 24:00:00', '2026-01-01 10:60', 'yesterday', '', '2026-01-01T10:00+2500']) {
      expect(Number.isNaN(parseBusinessTime(bad, SHANGHAI).getTime()), bad).toBe(true);
    }
  });

  it('gives the same answers whatever the process zone is', async () => {
    const answers = () => [
      businessDay(at('2026-01-01T17:30:00Z'), SHANGHAI),
      startOfBusinessDay(at('2026-06-30T20:00:00Z'), SHANGHAI).toISOString(),
      parseBusinessTime('2026-06-01 00:00:00', SHANGHAI).toISOString(),
      businessMinute(at('2026-06-01T00:00:00Z'), SHANGHAI),
      businessDaysBetween(at('2026-02-27T00:00:00Z'), at('2026-03-02T00:00:00Z'), SHANGHAI).join(','),
    ];
    const inUtc = await inProcessZone('UTC', async () => answers());
    for (const zone of [LOS_ANGELES, 'Pacific/Kiritimati', 'Asia/Kolkata']) {
      expect(await inProcessZone(zone, async () => answers()), zone).toEqual(inUtc);
    }
    expect(inUtc).toEqual(['2026-01-02', '2026-06-30T16:00:00.000Z', '2026-05-31T16:00:00.000Z', '2026-06-01 08:00', '2026-02-27,2026-02-28,2026-03-01,2026-03-02']);
  });

  it('dates codes and export names by the business day', async () => {
    const evening = at('2026-11-23T17:00:00Z'); // 01:00 on the 24th in China
    expect(workCode('WX', 42, evening, SHANGHAI)).toBe('WX2026112400042');
    expect(documentCode('CO', evening, 42, SHANGHAI)).toBe('CO2026112400042');
    expect(documentCode('CO', evening, 42, 'UTC')).toBe('CO2026112300042');
    const file = await inProcessZone(LOS_ANGELES, () => spreadsheet('设备列表', [{ title: '序号', value: (row: number) => row }], [1], evening, SHANGHAI));
    expect(file.fileName).toBe('设备列表-20261124.xlsx');
  });
});

// ── the server's statistics, whatever the process zone ─────────────────────────────────────────

interface Tokens {
  admin: string;
  operator: string;
  tadmin: string;
}

let server: TestServer;
let tokens: Tokens;
/** The server's clock stands still, so that every run asks at the same instant. */
const now = new Date();
const today = businessDay(now, DEFAULT_TIME_ZONE);

beforeAll(async () => {
  server = await startServer({ config: { now: () => now } });
  const [admin, operator, tadmin] = await Promise.all([server.login('admin', ADMIN_PASSWORD), server.login('operator'), server.login('tadmin')]);
  tokens = { admin, operator, tadmin };
});
afterAll(async () => {
  restoreProcessZone();
  await server.close();
});

async function ok<T>(name: string, param: unknown, token: string): Promise<T> {
  const reply = await server.call<T>(name, param, { token });
  expect(reply.code, `${name}: ${reply.message}`).toBe('200');
  return reply.data as T;
}

async function pageRecords<T>(name: string, param: unknown, token: string): Promise<T[]> {
  const { body } = await server.post(catalogue[name].path, { pageParam: { pageNumber: 1, pageSize: 100 }, param, sortParamList: [] }, { token });
  expect(body.code, `${name}: ${body.message}`).toBe('200');
  return (body.data as { records: T[] }).records;
}

/** Ten business days up to today, as the pickers send them (no offset: the business zone's clock). */
const pickerRange = { startTime: `${addDays(today, -10)} 00:00:00`, endTime: `${today} 23:59:59` };

/** Every day- and month-bucketed answer of the dashboards and statistics. */
async function statistics(): Promise<Record<string, unknown>> {
  const { admin, operator, tadmin } = tokens;
  return {
    overview: await ok('dashboard.overview', {}, tadmin),
    alarmTrend: await ok('dashboard.alarmTrend', { days: 30 }, tadmin),
    alarmTrendRanged: await ok('dashboard.alarmTrend', pickerRange, tadmin),
    deviceTrend: await ok('dashboard.deviceTrend', { days: 14 }, tadmin),
    situation: await ok('device.dashboard.historicalSituation', pickerRange, tadmin),
    alarmStatistics: await ok('alarm.statistics', pickerRange, tadmin),
    loginDashboard: await ok('loginLog.statistics.dashboard', pickerRange, tadmin),
    loginDynamic: await ok('loginLog.statistics.dynamic', pickerRange, tadmin),
    loginDynamicPlatform: await ok('loginLog.statistics.dynamic', {}, admin),
    loginActivity: await ok('loginLog.statistics.activity', pickerRange, tadmin),
    loginYear: await ok('loginLog.statistics.year', {}, tadmin),
    loginYearOfRange: await ok('loginLog.statistics.year', { endTime: `${today} 00:30:00` }, tadmin),
    flowMonitor: await ok('card.dashboard.flowMonitor', {}, tadmin),
    revenue: await ok('card.dashboard.revenueStatistics', {}, tadmin),
    revenuePlatform: await ok('card.dashboard.revenueStatistics', {}, admin),
    deliveryBar: await ok('card.dashboard.deliveryBar', {}, admin),
    purchaseBar: await ok('card.dashboard.purchaseBar', {}, operator),
    repairByMonth: await pageRecords('repair.collect.page', { dimension: 'month' }, tadmin),
    patrolDaily: await ok('patrol.board.statistics', { metric: 'daily', ...pickerRange }, tadmin),
    patrolSummary: await ok('patrol.board.statistics', { metric: 'summary', ...pickerRange }, tadmin),
    brandDaily: await ok('brand.statistics.overview', { metric: 'daily', ...pickerRange }, tadmin),
  };
}

describe('statistics and dashboards in the business zone', () => {
  it('answer the same whatever zone the server process runs in', async () => {
    const inUtc = await inProcessZone('UTC', statistics);
    for (const zone of [LOS_ANGELES, 'Pacific/Kiritimati']) {
      const answers = await inProcessZone(zone, async () => {
        // Node follows the assignment: the process really is in that zone now.
        expect(new Date(Date.UTC(2026, 0, 1, 12)).getHours()).toBe(zone === LOS_ANGELES ? 4 : 2);
        return statistics();
      });
      expect(answers, zone).toEqual(inUtc);
    }
  });

  it('count 今日告警 from the business day\'s midnight', async () => {
    const overview = await ok<{ alarmToday: number }>('dashboard.overview', {}, tokens.tadmin);
    const [row] = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM alarm_record WHERE tenant_code = 'T0001' AND source = 'device' AND triggered_at >= $1", [startOfBusinessDay(now, DEFAULT_TIME_ZONE)]);
    expect(overview.alarmToday).toBe(row.count);
    const trend = await ok<Array<{ day: string; total: number }>>('dashboard.alarmTrend', { days: 7 }, tokens.tadmin);
    expect(trend.map((point) => point.day)).toEqual(Array.from({ length: 7 }, (_, index) => addDays(today, index - 6)));
    expect(trend[6].total).toBe(row.count);
    // A picked range of whole days has exactly those days.
    const ranged = await ok<Array<{ day: string }>>('dashboard.alarmTrend', { startTime: '2026-09-01 00:00:00', endTime: '2026-09-30 23:59:59' }, tokens.tadmin);
    expect(ranged.map((point) => point.day)).toEqual(Array.from({ length: 30 }, (_, index) => addDays('2026-09-01', index)));
  });

  it('bucket logins by business day and business month', async () => {
    const orgs = "(SELECT user_id FROM user_organization WHERE organization_code LIKE 'T0001%')";
    const start = startOfDay(addDays(today, -10), DEFAULT_TIME_ZONE);
    const end = new Date(startOfDay(addDays(today, 1), DEFAULT_TIME_ZONE).getTime() - 1000);
    const logins = await server.db.query<{ created_at: Date; user_id: number }>(
      `SELECT created_at, user_id FROM login_log WHERE success AND user_id IN ${orgs} AND created_at BETWEEN $1 AND $2`,
      [start, end],
    );
    const byDay = new Map<string, { loginCount: number; users: Set<number> }>();
    for (const login of logins) {
      const day = businessDay(new Date(login.created_at), DEFAULT_TIME_ZONE);
      const entry = byDay.get(day) ?? { loginCount: 0, users: new Set<number>() };
      entry.loginCount += 1;
      entry.users.add(login.user_id);
      byDay.set(day, entry);
    }
    const expected = [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, entry]) => ({ day, loginCount: entry.loginCount, activeUsers: entry.users.size }));
    expect(expected.length).toBeGreaterThan(3);
    expect(await ok('loginLog.statistics.dynamic', pickerRange, tokens.tadmin)).toEqual(expected);

    const year = wallClockOf(now, DEFAULT_TIME_ZONE).year;
    const ofYear = await server.db.query<{ created_at: Date }>(`SELECT created_at FROM login_log WHERE success AND user_id IN ${orgs} AND created_at >= $1 AND created_at < $2`, [
      startOfBusinessYear(year, DEFAULT_TIME_ZONE),
      startOfBusinessYear(year + 1, DEFAULT_TIME_ZONE),
    ]);
    const months = await ok<Array<{ month: string; loginCount: number }>>('loginLog.statistics.year', {}, tokens.tadmin);
    expect(months.map((month) => month.month)).toEqual(Array.from({ length: 12 }, (_, index) => `${year}-${String(index + 1).padStart(2, '0')}`));
    for (const month of months) {
      expect(month.loginCount, month.month).toBe(ofYear.filter((login) => businessMonth(new Date(login.created_at), DEFAULT_TIME_ZONE) === month.month).length);
    }
  });

  it('end the seeded daily data use yesterday, the seed\'s days being business days', async () => {
    const flow = await ok<Array<{ day: string }>>('card.dashboard.flowMonitor', {}, tokens.tadmin);
    expect(flow[flow.length - 1].day).toBe(addDays(today, -1));
    expect(flow[0].day).toBe(businessDay(new Date(now.getTime() - 30 * 86_400_000), DEFAULT_TIME_ZONE));
  });

  it('list the patrol and work days of a picked range as business days', async () => {
    const days = Array.from({ length: 11 }, (_, index) => addDays(today, index - 10).slice(5));
    const patrol = await ok<Array<{ day: string }>>('patrol.board.statistics', { metric: 'daily', ...pickerRange }, tokens.tadmin);
    expect(patrol.map((point) => point.day)).toEqual(days);
    const work = await ok<Array<{ day: string }>>('brand.statistics.overview', { metric: 'daily', ...pickerRange }, tokens.tadmin);
    expect(work.map((point) => point.day)).toEqual(days);
  });
});
