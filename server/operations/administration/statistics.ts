import type { SqlParam } from '../../db/database';
import { bind } from '../../db/parameters';
import { parseBusinessTime, startOfBusinessYear, wallClockOf } from '../../domain/businessTime';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, schemaOf, text, TIME_PATTERN, type ParamOf } from '../../core/params';
import { loginLogScope } from './loginLog';
import { requireView, workingOrganizations } from '../../core/access';

/** The dashboards' time range: param.startTime / param.endTime, the last 30 days by default. */
export type Range = ParamOf<typeof rangeSchema>;

/** The properties of the time range, for the param schemas of the dashboards' operations. */
const rangeTime = schemaOf<string>({ type: 'string', maxLength: 32, pattern: TIME_PATTERN });
export const RANGE_PROPERTIES = { startTime: rangeTime, endTime: rangeTime };

const rangeSchema = objectOf(RANGE_PROPERTIES);

export const DAY_MS = 86_400_000;

/** A time of the range, read on the business zone's clock when it has no offset ("400" for a day the calendar lacks). */
function timeOf(context: OperationContext<Range>, field: 'startTime' | 'endTime'): Date {
  const time = parseBusinessTime(context.param[field] ?? '', context.config.timeZone);
  if (Number.isNaN(time.getTime())) throw fail.badField(field);
  return time;
}

/** [start, end] of the range (the last 30 days by default). */
export function rangeOf(context: OperationContext<Range>): [Date, Date] {
  const end = context.param.endTime ? timeOf(context, 'endTime') : context.now;
  const start = context.param.startTime ? timeOf(context, 'startTime') : new Date(end.getTime() - 30 * DAY_MS);
  return start <= end ? [start, end] : [end, start];
}

/** Login attempts in scope and range, for the screens that chart them: the WHERE clause and its params. */
async function attempts(context: OperationContext<Range>): Promise<{ sql: string; params: SqlParam[] }> {
  await requireView(context, ...LOGIN_CHART_VIEWS);
  const params: SqlParam[] = [];
  const scope = await loginLogScope(context, params);
  const [start, end] = rangeOf(context);
  return { sql: `${scope} AND l.created_at BETWEEN ${bind(params, start)} AND ${bind(params, end)}`, params };
}

/** The login statistics dashboard (its activity and yearly trend are read only with it). */
export const LOGIN_STATISTICS_VIEW = 'statistics/login';
/**
 * The screens that chart the login log (the statistics dashboard and the usage dashboard): its
 * figures, days, tenants and most active accounts are read only by roles whose menu shows one.
 */
const LOGIN_CHART_VIEWS = [LOGIN_STATISTICS_VIEW, 'dashboards/usage'];

export type ActivityLevel = 'high' | 'medium' | 'low' | 'silent';
export const ACTIVITY_LEVELS: ReadonlyArray<readonly [ActivityLevel, string]> = [
  ['high', '高度活跃'],
  ['medium', '中度活跃'],
  ['low', '低度活跃'],
  ['silent', '未登录'],
];

export const statisticsOperations = [
  defineOperation('loginLog.statistics.dashboard', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      const where = await attempts(context);
      const [row] = await context.db.query<{ total: number; successes: number; failures: number; users: number }>(
        `SELECT count(*)::int AS total,
                count(*) FILTER (WHERE l.success)::int AS successes,
                count(*) FILTER (WHERE NOT l.success)::int AS failures,
                count(DISTINCT l.user_id) FILTER (WHERE l.success)::int AS users
           FROM login_log l WHERE ${where.sql}`,
        where.params,
      );
      return {
        loginCount: row.successes,
        activeUsers: row.users,
        failureCount: row.failures,
        successRate: row.total ? Math.round((row.successes / row.total) * 1000) / 10 : 0,
      };
    },
  }),

  defineOperation('loginLog.statistics.dynamic', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      const where = await attempts(context);
      const rows = await context.db.query<{ day: string; logins: number; users: number }>(
        `SELECT to_char(l.created_at, 'YYYY-MM-DD') AS day, count(*)::int AS logins, count(DISTINCT l.user_id)::int AS users
           FROM login_log l WHERE ${where.sql} AND l.success GROUP BY 1 ORDER BY 1`,
        where.params,
      );
      return rows.map((row) => ({ day: row.day, loginCount: row.logins, activeUsers: row.users }));
    },
  }),

  defineOperation('loginLog.statistics.tenant', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      const where = await attempts(context);
      // A login's tenant is the one its line carries (its user's at sign-in, migration 095); a line
      // without one is platform staff's (the top of the user's organisations) or an unknown account.
      const rows = await context.db.query<{ tenant_name: string; logins: number }>(
        `WITH RECURSIVE counted AS (
           SELECT l.tenant_code, CASE WHEN l.tenant_code IS NULL THEN l.user_id END AS user_id, count(*)::int AS logins
             FROM login_log l WHERE ${where.sql} AND l.success GROUP BY 1, 2
         ), up (user_id, code, parent_code, type, name) AS (
           SELECT uo.user_id, o.code, o.parent_code, o.type, o.name
             FROM user_organization uo JOIN organization o ON o.code = uo.organization_code
            WHERE uo.user_id IN (SELECT user_id FROM counted WHERE user_id IS NOT NULL)
           UNION
           SELECT up.user_id, p.code, p.parent_code, p.type, p.name FROM up JOIN organization p ON p.code = up.parent_code
         ), platform AS (SELECT DISTINCT ON (user_id) user_id, name FROM up WHERE type IN (1, 2) ORDER BY user_id, type DESC)
         SELECT coalesce(t.name, p.name, '未知账号') AS tenant_name, sum(c.logins)::int AS logins
           FROM counted c LEFT JOIN organization t ON t.code = c.tenant_code LEFT JOIN platform p ON p.user_id = c.user_id
          GROUP BY 1 ORDER BY 2 DESC, 1`,
        where.params,
      );
      return rows.map((row) => ({ tenantName: row.tenant_name, loginCount: row.logins }));
    },
  }),

  defineOperation('loginLog.statistics.active', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      const where = await attempts(context);
      const rows = await context.db.query<{ login_name: string; user_name: string | null; logins: number; last: Date }>(
        `SELECT l.login_name, max(u.user_name) AS user_name, count(*)::int AS logins, max(l.created_at) AS last
           FROM login_log l LEFT JOIN app_user u ON u.id = l.user_id
          WHERE ${where.sql} AND l.success GROUP BY l.login_name ORDER BY 3 DESC, 1 LIMIT 10`,
        where.params,
      );
      return rows.map((row) => ({ loginName: row.login_name, userName: row.user_name ?? '', loginCount: row.logins, lastLoginTime: row.last.toISOString() }));
    },
  }),

  defineOperation('loginLog.statistics.queryUsage', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      await requireView(context, ...LOGIN_CHART_VIEWS);
      const [start, end] = rangeOf(context);
      const rows = await context.db.query<{ usage_url: string; visits: number }>(
        `SELECT m.usage_url, count(*)::int AS visits FROM usage_message m
          WHERE m.organization_code = ANY($1::text[]) AND m.created_at BETWEEN $2 AND $3
          GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10`,
        [await workingOrganizations(context), start, end],
      );
      return rows.map((row) => ({ usageUrl: row.usage_url, visits: row.visits }));
    },
  }),

  /**
   * How active the enabled users of the working organisations were in the range, by the share
   * of its days they signed in on: 高度活跃 (half the days or more), 中度活跃 (a fifth or more),
   * 低度活跃 (less) and 未登录 (not once). Always the four levels, in that order.
   */
  defineOperation('loginLog.statistics.activity', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      await requireView(context, LOGIN_STATISTICS_VIEW);
      const [start, end] = rangeOf(context);
      const days = Math.max(1, Math.ceil((end.getTime() - start.getTime()) / DAY_MS));
      const rows = await context.db.query<{ level: ActivityLevel; users: number }>(
        `WITH member AS (
           SELECT u.id FROM app_user u
            WHERE u.status = 1 AND EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = u.id AND uo.organization_code = ANY($1::text[]))
         ), login_days AS (
           SELECT m.id, count(DISTINCT l.created_at::date) AS days
             FROM member m LEFT JOIN login_log l ON l.user_id = m.id AND l.success AND l.created_at BETWEEN $2 AND $3
            GROUP BY m.id
         )
         SELECT CASE WHEN days = 0 THEN 'silent' WHEN days >= $4 * 0.5 THEN 'high' WHEN days >= $4 * 0.2 THEN 'medium' ELSE 'low' END AS level,
                count(*)::int AS users
           FROM login_days GROUP BY 1`,
        [await workingOrganizations(context), start, end, days],
      );
      return ACTIVITY_LEVELS.map(([level, levelName]) => ({ level, levelName, userCount: rows.find((row) => row.level === level)?.users ?? 0 }));
    },
  }),

  /**
   * The logins of one year month by month (business months: the configured zone's, as the database
   * session is): successful logins, the users behind them and failed attempts; twelve rows. The
   * year is param.year, else the business year of the range's end, else of now.
   */
  defineOperation('loginLog.statistics.year', {
    paramSchema: objectOf({ year: schemaOf<number>({ type: 'integer', minimum: 2000, maximum: 2100 }), ...RANGE_PROPERTIES }),
    handler: async (context) => {
      await requireView(context, LOGIN_STATISTICS_VIEW);
      const year = context.param.year ?? wallClockOf(context.param.endTime ? timeOf(context, 'endTime') : context.now, context.config.timeZone).year;
      const params: SqlParam[] = [];
      const scope = await loginLogScope(context, params);
      const [from, to] = [year, year + 1].map((y) => bind(params, startOfBusinessYear(y, context.config.timeZone)));
      const rows = await context.db.query<{ month: number; logins: number; users: number; failures: number }>(
        `SELECT extract(month FROM l.created_at)::int AS month,
                count(*) FILTER (WHERE l.success)::int AS logins,
                count(DISTINCT l.user_id) FILTER (WHERE l.success)::int AS users,
                count(*) FILTER (WHERE NOT l.success)::int AS failures
           FROM login_log l
          WHERE ${scope} AND l.created_at >= ${from} AND l.created_at < ${to}
          GROUP BY 1`,
        params,
      );
      return Array.from({ length: 12 }, (_, index) => {
        const row = rows.find((r) => r.month === index + 1);
        return {
          month: `${year}-${String(index + 1).padStart(2, '0')}`,
          monthName: `${index + 1}月`,
          loginCount: row?.logins ?? 0,
          activeUsers: row?.users ?? 0,
          failureCount: row?.failures ?? 0,
        };
      });
    },
  }),

  defineOperation('usage.message.save', {
    paramSchema: objectOf(
      {
        actionType: text(32, 1),
        activeTime: schemaOf<number>({ type: 'integer', minimum: 0 }),
        extraItem: text(2000),
        pendingTime: schemaOf<number>({ type: 'integer', minimum: 0, maximum: 31 * DAY_MS }),
        platform: enumOf(['web', 'app', 'mini']),
        usageUrl: text(512, 1),
      },
      ['actionType', 'activeTime', 'platform', 'usageUrl'],
    ),
    handler: async (context) => {
      const caller = callerOf(context);
      const { actionType, activeTime, extraItem = '', pendingTime = 0, platform, usageUrl } = context.param;
      await context.db.query(
        `INSERT INTO usage_message (user_id, organization_code, action_type, usage_url, extra_item, active_time, pending_time, platform)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [caller.userId, context.organizationCode ?? caller.organizationCodes[0] ?? null, actionType, usageUrl, extraItem, new Date(activeTime), pendingTime, platform],
      );
      return null;
    },
  }),
];
