// Device maintenance (设备运维): health (page, detail, trend, export), the recycle bin (page,
// detail, restore, purge), sleeping devices (page, detail, export, wake) and device errors (page,
// detail, export, handle, toRepair). Every query stays inside the caller's device scope: a tenant
// admin of T0002 (badmin) never reads or changes a T0001 record ("404"), the selected
// organisation narrows the lists, and button operations need the role's button ("403").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE } from '../../server/db/database';
import { businessDay, businessDayStamp } from '../../server/domain/businessTime';
import { startServer, type TestServer } from './harness';
import { column, exportSheet, pageCall } from './devices-maintenance-helpers';

let server: TestServer;
let tadmin: string;
let badmin: string;
let tuser: string;
let repair: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin, tuser, repair] = await Promise.all([server.login('tadmin'), server.login('badmin'), server.login('tuser'), server.login('repair')]);
});
afterAll(() => server.close());

interface DeviceRecord {
  code: string;
  name: string;
  organizationCode: string;
  organizationName: string;
  productCode: string;
  productName: string;
  onlineState: string;
  healthState: string;
  healthScore: number;
  batteryLevel: number | null;
  sleeping: boolean;
  sleepSince: string | null;
  deletedTime: string | null;
  recycleReason: string;
}

/** A T0001 device matching `where` (SQL over device d and product p). */
async function t1Device(where: string, params: unknown[] = []): Promise<string> {
  const [code] = await column<string>(server, `SELECT d.code AS value FROM device d JOIN product p ON p.code = d.product_code WHERE d.tenant_code = 'T0001' AND ${where} ORDER BY d.code LIMIT 1`, params);
  if (!code) throw new Error(`no T0001 device where ${where}`);
  return code;
}

describe('device.health.page / detail / trend / export', () => {
  it('lists the scoped live devices worst first, filtered by state, score range, product and organisation', async () => {
    const all = await pageCall<DeviceRecord>(server, 'device.health.page', tadmin);
    expect(all.code).toBe('200');
    const [live] = await column<number>(server, "SELECT count(*)::int AS value FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL");
    expect(all.data.total).toBe(live);
    const scores = all.data.records.map((r) => r.healthScore);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));

    const faulty = await pageCall<DeviceRecord>(server, 'device.health.page', tadmin, { healthState: 'faulty', productCode: 'PRD-PG-NB' }, { pageSize: 100 });
    expect(faulty.data.total).toBeGreaterThan(0);
    expect(faulty.data.records.every((r) => r.healthState === 'faulty' && r.productCode === 'PRD-PG-NB' && r.code.startsWith('PGNB01'))).toBe(true);

    const range = await pageCall<DeviceRecord>(server, 'device.health.page', tadmin, { scoreMin: 60, scoreMax: 79 }, { pageSize: 100, sort: [{ field: 'healthScore', order: 'desc' }] });
    expect(range.data.records[0].healthScore).toBe(79);
    expect(range.data.records.every((r) => r.healthScore >= 60 && r.healthScore <= 79)).toBe(true);

    // An organisation filter takes its subtree; the selected organisation (orgCode) narrows the scope.
    const project = await pageCall<DeviceRecord>(server, 'device.health.page', tadmin, { organizationCode: 'T0001P01' }, { pageSize: 200 });
    expect(project.data.records.every((r) => r.organizationCode.startsWith('T0001P01'))).toBe(true);
    expect(new Set(project.data.records.map((r) => r.organizationCode)).size).toBeGreaterThan(1);
    const selected = await pageCall<DeviceRecord>(server, 'device.health.page', tadmin, {}, { orgCode: 'T0001P02', pageSize: 200 });
    expect(selected.data.total).toBeLessThan(live);
    expect(selected.data.records.every((r) => r.organizationCode.startsWith('T0001P02'))).toBe(true);
  });

  it('keeps another tenant out of sight and refuses bad filters ("400")', async () => {
    const code = await t1Device('d.deleted_at IS NULL');
    const theirs = await pageCall<DeviceRecord>(server, 'device.health.page', badmin, { keyword: code });
    expect(theirs.data.total).toBe(0);
    expect((await pageCall(server, 'device.health.page', badmin)).data.records.every((r) => (r as DeviceRecord).code.slice(4, 6) === '02')).toBe(true);
    expect((await pageCall(server, 'device.health.page', tadmin, { healthState: 'dying' })).code).toBe('400');
    expect((await pageCall(server, 'device.health.page', tadmin, { scoreMin: 101 })).code).toBe('400');
    const inverted = await pageCall(server, 'device.health.page', tadmin, { scoreMin: 80, scoreMax: 20 });
    expect(inverted).toMatchObject({ code: '400', message: '参数错误：scoreMin（最低分不能高于最高分）' });
  });

  it('details a device\'s health: indicators, recent errors and its 30-day error count', async () => {
    const [code] = await column<string>(server, `SELECT e.device_code AS value FROM device_error e JOIN device d ON d.code = e.device_code
      WHERE e.tenant_code = 'T0001' AND d.deleted_at IS NULL AND d.battery_level IS NOT NULL GROUP BY e.device_code ORDER BY count(*) DESC, e.device_code LIMIT 1`);
    const reply = await server.call<DeviceRecord & { indicators: Array<{ indicator: string; assessment: string }>; recentErrors: Array<{ code: string }>; errorCount30d: number }>(
      'device.health.detail',
      { code },
      { token: tadmin },
    );
    expect(reply.code).toBe('200');
    const [errors] = await column<number>(server, 'SELECT count(*)::int AS value FROM device_error WHERE device_code = $1', [code]);
    expect(reply.data!.recentErrors.length).toBe(Math.min(errors, 10));
    expect(reply.data!.indicators.map((i) => i.indicator)).toEqual(expect.arrayContaining(['在线状态', '电池电量', '近 30 天异常']));
    expect(reply.data!.indicators.every((i) => ['正常', '关注', '异常'].includes(i.assessment))).toBe(true);

    expect((await server.call('device.health.detail', { code }, { token: badmin })).code).toBe('404');
    expect((await server.call('device.health.detail', { code: 'SHORT' }, { token: tadmin })).code).toBe('400');
    const recycled = await t1Device('d.deleted_at IS NOT NULL');
    expect((await server.call('device.health.detail', { code: recycled }, { token: tadmin })).code).toBe('404');
  });

  it('answers a sampled device\'s daily trend ending at its current score, and says when a device is not sampled', async () => {
    const [sampled] = await column<string>(server, "SELECT s.device_code AS value FROM device_health_sample s JOIN device d ON d.code = s.device_code WHERE d.tenant_code = 'T0001' ORDER BY s.device_code LIMIT 1");
    const trend = await server.call<{ sampled: boolean; days: number; points: Array<{ date: string; healthScore: number; healthState: string }> }>('device.health.trend', { code: sampled }, { token: tadmin });
    expect(trend.data).toMatchObject({ sampled: true, days: 30 });
    const points = trend.data!.points;
    expect(points.length).toBe(30);
    expect(points.map((p) => p.date)).toEqual([...points.map((p) => p.date)].sort());
    const [current] = await column<number>(server, 'SELECT health_score AS value FROM device WHERE code = $1', [sampled]);
    expect(points[points.length - 1]).toMatchObject({ date: businessDay(new Date(), DEFAULT_TIME_ZONE), healthScore: current });
    const week = await server.call<{ points: unknown[] }>('device.health.trend', { code: sampled, days: 7 }, { token: tadmin });
    expect(week.data!.points.length).toBe(7);

    const unsampled = await t1Device('d.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM device_health_sample s WHERE s.device_code = d.code)');
    const single = await server.call<{ sampled: boolean; note: string; points: unknown[] }>('device.health.trend', { code: unsampled }, { token: tadmin });
    expect(single.data).toMatchObject({ sampled: false, note: '该设备未纳入每日健康采样，仅显示当前评分' });
    expect(single.data!.points).toHaveLength(1);

    expect((await server.call('device.health.trend', { code: sampled }, { token: badmin })).code).toBe('404');
    expect((await server.call('device.health.trend', { code: sampled, days: 365 }, { token: tadmin })).code).toBe('400');
  });

  it('exports the filtered list as a real spreadsheet', async () => {
    const { fileName, rows } = await exportSheet(server, 'device.health.export', tadmin, { healthState: 'faulty', organizationCode: 'T0001P02' });
    expect(fileName).toMatch(/^设备健康-\d{8}\.xlsx$/);
    const [count] = await column<number>(server, "SELECT count(*)::int AS value FROM device WHERE organization_code LIKE 'T0001P02%' AND health_state = 'faulty' AND deleted_at IS NULL");
    expect(rows.length).toBe(count + 1);
    expect(rows[0]).toEqual(['设备编码', '设备名称', '产品', '组织', '健康状态', '健康评分', '在线状态', '电池电量(%)', '信号强度', '最后上报']);
    expect(rows.slice(1).every((row) => row[4] === '故障')).toBe(true);
    // badmin's export holds none of T0001's devices; a bad filter is a "400".
    const theirs = await exportSheet(server, 'device.health.export', badmin, { keyword: 'PGNB01' });
    expect(theirs.rows).toHaveLength(1);
    expect((await server.call('device.health.export', { scoreMax: 'high' }, { token: tadmin })).code).toBe('400');
  });
});

describe('device.recycle.page / detail / restore / delete', () => {
  it('lists the recycle bin of the scope, filtered by reason and deletion time', async () => {
    const all = await pageCall<DeviceRecord>(server, 'device.recycle.page', tadmin, {}, { pageSize: 500 });
    const [count] = await column<number>(server, "SELECT count(*)::int AS value FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NOT NULL");
    expect(all.data.total).toBe(count);
    expect(all.data.records.every((r) => r.deletedTime !== null && r.code.slice(4, 6) === '01')).toBe(true);
    const times = all.data.records.map((r) => r.deletedTime!);
    expect(times).toEqual([...times].sort().reverse());

    const scrapped = await pageCall<DeviceRecord>(server, 'device.recycle.page', tadmin, { recycleReason: 'scrapped' }, { pageSize: 500 });
    expect(scrapped.data.total).toBeGreaterThan(0);
    expect(scrapped.data.records.every((r) => r.recycleReason === 'scrapped')).toBe(true);
    const lastWeek = [new Date(Date.now() - 7 * 86_400_000).toISOString(), new Date().toISOString()];
    const recent = await pageCall<DeviceRecord>(server, 'device.recycle.page', tadmin, { deletedTimeRange: lastWeek }, { pageSize: 500 });
    expect(recent.data.total).toBeLessThan(count);
    expect(recent.data.records.every((r) => r.deletedTime! >= lastWeek[0])).toBe(true);

    expect((await pageCall(server, 'device.recycle.page', tadmin, { recycleReason: 'lost' })).code).toBe('400');
    expect((await pageCall(server, 'device.recycle.page', tadmin, { deletedTimeRange: ['2026-13-45', '2026-11-01'] })).code).toBe('400');
    expect((await pageCall(server, 'device.recycle.page', tadmin, { deletedTimeRange: [lastWeek[1], lastWeek[0]] })).code).toBe('400');
    const theirs = await pageCall<DeviceRecord>(server, 'device.recycle.page', badmin, { keyword: all.data.records[0].code });
    expect(theirs.data.total).toBe(0);
  });

  it('details a recycled device, never a live one or another tenant\'s', async () => {
    const code = await t1Device('d.deleted_at IS NOT NULL');
    const reply = await server.call<DeviceRecord & { restorable: boolean; recycledDays: number; deletedBy: string }>('device.recycle.detail', { code }, { token: tadmin });
    expect(reply.data).toMatchObject({ code, restorable: true, deletedBy: 'tadmin' });
    expect(reply.data!.recycledDays).toBeGreaterThanOrEqual(0);
    expect((await server.call('device.recycle.detail', { code }, { token: badmin })).code).toBe('404');
    const live = await t1Device('d.deleted_at IS NULL');
    expect(await server.call('device.recycle.detail', { code: live }, { token: tadmin })).toMatchObject({ code: '404', message: '回收设备不存在' });
    expect((await server.call('device.recycle.detail', { code: 'abc' }, { token: tadmin })).code).toBe('400');
  });

  it('restores devices to the fleet, and refuses when a live device has taken the identity', async () => {
    const [first, second] = await column<string>(server, "SELECT code AS value FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NOT NULL ORDER BY code LIMIT 2");
    expect((await server.call('device.recycle.restore', { codes: [first] }, { token: badmin })).code).toBe('404');
    expect((await server.call('device.recycle.restore', { codes: [first] }, { token: tuser })).code).toBe('403');
    expect((await server.call('device.recycle.restore', { codes: [] }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.recycle.restore', { codes: [first, first] }, { token: tadmin })).code).toBe('400');

    const restored = await server.call('device.recycle.restore', { codes: [first] }, { token: tadmin });
    expect(restored).toMatchObject({ code: '200', data: { restored: 1 } });
    const [row] = await server.db.query<{ deleted_at: Date | null; deleted_by: string | null; recycle_reason: string | null }>('SELECT deleted_at, deleted_by, recycle_reason FROM device WHERE code = $1', [first]);
    expect(row).toEqual({ deleted_at: null, deleted_by: null, recycle_reason: null });
    expect((await pageCall<DeviceRecord>(server, 'device.health.page', tadmin, { keyword: first })).data.total).toBe(1);
    // No longer in the bin: a second restore does not find it.
    expect((await server.call('device.recycle.restore', { codes: [first] }, { token: tadmin })).code).toBe('404');

    // The hardware was registered again meanwhile: a live device now carries the recycled one's IMEI.
    const [imei] = await column<string>(server, 'SELECT imei AS value FROM device WHERE code = $1', [second]);
    const live = await t1Device('d.deleted_at IS NULL');
    await server.db.query('UPDATE device SET imei = $1 WHERE code = $2', [imei, live]);
    const detail = await server.call<{ restorable: boolean; restoreBlocker: string }>('device.recycle.detail', { code: second }, { token: tadmin });
    expect(detail.data).toMatchObject({ restorable: false, restoreBlocker: `设备 ${second} 的 IMEI 已被设备 ${live} 使用` });
    const refused = await server.call('device.recycle.restore', { codes: [second] }, { token: tadmin });
    expect(refused).toMatchObject({ code: '409', message: `设备 ${second} 的 IMEI 已被设备 ${live} 使用，无法恢复` });
    const [still] = await column<Date | null>(server, 'SELECT deleted_at AS value FROM device WHERE code = $1', [second]);
    expect(still).not.toBeNull();
  });

  it('purges devices for good with their history, and refuses a gateway that still has live sub-devices', async () => {
    const [code] = await column<string>(server, "SELECT code AS value FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NOT NULL ORDER BY code DESC LIMIT 1");
    await server.db.query(
      `INSERT INTO device_error (code, device_code, organization_code, tenant_code, error_type, description, occurred_at)
       SELECT 'DE-TEST-PURGE', code, organization_code, tenant_code, 'signal_weak', '测试', now() FROM device WHERE code = $1`,
      [code],
    );
    expect((await server.call('device.recycle.delete', { codes: [code] }, { token: badmin })).code).toBe('404');
    expect((await server.call('device.recycle.delete', { codes: [code] }, { token: tuser })).code).toBe('403');
    expect((await server.call('device.recycle.delete', { codes: 'all' }, { token: tadmin })).code).toBe('400');
    expect(await server.call('device.recycle.delete', { codes: [code] }, { token: tadmin })).toMatchObject({ code: '200', data: { deleted: 1 } });
    expect(await column(server, 'SELECT code AS value FROM device WHERE code = $1', [code])).toEqual([]);
    expect(await column(server, 'SELECT code AS value FROM device_error WHERE device_code = $1', [code])).toEqual([]);

    // A gateway in the bin whose sub-devices are still live stays.
    const gateway = await t1Device("p.node_type = 'gateway' AND d.deleted_at IS NULL AND EXISTS (SELECT 1 FROM device s WHERE s.gateway_code = d.code AND s.deleted_at IS NULL)");
    await server.db.query("UPDATE device SET deleted_at = now(), deleted_by = 'tadmin', recycle_reason = 'removed' WHERE code = $1", [gateway]);
    expect(await server.call('device.recycle.delete', { codes: [gateway] }, { token: tadmin })).toMatchObject({ code: '409', message: `网关 ${gateway} 下仍有子设备，无法彻底删除` });
    expect(await column(server, 'SELECT code AS value FROM device WHERE code = $1', [gateway])).toEqual([gateway]);
  });
});

describe('device.sleep.page / detail / export / wake', () => {
  interface SleepRecord extends DeviceRecord {
    sleepSeconds: number;
  }

  it('lists the sleeping live devices of the scope, longest asleep first', async () => {
    const all = await pageCall<SleepRecord>(server, 'device.sleep.page', tadmin, {}, { pageSize: 500 });
    const [count] = await column<number>(server, "SELECT count(*)::int AS value FROM device WHERE tenant_code = 'T0001' AND sleeping AND deleted_at IS NULL");
    expect(all.data.total).toBe(count);
    expect(all.data.records.every((r) => r.sleeping && r.sleepSince !== null && r.sleepSeconds > 0)).toBe(true);
    const seconds = all.data.records.map((r) => r.sleepSeconds);
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
    const long = await pageCall<SleepRecord>(server, 'device.sleep.page', tadmin, { sleepDaysMin: 20 }, { pageSize: 500 });
    expect(long.data.total).toBeLessThan(count);
    expect(long.data.records.every((r) => r.sleepSeconds >= 20 * 86_400)).toBe(true);
    expect((await pageCall<SleepRecord>(server, 'device.sleep.page', badmin, { keyword: all.data.records[0].code })).data.total).toBe(0);
    expect((await pageCall(server, 'device.sleep.page', tadmin, { sleepDaysMin: -1 })).code).toBe('400');
  });

  it('details a device\'s sleep with its wake history', async () => {
    const [woken] = await column<string>(server, "SELECT w.device_code AS value FROM device_wake_record w JOIN device d ON d.code = w.device_code WHERE w.tenant_code = 'T0001' AND d.deleted_at IS NULL ORDER BY w.device_code LIMIT 1");
    const reply = await server.call<SleepRecord & { wakeRecords: Array<{ wokenBy: string; wokenTime: string; sleptSeconds: number }> }>('device.sleep.detail', { code: woken }, { token: tadmin });
    expect(reply.code).toBe('200');
    expect(reply.data!.wakeRecords.length).toBeGreaterThan(0);
    expect(reply.data!.wakeRecords[0].sleptSeconds).toBeGreaterThan(0);
    expect((await server.call('device.sleep.detail', { code: woken }, { token: badmin })).code).toBe('404');
    expect((await server.call('device.sleep.detail', {}, { token: tadmin })).code).toBe('400');
  });

  it('exports the sleeping devices', async () => {
    const { fileName, rows } = await exportSheet(server, 'device.sleep.export', tadmin, { productCode: 'PRD-WM-NB' });
    expect(fileName).toMatch(/^休眠设备-\d{8}\.xlsx$/);
    const [count] = await column<number>(server, "SELECT count(*)::int AS value FROM device WHERE tenant_code = 'T0001' AND sleeping AND deleted_at IS NULL AND product_code = 'PRD-WM-NB'");
    expect(rows.length).toBe(count + 1);
    expect(rows.slice(1).every((row) => String(row[0]).startsWith('WMNB01'))).toBe(true);
    expect((await exportSheet(server, 'device.sleep.export', badmin, { keyword: 'WMNB01' })).rows).toHaveLength(1);
    expect((await server.call('device.sleep.export', { productCode: '<b>' }, { token: tadmin })).code).toBe('400');
  });

  it('wakes sleeping devices and records who woke them and when', async () => {
    const [code] = await column<string>(server, "SELECT code AS value FROM device WHERE tenant_code = 'T0001' AND sleeping AND deleted_at IS NULL ORDER BY code LIMIT 1");
    expect((await server.call('device.sleep.wake', { codes: [code] }, { token: badmin })).code).toBe('404');
    expect((await server.call('device.sleep.wake', { codes: [code] }, { token: tuser })).code).toBe('403');
    expect((await server.call('device.sleep.wake', { codes: ['x'] }, { token: tadmin })).code).toBe('400');
    const reply = await server.call<{ woken: number; wokenBy: string }>('device.sleep.wake', { codes: [code] }, { token: tadmin });
    expect(reply.data).toMatchObject({ woken: 1, wokenBy: 'tadmin' });
    const [row] = await server.db.query<{ sleeping: boolean; sleep_since: Date | null }>('SELECT sleeping, sleep_since FROM device WHERE code = $1', [code]);
    expect(row).toEqual({ sleeping: false, sleep_since: null });
    const detail = await server.call<{ sleeping: boolean; wakeRecords: Array<{ wokenBy: string; sleptSince: string | null }> }>('device.sleep.detail', { code }, { token: tadmin });
    expect(detail.data!.sleeping).toBe(false);
    expect(detail.data!.wakeRecords[0]).toMatchObject({ wokenBy: 'tadmin' });
    expect(detail.data!.wakeRecords[0].sleptSince).not.toBeNull();
    // Awake now: waking it again is a conflict, and it left the sleep list.
    expect(await server.call('device.sleep.wake', { codes: [code] }, { token: tadmin })).toMatchObject({ code: '409', message: `设备 ${code} 未处于休眠状态` });
    expect((await pageCall(server, 'device.sleep.page', tadmin, { keyword: code })).data.total).toBe(0);
  });
});

describe('device.error.page / detail / export / handle / toRepair', () => {
  interface ErrorRecord {
    id: number;
    code: string;
    deviceCode: string;
    errorType: string;
    state: string;
    occurredTime: string;
    organizationCode: string;
    handledBy: string;
    handleRemark: string;
    repairOrderCode: string;
  }

  async function pendingError(): Promise<number> {
    const [id] = await column<number>(server, "SELECT e.id AS value FROM device_error e JOIN device d ON d.code = e.device_code WHERE e.tenant_code = 'T0001' AND e.state = 'pending' AND d.deleted_at IS NULL ORDER BY e.id DESC LIMIT 1");
    return id;
  }

  it('lists the scope\'s errors newest first, filtered by type, state, organisation and time', async () => {
    const all = await pageCall<ErrorRecord>(server, 'device.error.page', tadmin);
    const [count] = await column<number>(server, "SELECT count(*)::int AS value FROM device_error e JOIN device d ON d.code = e.device_code WHERE e.tenant_code = 'T0001' AND d.deleted_at IS NULL");
    expect(all.data.total).toBe(count);
    expect(count).toBeGreaterThan(1000);
    const times = all.data.records.map((r) => r.occurredTime);
    expect(times).toEqual([...times].sort().reverse());
    const pending = await pageCall<ErrorRecord>(server, 'device.error.page', tadmin, { state: 'pending', errorType: 'signal_weak', organizationCode: 'T0001P01' }, { pageSize: 200 });
    expect(pending.data.total).toBeGreaterThan(0);
    expect(pending.data.records.every((r) => r.state === 'pending' && r.errorType === 'signal_weak' && r.organizationCode.startsWith('T0001P01'))).toBe(true);
    const lastDay = [new Date(Date.now() - 86_400_000).toISOString(), new Date().toISOString()];
    const recent = await pageCall<ErrorRecord>(server, 'device.error.page', tadmin, { timeRange: lastDay }, { pageSize: 200 });
    expect(recent.data.records.every((r) => r.occurredTime >= lastDay[0])).toBe(true);
    expect((await pageCall<ErrorRecord>(server, 'device.error.page', badmin, { keyword: all.data.records[0].code })).data.total).toBe(0);
    expect((await pageCall(server, 'device.error.page', tadmin, { state: 'closed' })).code).toBe('400');
  });

  it('details an error with how often its device failed', async () => {
    const id = await pendingError();
    const reply = await server.call<ErrorRecord & { deviceErrorCount: number; previousOccurredTime: string | null }>('device.error.detail', { id }, { token: tadmin });
    expect(reply.data).toMatchObject({ id, state: 'pending' });
    const [count] = await column<number>(server, 'SELECT count(*)::int AS value FROM device_error WHERE device_code = $1', [reply.data!.deviceCode]);
    expect(reply.data!.deviceErrorCount).toBe(count);
    const [previous] = await column<Date | null>(server, 'SELECT max(occurred_at) AS value FROM device_error WHERE device_code = $1 AND occurred_at < $2', [reply.data!.deviceCode, reply.data!.occurredTime]);
    expect(reply.data!.previousOccurredTime).toBe(previous ? previous.toISOString() : null);
    expect((await server.call('device.error.detail', { id }, { token: badmin })).code).toBe('404');
    expect((await server.call('device.error.detail', { id: '1' }, { token: tadmin })).code).toBe('400');
  });

  it('exports the filtered errors', async () => {
    const { fileName, rows } = await exportSheet(server, 'device.error.export', tadmin, { state: 'repairing' });
    expect(fileName).toMatch(/^异常设备-\d{8}\.xlsx$/);
    const [count] = await column<number>(server, "SELECT count(*)::int AS value FROM device_error e JOIN device d ON d.code = e.device_code WHERE e.tenant_code = 'T0001' AND d.deleted_at IS NULL AND e.state = 'repairing'");
    expect(rows.length).toBe(count + 1);
    expect(rows.slice(1).every((row) => row[8] === '已转维修' && /^RO\d{13}$/.test(String(row[12])))).toBe(true);
    expect((await exportSheet(server, 'device.error.export', badmin, { keyword: 'WMNB01' })).rows).toHaveLength(1);
    expect((await server.call('device.error.export', { errorType: 'meteor' }, { token: tadmin })).code).toBe('400');
  });

  it('handles a pending error with a remark (required), once', async () => {
    const id = await pendingError();
    expect((await server.call('device.error.handle', { id, remark: '已处理' }, { token: badmin })).code).toBe('404');
    expect((await server.call('device.error.handle', { id, remark: '已处理' }, { token: tuser })).code).toBe('403');
    expect((await server.call('device.error.handle', { id }, { token: tadmin })).message).toBe('参数错误：remark（不能为空）');
    expect((await server.call('device.error.handle', { id, remark: '   ' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.error.handle', { id, remark: '<script>' }, { token: tadmin })).code).toBe('400');
    // The repair staff hold the button too.
    const reply = await server.call('device.error.handle', { id, remark: '现场更换电池后恢复上报' }, { token: repair });
    expect(reply).toMatchObject({ code: '200', data: { id, state: 'handled' } });
    const detail = await server.call<ErrorRecord>('device.error.detail', { id }, { token: tadmin });
    expect(detail.data).toMatchObject({ state: 'handled', handledBy: 'repair', handleRemark: '现场更换电池后恢复上报' });
    expect(await server.call('device.error.handle', { id, remark: '再处理' }, { token: tadmin })).toMatchObject({ code: '409', message: '该异常已处理' });
  });

  it('sends a pending error to repair with a generated repair order code', async () => {
    const id = await pendingError();
    expect((await server.call('device.error.toRepair', { id }, { token: badmin })).code).toBe('404');
    expect((await server.call('device.error.toRepair', { id }, { token: tuser })).code).toBe('403');
    expect((await server.call('device.error.toRepair', { id: 0 }, { token: tadmin })).code).toBe('400');
    const first = await server.call<{ repairOrderCode: string }>('device.error.toRepair', { id, remark: '需现场更换传感器' }, { token: tadmin });
    const today = businessDayStamp(new Date(), DEFAULT_TIME_ZONE);
    expect(first.data!.repairOrderCode).toMatch(new RegExp(`^RO${today}\\d{5}$`));
    const detail = await server.call<ErrorRecord>('device.error.detail', { id }, { token: tadmin });
    expect(detail.data).toMatchObject({ state: 'repairing', repairOrderCode: first.data!.repairOrderCode, handledBy: 'tadmin' });
    expect((await server.call('device.error.toRepair', { id }, { token: tadmin })).code).toBe('409');
    expect((await server.call('device.error.handle', { id, remark: '已修好' }, { token: tadmin })).code).toBe('409');
    // The next one of the day gets the next number.
    const second = await server.call<{ repairOrderCode: string }>('device.error.toRepair', { id: await pendingError() }, { token: tadmin });
    expect(Number(second.data!.repairOrderCode.slice(-5))).toBe(Number(first.data!.repairOrderCode.slice(-5)) + 1);
  });
});
