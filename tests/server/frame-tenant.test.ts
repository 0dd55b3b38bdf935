import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const keyOf = async (loginName: string, password?: string) => server.call<string>('openApi.key.get', {}, { token: await server.login(loginName, password) });

describe('openApi.key.get', () => {
  it('makes the tenant\'s key on first request and answers the same one after', async () => {
    const first = await keyOf('tadmin');
    expect(first.code).toBe('200');
    expect(first.data).toMatch(/^ak_[0-9a-f]{32}$/);
    expect((await keyOf('tadmin')).data).toBe(first.data);
    const [row] = await server.db.query<{ tenant_code: string; access_key: string }>('SELECT tenant_code, access_key FROM tenant_access_key');
    expect(row).toEqual({ tenant_code: 'T0001', access_key: first.data });
  });

  it('gives an ordinary user of the same tenant the same key (tuser works in a project of T0001)', async () => {
    expect((await keyOf('tuser')).data).toBe((await keyOf('tadmin')).data);
  });

  it('gives another tenant its own key', async () => {
    const theirs = await keyOf('badmin');
    expect(theirs.data).toMatch(/^ak_[0-9a-f]{32}$/);
    expect(theirs.data).not.toBe((await keyOf('tadmin')).data);
  });

  it('refuses every other role with "403"', async () => {
    for (const loginName of ['repair', 'patrol', 'implement', 'operator']) {
      expect(await keyOf(loginName), loginName).toEqual({ code: '403', message: '无权限访问', data: null });
    }
    expect((await keyOf('admin', ADMIN_PASSWORD)).code).toBe('403');
  });

  it('needs a session and takes no parameters', async () => {
    expect((await server.call('openApi.key.get', {})).code).toBe('301');
    expect((await server.call('openApi.key.get', { tenantCode: 'T0002' }, { token: await server.login('tadmin') })).code).toBe('400');
  });

  it('answers at once for two first requests together', async () => {
    await server.db.query('DELETE FROM tenant_access_key');
    const [a, b] = await Promise.all([keyOf('tadmin'), keyOf('tuser')]);
    expect(a.data).toBe(b.data);
  });
});

describe('card.order.isBulletBox', () => {
  const check = async (loginName: string, password?: string) => server.call<string>('card.order.isBulletBox', {}, { token: await server.login(loginName, password) });

  it('answers "1" to the staff of a tenant with a card order awaiting confirmation', async () => {
    for (const loginName of ['tadmin', 'tuser', 'repair']) expect(await check(loginName), loginName).toEqual({ code: '200', message: '成功', data: '1' });
  });

  it('answers what /card/order/user lists for the caller: "0" where that list is empty', async () => {
    for (const loginName of ['tadmin', 'tuser', 'repair', 'implement']) {
      const token = await server.login(loginName);
      const listed = await server.call<{ total: number }>('card.order.user.page', {}, { token });
      const flag = await server.call<string>('card.order.isBulletBox', {}, { token });
      expect(flag.data, loginName).toBe(listed.data!.total > 0 ? '1' : '0');
    }
    // implement works in a department of T0001 where no order waits (the notice pointed at an empty list).
    expect((await check('implement')).data).toBe('0');
  });

  it('answers "0" to another tenant and to platform staff', async () => {
    expect((await check('badmin')).data).toBe('0');
    expect((await check('admin', ADMIN_PASSWORD)).data).toBe('0');
  });

  it('looks at the state: a confirmed order asks nothing', async () => {
    await server.db.query(`INSERT INTO card_order (code, tenant_code, state, card_count) VALUES ('CO-T2-1', 'T0002', 'confirmed', 10)`);
    expect((await check('badmin')).data).toBe('0');
    await server.db.query(`UPDATE card_order SET state = 'confirmed' WHERE tenant_code = 'T0001'`);
    expect((await check('tadmin')).data).toBe('0');
  });

  it('needs a session', async () => {
    expect((await server.call('card.order.isBulletBox', {})).code).toBe('301');
  });
});
