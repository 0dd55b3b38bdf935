// The statistics of issue 7: login users (list, all list, role list, board), the login-logger
// activity levels and yearly trend, and the paged usage records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE } from '../../server/db/database';
import { wallClockOf } from '../../server/domain/businessTime';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';

interface LoginUser {
  userId: number;
  loginName: string;
  userName: string;
  displayName: string;
  status: string;
  organizationName: string;
  roleCode: string;
  roleName: string;
  loginCount: number;
  lastLoginTime: string;
  lastLoginIp: string;
  online: boolean;
}
interface Board {
  userCount: number;
  enabledCount: number;
  disabledCount: number;
  onlineCount: number;
  activeCount: number;
  activeRate: number;
  neverLoggedInCount: number;
  lockedCount: number;
  pendingPasswordCount: number;
}
interface UsageRecord {
  id: number;
  loginName: string;
  userName: string;
  organizationName: string;
  actionType: string;
  usageUrl: string;
  pageName: string;
  platform: string;
  extraItem: string;
  activeTime: string;
  pendingSeconds: number;
}

let server: TestServer;
let admin: string;
let operator: string;
let tadmin: string;
let badmin: string;
let tuser: string;

beforeAll(async () => {
  server = await startServer();
  [admin, operator, tadmin, badmin, tuser] = await Promise.all([
    server.login('admin', ADMIN_PASSWORD),
    server.login('operator'),
    server.login('tadmin'),
    server.login('badmin'),
    server.login('tuser'),
  ]);
});
afterAll(() => server.close());

const HANGZHOU = /^(tadmin|tuser|repair|patrol|implement|newbie|hz\d\d)$/;
const SUZHOU = /^(badmin|sz\d\d)$/;

async function page<T>(token: string, param: unknown = {}, sortParamList: unknown[] = [], pageSize = 50, orgCode?: string) {
  const headers: Record<string, string> = { token };
  if (orgCode) headers.orgCode = orgCode;
  const { body } = await server.post(catalogue['usage.message.page'].path, { pageParam: { pageNumber: 1, pageSize }, param, sortParamList }, headers);
  return body as { code: string; message: string; data: { records: T[]; total: number } | null };
}

describe('loginUser.list', () => {
  it('lists who signed in within the range, latest first, only of the working organisations', async () => {
    const reply = await server.call<LoginUser[]>('loginUser.list', {}, { token: tadmin });
    expect(reply.code).toBe('200');
    const users = reply.data!;
    expect(users.length).toBeGreaterThan(5);
    expect(users.every((user) => HANGZHOU.test(user.loginName))).toBe(true);
    const times = users.map((user) => user.lastLoginTime);
    expect([...times].sort().reverse()).toEqual(times);
    const me = users.find((user) => user.loginName === 'tadmin')!;
    expect(me).toMatchObject({ userName: '张明', roleCode: 'TENANT_ADMIN', roleName: '租户管理员', organizationName: '杭州云联科技有限公司', online: true });
    expect(me.loginCount).toBeGreaterThan(1);
    expect(me.lastLoginIp).not.toBe('');
    const theirs = await server.call<LoginUser[]>('loginUser.list', { keyword: 'sz0' }, { token: badmin });
    expect(theirs.data!.length).toBeGreaterThan(0);
    expect(theirs.data!.every((user) => SUZHOU.test(user.loginName))).toBe(true);
  });

  it('narrows by keyword and range', async () => {
    const mine = await server.call<LoginUser[]>('loginUser.list', { keyword: '张明' }, { token: tadmin });
    expect(mine.data!.map((user) => user.loginName)).toEqual(['tadmin']);
    const now = Date.now();
    const lastHour = await server.call<LoginUser[]>('loginUser.list', { startTime: new Date(now - 3_600_000).toISOString(), endTime: new Date(now + 60_000).toISOString() }, { token: tadmin });
    expect(lastHour.data!.map((user) => user.loginName)).toContain('tadmin');
    expect(lastHour.data!.find((user) => user.loginName === 'tadmin')!.loginCount).toBeGreaterThanOrEqual(1);
  });

  it('refuses bad input ("400"), another tenant’s organisation ("403") and a role without the view ("403")', async () => {
    expect((await server.call('loginUser.list', { startTime: 'yesterday' }, { token: tadmin })).message).toMatch(/^参数错误：startTime/);
    expect((await server.call('loginUser.list', { keyword: 'x'.repeat(65) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('loginUser.list', {}, { token: badmin, orgCode: 'T0001' })).code).toBe('403');
    expect(await server.call('loginUser.list', {}, { token: tuser })).toEqual({ code: '403', message: '无权限访问', data: null });
  });
});

describe('loginUser.allList', () => {
  it('lists every account of the working organisations with its last login, by login name', async () => {
    const reply = await server.call<LoginUser[]>('loginUser.allList', {}, { token: tadmin });
    expect(reply.code).toBe('200');
    const names = reply.data!.map((user) => user.loginName);
    expect(names).toEqual([...names].sort());
    expect(names.every((name) => HANGZHOU.test(name))).toBe(true);
    expect(names).toContain('hz08');
    expect(reply.data!.find((user) => user.loginName === 'tuser')).toMatchObject({ displayName: '刘洋（tuser）', status: '1', roleCode: 'ROLE_TENANT_ORDINARY' });
    const disabled = await server.call<LoginUser[]>('loginUser.allList', { status: '0' }, { token: tadmin });
    expect(disabled.data!.map((user) => user.loginName)).toEqual(['hz08']);
    const platform = await server.call<LoginUser[]>('loginUser.allList', {}, { token: operator });
    expect(platform.data!.some((user) => SUZHOU.test(user.loginName)) && platform.data!.some((user) => HANGZHOU.test(user.loginName))).toBe(true);
  });

  it('refuses bad input ("400"), another tenant ("403") and a role without a screen that lists users ("403")', async () => {
    expect((await server.call('loginUser.allList', { status: '2' }, { token: tadmin })).message).toMatch(/^参数错误：status/);
    expect((await server.call('loginUser.allList', {}, { token: tadmin, orgCode: 'T0002' })).code).toBe('403');
    expect((await server.call<LoginUser[]>('loginUser.allList', { keyword: 'hz' }, { token: badmin })).data).toEqual([]);
    expect((await server.call('loginUser.allList', {}, { token: tuser })).code).toBe('403');
  });
});

describe('loginUser.roleList and loginUser.board', () => {
  it('counts the accounts per role and those who signed in, matching the board', async () => {
    const roles = await server.call<Array<{ roleCode: string; roleName: string; userCount: number; activeUserCount: number }>>('loginUser.roleList', {}, { token: tadmin });
    expect(roles.code).toBe('200');
    expect(roles.data!.map((role) => role.roleCode)).not.toContain('PLATFORM_ADMIN');
    expect(roles.data!.find((role) => role.roleCode === 'TENANT_ADMIN')).toEqual({ roleCode: 'TENANT_ADMIN', roleName: '租户管理员', userCount: 1, activeUserCount: 1 });
    expect(roles.data!.every((role) => role.activeUserCount <= role.userCount)).toBe(true);

    const board = await server.call<Board>('loginUser.board', {}, { token: tadmin });
    expect(board.code).toBe('200');
    const figures = board.data!;
    expect(figures.userCount).toBe(roles.data!.reduce((sum, role) => sum + role.userCount, 0));
    expect(figures.enabledCount + figures.disabledCount).toBe(figures.userCount);
    expect(figures.disabledCount).toBe(1);
    expect(figures.onlineCount).toBeGreaterThanOrEqual(2);
    expect(figures.activeCount).toBeLessThanOrEqual(figures.userCount);
    expect(figures.activeRate).toBe(Math.round((figures.activeCount / figures.userCount) * 1000) / 10);
    expect(figures.pendingPasswordCount).toBeGreaterThanOrEqual(1);

    const platform = await server.call<Board>('loginUser.board', {}, { token: admin });
    const suzhou = await server.call<Board>('loginUser.board', {}, { token: badmin });
    expect(platform.data!.userCount).toBeGreaterThanOrEqual(figures.userCount + suzhou.data!.userCount + 2);
  });

  it('counts a lockout and a sign-in as they happen', async () => {
    const before = (await server.call<Board>('loginUser.board', {}, { token: tadmin })).data!;
    for (let attempt = 0; attempt < 5; attempt += 1) await server.call('auth.login', { loginName: 'hz03', password: 'Wrong@2026' });
    await server.login('patrol');
    const after = (await server.call<Board>('loginUser.board', {}, { token: tadmin })).data!;
    expect(after.lockedCount).toBe(before.lockedCount + 1);
    expect(after.onlineCount).toBe(before.onlineCount + 1);
  });

  it('refuses bad input ("400"), another tenant ("403") and a role without the view ("403")', async () => {
    expect((await server.call('loginUser.board', { endTime: '2026-13-45x' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('loginUser.roleList', { keyword: 'x' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('loginUser.board', {}, { token: badmin, orgCode: 'T0001P01' })).code).toBe('403');
    expect((await server.call('loginUser.roleList', {}, { token: tadmin, orgCode: 'T0002' })).code).toBe('403');
    expect((await server.call('loginUser.board', {}, { token: tuser })).code).toBe('403');
    expect((await server.call('loginUser.roleList', {}, { token: tuser })).code).toBe('403');
  });
});

describe('loginLog.statistics.activity', () => {
  it('sorts the enabled users into four activity levels', async () => {
    const reply = await server.call<Array<{ level: string; levelName: string; userCount: number }>>('loginLog.statistics.activity', {}, { token: tadmin });
    expect(reply.code).toBe('200');
    expect(reply.data!.map((row) => [row.level, row.levelName])).toEqual([
      ['high', '高度活跃'],
      ['medium', '中度活跃'],
      ['low', '低度活跃'],
      ['silent', '未登录'],
    ]);
    const board = (await server.call<Board>('loginUser.board', {}, { token: tadmin })).data!;
    expect(reply.data!.reduce((sum, row) => sum + row.userCount, 0)).toBe(board.enabledCount);
    expect(reply.data![0].userCount).toBeGreaterThan(0);
    // Over one quiet hour of the distant past nobody signed in.
    const quiet = await server.call<Array<{ level: string; userCount: number }>>(
      'loginLog.statistics.activity',
      { startTime: '2001-01-01 00:00:00', endTime: '2001-01-01 01:00:00' },
      { token: badmin },
    );
    expect(quiet.data!.filter((row) => row.level !== 'silent').every((row) => row.userCount === 0)).toBe(true);
    expect(quiet.data!.find((row) => row.level === 'silent')!.userCount).toBeGreaterThan(0);
  });

  it('refuses bad input ("400"), another tenant ("403") and a role without the view ("403")', async () => {
    expect((await server.call('loginLog.statistics.activity', { startTime: 42 }, { token: tadmin })).message).toMatch(/^参数错误：startTime/);
    expect((await server.call('loginLog.statistics.activity', {}, { token: badmin, orgCode: 'T0001' })).code).toBe('403');
    expect((await server.call('loginLog.statistics.activity', {}, { token: tuser })).code).toBe('403');
  });
});

describe('loginLog.statistics.year', () => {
  type Month = { month: string; monthName: string; loginCount: number; activeUsers: number; failureCount: number };

  it('answers twelve months of the year, with the logins of the year behind', async () => {
    // The business year and month (Asia/Shanghai, the server's zone).
    const { year, month } = wallClockOf(new Date(), DEFAULT_TIME_ZONE);
    const reply = await server.call<Month[]>('loginLog.statistics.year', {}, { token: tadmin });
    expect(reply.code).toBe('200');
    expect(reply.data!.map((row) => row.monthName)).toEqual(['1月', '2月', '3月', '4月', '5月', '6月', '7月', '8月', '9月', '10月', '11月', '12月']);
    expect(reply.data![0].month).toBe(`${year}-01`);
    const current = reply.data![month - 1];
    expect(current.loginCount).toBeGreaterThan(0);
    expect(current.activeUsers).toBeLessThanOrEqual(current.loginCount);
    expect(reply.data!.slice(month).every((row) => row.loginCount === 0)).toBe(true);
    // The seeded history reaches a year back: last year has logins too (in December only its last
    // month lies within a year of today, so its count is a month's; the two years hold the year's).
    const last = await server.call<Month[]>('loginLog.statistics.year', { year: year - 1 }, { token: tadmin });
    const lastYear = last.data!.reduce((sum, row) => sum + row.loginCount, 0);
    const thisYear = reply.data!.reduce((sum, row) => sum + row.loginCount, 0);
    expect(lastYear).toBeGreaterThan(0);
    expect(thisYear + lastYear).toBeGreaterThan(1000);
    // The range's end picks the year when no year is given.
    const byRange = await server.call<Month[]>('loginLog.statistics.year', { startTime: `${year - 1}-03-01`, endTime: `${year - 1}-06-30 23:59:59` }, { token: tadmin });
    expect(byRange.data).toEqual(last.data);
  });

  it('counts only the tenant’s own logins', async () => {
    const { year } = wallClockOf(new Date(), DEFAULT_TIME_ZONE);
    const total = async (token: string) =>
      (await server.call<Month[]>('loginLog.statistics.year', { year }, { token })).data!.reduce((sum, row) => sum + row.loginCount, 0);
    const [platform, hangzhou, suzhou] = await Promise.all([total(admin), total(tadmin), total(badmin)]);
    expect(hangzhou).toBeGreaterThan(0);
    expect(suzhou).toBeGreaterThan(0);
    expect(platform).toBeGreaterThanOrEqual(hangzhou + suzhou);
  });

  it('refuses bad input ("400"), another tenant ("403") and a role without the view ("403")', async () => {
    expect((await server.call('loginLog.statistics.year', { year: 1999 }, { token: tadmin })).message).toMatch(/^参数错误：year/);
    expect((await server.call('loginLog.statistics.year', { year: '2026' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('loginLog.statistics.year', {}, { token: badmin, orgCode: 'T0001' })).code).toBe('403');
    expect((await server.call('loginLog.statistics.year', {}, { token: tuser })).code).toBe('403');
  });
});

describe('usage.message.page', () => {
  it('pages the usage records of the working organisations with the page each address opens', async () => {
    const activeTime = Date.now();
    const saved = await server.call('usage.message.save', { actionType: 'didPush', activeTime, extraItem: '{"id":"7"}', pendingTime: 12_400, platform: 'web', usageUrl: '/device/all' }, { token: tadmin });
    expect(saved.code).toBe('200');
    const [{ id: userId }] = await server.db.query<{ id: number }>("SELECT id FROM app_user WHERE login_name = 'tadmin'");
    const mine = await page<UsageRecord>(tadmin, { userId, timeRange: [new Date(activeTime - 1000).toISOString(), new Date(activeTime + 1000).toISOString()] });
    expect(mine.code).toBe('200');
    expect(mine.data!.records).toEqual([
      {
        id: expect.any(Number) as number,
        loginName: 'tadmin',
        userName: '张明',
        organizationName: '杭州云联科技有限公司',
        actionType: 'didPush',
        usageUrl: '/device/all',
        pageName: '全部设备',
        platform: 'web',
        extraItem: '{"id":"7"}',
        activeTime: new Date(activeTime).toISOString(),
        pendingSeconds: 12,
      },
    ]);

    const all = await page<UsageRecord>(tadmin, {}, [], 100);
    expect(all.data!.total).toBeGreaterThan(100);
    expect(all.data!.records.every((record) => HANGZHOU.test(record.loginName))).toBe(true);
    const times = all.data!.records.map((record) => record.activeTime);
    expect([...times].sort().reverse()).toEqual(times);
    const theirs = await page<UsageRecord>(badmin, {}, [], 100);
    expect(theirs.data!.records.every((record) => SUZHOU.test(record.loginName))).toBe(true);
    expect(theirs.data!.records.some((record) => record.organizationName.includes('杭州'))).toBe(false);
  });

  it('filters by user name, address and platform, and sorts by the time spent', async () => {
    const byName = await page<UsageRecord>(tadmin, { loginName: '刘洋', usageUrl: '/dashboard' });
    expect(byName.data!.total).toBeGreaterThan(0);
    expect(byName.data!.records.every((record) => record.loginName === 'tuser' && record.usageUrl.includes('/dashboard'))).toBe(true);
    expect((await page<UsageRecord>(tadmin, { platform: 'app' })).data!.total).toBe(0);
    const sorted = await page<UsageRecord>(tadmin, {}, [{ field: 'pendingSeconds', order: 'asc' }], 30);
    const seconds = sorted.data!.records.map((record) => record.pendingSeconds);
    expect([...seconds].sort((a, b) => a - b)).toEqual(seconds);
  });

  it('refuses bad input ("400"), another tenant ("403") and a role without the view ("403")', async () => {
    expect((await page(tadmin, { timeRange: ['not a time', 'x'] })).message).toMatch(/^参数错误：timeRange/);
    expect((await page(tadmin, { platform: 'tv' })).code).toBe('400');
    expect((await page(tadmin, { userId: 0 })).code).toBe('400');
    expect((await page(badmin, {}, [], 10, 'T0001')).code).toBe('403');
    expect(await page(tuser)).toEqual({ code: '403', message: '无权限访问', data: null });
  });
});
