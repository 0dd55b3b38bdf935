// 消息发送 (issue 6): a message sent through an enabled channel to users picked by user,
// organisation or role, rendered from the channel's template and recorded per recipient as
// pending (scheduled), sent (into the outbox) or failed with the reason; a failed one is sent
// again. Also the mobile app's side: the caller's own messages paged, and a phone code by SMS
// or call under the verification code rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';
import { pageOf, userId } from './work-helpers';

let server: TestServer;
let tadmin: string;
let badmin: string;
let tuser: string;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin, tuser, admin] = await Promise.all([server.login('tadmin'), server.login('badmin'), server.login('tuser'), server.login('admin', ADMIN_PASSWORD)]);
});
afterAll(() => server.close());

interface SendRecord {
  id: number;
  sendCode: string;
  channelType: string;
  channelName: string;
  title: string;
  message: string;
  recipientName: string;
  address: string;
  state: string;
  failReason: string;
  attempts: number;
  audienceSummary: string;
  canResend: boolean;
}

interface Outbox {
  channel: string;
  target: string;
  content: string;
}

async function channelOf(type: string, enabled: boolean, token = tadmin): Promise<string> {
  const reply = await pageOf<{ code: string }>(server, 'notification.channel.page', token, { channelType: type, enabled: enabled ? '1' : '0' });
  return reply.data!.records[0].code;
}

async function recordsOf(sendCode: string, token = tadmin): Promise<SendRecord[]> {
  const reply = await pageOf<SendRecord>(server, 'notification.send.page', token, { sendCode }, { pageSize: 100 });
  expect(reply.code).toBe('200');
  return reply.data!.records;
}

describe('notification.send.page / notification.recipient.list', () => {
  it('lists the tenant\'s sending history per recipient in every state, never another tenant\'s', async () => {
    const reply = await pageOf<SendRecord>(server, 'notification.send.page', tadmin, {}, { pageSize: 100 });
    expect(reply.code).toBe('200');
    expect(reply.data!.total).toBeGreaterThan(200);
    for (const state of ['pending', 'sent', 'failed']) {
      const page = await pageOf<SendRecord>(server, 'notification.send.page', tadmin, { state }, { pageSize: 50 });
      expect(page.data!.total, state).toBeGreaterThan(0);
      expect(page.data!.records.every((r) => r.state === state && r.canResend === (state === 'failed')), state).toBe(true);
    }
    const failed = await pageOf<SendRecord>(server, 'notification.send.page', tadmin, { state: 'failed' }, { pageSize: 100 });
    expect(failed.data!.records.every((r) => r.failReason !== '')).toBe(true);
    expect(failed.data!.records.some((r) => r.failReason === '接收人未绑定邮箱')).toBe(true);
    const sms = await pageOf<SendRecord>(server, 'notification.send.page', tadmin, { channelType: 'sms', state: 'sent' });
    expect(sms.data!.records[0].message).toMatch(/^【云联物联网】/);
    expect(sms.data!.records[0].address).toMatch(/^1[3-9]\d{9}$/);

    const mine = new Set(reply.data!.records.map((r) => r.sendCode));
    const theirs = await pageOf<SendRecord>(server, 'notification.send.page', badmin, {}, { pageSize: 100 });
    expect(theirs.data!.total).toBeGreaterThan(0);
    expect(theirs.data!.records.some((r) => mine.has(r.sendCode))).toBe(false);
    expect((await pageOf(server, 'notification.send.page', tadmin, { state: 'lost' })).code).toBe('400');
    expect((await pageOf(server, 'notification.send.page', tuser, {})).code).toBe('403');
  });

  it('offers the users of the working organisations as recipients', async () => {
    const reply = await server.call<Array<{ id: number; name: string; hasPhone: boolean }>>('notification.recipient.list', {}, { token: tadmin });
    expect(reply.code).toBe('200');
    expect(reply.data!.map((u) => u.name)).toContain('刘洋（tuser）');
    expect(reply.data!.map((u) => u.name)).not.toContain('陈静（badmin）');
    const narrowed = await server.call<Array<{ name: string }>>('notification.recipient.list', { keyword: 'repair' }, { token: tadmin });
    expect(narrowed.data!.map((u) => u.name)).toEqual(['王强（repair）']);
    expect((await server.call('notification.recipient.list', { keyword: 1 }, { token: tadmin })).code).toBe('400');
    expect((await server.call('notification.recipient.list', {}, { token: tuser })).code).toBe('403');
  });
});

describe('notification.send.insert', () => {
  it('sends an SMS to users by name: the reachable ones get it in the outbox, the others fail with the reason', async () => {
    const channelCode = await channelOf('sms', true);
    const [repairId, tuserId] = await Promise.all([userId(server, 'repair'), userId(server, 'tuser')]);
    const reply = await server.call<{ code: string; total: number; sent: number; failed: number; pending: number }>(
      'notification.send.insert',
      { send: { channelCode, title: '停水检修通知', content: '灵隐加压泵站周六 8:00 停水检修', audienceType: 'user', userIds: [repairId, tuserId] } },
      { token: tadmin },
    );
    expect(reply.code, reply.message).toBe('200');
    expect(reply.data).toMatchObject({ total: 2, sent: 1, failed: 1, pending: 0 });
    const records = await recordsOf(reply.data!.code);
    const sent = records.find((r) => r.recipientName === '王强')!;
    expect(sent).toMatchObject({ state: 'sent', address: '13800000003', attempts: 1, message: '【云联物联网】王强您好，停水检修通知：灵隐加压泵站周六 8:00 停水检修', audienceSummary: '刘洋、王强' });
    // tuser has no phone.
    expect(records.find((r) => r.recipientName === '刘洋')).toMatchObject({ state: 'failed', failReason: '接收人未绑定手机号', canResend: true });
    const outbox = await server.call<Outbox[]>('dev.outbox', { target: '13800000003' });
    expect(outbox.data![0]).toMatchObject({ channel: 'sms', content: sent.message });
  });

  it('posts one robot message for a role, @-mentioning the recipients by phone', async () => {
    const channelCode = await channelOf('dingtalk', true);
    const reply = await server.call<{ code: string; total: number; sent: number }>(
      'notification.send.insert',
      {
        send: {
          channelCode,
          title: '水压过低告警',
          content: '灵隐加压泵站出口压力 0.18MPa',
          audienceType: 'role',
          roleCodes: ['ROLE_TENANT_REPAIR'],
          variables: [{ name: '设备名称', value: 'WMNB01000123（灵隐加压泵站）' }],
        },
      },
      { token: tadmin },
    );
    expect(reply.code, reply.message).toBe('200');
    const records = await recordsOf(reply.data!.code);
    expect(records.length).toBe(reply.data!.total);
    const delivered = records.filter((r) => r.state === 'sent');
    expect(delivered.length).toBe(reply.data!.sent);
    expect(delivered.length).toBeGreaterThan(0);
    const [post] = (await server.call<Outbox[]>('dev.outbox', {})).data!;
    expect(post.channel).toBe('dingtalk');
    expect(post.target).toMatch(/^https:\/\/oapi\.dingtalk\.com\/robot\/send\?access_token=/);
    for (const record of delivered) expect(post.content).toContain(`@${record.address}`);
    expect(delivered.every((r) => r.message === post.content)).toBe(true);
  });

  it('keeps a scheduled send pending until it is due, then sends it', async () => {
    const channelCode = await channelOf('sms', true);
    const at = new Date(Date.now() + 120_000).toISOString();
    const reply = await server.call<{ code: string; pending: number }>(
      'notification.send.insert',
      { send: { channelCode, title: '明日巡检提醒', content: '明早 9:00 巡检湖滨监测站', audienceType: 'user', userIds: [await userId(server, 'patrol')], sendTime: at } },
      { token: tadmin },
    );
    expect(reply.data).toMatchObject({ pending: 1 });
    expect((await recordsOf(reply.data!.code))[0]).toMatchObject({ state: 'pending', canResend: false });
    server.advance(180);
    expect((await recordsOf(reply.data!.code))[0]).toMatchObject({ state: 'sent', address: '13800000004' });
  });

  it('refuses bad input, a template variable left out, a disabled channel, nobody to reach, another tenant\'s channel and a role without the button', async () => {
    const channelCode = await channelOf('sms', true);
    const send = (overrides: Record<string, unknown>) => ({ send: { channelCode, title: '测试', content: '内容', audienceType: 'organization', organizationCodes: ['T0001P01'], ...overrides } });
    expect(await server.call('notification.send.insert', send({ title: '' }), { token: tadmin })).toMatchObject({ code: '400', message: '参数错误：send.title（长度不能少于1）' });
    expect(await server.call('notification.send.insert', send({ sendTime: '2020-01-01 08:00:00' }), { token: tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：sendTime（定时发送时间不能早于当前时间）',
    });
    expect(await server.call('notification.send.insert', send({ organizationCodes: ['T0002P01'] }), { token: tadmin })).toMatchObject({ code: '404', message: '组织不存在' });
    const alarmRobot = (await pageOf<{ code: string; name: string }>(server, 'notification.channel.page', tadmin, { keyword: '设备告警群' })).data!.records[0].code;
    expect(await server.call('notification.send.insert', send({ channelCode: alarmRobot }), { token: tadmin })).toMatchObject({ code: '400', message: '参数错误：variables（模板变量“设备名称”未填写）' });
    expect(await server.call('notification.send.insert', send({ channelCode: await channelOf('feishu', false) }), { token: tadmin })).toMatchObject({ code: '409', message: '渠道已停用，请先启用' });
    expect(await server.call('notification.send.insert', send({ audienceType: 'role', roleCodes: ['ROLE_TENANT_PATROL'] }), { token: badmin })).toMatchObject({ code: '404', message: '通知渠道不存在' });
    const theirSms = await channelOf('sms', true, badmin);
    expect(await server.call('notification.send.insert', send({ channelCode: theirSms, audienceType: 'role', roleCodes: ['ROLE_TENANT_PATROL'] }), { token: badmin })).toMatchObject({
      code: '409',
      message: '所选范围内没有可接收消息的用户',
    });
    expect((await server.call('notification.send.insert', send({}), { token: tuser })).code).toBe('403');
  });
});

describe('notification.send.resend', () => {
  it('sends a failed message again once its cause is gone', async () => {
    const [failed] = await server.db.query<{ id: number }>(
      `SELECT r.id FROM notification_send_recipient r JOIN notification_send s ON s.id = r.send_id JOIN notification_channel c ON c.id = s.channel_id
        WHERE s.organization_code = 'T0001' AND r.state = 'failed' AND r.address <> '' AND c.enabled ORDER BY r.id LIMIT 1`,
    );
    const reply = await server.call('notification.send.resend', { id: failed.id }, { token: tadmin });
    expect(reply.code, reply.message).toBe('200');
    const [row] = await server.db.query<{ state: string; attempts: number; fail_reason: string; address: string }>('SELECT state, attempts, fail_reason, address FROM notification_send_recipient WHERE id = $1', [failed.id]);
    expect(row).toMatchObject({ state: 'sent', fail_reason: '' });
    expect(row.attempts).toBeGreaterThan(1);
    expect((await server.call<Outbox[]>('dev.outbox', {})).data![0].target).not.toBe('');
    expect(await server.call('notification.send.resend', { id: failed.id }, { token: tadmin })).toMatchObject({ code: '409', message: '只有发送失败的消息可以重新发送' });
  });

  it('records another attempt when the recipient is still out of reach, and tells why', async () => {
    const [failed] = await server.db.query<{ id: number; attempts: number }>(
      `SELECT r.id, r.attempts FROM notification_send_recipient r JOIN notification_send s ON s.id = r.send_id JOIN notification_channel c ON c.id = s.channel_id
        WHERE s.organization_code = 'T0001' AND r.state = 'failed' AND r.fail_reason = '接收人未绑定邮箱' AND c.enabled ORDER BY r.id LIMIT 1`,
    );
    expect(await server.call('notification.send.resend', { id: failed.id }, { token: tadmin })).toMatchObject({ code: '409', message: '重新发送失败：接收人未绑定邮箱' });
    const [row] = await server.db.query<{ attempts: number }>('SELECT attempts FROM notification_send_recipient WHERE id = $1', [failed.id]);
    expect(row.attempts).toBe(failed.attempts + 1);
  });

  it('refuses bad input, a disabled channel, another tenant\'s record and a role without the button', async () => {
    const [failed] = await server.db.query<{ id: number; code: string }>(
      `SELECT r.id, c.code FROM notification_send_recipient r JOIN notification_send s ON s.id = r.send_id JOIN notification_channel c ON c.id = s.channel_id
        WHERE s.organization_code = 'T0001' AND r.state = 'failed' AND c.enabled AND c.channel_type = 'sms' ORDER BY r.id LIMIT 1`,
    );
    expect((await server.call('notification.send.resend', { id: 'x' }, { token: tadmin })).code).toBe('400');
    expect(await server.call('notification.send.resend', { id: failed.id }, { token: badmin })).toMatchObject({ code: '404', message: '发送记录不存在' });
    expect((await server.call('notification.send.resend', { id: failed.id }, { token: tuser })).code).toBe('403');
    await server.call('notification.channel.enable', { code: failed.code, enabled: false }, { token: tadmin });
    expect(await server.call('notification.send.resend', { id: failed.id }, { token: tadmin })).toMatchObject({ code: '409', message: '渠道已停用，请先启用' });
    await server.call('notification.channel.enable', { code: failed.code, enabled: true }, { token: tadmin });
  });
});

describe('notification.mobile.page', () => {
  it('pages the caller\'s own messages of both tabs, filtered by tab and state', async () => {
    const reply = await pageOf<{ id: number; tabType: number; notificationStatus: string }>(server, 'notification.mobile.page', tuser, {}, { pageSize: 100 });
    expect(reply.code).toBe('200');
    const [{ count }] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM notification_recipient WHERE user_id = $1', [await userId(server, 'tuser')]);
    expect(reply.data!.total).toBe(count);
    expect(new Set(reply.data!.records.map((r) => r.tabType))).toEqual(new Set([1, 2]));
    const unreadSystem = await pageOf<{ tabType: number; notificationStatus: string }>(server, 'notification.mobile.page', tuser, { tabType: 2, notificationStatus: '0' });
    expect(unreadSystem.data!.records.every((r) => r.tabType === 2 && r.notificationStatus === '0')).toBe(true);
    const theirs = await pageOf<{ id: number }>(server, 'notification.mobile.page', badmin, {}, { pageSize: 100 });
    const mine = new Set(reply.data!.records.map((r) => r.id));
    const [{ shared }] = await server.db.query<{ shared: number }>(
      'SELECT count(*)::int AS shared FROM notification_recipient a JOIN notification_recipient b ON a.notification_id = b.notification_id WHERE a.user_id = $1 AND b.user_id = $2',
      [await userId(server, 'tuser'), await userId(server, 'badmin')],
    );
    // Only platform-wide notices are shared between the two.
    expect(theirs.data!.records.filter((r) => mine.has(r.id)).length).toBeLessThanOrEqual(shared);
    expect((await pageOf(server, 'notification.mobile.page', tuser, { tabType: 3 })).code).toBe('400');
    expect((await server.call('notification.mobile.page', {})).code).toBe('301');
  });
});

describe('notification.phoneCode.sms / call', () => {
  it('sends a code by SMS or by call under the verification code rules', async () => {
    const sms = await server.call('notification.phoneCode.sms', '13800000001', { token: tadmin });
    expect(sms).toMatchObject({ code: '200', data: '发送成功' });
    const [entry] = (await server.call<Array<{ channel: string; code: string; content: string }>>('dev.outbox', { target: '13800000001' })).data!;
    expect(entry).toMatchObject({ channel: 'sms' });
    expect(entry.code).toMatch(/^\d{6}$/);
    expect(entry.content).toContain('5分钟内有效');
    // One per number per 60 s, whichever way it goes.
    expect(await server.call('notification.phoneCode.call', '13800000001', { token: tadmin })).toMatchObject({ code: '429', message: '操作过于频繁，请稍后再试' });
    server.advance(61);
    expect((await server.call('notification.phoneCode.call', '13800000001', { token: tadmin })).code).toBe('200');
    expect((await server.call<Array<{ channel: string }>>('dev.outbox', { target: '13800000001' })).data![0].channel).toBe('voice');
    expect(await server.call('notification.phoneCode.sms', '1380000', { token: tadmin })).toMatchObject({ code: '400', message: '请输入正确的手机号码' });
    expect((await server.call('notification.phoneCode.sms', { phone: '13800000001' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('notification.phoneCode.sms', '13800000001')).code).toBe('301');
  });
});

describe('platform staff', () => {
  it('send through the platform\'s own channels to tenant admins', async () => {
    const list = await server.call<Array<{ code: string; label: string }>>('notification.channel.list', {}, { token: admin });
    expect(list.data!.map((c) => c.label).sort()).toEqual(['短信 · 平台短信通道', '邮件 · 平台通知邮箱']);
    const sms = list.data!.find((c) => c.label.startsWith('短信'))!;
    const reply = await server.call<{ code: string; sent: number }>(
      'notification.send.insert',
      { send: { channelCode: sms.code, title: '租户到期提醒', content: '贵司平台服务将于 30 天后到期', audienceType: 'role', roleCodes: ['TENANT_ADMIN'] } },
      { token: admin },
    );
    expect(reply.data).toMatchObject({ sent: 2 });
    expect((await server.call<Outbox[]>('dev.outbox', { target: '13900000002' })).data![0].content).toBe('【云联物联网平台】陈静您好，租户到期提醒：贵司平台服务将于 30 天后到期');
  });
});
