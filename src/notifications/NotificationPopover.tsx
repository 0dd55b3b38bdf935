import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Empty, List, Popover, Spin, Tabs, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { FORMATS } from '../format/formats';
import { formatCount } from '../format/numbers';
import { onLiveEvent } from '../live/liveEvents';
import { DailyReadModal } from './DailyReadModal';
import {
  DAILY_TAB,
  loadCounts,
  loadLatest,
  NO_COUNTS,
  NOTIFICATION_REFRESH_MS,
  readAll,
  SYSTEM_TAB,
  TABS,
  type NotificationCounts,
  type NotificationTab,
  type UserNotification,
} from './notifications';
import { expectedFailures } from '../../renderers/runtime/errorReporter';

type Previews = Record<NotificationTab, UserNotification[]>;
const NO_PREVIEWS: Previews = { [DAILY_TAB]: [], [SYSTEM_TAB]: [] };

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
 */
export function NotificationPopover() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [counts, setCounts] = useState<NotificationCounts>(NO_COUNTS);
  const [previews, setPreviews] = useState<Previews>(NO_PREVIEWS);
  const [loading, setLoading] = useState(false);
  const [activeTab, setActiveTab] = useState<NotificationTab>(DAILY_TAB);
  const [markingAll, setMarkingAll] = useState(false);
  const [readingIndex, setReadingIndex] = useState<number | null>(null);

  const refreshCounts = useCallback(async () => {
    try {
      setCounts(await loadCounts(true));
    } catch (error) {
      expectedFailures('消息通知')(error);
      /* background refresh: the next one tries again */
    }
  }, []);

  const reloadPreviews = useCallback(async () => {
    setLoading(true);
    try {
      const [daily, system] = await Promise.all([loadLatest(DAILY_TAB), loadLatest(SYSTEM_TAB)]);
      setPreviews({ [DAILY_TAB]: daily, [SYSTEM_TAB]: system });
    } catch (error) {
      expectedFailures('消息通知')(error);
      /* told by the client; the previous items stay */
    } finally {
      setLoading(false);
    }
  }, []);

  // The badge shows the counts from the start and refreshes them silently every minute.
  useEffect(() => {
    const refresh = () => void loadCounts(true).then(setCounts, () => undefined);
    refresh();
    const timer = setInterval(refresh, NOTIFICATION_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  // A raised alarm is a system message for the admins: the badge follows it at once.
  useEffect(
    () =>
      onLiveEvent((event) => {
        if (event.kind === 'alarm.raised') void refreshCounts();
      }),
    [refreshCounts],
  );

  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (next) {
      void refreshCounts();
      void reloadPreviews();
    }
  };

  const hasUnread = (tabType: NotificationTab) => countOf(counts, tabType) > 0 || previews[tabType].some((item) => !item.hasRead);

  const markAllRead = async (tabType: NotificationTab) => {
    const countKey = TABS.find((tab) => tab.tabType === tabType)?.countKey ?? 'dailyCount';
    setMarkingAll(true);
    try {
      await readAll(tabType);
      setCounts((current) => ({ ...current, [countKey]: 0 }));
      await Promise.all([reloadPreviews(), refreshCounts()]);
    } catch (error) {
      expectedFailures('消息通知')(error);
      /* told by the client */
    } finally {
      setMarkingAll(false);
    }
  };

  const viewAll = (path: string) => {
    setOpen(false);
    navigate(path);
  };

  const openItem = (tabType: NotificationTab, index: number) => {
    setOpen(false);
    if (tabType === DAILY_TAB) setReadingIndex(index);
    else navigate(TABS.find((tab) => tab.tabType === tabType)?.path ?? '/');
  };

  const itemRead = (read: UserNotification) => {
    setPreviews((current) => ({ ...current, [DAILY_TAB]: current[DAILY_TAB].map((item) => (item.id === read.id ? { ...item, hasRead: true } : item)) }));
    void refreshCounts();
  };

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
            <Spin spinning={loading}>
              <PreviewList items={previews[tab.tabType]} onOpen={(index) => openItem(tab.tabType, index)} />
              <div style={{ display: 'flex', justifyContent: 'space-between', borderTop: '1px solid #f0f0f0', paddingTop: 8 }}>
                <Button type="link" size="small" disabled={!hasUnread(tab.tabType)} loading={markingAll} onClick={() => void markAllRead(tab.tabType)}>
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
