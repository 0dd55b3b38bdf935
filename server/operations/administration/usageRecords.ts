import { parseBusinessTime } from '../../domain/businessTime';
import { fail } from '../../http/envelope';
import { defineOperation } from '../../core/operation';
import { objectOf, text, type ParamSchema, TIME_PATTERN } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { Conditions, containing, pageOf, type Listing } from '../../core/listQuery';
import { organizationScope } from '../../core/scope';
import { requireView } from '../../core/access';

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

async function where(context: OperationContext<UsageFilter>): Promise<Conditions> {
  // organization_code is the organisation the user worked in when the record was written (no tenant
  // column): below a tenant its organisations, at the platform root no clause (every record; the
  // records of an organisation deleted since are no longer hidden there).
  const where = new Conditions().scope(await organizationScope(context), 'm');
  const filter = context.param;
  where.when(filter.userId, 'm.user_id = $?');
  where.when(filter.loginName, '(u.login_name ILIKE $? OR u.user_name ILIKE $?)', (name) => containing(String(name)));
  where.when(filter.usageUrl, 'm.usage_url ILIKE $?', (url) => containing(String(url)));
  where.when(filter.platform, 'm.platform = $?');
  if (filter.timeRange) {
    const [from, to] = filter.timeRange.map((time) => parseBusinessTime(time, context.config.timeZone));
    if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw fail.badField('timeRange');
    where.add('m.active_time >= $?', from <= to ? from : to).add('m.active_time <= $?', from <= to ? to : from);
  }
  return where;
}

/**
 * The records, newest first: the count and the page's choice of rows join the user only when the
 * filter names it (the organisation and the page name are looked up for the page's rows).
 */
const LISTING: Listing<UsageRow, UsageRow> = {
  from: 'usage_message m LEFT JOIN app_user u ON u.id = m.user_id LEFT JOIN organization o ON o.code = m.organization_code',
  narrowFrom: (needed) => (/\bu\./.test(needed) ? 'usage_message m LEFT JOIN app_user u ON u.id = m.user_id' : 'usage_message m'),
  key: 'm.id',
  columns: `m.id, u.login_name, u.user_name, o.name AS organization_name, m.action_type, m.usage_url,
    (SELECT r.name FROM resource r WHERE r.kind = 'menu' AND r.url = m.usage_url ORDER BY r.sort LIMIT 1) AS page_name,
    m.platform, m.extra_item, m.active_time, m.pending_time`,
  sorts: { activeTime: 'm.active_time', pendingSeconds: 'm.pending_time', usageUrl: 'm.usage_url' },
  fallback: 'm.active_time DESC, m.id DESC',
  record: (row) => row,
};

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
      const page = await pageOf(context, LISTING, await where(context));
      return {
        ...page,
        records: page.records.map((row) => ({
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
      };
    },
  }),
];
