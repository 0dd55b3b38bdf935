import type { Queryable } from '../db/database';
import { sanitizeHtml, textOfHtml } from './html';

/** SPEC §4: tab 1 日常阅读 (daily read), tab 2 系统消息 (system messages). */
export const NOTIFICATION_TAB = { daily: 1, system: 2 } as const;
export type NotificationTab = (typeof NOTIFICATION_TAB)[keyof typeof NOTIFICATION_TAB];

/** notificationStatus: '0' unread, '1' read. */
export type NotificationStatus = '0' | '1';

export const NOTIFICATION_TITLE_MAX = 120;
/** The longest body accepted, before sanitising. */
export const NOTIFICATION_BODY_MAX = 20_000;

/** A notification as the console shows it (SPEC §3). */
export interface NotificationItem {
  id: number;
  notificationTitle: string;
  /** Sanitised HTML. */
  notificationDescription: string;
  notificationDateTime: string;
  hasRead: boolean;
  notificationStatus: NotificationStatus;
  tabType: NotificationTab;
}

/** The stored columns of a notification's content: the body sanitised, its plain text beside it. */
export interface NotificationContent {
  title: string;
  body_html: string;
  body_text: string;
}

/**
 * What a notification stores for a title and an HTML body: the one path every body takes to the
 * database (operations and the seed alike), so no unsanitised HTML is ever saved.
 */
export function notificationContent(title: string, bodyHtml: string): NotificationContent {
  const cleanTitle = title.trim().slice(0, NOTIFICATION_TITLE_MAX);
  if (!cleanTitle) throw new Error('a notification needs a title');
  if (bodyHtml.length > NOTIFICATION_BODY_MAX) throw new Error(`a notification body is limited to ${NOTIFICATION_BODY_MAX} characters`);
  const body = sanitizeHtml(bodyHtml);
  return { title: cleanTitle, body_html: body, body_text: textOfHtml(body) };
}

export interface NewNotification {
  tabType: NotificationTab;
  title: string;
  /** HTML from anyone: sanitised here. */
  bodyHtml: string;
  recipientUserIds: readonly number[];
  createdAt: Date;
}

/** Saves a notification for its recipients (all unread) and answers its id. */
export async function saveNotification(db: Queryable, notification: NewNotification): Promise<number> {
  const content = notificationContent(notification.title, notification.bodyHtml);
  const [{ id }] = await db.query<{ id: number }>(
    'INSERT INTO notification (tab_type, title, body_html, body_text, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [notification.tabType, content.title, content.body_html, content.body_text, notification.createdAt],
  );
  if (notification.recipientUserIds.length > 0) {
    await db.query(
      `INSERT INTO notification_recipient (notification_id, user_id)
       SELECT $1, u.id FROM app_user u WHERE u.id = ANY($2::int[]) ON CONFLICT DO NOTHING`,
      [id, [...notification.recipientUserIds]],
    );
  }
  return id;
}

/** A notification row as its lists read it (title, body, time, and the reader's read time). */
export interface ItemRow {
  id: number;
  tab_type: number;
  title: string;
  body_html: string;
  created_at: Date;
  read_at: Date | null;
}

/** The SPEC §3 notification item of a row. */
export function toItem(row: ItemRow): NotificationItem {
  const hasRead = row.read_at !== null;
  return {
    id: row.id,
    notificationTitle: row.title,
    notificationDescription: row.body_html,
    notificationDateTime: row.created_at.toISOString(),
    hasRead,
    notificationStatus: hasRead ? '1' : '0',
    tabType: row.tab_type === NOTIFICATION_TAB.system ? NOTIFICATION_TAB.system : NOTIFICATION_TAB.daily,
  };
}

const ITEM_SELECT = `
  SELECT n.id, n.tab_type, n.title, n.body_html, n.created_at, r.read_at
    FROM notification_recipient r JOIN notification n ON n.id = r.notification_id`;

/** The unread counts of the user's two tabs. */
export async function unreadCounts(db: Queryable, userId: number): Promise<{ dailyCount: number; systemCount: number }> {
  const [row] = await db.query<{ daily: number; system: number }>(
    `SELECT count(*) FILTER (WHERE n.tab_type = 1)::int AS daily, count(*) FILTER (WHERE n.tab_type = 2)::int AS system
       FROM notification_recipient r JOIN notification n ON n.id = r.notification_id
      WHERE r.user_id = $1 AND r.read_at IS NULL`,
    [userId],
  );
  return { dailyCount: row?.daily ?? 0, systemCount: row?.system ?? 0 };
}

/** The user's newest notifications of a tab. */
export async function latestNotifications(db: Queryable, userId: number, tabType: NotificationTab, limit: number): Promise<NotificationItem[]> {
  const rows = await db.query<ItemRow>(`${ITEM_SELECT} WHERE r.user_id = $1 AND n.tab_type = $2 ORDER BY n.created_at DESC, n.id DESC LIMIT $3`, [
    userId,
    tabType,
    limit,
  ]);
  return rows.map(toItem);
}

/** One of the user's notifications, or null when it is not theirs (or does not exist). */
export async function findNotification(db: Queryable, userId: number, id: number): Promise<NotificationItem | null> {
  const [row] = await db.query<ItemRow>(`${ITEM_SELECT} WHERE r.user_id = $1 AND r.notification_id = $2`, [userId, id]);
  return row ? toItem(row) : null;
}

/** Marks one of the user's notifications read (keeping the first reading time); false when not theirs. */
export async function markNotificationRead(db: Queryable, userId: number, id: number, now: Date): Promise<boolean> {
  const rows = await db.query<{ notification_id: number }>(
    `UPDATE notification_recipient SET read_at = coalesce(read_at, $3) WHERE user_id = $1 AND notification_id = $2 RETURNING notification_id`,
    [userId, id, now],
  );
  return rows.length > 0;
}

/** Marks every unread notification of the tab read; answers how many it marked. */
export async function markTabRead(db: Queryable, userId: number, tabType: NotificationTab, now: Date): Promise<number> {
  const rows = await db.query<{ notification_id: number }>(
    `UPDATE notification_recipient r SET read_at = $3
       FROM notification n
      WHERE n.id = r.notification_id AND r.user_id = $1 AND n.tab_type = $2 AND r.read_at IS NULL
      RETURNING r.notification_id`,
    [userId, tabType, now],
  );
  return rows.length;
}

