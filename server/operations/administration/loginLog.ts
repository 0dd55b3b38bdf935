import type { SqlParam } from '../../db/database';
import { parseBusinessTime } from '../../domain/businessTime';
import { fail } from '../../http/envelope';
import { EXPORT_ROW_LIMIT, spreadsheet } from '../../http/spreadsheet';
import { defineOperation, objectOf, text, type OperationContext, type ParamSchema } from '../define';
import { isPlatformStaff, orderBy, paging, requireView, workingOrganizations } from './scope';

/** A date or date-time as the console's pickers send them. */
export const TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?)?$';

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
  params.push(await workingOrganizations(context));
  const inScope = `EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = l.user_id AND uo.organization_code = ANY($${params.length}::text[]))`;
  return isPlatformStaff(context) ? `(l.user_id IS NULL OR ${inScope})` : inScope;
}

/**
 * The login log screen. The log holds other users' addresses, browsers and failed attempts: only
 * roles whose menu shows it read it (platform staff and tenant admins in the seed menus), each
 * within loginLogScope ("403" 无权限访问 for anyone else).
 */
export const LOGIN_LOG_VIEW = 'system/loginLog';

async function where(context: OperationContext<LoginLogFilter>): Promise<{ sql: string; params: SqlParam[] }> {
  await requireView(context, LOGIN_LOG_VIEW);
  const params: SqlParam[] = [];
  const clauses = [await loginLogScope(context, params)];
  const filter = context.param;
  if (filter.loginName) {
    params.push(`%${filter.loginName.replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
    clauses.push(`l.login_name ILIKE $${params.length}`);
  }
  if (filter.loginResult) {
    params.push(filter.loginResult);
    clauses.push(`${RESULT_SQL} = $${params.length}`);
  }
  if (filter.ip) {
    params.push(filter.ip);
    clauses.push(`l.ip = $${params.length}`);
  }
  if (filter.timeRange) {
    const [from, to] = filter.timeRange.map((time) => parseBusinessTime(time, context.config.timeZone));
    if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw fail.badField('timeRange');
    params.push(from, to);
    clauses.push(`l.created_at BETWEEN $${params.length - 1} AND $${params.length}`);
  }
  return { sql: clauses.join(' AND '), params };
}

const SELECT = `SELECT l.id, l.login_name, u.user_name, ${RESULT_SQL} AS result, l.ip, l.user_agent, l.created_at
  FROM login_log l LEFT JOIN app_user u ON u.id = l.user_id`;
const SORTS = { loginTime: 'l.created_at', loginName: 'l.login_name' };

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
      const { limit, offset, pageNumber, pageSize } = paging(context);
      const clause = await where(context);
      const [{ total }] = await context.db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM login_log l WHERE ${clause.sql}`,
        clause.params,
      );
      const rows = await context.db.query<LogRow>(
        `${SELECT} WHERE ${clause.sql} ORDER BY ${orderBy(context, SORTS, 'l.id DESC')} LIMIT ${limit} OFFSET ${offset}`,
        clause.params,
      );
      return { records: rows.map(toRecord), total, pageNumber, pageSize };
    },
  }),

  defineOperation<LoginLogFilter>('system.loginLog.export', {
    paramSchema: objectOf(filterSchema),
    handler: async (context) => {
      const clause = await where(context);
      const rows = await context.db.query<LogRow>(`${SELECT} WHERE ${clause.sql} ORDER BY l.id DESC LIMIT ${EXPORT_ROW_LIMIT + 1}`, clause.params);
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
