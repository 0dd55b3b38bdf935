import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE } from '../../server/db/database';
import { startOfBusinessDay } from '../../server/domain/businessTime';
import { DAILY_CODES_PER_TARGET, DAILY_CODES_PER_TENANT } from '../../server/security/verification';
import { startServer, type TestServer } from './harness';

/** Midnight of the business day (China time, the test servers' zone) of `at`. */
const startOfChinaDay = (at: Date) => startOfBusinessDay(at, DEFAULT_TIME_ZONE);

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** What an anonymous caller sends: the target and a solved captcha. */
const anon = async (target: string, on: TestServer = server) => ({ target, ...(await on.solvedCaptcha()) });

const outboxFor = async (target: string) => (await server.call<Array<{ code: string; channel: string; content: string }>>('dev.outbox', { target })).data ?? [];

describe('sending codes', () => {
  it('sends a 6-digit code by SMS, voice and mail to a user\'s own phone and mail', async () => {
    expect(await server.call('verification.sms.send', await anon('13800000003'))).toEqual({ code: '200', message: '成功', data: '发送成功' });
    expect((await server.call('verification.voice.send', await anon('13800000004'))).code).toBe('200');
    expect((await server.call('verification.mail.send', await anon('TAdmin@Example.com'))).code).toBe('200');
    const [sms] = await outboxFor('13800000003');
    expect(sms).toMatchObject({ channel: 'sms' });
    expect(sms.code).toMatch(/^\d{6}$/);
    expect(sms.content).toContain(sms.code);
    expect((await outboxFor('13800000004'))[0].channel).toBe('voice');
    expect((await outboxFor('tadmin@example.com'))[0].channel).toBe('mail');
  });

  it('answers the same for a target nobody owns, but sends nothing', async () => {
    expect(await server.call('verification.sms.send', await anon('13712345678'))).toEqual({ code: '200', message: '成功', data: '发送成功' });
    expect(await server.call('verification.mail.send', await anon('nobody@example.com'))).toEqual({ code: '200', message: '成功', data: '发送成功' });
    expect(await outboxFor('13712345678')).toEqual([]);
    expect(await outboxFor('nobody@example.com')).toEqual([]);
    // The rate limit is the same, so it does not reveal whether the target is someone's.
    expect((await server.call('verification.sms.send', await anon('13712345678'))).code).toBe('429');
  });

  it('sends to any target for a signed-in caller (binding a new phone)', async () => {
    const token = await server.login('tuser');
    expect((await server.call('verification.sms.send', '13711112222', { token })).code).toBe('200');
    expect(await outboxFor('13711112222')).toHaveLength(1);
  });

  it('refuses a malformed phone or mail with the SPEC §5 message', async () => {
    for (const phone of ['12345', '12800000001', '1380000000a', '138000000011', '']) {
      expect(await server.call('verification.sms.send', await anon(phone))).toEqual({ code: '400', message: '请输入正确的手机号码', data: null });
    }
    expect((await server.call('verification.voice.send', await anon('2380000000'))).message).toBe('请输入正确的手机号码');
    expect(await server.call('verification.mail.send', await anon('not-a-mail'))).toEqual({ code: '400', message: '请输入正确的邮箱格式', data: null });
  });

  it('allows one code per target per 60 s', async () => {
    expect((await server.call('verification.sms.send', await anon('13800000005'))).code).toBe('200');
    expect(await server.call('verification.voice.send', await anon('13800000005'))).toEqual({ code: '429', message: '操作过于频繁，请稍后再试', data: null });
    server.advance(59);
    expect((await server.call('verification.sms.send', await anon('13800000005'))).code).toBe('429');
    server.advance(2);
    expect((await server.call('verification.sms.send', await anon('13800000005'))).code).toBe('200');
    expect(await outboxFor('13800000005')).toHaveLength(2);
  });

  it('logs the masked target and never the code', async () => {
    server.logs.length = 0;
    await server.call('verification.sms.send', await anon('13800000001'));
    const [{ code }] = await outboxFor('13800000001');
    const text = server.logs.join('\n');
    expect(text).toContain('[outbox] sms 138****0001');
    expect(text).not.toContain(code);
    expect(text).not.toContain('13800000001');
  });
});

describe('anonymous codes need a solved captcha (issue 18)', () => {
  it('refuses an anonymous request without one, and sends, stores and charges nothing', async () => {
    const [{ before }] = await server.db.query<{ before: number }>('SELECT count(*)::int AS before FROM verification_code');
    for (const name of ['verification.sms.send', 'verification.voice.send']) {
      expect(await server.call(name, '13800000002')).toEqual({ code: '400', message: '请先输入图形验证码', data: null });
      expect(await server.call(name, { target: '13800000002' })).toEqual({ code: '400', message: '请先输入图形验证码', data: null });
    }
    expect(await server.call('verification.mail.send', 'badmin@example.com')).toEqual({ code: '400', message: '请先输入图形验证码', data: null });
    expect(await outboxFor('13800000002')).toEqual([]);
    const [{ after }] = await server.db.query<{ after: number }>('SELECT count(*)::int AS after FROM verification_code');
    expect(after).toBe(before);
  });

  it('serves a captcha as a PNG (what it carries: captcha-raster.test.ts), solvable once', async () => {
    const captcha = await server.call<{ uuid: string; image: string; expiresIn: number }>('verification.captcha.get');
    expect(captcha.code).toBe('200');
    expect(captcha.data!.expiresIn).toBe(300);
    expect(captcha.data!.image).toMatch(/^data:image\/png;base64,/);
    const answer = (await server.call<string>('dev.captcha', { uuid: captcha.data!.uuid })).data!;
    expect(answer).toMatch(/^\d{4}$/);
    const proof = { captchaUuid: captcha.data!.uuid, captchaCode: answer };
    server.advance(61);
    const before = (await outboxFor('13800000003')).length;
    expect(await server.call('verification.sms.send', { target: '13800000003', ...proof })).toEqual({ code: '200', message: '成功', data: '发送成功' });
    expect(await outboxFor('13800000003')).toHaveLength(before + 1);
    // Spent: the same answer again is refused.
    server.advance(61);
    expect(await server.call('verification.sms.send', { target: '13800000003', ...proof })).toEqual({ code: '400', message: '图形验证码错误或已过期', data: null });
  });

  it('one try per captcha: a wrong answer spends it; an old one is refused', async () => {
    const captcha = (await server.call<{ uuid: string }>('verification.captcha.get')).data!;
    const answer = (await server.call<string>('dev.captcha', { uuid: captcha.uuid })).data!;
    const wrong = answer === '0000' ? '1111' : '0000';
    const refused = { code: '400', message: '图形验证码错误或已过期', data: null };
    expect(await server.call('verification.sms.send', { target: '13800000006', captchaUuid: captcha.uuid, captchaCode: wrong })).toEqual(refused);
    expect(await server.call('verification.sms.send', { target: '13800000006', captchaUuid: captcha.uuid, captchaCode: answer })).toEqual(refused);
    const late = (await server.call<{ uuid: string }>('verification.captcha.get')).data!;
    const lateAnswer = (await server.call<string>('dev.captcha', { uuid: late.uuid })).data!;
    server.advance(301);
    expect(await server.call('verification.sms.send', { target: '13800000006', captchaUuid: late.uuid, captchaCode: lateAnswer })).toEqual(refused);
    expect(await outboxFor('13800000006')).toEqual([]);
  });

  it('serves one address 30 captchas a minute', async () => {
    const ip = '198.51.100.99';
    for (let i = 0; i < 30; i += 1) expect((await server.call('verification.captcha.get', {}, { ip })).code).toBe('200');
    expect(await server.call('verification.captcha.get', {}, { ip })).toEqual({ code: '429', message: '操作过于频繁，请稍后再试', data: null });
    expect((await server.call('verification.captcha.get', {}, { ip: '198.51.100.98' })).code).toBe('200');
    server.advance(60);
    expect((await server.call('verification.captcha.get', {}, { ip })).code).toBe('200');
  });
});

describe('checking codes (through user.password.forget)', () => {
  const reset = (account: string, code: string, password = 'Reset@2027') =>
    server.call('user.password.forget', { way: 'phone', account, code, password });

  it('voids a code after 5 wrong attempts', async () => {
    server.advance(120);
    await server.call('verification.sms.send', await anon('13900000002'));
    const [{ code }] = await outboxFor('13900000002');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) expect(await reset('13900000002', wrong)).toEqual({ code: '400', message: '验证码错误或已过期', data: null });
    expect((await reset('13900000002', code)).code).toBe('400');
  });

  it('lets a code expire after 5 minutes', async () => {
    server.advance(120);
    await server.call('verification.sms.send', await anon('13800000006'));
    const [{ code }] = await outboxFor('13800000006');
    server.advance(301);
    expect((await reset('13800000006', code)).message).toBe('验证码错误或已过期');
  });

  it('accepts a code once, and only the newest one', async () => {
    server.advance(120);
    await server.call('verification.sms.send', await anon('13800000004'));
    const [{ code: older }] = await outboxFor('13800000004');
    server.advance(61);
    await server.call('verification.sms.send', await anon('13800000004'));
    const [{ code: newer }] = await outboxFor('13800000004');
    if (older !== newer) expect((await reset('13800000004', older)).code).toBe('400');
    expect((await reset('13800000004', newer)).code).toBe('200');
    expect((await reset('13800000004', newer)).code).toBe('400');
  });

  it('stores codes only hashed', async () => {
    const rows = await server.db.query<{ code_hash: string }>('SELECT code_hash FROM verification_code');
    const codes = (await server.call<Array<{ code: string }>>('dev.outbox', {})).data!.map((row) => row.code);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(codes).not.toContain(row.code_hash);
  });
});

describe('daily limits', () => {
  let daily: TestServer;
  /** The test server's clock: it starts at the real time and moves only when told. */
  let offsetMs = 0;
  const serverNow = () => new Date(Date.now() + offsetMs);
  const advance = (seconds: number) => {
    offsetMs += seconds * 1000;
    daily.advance(seconds);
  };
  const phoneOf = async (loginName: string) => (await daily.db.query<{ phone: string }>('SELECT phone FROM app_user WHERE login_name = $1', [loginName]))[0].phone;
  const dailyLimit = { code: '429', message: '今日验证码发送次数已达上限，请明天再试', data: null };

  beforeAll(async () => {
    daily = await startServer();
    // Keep clear of China midnight, so that one test's codes all fall on one day.
    const untilMidnight = startOfChinaDay(serverNow()).getTime() + 86_400_000 - serverNow().getTime();
    if (untilMidnight < 3_600_000) advance(untilMidnight / 1000 + 60);
  });
  afterAll(() => daily.close());

  it('sends a phone at most 10 codes a day (China time), then again the next day', async () => {
    const phone = await phoneOf('patrol');
    for (let i = 0; i < DAILY_CODES_PER_TARGET; i += 1) {
      expect((await daily.call('verification.sms.send', await anon(phone, daily))).code, `code ${i + 1}`).toBe('200');
      advance(61);
    }
    expect(await daily.call('verification.voice.send', await anon(phone, daily))).toEqual(dailyLimit);
    advance((startOfChinaDay(serverNow()).getTime() + 86_400_000 - serverNow().getTime()) / 1000 + 1);
    expect((await daily.call('verification.sms.send', await anon(phone, daily))).code).toBe('200');
  });

  it('charges the day’s codes to a tenant: past 1,000 its users get none, other tenants still do', async () => {
    const now = serverNow();
    await daily.db.query(
      `INSERT INTO verification_code (channel, target, salt, code_hash, expires_at, created_at, tenant_code)
       SELECT 'sms', '1360000' || lpad(i::text, 4, '0'), 'salt', 'hash', $1, $2, 'T0001' FROM generate_series(1, $3::int) AS i`,
      [new Date(now.getTime() + 300_000), now, DAILY_CODES_PER_TENANT],
    );
    // The owner of the phone is of T0001, and so is a signed-in tadmin binding a new number.
    expect(await daily.call('verification.sms.send', await anon(await phoneOf('repair'), daily))).toEqual(dailyLimit);
    const tadmin = await daily.login('tadmin');
    expect(await daily.call('verification.sms.send', '13722223333', { token: tadmin })).toEqual(dailyLimit);
    // T0002's users and a number nobody owns are not charged to T0001.
    expect((await daily.call('verification.sms.send', await anon(await phoneOf('badmin'), daily))).code).toBe('200');
    expect((await daily.call('verification.sms.send', await anon('13744445555', daily))).code).toBe('200');
  });
});
