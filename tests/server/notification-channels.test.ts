// 发送配置 (issue 6): a tenant's notification channels, one configuration per channel with the
// fields of its type, secrets stored but answered masked (saving the mask keeps the secret), a
// ${变量} template, 测试发送 into the server's outbox (never the network) and enable/disable.
// Another tenant's channel answers "404"; a role without the buttons "403".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelSecretsOf } from './channel-helpers';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';
import { pageOf } from './work-helpers';

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

interface ChannelRecord {
  code: string;
  name: string;
  channelType: string;
  enabled: string;
  template: string;
  templateVariables: string[];
  variables: Array<{ name: string; value: string }>;
  summary: string;
  ownerName: string;
  webhook?: string;
  secret?: string;
  mailPassword?: string;
  accessKeySecret?: string;
  appSecret?: string;
  smtpHost?: string;
  lastTestTime: string | null;
}

const DINGTALK_SECRET = 'SEC6f1e9c2b4d7a8e0f3b5c6d9e1a2b4c7d8e0f1a3b5c6d8e9f0a1b2c3d4e5f6a7b';
const dingtalk = (overrides: Record<string, unknown> = {}) => ({
  name: '泵站巡检群机器人',
  channelType: 'dingtalk',
  webhook: 'https://oapi.dingtalk.com/robot/send?access_token=2f3a4b5c6d7e8f90a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e',
  secret: DINGTALK_SECRET,
  template: '【${标题}】${内容}（泵站：${泵站名称}，${时间}）',
  remark: '灵隐、龙井两座泵站',
  ...overrides,
});

/** The channel's secrets as stored (sealed in the table: opened as its transport opens them). */
async function storedSecrets(code: string): Promise<Record<string, string>> {
  const [row] = await server.db.query<{ id: number }>('SELECT id FROM notification_channel WHERE code = $1', [code]);
  return (await channelSecretsOf(server, row.id)) as Record<string, string>;
}

async function firstChannel(token: string, param: Record<string, unknown>): Promise<ChannelRecord> {
  const reply = await pageOf<ChannelRecord>(server, 'notification.channel.page', token, param, { pageSize: 50 });
  expect(reply.code).toBe('200');
  return reply.data!.records[0];
}

interface Outbox {
  channel: string;
  target: string;
  content: string;
}

describe('notification.channel.page / detail', () => {
  it('lists the tenant\'s channels of every type, secrets masked, and nothing of another tenant', async () => {
    const reply = await pageOf<ChannelRecord>(server, 'notification.channel.page', tadmin, {}, { pageSize: 50 });
    expect(reply.code).toBe('200');
    const records = reply.data!.records;
    expect(new Set(records.map((r) => r.channelType))).toEqual(new Set(['dingtalk', 'feishu', 'mail', 'sms', 'voice', 'wechat']));
    expect(records.some((r) => r.enabled === '1') && records.some((r) => r.enabled === '0')).toBe(true);
    expect(records.every((r) => r.ownerName === '杭州云联科技有限公司')).toBe(true);
    const text = JSON.stringify(records);
    const [{ code: storedCode }] = await server.db.query<{ code: string }>("SELECT code FROM notification_channel WHERE tenant_code = 'T0001' AND channel_type = 'dingtalk' LIMIT 1");
    const stored = await storedSecrets(storedCode);
    expect(text).not.toContain(stored.secret);
    const robot = records.find((r) => r.channelType === 'dingtalk')!;
    expect(robot.secret).toMatch(/^\*{4}[0-9a-f]{4}$/);
    expect(robot.secret!.slice(-4)).toBe(stored.secret.slice(-4));
    // Only the fields of its own type.
    expect(robot.smtpHost).toBeUndefined();
    const mail = records.find((r) => r.channelType === 'mail')!;
    expect(mail).toMatchObject({ smtpHost: 'smtp.exmail.qq.com' });
    expect(mail.mailPassword).toMatch(/^\*{4}/);
    expect(mail.webhook).toBeUndefined();

    const theirs = await pageOf<ChannelRecord>(server, 'notification.channel.page', badmin, {}, { pageSize: 50 });
    expect(theirs.data!.records.length).toBeGreaterThan(0);
    expect(theirs.data!.records.every((r) => r.ownerName === '苏州智水环境科技有限公司')).toBe(true);
    expect(theirs.data!.records.map((r) => r.code)).not.toContain(robot.code);

    const sms = await pageOf<ChannelRecord>(server, 'notification.channel.page', tadmin, { channelType: 'sms', enabled: '1' });
    expect(sms.data!.records.every((r) => r.channelType === 'sms' && r.enabled === '1')).toBe(true);
    // Platform staff above the tenants see every tenant's channels and the platform's own.
    const all = await pageOf<ChannelRecord>(server, 'notification.channel.page', admin, {}, { pageSize: 50 });
    expect(new Set(all.data!.records.map((r) => r.ownerName))).toEqual(new Set(['杭州云联科技有限公司', '苏州智水环境科技有限公司', '平台']));
  });

  it('refuses an unknown filter, a role without the screen and another tenant\'s channel', async () => {
    const bad = await pageOf(server, 'notification.channel.page', tadmin, { channelType: 'telegram' });
    expect(bad).toMatchObject({ code: '400', message: '参数错误：channelType（取值不在允许范围内）' });
    expect((await pageOf(server, 'notification.channel.page', tuser, {})).code).toBe('403');
    const robot = await firstChannel(tadmin, { channelType: 'dingtalk' });
    const detail = await server.call<ChannelRecord>('notification.channel.detail', { code: robot.code }, { token: tadmin });
    expect(detail.data).toMatchObject({ code: robot.code, channelType: 'dingtalk', webhook: expect.stringMatching(/^https:\/\/oapi\.dingtalk\.com\/robot\/send\?access_token=/) });
    expect((await server.call('notification.channel.detail', { code: robot.code }, { token: badmin })).code).toBe('404');
    expect((await server.call('notification.channel.detail', { code: 'robot' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('notification.channel.detail', { code: robot.code }, { token: tuser })).code).toBe('403');
  });
});

describe('notification.channel.insert / modify', () => {
  it('saves a DingTalk robot: the secret stored, answered masked; saving the mask keeps it', async () => {
    const created = await server.call<{ code: string }>('notification.channel.insert', { channel: dingtalk() }, { token: tadmin });
    expect(created.code).toBe('200');
    const code = created.data!.code;
    expect(code).toMatch(/^QD\d{6}$/);
    expect((await storedSecrets(code)).secret).toBe(DINGTALK_SECRET);
    const detail = (await server.call<ChannelRecord>('notification.channel.detail', { code }, { token: tadmin })).data!;
    expect(detail).toMatchObject({ name: '泵站巡检群机器人', enabled: '1', secret: `****${DINGTALK_SECRET.slice(-4)}`, templateVariables: ['标题', '内容', '泵站名称', '时间'] });
    expect(detail.variables).toEqual([{ name: '泵站名称', value: '' }]);
    expect(JSON.stringify(detail)).not.toContain(DINGTALK_SECRET);

    // The form sends back what it loaded: the masked secret keeps the stored one.
    const renamed = await server.call('notification.channel.modify', { code, channel: dingtalk({ name: '泵站值班群机器人', secret: detail.secret }) }, { token: tadmin });
    expect(renamed.code).toBe('200');
    expect((await storedSecrets(code)).secret).toBe(DINGTALK_SECRET);
    // A new secret replaces it; another mask is refused.
    const replaced = await server.call('notification.channel.modify', { code, channel: dingtalk({ secret: 'SECabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789' }) }, { token: tadmin });
    expect(replaced.code).toBe('200');
    expect((await storedSecrets(code)).secret).toBe('SECabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789');
    expect(await server.call('notification.channel.modify', { code, channel: dingtalk({ secret: '****9999' }) }, { token: tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：secret（请输入完整的密钥）',
    });
  });

  it('keeps only the fields of the chosen type and requires all of them', async () => {
    const mail = {
      name: '客服邮箱',
      channelType: 'mail',
      smtpHost: 'smtp.exmail.qq.com',
      smtpPort: 465,
      smtpTls: true,
      mailAccount: 'service@hzyunlian.com',
      mailPassword: 'kq8Rz2mWx7Tn4Lp9',
      sender: 'service@hzyunlian.com',
      // A field of another type (a form may leave one behind) is not kept.
      webhook: 'https://oapi.dingtalk.com/robot/send?access_token=abc',
      template: '${姓名}，您好：${内容}',
    };
    const created = await server.call<{ code: string }>('notification.channel.insert', { channel: mail }, { token: tadmin });
    expect(created.code).toBe('200');
    const [row] = await server.db.query<{ settings: Record<string, unknown> }>('SELECT settings FROM notification_channel WHERE code = $1', [created.data!.code]);
    expect(row.settings).toEqual({ smtpHost: 'smtp.exmail.qq.com', smtpPort: 465, smtpTls: true, mailAccount: 'service@hzyunlian.com', sender: 'service@hzyunlian.com' });

    const { smtpHost: _host, ...withoutHost } = mail;
    expect(await server.call('notification.channel.insert', { channel: { ...withoutHost, name: '客服邮箱2' } }, { token: tadmin })).toMatchObject({ code: '400', message: '参数错误：smtpHost（不能为空）' });
    expect(await server.call('notification.channel.insert', { channel: { ...mail, name: '客服邮箱3', mailPassword: '' } }, { token: tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：mailPassword（不能为空）',
    });
    expect(await server.call('notification.channel.insert', { channel: dingtalk({ name: '伪造机器人', webhook: 'https://evil.example.com/robot/send?access_token=1' }) }, { token: tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：webhook（请填写钉钉机器人的 Webhook 地址）',
    });
    expect(await server.call('notification.channel.insert', { channel: { ...dingtalk(), password: 'x' } }, { token: tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：channel.password（是不允许的字段）',
    });
    expect(await server.call('notification.channel.insert', { channel: dingtalk({ name: 'x'.repeat(65) }) }, { token: tadmin })).toMatchObject({ code: '400', message: '参数错误：channel.name（长度不能超过64）' });
  });

  it('refuses a name the tenant already uses, a change of type, another tenant\'s channel and a role without the button', async () => {
    const robot = await firstChannel(tadmin, { channelType: 'dingtalk' });
    expect(await server.call('notification.channel.insert', { channel: dingtalk({ name: robot.name }) }, { token: tadmin })).toMatchObject({ code: '409', message: '渠道名称已存在' });
    // The same name in another tenant is that tenant's own business.
    expect((await server.call('notification.channel.insert', { channel: dingtalk({ name: robot.name }) }, { token: badmin })).code).toBe('200');
    const sms = await firstChannel(tadmin, { channelType: 'sms' });
    expect(await server.call('notification.channel.modify', { code: sms.code, channel: dingtalk({ name: sms.name }) }, { token: tadmin })).toMatchObject({
      code: '409',
      message: '渠道类型保存后不能修改，请新建一个渠道',
    });
    expect((await server.call('notification.channel.modify', { code: robot.code, channel: dingtalk() }, { token: badmin })).code).toBe('404');
    expect((await server.call('notification.channel.insert', { channel: dingtalk({ name: '普通用户的机器人' }) }, { token: tuser })).code).toBe('403');
    expect((await server.call('notification.channel.modify', { code: robot.code, channel: dingtalk() }, { token: tuser })).code).toBe('403');
  });
});

describe('notification.channel.test', () => {
  it('renders the template and puts the message in the outbox: a robot into its chat, an SMS to a phone', async () => {
    const created = await server.call<{ code: string }>('notification.channel.insert', { channel: dingtalk({ name: '测试发送机器人' }) }, { token: tadmin });
    const code = created.data!.code;
    const sent = await server.call<{ target: string; content: string }>('notification.channel.test', { code, variables: [{ name: '泵站名称', value: '灵隐加压泵站' }] }, { token: tadmin });
    expect(sent.code).toBe('200');
    expect(sent.data!.target).toBe(dingtalk().webhook);
    expect(sent.data!.content).toMatch(/^【测试消息】这是一条来自“测试发送机器人”的测试消息，收到即表示渠道配置正确。（泵站：灵隐加压泵站，\d{4}-\d{2}-\d{2} \d{2}:\d{2}）$/);
    const outbox = await server.call<Outbox[]>('dev.outbox', {});
    expect(outbox.data![0]).toMatchObject({ channel: 'dingtalk', target: dingtalk().webhook, content: sent.data!.content });
    expect(server.logs.join('\n')).toContain('[outbox] dingtalk oapi.dingtalk.com');
    expect(server.logs.join('\n')).not.toContain(DINGTALK_SECRET);
    const detail = await server.call<ChannelRecord>('notification.channel.detail', { code }, { token: tadmin });
    expect(detail.data!.lastTestTime).not.toBeNull();

    const sms = await firstChannel(tadmin, { channelType: 'sms', enabled: '1' });
    const text = await server.call<{ content: string }>('notification.channel.test', { code: sms.code, target: '13800000001' }, { token: tadmin });
    expect(text.code).toBe('200');
    expect(text.data!.content).toBe('【云联物联网】张明您好，测试消息：这是一条来自“阿里云短信”的测试消息，收到即表示渠道配置正确。');
    expect((await server.call<Outbox[]>('dev.outbox', { target: '13800000001' })).data![0]).toMatchObject({ channel: 'sms', code: '', content: text.data!.content });
  });

  it('refuses a missing variable, a wrong address, a disabled channel, another tenant\'s and a role without the button', async () => {
    const created = await server.call<{ code: string }>('notification.channel.insert', { channel: dingtalk({ name: '变量校验机器人' }) }, { token: tadmin });
    const code = created.data!.code;
    expect(await server.call('notification.channel.test', { code }, { token: tadmin })).toMatchObject({ code: '400', message: '参数错误：variables（模板变量“泵站名称”未填写）' });
    const sms = await firstChannel(tadmin, { channelType: 'sms', enabled: '1' });
    expect(await server.call('notification.channel.test', { code: sms.code, target: '12345' }, { token: tadmin })).toMatchObject({ code: '400', message: '请输入正确的手机号码' });
    expect(await server.call('notification.channel.test', { code: sms.code }, { token: tadmin })).toMatchObject({ code: '400', message: '参数错误：target（不能为空）' });
    const disabled = await firstChannel(tadmin, { enabled: '0' });
    expect(await server.call('notification.channel.test', { code: disabled.code, target: '13800000001' }, { token: tadmin })).toMatchObject({ code: '409', message: '渠道已停用，请先启用' });
    expect((await server.call('notification.channel.test', { code: sms.code, target: '13800000001' }, { token: badmin })).code).toBe('404');
    expect((await server.call('notification.channel.test', { code: sms.code, target: '13800000001' }, { token: tuser })).code).toBe('403');
  });
});

describe('notification.channel.enable / delete', () => {
  it('disables and enables a channel, refusing the state it is already in', async () => {
    const created = await server.call<{ code: string }>('notification.channel.insert', { channel: dingtalk({ name: '启停机器人' }) }, { token: tadmin });
    const code = created.data!.code;
    expect(await server.call('notification.channel.enable', { code, enabled: true }, { token: tadmin })).toMatchObject({ code: '409', message: '该渠道已是启用状态' });
    expect((await server.call('notification.channel.enable', { code, enabled: false }, { token: tadmin })).data).toEqual({ code, enabled: '0' });
    expect(await server.call('notification.channel.enable', { code, enabled: false }, { token: tadmin })).toMatchObject({ code: '409', message: '该渠道已是停用状态' });
    expect((await server.call('notification.channel.enable', { code, enabled: true }, { token: tadmin })).code).toBe('200');
    expect(await server.call('notification.channel.enable', { code, enabled: 'yes' }, { token: tadmin })).toMatchObject({ code: '400', message: '参数错误：enabled（类型应为 boolean）' });
    expect((await server.call('notification.channel.enable', { code, enabled: false }, { token: badmin })).code).toBe('404');
    expect((await server.call('notification.channel.enable', { code, enabled: false }, { token: tuser })).code).toBe('403');
  });

  it('deletes a disabled channel only, never another tenant\'s', async () => {
    const created = await server.call<{ code: string }>('notification.channel.insert', { channel: dingtalk({ name: '待删除机器人' }) }, { token: tadmin });
    const code = created.data!.code;
    expect(await server.call('notification.channel.delete', { code }, { token: tadmin })).toMatchObject({ code: '409', message: '请先停用该渠道再删除' });
    await server.call('notification.channel.enable', { code, enabled: false }, { token: tadmin });
    expect((await server.call('notification.channel.delete', { code }, { token: badmin })).code).toBe('404');
    expect((await server.call('notification.channel.delete', { code }, { token: tuser })).code).toBe('403');
    expect((await server.call('notification.channel.delete', { code: 'QD' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('notification.channel.delete', { code }, { token: tadmin })).code).toBe('200');
    expect((await server.call('notification.channel.detail', { code }, { token: tadmin })).code).toBe('404');
  });

  it('keeps a channel with messages still waiting to go out', async () => {
    const [pending] = await server.db.query<{ code: string }>(
      `SELECT DISTINCT c.code FROM notification_channel c JOIN notification_send s ON s.channel_id = c.id JOIN notification_send_recipient r ON r.send_id = s.id
        WHERE c.tenant_code = 'T0001' AND r.state = 'pending' LIMIT 1`,
    );
    const channel = (await server.call<ChannelRecord>('notification.channel.detail', { code: pending.code }, { token: tadmin })).data!;
    if (channel.enabled === '1') await server.call('notification.channel.enable', { code: pending.code, enabled: false }, { token: tadmin });
    expect(await server.call('notification.channel.delete', { code: pending.code }, { token: tadmin })).toMatchObject({ code: '409', message: '该渠道还有待发送的消息，不能删除' });
  });
});

describe('notification.channel.list', () => {
  it('offers the enabled channels of the caller\'s tenant to send through', async () => {
    const reply = await server.call<Array<{ code: string; label: string; channelType: string }>>('notification.channel.list', {}, { token: tadmin });
    expect(reply.code).toBe('200');
    const [{ count }] = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM notification_channel WHERE tenant_code = 'T0001' AND enabled");
    expect(reply.data).toHaveLength(count);
    expect(reply.data![0].label).toMatch(/^(钉钉|飞书|邮件|短信|语音|微信) · /);
    const theirs = await server.call<Array<{ code: string }>>('notification.channel.list', {}, { token: badmin });
    expect(theirs.data!.some((c) => reply.data!.some((mine) => mine.code === c.code))).toBe(false);
    expect((await server.call('notification.channel.list', { channelType: 'pager' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('notification.channel.list', {}, { token: tuser })).code).toBe('403');
  });
});
