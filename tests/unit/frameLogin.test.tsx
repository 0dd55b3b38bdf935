import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { Provider as StoreProvider } from 'jotai';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/api/client';
import { ApiError } from '../../src/api/http';
import { setNotifier } from '../../src/api/notifier';
import LoginPage from '../../src/screens/public/LoginPage';
import {
  attemptsWarning,
  countWrongPassword,
  LOCK_MINUTES,
  LOCKED_HELP,
  LOGIN_ATTEMPTS_BEFORE_LOCK,
  loginFeedback,
  wrongPasswords,
} from '../../src/screens/public/loginAttempts';
import { consoleStore } from '../../src/session/session';
import { clearSession } from '../../src/session/storage';

vi.mock('../../src/api/client', () => ({ api: { call: vi.fn(), upload: vi.fn(), page: vi.fn(), resetSessionLatch: vi.fn() } }));

const WRONG = '用户名或密码错误';
const LOCKED = '登录失败次数过多，请 15 分钟后再试';

describe('the sign-in messages (issue 21)', () => {
  it('mirror the platform lock: 5 wrong passwords in 15 minutes', () => {
    expect(LOGIN_ATTEMPTS_BEFORE_LOCK).toBe(5);
    expect(LOCK_MINUTES).toBe(15);
  });

  it('say how many attempts remain from the second wrong password, and warn before the last', () => {
    expect(attemptsWarning(1)).toBeNull();
    expect(attemptsWarning(2)).toBe('还可尝试 3 次，连续输错 5 次账号将被锁定 15 分钟。');
    expect(attemptsWarning(3)).toBe('还可尝试 2 次，连续输错 5 次账号将被锁定 15 分钟。');
    expect(attemptsWarning(4)).toBe('再输错 1 次，该账号将被锁定 15 分钟，请确认密码后再试。');
    expect(attemptsWarning(5)).toBeNull();
  });

  it('turn a refusal into the inline feedback', () => {
    expect(loginFeedback({ code: '401', message: WRONG }, 1)).toEqual({ type: 'error', message: WRONG, locked: false });
    expect(loginFeedback({ code: '401', message: WRONG }, 4)).toEqual({ type: 'warning', message: WRONG, description: '再输错 1 次，该账号将被锁定 15 分钟，请确认密码后再试。', locked: false });
    expect(loginFeedback({ code: '429', message: LOCKED }, 5)).toEqual({ type: 'error', message: LOCKED, description: LOCKED_HELP, locked: true });
    expect(LOCKED_HELP).toBe('为保护账号安全，该账号的登录已暂停。请稍后再试，或通过“忘记密码”重设密码后立即登录。');
    expect(loginFeedback({ code: '403', message: '账号已停用' }, 0)).toEqual({ type: 'error', message: '账号已停用', locked: false });
    expect(loginFeedback({ code: null, message: '' }, 0).message).toBe('系统错误，请联系管理员');
  });

  it('count wrong passwords per login name for the session, forgotten after the lock window', () => {
    const start = Date.UTC(2026, 0, 1);
    expect(countWrongPassword('tadmin', start)).toBe(1);
    expect(countWrongPassword('tadmin', start + 1000)).toBe(2);
    expect(countWrongPassword('tuser', start)).toBe(1);
    expect(wrongPasswords('tadmin', start + 2000)).toBe(2);
    expect(wrongPasswords('tadmin', start + 1000 + LOCK_MINUTES * 60_000)).toBe(0);
    expect(countWrongPassword('tadmin', start + 1000 + LOCK_MINUTES * 60_000)).toBe(1);
    clearSession();
    expect(wrongPasswords('tadmin', start)).toBe(0);
  });
});

function renderLogin() {
  const router = createMemoryRouter([{ path: '/login', element: <LoginPage /> }], { initialEntries: ['/login'] });
  return render(
    <StoreProvider store={consoleStore}>
      <ConfigProvider locale={zhCN}>
        <RouterProvider router={router} />
      </ConfigProvider>
    </StoreProvider>,
  );
}

describe('/login', () => {
  beforeEach(() => {
    vi.mocked(api.call).mockReset();
  });

  it('opens with the focus on the account field; the sign-in choice is labelled', async () => {
    renderLogin();
    const account = await screen.findByRole('textbox', { name: '账号' });
    await waitFor(() => expect(account).toHaveFocus());
    expect(screen.getByRole('radiogroup', { name: '登录方式' })).toBeInTheDocument();
  });

  it('warns before the last attempt and keeps the lock message on the page', async () => {
    const notes = { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() };
    setNotifier(notes);
    let failures = 0;
    vi.mocked(api.call).mockImplementation(async (operation: string) => {
      if (operation !== 'auth.login') throw new Error(`unexpected call ${operation}`);
      failures += 1;
      // As the platform answers: the 5th wrong password is itself answered with the lock.
      throw failures <= 4 ? new ApiError('business', '401', WRONG) : new ApiError('business', '429', LOCKED);
    });
    const user = userEvent.setup();
    renderLogin();
    await user.type(await screen.findByRole('textbox', { name: '账号' }), 'tadmin');
    await user.type(screen.getByLabelText('密码'), 'Wrong@2026');
    const submit = screen.getByRole('button', { name: /登\s*录/ });

    await user.click(submit);
    expect(await screen.findByTestId('login-refused')).toHaveTextContent(WRONG);
    for (let attempt = 2; attempt <= 4; attempt += 1) {
      await user.click(submit);
      await waitFor(() => expect(vi.mocked(api.call)).toHaveBeenCalledTimes(attempt));
    }
    await waitFor(() => expect(screen.getByTestId('login-refused')).toHaveTextContent('再输错 1 次，该账号将被锁定 15 分钟'));
    // Nobody else tells the refusal (the sign-in call is made outside the cache, untold): the page says it, and it stays.
    expect(notes.error).not.toHaveBeenCalled();

    await user.click(submit);
    const locked = await screen.findByTestId('login-locked');
    expect(locked).toHaveTextContent(LOCKED);
    expect(locked).toHaveTextContent(LOCKED_HELP);
    expect(locked).toHaveAttribute('role', 'alert');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.getByTestId('login-locked')).toBeInTheDocument();
  });
});
