// 消息维护 (issue 6): notifications the platform's and the tenants' administrators write — a
// title, an HTML body sanitised on save, the tab (1 日常阅读, 2 系统消息) and the audience (all,
// organisations, roles). A draft is edited, deleted and published; publishing delivers it into
// the recipients' bells (the frame's notification.list and count) and fixes it. Another tenant's
// notification answers "404"; a role without the buttons "403".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';
import { pageOf } from './work-helpers';

let server: TestServer;
let tadmin: string;
let badmin: string;
let tuser: string;
let admin: string;
let operator: string;
let repair: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin, tuser, admin, operator, repair] = await Promise.all([
    server.login('tadmin'),
    server.login('badmin'),
    server.login('tuser'),
    server.login('admin', ADMIN_PASSWORD),
    server.login('operator'),
    server.login('repair'),
  ]);
});
afterAll(() => server.close());

interface MaintainedRecord {
  code: string;
  title: string;
  tabType: number;
  body: string;
  audienceType: string;
  audienceSummary: string;
  organizationCodes: string[];
  roleCodes: string[];
  state: string;
  recipientCount: number;
  readCount: number;
  organizationName: string;
  canPublish: boolean;
  publishTime: string | null;
}

const notice = (overrides: Record<string, unknown> = {}) => ({
  title: '关于灵隐加压泵站停水检修的通知',
  tabType: 2,
  audienceType: 'organization',
  organizationCodes: ['T0001P01'],
  body: '<p>灵隐加压泵站将于<strong>本周六 8:00–12:00</strong> 停水检修。</p><script>window.__xss=1</script><img src=x onerror="alert(1)">',
  ...overrides,
});

async function insert(token: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const reply = await server.call<{ code: string }>('notification.maintenance.insert', { notification: notice(overrides) }, { token });
  expect(reply.code, reply.message).toBe('200');
  return reply.data!.code;
}

const detail = async (code: string, token = tadmin) => (await server.call<MaintainedRecord>('notification.maintenance.detail', { code }, { token })).data!;

describe('notification.maintenance.page / detail', () => {
  it('lists the tenant\'s notifications in both states, never another tenant\'s or the platform\'s', async () => {
    const reply = await pageOf<MaintainedRecord>(server, 'notification.maintenance.page', tadmin, {}, { pageSize: 100 });
    expect(reply.code).toBe('200');
    const records = reply.data!.records;
    expect(records.length).toBeGreaterThan(10);
    expect(new Set(records.map((r) => r.state))).toEqual(new Set(['draft', 'published']));
    expect(records.every((r) => r.organizationName === '杭州云联科技有限公司')).toBe(true);
    const published = records.find((r) => r.state === 'published')!;
    expect(published.recipientCount).toBeGreaterThan(0);
    expect(published.canPublish).toBe(false);
    const theirs = await pageOf<MaintainedRecord>(server, 'notification.maintenance.page', badmin, {}, { pageSize: 100 });
    expect(theirs.data!.records.every((r) => r.organizationName === '苏州智水环境科技有限公司')).toBe(true);
    const drafts = await pageOf<MaintainedRecord>(server, 'notification.maintenance.page', tadmin, { state: 'draft', tabType: 2 });
    expect(drafts.data!.records.every((r) => r.state === 'draft' && r.tabType === 2)).toBe(true);
    const found = await pageOf<MaintainedRecord>(server, 'notification.maintenance.page', tadmin, { keyword: published.title.slice(0, 6) });
    expect(found.data!.records.map((r) => r.code)).toContain(published.code);
    // Platform staff at the platform root see the platform's notices too.
    const platform = await pageOf<MaintainedRecord>(server, 'notification.maintenance.page', operator, {}, { pageSize: 100 });
    expect(platform.data!.records.some((r) => r.organizationName === '云联物联网平台')).toBe(true);
  });

  it('details a notification with its body and audience; refuses bad input, another tenant and a role without the screen', async () => {
    const [{ code }] = (await pageOf<MaintainedRecord>(server, 'notification.maintenance.page', tadmin, { state: 'published', audienceType: 'organization' })).data!.records;
    const record = await detail(code);
    expect(record.audienceSummary).not.toBe('');
    expect(record.organizationCodes.length).toBeGreaterThan(0);
    expect(record.body).toContain('<p>');
    expect((await server.call('notification.maintenance.detail', { code }, { token: badmin })).code).toBe('404');
    expect(await server.call('notification.maintenance.detail', { code: '1' }, { token: tadmin })).toMatchObject({ code: '400', message: '参数错误：code（格式不正确）' });
    expect((await pageOf(server, 'notification.maintenance.page', tadmin, { state: 'archived' })).code).toBe('400');
    expect((await pageOf(server, 'notification.maintenance.page', repair, {})).code).toBe('403');
    expect((await server.call('notification.maintenance.detail', { code }, { token: tuser })).code).toBe('403');
  });
});

describe('notification.maintenance.insert / modify / delete', () => {
  it('saves a draft with its body sanitised and shows whom it would reach', async () => {
    const code = await insert(tadmin);
    expect(code).toMatch(/^XX\d{13}$/);
    const record = await detail(code);
    expect(record).toMatchObject({ title: '关于灵隐加压泵站停水检修的通知', tabType: 2, state: 'draft', audienceType: 'organization', organizationCodes: ['T0001P01'], audienceSummary: '西湖智慧水务项目', canPublish: true });
    expect(record.body).toContain('<strong>本周六 8:00–12:00</strong>');
    expect(record.body).not.toMatch(/script|onerror/);
    // tuser and repair work in 西湖智慧水务项目.
    expect(record.recipientCount).toBeGreaterThanOrEqual(2);
    const [{ body_text: text }] = await server.db.query<{ body_text: string }>('SELECT body_text FROM maintained_notification WHERE code = $1', [code]);
    expect(text).toContain('停水检修');

    const modified = await server.call('notification.maintenance.modify', { code, notification: notice({ audienceType: 'role', roleCodes: ['ROLE_TENANT_REPAIR'], organizationCodes: [], tabType: 1 }) }, { token: tadmin });
    expect(modified.code).toBe('200');
    expect(await detail(code)).toMatchObject({ audienceType: 'role', roleCodes: ['ROLE_TENANT_REPAIR'], audienceSummary: '维修人员', tabType: 1 });
  });

  it('refuses bad input: an empty body, an audience outside the tenant, an unknown role, extra fields', async () => {
    expect(await server.call('notification.maintenance.insert', { notification: notice({ body: '<script>alert(1)</script>' }) }, { token: tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：body（内容不能为空）',
    });
    expect(await server.call('notification.maintenance.insert', { notification: notice({ title: '<b>标题</b>' }) }, { token: tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：notification.title（格式不正确）',
    });
    expect(await server.call('notification.maintenance.insert', { notification: notice({ organizationCodes: ['T0002P01'] }) }, { token: tadmin })).toMatchObject({ code: '404', message: '组织不存在' });
    expect(await server.call('notification.maintenance.insert', { notification: notice({ organizationCodes: [] }) }, { token: tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：organizationCodes（不能为空）',
    });
    expect(await server.call('notification.maintenance.insert', { notification: notice({ audienceType: 'role', roleCodes: ['PLATFORM_ADMIN'] }) }, { token: tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：roleCodes（角色不存在）',
    });
    expect((await server.call('notification.maintenance.insert', { notification: { ...notice(), pinned: true } }, { token: tadmin })).code).toBe('400');
    expect((await server.call('notification.maintenance.insert', { notification: notice({ tabType: 3 }) }, { token: tadmin })).code).toBe('400');
  });

  it('refuses an audience nobody is in, a published notification, another tenant\'s and a role without the button', async () => {
    // 苏州智水 has no patrol staff.
    expect(await server.call('notification.maintenance.insert', { notification: notice({ audienceType: 'role', roleCodes: ['ROLE_TENANT_PATROL'], organizationCodes: [] }) }, { token: badmin })).toMatchObject({
      code: '409',
      message: '所选范围内没有可接收消息的用户',
    });
    const [published] = (await pageOf<MaintainedRecord>(server, 'notification.maintenance.page', tadmin, { state: 'published' })).data!.records;
    expect(await server.call('notification.maintenance.modify', { code: published.code, notification: notice() }, { token: tadmin })).toMatchObject({ code: '409', message: '消息已发布，不能修改或删除' });
    expect(await server.call('notification.maintenance.delete', { code: published.code }, { token: tadmin })).toMatchObject({ code: '409', message: '消息已发布，不能修改或删除' });
    const draft = await insert(tadmin);
    expect((await server.call('notification.maintenance.modify', { code: draft, notification: notice() }, { token: badmin })).code).toBe('404');
    expect((await server.call('notification.maintenance.delete', { code: draft }, { token: badmin })).code).toBe('404');
    for (const name of ['notification.maintenance.insert', 'notification.maintenance.modify', 'notification.maintenance.delete']) {
      expect((await server.call(name, { code: draft, notification: notice() }, { token: tuser })).code, name).toBe('403');
    }
    expect((await server.call('notification.maintenance.delete', { code: draft }, { token: tadmin })).code).toBe('200');
    expect((await server.call('notification.maintenance.detail', { code: draft }, { token: tadmin })).code).toBe('404');
  });
});

describe('notification.maintenance.publish', () => {
  it('delivers the notification into its recipients\' bells, and only theirs', async () => {
    const code = await insert(tadmin, { title: '西湖项目停水检修通知', tabType: 1 });
    const before = (await server.call<{ dailyCount: number }>('notification.count', {}, { token: tuser })).data!;
    const published = await server.call<{ recipientCount: number }>('notification.maintenance.publish', { code }, { token: tadmin });
    expect(published.code).toBe('200');
    const record = await detail(code);
    expect(record).toMatchObject({ state: 'published', canPublish: false, readCount: 0, recipientCount: published.data!.recipientCount });
    expect(record.publishTime).not.toBeNull();

    const latest = await server.call<Array<{ notificationTitle: string; notificationDescription: string; hasRead: boolean }>>('notification.list', { tabType: 1 }, { token: tuser });
    expect(latest.data![0]).toMatchObject({ notificationTitle: '西湖项目停水检修通知', hasRead: false });
    expect(latest.data![0].notificationDescription).not.toMatch(/script|onerror/);
    expect((await server.call<{ dailyCount: number }>('notification.count', {}, { token: tuser })).data!.dailyCount).toBe(before.dailyCount + 1);
    // patrol works in 钱塘智慧园区项目, outside the audience; badmin in the other tenant.
    for (const outsider of [await server.login('patrol'), badmin]) {
      const list = await server.call<Array<{ notificationTitle: string }>>('notification.list', { tabType: 1, pageSize: 50 }, { token: outsider });
      expect(list.data!.map((item) => item.notificationTitle)).not.toContain('西湖项目停水检修通知');
    }
    // Read counts follow the recipients.
    await server.call('notification.read', { id: (await server.call<Array<{ id: number }>>('notification.list', { tabType: 1 }, { token: tuser })).data![0].id }, { token: tuser });
    expect((await detail(code)).readCount).toBe(1);
  });

  it('publishes a platform notice to every tenant admin', async () => {
    const reply = await server.call<{ code: string }>(
      'notification.maintenance.insert',
      { notification: { title: '平台接口升级公告', tabType: 2, audienceType: 'role', roleCodes: ['TENANT_ADMIN'], body: '<p>开放接口 v2 已发布。</p>' } },
      { token: admin },
    );
    expect(reply.code).toBe('200');
    expect((await server.call<{ recipientCount: number }>('notification.maintenance.publish', { code: reply.data!.code }, { token: admin })).data!.recipientCount).toBe(2);
    for (const tenantAdmin of [tadmin, badmin]) {
      const list = await server.call<Array<{ notificationTitle: string }>>('notification.list', { tabType: 2 }, { token: tenantAdmin });
      expect(list.data![0].notificationTitle).toBe('平台接口升级公告');
    }
    // A tenant admin never sees the platform's notices in 消息维护.
    expect((await server.call('notification.maintenance.detail', { code: reply.data!.code }, { token: tadmin })).code).toBe('404');
  });

  it('refuses publishing twice, bad input, another tenant\'s draft and a role without the button', async () => {
    const code = await insert(tadmin);
    expect((await server.call('notification.maintenance.publish', { code }, { token: badmin })).code).toBe('404');
    expect((await server.call('notification.maintenance.publish', { code }, { token: tuser })).code).toBe('403');
    expect((await server.call('notification.maintenance.publish', { code, now: true }, { token: tadmin })).code).toBe('400');
    expect((await server.call('notification.maintenance.publish', { code }, { token: tadmin })).code).toBe('200');
    expect(await server.call('notification.maintenance.publish', { code }, { token: tadmin })).toMatchObject({ code: '409', message: '消息已发布，不能重复发布' });
  });
});
