import { atom, useAtom, useAtomValue } from 'jotai';
import { expectedOr } from '../../renderers/runtime/errorReporter';
import { fetchOperation, fetchPage, useCombinedReading } from '../api/data';
import type { PageName } from '../api/typed';
import { holdsButton } from '../frame/navigation';
import { sessionAtom } from '../session/session';
import { readSession, readSessionNote, writeSessionNote } from '../session/storage';
import type { MenuResource } from '../session/types';

/** SPEC §4 "Card startup check": the answer that means a card order awaits confirmation. */
export const CARD_ORDER_AWAITING = '1';
export const CARD_ORDER_NOTICE = '您有待确认的卡订单';
export const CARD_ORDER_PATH = '/card/order/user';
/** The button that confirms a card order: only those holding it are told that one waits. */
export const CARD_ORDER_CONFIRM = 'card.order.confirm';
/** The list the notice links to: the check counts what it shows, in its scope. */
export const CARD_ORDER_LIST = 'card.order.user.page' satisfies PageName;

/** The session (by access token) already checked: once per session, whatever remounts. */
let checkedSession: string | null = null;

/** Forgets the check (tests; a new login checks again anyway because its token differs). */
export function resetCardStartupCheck(): void {
  checkedSession = null;
}

/** Whether a card order awaits the confirmation of this user (set by the start-up check). */
export const cardOrderPendingAtom = atom(false);

/** Whether the session's menus let the user confirm a card order (the notice is for them alone). */
export function canConfirmCardOrders(menus: readonly MenuResource[]): boolean {
  return holdsButton(menus, CARD_ORDER_CONFIRM);
}

export function cardOrderNoticeDismissed(): boolean {
  return readSessionNote('cardOrderNoticeDismissed') === '1';
}

/** Closing the notice lasts for the session (session storage; a new login asks again). */
export function dismissCardOrderNotice(): void {
  writeSessionNote('cardOrderNoticeDismissed', '1');
}

/**
 * Once per session after init, for a user who may confirm card orders and has not closed the
 * notice: asks `card.order.isBulletBox` (quietly, SPEC §4, through the console's cache) and, on "1", reads the first row of
 * the list the notice opens (`card.order.user.page`, the selected organisation and below). The
 * reference server's check counts that same scope; another platform's may count the caller's whole
 * tenant and say "1" while the list shows nothing. Only a row of that list sets the notice. The
 * reading is a query of the console's data layer (src/api/data.ts), keyed by the session's token:
 * a remount or a session update reads nothing again, a new login reads again. Answers whether
 * the notice shows.
 */
export function useCardStartupCheck(): boolean {
  const session = useAtomValue(sessionAtom);
  const [pending, setPending] = useAtom(cardOrderPendingAtom);
  const token = readSession('accessToken') ?? '';
  const eligible = session !== null && canConfirmCardOrders(session.menus) && !cardOrderNoticeDismissed();

  useCombinedReading(
    ['cardOrderAwaiting', token],
    async () => {
      checkedSession = token;
      // Quiet (SPEC §4): a failed check tells nobody and shows no notice; "301" still ends the session.
      const awaiting = await awaitingConfirmation().catch(expectedOr(false, '卡订单提醒'));
      setPending(awaiting);
      return awaiting;
    },
    { enabled: eligible && checkedSession !== token },
  );
  // Another user signed in on this tab, or the notice closed: nothing of the last check shows.
  return eligible && pending;
}

/** Whether a card order of the list the notice opens awaits confirmation (the check, then the list's first row). */
async function awaitingConfirmation(): Promise<boolean> {
  const answer = await fetchOperation('card.order.isBulletBox', {}, { handlesErrors: true });
  if (String(answer ?? '') !== CARD_ORDER_AWAITING) return false;
  const waiting = await fetchPage(CARD_ORDER_LIST, { param: {}, pageNumber: 1, pageSize: 1, sort: [] }, { handlesErrors: true });
  return waiting.total > 0 || waiting.records.length > 0;
}
