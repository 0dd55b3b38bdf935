import type { Row } from '../db/bulk';
import { ACTIVITY_DAYS } from './activity';
import { addDays, businessDay, startOfDay, weekdayOf } from '../domain/businessTime';
import type { Random } from './prng';
import { readFixture } from './fixtures/fixture';

/**
 * The statistics' longer memory and the label configuration of the demo world: a year of login
 * history before the recent `ACTIVITY_DAYS` (the yearly trend climbs as the tenants took the
 * platform up), and the labels each tenant has renamed.
 */

/** Days of history in all: a year back from today. */
export const HISTORY_DAYS = 365;

/** statistics.json. */
const { USER_AGENTS, LABELS } = readFixture<{
  USER_AGENTS: readonly string[];
  /** The labels each tenant renamed: tenant, constant key, value, days ago. */
  LABELS: ReadonlyArray<[string, string, string, number]>;
}>('statistics');

export interface HistoryUser {
  id: number;
  loginName: string;
}

/**
 * Logins from a year ago up to the start of the recent activity: fewer at first, more as the
 * months went by; working days mostly, weekends now and then; a mistyped password at times.
 * In time order, to be loaded before the recent log so that ids follow time.
 */
export function loginHistoryRows(random: Random, users: readonly HistoryUser[], today: Date, timeZone: string): Row[] {
  const rows: Row[] = [];
  // Business days (of `timeZone`), like the statistics that count them.
  const first = addDays(businessDay(today, timeZone), -HISTORY_DAYS);
  const older = HISTORY_DAYS - ACTIVITY_DAYS;
  for (let day = 0; day < older; day += 1) {
    const date = addDays(first, day);
    const dayStart = startOfDay(date, timeZone).getTime();
    const weekend = weekdayOf(date) % 6 === 0;
    // Adoption: from a third of today's activity a year ago to nearly all of it.
    const uptake = 0.35 + 0.6 * (day / older);
    for (const user of users) {
      if (random.next() > (weekend ? 0.12 : 0.7) * uptake) continue;
      // 07:00–17:00 business time.
      const at = dayStart + 7 * 3600_000 + random.int(0, 10 * 3600_000);
      const ip = `10.${random.int(0, 3)}.${random.int(0, 255)}.${random.int(2, 254)}`;
      const userAgent = random.pick(USER_AGENTS);
      if (random.next() < 0.06) {
        rows.push({ login_name: user.loginName, user_id: user.id, method: 'password', success: false, reason: 'wrong password', ip, user_agent: userAgent, created_at: new Date(at - 45_000).toISOString() });
      }
      rows.push({ login_name: user.loginName, user_id: user.id, method: random.next() < 0.15 ? 'wechat' : 'password', success: true, reason: '', ip, user_agent: userAgent, created_at: new Date(at).toISOString() });
    }
  }
  rows.sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
  return rows;
}

/** The labels each tenant renamed for its own trade (the rest keep the defaults), by its admin (tenant code → user id). */
export function labelConstantRows(today: Date, editors: Readonly<Record<string, number>>, timeZone: string): Row[] {
  // 10:00 business time some days ago: the same rows all day long.
  const day = businessDay(today, timeZone);
  const at = (daysAgo: number) => new Date(startOfDay(addDays(day, -daysAgo), timeZone).getTime() + 10 * 3600_000).toISOString();
  return LABELS.map(([organization, key, value, daysAgo]) => ({
    organization_code: organization,
    constant_key: key,
    value,
    updated_by: editors[organization] ?? null,
    updated_at: at(daysAgo),
  }));
}
