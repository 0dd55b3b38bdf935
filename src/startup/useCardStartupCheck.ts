import { App, Button } from 'antd';
import { useAtomValue } from 'jotai';
import { createElement, useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { api } from '../api/client';
import { sessionAtom } from '../session/session';
import { readSession } from '../session/storage';

/** SPEC §4 "Card startup check": the answer that means a card order awaits confirmation. */
export const CARD_ORDER_AWAITING = '1';
export const CARD_ORDER_NOTICE = '您有待确认的卡订单';
export const CARD_ORDER_PATH = '/card/order/user';
const NOTICE_KEY = 'card-order-awaiting';

/** The session (by access token) already checked: once per session, whatever remounts. */
let checkedSession: string | null = null;

/** Forgets the check (tests; a new login checks again anyway because its token differs). */
export function resetCardStartupCheck(): void {
  checkedSession = null;
}

/**
 * Once per session after init, asks `card.order.isBulletBox` (silently); "1" shows a notice that
 * links to the card orders awaiting confirmation. Call it inside the main frame.
 */
export function useCardStartupCheck(): void {
  const session = useAtomValue(sessionAtom);
  const { notification } = App.useApp();
  const navigate = useNavigate();

  useEffect(() => {
    if (!session) return;
    const token = readSession('accessToken') ?? '';
    if (checkedSession === token) return;
    checkedSession = token;
    api.call<string | number | null>('card.order.isBulletBox', {}, { silent: true }).then(
      (answer) => {
        if (String(answer ?? '') !== CARD_ORDER_AWAITING) return;
        notification.warning({
          key: NOTICE_KEY,
          message: CARD_ORDER_NOTICE,
          description: '请前往“待确认卡订单”页面确认。',
          duration: 0,
          placement: 'topRight',
          actions: createElement(
            Button,
            {
              type: 'primary',
              size: 'small',
              onClick: () => {
                notification.destroy(NOTICE_KEY);
                navigate(CARD_ORDER_PATH);
              },
            },
            '去确认',
          ),
        });
      },
      () => undefined,
    );
  }, [session, notification, navigate]);
}
