import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as passwordModule from '../../server/security/password';
import type { TokenPair } from '../../server/security/tokens';
import { ADMIN_PASSWORD, DEMO_PASSWORD, startServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('auth.login', () => {
  it('answers a token pair for the right password', async () => {
    const reply = await server.call<TokenPair>('auth.login', { loginName: 'admin', password: ADMIN_PASSWORD });
    expect(reply).toMatchObject({ code: '200', message: '成功' });
    expect(reply.data?.accessToken).toMatch(/^[\w-]{40,}$/);
    expect(reply.data?.refreshToken).toMatch(/^[\w-]{40,}$/);
    expect(reply.data?.refreshToken).not.toBe(reply.data?.accessToken);
    expect(reply.data).toMatchObject({ expiresIn: 7200, refreshExpiresIn: 604800 });
  });

  it('answers "401" 用户名或密码错误 for a wrong password or an unknown name', async () => {
    for (const param of [
      { loginName: 'tadmin', password: 'Wrong@2026' },
      { loginName: 'nobody', password: DEMO_PASSWORD },
      { loginName: 'admin', password: DEMO_PASSWORD },
    ]) {
      expect(await server.call('auth.login', param)).toEqual({ code: '401', message: '用户名或密码错误', data: null });
    }
  });

  it('stores only hashes of the tokens', async () => {
    const pair = await server.loginPair('operator');
    const rows = await server.db.query<{ access_hash: string; refresh_hash: string }>('SELECT access_hash, refresh_hash FROM auth_session');
    const stored = rows.flatMap((row) => [row.access_hash, row.refresh_hash]);
    expect(stored).not.toContain(pair.accessToken);
    expect(stored).not.toContain(pair.refreshToken);
    expect(stored.every((hash) => /^[0-9a-f]{64}$/.test(hash))).toBe(true);
  });

  // Issue 18: was "the account is locked after 5 wrong passwords, 423 账号已锁定 for everyone". Now the
  // (login name, address) pair is locked for 15 minutes; other addresses are not locked out.
  it('locks the (name, address) pair after 5 wrong passwords for 15 minutes, whatever the password', async () => {
    const ip = '198.51.100.10';
    const attempt = (password: string) => server.call('auth.login', { loginName: 'patrol', password }, { ip });
    for (let i = 1; i <= 4; i += 1) expect(await attempt('Wrong@2026')).toEqual({ code: '401', message: '用户名或密码错误', data: null });
    // The fifth locks, and says so (issue 34). Locked: the right password is refused too, so guessing on while locked learns nothing.
    const locked = { code: '429', message: '登录失败次数过多，请 15 分钟后再试', data: null };
    expect(await attempt('Wrong@2026')).toEqual(locked);
    expect(await attempt(DEMO_PASSWORD)).toEqual(locked);
    expect(await attempt('Wrong@2026')).toEqual(locked);
    server.advance(14 * 60);
    expect(await attempt(DEMO_PASSWORD)).toEqual({ code: '429', message: '登录失败次数过多，请 1 分钟后再试', data: null });
    server.advance(61);
    expect((await attempt(DEMO_PASSWORD)).code).toBe('200');
    // A success resets the count: four more failures do not lock.
    for (let i = 1; i <= 4; i += 1) expect((await attempt('Wrong@2026')).code).toBe('401');
    expect((await attempt(DEMO_PASSWORD)).code).toBe('200');
  });

  it('writes every attempt to login_log with time, IP and user agent', async () => {
    await server.db.exec('DELETE FROM login_log');
    const headers = { 'user-agent': 'Vitest-Agent/1.0' };
    await server.call('auth.login', { loginName: 'repair', password: DEMO_PASSWORD }, { headers });
    await server.call('auth.login', { loginName: 'repair', password: 'nope-2026' }, { headers });
    await server.call('auth.login', { loginName: 'ghost', password: 'nope-2026' }, { headers });
    const rows = await server.db.query<{ login_name: string; user_id: number | null; success: boolean; ip: string; user_agent: string; created_at: Date; method: string }>(
      'SELECT login_name, user_id, success, ip, user_agent, created_at, method FROM login_log ORDER BY id',
    );
    expect(rows.map((row) => [row.login_name, row.success, row.user_id === null])).toEqual([
      ['repair', true, false],
      ['repair', false, false],
      ['ghost', false, true],
    ]);
    for (const row of rows) {
      expect(row.ip).toBe('127.0.0.1');
      expect(row.user_agent).toBe('Vitest-Agent/1.0');
      expect(row.method).toBe('password');
      expect(Math.abs(row.created_at.getTime() - Date.now())).toBeLessThan(60 * 60 * 1000);
    }
  });
});

describe('login abuse (issue 18)', () => {
  const login = (loginName: string, password: string, ip: string) => server.call('auth.login', { loginName, password }, { ip });
  const generic = { code: '401', message: '用户名或密码错误', data: null };

  it('a lock is the same for a name nobody has: it tells nothing about which names exist', async () => {
    const ip = '198.51.100.20';
    for (const loginName of ['tuser', 'no-such-user']) {
      for (let i = 0; i < 4; i += 1) expect(await login(loginName, 'Wrong@2026', ip)).toEqual(generic);
      // The fifth locks and says so (issue 34), for a name nobody has as for an account.
      for (let i = 0; i < 2; i += 1) expect(await login(loginName, 'Wrong@2026', ip)).toEqual({ code: '429', message: '登录失败次数过多，请 15 分钟后再试', data: null });
    }
  });

  it('an anonymous caller cannot lock the owner out: the lock holds only for the address that earned it', async () => {
    const attacker = '203.0.113.7';
    for (let i = 0; i < 10; i += 1) await login('admin', 'Wrong@2026', attacker);
    expect((await login('admin', ADMIN_PASSWORD, attacker)).code).toBe('429');
    // The platform admin, from their own address, signs in at once.
    expect((await login('admin', ADMIN_PASSWORD, '192.0.2.1')).code).toBe('200');
  });

  it('forgets failures 15 minutes after the last one', async () => {
    const ip = '198.51.100.30';
    for (let i = 0; i < 4; i += 1) expect(await login('implement', 'Wrong@2026', ip)).toEqual(generic);
    server.advance(15 * 60 + 1);
    // Four more after the window: still not locked (the count began again).
    for (let i = 0; i < 4; i += 1) expect(await login('implement', 'Wrong@2026', ip)).toEqual(generic);
    expect((await login('implement', DEMO_PASSWORD, ip)).code).toBe('200');
  });

  it('limits failed logins per address to 20 in 5 minutes, any names, with the wait in the answer', async () => {
    const ip = '198.51.100.40';
    // Five names, four tries each: under the (name, address) lock, whose fifth failure locks and says so.
    for (let i = 0; i < 20; i += 1) expect(await login(`probe-${i % 5}`, 'Wrong@2026', ip)).toEqual(generic);
    const limited = await login('someone-else', 'Wrong@2026', ip);
    expect(limited.code).toBe('429');
    expect(limited.message).toMatch(/^登录尝试过于频繁，请 (\d+) 秒后再试$/);
    const seconds = Number(/(\d+) 秒/.exec(limited.message)![1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(300);
    // Even the right password waits; another address does not.
    expect((await login('tuser', DEMO_PASSWORD, ip)).code).toBe('429');
    expect((await login('tuser', DEMO_PASSWORD, '198.51.100.41')).code).toBe('200');
    server.advance(seconds);
    expect((await login('tuser', DEMO_PASSWORD, ip)).code).toBe('200');
  });

  it('a right password gives its hit back: sign-ins from one address are not limited', async () => {
    const ip = '198.51.100.50';
    for (let i = 0; i < 25; i += 1) expect((await login('tuser', DEMO_PASSWORD, ip)).code).toBe('200');
  });

  it('120 wrong logins at once from one address: 20 are checked, 100 answer 429, all are logged', async () => {
    const ip = '198.51.100.60';
    const [{ last }] = await server.db.query<{ last: number }>('SELECT COALESCE(max(id), 0) AS last FROM login_log');
    const replies = await Promise.all(Array.from({ length: 120 }, (_, index) => login(`flood-${index % 30}`, 'Wrong@2026', ip)));
    const codes = replies.reduce<Record<string, number>>((counts, reply) => ({ ...counts, [reply.code]: (counts[reply.code] ?? 0) + 1 }), {});
    expect(codes).toEqual({ '401': 20, '429': 100 });
    const [logged] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM login_log WHERE id > $1 AND ip = $2 AND NOT success', [last, ip]);
    expect(logged.count).toBe(120);
  });

  it('checks a password hash for an unknown name too: the time does not tell whether the name exists', async () => {
    // Each refused attempt runs exactly one password check (scrypt, tens of ms), a known name
    // against its hash, an unknown one against the hash of a password nobody has: the work, and so
    // the time, is the same (counted, not timed: a timing ratio is at the mercy of the machine).
    const checks = vi.spyOn(passwordModule, 'verifyPassword');
    try {
      expect(await login('tuser', 'Wrong@2026', '198.51.100.71')).toEqual(generic);
      expect(checks).toHaveBeenCalledTimes(1);
      const [, knownHash] = checks.mock.calls[0];
      expect(await login('nobody-at-all', 'Wrong@2026', '198.51.100.72')).toEqual(generic);
      expect(checks).toHaveBeenCalledTimes(2);
      const [password, dummyHash] = checks.mock.calls[1];
      expect(password).toBe('Wrong@2026');
      // A real hash of the same kind as a user's (same scheme and parameters), just nobody's.
      expect(typeof dummyHash).toBe('string');
      expect(dummyHash).not.toBe(knownHash);
      expect(String(dummyHash).split('$').slice(0, -2)).toEqual(String(knownHash).split('$').slice(0, -2));
      expect(await checks.mock.results[1].value).toBe(false);
    } finally {
      checks.mockRestore();
    }
  });

  it('logs every attempt, the refused ones with their reason', async () => {
    const ip = '198.51.100.80';
    const [{ last }] = await server.db.query<{ last: number }>('SELECT COALESCE(max(id), 0) AS last FROM login_log');
    for (let i = 0; i < 6; i += 1) await login('tuser', 'Wrong@2026', ip);
    await login('ghost', 'Wrong@2026', ip);
    const rows = await server.db.query<{ login_name: string; success: boolean; reason: string; ip: string }>(
      'SELECT login_name, success, reason, ip FROM login_log WHERE id > $1 ORDER BY id',
      [last],
    );
    expect(rows.map((row) => [row.login_name, row.success, row.reason, row.ip])).toEqual([
      ...Array.from({ length: 5 }, () => ['tuser', false, 'wrong password', ip]),
      ['tuser', false, 'locked', ip],
      ['ghost', false, 'unknown login name', ip],
    ]);
  });

  it('a new password lifts the locks on the name from every address', async () => {
    const ip = '198.51.100.90';
    for (let i = 0; i < 5; i += 1) await login('operator', 'Wrong@2026', ip);
    expect((await login('operator', DEMO_PASSWORD, ip)).code).toBe('429');
    const token = await server.login('operator');
    expect((await server.call('user.password.update', { oldPassWord: DEMO_PASSWORD, updatePassWord: 'Other@2027' }, { token })).code).toBe('200');
    expect((await login('operator', 'Other@2027', ip)).code).toBe('200');
  });
});

describe('auth.init and user.detail', () => {
  it('answers exactly the SPEC §3 user info fields', async () => {
    const token = await server.login('tadmin');
    const reply = await server.call<Record<string, unknown>>('auth.init', {}, { token });
    expect(reply.code).toBe('200');
    expect(Object.keys(reply.data ?? {}).sort()).toEqual(
      ['loginUserCode', 'loginUserId', 'loginUserName', 'mail', 'orgCodeList', 'phoneNumber', 'roleList', 'userName', 'needModifyPassword'].sort(),
    );
    expect(reply.data).toMatchObject({
      loginUserName: 'tadmin',
      userName: '张明',
      mail: 'tadmin@example.com',
      phoneNumber: '13800000001',
      orgCodeList: ['T0001'],
      roleList: ['TENANT_ADMIN'],
      needModifyPassword: false,
    });
    expect(typeof reply.data?.loginUserCode).toBe('string');
  });

  it('gives "" for a missing phone and mail, and the forced password change flag', async () => {
    const tuser = await server.call<Record<string, unknown>>('auth.init', {}, { token: await server.login('tuser') });
    expect(tuser.data).toMatchObject({ phoneNumber: '', mail: '', orgCodeList: ['T0001P01'], roleList: ['ROLE_TENANT_ORDINARY'] });
    const newbie = await server.call<Record<string, unknown>>('auth.init', {}, { token: await server.login('newbie') });
    expect(newbie.data?.needModifyPassword).toBe(true);
  });

  it('answers the user record as it is now: a name, phone or mail changed after sign-in shows at once', async () => {
    const token = await server.login('tadmin');
    const before = await server.call<Record<string, unknown>>('auth.init', {}, { token });
    expect(before.data).toMatchObject({ userName: '张明', phoneNumber: '13800000001' });
    await server.db.query(`UPDATE app_user SET user_name = '张明远', phone = NULL WHERE login_name = 'tadmin'`);
    try {
      expect((await server.call<Record<string, unknown>>('auth.init', {}, { token })).data).toMatchObject({ userName: '张明远', phoneNumber: '', roleList: ['TENANT_ADMIN'] });
    } finally {
      await server.db.query(`UPDATE app_user SET user_name = '张明', phone = '13800000001' WHERE login_name = 'tadmin'`);
    }
  });

  it('user.detail adds the avatar', async () => {
    const token = await server.login('badmin');
    const reply = await server.call<Record<string, unknown>>('user.detail', {}, { token });
    expect(reply.data).toMatchObject({ loginUserName: 'badmin', phoneNumber: '13900000002', orgCodeList: ['T0002'], avatar: '' });
  });

  it('answers "301" without a token or with an unknown one', async () => {
    expect(await server.call('auth.init')).toEqual({ code: '301', message: '用户失效，请重新登录', data: null });
    expect((await server.call('auth.init', {}, { token: 'not-a-token' })).code).toBe('301');
  });
});

describe('sessions', () => {
  it('auth.logout revokes the token', async () => {
    const token = await server.login('tuser');
    expect((await server.call('auth.logout', {}, { token })).code).toBe('200');
    expect((await server.call('auth.init', {}, { token })).code).toBe('301');
  });

  it('auth.refresh rotates the pair: the old refresh token is spent', async () => {
    const first = await server.loginPair('repair');
    const second = await server.call<TokenPair>('auth.refresh', { refreshToken: first.refreshToken });
    expect(second.code).toBe('200');
    expect(second.data?.accessToken).not.toBe(first.accessToken);
    expect((await server.call('auth.init', {}, { token: second.data?.accessToken })).code).toBe('200');
    expect((await server.call('auth.refresh', { refreshToken: first.refreshToken })).code).toBe('301');
    expect((await server.call('auth.refresh', { refreshToken: 'unknown' })).code).toBe('301');
  });

  it('dev.session.expire makes the next call "301" while the refresh token still works', async () => {
    const pair = await server.loginPair('implement');
    expect((await server.call('dev.session.expire', { loginName: 'implement' })).code).toBe('200');
    expect((await server.call('auth.init', {}, { token: pair.accessToken })).code).toBe('301');
    expect((await server.call('auth.refresh', { refreshToken: pair.refreshToken })).code).toBe('200');
    expect((await server.call('dev.session.expire', { loginName: 'ghost' })).code).toBe('404');
  });

  it('dev.session.expire with refresh: true ends the session: the refresh token answers "301" too', async () => {
    const pair = await server.loginPair('patrol');
    expect((await server.call('dev.session.expire', { loginName: 'patrol', refresh: true })).code).toBe('200');
    expect((await server.call('auth.init', {}, { token: pair.accessToken })).code).toBe('301');
    expect((await server.call('auth.refresh', { refreshToken: pair.refreshToken })).code).toBe('301');
    expect((await server.call('dev.session.expire', { loginName: 'patrol', refresh: 'yes' })).code).toBe('400');
  });
});

describe('token lifetimes', () => {
  it('an access token with a 1 s TTL answers "301" once it has run out; an expired refresh token too', async () => {
    const short = await startServer({ config: { accessTokenTtlSeconds: 1, refreshTokenTtlSeconds: 3 } });
    try {
      const pair = await short.loginPair('tadmin');
      expect(pair).toMatchObject({ expiresIn: 1, refreshExpiresIn: 3 });
      expect((await short.call('auth.init', {}, { token: pair.accessToken })).code).toBe('200');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await short.call('auth.init', {}, { token: pair.accessToken })).code).toBe('301');
      short.advance(3);
      expect((await short.call('auth.refresh', { refreshToken: pair.refreshToken })).code).toBe('301');
    } finally {
      await short.close();
    }
  });
});

describe('the orgCode header', () => {
  it('must lie inside the caller\'s organisations', async () => {
    const token = await server.login('tadmin');
    expect((await server.call('auth.init', {}, { token, orgCode: 'T0001P01A0101' })).code).toBe('200');
    expect(await server.call('auth.init', {}, { token, orgCode: 'T0002' })).toEqual({ code: '403', message: '无权限访问', data: null });
    expect((await server.call('auth.init', {}, { token, orgCode: 'P0001' })).code).toBe('403');
    expect((await server.call('auth.init', {}, { token, orgCode: 'NOPE' })).code).toBe('403');
    const tuser = await server.login('tuser');
    expect((await server.call('auth.init', {}, { token: tuser, orgCode: 'T0001' })).code).toBe('403');
    const admin = await server.login('admin', ADMIN_PASSWORD);
    expect((await server.call('auth.init', {}, { token: admin, orgCode: 'T0002P01' })).code).toBe('200');
  });
});
