import {
  findNotification,
  latestNotifications,
  markNotificationRead,
  markTabRead,
  notificationPage,
  NOTIFICATION_TAB,
  unreadCounts,
  type NotificationFilter,
  type NotificationItem,
  type NotificationTab,
} from '../../domain/notifications';
import { fail } from '../../http/envelope';
import { orderBy, paging } from '../administration/scope';
import { callerOf, defineOperation, objectOf, text, type OperationContext, type ParamSchema } from '../define';

export const NOTIFICATION_NOT_FOUND = '消息不存在';
/** SPEC §9: the popover previews 3 items. */
export const DEFAULT_PREVIEW_SIZE = 3;
export const MAX_PREVIEW_SIZE = 50;
const MAX_ID = 2_147_483_647;

const tabTypeSchema: ParamSchema = { type: 'integer', enum: [NOTIFICATION_TAB.daily, NOTIFICATION_TAB.system] };
/** An id as the console may send it: a number, or its digits as a string. */
const idSchema: ParamSchema = { anyOf: [{ type: 'integer', minimum: 1, maximum: MAX_ID }, { type: 'string', pattern: '^[1-9][0-9]{0,9}$' }] };

type NotificationId = number | string;

/** The caller's notification `id`, or "404" 消息不存在 when it is someone else's or none. */
async function ownNotification(context: OperationContext<{ id: NotificationId }>): Promise<NotificationItem> {
  const id = Number(context.param.id);
  const found = id <= MAX_ID ? await findNotification(context.db, callerOf(context).userId, id) : null;
  if (!found) throw fail.notFound(NOTIFICATION_NOT_FOUND);
  return found;
}

export const count = defineOperation<Record<string, never>, { dailyCount: number; systemCount: number }>('notification.count', {
  handler: (context) => unreadCounts(context.db, callerOf(context).userId),
});

export const list = defineOperation<{ tabType: NotificationTab; pageSize?: number }, NotificationItem[]>('notification.list', {
  paramSchema: objectOf({ tabType: tabTypeSchema, pageSize: { type: 'integer', minimum: 1, maximum: MAX_PREVIEW_SIZE } }, ['tabType']),
  handler: (context) => latestNotifications(context.db, callerOf(context).userId, context.param.tabType, context.param.pageSize ?? DEFAULT_PREVIEW_SIZE),
});

export const readAll = defineOperation<{ tabType: NotificationTab }, null>('notification.tab.readAll', {
  paramSchema: objectOf({ tabType: tabTypeSchema }, ['tabType']),
  async handler(context) {
    await markTabRead(context.db, callerOf(context).userId, context.param.tabType, context.now);
    return null;
  },
});

export const read = defineOperation<{ id: NotificationId }, null>('notification.read', {
  paramSchema: objectOf({ id: idSchema }, ['id']),
  async handler(context) {
    const id = Number(context.param.id);
    if (id > MAX_ID || !(await markNotificationRead(context.db, callerOf(context).userId, id, context.now))) throw fail.notFound(NOTIFICATION_NOT_FOUND);
    return null;
  },
});

export const detail = defineOperation<{ id: NotificationId }, NotificationItem>('notification.detail', {
  paramSchema: objectOf({ id: idSchema }, ['id']),
  handler: ownNotification,
});

const filterSchema = objectOf({ notificationStatus: { type: 'string', enum: ['0', '1'] }, keyword: text(64) });
const SORTABLE = { notificationDateTime: 'n.created_at', notificationTitle: 'n.title', hasRead: '(r.read_at IS NOT NULL)' };

/** A paged list of one tab (the daily-read and system-message pages). */
function tabPage(name: string, tabType: NotificationTab) {
  return defineOperation<NotificationFilter>(name, {
    paramSchema: filterSchema,
    async handler(context) {
      const { limit, offset, pageNumber, pageSize } = paging(context);
      const { records, total } = await notificationPage(context.db, callerOf(context).userId, tabType, context.param, {
        limit,
        offset,
        orderBy: orderBy(context, SORTABLE, 'n.created_at DESC, n.id DESC'),
      });
      return { records, total, pageNumber, pageSize };
    },
  });
}

export const NOTIFICATION_OPERATIONS = [
  count,
  list,
  readAll,
  read,
  detail,
  tabPage('notification.daily.page', NOTIFICATION_TAB.daily),
  tabPage('notification.system.page', NOTIFICATION_TAB.system),
];
