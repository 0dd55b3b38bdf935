import { defineOperation } from '../../core/operation';
import { enumOf, positiveInteger, text } from '../../core/params';
import { organizationScope } from '../../core/scope';
import { requireView } from '../../core/access';
import { between, column, contains, equals, listing, textColumn, timeColumn } from '../../core/listing';

/**
 * The usage records (使用记录): one per route change in the console (usage.message.save), of the
 * working organisations, newest first, with the menu page the address belongs to.
 */

/**
 * The records, newest first: the count and the page's choice of rows join the user only when the
 * filter names it (the organisation and the page name are looked up for the page's rows).
 */
const USAGE = listing({
  from: 'usage_message m LEFT JOIN app_user u ON u.id = m.user_id LEFT JOIN organization o ON o.code = m.organization_code',
  narrowFrom: (needed) => (/\bu\./.test(needed) ? 'usage_message m LEFT JOIN app_user u ON u.id = m.user_id' : 'usage_message m'),
  key: 'm.id',
  // organization_code is the organisation the user worked in when the record was written (no tenant
  // column): below a tenant its organisations, at the platform root no clause (every record; the
  // records of an organisation deleted since are no longer hidden there).
  scope: async (where, context) => where.scope(await organizationScope(context), 'm'),
  filters: {
    userId: equals('m.user_id', positiveInteger),
    loginName: contains(['u.login_name', 'u.user_name'], text(64)),
    usageUrl: contains('m.usage_url', text(512)),
    platform: equals('m.platform', enumOf(['web', 'app', 'mini'])),
    timeRange: between('m.active_time'),
  },
  columns: {
    id: column<number>('m.id'),
    loginName: textColumn('u.login_name'),
    userName: textColumn('u.user_name'),
    organizationName: textColumn('o.name'),
    actionType: column<string>('m.action_type'),
    usageUrl: column<string>('m.usage_url'),
    pageName: textColumn("(SELECT r.name FROM resource r WHERE r.kind = 'menu' AND r.url = m.usage_url ORDER BY r.sort LIMIT 1)"),
    platform: column<string>('m.platform'),
    extraItem: column<string>('m.extra_item'),
    activeTime: timeColumn('m.active_time'),
    pendingSeconds: column('m.pending_time', (milliseconds: number) => Math.round(milliseconds / 1000)),
  },
  sorts: ['activeTime', 'pendingSeconds', 'usageUrl'],
  fallback: 'm.active_time DESC, m.id DESC',
});

export const usageRecordOperations = [
  defineOperation('usage.message.page', {
    paramSchema: USAGE.paramSchema,
    handler: async (context) => {
      await requireView(context, 'statistics/usageRecord');
      return USAGE.page(context);
    },
  }),
];
