import { render } from '@testing-library/react';
import { App as AntdApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { Provider as StoreProvider } from 'jotai';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { consoleQueries } from '../../../src/api/cache';
import { api } from '../../../src/api/client';
import { ApiError } from '../../../src/api/http';
import { setNotifier } from '../../../src/api/notifier';
import { consoleStore, sessionAtom, type Session } from '../../../src/session/session';
import type { UserInfo } from '../../../src/session/types';

/**
 * Shared by the account, notification and start-up tests. Each test file mocks the http client
 * itself (vi.mock is per file):
 *   vi.mock('../../../src/api/client', () => ({ api: { call: vi.fn(), upload: vi.fn() } }));
 */

export type Handler = (param: unknown) => unknown;

/** Answers `api.call` by operation name; an operation without a handler fails the test loudly. */
export function answerCalls(handlers: Record<string, Handler>): void {
  vi.mocked(api.call).mockImplementation(async (operation: string, param?: unknown) => {
    const handler = handlers[operation];
    if (!handler) throw new Error(`unexpected call ${operation}`);
    return (await handler(param)) as never;
  });
}

/** A rejection as the http client makes it (it tells nobody: the console's cache or `told` does). */
export function refusal(message = '操作过于频繁，请稍后再试', code = '429'): never {
  throw new ApiError('business', code, message);
}

/** The params every call of `operation` was made with, in order. */
export function paramsOf(operation: string): unknown[] {
  return vi.mocked(api.call).mock.calls.filter(([name]) => name === operation).map(([, param]) => param);
}

/** The options (e.g. silent) of every call of `operation`. */
export function optionsOf(operation: string): unknown[] {
  return vi.mocked(api.call).mock.calls.filter(([name]) => name === operation).map(([, , options]) => options);
}

export function userInfo(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    loginUserCode: 'U0001',
    loginUserId: 1,
    loginUserName: 'zhangwei',
    mail: 'zhangwei@example.com',
    orgCodeList: ['T0001'],
    phoneNumber: '13812345678',
    roleList: ['TENANT_ADMIN'],
    userName: '张伟',
    needModifyPassword: false,
    ...overrides,
  };
}

export function signIn(user: UserInfo = userInfo()): Session {
  const session: Session = { user, menus: [], dictionaries: {}, organizations: [] };
  consoleStore.set(sessionAtom, session);
  window.sessionStorage.setItem('accessToken', 'token-1');
  return session;
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

export interface Notes {
  success: ReturnType<typeof vi.fn<(text: string) => void>>;
  error: ReturnType<typeof vi.fn<(text: string) => void>>;
  warning: ReturnType<typeof vi.fn<(text: string) => void>>;
  info: ReturnType<typeof vi.fn<(text: string) => void>>;
}

/**
 * Renders inside the console's store, antd's App (zh-CN) and a memory router; records notices.
 * The console's cache starts empty: no answer of an earlier test is shown.
 */
export function renderConsole(ui: ReactNode, { path = '/dashboard' }: { path?: string } = {}) {
  consoleQueries.clear();
  const notes: Notes = { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() };
  setNotifier(notes);
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            {ui}
            <LocationProbe />
          </>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <StoreProvider store={consoleStore}>
      <ConfigProvider locale={zhCN}>
        <AntdApp>
          <RouterProvider router={router} />
        </AntdApp>
      </ConfigProvider>
    </StoreProvider>,
  );
  return { ...view, router, notes };
}
