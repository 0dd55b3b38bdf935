import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';

interface UserRecord {
  id: number;
  loginName: string;
  userName: string;
  organizationCode: string;
  roleCode: string;
  status: string;
}
interface Page<T> {
  records: T[];
  total: number;
}

let server: TestServer;
let tadmin: string;
let badmin: string;
let operator: string;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin, operator, admin] = await Promise.all([
    server.login('tadmin'),
    server.login('badmin'),
    server.login('operator'),
    server.login('admin', ADMIN_PASSWORD),
  ]);
});
afterAll(() => server.close());

async function page<T>(name: string, token: string, param: unknown = {}, sortParamList: unknown[] = [], pageSize = 100) {
  const { status, body } = await server.post(catalogue[name].path, { pageParam: { pageNumber: 1, pageSize }, param, sortParamList }, { token });
  expect(status).toBe(200);
  return body as { code: string; message: string; data: Page<T> };
}

async function userId(loginName: string): Promise<number> {
  const reply = await page<UserRecord>('system.user.page', admin, { keyword: loginName });
  const user = reply.data.records.find((r) => r.loginName === loginName);
  if (!user) throw new Error(`no user ${loginName}`);
  return user.id;
}

const newUser = (overrides: Record<string, unknown> = {}) => ({
  loginName: 'wanglei',
  userName: '王磊',
  phoneNumber: '13700000099',
  mail: 'wanglei@example.com',
  organizationCode: 'T0001P01',
  roleCode: 'ROLE_TENANT_REPAIR',
  status: '1',
  ...overrides,
});

describe('system users', () => {
  it('lists only the users of the working organisations, filtered and sorted', async () => {
    const all = await page<UserRecord>('system.user.page', tadmin, {}, [{ field: 'loginName', order: 'asc' }]);
    expect(all.code).toBe('200');
    const names = all.data.records.map((r) => r.loginName);
    expect(names).toContain('tadmin');
    expect(names).toContain('hz01');
    expect(names).not.toContain('badmin');
    expect(names).not.toContain('sz01');
    expect(names).toEqual([...names].sort());
    const repairers = await page<UserRecord>('system.user.page', tadmin, { roleCode: 'ROLE_TENANT_REPAIR' });
    expect(repairers.data.records.every((r) => r.roleCode === 'ROLE_TENANT_REPAIR')).toBe(true);
    const narrowed = await server.post(catalogue['system.user.page'].path, { pageParam: { pageNumber: 1, pageSize: 100 }, param: {} }, { token: tadmin, orgCode: 'T0001P01' });
    expect((narrowed.body.data as Page<UserRecord>).total).toBeLessThan(all.data.total);
  });

  it('refuses another tenant by orgCode header and by id', async () => {
    const foreign = await server.post(catalogue['system.user.page'].path, { pageParam: { pageNumber: 1, pageSize: 10 }, param: {} }, { token: tadmin, orgCode: 'T0002' });
    expect(foreign.body.code).toBe('403');
    const bId = await userId('badmin');
    expect((await server.call('system.user.detail', { id: bId }, { token: tadmin })).code).toBe('404');
    expect((await server.call('system.user.changeStatus', { id: bId, status: '0' }, { token: tadmin })).code).toBe('404');
    expect((await server.call('system.user.delete', { ids: [bId] }, { token: tadmin })).code).toBe('404');
    expect((await server.call('system.user.detail', { id: bId }, { token: badmin })).code).toBe('200');
  });

  it('creates, edits and deletes a user, with its recent logins in the detail', async () => {
    const created = await server.call<{ id: number }>('system.user.insert', { user: newUser() }, { token: tadmin });
    expect(created.code).toBe('200');
    const id = created.data!.id;
    const detail = await server.call<UserRecord & { recentLogins: unknown[] }>('system.user.detail', { id }, { token: tadmin });
    expect(detail.data).toMatchObject({ loginName: 'wanglei', userName: '王磊', roleCode: 'ROLE_TENANT_REPAIR', organizationCode: 'T0001P01', status: '1' });
    expect(detail.data!.recentLogins).toEqual([]);
    // The new user starts with the initial password and must change it.
    const token = await server.login('wanglei', 'Welcome@2026');
    const init = await server.call<{ needModifyPassword: boolean }>('auth.init', {}, { token });
    expect(init.data!.needModifyPassword).toBe(true);

    expect((await server.call('system.user.modify', { id, user: newUser({ userName: '王磊磊' }) }, { token: tadmin })).code).toBe('200');
    expect((await server.call<UserRecord>('system.user.detail', { id }, { token: tadmin })).data!.userName).toBe('王磊磊');
    expect((await server.call('system.user.delete', { ids: [id] }, { token: tadmin })).code).toBe('200');
    expect((await server.call('system.user.detail', { id }, { token: tadmin })).code).toBe('404');
  });

  it('refuses bad input, duplicates, platform roles and organisations outside the scope', async () => {
    const bad = await server.call('system.user.insert', { user: newUser({ phoneNumber: '12345' }) }, { token: tadmin });
    expect(bad.code).toBe('400');
    expect(bad.message).toContain('参数错误');
    expect((await server.call('system.user.insert', { user: newUser({ extra: 1 }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('system.user.insert', { user: newUser({ loginName: 'tadmin' }) }, { token: tadmin })).code).toBe('409');
    expect((await server.call('system.user.insert', { user: newUser({ roleCode: 'PLATFORM_ADMIN' }) }, { token: tadmin })).code).toBe('403');
    expect((await server.call('system.user.insert', { user: newUser({ organizationCode: 'T0002P01' }) }, { token: tadmin })).code).toBe('403');
    const self = await server.call<{ loginUserId: number }>('auth.init', {}, { token: tadmin });
    expect((await server.call('system.user.changeStatus', { id: Number(self.data!.loginUserId), status: '0' }, { token: tadmin })).code).toBe('409');
  });

  it('refuses the hidden actions of a role without their buttons', async () => {
    expect((await server.call('system.user.delete', { ids: [await userId('hz01')] }, { token: operator })).code).toBe('403');
    expect((await server.call('system.user.insert', { user: newUser() }, { token: operator })).code).toBe('403');
    expect((await page<UserRecord>('system.user.page', operator)).code).toBe('200');
  });

  it('exports a real spreadsheet named for the browser', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: `/api${catalogue['system.user.export'].path}`,
      headers: { 'content-type': 'application/json', token: tadmin },
      payload: { param: { keyword: 'hz' } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(String(response.headers['content-disposition'])).toMatch(/filename\*=UTF-8''%E7%94%A8%E6%88%B7%E5%88%97%E8%A1%A8-\d{8}\.xlsx/);
    expect(response.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});

describe('login log and usage statistics', () => {
  interface Log {
    loginName: string;
    loginResult: string;
  }

  it('shows each tenant only its own users\' attempts; platform staff also see unknown accounts', async () => {
    await server.call('auth.login', { loginName: 'tuser', password: 'Wrong@2026' });
    const mine = await page<Log>('system.loginLog.page', tadmin, { loginResult: 'failure' }, [{ field: 'loginTime', order: 'desc' }]);
    expect(mine.data.records.length).toBeGreaterThan(0);
    expect(mine.data.records.every((r) => r.loginResult === 'failure')).toBe(true);
    expect(mine.data.records.map((r) => r.loginName)).toContain('tuser');
    const all = await page<Log>('system.loginLog.page', tadmin, {}, [], 500);
    expect(all.data.records.some((r) => r.loginName === 'badmin' || r.loginName.startsWith('sz'))).toBe(false);
    expect(all.data.records.some((r) => r.loginName === 'root')).toBe(false);
    const platform = await page<Log>('system.loginLog.page', admin, { loginName: 'root' });
    expect(platform.data.total).toBeGreaterThan(0);
    expect((await page<Log>('system.loginLog.page', tadmin, { timeRange: ['not a time', 'x'] })).code).toBe('400');
  });

  it('keeps a sign-in with the tenant its user was in: a user moved away leaves his earlier lines to the old tenant, a deleted one\'s stay', async () => {
    const tenantOf = async (loginName: string) =>
      (await server.db.query<{ tenant_code: string | null }>('SELECT tenant_code FROM login_log WHERE login_name = $1 ORDER BY id DESC LIMIT 1', [loginName]))[0]?.tenant_code;
    await server.call('auth.login', { loginName: 'tuser', password: 'Wrong@2026' });
    await server.call('auth.login', { loginName: 'badmin', password: 'Wrong@2026' });
    await server.call('auth.login', { loginName: 'nobody-at-all', password: 'Wrong@2026' });
    expect([await tenantOf('tuser'), await tenantOf('badmin'), await tenantOf('root'), await tenantOf('nobody-at-all')]).toEqual(['T0001', 'T0002', null, null]);
    // A line whose user is gone (user_id set to null) is still the tenant's.
    const [line] = await server.db.query<{ id: number }>(
      `INSERT INTO login_log (login_name, user_id, method, success, reason, tenant_code, created_at) VALUES ('gone-user', NULL, 'password', true, '', 'T0001', now()) RETURNING id`,
    );
    const mine = await page<Log>('system.loginLog.page', tadmin, { loginName: 'gone-user' });
    expect(mine.data.records.map((r) => r.loginName)).toEqual(['gone-user']);
    expect((await page<Log>('system.loginLog.page', badmin, { loginName: 'gone-user' })).data.total).toBe(0);
    await server.db.query('DELETE FROM login_log WHERE id = $1', [line.id]);
  });

  it('answers the dashboard figures and series for the range', async () => {
    const figures = await server.call<{ loginCount: number; activeUsers: number; failureCount: number; successRate: number }>('loginLog.statistics.dashboard', {}, { token: tadmin });
    expect(figures.code).toBe('200');
    expect(figures.data!.loginCount).toBeGreaterThan(0);
    expect(figures.data!.successRate).toBeGreaterThan(50);
    expect(figures.data!.successRate).toBeLessThanOrEqual(100);
    const days = await server.call<Array<{ day: string; loginCount: number }>>('loginLog.statistics.dynamic', {}, { token: tadmin });
    expect(days.data!.length).toBeGreaterThan(10);
    expect(days.data![0].day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const tenants = await server.call<Array<{ tenantName: string }>>('loginLog.statistics.tenant', {}, { token: tadmin });
    expect(tenants.data!.map((t) => t.tenantName)).toEqual(['杭州云联科技有限公司']);
    expect((await server.call('loginLog.statistics.dashboard', { startTime: 'yesterday' }, { token: tadmin })).code).toBe('400');
  });

  it('records usage messages and ranks the pages visited', async () => {
    const saved = await server.call('usage.message.save', { actionType: 'didPush', activeTime: Date.now(), extraItem: '', pendingTime: 0, platform: 'web', usageUrl: '/system/probe' }, { token: tadmin });
    expect(saved.code).toBe('200');
    expect((await server.call('usage.message.save', { actionType: 'didPush', activeTime: -1, platform: 'web', usageUrl: '/x' }, { token: tadmin })).code).toBe('400');
    const ranking = await server.call<Array<{ usageUrl: string; visits: number }>>('loginLog.statistics.queryUsage', {}, { token: tadmin });
    expect(ranking.data!.length).toBeGreaterThan(0);
    expect(ranking.data![0].visits).toBeGreaterThanOrEqual(ranking.data![ranking.data!.length - 1].visits);
  });
});

// Issue 18, findings 2 and 4: other users' phone numbers, mails and login addresses are read only
// by the roles whose menus show them; a role that picks an assignee gets ids and names.
describe('user records and the login log are read only through their screens (issue 18)', () => {
  const ORDINARY = ['tuser', 'repair', 'patrol', 'implement'];
  const USER_READS = ['system.user.page', 'system.user.detail', 'system.user.export', 'brand.user.page'];
  const LOGIN_READS = [
    'system.loginLog.page',
    'system.loginLog.export',
    'loginLog.statistics.dashboard',
    'loginLog.statistics.dynamic',
    'loginLog.statistics.tenant',
    'loginLog.statistics.active',
    'loginLog.statistics.activity',
    'loginLog.statistics.queryUsage',
    'loginLog.statistics.year',
  ];

  async function answer(name: string, token: string, param: unknown): Promise<{ code: string; message: string }> {
    const body = catalogue[name].kind === 'page' ? { pageParam: { pageNumber: 1, pageSize: 100 }, param, sortParamList: [] } : { param };
    const response = await server.app.inject({ method: 'POST', url: `/api${catalogue[name].path}`, headers: { token, 'content-type': 'application/json' }, payload: body });
    return String(response.headers['content-type'] ?? '').includes('json') ? response.json<{ code: string; message: string }>() : { code: '200', message: 'file' };
  }

  it.each(ORDINARY)('%s reads no user record and no login attempt: "403" 无权限访问', async (loginName) => {
    const token = await server.login(loginName);
    const someone = await userId('tadmin');
    const answers: Record<string, string> = {};
    for (const name of [...USER_READS, ...LOGIN_READS]) {
      const reply = await answer(name, token, name === 'system.user.detail' ? { id: someone } : {});
      answers[name] = `${reply.code} ${reply.message}`;
    }
    expect(answers).toEqual(Object.fromEntries([...USER_READS, ...LOGIN_READS].map((name) => [name, '403 无权限访问'])));
    // Picking an assignee still works, and answers who and a name: no phone, mail or account.
    const staff = await server.call<Array<Record<string, unknown>>>('work.staff.list', { kind: 'repair' }, { token });
    expect(staff.code).toBe('200');
    expect(staff.data!.length).toBeGreaterThan(0);
    expect(staff.data!.every((person) => Object.keys(person).sort().join() === 'id,name,userName')).toBe(true);
  });

  it('tenant admins and platform staff keep the screens: the tenant admin within its own tenant', async () => {
    for (const token of [tadmin, badmin, operator, admin]) {
      for (const name of [...USER_READS.filter((n) => n !== 'system.user.detail' && n !== 'system.user.export'), ...LOGIN_READS.filter((n) => n !== 'system.loginLog.export')]) {
        expect((await answer(name, token, {})).code, name).toBe(name === 'brand.user.page' && token === operator ? '403' : '200');
      }
    }
    expect((await answer('system.user.detail', tadmin, { id: await userId('tuser') })).code).toBe('200');
    expect((await answer('system.user.detail', badmin, { id: await userId('tuser') })).code).toBe('404');
    const theirs = await page<{ loginName: string }>('system.loginLog.page', badmin, {}, [], 500);
    expect(theirs.data.records.some((r) => ['tadmin', 'tuser', 'repair', 'patrol', 'implement', 'root'].includes(r.loginName))).toBe(false);
  });
});
