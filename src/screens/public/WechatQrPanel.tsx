import { Button, QRCode, Space, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { TokenPair } from '../../session/types';
import { expectedFailures } from '../../../renderers/runtime/errorReporter';

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

/** A WeChat QR code from `auth/ticket/_get`, polled until scanned or expired. */
export function WechatQrPanel({ onBound, onUnbound, onTicket, hint }: Props) {
  const [ticket, setTicket] = useState<Ticket | null>(null);
  const [state, setState] = useState<'loading' | 'active' | 'expired' | 'error'>('loading');

  const fetchTicket = useCallback(() => {
    api
      .call<Ticket>('auth.ticket')
      .then((next) => {
        setTicket(next);
        setState('active');
        onTicket?.(next.ticket);
      })
      .catch((error: unknown) => {
        expectedFailures('微信扫码')(error);
        setState('error');
      });
  }, [onTicket]);

  const refresh = () => {
    setState('loading');
    fetchTicket();
  };

  useEffect(() => {
    fetchTicket();
  }, [fetchTicket]);

  useEffect(() => {
    if (state !== 'active' || !ticket || !onBound) return;
    const timer = setInterval(() => {
      api
        .call<ScanResult>('auth.wechat.login', { ticket: ticket.ticket }, { silent: true })
        .then((result) => {
          if (result.status === 'expired') setState('expired');
          else if (result.status === 'bound') {
            clearInterval(timer);
            onBound(result);
          } else if (result.status === 'unbound') {
            clearInterval(timer);
            onUnbound?.(result.bindKey);
          }
        })
        .catch(expectedFailures('微信扫码'));
    }, WECHAT_POLL_MS);
    return () => clearInterval(timer);
  }, [state, ticket, onBound, onUnbound]);

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
