import { useOperationQuery } from '../api/data';

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

/**
 * The unread counts, polled every minute while the bell is shown (TanStack's refetchInterval). A
 * failed poll tells nobody (the badge keeps the last counts; the next poll tries again); "301"
 * still ends the session.
 */
export function useNotificationCounts(): { counts: NotificationCounts; reload: () => void } {
  const loaded = useOperationQuery('notification.count', {}, { refetchInterval: NOTIFICATION_REFRESH_MS, handlesErrors: true });
  const counts = loaded.data;
  return {
    counts: counts ? { dailyCount: Number(counts.dailyCount ?? 0), systemCount: Number(counts.systemCount ?? 0) } : NO_COUNTS,
    reload: loaded.reload,
  };
}

/**
 * The newest items of a tab, first asked for once `enabled` (the popover was opened), then again on
 * `reload` and whenever a change marks them stale; a failure is told, the last items stay.
 */
export function useLatestNotifications(tabType: NotificationTab, enabled: boolean): { items: UserNotification[]; fetching: boolean; reload: () => void } {
  const loaded = useOperationQuery('notification.list', { tabType, pageSize: NOTIFICATION_PREVIEW_SIZE }, { enabled });
  return { items: (loaded.data ?? []).slice(0, NOTIFICATION_PREVIEW_SIZE), fetching: loaded.fetching, reload: loaded.reload };
}
