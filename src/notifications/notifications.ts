import { typedApi } from '../api/typed';

/** SPEC §4: tab 1 is 日常阅读 (daily read), tab 2 is 系统消息 (system messages). */
export type NotificationTab = 1 | 2;
export const DAILY_TAB = 1 satisfies NotificationTab;
export const SYSTEM_TAB = 2 satisfies NotificationTab;

/** SPEC §9: the popover previews the newest 3 items of a tab. */
export const NOTIFICATION_PREVIEW_SIZE = 3;
/** The unread counts refresh in the background this often. */
export const NOTIFICATION_REFRESH_MS = 60_000;

export const DAILY_READ_PATH = '/system/daily/read';
export const SYSTEM_MESSAGE_PATH = '/system/message';

/** A notification of `user/message/_list` (SPEC §3); the body is HTML from the server. */
export interface UserNotification {
  id: string | number;
  notificationTitle: string;
  notificationDescription: string;
  notificationDateTime: string;
  hasRead: boolean;
  notificationStatus?: string | number;
  tabType?: NotificationTab;
}

/** The unread counts of `user/message/_count`. */
export interface NotificationCounts {
  dailyCount: number;
  systemCount: number;
}

export const NO_COUNTS: NotificationCounts = { dailyCount: 0, systemCount: 0 };

export const TABS: ReadonlyArray<{ tabType: NotificationTab; label: string; countKey: keyof NotificationCounts; path: string }> = [
  { tabType: DAILY_TAB, label: '日常阅读', countKey: 'dailyCount', path: DAILY_READ_PATH },
  { tabType: SYSTEM_TAB, label: '系统消息', countKey: 'systemCount', path: SYSTEM_MESSAGE_PATH },
];

export async function loadCounts(silent = false): Promise<NotificationCounts> {
  const counts = await typedApi.call('notification.count', {}, { silent });
  return { dailyCount: Number(counts?.dailyCount ?? 0), systemCount: Number(counts?.systemCount ?? 0) };
}

export async function loadLatest(tabType: NotificationTab, silent = false): Promise<UserNotification[]> {
  const items = await typedApi.call('notification.list', { tabType, pageSize: NOTIFICATION_PREVIEW_SIZE }, { silent });
  return (items ?? []).slice(0, NOTIFICATION_PREVIEW_SIZE);
}

export function readAll(tabType: NotificationTab): Promise<unknown> {
  return typedApi.call('notification.tab.readAll', { tabType });
}

export function markRead(id: UserNotification['id']): Promise<unknown> {
  return typedApi.call('notification.read', { id }, { silent: true });
}
