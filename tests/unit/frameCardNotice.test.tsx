import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/api/client';
import { consoleStore, sessionAtom } from '../../src/session/session';
import { clearSession } from '../../src/session/storage';
import type { MenuResource } from '../../src/session/types';
import { CardOrderBanner } from '../../src/startup/CardOrderBanner';
import {
  CARD_ORDER_LIST,
  CARD_ORDER_NOTICE,
  canConfirmCardOrders,
  cardOrderPendingAtom,
  resetCardStartupCheck,
} from '../../src/startup/useCardStartupCheck';
import { answerCalls, optionsOf, paramsOf, renderConsole, signIn } from './account/harness';

vi.mock('../../src/api/client', () => ({ api: { call: vi.fn(), upload: vi.fn(), page: vi.fn() } }));

function menu(code: string, buttons: string[]): MenuResource {
  return {
    resourceCode: code,
    parentCode: null,
    resourceName: code,
    resourcePath: code,
    resourceUrl: `/${code}`,
    resourceIcon: '',
    fileUrl: code,
    menuClassificationCode: 'platform',
    isShown: true,
    isCached: false,
    buttonList: buttons.map((url) => ({ resourceCode: url, resourceName: url, resourceUrl: url })),
    children: [],
  };
}

/** The tenant admin: the 卡订单 menu with its 确认 button (schemas/menus.json gives it to TENANT_ADMIN). */
const CONFIRMER = [menu('card/order', ['card.order.export', 'card.order.confirm'])];
/** Repair, patrol, implement and ordinary users: menus, none with the 确认 button. */
const BYSTANDER = [menu('alarm/record', ['alarm.record.handle']), menu('repair', [])];

function signInWith(menus: MenuResource[]): void {
  const session = signIn();
  consoleStore.set(sessionAtom, { ...session, menus });
}

function listHolds(total: number): void {
  vi.mocked(api.page).mockResolvedValue({ records: Array.from({ length: Math.min(total, 1) }, () => ({ code: 'CO0001' })), total, pageNumber: 1, pageSize: 1 });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the 您有待确认的卡订单 notice (issue 21)', () => {
  beforeEach(() => {
    vi.mocked(api.call).mockReset();
    vi.mocked(api.page).mockReset();
    resetCardStartupCheck();
    consoleStore.set(sessionAtom, null);
    consoleStore.set(cardOrderPendingAtom, false);
  });

  it('is only for users holding the 确认 button of card orders', async () => {
    expect(canConfirmCardOrders(CONFIRMER)).toBe(true);
    expect(canConfirmCardOrders(BYSTANDER)).toBe(false);
    signInWith(BYSTANDER);
    answerCalls({ 'card.order.isBulletBox': () => '1' });
    listHolds(1);
    renderConsole(<CardOrderBanner />);
    await settle();
    expect(paramsOf('card.order.isBulletBox')).toHaveLength(0);
    expect(api.page).not.toHaveBeenCalled();
    expect(screen.queryByText(CARD_ORDER_NOTICE)).not.toBeInTheDocument();
  });

  it('shows only when the list it opens holds an order: the same operation and scope as the list', async () => {
    signInWith(CONFIRMER);
    answerCalls({ 'card.order.isBulletBox': () => '1' });
    // The platform's check says "1" for the tenant, but the selected organisation's list is empty.
    listHolds(0);
    renderConsole(<CardOrderBanner />);
    await waitFor(() => expect(api.page).toHaveBeenCalledTimes(1));
    expect(vi.mocked(api.page).mock.calls[0]).toEqual([CARD_ORDER_LIST, { pageNumber: 1, pageSize: 1 }, {}, [], { signal: expect.any(AbortSignal) }]);
    await settle();
    expect(screen.queryByText(CARD_ORDER_NOTICE)).not.toBeInTheDocument();
  });

  it('is one slim line with 去确认, not shown on the card-order list itself', async () => {
    signInWith(CONFIRMER);
    answerCalls({ 'card.order.isBulletBox': () => '1' });
    listHolds(3);
    const { router } = renderConsole(<CardOrderBanner />);
    const notice = await screen.findByTestId('card-order-notice');
    expect(notice).toHaveTextContent(CARD_ORDER_NOTICE);
    expect(notice).toHaveAttribute('role', 'alert');
    // No description: one line, not a two-line banner above the page tabs.
    expect(notice.querySelector('.ant-alert-description')).toBeNull();
    expect(optionsOf('card.order.isBulletBox')).toHaveLength(1);
    await router.navigate('/card/order/user');
    await waitFor(() => expect(screen.queryByTestId('card-order-notice')).not.toBeInTheDocument());
    await router.navigate('/dashboard');
    expect(await screen.findByTestId('card-order-notice')).toBeInTheDocument();
  });

  it('closing it lasts for the session (session storage), and logout forgets that', async () => {
    signInWith(CONFIRMER);
    answerCalls({ 'card.order.isBulletBox': () => '1' });
    listHolds(1);
    const user = userEvent.setup();
    const first = renderConsole(<CardOrderBanner />);
    await screen.findByTestId('card-order-notice');
    await user.click(screen.getByRole('button', { name: '关闭卡订单提醒' }));
    await waitFor(() => expect(screen.queryByTestId('card-order-notice')).not.toBeInTheDocument());
    expect(window.sessionStorage.getItem('cardOrderNoticeDismissed')).toBe('1');

    // A reload of the same session (the check forgotten in memory) asks nothing and shows nothing.
    first.unmount();
    resetCardStartupCheck();
    consoleStore.set(cardOrderPendingAtom, false);
    renderConsole(<CardOrderBanner />);
    await settle();
    expect(paramsOf('card.order.isBulletBox')).toHaveLength(1);
    expect(screen.queryByTestId('card-order-notice')).not.toBeInTheDocument();

    clearSession();
    expect(window.sessionStorage.getItem('cardOrderNoticeDismissed')).toBeNull();
  });

  it('去确认 opens the list and counts as dismissing', async () => {
    signInWith(CONFIRMER);
    answerCalls({ 'card.order.isBulletBox': () => '1' });
    listHolds(1);
    const user = userEvent.setup();
    renderConsole(<CardOrderBanner />);
    await user.click(await screen.findByRole('button', { name: /去确认/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/card/order/user');
    expect(window.sessionStorage.getItem('cardOrderNoticeDismissed')).toBe('1');
  });
});
