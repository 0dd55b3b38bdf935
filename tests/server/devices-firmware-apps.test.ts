// The app's versions (platform staff only), user feedback (answered per organisation, exported as a
// real spreadsheet) and online configuration screens (canvases of widgets bound to devices of the
// scope). Every operation: the happy path, invalid input ("400"), another tenant's record ("404")
// and the platform-only or button-gated ones ("403").
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';

interface Page<T> {
  records: T[];
  total: number;
  pageNumber: number;
  pageSize: number;
}

interface VersionRecord {
  id: number;
  platform: string;
  updateType: string;
  version: string;
  buildNumber: number;
  published: boolean;
  publishedAt: string;
  publishedBy: string;
  releaseNotes: string;
}

interface FeedbackRecord {
  id: number;
  code: string;
  feedbackType: string;
  organizationCode: string;
  content: string;
  state: string;
  reply: string;
  repliedBy: string;
  replyTime: string;
  createTime: string;
}

interface Widget {
  id: string;
  type: string;
  title: string;
  deviceCode: string | null;
  metric: string | null;
  x: number;
  y: number;
  width: number;
  height: number;
}

interface ConfigurationRecord {
  id: number;
  code: string;
  name: string;
  organizationCode: string;
  organizationName: string;
  canvas: { width: number; height: number; background: string; widgets: Widget[] };
  widgetCount: number;
  deviceCount: number;
  published: boolean;
  updatedBy: string;
}

let server: TestServer;
let admin: string;
let operator: string;
let tadmin: string;
let tuser: string;
let badmin: string;

beforeAll(async () => {
  server = await startServer();
  [admin, operator, tadmin, tuser, badmin] = await Promise.all([
    server.login('admin', ADMIN_PASSWORD),
    server.login('operator'),
    server.login('tadmin'),
    server.login('tuser'),
    server.login('badmin'),
  ]);
});
afterAll(() => server.close());

async function page<T>(name: string, param: unknown, token: string, options: { pageSize?: number; sort?: Array<{ field: string; order: 'asc' | 'desc' }> } = {}) {
  const reply = await server.app.inject({
    method: 'POST',
    url: `/api${catalogue[name].path}`,
    headers: { token },
    payload: { param, pageParam: { pageNumber: 1, pageSize: options.pageSize ?? 50 }, sortParamList: options.sort ?? [] },
  });
  return reply.json<{ code: string; message: string; data: Page<T> }>();
}

async function ok<T>(name: string, param: unknown, token: string): Promise<T> {
  const reply = await server.call<T>(name, param, { token });
  expect(reply, `${name} ${JSON.stringify(param)}`).toMatchObject({ code: '200' });
  return reply.data as T;
}

const newVersion = (overrides: Record<string, unknown> = {}) => ({
  platform: 'android',
  updateType: 'forced',
  version: '3.6.0',
  buildNumber: 360,
  downloadUrl: 'https://download.yunlian-iot.com/app/android/yunlian-iot-3.6.0.apk',
  packageSize: 47_185_920,
  releaseNotes: '新增设备批量升级进度推送；修复已知问题。',
  minSupportedVersion: '3.4.0',
  ...overrides,
});

describe('app.version: platform staff keep the app’s releases', () => {
  it('lists forced and hot updates apart, newest build first, with published drafts marked', async () => {
    const forced = await page<VersionRecord>('app.version.page', { updateType: 'forced' }, admin);
    expect(forced.code).toBe('200');
    expect(forced.data.records.every((v) => v.updateType === 'forced')).toBe(true);
    const builds = forced.data.records.map((v) => v.buildNumber);
    expect(builds).toEqual([...builds].sort((a, b) => b - a));
    expect(new Set(forced.data.records.map((v) => v.platform))).toEqual(new Set(['android', 'ios']));
    expect(forced.data.records.some((v) => !v.published) && forced.data.records.some((v) => v.published)).toBe(true);
    const hot = await page<VersionRecord>('app.version.page', { updateType: 'hot', platform: 'ios', published: '0' }, operator);
    expect(hot.data.records).toMatchObject([{ updateType: 'hot', platform: 'ios', published: false, version: '3.4.3' }]);
    const byKeyword = await page<VersionRecord>('app.version.page', { keyword: '巡检打卡' }, admin);
    expect(byKeyword.data.records.length).toBeGreaterThan(0);
    expect(byKeyword.data.records.every((v) => v.releaseNotes.includes('巡检打卡'))).toBe(true);
  });

  it('is platform staff’s only: tenant users get "403" whatever they ask', async () => {
    expect((await page('app.version.page', {}, tadmin)).code).toBe('403');
    const [{ id }] = (await page<VersionRecord>('app.version.page', {}, admin)).data.records;
    for (const [name, param] of [
      ['app.version.detail', { id }],
      ['app.version.insert', { version: newVersion() }],
      ['app.version.modify', { id, version: newVersion() }],
      ['app.version.delete', { id }],
      ['app.version.publish', { id }],
    ] as const) {
      expect((await server.call(name, param, { token: tadmin })).code, name).toBe('403');
    }
  });

  it('refuses bad input with "400" and unknown versions with "404"', async () => {
    expect((await page('app.version.page', { updateType: 'cold' }, admin)).code).toBe('400');
    expect((await server.call('app.version.detail', { id: 0 }, { token: admin })).code).toBe('400');
    expect(await server.call('app.version.detail', { id: 999_999 }, { token: admin })).toEqual({ code: '404', message: '版本不存在', data: null });
    for (const overrides of [{ version: '3.6' }, { downloadUrl: 'ftp://x/y.apk' }, { platform: 'harmony' }, { releaseNotes: '<script>x</script>' }, { buildNumber: 0 }]) {
      expect((await server.call('app.version.insert', { version: newVersion(overrides) }, { token: admin })).code, JSON.stringify(overrides)).toBe('400');
    }
    expect((await server.call('app.version.insert', { version: newVersion({ minSupportedVersion: '3.7.0' }) }, { token: admin })).message).toMatch(/minSupportedVersion/);
  });

  it('adds a draft, edits it, publishes it once, and then keeps it as it is', async () => {
    const { id } = await ok<{ id: number }>('app.version.insert', { version: newVersion() }, admin);
    expect(await server.call('app.version.insert', { version: newVersion() }, { token: admin })).toMatchObject({ code: '409', message: '该平台已有相同版本号或构建号的版本' });
    await ok('app.version.modify', { id, version: newVersion({ releaseNotes: '新增固件升级进度推送。' }) }, admin);
    expect(await ok<VersionRecord>('app.version.detail', { id }, admin)).toMatchObject({ published: false, releaseNotes: '新增固件升级进度推送。' });
    // 3.5.0 (build 350) is still a draft; 3.6.0 may go out first, and 3.5.0 may not follow it.
    await ok('app.version.publish', { id }, operator);
    expect(await ok<VersionRecord>('app.version.detail', { id }, admin)).toMatchObject({ published: true, publishedBy: 'operator' });
    expect(await server.call('app.version.publish', { id }, { token: admin })).toMatchObject({ code: '409', message: '该版本已发布' });
    expect(await server.call('app.version.modify', { id, version: newVersion() }, { token: admin })).toMatchObject({ code: '409', message: '已发布的版本不能修改' });
    expect(await server.call('app.version.delete', { id }, { token: admin })).toMatchObject({ code: '409', message: '已发布的版本不能删除' });
    const draft = (await page<VersionRecord>('app.version.page', { updateType: 'forced', platform: 'android', published: '0' }, admin)).data.records[0];
    expect(draft.version).toBe('3.5.0');
    expect(await server.call('app.version.publish', { id: draft.id }, { token: admin })).toMatchObject({ code: '409', message: '版本号须高于已发布的最新版本 3.6.0' });
    await ok('app.version.delete', { id: draft.id }, admin);
    expect((await server.call('app.version.detail', { id: draft.id }, { token: admin })).code).toBe('404');
  });

  it('offers the app the published versions, newest first, to any signed-in user', async () => {
    const list = await ok<Array<{ version: string; buildNumber: number; forced: boolean; platform: string }>>('app.upgradePackage.list', { platform: 'android', updateType: 'forced' }, tuser);
    expect(list[0]).toMatchObject({ version: '3.6.0', forced: true, platform: 'android' });
    expect(list.map((v) => v.buildNumber)).toEqual([...list.map((v) => v.buildNumber)].sort((a, b) => b - a));
    const all = await ok<Array<{ version: string }>>('app.upgradePackage.list', {}, badmin);
    expect(all.map((v) => v.version)).not.toContain('3.4.3');
    expect((await server.call('app.upgradePackage.list', { platform: 'symbian' }, { token: tuser })).code).toBe('400');
  });
});

describe('device.feedback: answered by the organisation it came from', () => {
  it('pages a tenant’s own feedback by type, state, keyword and time; platform staff see all', async () => {
    const app = await page<FeedbackRecord>('device.feedback.page', { feedbackType: 'app' }, tadmin);
    expect(app.code).toBe('200');
    expect(app.data.total).toBeGreaterThan(50);
    expect(app.data.records.every((f) => f.feedbackType === 'app' && f.organizationCode.startsWith('T0001'))).toBe(true);
    const other = await page<FeedbackRecord>('device.feedback.page', { feedbackType: 'other', state: 'pending' }, tadmin);
    expect(other.data.records.every((f) => f.feedbackType === 'other' && f.state === 'pending' && f.reply === '')).toBe(true);
    const theirs = await page<FeedbackRecord>('device.feedback.page', {}, badmin);
    const all = await page<FeedbackRecord>('device.feedback.page', {}, admin);
    expect(all.data.total).toBe((await page('device.feedback.page', {}, tadmin)).data.total + theirs.data.total);
    const byKeyword = await page<FeedbackRecord>('device.feedback.page', { keyword: '告警推送' }, tadmin);
    expect(byKeyword.data.records.length).toBeGreaterThan(0);
    expect(byKeyword.data.records.every((f) => f.content.includes('告警推送'))).toBe(true);
    const week = await page<FeedbackRecord>('device.feedback.page', { timeRange: [new Date(Date.now() - 7 * 86_400_000).toISOString(), new Date().toISOString()] }, tadmin);
    expect(week.data.records.every((f) => Date.parse(f.createTime) >= Date.now() - 7 * 86_400_000 - 60_000)).toBe(true);
    const oldest = await page<FeedbackRecord>('device.feedback.page', {}, tadmin, { pageSize: 5, sort: [{ field: 'createTime', order: 'asc' }] });
    const times = oldest.data.records.map((f) => f.createTime);
    expect(times).toEqual([...times].sort());
  });

  it('refuses bad filters with "400" and another tenant’s feedback with "404"', async () => {
    expect((await page('device.feedback.page', { feedbackType: 'mail' }, tadmin)).code).toBe('400');
    expect((await page('device.feedback.page', { timeRange: ['2026-11-01', '2026-11-01'] }, tadmin)).message).toBe('请输入不同的时间');
    expect((await page('device.feedback.page', { organizationCode: 'T0002' }, tadmin)).code).toBe('404');
    const [theirs] = (await page<FeedbackRecord>('device.feedback.page', {}, badmin)).data.records;
    expect(await server.call('device.feedback.detail', { id: theirs.id }, { token: tadmin })).toEqual({ code: '404', message: '反馈不存在', data: null });
    expect((await server.call('device.feedback.reply', { id: theirs.id, reply: '越权回复' }, { token: tadmin })).code).toBe('404');
    expect((await server.call('device.feedback.batchReply', { codes: [theirs.code], reply: '越权回复' }, { token: tadmin })).code).toBe('404');
    expect((await server.call('device.feedback.detail', { id: 'x' }, { token: tadmin })).code).toBe('400');
  });

  it('replies once, in plain text, and records who answered when', async () => {
    const [pending] = (await page<FeedbackRecord>('device.feedback.page', { state: 'pending', feedbackType: 'app' }, tadmin)).data.records;
    for (const reply of ['', '   ', '<b>已修复</b>', 'x'.repeat(501)]) {
      expect((await server.call('device.feedback.reply', { id: pending.id, reply }, { token: tadmin })).code, reply).toBe('400');
    }
    expect((await server.call('device.feedback.reply', { id: pending.id }, { token: tadmin })).code).toBe('400');
    await ok('device.feedback.reply', { id: pending.id, reply: '您好，问题已确认，将在 3.6.0 版本修复。' }, tadmin);
    expect(await ok<FeedbackRecord>('device.feedback.detail', { id: pending.id }, tadmin)).toMatchObject({ state: 'replied', reply: '您好，问题已确认，将在 3.6.0 版本修复。', repliedBy: 'tadmin' });
    expect(await server.call('device.feedback.reply', { id: pending.id, reply: '再次回复' }, { token: tadmin })).toEqual({ code: '409', message: '该反馈已回复', data: null });
    // Without the 回复 button (an ordinary tenant user has no 意见反馈 menu at all): "403".
    expect((await server.call('device.feedback.reply', { id: pending.id, reply: '无权' }, { token: tuser })).code).toBe('403');
  });

  it('batch-replies the pending ones of a selection and skips those already answered', async () => {
    const pending = (await page<FeedbackRecord>('device.feedback.page', { state: 'pending', feedbackType: 'other' }, tadmin, { pageSize: 3 })).data.records;
    const [replied] = (await page<FeedbackRecord>('device.feedback.page', { state: 'replied' }, tadmin, { pageSize: 1 })).data.records;
    const codes = [...pending.map((f) => f.code), replied.code];
    const result = await ok<{ replied: number; skipped: number }>('device.feedback.batchReply', { codes, reply: '您好，已安排运维人员处理。' }, tadmin);
    expect(result).toEqual({ replied: pending.length, skipped: 1 });
    for (const f of pending) expect((await ok<FeedbackRecord>('device.feedback.detail', { id: f.id }, tadmin)).reply).toBe('您好，已安排运维人员处理。');
    expect((await ok<FeedbackRecord>('device.feedback.detail', { id: replied.id }, tadmin)).reply).toBe(replied.reply);
    expect(await server.call('device.feedback.batchReply', { codes: [replied.code], reply: '重复' }, { token: tadmin })).toMatchObject({ code: '409', message: '所选反馈均已回复' });
    expect((await server.call('device.feedback.batchReply', { codes: [], reply: '空' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.feedback.batchReply', { codes: [replied.code, replied.code], reply: '重复' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.feedback.batchReply', { codes: ['1'], reply: '编号不对' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.feedback.batchReply', { codes, reply: '无权' }, { token: tuser })).code).toBe('403');
  });

  it('exports the filtered feedback as a real workbook', async () => {
    const response = await server.app.inject({ method: 'POST', url: `/api${catalogue['device.feedback.export'].path}`, headers: { token: tadmin }, payload: { param: { feedbackType: 'app', state: 'replied' } } });
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(decodeURIComponent(String(response.headers['content-disposition']))).toContain('APP反馈-');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe('反馈编号');
    const expected = (await page('device.feedback.page', { feedbackType: 'app', state: 'replied' }, tadmin)).data.total;
    expect(sheet.rowCount - 1).toBe(expected);
    expect(sheet.getRow(2).getCell(10).value).toBe('已回复');
    const bad = await server.app.inject({ method: 'POST', url: `/api${catalogue['device.feedback.export'].path}`, headers: { token: tadmin }, payload: { param: { state: 'lost' } } });
    expect(bad.json<{ code: string }>().code).toBe('400');
    const foreign = await server.app.inject({ method: 'POST', url: `/api${catalogue['device.feedback.export'].path}`, headers: { token: tadmin }, payload: { param: { organizationCode: 'T0002P01' } } });
    expect(foreign.json<{ code: string }>().code).toBe('404');
  });
});

describe('onlineConfiguration: canvases of widgets bound to the scope’s devices', () => {
  async function tenantDevice(tenantCode: string, productCode: string): Promise<string> {
    const [row] = await server.db.query<{ code: string }>('SELECT code FROM device WHERE tenant_code = $1 AND product_code = $2 AND deleted_at IS NULL ORDER BY code LIMIT 1', [tenantCode, productCode]);
    return row.code;
  }

  it('pages a tenant’s own configurations with their widget and device counts', async () => {
    const mine = await page<ConfigurationRecord>('onlineConfiguration.page', {}, tadmin);
    expect(mine.code).toBe('200');
    expect(mine.data.total).toBe(6);
    expect(mine.data.records.every((c) => c.organizationCode.startsWith('T0001') && c.widgetCount > 1 && c.deviceCount > 0)).toBe(true);
    const published = await page<ConfigurationRecord>('onlineConfiguration.page', { published: '0' }, tadmin);
    expect(published.data.records.map((c) => c.name)).toEqual(['江东园区消防态势']);
    const byOrganization = await page<ConfigurationRecord>('onlineConfiguration.page', { organizationCode: 'T0002P02' }, badmin);
    expect(byOrganization.data.records.map((c) => c.name).sort()).toEqual(['星海泵站运行监控', '金鸡湖片区环境监测']);
    expect((await page('onlineConfiguration.page', {}, admin)).data.total).toBe(10);
    expect((await page('onlineConfiguration.page', { published: 'yes' }, tadmin)).code).toBe('400');
  });

  it('details a configuration with its canvas, "404" for another tenant’s and "400" for a bad id', async () => {
    const [first] = (await page<ConfigurationRecord>('onlineConfiguration.page', { keyword: '龙井水厂' }, tadmin)).data.records;
    const detail = await ok<ConfigurationRecord>('onlineConfiguration.detail', { id: first.id }, tadmin);
    expect(detail.canvas).toMatchObject({ width: 1920, height: 1080 });
    expect(detail.canvas.widgets.filter((w) => w.type !== 'text').every((w) => /^[A-Z0-9]{12}$/.test(w.deviceCode ?? '') && w.metric)).toBe(true);
    expect(await server.call('onlineConfiguration.detail', { id: first.id }, { token: badmin })).toEqual({ code: '404', message: '组态不存在', data: null });
    expect((await server.call('onlineConfiguration.detail', { id: null }, { token: tadmin })).code).toBe('400');
  });

  it('creates a configuration, placing widgets on the canvas and naming them', async () => {
    const gauge = await tenantDevice('T0001', 'PRD-PG-NB');
    const level = await tenantDevice('T0001', 'PRD-LV-LR');
    const created = await ok<{ id: number; code: string }>(
      'onlineConfiguration.insert',
      {
        configuration: {
          name: '灵隐泵站夜间值守画面',
          organizationCode: 'T0001P01A0101',
          description: '夜班值守大屏',
          published: true,
          canvas: {
            width: 1920,
            height: 1080,
            background: '#101820',
            widgets: [
              { type: 'text', title: '灵隐泵站', x: 40, y: 20, width: 600, height: 60, deviceCode: '', metric: '' },
              { type: 'gauge', title: '出站压力', deviceCode: gauge, metric: 'pressure', unit: 'MPa', x: 1800, y: 100, width: 400, height: 300 },
              { id: 'tank', type: 'tank', title: '清水池', deviceCode: level, metric: 'level', unit: 'm' },
            ],
          },
        },
      },
      tadmin,
    );
    expect(created.code).toMatch(/^ZT\d{5}$/);
    const detail = await ok<ConfigurationRecord>('onlineConfiguration.detail', { id: created.id }, tadmin);
    expect(detail).toMatchObject({ name: '灵隐泵站夜间值守画面', organizationName: '灵隐加压泵站', published: true, widgetCount: 3, deviceCount: 2, updatedBy: 'tadmin' });
    expect(detail.canvas.widgets.map((w) => w.id)).toEqual(['w1', 'w2', 'tank']);
    // A widget past the right edge is moved back onto the canvas; the text widget binds nothing.
    expect(detail.canvas.widgets[1]).toMatchObject({ x: 1520, width: 400 });
    expect(detail.canvas.widgets[0]).toMatchObject({ deviceCode: null, metric: null });
    expect(detail.canvas.widgets[2]).toMatchObject({ width: 320, height: 240 });
  });

  it('refuses invalid canvases with "400", another tenant’s devices and organisations with "404", and "403" without the button', async () => {
    const foreign = await tenantDevice('T0002', 'PRD-PG-NB');
    const base = { name: '测试画面', organizationCode: 'T0001P01', canvas: { width: 1920, height: 1080, widgets: [] as unknown[] } };
    const withWidgets = (widgets: unknown[]) => ({ configuration: { ...base, canvas: { ...base.canvas, widgets } } });
    expect((await server.call('onlineConfiguration.insert', withWidgets([{ type: 'gauge', title: '无设备' }]), { token: tadmin })).message).toMatch(/deviceCode（第 1 个组件请绑定设备）/);
    expect((await server.call('onlineConfiguration.insert', withWidgets([{ type: 'hologram' }]), { token: tadmin })).code).toBe('400');
    expect((await server.call('onlineConfiguration.insert', withWidgets([{ type: 'value', deviceCode: 'ABC', metric: 'ph' }]), { token: tadmin })).code).toBe('400');
    expect((await server.call('onlineConfiguration.insert', withWidgets([{ id: 'a', type: 'text' }, { id: 'a', type: 'pipe' }]), { token: tadmin })).message).toMatch(/组件标识重复/);
    expect((await server.call('onlineConfiguration.insert', { configuration: { ...base, canvas: { width: 100, height: 100 } } }, { token: tadmin })).code).toBe('400');
    expect((await server.call('onlineConfiguration.insert', { configuration: { ...base, name: '<img>' } }, { token: tadmin })).code).toBe('400');
    expect(await server.call('onlineConfiguration.insert', withWidgets([{ type: 'gauge', deviceCode: foreign, metric: 'pressure' }]), { token: tadmin })).toMatchObject({
      code: '404',
      message: '设备不存在',
    });
    expect((await server.call('onlineConfiguration.insert', { configuration: { ...base, organizationCode: 'T0002P01' } }, { token: tadmin })).code).toBe('404');
    expect((await server.call('onlineConfiguration.insert', { configuration: base }, { token: tuser })).code).toBe('403');
  });

  it('modifies and deletes the own configurations; another tenant’s answer "404"', async () => {
    const [mine] = (await page<ConfigurationRecord>('onlineConfiguration.page', { keyword: '一号厂房' }, tadmin)).data.records;
    const detail = await ok<ConfigurationRecord>('onlineConfiguration.detail', { id: mine.id }, tadmin);
    const canvas = { ...detail.canvas, widgets: detail.canvas.widgets.slice(0, 2) };
    await ok('onlineConfiguration.modify', { id: mine.id, configuration: { name: '一号厂房仓储温湿度', organizationCode: detail.organizationCode, published: false, canvas } }, tadmin);
    const after = await ok<ConfigurationRecord>('onlineConfiguration.detail', { id: mine.id }, tadmin);
    expect(after).toMatchObject({ name: '一号厂房仓储温湿度', widgetCount: 2, published: false });
    expect(after.canvas.widgets.map((w) => w.id)).toEqual(detail.canvas.widgets.slice(0, 2).map((w) => w.id));
    expect((await server.call('onlineConfiguration.modify', { id: mine.id, configuration: { name: '改名' } }, { token: tadmin })).code).toBe('400');
    expect((await server.call('onlineConfiguration.modify', { id: mine.id, configuration: { name: '越权', organizationCode: 'T0002P01', canvas } }, { token: badmin })).code).toBe('404');
    expect((await server.call('onlineConfiguration.delete', { id: mine.id }, { token: badmin })).code).toBe('404');
    expect((await server.call('onlineConfiguration.delete', { id: 'one' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('onlineConfiguration.delete', { id: mine.id }, { token: tuser })).code).toBe('403');
    await ok('onlineConfiguration.delete', { id: mine.id }, tadmin);
    expect((await server.call('onlineConfiguration.detail', { id: mine.id }, { token: tadmin })).code).toBe('404');
  });
});
