import type { SqlParam } from '../../db/database';
import { bind } from '../../db/parameters';
import { exportFile } from '../../core/exports';
import { defineOperation } from '../../core/operation';
import { enumOf, text } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { organizationScope, scopeCondition } from '../../core/scope';
import { isPlatformStaff, requireView } from '../../core/access';
import { between, column, contains, equals, givenRange, listing, textColumn, timeColumn } from '../../core/listing';

export const RESULT_SQL = `CASE WHEN l.success THEN 'success' WHEN l.reason LIKE '%locked' THEN 'locked' ELSE 'failure' END`;

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
    const tenant = `l.tenant_code = ${bind(params, scope.tenantCode)}`;
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

/** The log, newest first; the count and the page's choice of rows read login_log alone (the user's name is for display). */
const LOG = listing({
  from: 'login_log l LEFT JOIN app_user u ON u.id = l.user_id',
  narrowFrom: 'login_log l',
  key: 'l.id',
  scope: async (where, context) => {
    await requireView(context, LOGIN_LOG_VIEW);
    where.add(await loginLogScope(context, where.params));
  },
  filters: {
    loginName: contains('l.login_name', text(64)),
    loginResult: equals(RESULT_SQL, enumOf(['success', 'failure', 'locked'])),
    ip: equals('l.ip', text(64)),
    timeRange: between('l.created_at', givenRange),
  },
  columns: {
    id: column<number>('l.id'),
    loginName: column<string>('l.login_name'),
    userName: textColumn('u.user_name'),
    loginResult: column<string>(RESULT_SQL),
    ip: column<string>('l.ip'),
    userAgent: column<string>('l.user_agent'),
    loginTime: timeColumn('l.created_at'),
  },
  sorts: ['loginTime', 'loginName'],
  fallback: 'l.id DESC',
});

export const loginLogOperations = [
  defineOperation('system.loginLog.page', {
    paramSchema: LOG.paramSchema,
    handler: (context) => LOG.page(context),
  }),

  defineOperation('system.loginLog.export', {
    paramSchema: LOG.paramSchema,
    handler: async (context) => {
      const rows = await LOG.rows(context);
      const labels: Record<string, string> = { success: '成功', failure: '失败', locked: '账号锁定' };
      return exportFile(
        context,
        '登录日志',
        [
          { title: '账号', value: (r: (typeof rows)[number]) => r.loginName },
          { title: '用户名称', value: (r) => r.userName },
          { title: '结果', value: (r) => labels[r.loginResult] ?? r.loginResult },
          { title: 'IP', value: (r) => r.ip },
          { title: '浏览器', value: (r) => r.userAgent, width: 48 },
          { title: '时间', value: (r) => new Date(r.loginTime), width: 22 },
        ],
        rows,
      );
    },
  }),
];
