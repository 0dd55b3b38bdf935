import type { Queryable, SqlParam } from '../db/database';
import { bind } from '../db/parameters';
import { businessDay, businessDaysBetween } from '../domain/businessTime';
import { scopeCondition, type OrganizationScope } from './scope';

/**
 * The fleet's figures, one definition each and one query behind each (issue 34), below the areas
 * (issue 32): 工作台, 设备看板 (dashboard.overview, its history), 品牌统计 and the big screen read
 * them from here, and each equals what the device list counts under the same filter
 * (tests/server/home-figures.test.ts).
 *
 * - Which devices: the live ones (not in the recycle bin) installed in the request's scope, the
 *   devices device.page lists.
 * - 在线 / 离线 / 未激活: the device's online state now, as the list's 在线状态 filter reads it;
 *   故障: health state faulty; 休眠: sleeping; 低电量: 0 < battery < 20 %, 电池管理's 低电量.
 * - 在线率: online over online + offline, the devices that have connected at all (an inactive one
 *   never has: a batch just imported does not lower it), as a ratio to three decimals.
 * - As of when: now, read from device_tally (migration 092, 128), which the writes to device keep
 *   in their own transactions; a past day is that day's end, from device_state_day.
 *
 * Nothing here counts device rows or the telemetry history: a tenant's figures are a sum over a
 * few hundred tally rows whatever the size of the fleet.
 */

export interface FleetFigures {
  total: number;
  online: number;
  offline: number;
  inactive: number;
  faulty: number;
  sleeping: number;
  lowBattery: number;
  /** Products with at least one live device in scope. */
  products: number;
  /** online / (online + offline), three decimals; 0 without any. */
  onlineRate: number;
}

/** The narrowing of device.page's filter the tally can answer: a product, an organisation's tree. */
export interface FleetFilter {
  productCode?: string;
  /** The organisations an organisation filter stands for (it and everything below it). */
  organizationCodes?: readonly string[];
}

/** 在线率 as a ratio with three decimals: online over the devices that have connected. */
export function onlineRateOf(online: number, offline: number): number {
  const connected = online + offline;
  return connected === 0 ? 0 : Math.round((online / connected) * 1000) / 1000;
}

/** A ratio as a percentage with one decimal (0.832 → 83.2). */
export const percentOf = (ratio: number): number => Math.round(ratio * 1000) / 10;

/** The fleet's figures within `scope`, narrowed by `filter`. */
export async function fleetFigures(db: Queryable, scope: OrganizationScope, filter: FleetFilter = {}): Promise<FleetFigures> {
  const params: SqlParam[] = [];
  const clauses = [scopeCondition(scope, params, 't', { tenant: 'tenant_code' })];
  if (filter.productCode) {
    clauses.push(`t.product_code = ${bind(params, filter.productCode)}`);
  }
  if (filter.organizationCodes) {
    clauses.push(`t.organization_code = ANY(${bind(params, [...filter.organizationCodes])}::text[])`);
  }
  const [row] = await db.query<Omit<FleetFigures, 'onlineRate'>>(
    `SELECT coalesce(sum(t.devices), 0)::int AS total, coalesce(sum(t.online), 0)::int AS online, coalesce(sum(t.offline), 0)::int AS offline,
            coalesce(sum(t.inactive), 0)::int AS inactive, coalesce(sum(t.faulty), 0)::int AS faulty, coalesce(sum(t.sleeping), 0)::int AS sleeping,
            coalesce(sum(t.low_battery), 0)::int AS "lowBattery", count(DISTINCT t.product_code)::int AS products
       FROM device_tally t WHERE ${clauses.join(' AND ')}`,
    params,
  );
  return { ...row, onlineRate: onlineRateOf(row.online, row.offline) };
}

/** The fleet at the end of one business day: null figures for a day before anything was recorded. */
export interface FleetDay {
  day: string;
  devices: number | null;
  online: number | null;
  offline: number | null;
  inactive: number | null;
}

/**
 * The fleet at the end of each business day from `start`'s to `end`'s: each product and
 * organisation's last recorded states on or before the day (device_state_day holds a row for a
 * day its figures moved), summed; today (the business day of `now`) is `today`, the live figures,
 * so that a history ends where the cards above it stand; days after today have none.
 */
export async function fleetHistory(db: Queryable, scope: OrganizationScope, range: [Date, Date], now: Date, timeZone: string, today: FleetFigures): Promise<FleetDay[]> {
  const days = businessDaysBetween(range[0], range[1], timeZone);
  const todayKey = businessDay(now, timeZone);
  const past = days.filter((day) => day < todayKey);
  const recorded = new Map<string, Omit<FleetDay, 'day'>>();
  if (past.length) {
    const params: SqlParam[] = [past];
    const inScope = scopeCondition(scope, params, 's', { tenant: 'tenant_code' });
    const rows = await db.query<{ day: string; keys: number; devices: number; online: number; offline: number; inactive: number }>(
      `WITH days AS (SELECT unnest($1::date[]) AS day),
            keys AS (SELECT DISTINCT s.tenant_code, s.organization_code, s.product_code FROM device_state_day s WHERE ${inScope} AND s.day <= (SELECT max(day) FROM days))
       SELECT to_char(days.day, 'YYYY-MM-DD') AS day, count(x.devices)::int AS keys, coalesce(sum(x.devices), 0)::int AS devices,
              coalesce(sum(x.online), 0)::int AS online, coalesce(sum(x.offline), 0)::int AS offline, coalesce(sum(x.inactive), 0)::int AS inactive
         FROM days CROSS JOIN keys k
         JOIN LATERAL (SELECT s.devices, s.online, s.offline, s.inactive FROM device_state_day s
                        WHERE s.tenant_code = k.tenant_code AND s.organization_code = k.organization_code AND s.product_code = k.product_code AND s.day <= days.day
                        ORDER BY s.day DESC LIMIT 1) x ON true
        GROUP BY days.day`,
      params,
    );
    for (const row of rows) if (row.keys > 0) recorded.set(row.day, { devices: row.devices, online: row.online, offline: row.offline, inactive: row.inactive });
  }
  const none = { devices: null, online: null, offline: null, inactive: null };
  return days.map((day) => {
    if (day === todayKey) return { day, devices: today.total, online: today.online, offline: today.offline, inactive: today.inactive };
    return { day, ...(recorded.get(day) ?? none) };
  });
}

/** Readings stored in a recent window: how many, over how long, and per minute (one decimal). */
export interface ReadingRate {
  readings: number;
  seconds: number;
  perMinute: number;
}

/** The window of the reading rate: the current minute and the four whole minutes before it. */
export const READING_WINDOW_MINUTES = 5;

/**
 * Device readings the platform stored within `scope` from the start of the minute four minutes
 * before `now`'s to `now` (telemetry_minute, migration 129: counted as they are stored, never
 * read back from the telemetry history), and their rate per minute over that window.
 */
export async function readingRate(db: Queryable, scope: OrganizationScope, now: Date): Promise<ReadingRate> {
  const start = new Date(Math.floor(now.getTime() / 60_000) * 60_000 - (READING_WINDOW_MINUTES - 1) * 60_000);
  const params: SqlParam[] = [start];
  const inScope = scopeCondition(scope, params, 'm', { tenant: 'tenant_code' });
  const [row] = await db.query<{ readings: number }>(`SELECT coalesce(sum(m.readings), 0)::int AS readings FROM telemetry_minute m WHERE m.minute >= $1 AND ${inScope}`, params);
  const seconds = Math.max(1, Math.round((now.getTime() - start.getTime()) / 1000));
  return { readings: row.readings, seconds, perMinute: Math.round((row.readings / seconds) * 600) / 10 };
}
