import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrganizationNode } from '../../server/domain/organizations';
import type { WechatLoginResult } from '../../server/operations/wechat';
import { ADMIN_PASSWORD, DEMO_PASSWORD, startServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function newTicket(): Promise<string> {
  const reply = await server.call<{ ticket: string; qrContent: string; expiresIn: number }>('auth.ticket');
  expect(reply.code).toBe('200');
  expect(reply.data?.expiresIn).toBe(300);
  expect(reply.data?.qrContent).toContain(reply.data?.ticket);
  return reply.data!.ticket;
}

const poll = async (ticket: string) => (await server.call<WechatLoginResult>('auth.wechat.login', { ticket })).data!;
const scan = (ticket: string, openId: string) => server.call('dev.wechat.scan', { ticket, openId });

async function unboundKey(openId: string): Promise<string> {
  const ticket = await newTicket();
  await scan(ticket, openId);
  const result = await poll(ticket);
  if (result.status !== 'unbound') throw new Error(`expected unbound, got ${result.status}`);
  return result.bindKey;
}

describe('WeChat scan login', () => {
  it('is pending until scanned, then signs in a bound account', async () => {
    const ticket = await newTicket();
    expect(await poll(ticket)).toEqual({ status: 'pending' });
    expect((await scan(ticket, 'wx-demo-tadmin')).code).toBe('200');
    const result = await poll(ticket);
    expect(result.status).toBe('bound');
    if (result.status !== 'bound') return;
    const init = await server.call<{ loginUserName: string }>('auth.init', {}, { token: result.accessToken });
    expect(init.data?.loginUserName).toBe('tadmin');
    // A ticket signs in once.
    expect(await poll(ticket)).toEqual({ status: 'expired' });
    const [log] = await server.db.query<{ method: string; success: boolean }>('SELECT method, success FROM login_log ORDER BY id DESC LIMIT 1');
    expect(log).toEqual({ method: 'wechat', success: true });
  });

  it('expires tickets after 300 s, and unknown ones are expired', async () => {
    const ticket = await newTicket();
    server.advance(301);
    expect(await poll(ticket)).toEqual({ status: 'expired' });
    expect((await scan(ticket, 'wx-demo-tadmin')).code).toBe('404');
    expect(await poll('no-such-ticket')).toEqual({ status: 'expired' });
  });

  it('hands an unbound scanner a bind key; binding checks the password, then signs in', async () => {
    const bindKey = await unboundKey('wx-new-tuser');
    expect(bindKey.length).toBeGreaterThan(20);
    expect((await server.call('auth.wechat.bind', { bindKey, loginName: 'tuser', password: 'Wrong@2026' })).code).toBe('401');
    const bound = await server.call<{ accessToken: string }>('auth.wechat.bind', { bindKey, loginName: 'tuser', password: DEMO_PASSWORD });
    expect(bound.code).toBe('200');
    expect((await server.call<{ loginUserName: string }>('auth.init', {}, { token: bound.data!.accessToken })).data?.loginUserName).toBe('tuser');
    // The key is spent; the next scan by that openId signs tuser in directly.
    expect((await server.call('auth.wechat.bind', { bindKey, loginName: 'tuser', password: DEMO_PASSWORD })).message).toBe('绑定已失效，请重新扫码');
    const ticket = await newTicket();
    await scan(ticket, 'wx-new-tuser');
    expect((await poll(ticket)).status).toBe('bound');
  });

  it('refuses to bind an account already bound to another WeChat', async () => {
    const bindKey = await unboundKey('wx-someone-else');
    expect(await server.call('auth.wechat.bind', { bindKey, loginName: 'tadmin', password: DEMO_PASSWORD })).toMatchObject({ code: '409' });
  });

  it('registers a new tenant and its administrator, bound to the scanner', async () => {
    const bindKey = await unboundKey('wx-new-company');
    // A registration in progress may have a code sent to a phone nobody owns yet: its bind key ties the request to the scan.
    expect((await server.call('verification.sms.send', { target: '13700000077', bindKey })).code).toBe('200');
    const code = await server.latestCode('13700000077');
    const registration = { bindKey, tenantName: '宁波新材料有限公司', userName: '陈晓', phoneNumber: '13700000077', code, password: 'Start@2027' };
    expect((await server.call('auth.wechat.register', { ...registration, password: 'weak' })).message).toBe('密码长度需8-16位，须包含数字、字母、符号中至少2种元素');
    expect((await server.call('auth.wechat.register', { ...registration, code: code === '000000' ? '111111' : '000000' })).message).toBe('验证码错误或已过期');
    const reply = await server.call<{ accessToken: string }>('auth.wechat.register', registration);
    expect(reply.code).toBe('200');
    const token = reply.data!.accessToken;
    const init = await server.call<Record<string, unknown>>('auth.init', {}, { token });
    expect(init.data).toMatchObject({ loginUserName: '13700000077', userName: '陈晓', phoneNumber: '13700000077', roleList: ['TENANT_ADMIN'], orgCodeList: ['T0003'] });
    const tree = await server.call<OrganizationNode[]>('organization.tree', {}, { token });
    expect(tree.data).toEqual([expect.objectContaining({ organizationCode: 'T0003', organizationName: '宁波新材料有限公司', organizationType: 2, parentCode: 'P0001', children: [] })]);
    // The platform sees the new tenant under P0001; the new admin signs in with the password or by scanning.
    const admin = await server.call<OrganizationNode[]>('organization.tree', {}, { token: await server.login('admin', ADMIN_PASSWORD) });
    expect(admin.data?.[0].children.map((node) => node.organizationCode)).toEqual(['T0001', 'T0002', 'T0003']);
    expect((await server.call('auth.login', { loginName: '13700000077', password: 'Start@2027' })).code).toBe('200');
    const ticket = await newTicket();
    await scan(ticket, 'wx-new-company');
    expect((await poll(ticket)).status).toBe('bound');
  });

  it('sends a registration\'s code only with its live bind key, at most 5 per key (issue 18)', async () => {
    // Before, any WeChat registration in progress let anyone have codes sent to any number.
    const bindKey = await unboundKey('wx-code-limit');
    server.advance(61);
    expect(await server.call('verification.sms.send', { target: '13700000301', ...(await server.solvedCaptcha()) })).toEqual({ code: '200', message: '成功', data: '发送成功' });
    expect((await server.call<unknown[]>('dev.outbox', { target: '13700000301' })).data).toEqual([]);
    expect(await server.call('verification.sms.send', '13700000302')).toEqual({ code: '400', message: '请先输入图形验证码', data: null });
    expect(await server.call('verification.sms.send', { target: '13700000303', bindKey: 'not-a-key' })).toEqual({ code: '400', message: '绑定已失效，请重新扫码', data: null });
    for (let i = 0; i < 5; i += 1) expect((await server.call('verification.sms.send', { target: `1370000031${i}`, bindKey })).code).toBe('200');
    expect(await server.call('verification.sms.send', { target: '13700000319', bindKey })).toEqual({ code: '429', message: '验证码发送次数过多，请重新扫码', data: null });
    expect((await server.call<unknown[]>('dev.outbox', { target: '13700000310' })).data).toHaveLength(1);
  });

  it('refuses to register a phone that already has an account', async () => {
    const bindKey = await unboundKey('wx-late-comer');
    server.advance(61);
    await server.call('verification.sms.send', { target: '13800000004', bindKey });
    const code = await server.latestCode('13800000004');
    const reply = await server.call('auth.wechat.register', { bindKey, tenantName: '重复公司', userName: '赵磊', phoneNumber: '13800000004', code, password: 'Start@2027' });
    expect(reply).toEqual({ code: '409', message: '该手机号已注册', data: null });
  });

  it('resets a password by a scan of a bound WeChat account', async () => {
    const ticket = await newTicket();
    const refused = await server.call('user.password.forget', { way: 'wechat', ticket, password: 'Scan@2027' });
    expect(refused.code).toBe('400');
    await scan(ticket, 'wx-demo-tadmin');
    expect((await server.call('user.password.forget', { way: 'wechat', ticket, password: 'Scan@2027' })).code).toBe('200');
    expect((await server.call('auth.login', { loginName: 'tadmin', password: 'Scan@2027' })).code).toBe('200');
    expect((await server.call('user.password.forget', { way: 'wechat', ticket, password: 'Scan@2028' })).code).toBe('400');
  });
});
