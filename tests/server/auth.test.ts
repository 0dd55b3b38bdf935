import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('locks the account after 5 wrong passwords for 10 minutes', async () => {
    const attempt = (password: string) => server.call('auth.login', { loginName: 'patrol', password });
    for (let i = 1; i <= 4; i += 1) expect((await attempt('Wrong@2026')).code).toBe('401');
    expect(await attempt('Wrong@2026')).toEqual({ code: '423', message: '账号已锁定，请10分钟后再试', data: null });
    // Locked: even the right password is refused.
    expect((await attempt(DEMO_PASSWORD)).code).toBe('423');
    server.advance(9 * 60);
    expect((await attempt(DEMO_PASSWORD)).code).toBe('423');
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
