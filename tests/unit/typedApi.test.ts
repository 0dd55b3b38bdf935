// Issue 23: the console's calls typed by the operations' contracts (src/api/typed.ts over the
// generated src/api/contracts.gen.ts). The @ts-expect-error lines are the proof that `tsc` refuses a
// wrong param name, a missing param and a wrong kind: were the calls untyped, tsc would fail on them.
import { describe, expect, it, vi } from 'vitest';
import type { HttpClient } from '../../src/api/http';
import { typedClient, type DataOf, type ParamOf, type RecordOf } from '../../src/api/typed';
import type { MenuResource } from '../../src/session/types';

function fakeClient() {
  const call = vi.fn(async () => null as never);
  const page = vi.fn(async () => ({ records: [], total: 0, pageNumber: 1, pageSize: 10 }) as never);
  return { call, page } satisfies Pick<HttpClient, 'call' | 'page'>;
}

describe('typedApi', () => {
  it('passes each call through as given, to the client of the moment', async () => {
    const client = fakeClient();
    const typed = typedClient(() => client);
    await typed.call('user.password.update', { oldPassWord: 'a', updatePassWord: 'b' });
    await typed.call('auth.logout');
    await typed.page('device.page', { pageNumber: 1, pageSize: 10 }, { keyword: 'x' }, [{ field: 'createTime', order: 'desc' }]);
    expect(client.call.mock.calls).toEqual([['user.password.update', { oldPassWord: 'a', updatePassWord: 'b' }], ['auth.logout']]);
    expect(client.page.mock.calls).toEqual([['device.page', { pageNumber: 1, pageSize: 10 }, { keyword: 'x' }, [{ field: 'createTime', order: 'desc' }]]]);
  });

  it('refuses at compile time what the operation does not take', () => {
    const typed = typedClient(() => fakeClient());
    const never = () => {
      // @ts-expect-error oldPassword is not a param of user.password.update (oldPassWord is)
      void typed.call('user.password.update', { oldPassword: 'a', updatePassWord: 'b' });
      // @ts-expect-error updatePassWord is required
      void typed.call('user.password.update', { oldPassWord: 'a' });
      // @ts-expect-error a page operation is not called with call
      void typed.call('device.page', {});
      // @ts-expect-error onlineState takes online, offline or inactive
      void typed.page('device.page', { pageNumber: 1, pageSize: 10 }, { onlineState: 'sleeping' });
      // @ts-expect-error not a catalogued operation
      void typed.call('device.pgae', {});
    };
    expect(typeof never).toBe('function');
  });

  it('types answers by the contract: the menu is the server\'s MenuResource', () => {
    const menus: DataOf<'resource.menu.list'> = [];
    const same: MenuResource[] = menus;
    const row = {} as RecordOf<'device.page'>;
    const code: string = row.code;
    const param: ParamOf<'auth.login'> = { loginName: 'a', password: 'b' };
    expect([same, code, param]).toBeDefined();
  });
});
