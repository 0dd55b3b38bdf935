import {
  findNotification,
  latestNotifications,
  markNotificationRead,
  markTabRead,
  NOTIFICATION_TAB,
  toItem,
  unreadCounts,
  type ItemRow,
  type NotificationItem,
  type NotificationTab,
} from '../../domain/notifications';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, integerIn, objectOf, schemaOf, text, type ParamOf } from '../../core/params';
import { Conditions, containing, pageOf, type Listing, type Page } from '../../core/listQuery';

export const NOTIFICATION_NOT_FOUND = '消息不存在';
/** SPEC §9: the popover previews 3 items. */
export const DEFAULT_PREVIEW_SIZE = 3;
export const MAX_PREVIEW_SIZE = 50;
const MAX_ID = 2_147_483_647;

const tabTypeSchema = schemaOf<NotificationTab>({ type: 'integer', enum: [NOTIFICATION_TAB.daily, NOTIFICATION_TAB.system] });
/** An id as the console may send it: a number, or its digits as a string. */
const idSchema = schemaOf<number | string>({ anyOf: [{ type: 'integer', minimum: 1, maximum: MAX_ID }, { type: 'string', pattern: '^[1-9][0-9]{0,9}$' }] });
const idParam = objectOf({ id: idSchema }, ['id']);

/** The caller's notification `id`, or "404" 消息不存在 when it is someone else's or none. */
async function ownNotification(context: OperationContext<ParamOf<typeof idParam>>): Promise<NotificationItem> {
  const id = Number(context.param.id);
  const found = id <= MAX_ID ? await findNotification(context.db, callerOf(context).userId, id) : null;
  if (!found) throw fail.notFound(NOTIFICATION_NOT_FOUND);
  return found;
}

export const count = defineOperation('notification.count', {
  handler: (context): Promise<{ dailyCount: number; systemCount: number }> => unreadCounts(context.db, callerOf(context).userId),
});

export const list = defineOperation('notification.list', {
  paramSchema: objectOf({ tabType: tabTypeSchema, pageSize: integerIn(1, MAX_PREVIEW_SIZE) }, ['tabType']),
  handler: (context): Promise<NotificationItem[]> => latestNotifications(context.db, callerOf(context).userId, context.param.tabType, context.param.pageSize ?? DEFAULT_PREVIEW_SIZE),
});

export const readAll = defineOperation('notification.tab.readAll', {
  paramSchema: objectOf({ tabType: tabTypeSchema }, ['tabType']),
  async handler(context): Promise<null> {
    await markTabRead(context.db, callerOf(context).userId, context.param.tabType, context.now);
    return null;
  },
});

export const read = defineOperation('notification.read', {
  paramSchema: idParam,
  async handler(context): Promise<null> {
    const id = Number(context.param.id);
    if (id > MAX_ID || !(await markNotificationRead(context.db, callerOf(context).userId, id, context.now))) throw fail.notFound(NOTIFICATION_NOT_FOUND);
    return null;
  },
});

export const detail = defineOperation('notification.detail', {
  paramSchema: idParam,
  handler: ownNotification,
});

const filterProperties = { notificationStatus: enumOf(['0', '1']), keyword: text(64) };
const filterSchema = objectOf(filterProperties);
/** What the notification lists are narrowed by: read or not, and a keyword. */
type NotificationFilter = ParamOf<typeof filterSchema>;

/** The notifications a user received, newest first. */
const NOTIFICATIONS: Listing<ItemRow, NotificationItem> = {
  from: 'notification_recipient r JOIN notification n ON n.id = r.notification_id',
  columns: 'n.id, n.tab_type, n.title, n.body_html, n.created_at, r.read_at',
  sorts: { notificationDateTime: 'n.created_at', notificationTitle: 'n.title', hasRead: '(r.read_at IS NOT NULL)' },
  fallback: 'n.created_at DESC, n.id DESC',
  record: toItem,
};

/**
 * A page of the caller's own notifications, of one tab or (mobile app) of both, narrowed by the
 * read state and a keyword in the title or the text.
 */
function ownNotificationPage(context: OperationContext<NotificationFilter>, tabType: NotificationTab | undefined): Promise<Page<NotificationItem>> {
  const filter = context.param;
  const where = new Conditions().add('r.user_id = $?', callerOf(context).userId).when(tabType, 'n.tab_type = $?');
  if (filter.notificationStatus) where.add(filter.notificationStatus === '1' ? 'r.read_at IS NOT NULL' : 'r.read_at IS NULL');
  where.when(filter.keyword?.trim(), '(n.title ILIKE $? OR n.body_text ILIKE $?)', (keyword) => containing(String(keyword)));
  return pageOf(context, NOTIFICATIONS, where);
}

/** A paged list of one tab (the daily-read and system-message pages). */
function tabPage(name: string, tabType: NotificationTab) {
  return defineOperation(name, {
    paramSchema: filterSchema,
    handler: (context) => ownNotificationPage(context, tabType),
  });
}

/** The mobile app's list (SPEC §7 "Notification"): the caller's own messages of both tabs, or of one, in one paged list. */
export const mobilePage = defineOperation('notification.mobile.page', {
  paramSchema: objectOf({ tabType: tabTypeSchema, ...filterProperties }),
  handler: (context) => ownNotificationPage(context, context.param.tabType),
});

export const NOTIFICATION_OPERATIONS = [
  count,
  list,
  readAll,
  read,
  detail,
  tabPage('notification.daily.page', NOTIFICATION_TAB.daily),
  tabPage('notification.system.page', NOTIFICATION_TAB.system),
  mobilePage,
];
