import type { SqlParam } from '../../db/database';
import { bind } from '../../db/parameters';
import { FAILURE_WINDOW_SECONDS, MAX_FAILED_LOGINS } from '../../security/loginGuard';
import { defineOperation } from '../../core/operation';
import { objectOf, text } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { Conditions, containing } from '../../core/listQuery';
import { RANGE_PROPERTIES, rangeOf, type Range } from './statistics';
import { requireView, workingOrganizations } from '../../core/access';

/**
 * Login users: the accounts of the working organisations as the statistics see them — who
 * signed in within a range and how often (loginUser.list), every account with its last login
 * (loginUser.allList, also the user pickers' source), the roles they hold (loginUser.roleList)
 * and the figures of the login-user board (loginUser.board).
 */

/** The login-user board; the account list also feeds the user filter of the usage records and the user screens. */
export const LOGIN_USER_VIEW = 'statistics/loginUser';
const ACCOUNT_LIST_VIEWS = [LOGIN_USER_VIEW, 'statistics/usageRecord', 'system/user'];

/** The accounts of the working organisations ($1), narrowed by keyword and status. */
function members(scope: string[], filter: { keyword?: string; status?: string }): { sql: string; params: SqlParam[] } {
  const where = new Conditions()
    .add('EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = u.id AND uo.organization_code = ANY($?::text[]))', scope)
    .when(filter.keyword, '(u.login_name ILIKE $? OR u.user_name ILIKE $?)', (keyword) => containing(String(keyword)))
    .when(filter.status, 'u.status = $?', Number);
  return { sql: `SELECT u.id, u.login_name, u.user_name, u.status, u.need_modify_password FROM app_user u WHERE ${where.sql}`, params: where.params };
}

/** The home organisation's name and the first role of a member `m`. */
const PROFILE_COLUMNS = `
  (SELECT o.name FROM user_organization uo JOIN organization o ON o.code = uo.organization_code WHERE uo.user_id = m.id ORDER BY uo.sort, o.sort LIMIT 1) AS organization_name,
  (SELECT r.code FROM user_role ur JOIN role r ON r.code = ur.role_code WHERE ur.user_id = m.id ORDER BY r.sort LIMIT 1) AS role_code,
  (SELECT r.name FROM user_role ur JOIN role r ON r.code = ur.role_code WHERE ur.user_id = m.id ORDER BY r.sort LIMIT 1) AS role_name`;

/** Whether member `m` is signed in at the placeholder `now`: an unrevoked session whose access token has not expired. */
const ONLINE = (now: string) => `EXISTS (SELECT 1 FROM auth_session s WHERE s.user_id = m.id AND s.revoked_at IS NULL AND s.access_expires_at > ${now})`;

interface ProfileRow {
  id: number;
  login_name: string;
  user_name: string;
  status: number;
  organization_name: string | null;
  role_code: string | null;
  role_name: string | null;
}

const profile = (row: ProfileRow) => ({
  userId: row.id,
  loginName: row.login_name,
  userName: row.user_name,
  displayName: `${row.user_name}（${row.login_name}）`,
  status: String(row.status),
  organizationName: row.organization_name ?? '',
  roleCode: row.role_code ?? '',
  roleName: row.role_name ?? '',
});

const rangeWithKeyword = objectOf({ keyword: text(64), ...RANGE_PROPERTIES });

async function rangeAndMembers(context: OperationContext<Range & { keyword?: string }>) {
  await requireView(context, LOGIN_USER_VIEW);
  const [start, end] = rangeOf(context);
  const member = members(await workingOrganizations(context), { keyword: context.param.keyword });
  return { start, end, member };
}

export const loginUserOperations = [
  /** Who signed in within the range (the last 30 days by default): the latest first, at most 100. */
  defineOperation('loginUser.list', {
    paramSchema: rangeWithKeyword,
    handler: async (context) => {
      const { start, end, member } = await rangeAndMembers(context);
      const params: SqlParam[] = [...member.params];
      const [from, to, now] = [bind(params, start), bind(params, end), bind(params, context.now)];
      const rows = await context.db.query<ProfileRow & { logins: number; last: Date; ip: string; online: boolean }>(
        `WITH member AS (${member.sql}),
              logins AS (
                SELECT l.user_id, count(*)::int AS logins, max(l.created_at) AS last, (array_agg(l.ip ORDER BY l.created_at DESC))[1] AS ip
                  FROM login_log l
                 WHERE l.success AND l.created_at BETWEEN ${from} AND ${to} AND l.user_id IN (SELECT id FROM member)
                 GROUP BY l.user_id
              )
         SELECT m.id, m.login_name, m.user_name, m.status, ${PROFILE_COLUMNS}, g.logins, g.last, g.ip, ${ONLINE(now)} AS online
           FROM member m JOIN logins g ON g.user_id = m.id
          ORDER BY g.last DESC, m.id LIMIT 100`,
        params,
      );
      return rows.map((row) => ({
        ...profile(row),
        loginCount: row.logins,
        lastLoginTime: row.last.toISOString(),
        lastLoginIp: row.ip,
        online: row.online,
      }));
    },
  }),

  /** Every account of the working organisations with its last successful login (or ''), by login name; at most 1000. */
  defineOperation('loginUser.allList', {
    paramSchema: objectOf({ keyword: text(64), status: { type: 'string', enum: ['0', '1'] } }),
    handler: async (context) => {
      await requireView(context, ...ACCOUNT_LIST_VIEWS);
      const member = members(await workingOrganizations(context), context.param);
      const rows = await context.db.query<ProfileRow & { last: Date | null }>(
        `WITH member AS (${member.sql})
         SELECT m.id, m.login_name, m.user_name, m.status, ${PROFILE_COLUMNS},
                (SELECT max(l.created_at) FROM login_log l WHERE l.user_id = m.id AND l.success) AS last
           FROM member m ORDER BY m.login_name LIMIT 1000`,
        member.params,
      );
      return rows.map((row) => ({ ...profile(row), lastLoginTime: row.last ? row.last.toISOString() : '' }));
    },
  }),

  /** The roles the accounts hold: how many accounts each, and how many of them signed in within the range. */
  defineOperation('loginUser.roleList', {
    paramSchema: objectOf(RANGE_PROPERTIES),
    handler: async (context) => {
      const { start, end, member } = await rangeAndMembers(context);
      const params: SqlParam[] = [...member.params];
      const [from, to] = [bind(params, start), bind(params, end)];
      const rows = await context.db.query<{ code: string; name: string; users: number; active: number }>(
        `WITH member AS (${member.sql})
         SELECT r.code, r.name, count(DISTINCT ur.user_id)::int AS users,
                count(DISTINCT ur.user_id) FILTER (WHERE EXISTS (
                  SELECT 1 FROM login_log l WHERE l.user_id = ur.user_id AND l.success AND l.created_at BETWEEN ${from} AND ${to}
                ))::int AS active
           FROM user_role ur JOIN role r ON r.code = ur.role_code
          WHERE ur.user_id IN (SELECT id FROM member)
          GROUP BY r.code, r.name, r.sort ORDER BY r.sort, r.code`,
        params,
      );
      return rows.map((row) => ({ roleCode: row.code, roleName: row.name, userCount: row.users, activeUserCount: row.active }));
    },
  }),

  /**
   * The login-user board: accounts (enabled, disabled), online now, signed in within the range,
   * never signed in, locked out now, and waiting to change a temporary password.
   */
  defineOperation('loginUser.board', {
    paramSchema: objectOf(RANGE_PROPERTIES),
    handler: async (context) => {
      const { start, end, member } = await rangeAndMembers(context);
      const lockedSince = new Date(context.now.getTime() - FAILURE_WINDOW_SECONDS * 1000);
      const params: SqlParam[] = [...member.params];
      const [from, to, now, since, maxFailures] = [start, end, context.now, lockedSince, MAX_FAILED_LOGINS].map((value) => bind(params, value));
      const [row] = await context.db.query<Record<'users' | 'enabled' | 'disabled' | 'online' | 'active' | 'never' | 'locked' | 'pending', number>>(
        `WITH member AS (${member.sql})
         SELECT count(*)::int AS users,
                count(*) FILTER (WHERE m.status = 1)::int AS enabled,
                count(*) FILTER (WHERE m.status = 0)::int AS disabled,
                count(*) FILTER (WHERE m.status = 1 AND ${ONLINE(now)})::int AS online,
                count(*) FILTER (WHERE EXISTS (SELECT 1 FROM login_log l WHERE l.user_id = m.id AND l.success AND l.created_at BETWEEN ${from} AND ${to}))::int AS active,
                count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM login_log l WHERE l.user_id = m.id AND l.success))::int AS never,
                -- Locked from some address now (login failures are counted per login name and address).
                count(*) FILTER (WHERE EXISTS (SELECT 1 FROM login_failure f WHERE f.login_name = m.login_name AND f.failures >= ${maxFailures} AND f.last_failed_at > ${since}))::int AS locked,
                count(*) FILTER (WHERE m.need_modify_password)::int AS pending
           FROM member m`,
        params,
      );
      return {
        userCount: row.users,
        enabledCount: row.enabled,
        disabledCount: row.disabled,
        onlineCount: row.online,
        activeCount: row.active,
        activeRate: row.users ? Math.round((row.active / row.users) * 1000) / 10 : 0,
        neverLoggedInCount: row.never,
        lockedCount: row.locked,
        pendingPasswordCount: row.pending,
      };
    },
  }),
];
