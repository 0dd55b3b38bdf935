import type { SqlParam } from '../../db/database';
import { parseBusinessTime } from '../../domain/businessTime';
import { fail } from '../../http/envelope';
import { spreadsheet } from '../../http/spreadsheet';
import { defineOperation } from '../../core/operation';
import { objectOf, text, TIME_PATTERN, type ParamSchema } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { Conditions, containing, exportOf, pageOf, type Listing } from '../../core/listQuery';
import { organizationScope, scopeCondition } from '../../core/scope';
import { isPlatformStaff, requireView } from '../../core/access';

interface LoginLogFilter {
  loginName?: string;
  loginResult?: 'success' | 'failure' | 'locked';
  ip?: string;
  timeRange?: [string, string];
}

const filterSchema: Record<string, ParamSchema> = {
  loginName: text(64),
  loginResult: { type: 'string', enum: ['success', 'failure', 'locked'] },
  ip: text(64),
  timeRange: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'string', maxLength: 32, pattern: TIME_PATTERN } },
};

export const RESULT_SQL = `CASE WHEN l.success THEN 'success' WHEN l.reason LIKE '%locked' THEN 'locked' ELSE 'failure' END`;

interface LogRow {
  id: number;
  login_name: string;
  user_name: string | null;
  result: string;
  ip: string;
  user_agent: string;
  created_at: Date;
}

/**
 * Login attempts the caller may see: those of users in the working organisations; platform staff
 * also see attempts on unknown account names.
 */
export async function loginLogScope(context: OperationContext<unknown>, params: SqlParam[]): Promise<string> {
  const scope = await organizationScope(context);
  // At the platform root every line: one without a user, or a user's, and every user belongs to an
  // organisation (written with the user, user.org.set keeps at least one, an organisation with
  // members is not deleted), which lies below the root. No clause: the log's order index serves.
  if (scope.coverage === 'everything' && isPlatformStaff(context)) return 'TRUE';
  if (!isPlatformStaff(context) && scope.tenantCode) {
    // A line carries its user's tenant at sign-in (migration 095): a tenant's whole tree is an
    // index range; below its root, the tenant's lines of users in the organisations.
    params.push(scope.tenantCode);
    const tenant = `l.tenant_code = $${params.length}`;
    if (scope.coverage === 'tenant') return tenant;
    return `${tenant} AND EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = l.user_id AND ${scopeCondition(scope, params, 'uo')})`;
  }
  const inScope = scopeCondition(scope, params, 'uo');
  if (!isPlatformStaff(context)) return `EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = l.user_id AND ${inScope})`;
  // Every attempt but those of users outside the scope (login_log.user_id is null for an unknown
  // name, else an existing user: ON DELETE SET NULL). The same as "no user, or a user in scope",
  // written as an anti-join: the planner estimates its rows close to the truth (the total past
  // 10,000 is its estimate), those of an OR over a subquery at half.
  return `NOT EXISTS (SELECT 1 FROM app_user lu WHERE lu.id = l.user_id AND NOT EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = lu.id AND ${inScope}))`;
}

/**
 * The login log screen. The log holds other users' addresses, browsers and failed attempts: only
 * roles whose menu shows it read it (platform staff and tenant admins in the seed menus), each
 * within loginLogScope ("403" 无权限访问 for anyone else).
 */
export const LOGIN_LOG_VIEW = 'system/loginLog';

async function where(context: OperationContext<LoginLogFilter>): Promise<Conditions> {
  await requireView(context, LOGIN_LOG_VIEW);
  const where = new Conditions();
  where.add(await loginLogScope(context, where.params));
  const filter = context.param;
  where.when(filter.loginName, 'l.login_name ILIKE $?', (name) => containing(String(name)));
  where.when(filter.loginResult, `${RESULT_SQL} = $?`);
  where.when(filter.ip, 'l.ip = $?');
  if (filter.timeRange) {
    const [from, to] = filter.timeRange.map((time) => parseBusinessTime(time, context.config.timeZone));
    if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw fail.badField('timeRange');
    where.add('l.created_at >= $?', from).add('l.created_at <= $?', to);
  }
  return where;
}

/** The log, newest first; the count and the page's choice of rows read login_log alone (the user's name is for display). */
const LISTING: Listing<LogRow, LogRow> = {
  from: 'login_log l LEFT JOIN app_user u ON u.id = l.user_id',
  narrowFrom: 'login_log l',
  key: 'l.id',
  columns: `l.id, l.login_name, u.user_name, ${RESULT_SQL} AS result, l.ip, l.user_agent, l.created_at`,
  sorts: { loginTime: 'l.created_at', loginName: 'l.login_name' },
  fallback: 'l.id DESC',
  record: (row) => row,
};

function toRecord(row: LogRow) {
  return {
    id: row.id,
    loginName: row.login_name,
    userName: row.user_name ?? '',
    loginResult: row.result,
    ip: row.ip,
    userAgent: row.user_agent,
    loginTime: row.created_at.toISOString(),
  };
}

export const loginLogOperations = [
  defineOperation<LoginLogFilter>('system.loginLog.page', {
    paramSchema: objectOf(filterSchema),
    handler: async (context) => {
      const page = await pageOf(context, LISTING, await where(context));
      return { ...page, records: page.records.map(toRecord) };
    },
  }),

  defineOperation<LoginLogFilter>('system.loginLog.export', {
    paramSchema: objectOf(filterSchema),
    handler: async (context) => {
      const rows = await exportOf(context, LISTING, await where(context));
      const labels: Record<string, string> = { success: '成功', failure: '失败', locked: '账号锁定' };
      return spreadsheet(
        '登录日志',
        [
          { title: '账号', value: (r: LogRow) => r.login_name },
          { title: '用户名称', value: (r) => r.user_name ?? '' },
          { title: '结果', value: (r) => labels[r.result] ?? r.result },
          { title: 'IP', value: (r) => r.ip },
          { title: '浏览器', value: (r) => r.user_agent, width: 48 },
          { title: '时间', value: (r) => r.created_at, width: 22 },
        ],
        rows,
        context.now,
        context.config.timeZone,
      );
    },
  }),
];
