// Codes sent by signed-in callers (issue 30, "Sessions and codes"): a user of the lowest role spent
// the tenant's 1,000 daily codes in 8 s, sending to numbers of their choice, and then phone binding
// and password recovery were blocked for the whole tenant that day. Now a signed-in caller's codes
// go to their own phone or mail or to the one number (or mail) they are binding, a new binding
// voiding the one before; each user has an hourly limit and a daily share below the tenant's,
// whichever operation sends the code; and the tenant's other users and its password recovery
// still get codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE } from '../../server/db/database';
import { startOfBusinessDay } from '../../server/domain/businessTime';
import { CODES_PER_USER_PER_HOUR, DAILY_CODES_PER_TENANT, DAILY_CODES_PER_USER } from '../../server/security/verification';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let offsetMs = 0;
const serverNow = () => new Date(Date.now() + offsetMs);
const advance = (seconds: number) => {
  offsetMs += seconds * 1000;
  server.advance(seconds);
};

const hourly = { code: '429', message: '验证码发送次数过多，请1小时后再试', data: null };
const daily = { code: '429', message: '今日验证码发送次数已达上限，请明天再试', data: null };
const number = (n: number) => `1371${String(n).padStart(7, '0')}`;

beforeAll(async () => {
  server = await startServer();
  // Keep clear of China midnight: the day's share is counted over the next few hours.
  const untilMidnight = startOfBusinessDay(serverNow(), DEFAULT_TIME_ZONE).getTime() + 86_400_000 - serverNow().getTime();
  if (untilMidnight < 6 * 3_600_000) advance(untilMidnight / 1000 + 60);
});
afterAll(() => server.close());

describe('a signed-in caller’s codes', () => {
  it('one user of the lowest role cannot spend the tenant’s codes: an hourly limit, then a daily share', async () => {
    expect(CODES_PER_USER_PER_HOUR).toBeLessThan(DAILY_CODES_PER_USER);
    expect(DAILY_CODES_PER_USER * 10).toBeLessThanOrEqual(DAILY_CODES_PER_TENANT);
    let token = '';
    // Every operation that sends a signed-in caller's phone code counts alike.
    const senders = ['verification.sms.send', 'verification.voice.send', 'notification.phoneCode.sms', 'notification.phoneCode.call'];
    let next = 0;
    let sent = 0;
    for (let hour = 0; sent < DAILY_CODES_PER_USER; hour += 1) {
      // Signed in again each hour (an access token lasts two).
      token = await server.login('tuser');
      const answers = [];
      for (let i = 0; i < CODES_PER_USER_PER_HOUR + 4; i += 1) answers.push(await server.call(senders[next % senders.length], number(next++), { token }));
      const accepted = answers.filter((answer) => answer.code === '200').length;
      sent += accepted;
      expect(accepted, `hour ${hour}`).toBe(Math.min(CODES_PER_USER_PER_HOUR, DAILY_CODES_PER_USER - (sent - accepted)));
      const refusals = answers.filter((answer) => answer.code !== '200');
      for (const refusal of refusals) expect([hourly, daily]).toContainEqual(refusal);
      advance(3_601);
    }
    expect(sent).toBe(DAILY_CODES_PER_USER);
    // The day's share is spent: refused, however long the wait within the day.
    expect(await server.call('verification.sms.send', number(next), { token })).toEqual(daily);
    const outboxed = await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox WHERE target LIKE '1371%'");
    expect(outboxed[0].n).toBe(DAILY_CODES_PER_USER);

    // The tenant's other users and its password recovery still get codes.
    const other = await server.login('hz01');
    const [{ phone }] = await server.db.query<{ phone: string }>("SELECT phone FROM app_user WHERE login_name = 'hz01'");
    expect((await server.call('verification.sms.send', phone, { token: other })).code).toBe('200');
    advance(61);
    expect((await server.call('verification.sms.send', { target: phone, ...(await server.solvedCaptcha()) })).code).toBe('200');
  });

  it('goes to one number being bound at a time: a new number voids the code of the one before', async () => {
    const token = await server.login('newbie');
    expect((await server.call('verification.sms.send', '13722220001', { token })).code).toBe('200');
    const first = await server.latestCode('13722220001');
    expect((await server.call('verification.sms.send', '13722220002', { token })).code).toBe('200');
    const second = await server.latestCode('13722220002');
    expect(await server.call('user.phone.modify', { phoneNumber: '13722220001', code: first }, { token })).toEqual({ code: '400', message: '验证码错误或已过期', data: null });
    expect(await server.call('user.phone.modify', { phoneNumber: '13722220002', code: second }, { token })).toEqual({ code: '200', message: '成功', data: null });
  });

  it('the code to the caller’s own phone stays good while they ask for the new number’s (SPEC §4 mode 2)', async () => {
    const token = await server.login('implement');
    expect((await server.call('verification.sms.send', '13800000005', { token })).code).toBe('200');
    const own = await server.latestCode('13800000005');
    expect((await server.call('verification.sms.send', '13722220003', { token })).code).toBe('200');
    expect((await server.call('verification.sms.send', '13722220004', { token })).code).toBe('200');
    expect(await server.call('verification.phone.verify', { uuid: '13800000005', code: own }, { token })).toEqual({ code: '200', message: '成功', data: null });
    const code = await server.latestCode('13722220004');
    expect(await server.call('user.phone.modify', { phoneNumber: '13722220004', code }, { token })).toEqual({ code: '200', message: '成功', data: null });
  });

  it('a mail binding is its own: it does not void the phone being bound', async () => {
    const token = await server.login('patrol');
    expect((await server.call('verification.sms.send', '13722220005', { token })).code).toBe('200');
    expect((await server.call('verification.mail.send', 'zhao.lei@example.com', { token })).code).toBe('200');
    const mailCode = await server.latestCode('zhao.lei@example.com');
    expect(await server.call('user.mail.modify', { mail: 'zhao.lei@example.com', code: mailCode }, { token })).toEqual({ code: '200', message: '成功', data: null });
    // The number being bound still has its live code.
    const [live] = await server.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM verification_code WHERE target = '13722220005' AND voided_at IS NULL AND consumed_at IS NULL",
    );
    expect(live.n).toBe(1);
  });

  it('the PC mail code is counted against its caller and charged to their tenant', async () => {
    const token = await server.login('badmin');
    expect((await server.call('verification.mail.get', {}, { token })).code).toBe('200');
    const [row] = await server.db.query<{ tenant_code: string | null; requested_by: number | null; binding: boolean }>(
      "SELECT tenant_code, requested_by, binding FROM verification_code WHERE target = 'badmin@example.com' ORDER BY id DESC LIMIT 1",
    );
    const [{ id }] = await server.db.query<{ id: number }>("SELECT id FROM app_user WHERE login_name = 'badmin'");
    expect(row).toEqual({ tenant_code: 'T0002', requested_by: id, binding: false });
  });
});
