import type { SqlParam } from '../../db/database';
import { NOTIFICATION_TAB, toItem, type ItemRow, type NotificationStatus, type NotificationTab } from '../../domain/notifications';
import { issueCode, normalizeTarget, type Channel } from '../../security/verification';
import { orderBy, paging } from '../administration/scope';
import { callerOf, defineOperation, objectOf, text, type OperationContext } from '../define';
import { SENT_MESSAGE } from '../verification';
import { containing } from '../system/shared';

/**
 * The mobile app's side of notifications (SPEC §7 "Notification"): the caller's own messages of
 * both tabs in one paged list, and a phone verification code by message or by call, under the
 * same rules as every verification code (6 digits, valid 5 minutes, one per number per 60 s,
 * "sent" to the outbox).
 */

interface MobileFilter {
  tabType?: NotificationTab;
  notificationStatus?: NotificationStatus;
  keyword?: string;
}

const SORTABLE = { notificationDateTime: 'n.created_at', notificationTitle: 'n.title', hasRead: '(r.read_at IS NOT NULL)' };

export const mobilePage = defineOperation<MobileFilter>('notification.mobile.page', {
  paramSchema: objectOf({
    tabType: { type: 'integer', enum: [NOTIFICATION_TAB.daily, NOTIFICATION_TAB.system] },
    notificationStatus: { type: 'string', enum: ['0', '1'] },
    keyword: text(64),
  }),
  handler: async (context) => {
    const { limit, offset, pageNumber, pageSize } = paging(context);
    const filter = context.param;
    const params: SqlParam[] = [callerOf(context).userId];
    const clauses = ['r.user_id = $1'];
    if (filter.tabType) {
      params.push(filter.tabType);
      clauses.push(`n.tab_type = $${params.length}`);
    }
    if (filter.notificationStatus) clauses.push(filter.notificationStatus === '1' ? 'r.read_at IS NOT NULL' : 'r.read_at IS NULL');
    const keyword = filter.keyword?.trim();
    if (keyword) {
      params.push(containing(keyword));
      clauses.push(`(n.title ILIKE $${params.length} OR n.body_text ILIKE $${params.length})`);
    }
    const where = clauses.join(' AND ');
    const from = 'notification_recipient r JOIN notification n ON n.id = r.notification_id';
    const [{ total }] = await context.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${from} WHERE ${where}`, params);
    const rows = await context.db.query<ItemRow>(
      `SELECT n.id, n.tab_type, n.title, n.body_html, n.created_at, r.read_at FROM ${from} WHERE ${where}
        ORDER BY ${orderBy(context, SORTABLE, 'n.created_at DESC, n.id DESC')} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    return { records: rows.map(toItem), total, pageNumber, pageSize };
  },
});

/** A code for the signed-in caller's phone (the app's own phone checks), by SMS or by voice call. */
async function sendPhoneCode(context: OperationContext<string>, channel: Channel): Promise<string> {
  callerOf(context);
  const target = normalizeTarget(channel, context.param);
  await issueCode(context.db, { channel, target, deliver: true, now: context.now, timeZone: context.config.timeZone }, context.log);
  return SENT_MESSAGE;
}

export const phoneCodeSms = defineOperation<string, string>('notification.phoneCode.sms', {
  paramSchema: text(32),
  handler: (context) => sendPhoneCode(context, 'sms'),
});

export const phoneCodeCall = defineOperation<string, string>('notification.phoneCode.call', {
  paramSchema: text(32),
  handler: (context) => sendPhoneCode(context, 'voice'),
});

export const mobileOperations = [mobilePage, phoneCodeSms, phoneCodeCall];
