import { BellOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { deferredPart } from './deferredPart';

/** The bell as it looks before its counts and popover have loaded (reaching for it loads them). */
function BellPlaceholder({ onActivate }: { onActivate: () => void }) {
  return <Button type="text" icon={<BellOutlined aria-hidden />} aria-label="消息通知" onPointerEnter={onActivate} onFocus={onActivate} onClick={onActivate} />;
}

/**
 * The top bar's bell (src/notifications/NotificationPopover.tsx: the unread counts, the latest
 * messages, the daily-read modal), loaded after the page's first paint: its popover, list and
 * modal were in every page's first paint (issue 35), and its counts come from a call of their own.
 */
export const NotificationBell = deferredPart(async () => (await import('../notifications/NotificationPopover')).NotificationPopover, BellPlaceholder, '消息通知');
