// The fleet (设备管理 → 全部设备 / 设备列表 / 设备详情): the device list with its filters and sorts, the
// state summary, the spreadsheet export, a device's detail, creating and editing devices, deleting
// them to the recycle bin one by one or in a batch, and moving them to another project. Every
// operation stays within the caller's scope: a T0002 admin never reads or changes a T0001 device.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceRecord } from '../../server/operations/devices/fleetRecords';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';

interface Page<T> {
  records: T[];
  total: number;
  pageNumber: number;
  pageSize: number;
}

type Sort = { field: string; order: 'asc' | 'desc' };

let server: TestServer;
let admin: string;
let tadmin: string;
let tuser: string;
let badmin: string;

beforeAll(async () => {
  server = await startServer();
  [admin, tadmin, tuser, badmin] = await Promise.all([server.login('admin', ADMIN_PASSWORD), server.login('tadmin'), server.login('tuser'), server.login('badmin')]);
});
afterAll(() => server.close());

async function page<T = DeviceRecord>(name: string, token: string, param: unknown = {}, sortParamList: Sort[] = [], pageSize = 20, pageNumber = 1) {
  const { status, body } = await server.post(catalogue[name].path, { pageParam: { pageNumber, pageSize }, param, sortParamList }, { token });
  expect(status).toBe(200);
  return body as { code: string; message: string; data: Page<T> };
}

async function download(name: string, token: string, param: unknown = {}) {
  return server.app.inject({ method: 'POST', url: `/api${catalogue[name].path}`, headers: { 'content-type': 'application/json', token }, payload: { param } });
}

async function sheetRows(body: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ExcelJS.Buffer);
  const rows: string[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((value) => (value instanceof Date ? value.toISOString() : String(value ?? '')))));
  return rows;
}

/** Live devices of a tenant straight from the database (what the seed made). */
async function liveDevices(tenant: string, extra = 'TRUE', limit = 5): Promise<Array<{ id: number; code: string; organization_code: string }>> {
  return server.db.query(
    `SELECT d.id, d.code, d.organization_code FROM device d JOIN product p ON p.code = d.product_code
      WHERE d.tenant_code = $1 AND d.deleted_at IS NULL AND ${extra} ORDER BY d.id LIMIT ${limit}`,
    [tenant],
  );
}

const newDevice = (overrides: Record<string, unknown> = {}) => ({
  code: 'WMNB01888001',
  name: '智能水表-灵隐路18号',
  productCode: 'PRD-WM-NB',
  organizationCode: 'T0001P01A0101',
  imei: '868120300000017',
  longitude: 120.1234,
  latitude: 30.2468,
  address: '浙江省杭州市西湖区灵隐路18号',
  remark: '新装表',
  ...overrides,
});

describe('device.page', () => {
  it('lists the live devices of the selected organisation and below, newest first, with product and organisation', async () => {
    const reply = await page('device.page', tadmin);
    expect(reply.code).toBe('200');
    const [{ count }] = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL");
    expect(reply.data.total).toBe(count);
    expect(count).toBeGreaterThan(6000);
    const records = reply.data.records;
    expect(records).toHaveLength(20);
    expect(records.map((r) => r.createTime)).toEqual([...records.map((r) => r.createTime)].sort().reverse());
    expect(records[0]).toMatchObject({ code: expect.stringMatching(/^[A-Z0-9]{12}$/), productName: expect.any(String), organizationName: expect.any(String) });
    expect(records.every((r) => r.organizationCode.startsWith('T0001'))).toBe(true);
    // The recycle bin is not part of the list.
    const [deleted] = await server.db.query<{ code: string }>("SELECT code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NOT NULL LIMIT 1");
    expect((await page('device.page', tadmin, { keyword: deleted.code })).data.total).toBe(0);
  });

  it('narrows to a project when one is selected in the organisation switcher or in the filter', async () => {
    const switched = await server.post(catalogue['device.page'].path, { pageParam: { pageNumber: 1, pageSize: 100 }, param: {} }, { token: tadmin, orgCode: 'T0001P02' });
    const data = (switched.body.data as Page<DeviceRecord>);
    expect(data.total).toBeGreaterThan(0);
    expect(data.records.every((r) => r.organizationCode.startsWith('T0001P02'))).toBe(true);
    const filtered = await page('device.page', tadmin, { organizationCode: 'T0001P02' }, [], 100);
    expect(filtered.data.total).toBe(data.total);
    // tuser works in 西湖智慧水务项目 only.
    const ordinary = await page('device.page', tuser, {}, [], 200);
    expect(ordinary.data.records.every((r) => r.organizationCode.startsWith('T0001P01'))).toBe(true);
  });

  it('filters by keyword, product, online and health state and creation time, and sorts on whitelisted fields', async () => {
    const [device] = await liveDevices('T0001');
    expect((await page('device.page', tadmin, { keyword: device.code.toLowerCase() })).data.records.map((r) => r.code)).toEqual([device.code]);
    const offline = await page('device.page', tadmin, { onlineState: 'offline', productCode: 'PRD-PG-NB', healthState: 'faulty' }, [], 100);
    expect(offline.data.total).toBeGreaterThan(0);
    expect(offline.data.records.every((r) => r.onlineState === 'offline' && r.productCode === 'PRD-PG-NB' && r.healthState === 'faulty')).toBe(true);
    const sorted = await page('device.page', tadmin, { onlineState: 'online' }, [{ field: 'batteryLevel', order: 'asc' }], 50);
    const levels = sorted.data.records.map((r) => r.batteryLevel).filter((level): level is number => level !== null);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    expect(levels[0]).toBeLessThan(20);
    const recent = await page('device.page', tadmin, { timeRange: ['2000-01-01 00:00:00', '2000-12-31 23:59:59'] });
    expect(recent.data.total).toBe(0);
    // By the organisation's name (joined for the page's rows only when the order needs it), both ways.
    for (const order of ['asc', 'desc'] as const) {
      const byOrganization = await page('device.page', tadmin, {}, [{ field: 'organizationName', order }], 100);
      const names = byOrganization.data.records.map((r) => r.organizationName);
      const expected = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(names).toEqual(order === 'asc' ? expected : expected.reverse());
    }
    // An unknown sort field is ignored, not interpolated (nor one of Object's own names).
    expect((await page('device.page', tadmin, {}, [{ field: 'name_desc_drop', order: 'asc' }])).code).toBe('200');
    expect((await page('device.page', tadmin, {}, [{ field: 'constructor', order: 'asc' }])).code).toBe('200');
  });

  it('refuses bad filters ("400") and shows another tenant none of T0001', async () => {
    expect((await page('device.page', tadmin, { onlineState: 'sleeping' })).code).toBe('400');
    expect((await page('device.page', tadmin, { keyword: 'x'.repeat(65) })).code).toBe('400');
    expect((await page('device.page', tadmin, { timeRange: ['2026-11-30 00:00:00', '2026-11-01 00:00:00'] })).code).toBe('400');
    expect((await page('device.page', tadmin, { extra: 1 })).code).toBe('400');
    const [device] = await liveDevices('T0001');
    const other = await page('device.page', badmin, { keyword: device.code });
    expect(other.data.total).toBe(0);
    expect((await page('device.page', badmin, { organizationCode: 'T0001P01' })).data.total).toBe(0);
    // Platform staff at the platform root see both tenants.
    const platform = await page('device.page', admin, { keyword: device.code });
    expect(platform.data.total).toBe(1);
  });
});

describe('device.statistics', () => {
  it('counts the scope by online state, health, battery, sleep and the caller’s follows', async () => {
    const reply = await server.call<Record<string, number>>('device.statistics', {}, { token: tadmin });
    expect(reply.code).toBe('200');
    const stats = reply.data!;
    const [expected] = await server.db.query<Record<string, number>>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE online_state = 'online')::int AS online,
              count(*) FILTER (WHERE battery_level > 0 AND battery_level < 20)::int AS low, count(*) FILTER (WHERE sleeping)::int AS sleeping
         FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL`,
    );
    expect(stats).toMatchObject({ total: expected.total, online: expected.online, lowBattery: expected.low, sleeping: expected.sleeping });
    expect(stats.online + stats.offline + stats.inactive).toBe(stats.total);
    expect(stats.healthy + stats.subhealthy + stats.faulty).toBe(stats.total);
    expect(stats.followed).toBe(12);
    expect(stats.onlineRate).toBeCloseTo(stats.online / (stats.online + stats.offline), 2);
    const online = await server.call<Record<string, number>>('device.statistics', { onlineState: 'online' }, { token: tadmin });
    expect(online.data).toMatchObject({ total: stats.online, offline: 0 });
  });

  it('refuses a bad filter and keeps each tenant to its own devices', async () => {
    expect((await server.call('device.statistics', { healthState: 'ill' }, { token: tadmin })).code).toBe('400');
    const mine = (await server.call<Record<string, number>>('device.statistics', {}, { token: tadmin })).data!;
    const theirs = (await server.call<Record<string, number>>('device.statistics', {}, { token: badmin })).data!;
    const [{ count }] = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM device WHERE tenant_code = 'T0002' AND deleted_at IS NULL");
    expect(theirs.total).toBe(count);
    expect(theirs.total).not.toBe(mine.total);
    expect((await server.call<Record<string, number>>('device.statistics', { organizationCode: 'T0001' }, { token: badmin })).data!.total).toBe(0);
  });
});

describe('device.export', () => {
  it('writes the filtered list as a real spreadsheet', async () => {
    const response = await download('device.export', tadmin, { productCode: 'PRD-GW-4G' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(String(response.headers['content-disposition'])).toMatch(/filename\*=UTF-8''%E8%AE%BE%E5%A4%87%E5%88%97%E8%A1%A8-\d{8}\.xlsx/);
    const rows = await sheetRows(response.rawPayload);
    expect(rows[0].slice(0, 6)).toEqual(['设备编码', '设备名称', '产品', '型号', '组织', '在线状态']);
    const { data } = await page('device.page', tadmin, { productCode: 'PRD-GW-4G' }, [], 200);
    expect(rows.length - 1).toBe(data.total);
    expect(rows.slice(1).every((row) => row[2] === '边缘计算网关' && ['在线', '离线', '未激活'].includes(row[5]))).toBe(true);
  });

  it('refuses a bad filter, gates the button and exports nothing of another tenant', async () => {
    const bad = await download('device.export', tadmin, { onlineState: 1 });
    expect(bad.json()).toMatchObject({ code: '400' });
    const [device] = await liveDevices('T0001');
    const other = await download('device.export', badmin, { keyword: device.code });
    expect(await sheetRows(other.rawPayload)).toHaveLength(1);
  });
});

describe('device.detail', () => {
  it('shows a device with product, organisation, state, card, gateway, latest report and recent commands', async () => {
    const [sub] = await liveDevices('T0001', "d.gateway_code IS NOT NULL AND d.online_state <> 'inactive'", 1);
    const reply = await server.call<Record<string, unknown>>('device.detail', { code: sub.code }, { token: tadmin });
    expect(reply.code).toBe('200');
    expect(reply.data).toMatchObject({
      code: sub.code,
      nodeType: 'sub',
      protocol: 'modbus',
      categoryName: '水质监测',
      gatewayCode: expect.stringMatching(/^GW4G01/),
      gatewayName: expect.stringMatching(/^边缘网关-/),
      organizationCode: sub.organization_code,
    });
    const [reporting] = await server.db.query<{ code: string }>(
      `SELECT d.code FROM device d WHERE d.tenant_code = 'T0001' AND d.online_state = 'online' AND EXISTS (SELECT 1 FROM device_telemetry t WHERE t.device_id = d.id)
          AND EXISTS (SELECT 1 FROM device_command c WHERE c.device_id = d.id) LIMIT 1`,
    );
    const detail = (await server.call<{ latestReport: string; latestReportTime: string; recentCommands: Array<{ commandHex: string; commandText: string }> }>('device.detail', { code: reporting.code }, { token: tadmin })).data!;
    expect(detail.latestReport).not.toBe('');
    // An online device reported within the last hours (hourly reports, the seed's clock is the hour).
    expect(Date.parse(detail.latestReportTime)).toBeGreaterThan(Date.now() - 4 * 3_600_000);
    expect(detail.recentCommands.length).toBeGreaterThan(0);
    expect(detail.recentCommands[0].commandHex).toMatch(/^68[0-9A-F]+16$/);
  });

  it('heads the device with the tags its tenant chose to show (device.tagDisplay), in the options’ order', async () => {
    const [device] = await server.db.query<{ code: string; product_name: string; firmware_version: string; battery_level: number | null; address: string; open: number }>(
      `SELECT d.code, p.name AS product_name, d.firmware_version, d.battery_level, d.address,
              (SELECT count(*)::int FROM alarm_record a WHERE a.device_code = d.code AND a.state IN ('pending', 'processing')) AS open
         FROM device d JOIN product p ON p.code = d.product_code
        WHERE d.tenant_code = 'T0001' AND d.deleted_at IS NULL AND d.battery_level IS NOT NULL AND d.signal_strength IS NOT NULL AND d.address <> ''
          AND EXISTS (SELECT 1 FROM alarm_record a WHERE a.device_code = d.code AND a.state = 'pending') LIMIT 1`,
    );
    const tagsOf = async () => (await server.call<{ displayTags: string[] }>('device.detail', { code: device.code }, { token: tadmin })).data!.displayTags;
    // The seed's choice for T0001: product, firmware, battery, signal, temperature, last seen; open alarms counted.
    const seeded = await tagsOf();
    expect(seeded.slice(0, 3)).toEqual([`产品：${device.product_name}`, `固件版本：${device.firmware_version}`, `电量：${device.battery_level}%`]);
    expect(seeded.at(-1)).toBe(`未处理告警：${device.open}`);
    // The signal is the 0-31 quality figure, never given a unit it is not in (dBm).
    expect(seeded.find((tag) => tag.startsWith('信号强度：'))).toMatch(/^信号强度：\d{1,2}\/31$/);
    expect(seeded.join(' ')).not.toContain('dBm');
    expect((await server.call('device.tagDisplay.update', { fields: ['address', 'onlineState'], showAlarmBadge: false }, { token: tadmin })).code).toBe('200');
    const [state] = await server.db.query<{ label: string }>(
      "SELECT i.label FROM device d JOIN dict_item i ON i.type = 'device_online_state' AND i.value = d.online_state WHERE d.code = $1",
      [device.code],
    );
    expect(await tagsOf()).toEqual([`在线状态：${state.label}`, `安装地址：${device.address}`]);
  });

  it('refuses a malformed code ("400") and another tenant’s or a deleted device ("404")', async () => {
    expect((await server.call('device.detail', { code: 'ABC' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.detail', {}, { token: tadmin })).code).toBe('400');
    const [device] = await liveDevices('T0001');
    expect(await server.call('device.detail', { code: device.code }, { token: badmin })).toMatchObject({ code: '404', message: '设备不存在' });
    const [deleted] = await server.db.query<{ code: string }>("SELECT code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NOT NULL LIMIT 1");
    expect((await server.call('device.detail', { code: deleted.code }, { token: tadmin })).code).toBe('404');
  });
});

describe('device.insert and device.modify', () => {
  it('creates an inactive device in a project or area of the scope, its code upper-cased', async () => {
    const reply = await server.call<{ id: number; code: string }>('device.insert', { device: newDevice({ code: 'wmnb01888001' }) }, { token: tadmin });
    expect(reply).toMatchObject({ code: '200', data: { code: 'WMNB01888001' } });
    const detail = await server.call<DeviceRecord>('device.detail', { code: 'WMNB01888001' }, { token: tadmin });
    expect(detail.data).toMatchObject({
      name: '智能水表-灵隐路18号',
      productCode: 'PRD-WM-NB',
      organizationCode: 'T0001P01A0101',
      organizationName: '灵隐加压泵站',
      onlineState: 'inactive',
      imei: '868120300000017',
      longitude: 120.1234,
      address: '浙江省杭州市西湖区灵隐路18号',
    });
    const [row] = await server.db.query<{ tenant_code: string }>("SELECT tenant_code FROM device WHERE code = 'WMNB01888001'");
    expect(row.tenant_code).toBe('T0001');
    // The same code again, in any case: "409".
    expect(await server.call('device.insert', { device: newDevice({ code: 'WMNB01888001' }) }, { token: tadmin })).toMatchObject({ code: '409', message: '设备编码已存在' });
  });

  it('refuses invalid input with "400": code format, markup, bad IMEI or coordinates, unknown product, a department', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ code: 'WMNB0188800' }, 'device.code'],
      [{ code: 'WMNB-1888002' }, 'device.code'],
      [{ code: 'WMNB01888002', name: '<b>表</b>' }, 'device.name'],
      [{ code: 'WMNB01888002', name: '   ' }, 'device.name'],
      [{ code: 'WMNB01888002', imei: '86812030000001' }, 'device.imei'],
      [{ code: 'WMNB01888002', longitude: 181 }, 'device.longitude'],
      [{ code: 'WMNB01888002', address: '<script>' }, 'device.address'],
    ];
    for (const [overrides, field] of cases) {
      const reply = await server.call('device.insert', { device: newDevice(overrides) }, { token: tadmin });
      expect(reply.code, field).toBe('400');
      expect(reply.message, field).toContain(field);
    }
    expect(await server.call('device.insert', { device: newDevice({ code: 'WMNB01888002', productCode: 'PRD-NOPE' }) }, { token: tadmin })).toMatchObject({ code: '400', message: '产品不存在' });
    expect(await server.call('device.insert', { device: newDevice({ code: 'WMNB01888002', organizationCode: 'T0001D01' }) }, { token: tadmin })).toMatchObject({
      code: '400',
      message: '设备只能安装在项目或区域下',
    });
    expect((await server.call('device.insert', { device: { ...newDevice({ code: 'WMNB01888002' }), tenantCode: 'T0002' } }, { token: tadmin })).code).toBe('400');
  });

  it('refuses another tenant’s organisation and a role without the button', async () => {
    expect(await server.call('device.insert', { device: newDevice({ code: 'WMNB01888003', organizationCode: 'T0001P01' }) }, { token: badmin })).toMatchObject({
      code: '403',
      message: '无权访问该组织',
    });
    expect((await server.call('device.insert', { device: newDevice({ code: 'WMNB01888003' }) }, { token: tuser })).code).toBe('403');
    expect((await server.db.query("SELECT 1 FROM device WHERE code = 'WMNB01888003'")).length).toBe(0);
  });

  it('edits a device, keeps its code, and moves it only within its tenant', async () => {
    await server.call('device.insert', { device: newDevice({ code: 'PGNB01888010', productCode: 'PRD-PG-NB', name: '压力计-新' }) }, { token: tadmin });
    const edit = newDevice({ code: 'PGNB01888010', productCode: 'PRD-PG-NB', name: '压力计-龙井路', organizationCode: 'T0001P02A01', imei: '', longitude: null, latitude: null, remark: '' });
    expect((await server.call('device.modify', { code: 'PGNB01888010', device: edit }, { token: tadmin })).code).toBe('200');
    const detail = await server.call<DeviceRecord>('device.detail', { code: 'PGNB01888010' }, { token: tadmin });
    expect(detail.data).toMatchObject({ name: '压力计-龙井路', organizationCode: 'T0001P02A01', organizationName: '下沙园区', imei: '', longitude: null });
    expect(await server.call('device.modify', { code: 'PGNB01888010', device: { ...edit, code: 'PGNB01888011' } }, { token: tadmin })).toMatchObject({ code: '400', message: '设备编码不可修改' });
    expect((await server.call('device.modify', { code: 'PGNB01888010', device: { ...edit, name: '' } }, { token: tadmin })).code).toBe('400');
    // Platform staff may not move it to another tenant's project either.
    expect(await server.call('device.modify', { code: 'PGNB01888010', device: { ...edit, organizationCode: 'T0002P01' } }, { token: admin })).toMatchObject({ code: '400', message: '不能将设备移到其他租户' });
  });

  it('answers "404" to another tenant modifying a T0001 device', async () => {
    const [device] = await liveDevices('T0001');
    const reply = await server.call('device.modify', { code: device.code, device: newDevice({ code: device.code, organizationCode: 'T0002P01' }) }, { token: badmin });
    expect(reply).toMatchObject({ code: '404', message: '设备不存在' });
  });
});

describe('device.delete and device.batchDelete', () => {
  it('moves a device to the recycle bin, marked deleted by whom', async () => {
    const [device] = await liveDevices('T0001', "p.node_type = 'direct'");
    const reply = await server.call('device.delete', { code: device.code }, { token: tadmin });
    expect(reply).toMatchObject({ code: '200', data: { deleted: 1 } });
    const [row] = await server.db.query<{ deleted_by: string; recycle_reason: string; deleted_at: Date | null }>('SELECT deleted_by, recycle_reason, deleted_at FROM device WHERE id = $1', [device.id]);
    expect(row).toMatchObject({ deleted_by: 'tadmin', recycle_reason: 'deleted' });
    expect(row.deleted_at).not.toBeNull();
    expect((await server.call('device.detail', { code: device.code }, { token: tadmin })).code).toBe('404');
    // Deleting it again: it is no longer among the live devices.
    expect((await server.call('device.delete', { code: device.code }, { token: tadmin })).code).toBe('404');
  });

  it('refuses to orphan a gateway’s sub-devices', async () => {
    const [gateway] = await server.db.query<{ code: string }>(
      "SELECT g.code FROM device g WHERE g.tenant_code = 'T0001' AND g.deleted_at IS NULL AND EXISTS (SELECT 1 FROM device s WHERE s.gateway_code = g.code AND s.deleted_at IS NULL) LIMIT 1",
    );
    const reply = await server.call('device.delete', { code: gateway.code }, { token: tadmin });
    expect(reply.code).toBe('409');
    expect(reply.message).toContain(gateway.code);
  });

  it('deletes a selection in one go, all or nothing', async () => {
    const devices = await liveDevices('T0001', "p.node_type = 'direct'", 4);
    const codes = devices.slice(1).map((d) => d.code);
    const [theirs] = await liveDevices('T0002', "p.node_type = 'direct'", 1);
    expect((await server.call('device.batchDelete', { codes: [...codes, theirs.code] }, { token: tadmin })).code).toBe('404');
    expect((await server.db.query('SELECT 1 FROM device WHERE code = ANY($1::text[]) AND deleted_at IS NOT NULL', [codes])).length).toBe(0);
    expect(await server.call('device.batchDelete', { codes }, { token: tadmin })).toMatchObject({ code: '200', data: { deleted: 3 } });
    expect((await server.db.query('SELECT 1 FROM device WHERE code = ANY($1::text[]) AND deleted_by = $2', [codes, 'tadmin'])).length).toBe(3);
  });

  it('refuses bad input, other tenants and roles without the button', async () => {
    expect((await server.call('device.delete', { code: '12' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.batchDelete', { codes: [] }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.batchDelete', { codes: ['WMNB01000001', 'WMNB01000001'] }, { token: tadmin })).code).toBe('400');
    const [device] = await liveDevices('T0001', "p.node_type = 'direct'", 1);
    expect((await server.call('device.delete', { code: device.code }, { token: badmin })).code).toBe('404');
    expect((await server.call('device.batchDelete', { codes: [device.code] }, { token: badmin })).code).toBe('404');
    expect((await server.call('device.delete', { code: device.code }, { token: tuser })).code).toBe('403');
    expect((await server.call('device.batchDelete', { codes: [device.code] }, { token: tuser })).code).toBe('403');
    expect((await server.db.query('SELECT 1 FROM device WHERE id = $1 AND deleted_at IS NULL', [device.id])).length).toBe(1);
  });
});

describe('device.transfer', () => {
  it('moves devices to another project or area of the same tenant', async () => {
    const devices = await liveDevices('T0001', "d.organization_code LIKE 'T0001P01%'", 3);
    const codes = devices.map((d) => d.code);
    expect(await server.call('device.transfer', { codes, organizationCode: 'T0001P02A02' }, { token: tadmin })).toMatchObject({ code: '200', data: { transferred: 3 } });
    const moved = await server.db.query<{ organization_code: string }>('SELECT organization_code FROM device WHERE code = ANY($1::text[])', [codes]);
    expect(moved.map((m) => m.organization_code)).toEqual(['T0001P02A02', 'T0001P02A02', 'T0001P02A02']);
  });

  it('refuses a department, an organisation or device of another tenant, bad input and roles without the button', async () => {
    const [device] = await liveDevices('T0001', 'TRUE', 1);
    expect(await server.call('device.transfer', { codes: [device.code], organizationCode: 'T0001D0101' }, { token: tadmin })).toMatchObject({ code: '400', message: '设备只能安装在项目或区域下' });
    expect((await server.call('device.transfer', { codes: [device.code], organizationCode: 'T0002P01' }, { token: tadmin })).code).toBe('403');
    expect((await server.call('device.transfer', { codes: [device.code], organizationCode: 'T0002P01' }, { token: badmin })).code).toBe('404');
    expect(await server.call('device.transfer', { codes: [device.code], organizationCode: 'T0002P01' }, { token: admin })).toMatchObject({ code: '400', message: '不能将设备移到其他租户' });
    expect((await server.call('device.transfer', { codes: [device.code] }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.transfer', { codes: ['bad'], organizationCode: 'T0001P02' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.transfer', { codes: [device.code], organizationCode: 'T0001P02' }, { token: tuser })).code).toBe('403');
    const [row] = await server.db.query<{ organization_code: string }>('SELECT organization_code FROM device WHERE id = $1', [device.id]);
    expect(row.organization_code).toBe(device.organization_code);
  });
});
