import type { Row } from '../db/bulk';
import { addDays, businessDay, startOfDay, weekdayOf } from '../domain/businessTime';
import type { Random } from './prng';
import { DAY_MS } from './clock';

/** Days of login history and page visits the demo world starts with. */
export const ACTIVITY_DAYS = 90;

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49',
];
const PAGES = ['/dashboard', '/device/all', '/alarm/record', '/repair/order', '/patrol', '/card/internet', '/system/user', '/upgrade/task', '/shopping/list', '/system/login/log'];

/**
 * The login log and usage messages of the last `ACTIVITY_DAYS` business days (of `timeZone`) before
 * `today`: each active user logs in on most working days between 07:00 and 17:00, now and then
 * mistypes the password first, and opens pages.
 */
export function activityTables(
  random: Random,
  users: ReadonlyArray<{ id: number; loginName: string; organizationCode: string }>,
  today: Date,
  timeZone: string,
): { loginLog: Row[]; usage: Row[] } {
  const loginLog: Row[] = [];
  const usage: Row[] = [];
  const first = addDays(businessDay(today, timeZone), -ACTIVITY_DAYS);
  const start = startOfDay(first, timeZone).getTime();
  for (let day = 0; day < ACTIVITY_DAYS; day += 1) {
    const date = addDays(first, day);
    const weekend = weekdayOf(date) % 6 === 0;
    const midnight = startOfDay(date, timeZone).getTime();
    for (const user of users) {
      if (random.next() > (weekend ? 0.15 : 0.7)) continue;
      const at = midnight + random.int(0, 10 * 3600_000) + 7 * 3600_000; // 07:00–17:00 business time
      const ip = `10.${random.int(0, 3)}.${random.int(0, 255)}.${random.int(2, 254)}`;
      const userAgent = random.pick(USER_AGENTS);
      if (random.next() < 0.08) {
        loginLog.push({ login_name: user.loginName, user_id: user.id, method: 'password', success: false, reason: 'password', ip, user_agent: userAgent, created_at: new Date(at - 60_000).toISOString() });
      }
      loginLog.push({ login_name: user.loginName, user_id: user.id, method: random.next() < 0.2 ? 'wechat' : 'password', success: true, reason: '', ip, user_agent: userAgent, created_at: new Date(at).toISOString() });
      let visitAt = at;
      for (let visit = random.int(1, 6); visit > 0; visit -= 1) {
        const pendingTime = random.int(5, 900) * 1000;
        usage.push({
          user_id: user.id,
          organization_code: user.organizationCode,
          action_type: 'didPush',
          usage_url: random.pick(PAGES),
          extra_item: '',
          active_time: new Date(visitAt).toISOString(),
          pending_time: pendingTime,
          platform: 'web',
          created_at: new Date(visitAt).toISOString(),
        });
        visitAt += pendingTime;
      }
    }
  }
  // Attempts on accounts that do not exist (only platform staff see these).
  for (let n = 0; n < 12; n += 1) {
    loginLog.push({ login_name: random.pick(['root', 'test', 'administrator', 'guest']), user_id: null, method: 'password', success: false, reason: 'unknown', ip: `203.0.113.${random.int(1, 254)}`, user_agent: random.pick(USER_AGENTS), created_at: new Date(start + random.int(0, ACTIVITY_DAYS) * DAY_MS).toISOString() });
  }
  loginLog.sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
  return { loginLog, usage };
}
