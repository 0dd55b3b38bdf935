import { Button, Modal, Space, Typography } from 'antd';
import { useEffect, useEffectEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { SafeHtml } from '../../renderers/displays/displays';
import { consoleFiles } from '../format/fileTicket';
import { FORMATS } from '../format/formats';
import { useOperationMutation } from '../api/data';
import { DAILY_READ_PATH, type UserNotification } from './notifications';

export interface DailyReadModalProps {
  /** The daily-read items the modal steps through (the popover's preview). */
  items: readonly UserNotification[];
  /** The shown item's position in `items`; null closes the modal. */
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  /** Told once the shown item has been marked read on the server. */
  onRead?: (item: UserNotification) => void;
}

/** The daily-read modal (SPEC §2): title, time and the sanitised body, with 上一条 / 下一条 / 去查看. */
export function DailyReadModal({ items, index, onIndexChange, onClose, onRead }: DailyReadModalProps) {
  const navigate = useNavigate();
  const item = index === null ? undefined : items[index];
  const unreadId = item && !item.hasRead ? item.id : null;
  // Marked read in the background: a failure tells nobody (the item is marked when next shown).
  const markRead = useOperationMutation('notification.read', { handlesErrors: true });
  const markShown = useEffectEvent((id: UserNotification['id']) => {
    const shown = items.find((candidate) => candidate.id === id);
    markRead.mutate(
      { id },
      {
        onSuccess: () => {
          if (shown) onRead?.({ ...shown, hasRead: true });
        },
      },
    );
  });
  // The shown item is marked read once, whenever an unread one comes into view.
  useEffect(() => {
    if (unreadId !== null) markShown(unreadId);
  }, [unreadId]);

  const position = index ?? 0;
  const goView = () => {
    onClose();
    navigate(DAILY_READ_PATH);
  };

  return (
    <Modal
      open={Boolean(item)}
      title={item?.notificationTitle}
      onCancel={onClose}
      width={640}
      destroyOnHidden
      footer={
        <Space>
          <Button disabled={position <= 0} onClick={() => onIndexChange(position - 1)}>
            上一条
          </Button>
          <Button disabled={position >= items.length - 1} onClick={() => onIndexChange(position + 1)}>
            下一条
          </Button>
          <Button type="primary" onClick={goView}>
            去查看
          </Button>
        </Space>
      }
    >
      {item && (
        <div data-testid="daily-read-body">
          <Typography.Text type="secondary">{FORMATS.datetime(item.notificationDateTime)}</Typography.Text>
          <div style={{ marginTop: 12, maxHeight: '60vh', overflow: 'auto' }}>
            <SafeHtml html={item.notificationDescription ?? ''} files={consoleFiles} />
          </div>
        </div>
      )}
    </Modal>
  );
}
