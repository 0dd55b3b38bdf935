import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../src/api/client';
import { ApiError } from '../../../src/api/http';
import { consoleStore, sessionAtom } from '../../../src/session/session';
import { CardOrderBanner } from '../../../src/startup/CardOrderBanner';
import { CARD_ORDER_NOTICE, cardOrderPendingAtom, resetCardStartupCheck } from '../../../src/startup/useCardStartupCheck';
import type { Session } from '../../../src/session/session';
import type { MenuResource } from '../../../src/session/types';
import { answerCalls, optionsOf, paramsOf, renderConsole, signIn as signInWithoutMenus } from '../account/harness';

vi.mock('../../../src/api/client', () => ({ api: { call: vi.fn(), upload: vi.fn(), page: vi.fn() } }));

/** A menu holding the button that confirms card orders: the notice is for those who may confirm. */
const CONFIRMING_MENU: MenuResource = {
  resourceCode: 'iotCard.order',
  parentCode: null,
  resourceName: '卡订单',
  resourcePath: 'iotCard.order',
  resourceUrl: '/card/order',
  resourceIcon: '',
  fileUrl: 'card/order',
  menuClassificationCode: 'platform',
  isShown: true,
  isCached: false,
  buttonList: [{ resourceCode: 'iotCard.order.confirm', resourceName: '确认', resourceUrl: 'card.order.confirm' }],
  children: [],
};

/** Signs in a user who may confirm card orders; the list the notice opens holds one order. */
function signIn(): Session {
  const session = signInWithoutMenus();
  const confirming = { ...session, menus: [CONFIRMING_MENU] };
  consoleStore.set(sessionAtom, confirming);
  vi.mocked(api.page).mockResolvedValue({ records: [{ code: 'CO0001' }], total: 1, pageNumber: 1, pageSize: 1 });
  return confirming;
}

function Frame() {
  return (
    <>
      <CardOrderBanner />
      <span>主框架</span>
    </>
  );
}

describe('card startup check', () => {
  beforeEach(() => {
    vi.mocked(api.call).mockReset();
    vi.mocked(api.page).mockReset();
    resetCardStartupCheck();
    consoleStore.set(sessionAtom, null);
    consoleStore.set(cardOrderPendingAtom, false);
  });

  it('answer "1" shows the notice, whose button goes to /card/order/user', async () => {
    signIn();
    answerCalls({ 'card.order.isBulletBox': () => '1' });
    const user = userEvent.setup();
    renderConsole(<Frame />);
    expect(await screen.findByText(CARD_ORDER_NOTICE)).toBeInTheDocument();
    expect(CARD_ORDER_NOTICE).toBe('您有待确认的卡订单');
    expect(paramsOf('card.order.isBulletBox')).toEqual([{}]);
    expect(optionsOf('card.order.isBulletBox')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: /去确认/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/card/order/user');
  });

  it('any other answer shows nothing', async () => {
    signIn();
    answerCalls({ 'card.order.isBulletBox': () => '0' });
    renderConsole(<Frame />);
    await waitFor(() => expect(paramsOf('card.order.isBulletBox')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(CARD_ORDER_NOTICE)).not.toBeInTheDocument();
  });

  it('runs once per session: not before init, not again on remount or session updates, again after a new login', async () => {
    answerCalls({ 'card.order.isBulletBox': () => '0' });
    const first = renderConsole(<Frame />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(paramsOf('card.order.isBulletBox')).toHaveLength(0);

    const session = signIn();
    await waitFor(() => expect(paramsOf('card.order.isBulletBox')).toHaveLength(1));
    act(() => consoleStore.set(sessionAtom, { ...session, user: { ...session.user, userName: '新名字' } }));
    first.unmount();
    renderConsole(<Frame />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(paramsOf('card.order.isBulletBox')).toHaveLength(1);

    act(() => {
      window.sessionStorage.setItem('accessToken', 'token-2');
      consoleStore.set(sessionAtom, { ...session });
    });
    await waitFor(() => expect(paramsOf('card.order.isBulletBox')).toHaveLength(2));
  });

  it('a failing check stays silent', async () => {
    signIn();
    vi.mocked(api.call).mockRejectedValue(new ApiError('network', null, '系统错误，请联系管理员'));
    const { notes } = renderConsole(<Frame />);
    await waitFor(() => expect(paramsOf('card.order.isBulletBox')).toHaveLength(1));
    expect(screen.queryByText(CARD_ORDER_NOTICE)).not.toBeInTheDocument();
    // Quiet (SPEC §4): the failed check tells nobody.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(notes.error).not.toHaveBeenCalled();
  });
});
