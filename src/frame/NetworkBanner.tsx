import { Alert } from 'antd';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { isReachable, subscribeReachability } from '../api/connectivity';
import { notify } from '../api/notifier';

export const NETWORK_LOST_TITLE = '网络连接已断开';
export const NETWORK_LOST_DETAIL = '请检查网络连接。恢复后，加载失败的内容会自动重新加载，已填写的内容不会丢失。';
export const NETWORK_BACK_MESSAGE = '网络已恢复';

/** A banner over the content while the platform cannot be reached, and a note when it is back. */
export function NetworkBanner() {
  const reachable = useSyncExternalStore(subscribeReachability, isReachable, () => true);
  const wasReachable = useRef(reachable);
  useEffect(() => {
    if (reachable && !wasReachable.current) notify.success(NETWORK_BACK_MESSAGE);
    wasReachable.current = reachable;
  }, [reachable]);
  if (reachable) return null;
  return <Alert banner type="error" showIcon message={NETWORK_LOST_TITLE} description={NETWORK_LOST_DETAIL} data-testid="network-banner" />;
}
