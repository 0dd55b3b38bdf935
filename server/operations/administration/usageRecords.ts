import type { SqlParam } from '../../db/database';
import { parseBusinessTime } from '../../domain/businessTime';
import { fail } from '../../http/envelope';
import { defineOperation, objectOf, text, type OperationContext, type ParamSchema } from '../define';
import { containing } from '../system/shared';
import { TIME_PATTERN } from './loginLog';
import { orderBy, paging, requireView, workingOrganizations } from './scope';

/**
 * The usage records (使用记录): one per route change in the console (usage.message.save), of the
 * working organisations, newest first, with the menu page the address belongs to.
 */

interface UsageFilter {
  userId?: number;
  loginName?: string;
  usageUrl?: string;
  platform?: 'web' | 'app' | 'mini';
  timeRange?: [string, string];
}

const filterSchema: Record<string, ParamSchema> = {
  userId: { type: 'integer', minimum: 1 },
  loginName: text(64),
  usageUrl: text(512),
  platform: { type: 'string', enum: ['web', 'app', 'mini'] },
  timeRange: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'string', maxLength: 32, pattern: TIME_PATTERN } },
};

async function where(context: OperationContext<UsageFilter>): Promise<{ sql: string; params: SqlParam[] }> {
  const params: SqlParam[] = [await workingOrganizations(context)];
  const clauses = ['m.organization_code = ANY($1::text[])'];
  const filter = context.param;
  if (filter.userId) {
    params.push(filter.userId);
    clauses.push(`m.user_id = $${params.length}`);
  }
  if (filter.loginName) {
    params.push(containing(filter.loginName));
    clauses.push(`(u.login_name ILIKE $${params.length} OR u.user_name ILIKE $${params.length})`);
  }
  if (filter.usageUrl) {
    params.push(containing(filter.usageUrl));
    clauses.push(`m.usage_url ILIKE $${params.length}`);
  }
  if (filter.platform) {
    params.push(filter.platform);
    clauses.push(`m.platform = $${params.length}`);
  }
  if (filter.timeRange) {
    const [from, to] = filter.timeRange.map((time) => parseBusinessTime(time, context.config.timeZone));
    if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw fail.badField('timeRange');
    params.push(from <= to ? from : to, from <= to ? to : from);
    clauses.push(`m.active_time BETWEEN $${params.length - 1} AND $${params.length}`);
  }
  return { sql: clauses.join(' AND '), params };
}

const FROM = `FROM usage_message m LEFT JOIN app_user u ON u.id = m.user_id`;
const SORTS = { activeTime: 'm.active_time', pendingSeconds: 'm.pending_time', usageUrl: 'm.usage_url' };

interface UsageRow {
  id: number;
  login_name: string | null;
  user_name: string | null;
  organization_name: string | null;
  action_type: string;
  usage_url: string;
  page_name: string | null;
  platform: string;
  extra_item: string;
  active_time: Date;
  pending_time: number;
}

export const usageRecordOperations = [
  defineOperation<UsageFilter>('usage.message.page', {
    paramSchema: objectOf(filterSchema),
    handler: async (context) => {
      await requireView(context, 'statistics/usageRecord');
      const { limit, offset, pageNumber, pageSize } = paging(context);
      const clause = await where(context);
      const [{ total }] = await context.db.query<{ total: number }>(`SELECT count(*)::int AS total ${FROM} WHERE ${clause.sql}`, clause.params);
      const rows = await context.db.query<UsageRow>(
        `SELECT m.id, u.login_name, u.user_name, o.name AS organization_name, m.action_type, m.usage_url,
                (SELECT r.name FROM resource r WHERE r.kind = 'menu' AND r.url = m.usage_url ORDER BY r.sort LIMIT 1) AS page_name,
                m.platform, m.extra_item, m.active_time, m.pending_time
           ${FROM} LEFT JOIN organization o ON o.code = m.organization_code
          WHERE ${clause.sql}
          ORDER BY ${orderBy(context, SORTS, 'm.active_time DESC, m.id DESC')} LIMIT ${limit} OFFSET ${offset}`,
        clause.params,
      );
      return {
        records: rows.map((row) => ({
          id: row.id,
          loginName: row.login_name ?? '',
          userName: row.user_name ?? '',
          organizationName: row.organization_name ?? '',
          actionType: row.action_type,
          usageUrl: row.usage_url,
          pageName: row.page_name ?? '',
          platform: row.platform,
          extraItem: row.extra_item,
          activeTime: row.active_time.toISOString(),
          pendingSeconds: Math.round(row.pending_time / 1000),
        })),
        total,
        pageNumber,
        pageSize,
      };
    },
  }),
];
