// Alarms (告警管理) and the device-side dashboards: alarm configuration, alarm records and
// monitoring alarms (lists, details, exports, handling, repair orders), alarm statistics, the
// workbench overview and trends, the device and alarm boards and the tag display settings.
// Everything stays within the caller's device scope: another tenant's rule or alarm is "404".
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE } from '../../server/db/database';
import { businessDay } from '../../server/domain/businessTime';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';

interface Page<T> {
  records: T[];
  total: number;
  pageNumber: number;
  pageSize: number;
  totalAtLeast?: number;
}

interface Rule {
  code: string;
  name: string;
  productCode: string;
  productName: string;
  tenantCode: string;
  alarmType: string;
  level: string;
  metric: string;
  threshold: number;
  condition: string;
  notifyChannels: string[];
  enabled: boolean;
  alarmCount: number;
}

interface Alarm {
  code: string;
  deviceCode: string;
  deviceName: string;
  organizationCode: string;
  alarmType: string;
  level: string;
  state: string;
  title: string;
  triggeredAt: string;
  handledBy: string;
  handleRemark: string;
  repairOrderCode: string;
  source: string;
  open: boolean;
}

let server: TestServer;
let admin: string;
let tadmin: string;
let badmin: string;
let tuser: string;
let repair: string;

beforeAll(async () => {
  server = await startServer();
  [admin, tadmin, badmin, tuser, repair] = await Promise.all([
    server.login('admin', ADMIN_PASSWORD),
    server.login('tadmin'),
    server.login('badmin'),
    server.login('tuser'),
    server.login('repair'),
  ]);
});
afterAll(() => server.close());

/** A paged call with an explicit page size and sort. */
async function page<T>(name: string, param: unknown, token: string, options: { size?: number; sort?: Array<{ field: string; order: 'asc' | 'desc' }>; orgCode?: string } = {}) {
  const headers: Record<string, string> = { token };
  if (options.orgCode) headers.orgCode = options.orgCode;
  const reply = await server.post(catalogue[name].path, { pageParam: { pageNumber: 1, pageSize: options.size ?? 20 }, param, sortParamList: options.sort ?? [] }, headers);
  return reply.body as { code: string; message: string; data: Page<T> };
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await server.db.query<{ count: number }>(sql, params as never[]);
  return row.count;
}

/** An alarm of `organization` (a tenant or a project below it) and `source` in `state`, the newest first. */
async function alarmCode(organization: string, source: string, state: string, offset = 0): Promise<string> {
  const [row] = await server.db.query<{ code: string }>(
    "SELECT code FROM alarm_record WHERE organization_code LIKE $1 || '%' AND source = $2 AND state = $3 ORDER BY triggered_at DESC OFFSET $4 LIMIT 1",
    [organization, source, state, offset],
  );
  return row.code;
}

/** The rows of an exported workbook's first sheet (header first). */
async function exported(name: string, param: unknown, token: string): Promise<{ contentType: string; rows: unknown[][] }> {
  const response = await server.app.inject({ method: 'POST', url: `/api${catalogue[name].path}`, headers: { token, 'content-type': 'application/json' }, payload: JSON.stringify({ param }) });
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { contentType: String(response.headers['content-type']), rows };
}

const newRule = (extra: Record<string, unknown> = {}) => ({
  name: '水表高温告警',
  productCode: 'PRD-WM-NB',
  alarmType: 'threshold',
  level: '2',
  metric: 'temperature',
  operator: 'gt',
  threshold: 45,
  durationMinutes: 15,
  notifyChannels: ['sms', 'wechat'],
  enabled: true,
  remark: '夏季井室高温',
  ...extra,
});

describe('alarm configuration', () => {
  it('pages a tenant’s own rules with their conditions and recent alarm counts', async () => {
    const reply = await page<Rule>('alarm.config.page', {}, tadmin, { size: 50 });
    expect(reply.code).toBe('200');
    expect(reply.data.total).toBe(await count("SELECT count(*)::int AS count FROM alarm_rule WHERE tenant_code = 'T0001'"));
    expect(reply.data.records.every((rule) => rule.tenantCode === 'T0001')).toBe(true);
    const pressure = reply.data.records.find((rule) => rule.name === '管网压力超限告警')!;
    expect(pressure).toMatchObject({ productName: 'NB-IoT 压力计', alarmType: 'threshold', level: '1', condition: '压力 > 0.8MPa 持续 5 分钟', enabled: true });
    expect(reply.data.records.find((rule) => rule.name === '设备离线告警')!).toMatchObject({ productName: '全部产品', notifyChannels: ['sms', 'wechat'] });
    expect(reply.data.records.find((rule) => rule.name === '设备离线告警')!.alarmCount).toBeGreaterThan(0);
    const everyone = await page<Rule>('alarm.config.page', {}, admin, { size: 100 });
    expect(everyone.data.total).toBe(await count('SELECT count(*)::int AS count FROM alarm_rule'));
  });

  it('filters by keyword, level, type, product and enabled state', async () => {
    expect((await page<Rule>('alarm.config.page', { keyword: '压力' }, tadmin)).data.records.map((r) => r.name).sort()).toEqual(['管网压力超限告警', '管网压力过低告警']);
    expect((await page<Rule>('alarm.config.page', { level: '1' }, tadmin)).data.records.every((r) => r.level === '1')).toBe(true);
    expect((await page<Rule>('alarm.config.page', { alarmType: 'offline' }, tadmin)).data.records.map((r) => r.name).sort()).toEqual(['网关离线告警', '设备离线告警']);
    expect((await page<Rule>('alarm.config.page', { enabled: '0' }, tadmin)).data.records.map((r) => r.name)).toEqual(['水质 pH 超标告警']);
    const forPressure = await page<Rule>('alarm.config.page', { productCode: 'PRD-PG-NB' }, tadmin, { size: 50 });
    expect(forPressure.data.records.every((r) => r.productCode === 'PRD-PG-NB' || r.productCode === '')).toBe(true);
    expect((await page('alarm.config.page', { level: '9' }, tadmin)).code).toBe('400');
  });

  it('answers a rule’s detail, never another tenant’s', async () => {
    const reply = await server.call<Rule>('alarm.config.detail', { code: 'AR010007' }, { token: tadmin });
    expect(reply.data).toMatchObject({ code: 'AR010007', tenantCode: 'T0001' });
    expect((await server.call('alarm.config.detail', { code: 'AR010007' }, { token: badmin })).code).toBe('404');
    expect((await server.call('alarm.config.detail', { code: 7 }, { token: tadmin })).code).toBe('400');
  });

  it('adds a rule for the tenant with the next code', async () => {
    const reply = await server.call<{ code: string }>('alarm.config.insert', { rule: newRule() }, { token: tadmin });
    expect(reply.code).toBe('200');
    const code = reply.data!.code;
    expect(code).toMatch(/^AR01\d{4}$/);
    const detail = await server.call<Rule>('alarm.config.detail', { code }, { token: tadmin });
    expect(detail.data).toMatchObject({ name: '水表高温告警', tenantCode: 'T0001', level: '2', threshold: 45, condition: '温度 > 45℃ 持续 15 分钟', notifyChannels: ['sms', 'wechat'], alarmCount: 0 });
    // Platform staff add rules for the tenant they selected.
    const forTenant = await server.call<{ code: string }>('alarm.config.insert', { rule: newRule({ name: '平台代配：水表高温' }) }, { token: admin, orgCode: 'T0002' });
    expect(forTenant.data!.code).toMatch(/^AR02\d{4}$/);
    expect(await server.call('alarm.config.insert', { rule: newRule({ name: '平台根节点' }) }, { token: admin })).toMatchObject({ code: '400', message: '请先在组织切换中选择一个租户' });
  });

  it('refuses a taken name, a metric that does not fit the type, thresholds out of range and unknown products', async () => {
    expect(await server.call('alarm.config.insert', { rule: newRule() }, { token: tadmin })).toMatchObject({ code: '409', message: '已有同名的告警配置' });
    expect((await server.call('alarm.config.insert', { rule: newRule({ name: '离线', alarmType: 'offline' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('alarm.config.insert', { rule: newRule({ name: '电量', metric: 'battery', alarmType: 'threshold', threshold: 150 }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('alarm.config.insert', { rule: newRule({ name: '未知产品', productCode: 'PRD-NOPE' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('alarm.config.insert', { rule: newRule({ name: '<script>' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('alarm.config.insert', { rule: newRule({ notifyChannels: ['pager'] }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('alarm.config.insert', { rule: newRule({ operator: 'between' }) }, { token: tadmin })).code).toBe('400');
  });

  it('refuses a user without the 新增 button', async () => {
    expect((await server.call('alarm.config.insert', { rule: newRule({ name: '普通用户' }) }, { token: tuser })).code).toBe('403');
  });

  it('edits a rule of the tenant, not another tenant’s', async () => {
    const changed = newRule({ threshold: 50, level: 1, enabled: false });
    expect((await server.call('alarm.config.modify', { code: 'AR010015', rule: changed }, { token: tadmin })).code).toBe('200');
    expect((await server.call<Rule>('alarm.config.detail', { code: 'AR010015' }, { token: tadmin })).data).toMatchObject({ threshold: 50, level: '1', enabled: false });
    expect((await server.call('alarm.config.modify', { code: 'AR010015', rule: changed }, { token: badmin })).code).toBe('404');
    expect((await server.call('alarm.config.modify', { code: 'AR010015', rule: { ...changed, durationMinutes: -1 } }, { token: tadmin })).code).toBe('400');
    expect((await server.call('alarm.config.modify', { code: 'AR010015', rule: changed }, { token: tuser })).code).toBe('403');
  });

  it('enables and disables a rule', async () => {
    expect(await server.call('alarm.config.enable', { code: 'AR010015', enabled: true }, { token: tadmin })).toMatchObject({ code: '200', data: { enabled: true } });
    expect((await server.call<Rule>('alarm.config.detail', { code: 'AR010015' }, { token: tadmin })).data!.enabled).toBe(true);
    expect((await server.call('alarm.config.enable', { code: 'AR010001', enabled: false }, { token: badmin })).code).toBe('404');
    expect((await server.call('alarm.config.enable', { code: 'AR010015', enabled: 'yes' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('alarm.config.enable', { code: 'AR010015', enabled: false }, { token: tuser })).code).toBe('403');
  });

  it('deletes a rule and keeps the alarms it raised', async () => {
    const raised = await count("SELECT count(*)::int AS count FROM alarm_record WHERE rule_id = (SELECT id FROM alarm_rule WHERE code = 'AR010004')");
    expect(raised).toBeGreaterThan(0);
    expect((await server.call('alarm.config.delete', { code: 'AR010004' }, { token: badmin })).code).toBe('404');
    expect((await server.call('alarm.config.delete', { code: 'AR010004' }, { token: tuser })).code).toBe('403');
    expect((await server.call('alarm.config.delete', {}, { token: tadmin })).code).toBe('400');
    expect((await server.call('alarm.config.delete', { code: 'AR010004' }, { token: tadmin })).code).toBe('200');
    expect((await server.call('alarm.config.detail', { code: 'AR010004' }, { token: tadmin })).code).toBe('404');
    expect(await count("SELECT count(*)::int AS count FROM alarm_record WHERE rule_id IS NULL AND source = 'device' AND title = '信号弱告警' AND tenant_code = 'T0001'")).toBe(raised);
  });
});

describe('alarm records', () => {
  it('pages the tenant’s device alarms, newest first', async () => {
    const reply = await page<Alarm>('alarm.record.page', {}, tadmin);
    expect(reply.code).toBe('200');
    // The tenant has more than 10,000 device alarms: past that a list answers the planner's
    // estimate and says it counted at least 10,000 (issue 19); a list of fewer rows is counted exactly.
    const all = await count("SELECT count(*)::int AS count FROM alarm_record WHERE tenant_code = 'T0001' AND source = 'device'");
    expect(all).toBeGreaterThan(10_000);
    expect(reply.data.totalAtLeast).toBe(10_000);
    expect(reply.data.total).toBeGreaterThan(10_000);
    const times = reply.data.records.map((a) => a.triggeredAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(reply.data.records.every((a) => a.source === 'device' && a.deviceCode.length === 12)).toBe(true);
    const narrower = await page<Alarm>('alarm.record.page', {}, tuser);
    expect(narrower.data.total).toBeLessThan(all);
    expect(narrower.data.totalAtLeast).toBeUndefined();
    expect(narrower.data.total).toBe(await count("SELECT count(*)::int AS count FROM alarm_record WHERE organization_code LIKE 'T0001P01%' AND source = 'device'"));
    expect(narrower.data.records.every((a) => a.organizationCode.startsWith('T0001P01'))).toBe(true);
  });

  it('filters by state, level, type, device, organisation, keyword and time', async () => {
    const pending = await page<Alarm>('alarm.record.page', { state: 'pending', level: '1' }, tadmin, { size: 50 });
    expect(pending.data.total).toBe(await count("SELECT count(*)::int AS count FROM alarm_record WHERE tenant_code = 'T0001' AND source = 'device' AND state = 'pending' AND level = 1"));
    expect(pending.data.records.every((a) => a.state === 'pending' && a.level === '1' && a.open)).toBe(true);
    const device = pending.data.records[0].deviceCode;
    const ofDevice = await page<Alarm>('alarm.record.page', { deviceCode: device }, tadmin, { size: 100 });
    expect(ofDevice.data.records.every((a) => a.deviceCode === device)).toBe(true);
    const offline = await page<Alarm>('alarm.record.page', { alarmType: 'offline', organizationCode: 'T0001P02' }, tadmin, { size: 100 });
    expect(offline.data.total).toBeGreaterThan(0);
    expect(offline.data.records.every((a) => a.alarmType === 'offline' && a.organizationCode.startsWith('T0001P02'))).toBe(true);
    const keyword = await page<Alarm>('alarm.record.page', { keyword: '烟雾' }, tadmin);
    expect(keyword.data.records.every((a) => a.title.includes('烟雾'))).toBe(true);
    const [start, end] = ['2026-01-01 00:00:00', new Date(Date.now() - 7 * 86_400_000).toISOString()];
    const older = await page<Alarm>('alarm.record.page', { timeRange: [start, end] }, tadmin, { sort: [{ field: 'triggeredAt', order: 'asc' }] });
    expect(older.data.records.every((a) => a.triggeredAt <= end)).toBe(true);
    expect((await page('alarm.record.page', { timeRange: [start, start] }, tadmin)).message).toBe('请输入不同的时间');
    expect((await page('alarm.record.page', { state: 'closed' }, tadmin)).code).toBe('400');
  });

  it('keeps another tenant’s alarms out of the list and the detail', async () => {
    const theirs = await alarmCode('T0002', 'device', 'pending');
    expect((await page<Alarm>('alarm.record.page', { keyword: theirs }, tadmin)).data.total).toBe(0);
    expect((await server.call('alarm.record.detail', { code: theirs }, { token: tadmin })).code).toBe('404');
    expect((await server.call('alarm.record.detail', { code: theirs }, { token: badmin })).code).toBe('200');
  });

  it('answers a record’s detail with the device, the rule condition and the handling', async () => {
    const [{ code }] = await server.db.query<{ code: string }>(
      "SELECT code FROM alarm_record WHERE tenant_code = 'T0001' AND source = 'device' AND state = 'resolved' AND rule_id IS NOT NULL ORDER BY triggered_at DESC LIMIT 1",
    );
    const reply = await server.call<Alarm & { condition: string; deviceOnlineState: string; deviceAlarmCount: number; handledAt: string }>('alarm.record.detail', { code }, { token: tadmin });
    expect(reply.code).toBe('200');
    expect(reply.data).toMatchObject({ code, state: 'resolved', open: false });
    expect(reply.data!.handledBy).not.toBe('');
    expect(reply.data!.handleRemark).not.toBe('');
    expect(reply.data!.handledAt > reply.data!.triggeredAt).toBe(true);
    expect(reply.data!.condition).toMatch(/[>≥<≤=]/);
    expect(['online', 'offline']).toContain(reply.data!.deviceOnlineState);
    expect(reply.data!.deviceAlarmCount).toBe(await count("SELECT count(*)::int AS count FROM alarm_record WHERE device_code = $1 AND source = 'device'", [reply.data!.deviceCode]));
    // Flat, so that a form can load it.
    expect(Object.values(reply.data!).filter((value) => typeof value === 'object' && value !== null)).toEqual([]);
    // A monitoring alarm is not an alarm record.
    expect((await server.call('alarm.record.detail', { code: await alarmCode('T0001', 'monitoring', 'pending') }, { token: tadmin })).code).toBe('404');
    expect((await server.call('alarm.record.detail', { code: '' }, { token: tadmin })).code).toBe('400');
  });

  it('exports the filtered records as a spreadsheet', async () => {
    const filter = { state: 'processing', level: '2' };
    const file = await exported('alarm.record.export', filter, tadmin);
    expect(file.contentType).toContain('spreadsheetml');
    expect(file.rows[0].slice(0, 5)).toEqual(['告警编号', '告警标题', '告警类型', '告警等级', '状态']);
    expect(file.rows.length - 1).toBe(await count("SELECT count(*)::int AS count FROM alarm_record WHERE tenant_code = 'T0001' AND source = 'device' AND state = 'processing' AND level = 2"));
    expect(file.rows.slice(1).every((row) => row[3] === '重要' && row[4] === '处理中')).toBe(true);
    const theirs = await exported('alarm.record.export', { keyword: await alarmCode('T0001', 'device', 'pending') }, badmin);
    expect(theirs.rows).toHaveLength(1);
    expect((await server.call('alarm.record.export', { level: 'high' }, { token: tadmin })).code).toBe('400');
  });

  it('refuses an export of more than 10,000 records and says to narrow the query', async () => {
    const all = await count("SELECT count(*)::int AS count FROM alarm_record WHERE tenant_code = 'T0001' AND source = 'device'");
    expect(all).toBeGreaterThan(10_000);
    expect(await server.call('alarm.record.export', {}, { token: tadmin })).toEqual({ code: '400', message: '导出数据超过 10000 条，请缩小查询范围后再导出', data: null });
  });

  it('handles an open alarm once, with a remark', async () => {
    const code = await alarmCode('T0001', 'device', 'pending');
    const reply = await server.call('alarm.record.handle', { code, state: 'resolved', remark: '已更换电池' }, { token: tadmin });
    expect(reply).toMatchObject({ code: '200', data: { state: 'resolved' } });
    const detail = await server.call<Alarm>('alarm.record.detail', { code }, { token: tadmin });
    expect(detail.data).toMatchObject({ state: 'resolved', handledBy: 'tadmin', handleRemark: '已更换电池', open: false });
    expect(await server.call('alarm.record.handle', { code, state: 'ignored', remark: '再次' }, { token: tadmin })).toMatchObject({ code: '409', message: '该告警已处理' });
    // The repair staff of 西湖智慧水务项目 handle the alarms of their project only.
    expect((await server.call('alarm.record.handle', { code: await alarmCode('T0001P01', 'device', 'pending'), state: 'ignored', remark: '误报' }, { token: repair })).code).toBe('200');
    expect((await server.call('alarm.record.handle', { code: await alarmCode('T0001P02', 'device', 'pending'), state: 'ignored', remark: '误报' }, { token: repair })).code).toBe('404');
  });

  it('refuses a bad handling, another tenant’s alarm and a user without the 处理 button', async () => {
    const code = await alarmCode('T0001', 'device', 'pending');
    expect((await server.call('alarm.record.handle', { code, state: 'recovered', remark: '自动' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('alarm.record.handle', { code, state: 'resolved', remark: '' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('alarm.record.handle', { code, state: 'resolved', remark: '越权' }, { token: badmin })).code).toBe('404');
    expect((await server.call('alarm.record.handle', { code, state: 'resolved', remark: '普通用户' }, { token: tuser })).code).toBe('403');
  });

  it('handles a selection in one go, skipping the ones already closed', async () => {
    const open = [await alarmCode('T0001', 'device', 'pending', 0), await alarmCode('T0001', 'device', 'pending', 1), await alarmCode('T0001', 'device', 'processing')];
    const closed = await alarmCode('T0001', 'device', 'recovered');
    const reply = await server.call('alarm.record.batchHandle', { codes: [...open, closed], state: 'ignored', remark: '计划检修期间告警' }, { token: tadmin });
    expect(reply).toMatchObject({ code: '200', data: { handled: 3, skipped: 1 } });
    expect(await count("SELECT count(*)::int AS count FROM alarm_record WHERE code = ANY($1::text[]) AND state = 'ignored' AND handled_by = 'tadmin'", [open])).toBe(3);
    expect(await server.call('alarm.record.batchHandle', { codes: [closed], state: 'ignored', remark: '再次' }, { token: tadmin })).toMatchObject({ code: '409', message: '所选告警均已处理' });
    expect((await server.call('alarm.record.batchHandle', { codes: [await alarmCode('T0002', 'device', 'pending')], state: 'resolved', remark: '越权' }, { token: tadmin })).code).toBe('404');
    expect((await server.call('alarm.record.batchHandle', { codes: [], state: 'resolved', remark: '空' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('alarm.record.batchHandle', { codes: [closed], state: 'resolved', remark: '维修' }, { token: repair })).code).toBe('403');
  });

  it('sends an open alarm to repair with a generated work order number', async () => {
    const code = await alarmCode('T0001P01', 'device', 'pending');
    const reply = await server.call<{ repairOrderCode: string; state: string }>('alarm.record.toRepair', { code, remark: '请尽快到场' }, { token: repair });
    expect(reply.code).toBe('200');
    expect(reply.data!.repairOrderCode).toMatch(/^WO\d{12}$/);
    const detail = await server.call<Alarm>('alarm.record.detail', { code }, { token: tadmin });
    expect(detail.data).toMatchObject({ state: 'processing', repairOrderCode: reply.data!.repairOrderCode, handledBy: 'repair', handleRemark: '请尽快到场' });
    const second = await server.call<{ repairOrderCode: string }>('alarm.record.toRepair', { code: await alarmCode('T0001', 'device', 'pending') }, { token: tadmin });
    expect(second.data!.repairOrderCode).not.toBe(reply.data!.repairOrderCode);
    expect(await server.call('alarm.record.toRepair', { code }, { token: tadmin })).toMatchObject({ code: '409', message: '该告警已转维修工单' });
    expect(await server.call('alarm.record.toRepair', { code: await alarmCode('T0001', 'device', 'recovered') }, { token: tadmin })).toMatchObject({ code: '409', message: '该告警已处理' });
    expect((await server.call('alarm.record.toRepair', { code: await alarmCode('T0002', 'device', 'pending') }, { token: tadmin })).code).toBe('404');
    expect((await server.call('alarm.record.toRepair', { code, remark: '<b>' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('alarm.record.toRepair', { code: await alarmCode('T0001', 'device', 'pending') }, { token: tuser })).code).toBe('403');
  });

  it('counts alarms by level and state for a time range', async () => {
    const startTime = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const endTime = new Date().toISOString();
    const reply = await server.call<Record<string, number> & { byLevel: Array<{ count: number }>; byState: Array<{ state: string; count: number }> }>('alarm.statistics', { startTime, endTime }, { token: tadmin });
    expect(reply.code).toBe('200');
    const total = await count("SELECT count(*)::int AS count FROM alarm_record WHERE tenant_code = 'T0001' AND triggered_at BETWEEN $1 AND $2", [startTime, endTime]);
    expect(reply.data!.total).toBe(total);
    expect(reply.data!.level1 + reply.data!.level2 + reply.data!.level3 + reply.data!.level4).toBe(total);
    expect(reply.data!.byState.reduce((sum, s) => sum + s.count, 0)).toBe(total);
    expect(reply.data!.pending).toBe(reply.data!.byState.find((s) => s.state === 'pending')!.count);
    expect(reply.data!.closedRate).toBeGreaterThan(0);
    const monitoring = await server.call<{ total: number }>('alarm.statistics', { startTime, endTime, source: 'monitoring' }, { token: tadmin });
    expect(monitoring.data!.total).toBe(await count("SELECT count(*)::int AS count FROM alarm_record WHERE tenant_code = 'T0001' AND source = 'monitoring' AND triggered_at BETWEEN $1 AND $2", [startTime, endTime]));
    const theirs = await server.call<{ total: number }>('alarm.statistics', { startTime, endTime }, { token: badmin });
    expect(theirs.data!.total).toBe(await count("SELECT count(*)::int AS count FROM alarm_record WHERE tenant_code = 'T0002' AND triggered_at BETWEEN $1 AND $2", [startTime, endTime]));
    expect((await server.call('alarm.statistics', { startTime: 'yesterday' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('alarm.statistics', {}, { token: badmin, orgCode: 'T0001' })).code).toBe('403');
  });
});

describe('monitoring alarms', () => {
  it('pages only the platform monitoring’s alarms of the tenant', async () => {
    const reply = await page<Alarm>('monitoring.alarm.page', { state: 'pending' }, tadmin);
    expect(reply.code).toBe('200');
    expect(reply.data.total).toBe(await count("SELECT count(*)::int AS count FROM alarm_record WHERE tenant_code = 'T0001' AND source = 'monitoring' AND state = 'pending'"));
    expect(reply.data.records.every((a) => a.source === 'monitoring' && a.state === 'pending')).toBe(true);
    expect((await page('monitoring.alarm.page', { alarmType: 'meteor' }, tadmin)).code).toBe('400');
  });

  it('answers a monitoring alarm’s detail, never a device alarm’s or another tenant’s', async () => {
    const code = await alarmCode('T0001', 'monitoring', 'recovered');
    const reply = await server.call<Alarm & { recoveredAt: string; condition: string }>('monitoring.alarm.detail', { code }, { token: tadmin });
    expect(reply.data).toMatchObject({ code, source: 'monitoring', state: 'recovered', condition: '', handledBy: '' });
    expect(reply.data!.recoveredAt > reply.data!.triggeredAt).toBe(true);
    expect((await server.call('monitoring.alarm.detail', { code: await alarmCode('T0001', 'device', 'recovered') }, { token: tadmin })).code).toBe('404');
    expect((await server.call('monitoring.alarm.detail', { code }, { token: badmin })).code).toBe('404');
    expect((await server.call('monitoring.alarm.detail', { code: null }, { token: tadmin })).code).toBe('400');
  });

  it('exports monitoring alarms', async () => {
    const file = await exported('monitoring.alarm.export', { alarmType: 'fault' }, tadmin);
    expect(file.rows.length - 1).toBe(await count("SELECT count(*)::int AS count FROM alarm_record WHERE tenant_code = 'T0001' AND source = 'monitoring' AND alarm_type = 'fault'"));
    expect(file.rows.slice(1).every((row) => row[2] === '故障告警')).toBe(true);
    expect((await server.call('monitoring.alarm.export', { extra: true }, { token: tadmin })).code).toBe('400');
  });

  it('handles a monitoring alarm, refusing another tenant’s and a user without the button', async () => {
    const code = await alarmCode('T0001', 'monitoring', 'pending');
    expect((await server.call('monitoring.alarm.handle', { code, state: 'resolved', remark: '越权' }, { token: badmin })).code).toBe('404');
    expect((await server.call('monitoring.alarm.handle', { code, state: 'resolved', remark: '普通用户' }, { token: tuser })).code).toBe('403');
    expect((await server.call('monitoring.alarm.handle', { code, state: 'done', remark: '无效' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('monitoring.alarm.handle', { code: await alarmCode('T0001', 'device', 'pending'), state: 'resolved', remark: '设备告警' }, { token: tadmin })).code).toBe('404');
    expect((await server.call('monitoring.alarm.handle', { code, state: 'resolved', remark: '已恢复上报' }, { token: tadmin })).code).toBe('200');
    expect((await server.call<Alarm>('monitoring.alarm.detail', { code }, { token: tadmin })).data).toMatchObject({ state: 'resolved', handleRemark: '已恢复上报' });
  });
});

describe('dashboards', () => {
  it('answers the overview in the agreed shape, within the scope', async () => {
    const reply = await server.call<Record<string, number>>('dashboard.overview', {}, { token: tadmin });
    expect(reply.code).toBe('200');
    expect(Object.keys(reply.data!).sort()).toEqual(
      ['deviceTotal', 'onlineCount', 'offlineCount', 'inactiveCount', 'onlineRate', 'faultyCount', 'lowBatteryCount', 'sleepingCount', 'productCount', 'projectCount', 'alarmToday', 'alarmPending'].sort(),
    );
    const data = reply.data!;
    expect(data.deviceTotal).toBe(await count("SELECT count(*)::int AS count FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL"));
    expect(data.onlineCount + data.offlineCount + data.inactiveCount).toBe(data.deviceTotal);
    // 在线率 of the devices that have connected (issue 34: one definition on every board).
    expect(data.onlineRate).toBe(Math.round((data.onlineCount / (data.onlineCount + data.offlineCount)) * 1000) / 10);
    expect(data.projectCount).toBe(2);
    expect(data.productCount).toBe(8);
    // 待处理告警 is 告警记录's (device alarms) under 告警状态 = 待处理, as 工作台 links it.
    expect(data.alarmPending).toBe(await count("SELECT count(*)::int AS count FROM alarm_record WHERE tenant_code = 'T0001' AND source = 'device' AND state = 'pending'"));
    expect(data.lowBatteryCount).toBeGreaterThan(0);
    const project = await server.call<Record<string, number>>('dashboard.overview', {}, { token: tadmin, orgCode: 'T0001P02' });
    expect(project.data!.deviceTotal).toBeLessThan(data.deviceTotal);
    expect(project.data!.projectCount).toBe(1);
    expect((await server.call<Record<string, number>>('dashboard.overview', {}, { token: badmin })).data!.deviceTotal).toBe(
      await count("SELECT count(*)::int AS count FROM device WHERE tenant_code = 'T0002' AND deleted_at IS NULL"),
    );
    expect((await server.call('dashboard.overview', { days: 7 }, { token: tadmin })).code).toBe('400');
    expect((await server.call('dashboard.overview', {}, { token: badmin, orgCode: 'T0001' })).code).toBe('403');
  });

  it('answers the device trend per day', async () => {
    const reply = await server.call<Array<{ day: string; newDevices: number; totalDevices: number }>>('dashboard.deviceTrend', {}, { token: tadmin });
    expect(reply.data).toHaveLength(30);
    expect(reply.data![0].day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const last = reply.data!.at(-1)!;
    // Days are business days (Asia/Shanghai, the server's zone), not UTC ones.
    expect(last.day).toBe(businessDay(new Date(), DEFAULT_TIME_ZONE));
    expect(last.totalDevices).toBe(await count("SELECT count(*)::int AS count FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL"));
    expect(reply.data!.every((row, i) => i === 0 || row.day > reply.data![i - 1].day)).toBe(true);
    expect((await server.call<unknown[]>('dashboard.deviceTrend', { days: 7 }, { token: tadmin })).data).toHaveLength(7);
    expect((await server.call('dashboard.deviceTrend', { days: 5 }, { token: tadmin })).code).toBe('400');
    expect((await server.call('dashboard.deviceTrend', {}, { token: badmin, orgCode: 'T0001P01' })).code).toBe('403');
  });

  it('answers the alarm trend per day and level', async () => {
    const reply = await server.call<Array<{ day: string; total: number; level1: number; level2: number; level3: number; level4: number }>>('dashboard.alarmTrend', { days: 14 }, { token: tadmin });
    expect(reply.data).toHaveLength(14);
    expect(reply.data!.every((row) => row.level1 + row.level2 + row.level3 + row.level4 === row.total)).toBe(true);
    const first = reply.data![0].day;
    expect(reply.data!.reduce((sum, row) => sum + row.total, 0)).toBe(
      await count("SELECT count(*)::int AS count FROM alarm_record WHERE tenant_code = 'T0001' AND source = 'device' AND triggered_at >= $1::date", [first]),
    );
    const ranged = await server.call<unknown[]>('dashboard.alarmTrend', { startTime: '2026-09-01 00:00:00', endTime: '2026-09-30 23:59:59' }, { token: tadmin });
    expect(ranged.data).toHaveLength(30);
    expect((await server.call('dashboard.alarmTrend', { days: 100 }, { token: tadmin })).code).toBe('400');
    expect((await server.call('dashboard.alarmTrend', {}, { token: badmin, orgCode: 'T0001' })).code).toBe('403');
  });

  it('answers the historical situation of the fleet per day', async () => {
    // The business day six days ago: a date without a time is read at that day's midnight in the business zone.
    const startTime = businessDay(new Date(Date.now() - 6 * 86_400_000), DEFAULT_TIME_ZONE);
    const reply = await server.call<Array<{ day: string; online: number; offline: number; alarm: number }>>('device.dashboard.historicalSituation', { startTime }, { token: tadmin });
    expect(reply.code).toBe('200');
    expect(reply.data).toHaveLength(7);
    const today = reply.data!.at(-1)!;
    expect(today.offline).toBeGreaterThan(0);
    expect(today.online).toBeGreaterThan(today.offline);
    const [first] = reply.data!;
    expect(first.alarm).toBe(
      await count("SELECT count(*)::int AS count FROM alarm_record WHERE tenant_code = 'T0001' AND triggered_at >= $1::date AND triggered_at < $1::date + 1", [first.day]),
    );
    const theirs = await server.call<Array<{ online: number }>>('device.dashboard.historicalSituation', { startTime }, { token: badmin });
    expect(theirs.data!.at(-1)!.online).toBeLessThan(today.online);
    expect((await server.call('device.dashboard.historicalSituation', { startTime: '2020-01-01' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.dashboard.historicalSituation', { startTime: 'last week' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.dashboard.historicalSituation', {}, { token: badmin, orgCode: 'T0001' })).code).toBe('403');
  });

  it('lists the hottest devices with the thresholds that apply to them', async () => {
    const reply = await server.call<Array<{ deviceCode: string; temperature: number; temperatureHigh: number; temperatureState: string }>>('device.temperature.list', { limit: 10 }, { token: tadmin });
    expect(reply.data).toHaveLength(10);
    const temperatures = reply.data!.map((d) => d.temperature);
    expect([...temperatures].sort((a, b) => b - a)).toEqual(temperatures);
    const codes = reply.data!.map((d) => d.deviceCode);
    expect(await count("SELECT count(*)::int AS count FROM device WHERE code = ANY($1::text[]) AND tenant_code = 'T0001'", [codes])).toBe(10);
    const sensors = await server.call<Array<{ temperatureHigh: number }>>('device.temperature.list', { productCode: 'PRD-TH-LR', limit: 5 }, { token: tadmin });
    expect(sensors.data!.every((d) => d.temperatureHigh === 40)).toBe(true);
    const theirSensors = await server.call<Array<{ temperatureHigh: number }>>('device.temperature.list', { productCode: 'PRD-TH-LR', limit: 5 }, { token: badmin });
    expect(theirSensors.data!.every((d) => d.temperatureHigh === 60)).toBe(true);
    expect((await server.call('device.temperature.list', { limit: 0 }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.temperature.list', {}, { token: badmin, orgCode: 'T0001' })).code).toBe('403');
  });

  it('counts alarms by type for the alarm board', async () => {
    const startTime = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const reply = await server.call<Array<{ alarmType: string; name: string; count: number; open: number }>>('device.alarmBoard.typeStatistics', { startTime }, { token: tadmin });
    expect(reply.data!.map((row) => row.alarmType)).toEqual(['threshold', 'offline', 'fault', 'battery']);
    expect(reply.data!.map((row) => row.name)).toEqual(['阈值告警', '离线告警', '故障告警', '低电量告警']);
    const statistics = await server.call<{ total: number }>('alarm.statistics', { startTime }, { token: tadmin });
    expect(reply.data!.reduce((sum, row) => sum + row.count, 0)).toBe(statistics.data!.total);
    expect((await server.call('device.alarmBoard.typeStatistics', { source: 'satellite' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.alarmBoard.typeStatistics', {}, { token: badmin, orgCode: 'T0001' })).code).toBe('403');
  });

  it('reads and saves which device tags a tenant’s boards show', async () => {
    const reply = await server.call<{ fields: string[]; options: Array<{ value: string }>; updatedBy: string }>('device.tagDisplay.get', {}, { token: tadmin });
    expect(reply.data).toMatchObject({ fields: ['productName', 'firmwareVersion', 'batteryLevel', 'signalStrength', 'temperature', 'lastSeenAt'], updatedBy: 'tadmin' });
    expect(reply.data!.options).toHaveLength(12);
    const saved = await server.call('device.tagDisplay.update', { fields: ['temperature', 'productName'], showAlarmBadge: false }, { token: tadmin });
    expect(saved).toMatchObject({ code: '200', data: { fields: ['productName', 'temperature'], showAlarmBadge: false } });
    expect((await server.call<{ fields: string[] }>('device.tagDisplay.get', {}, { token: tadmin })).data!.fields).toEqual(['productName', 'temperature']);
    expect((await server.call<{ fields: string[] }>('device.tagDisplay.get', {}, { token: badmin })).data!.fields).toEqual(['productName', 'onlineState', 'healthState', 'temperature', 'address']);
    expect((await server.call<{ tenantCode: string }>('device.tagDisplay.get', {}, { token: admin })).data!.tenantCode).toBe('');
    expect((await server.call('device.tagDisplay.update', { fields: ['password'] }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.tagDisplay.update', { fields: [] }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.tagDisplay.update', { fields: ['productName'] }, { token: tuser })).code).toBe('403');
    expect((await server.call('device.tagDisplay.update', { fields: ['productName'] }, { token: admin })).code).toBe('400');
    expect((await server.call('device.tagDisplay.update', { fields: ['productName'] }, { token: badmin, orgCode: 'T0001' })).code).toBe('403');
  });
});
