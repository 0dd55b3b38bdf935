import { Button, QRCode, Space, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useOperationQuery } from '../../api/data';
import type { TokenPair } from '../../session/types';

/** How often the console asks whether the QR code has been scanned. */
export const WECHAT_POLL_MS = 2000;

interface Ticket {
  ticket: string;
  qrContent: string;
  expiresIn: number;
}

type ScanResult =
  | { status: 'pending' }
  | { status: 'expired' }
  | ({ status: 'bound' } & TokenPair)
  | { status: 'unbound'; bindKey: string };

interface Props {
  /** Poll for the scan result (login); without it the panel only shows the code (reset password). */
  onBound?: (tokens: TokenPair) => void;
  onUnbound?: (bindKey: string) => void;
  onTicket?: (ticket: string) => void;
  hint: string;
}

/**
 * A WeChat QR code from `auth/ticket/_get` (a new one for each panel and each 刷新; a failure is
 * told and the panel offers 刷新二维码), then `auth.wechat.login` polled every WECHAT_POLL_MS
 * (TanStack's refetchInterval, quietly: a failed poll is tried again at the next) until the code
 * is scanned or expires.
 */
export function WechatQrPanel({ onBound, onUnbound, onTicket, hint }: Props) {
  const issued = useOperationQuery('auth.ticket', {}, { fresh: true });
  const ticket: Ticket | null = issued.loading ? null : (issued.data ?? null);
  const current = issued.fetching ? null : ticket;
  // Polled while the code waits to be scanned; an answer other than pending ends the polling.
  const scan = useOperationQuery(
    'auth.wechat.login',
    { ticket: current?.ticket ?? '' },
    { enabled: current !== null && onBound !== undefined, refetchInterval: (answer) => (answer === undefined || answer.status === 'pending' ? WECHAT_POLL_MS : false), handlesErrors: true, fresh: true },
  );
  const result = current ? (scan.data as ScanResult | undefined) : undefined;
  const state: 'loading' | 'active' | 'expired' | 'error' = issued.error ? 'error' : !current ? 'loading' : result?.status === 'expired' ? 'expired' : 'active';

  const shownTicket = current?.ticket;
  useEffect(() => {
    if (shownTicket) onTicket?.(shownTicket);
  }, [shownTicket, onTicket]);

  // A bound or unbound code is announced once.
  const announced = useRef<string | null>(null);
  useEffect(() => {
    if (!result || !shownTicket || announced.current === shownTicket) return;
    if (result.status === 'bound') {
      announced.current = shownTicket;
      onBound?.(result);
    } else if (result.status === 'unbound') {
      announced.current = shownTicket;
      onUnbound?.(result.bindKey);
    }
  }, [result, shownTicket, onBound, onUnbound]);

  const refresh = issued.reload;

  return (
    <Space direction="vertical" align="center" style={{ width: '100%' }}>
      <QRCode
        value={ticket?.qrContent ?? '-'}
        status={state === 'loading' ? 'loading' : state === 'active' ? 'active' : 'expired'}
        onRefresh={refresh}
        size={180}
      />
      <Typography.Text type="secondary" data-testid="wechat-ticket" data-ticket={ticket?.ticket ?? ''}>
        {state === 'expired' ? '二维码已过期，请点击刷新' : state === 'error' ? '二维码获取失败，请点击刷新' : hint}
      </Typography.Text>
      {state === 'error' && <Button onClick={refresh}>刷新二维码</Button>}
    </Space>
  );
}
