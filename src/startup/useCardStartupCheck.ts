import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { api } from '../api/client';
import { sessionAtom } from '../session/session';
import { readSession } from '../session/storage';

/** SPEC §4 "Card startup check": the answer that means a card order awaits confirmation. */
export const CARD_ORDER_AWAITING = '1';
export const CARD_ORDER_NOTICE = '您有待确认的卡订单';
export const CARD_ORDER_PATH = '/card/order/user';

/** The session (by access token) already checked: once per session, whatever remounts. */
let checkedSession: string | null = null;

/** Forgets the check (tests; a new login checks again anyway because its token differs). */
export function resetCardStartupCheck(): void {
  checkedSession = null;
}

/** Whether the tenant has a card order awaiting confirmation (set by the start-up check). */
export const cardOrderPendingAtom = atom(false);

/**
 * Once per session after init, asks `card.order.isBulletBox` (silently); "1" sets
 * `cardOrderPendingAtom`, which the frame shows as a banner linking to the card orders awaiting
 * confirmation (a banner, not a floating notice: that would cover the user menu or a drawer).
 */
export function useCardStartupCheck(): void {
  const session = useAtomValue(sessionAtom);
  const setPending = useSetAtom(cardOrderPendingAtom);

  useEffect(() => {
    if (!session) return;
    const token = readSession('accessToken') ?? '';
    if (checkedSession === token) return;
    checkedSession = token;
    api.call<string | number | null>('card.order.isBulletBox', {}, { silent: true }).then(
      (answer) => setPending(String(answer ?? '') === CARD_ORDER_AWAITING),
      () => undefined,
    );
  }, [session, setPending]);
}
