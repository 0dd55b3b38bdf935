import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Empty, List, Popover, Spin, Tabs, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { FORMATS } from '../format/formats';
import { formatCount } from '../format/numbers';
import { onLiveEvent } from '../live/liveEvents';
import { DailyReadModal } from './DailyReadModal';
import { useOperationMutation } from '../api/data';
import {
  DAILY_TAB,
  SYSTEM_TAB,
  TABS,
  useLatestNotifications,
  useNotificationCounts,
  type NotificationCounts,
  type NotificationTab,
  type UserNotification,
} from './notifications';

type Previews = Record<NotificationTab, UserNotification[]>;

/** The label of a tab: its name and its unread count in the SPEC §9 count display. */
export function tabLabel(label: string, count: number): string {
  return `${label}(${formatCount(count)})`;
}

function countOf(counts: NotificationCounts, tabType: NotificationTab): number {
  return counts[TABS.find((tab) => tab.tabType === tabType)?.countKey ?? 'dailyCount'];
}

function PreviewList({ items, onOpen }: { items: readonly UserNotification[]; onOpen: (index: number) => void }) {
  if (items.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无消息" />;
  return (
    <List
      size="small"
      dataSource={[...items]}
      rowKey={(item) => String(item.id)}
      renderItem={(item, index) => (
        <List.Item style={{ cursor: 'pointer', paddingInline: 4 }} onClick={() => onOpen(index)} data-testid="notification-item">
          <List.Item.Meta
            avatar={<Badge status={item.hasRead ? 'default' : 'processing'} />}
            title={
              <Typography.Text ellipsis strong={!item.hasRead} style={{ maxWidth: 280 }}>
                {item.notificationTitle}
              </Typography.Text>
            }
            description={FORMATS.datetime(item.notificationDateTime)}
          />
        </List.Item>
      )}
    />
  );
}

/**
 * The bell of the top bar (SPEC §2, §4): unread counts of 日常阅读 and 系统消息, the newest items of
 * each tab, 全部已读 (only when the tab has unread) and 查看全部; a daily item opens the daily-read modal.
 * Everything is read through the console's data layer: the counts poll every minute, a change
 * (全部已读, an item read) marks the counts and the lists stale, and they load again.
 */
export function NotificationPopover() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  /** The previews are first asked for when the popover first opens, then on each opening. */
  const [asked, setAsked] = useState(false);
  const [activeTab, setActiveTab] = useState<NotificationTab>(DAILY_TAB);
  const [readingIndex, setReadingIndex] = useState<number | null>(null);
  /** Items read in the modal since their list was loaded. */
  const [readIds, setReadIds] = useState<ReadonlySet<UserNotification['id']>>(() => new Set());
  const { counts, reload: reloadCounts } = useNotificationCounts();
  const daily = useLatestNotifications(DAILY_TAB, asked);
  const system = useLatestNotifications(SYSTEM_TAB, asked);
  const previews: Previews = useMemo(() => {
    const marked = (items: UserNotification[]) => items.map((item) => (readIds.has(item.id) ? { ...item, hasRead: true } : item));
    return { [DAILY_TAB]: marked(daily.items), [SYSTEM_TAB]: marked(system.items) };
  }, [daily.items, system.items, readIds]);
  const readAll = useOperationMutation('notification.tab.readAll', { invalidates: ['notification.count', 'notification.list'] });

  // A raised alarm is a system message for the admins: the badge follows it at once.
  useEffect(
    () =>
      onLiveEvent((event) => {
        if (event.kind === 'alarm.raised') reloadCounts();
      }),
    [reloadCounts],
  );

  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (!next) return;
    reloadCounts();
    if (!asked) return setAsked(true);
    daily.reload();
    system.reload();
  };

  const hasUnread = (tabType: NotificationTab) => countOf(counts, tabType) > 0 || previews[tabType].some((item) => !item.hasRead);

  // 全部已读 marks the counts and the lists stale: they load again.
  const markAllRead = (tabType: NotificationTab) => readAll.mutate({ tabType });

  const viewAll = (path: string) => {
    setOpen(false);
    navigate(path);
  };

  const openItem = (tabType: NotificationTab, index: number) => {
    setOpen(false);
    if (tabType === DAILY_TAB) setReadingIndex(index);
    else navigate(TABS.find((tab) => tab.tabType === tabType)?.path ?? '/');
  };

  const itemRead = (read: UserNotification) => setReadIds((current) => new Set(current).add(read.id));

  const total = counts.dailyCount + counts.systemCount;
  const content = (
    <div style={{ width: 340 }} data-testid="notification-panel">
      <Tabs
        activeKey={String(activeTab)}
        onChange={(key) => setActiveTab(Number(key) as NotificationTab)}
        items={TABS.map((tab) => ({
          key: String(tab.tabType),
          label: tabLabel(tab.label, counts[tab.countKey]),
          children: (
            <Spin spinning={daily.fetching || system.fetching}>
              <PreviewList items={previews[tab.tabType]} onOpen={(index) => openItem(tab.tabType, index)} />
              <div style={{ display: 'flex', justifyContent: 'space-between', borderTop: '1px solid #f0f0f0', paddingTop: 8 }}>
                <Button type="link" size="small" disabled={!hasUnread(tab.tabType)} loading={readAll.isPending} onClick={() => markAllRead(tab.tabType)}>
                  全部已读
                </Button>
                <Button type="link" size="small" onClick={() => viewAll(tab.path)}>
                  查看全部
                </Button>
              </div>
            </Spin>
          ),
        }))}
      />
    </div>
  );

  return (
    <>
      <Popover trigger="click" placement="bottomRight" open={open} onOpenChange={changeOpen} content={content} arrow={false}>
        <Badge count={total > 0 ? formatCount(total) : 0} size="small" offset={[-4, 4]}>
          <Button type="text" icon={<BellOutlined aria-hidden />} aria-label="消息通知" data-testid="notification-bell" />
        </Badge>
      </Popover>
      <DailyReadModal
        items={previews[DAILY_TAB]}
        index={readingIndex}
        onIndexChange={setReadingIndex}
        onClose={() => setReadingIndex(null)}
        onRead={itemRead}
      />
    </>
  );
}
