// The fleet's other views: 关注设备 (follow and unfollow), 电池管理 (battery states and ranges),
// 设备物联网卡 (bind and unbind ICCIDs), a device's telemetry history and command generation
// (设备详情), and 批量导入 (the template, an upload checked row by row, the import records).
// Each answers "400" to invalid input and "404" to another tenant's device.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceRecord } from '../../server/operations/devices/fleetRecords';
import { catalogue, startServer, type TestServer } from './harness';
import { PNG, upload } from './frame-helpers';

interface Page<T> {
  records: T[];
  total: number;
  pageNumber: number;
  pageSize: number;
}

type Sort = { field: string; order: 'asc' | 'desc' };

let server: TestServer;
let fileDir: string;
let tadmin: string;
let tuser: string;
let badmin: string;

beforeAll(async () => {
  fileDir = mkdtempSync(join(tmpdir(), 'devices-fleet-'));
  server = await startServer({ config: { fileDir } });
  [tadmin, tuser, badmin] = await Promise.all([server.login('tadmin'), server.login('tuser'), server.login('badmin')]);
});
afterAll(async () => {
  await server.close();
  rmSync(fileDir, { recursive: true, force: true });
});

async function page<T = DeviceRecord>(name: string, token: string, param: unknown = {}, sortParamList: Sort[] = [], pageSize = 20) {
  const { status, body } = await server.post(catalogue[name].path, { pageParam: { pageNumber: 1, pageSize }, param, sortParamList }, { token });
  expect(status).toBe(200);
  return body as { code: string; message: string; data: Page<T> };
}

async function download(name: string, token: string, param: unknown = {}) {
  return server.app.inject({ method: 'POST', url: `/api${catalogue[name].path}`, headers: { 'content-type': 'application/json', token }, payload: { param } });
}

async function workbookOf(body: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ExcelJS.Buffer);
  return workbook;
}

const rowsOf = (sheet: ExcelJS.Worksheet): string[][] => {
  const rows: string[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((value) => String(value ?? ''))));
  return rows;
};

async function liveDevice(tenant: string, extra = 'TRUE'): Promise<{ id: number; code: string }> {
  const [row] = await server.db.query<{ id: number; code: string }>(
    `SELECT d.id, d.code FROM device d JOIN product p ON p.code = d.product_code WHERE d.tenant_code = $1 AND d.deleted_at IS NULL AND ${extra} ORDER BY d.id LIMIT 1`,
    [tenant],
  );
  return row;
}

/** A card of `tenant` in service that no device carries (the `skip`-th such). */
async function freeCard(tenant: string, skip = 0): Promise<string> {
  const [row] = await server.db.query<{ iccid: string }>(
    `SELECT s.iccid FROM sim_card s WHERE s.tenant_code = $1 AND s.state IN ('testing', 'active', 'suspended') AND s.device_code IS NULL
        AND NOT EXISTS (SELECT 1 FROM device d WHERE d.iccid = s.iccid) ORDER BY s.id OFFSET $2 LIMIT 1`,
    [tenant, skip],
  );
  return row.iccid;
}

const cardHolder = async (iccid: string): Promise<string | null> =>
  (await server.db.query<{ device_code: string | null }>('SELECT device_code FROM sim_card WHERE iccid = $1', [iccid]))[0].device_code;

describe('device.care.page, device.care.add and device.care.remove', () => {
  it('lists the caller’s followed devices, newest follow first, and follows and unfollows a device', async () => {
    const before = await page('device.care.page', tadmin);
    expect(before.data.total).toBe(12);
    expect(before.data.records.every((r) => r.followed && r.followTime !== null)).toBe(true);
    const device = await liveDevice('T0001', 'NOT EXISTS (SELECT 1 FROM device_care c WHERE c.device_id = d.id)');
    expect(await server.call('device.care.add', { code: device.code }, { token: tadmin })).toMatchObject({ code: '200', data: { followed: true } });
    // Following twice changes nothing.
    expect((await server.call('device.care.add', { code: device.code }, { token: tadmin })).code).toBe('200');
    const after = await page('device.care.page', tadmin);
    expect(after.data.total).toBe(13);
    expect(after.data.records[0].code).toBe(device.code);
    // The main list marks it too.
    expect((await page('device.page', tadmin, { keyword: device.code })).data.records[0].followed).toBe(true);
    // Another user's follows are their own.
    expect((await page('device.care.page', tuser)).data.records.some((r) => r.code === device.code)).toBe(false);
    expect(await server.call('device.care.remove', { code: device.code }, { token: tadmin })).toMatchObject({ code: '200', data: { followed: false } });
    expect((await page('device.care.page', tadmin)).data.total).toBe(12);
  });

  it('filters the followed devices and refuses bad input with "400"', async () => {
    const online = await page('device.care.page', tadmin, { onlineState: 'online' });
    expect(online.data.records.every((r) => r.onlineState === 'online')).toBe(true);
    expect((await page('device.care.page', tadmin, { onlineState: 'asleep' })).code).toBe('400');
    expect((await server.call('device.care.add', { code: 'short' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.care.remove', {}, { token: tadmin })).code).toBe('400');
  });

  it('answers "404" to following or unfollowing another tenant’s device', async () => {
    const device = await liveDevice('T0001');
    expect(await server.call('device.care.add', { code: device.code }, { token: badmin })).toMatchObject({ code: '404', message: '设备不存在' });
    expect((await server.call('device.care.remove', { code: device.code }, { token: badmin })).code).toBe('404');
    expect((await page('device.care.page', badmin)).data.records.some((r) => r.code === device.code)).toBe(false);
  });
});

type BatteryRecord = DeviceRecord & { estimatedLife: number };

describe('device.battery.page and device.battery.export', () => {
  it('lists battery-powered devices, emptiest first, with their state and an estimated remaining life', async () => {
    const reply = await page<BatteryRecord>('device.battery.page', tadmin, {}, [], 50);
    expect(reply.code).toBe('200');
    const records = reply.data.records;
    expect(records.every((r) => r.batteryPowered && r.batteryLevel !== null)).toBe(true);
    expect(records.map((r) => r.batteryLevel)).toEqual([...records.map((r) => r.batteryLevel)].sort((a, b) => Number(a) - Number(b)));
    expect(records[0].batteryState).toBe('exhausted');
    for (const r of records) expect(r.batteryState).toBe(r.batteryLevel === 0 ? 'exhausted' : Number(r.batteryLevel) < 20 ? 'low' : 'normal');
    const full = records.find((r) => Number(r.batteryLevel) > 0);
    expect(full!.estimatedLife).toBe(Math.round((Number(full!.batteryLevel) / 100) * 5 * 365 * 86_400));
    // Mains-powered products are not here.
    expect((await page('device.battery.page', tadmin, { productCode: 'PRD-FM-4G' })).data.total).toBe(0);
  });

  it('filters by battery state and range', async () => {
    const low = await page('device.battery.page', tadmin, { batteryState: 'low' }, [], 200);
    expect(low.data.total).toBeGreaterThan(0);
    expect(low.data.records.every((r) => Number(r.batteryLevel) > 0 && Number(r.batteryLevel) < 20)).toBe(true);
    const normal = await page('device.battery.page', tadmin, { batteryState: 'normal', batteryMin: 40, batteryMax: 45 }, [{ field: 'batteryRatio', order: 'desc' }], 200);
    expect(normal.data.records.every((r) => Number(r.batteryLevel) >= 40 && Number(r.batteryLevel) <= 45)).toBe(true);
    expect(normal.data.records[0].batteryLevel).toBe(45);
    const exhausted = await page('device.battery.page', tadmin, { batteryState: 'exhausted' }, [], 200);
    expect(exhausted.data.records.every((r) => r.batteryLevel === 0)).toBe(true);
  });

  it('refuses bad ranges and states with "400" and keeps each tenant to its own', async () => {
    expect(await page('device.battery.page', tadmin, { batteryMin: 60, batteryMax: 20 })).toMatchObject({ code: '400', message: '电量下限不能大于上限' });
    expect((await page('device.battery.page', tadmin, { batteryMin: 101 })).code).toBe('400');
    expect((await page('device.battery.page', tadmin, { batteryState: 'empty' })).code).toBe('400');
    const device = await liveDevice('T0001', 'd.battery_level IS NOT NULL');
    expect((await page('device.battery.page', badmin, { keyword: device.code })).data.total).toBe(0);
  });

  it('exports the filtered batteries as a spreadsheet', async () => {
    const response = await download('device.battery.export', tadmin, { batteryState: 'low' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const rows = rowsOf((await workbookOf(response.rawPayload)).worksheets[0]);
    expect(rows[0]).toEqual(['设备编码', '设备名称', '产品', '组织', '电量(%)', '电池状态', '预计剩余(天)', '在线状态', '最后上报时间']);
    const { data } = await page('device.battery.page', tadmin, { batteryState: 'low' }, [], 1000);
    expect(rows.length - 1).toBe(data.total);
    expect(rows.slice(1).every((row) => row[5] === '电量低')).toBe(true);
    expect((await download('device.battery.export', tadmin, { batteryMax: 'x' })).json()).toMatchObject({ code: '400' });
  });
});

describe('device.card.page, device.card.bind, device.card.unbind and device.card.export', () => {
  it('lists devices that carry a card (no sub-devices), with binding and operator', async () => {
    const bound = await page('device.card.page', tadmin, { cardBinding: 'bound' }, [], 100);
    expect(bound.data.total).toBeGreaterThan(0);
    expect(bound.data.records.every((r) => /^89\d{17,18}$/.test(r.iccid) && r.cardBinding === 'bound' && r.cardOperator === 'cmcc')).toBe(true);
    const all = await page('device.card.page', tadmin, {}, [], 1000);
    expect(all.data.records.every((r) => r.nodeType !== 'sub')).toBe(true);
    const unbound = await page('device.card.page', tadmin, { cardBinding: 'unbound' });
    expect(unbound.data.total + bound.data.total).toBe(all.data.total);
    const prefix = bound.data.records[0].iccid.slice(0, 14);
    expect((await page('device.card.page', tadmin, { iccid: prefix }, [], 100)).data.records.every((r) => r.iccid.includes(prefix))).toBe(true);
  });

  it('binds one of the tenant’s own free cards to a device without one and unbinds it, on both sides', async () => {
    const device = await liveDevice('T0001', "d.iccid IS NULL AND p.node_type <> 'sub'");
    const iccid = await freeCard('T0001');
    const operator = (await server.db.query<{ operator: string }>('SELECT operator FROM sim_card WHERE iccid = $1', [iccid]))[0].operator;
    expect(await server.call('device.card.bind', { code: device.code, iccid }, { token: tadmin })).toMatchObject({ code: '200', data: { iccid, cardOperator: operator } });
    const [row] = await server.db.query<{ iccid: string }>('SELECT iccid FROM device WHERE id = $1', [device.id]);
    expect(row.iccid).toBe(iccid);
    expect(await cardHolder(iccid)).toBe(device.code);
    expect(await server.call('device.card.bind', { code: device.code, iccid: await freeCard('T0001', 1) }, { token: tadmin })).toMatchObject({ code: '409', message: '设备已绑定物联网卡，请先解绑' });
    const other = await liveDevice('T0001', "d.iccid IS NULL AND p.node_type <> 'sub'");
    expect(await server.call('device.card.bind', { code: other.code, iccid }, { token: tadmin })).toMatchObject({ code: '409', message: '该物联网卡已绑定其他设备' });
    expect(await server.call('device.card.unbind', { code: device.code }, { token: tadmin })).toMatchObject({ code: '200', data: { iccid } });
    expect(await cardHolder(iccid)).toBeNull();
    expect(await server.call('device.card.unbind', { code: device.code }, { token: tadmin })).toMatchObject({ code: '400', message: '设备未绑定物联网卡' });
  });

  it('binds no card of another tenant, of the platform’s stock or that exists nowhere, and answers all three alike (issue 18)', async () => {
    const device = await liveDevice('T0001', "d.iccid IS NULL AND p.node_type <> 'sub'");
    const theirsFree = await freeCard('T0002');
    const [theirsBound] = await server.db.query<{ iccid: string; code: string }>(
      "SELECT iccid, code FROM device WHERE tenant_code = 'T0002' AND iccid IS NOT NULL AND deleted_at IS NULL ORDER BY id LIMIT 1",
    );
    const [stock] = await server.db.query<{ iccid: string }>("SELECT iccid FROM sim_card WHERE state = 'in_stock' AND delivery_code IS NULL ORDER BY id LIMIT 1");
    const nowhere = '89860321123456789012';
    expect(await server.db.query('SELECT 1 FROM sim_card WHERE iccid = $1', [nowhere])).toEqual([]);
    const answers = [];
    for (const iccid of [theirsFree, theirsBound.iccid, stock.iccid, nowhere]) {
      const answer = await server.call('device.card.bind', { code: device.code, iccid }, { token: tadmin });
      answers.push({ code: answer.code, message: answer.message });
    }
    expect(answers).toEqual(Array.from({ length: 4 }, () => ({ code: '404', message: '物联网卡不存在' })));
    // Nothing moved: the device carries no card, 苏州智水's cards are where they were and its owner can still bind its own.
    expect((await server.db.query<{ iccid: string | null }>('SELECT iccid FROM device WHERE id = $1', [device.id]))[0].iccid).toBeNull();
    expect(await cardHolder(theirsFree)).toBeNull();
    expect(await cardHolder(theirsBound.iccid)).toBe(theirsBound.code);
    const theirDevice = await liveDevice('T0002', "d.iccid IS NULL AND p.node_type <> 'sub'");
    expect(await server.call('device.card.bind', { code: theirDevice.code, iccid: theirsFree }, { token: badmin })).toMatchObject({ code: '200' });
    expect((await server.call('device.card.unbind', { code: theirDevice.code }, { token: badmin })).code).toBe('200');
    // A card of the tenant that is closed is its own: it is told why.
    const [closed] = await server.db.query<{ iccid: string }>("SELECT iccid FROM sim_card WHERE tenant_code = 'T0001' AND state = 'deactivated' AND device_code IS NULL ORDER BY id LIMIT 1");
    expect(await server.call('device.card.bind', { code: device.code, iccid: closed.iccid }, { token: tadmin })).toMatchObject({ code: '409', message: '该物联网卡已销户，不能绑定' });
  });

  it('refuses malformed ICCIDs, sub-devices, other tenants and roles without the button', async () => {
    const device = await liveDevice('T0001', "d.iccid IS NULL AND p.node_type <> 'sub'");
    for (const iccid of ['898603211234567', '79860321123456789012', '8986032112345678901A', '898603211234567890123']) {
      expect((await server.call('device.card.bind', { code: device.code, iccid }, { token: tadmin })).code, iccid).toBe('400');
    }
    const sub = await liveDevice('T0001', "p.node_type = 'sub'");
    const own = await freeCard('T0001');
    expect((await server.call('device.card.bind', { code: sub.code, iccid: own }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.card.bind', { code: device.code, iccid: own }, { token: badmin })).code).toBe('404');
    const carded = await liveDevice('T0001', 'd.iccid IS NOT NULL');
    expect((await server.call('device.card.unbind', { code: carded.code }, { token: badmin })).code).toBe('404');
    expect((await server.call('device.card.unbind', { code: carded.code }, { token: tuser })).code).toBe('403');
    expect((await server.call('device.card.bind', { code: device.code, iccid: own }, { token: tuser })).code).toBe('403');
    expect((await page('device.card.page', tadmin, { cardBinding: 'maybe' })).code).toBe('400');
    expect((await page('device.card.page', badmin, { keyword: carded.code })).data.total).toBe(0);
  });

  it('exports the cards of the filtered devices', async () => {
    const response = await download('device.card.export', tadmin, { cardBinding: 'bound', productCode: 'PRD-GW-4G' });
    expect(response.statusCode).toBe(200);
    const rows = rowsOf((await workbookOf(response.rawPayload)).worksheets[0]);
    expect(rows[0].slice(0, 6)).toEqual(['设备编码', '设备名称', '产品', '组织', 'ICCID', '运营商']);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.slice(1).every((row) => /^89\d{18}$/.test(row[4]) && row[5] === '中国移动')).toBe(true);
    expect((await download('device.card.export', tadmin, { iccid: 'abc' })).json()).toMatchObject({ code: '400' });
  });
});

describe('device.data.page', () => {
  it('pages a reporting device’s hourly telemetry, newest first, within a time range', async () => {
    const [device] = await server.db.query<{ code: string; id: number }>(
      "SELECT d.code, d.id FROM device d WHERE d.tenant_code = 'T0001' AND d.product_code = 'PRD-WM-NB' AND EXISTS (SELECT 1 FROM device_telemetry t WHERE t.device_id = d.id) LIMIT 1",
    );
    const reply = await page<{ reportTime: string; summary: string; totalFlow: number; flowRate: number; batteryLevel: number }>('device.data.page', tadmin, { code: device.code }, [], 24);
    expect(reply.code).toBe('200');
    const [{ count }] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM device_telemetry WHERE device_id = $1', [device.id]);
    expect(reply.data.total).toBe(count);
    expect(count).toBeGreaterThan(24);
    const records = reply.data.records;
    expect(records.map((r) => r.reportTime)).toEqual([...records.map((r) => r.reportTime)].sort().reverse());
    expect(records[0].summary).toMatch(/^累计流量 [\d.]+ m³，瞬时流量 [\d.]+ m³\/h$/);
    // A meter's total only grows.
    expect(records[0].totalFlow).toBeGreaterThanOrEqual(records[23].totalFlow);
    const from = records[5].reportTime;
    const to = records[2].reportTime;
    const ranged = await page('device.data.page', tadmin, { code: device.code, timeRange: [from, to] }, [{ field: 'reportTime', order: 'asc' }]);
    expect(ranged.data.total).toBe(4);
  });

  it('refuses bad input ("400") and another tenant’s device ("404")', async () => {
    const device = await liveDevice('T0001');
    expect((await page('device.data.page', tadmin, {})).code).toBe('400');
    expect((await page('device.data.page', tadmin, { code: device.code, timeRange: ['2026-01-01'] })).code).toBe('400');
    expect(await page('device.data.page', badmin, { code: device.code })).toMatchObject({ code: '404', message: '设备不存在' });
  });
});

describe('deviceAccess.command.generate', () => {
  interface Command {
    id: number;
    commandType: string;
    commandText: string;
    commandHex: string;
    state: string;
  }

  it('generates a command with its text and checksummed frame, pending until it is published (issue 31), and listed on the detail', async () => {
    const device = await liveDevice('T0001', "d.online_state = 'online' AND NOT d.sleeping AND d.product_code = 'PRD-WM-NB'");
    const reply = await server.call<Command>('deviceAccess.command.generate', { code: device.code, commandType: 'report_interval', intervalMinutes: 30 }, { token: tadmin });
    expect(reply.code).toBe('200');
    const command = reply.data!;
    expect(command).toMatchObject({ commandType: 'report_interval', state: 'pending', commandText: `SET_REPORT_INTERVAL=30;SEQ=${command.id % 65536}` });
    const frame = Buffer.from(command.commandHex, 'hex');
    expect(frame[0]).toBe(0x68);
    expect(frame.subarray(1, 13).toString('ascii')).toBe(device.code);
    expect(frame[14]).toBe(0x03);
    expect(frame.readUInt16BE(18)).toBe(30);
    expect(frame[frame.length - 2]).toBe(frame.subarray(0, frame.length - 2).reduce((sum, byte) => sum + byte, 0) % 256);
    expect(frame[frame.length - 1]).toBe(0x16);
    const valve = await server.call<Command>('deviceAccess.command.generate', { code: device.code, commandType: 'valve_close' }, { token: tadmin });
    expect(valve.data!.commandText).toMatch(/^VALVE=CLOSE;SEQ=\d+$/);
    const detail = await server.call<{ recentCommands: Command[] }>('device.detail', { code: device.code }, { token: tadmin });
    expect(detail.data!.recentCommands.slice(0, 2).map((c) => c.id)).toEqual([valve.data!.id, command.id]);
  });

  it('queues the command for an offline device until it reports', async () => {
    const device = await liveDevice('T0001', "d.online_state = 'offline'");
    const reply = await server.call<Command>('deviceAccess.command.generate', { code: device.code, commandType: 'time_sync' }, { token: tadmin });
    expect(reply.data).toMatchObject({ state: 'pending', commandText: expect.stringMatching(/^TIME_SYNC=\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2};SEQ=\d+$/) });
  });

  it('refuses missing or stray parameters, unsupported commands and inactive devices', async () => {
    const meter = await liveDevice('T0001', "d.online_state = 'online' AND d.product_code = 'PRD-WM-NB'");
    const smoke = await liveDevice('T0001', "d.online_state = 'online' AND d.product_code = 'PRD-SD-NB'");
    const inactive = await liveDevice('T0001', "d.online_state = 'inactive'");
    expect((await server.call('deviceAccess.command.generate', { code: meter.code, commandType: 'report_interval' }, { token: tadmin })).message).toContain('intervalMinutes');
    expect((await server.call('deviceAccess.command.generate', { code: meter.code, commandType: 'reboot', intervalMinutes: 30 }, { token: tadmin })).code).toBe('400');
    expect((await server.call('deviceAccess.command.generate', { code: meter.code, commandType: 'report_interval', intervalMinutes: 1 }, { token: tadmin })).code).toBe('400');
    expect((await server.call('deviceAccess.command.generate', { code: meter.code, commandType: 'self_destruct' }, { token: tadmin })).code).toBe('400');
    expect(await server.call('deviceAccess.command.generate', { code: smoke.code, commandType: 'valve_open' }, { token: tadmin })).toMatchObject({ code: '400', message: '该设备不支持此指令' });
    expect((await server.call('deviceAccess.command.generate', { code: smoke.code, commandType: 'silence' }, { token: tadmin })).code).toBe('200');
    expect(await server.call('deviceAccess.command.generate', { code: inactive.code, commandType: 'reboot' }, { token: tadmin })).toMatchObject({ code: '400', message: '设备未激活，无法下发指令' });
  });

  it('answers "404" to another tenant and "403" to a role without the button', async () => {
    const device = await liveDevice('T0001', "d.online_state = 'online'");
    expect((await server.call('deviceAccess.command.generate', { code: device.code, commandType: 'reboot' }, { token: badmin })).code).toBe('404');
    expect((await server.call('deviceAccess.command.generate', { code: device.code, commandType: 'reboot' }, { token: tuser })).code).toBe('403');
    expect((await server.db.query("SELECT 1 FROM device_command WHERE device_id = $1 AND created_by IN ('badmin', 'tuser')", [device.id])).length).toBe(0);
  });
});

describe('device.importTemplate, device.batchInsert and device.import.page', () => {
  async function template(token: string): Promise<ExcelJS.Workbook> {
    const response = await download('device.importTemplate', token);
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['content-disposition'])).toContain(encodeURIComponent('设备导入模板.xlsx'));
    return workbookOf(response.rawPayload);
  }

  async function uploadWorkbook(workbook: ExcelJS.Workbook, token = tadmin, name = '设备导入.xlsx'): Promise<string> {
    const reply = await upload(server, name, Buffer.from(await workbook.xlsx.writeBuffer()), { token });
    expect(reply.code).toBe('200');
    return reply.data!.url;
  }

  it('gives a template with the columns, one importable example row and the codes to use', async () => {
    const workbook = await template(tadmin);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['设备导入', '产品编码', '组织编码']);
    const rows = rowsOf(workbook.worksheets[0]);
    expect(rows[0]).toEqual(['设备编码*', '设备名称*', '产品编码*', '组织编码*', 'IMEI', '经度', '纬度', '安装地址', '备注']);
    expect(rows).toHaveLength(2);
    expect(rows[1][0]).toMatch(/^WMNB01\d{6}$/);
    expect(rows[1][3]).toMatch(/^T0001P/);
    const sites = rowsOf(workbook.getWorksheet('组织编码')!).slice(1);
    expect(sites.every((site) => site[0].startsWith('T0001P'))).toBe(true);
    expect(rowsOf(workbook.getWorksheet('产品编码')!).slice(1).map((p) => p[0])).toContain('PRD-WM-NB');
    // The template uploaded back as it is imports its example row.
    const reply = await server.call<{ total: number; inserted: number; failed: number }>('device.batchInsert', { fileUrl: await uploadWorkbook(workbook) }, { token: tadmin });
    expect(reply).toMatchObject({ code: '200', data: { total: 1, inserted: 1, failed: 0, errors: [] } });
    expect((await server.call('device.detail', { code: rows[1][0] }, { token: tadmin })).code).toBe('200');
    // The next template proposes a code still free.
    expect(rowsOf((await template(tadmin)).worksheets[0])[1][0]).not.toBe(rows[1][0]);
  });

  it('inserts the good rows in one go and says why each other row was refused', async () => {
    const [taken] = await server.db.query<{ code: string }>("SELECT code FROM device WHERE tenant_code = 'T0001' LIMIT 1");
    const workbook = await template(tadmin);
    const sheet = workbook.worksheets[0];
    sheet.spliceRows(2, 1);
    const rows: Array<Array<string | number>> = [
      ['PGNB01777001', '压力计-导入1', 'PRD-PG-NB', 'T0001P01A01', '868120300000101', 120.1, 30.2, '杭州市西湖区', ''],
      ['PGNB0177700', '压力计-坏编码', 'PRD-PG-NB', 'T0001P01A01', '', '', '', '', ''],
      [taken.code, '重复的设备', 'PRD-PG-NB', 'T0001P01A01', '', '', '', '', ''],
      ['PGNB01777002', '压力计-未知产品', 'PRD-XX', 'T0001P01A01', '', '', '', '', ''],
      ['PGNB01777003', '压力计-别人的组织', 'PRD-PG-NB', 'T0002P01', '', '', '', '', ''],
      ['PGNB01777004', '压力计-部门', 'PRD-PG-NB', 'T0001D01', '', '', '', '', ''],
      ['pgnb01777001', '压力计-文件内重复', 'PRD-PG-NB', 'T0001P01A01', '', '', '', '', ''],
      ['PGNB01777005', '', 'PRD-PG-NB', 'T0001P01A01', '', '', '', '', ''],
      ['PGNB01777006', '压力计-坏IMEI', 'PRD-PG-NB', 'T0001P01A01', '12345', '', '', '', ''],
      ['PGNB01777007', '压力计-坏经度', 'PRD-PG-NB', 'T0001P01A01', '', 200, '', '', ''],
      ['PGNB01777008', '<b>压力计</b>', 'PRD-PG-NB', 'T0001P01A01', '', '', '', '', ''],
      ['', '', '', '', '', '', '', '', ''],
      ['PGNB01777009', '压力计-导入2', 'PRD-PG-NB', 'T0001P02A01', '', '', '', '下沙园区', '二期'],
    ];
    rows.forEach((row) => sheet.addRow(row));
    const reply = await server.call<{ id: number; total: number; inserted: number; failed: number; errors: Array<{ row: number; message: string }> }>(
      'device.batchInsert',
      { fileUrl: await uploadWorkbook(workbook, tadmin, '二期压力计.xlsx') },
      { token: tadmin },
    );
    expect(reply.code).toBe('200');
    expect(reply.data).toMatchObject({ total: 12, inserted: 2, failed: 10 });
    expect(reply.data!.errors).toEqual([
      { row: 3, message: '请输入正确的设备编码格式' },
      { row: 4, message: '设备编码已存在' },
      { row: 5, message: '产品不存在' },
      { row: 6, message: '组织不存在或无权访问' },
      { row: 7, message: '设备只能安装在项目或区域下' },
      { row: 8, message: '设备编码与第2行重复' },
      { row: 9, message: '请输入设备名称' },
      { row: 10, message: 'IMEI须为15位数字' },
      { row: 11, message: '经度须为-180至180之间的数字' },
      { row: 12, message: '设备名称不能包含 < 或 >' },
    ]);
    const inserted = await server.db.query<{ code: string; organization_code: string; tenant_code: string; online_state: string }>(
      "SELECT code, organization_code, tenant_code, online_state FROM device WHERE code LIKE 'PGNB01777%' ORDER BY code",
    );
    expect(inserted).toEqual([
      { code: 'PGNB01777001', organization_code: 'T0001P01A01', tenant_code: 'T0001', online_state: 'inactive' },
      { code: 'PGNB01777009', organization_code: 'T0001P02A01', tenant_code: 'T0001', online_state: 'inactive' },
    ]);
    // The import is on record with its reasons.
    const records = await page<{ id: number; fileName: string; result: string; failed: number; errorSummary: string; createdBy: string }>('device.import.page', tadmin);
    expect(records.data.records[0]).toMatchObject({ id: reply.data!.id, fileName: '二期压力计.xlsx', result: 'partial', failed: 10, createdBy: 'tadmin' });
    expect(records.data.records[0].errorSummary).toMatch(/^第3行：请输入正确的设备编码格式；第4行：设备编码已存在；/);
  });

  it('refuses what is not an .xlsx of the template ("400")', async () => {
    const png = await upload(server, 'devices.xlsx', PNG, { token: tadmin });
    expect(await server.call('device.batchInsert', { fileUrl: png.data!.url }, { token: tadmin })).toMatchObject({ code: '400', message: '请上传 .xlsx 格式的导入文件' });
    expect((await server.call('device.batchInsert', { fileUrl: 'upload/2026/11/0123456789abcdef0123456789abcdef.xlsx' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.batchInsert', { fileUrl: '../../etc/passwd' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('device.batchInsert', {}, { token: tadmin })).code).toBe('400');
    const wrong = new ExcelJS.Workbook();
    wrong.addWorksheet('设备').addRow(['编号', '名称']);
    wrong.worksheets[0].addRow(['WMNB01777100', '水表']);
    expect((await server.call('device.batchInsert', { fileUrl: await uploadWorkbook(wrong) }, { token: tadmin })).message).toBe('导入文件的表头与模板不一致，请下载最新的导入模板');
    const empty = await template(tadmin);
    empty.worksheets[0].spliceRows(2, 1);
    expect((await server.call('device.batchInsert', { fileUrl: await uploadWorkbook(empty) }, { token: tadmin })).message).toBe('导入文件中没有设备数据');
    // Someone else's upload cannot be imported by name.
    const theirs = await uploadWorkbook(await template(badmin), badmin);
    expect(await server.call('device.batchInsert', { fileUrl: theirs }, { token: tadmin })).toMatchObject({ code: '400', message: '请先上传导入文件' });
  });

  it('keeps another tenant’s rows out, and imports and records only for roles with the button', async () => {
    const workbook = await template(badmin);
    const rows = rowsOf(workbook.worksheets[0]);
    expect(rows[1][0]).toMatch(/^WMNB02\d{6}$/);
    workbook.worksheets[0].addRow(['WMNB02777201', '水表-越权', 'PRD-WM-NB', 'T0001P01A01']);
    const reply = await server.call<{ inserted: number; errors: Array<{ row: number; message: string }> }>('device.batchInsert', { fileUrl: await uploadWorkbook(workbook, badmin) }, { token: badmin });
    expect(reply.data).toMatchObject({ inserted: 1, errors: [{ row: 3, message: '组织不存在或无权访问' }] });
    const fileUrl = await uploadWorkbook(await template(tuser), tuser);
    expect((await server.call('device.batchInsert', { fileUrl }, { token: tuser })).code).toBe('403');
    // Each tenant sees its own import records only.
    const mine = await page<{ createdBy: string }>('device.import.page', tadmin, {}, [], 100);
    const theirs = await page<{ createdBy: string }>('device.import.page', badmin, {}, [], 100);
    expect(mine.data.records.every((r) => r.createdBy === 'tadmin')).toBe(true);
    expect(theirs.data.records.every((r) => r.createdBy === 'badmin')).toBe(true);
    expect(theirs.data.total).toBeGreaterThanOrEqual(3);
  });

  it('filters the import records and refuses bad filters', async () => {
    const clean = await page<{ result: string; failed: number }>('device.import.page', tadmin, { result: 'success' });
    expect(clean.data.total).toBeGreaterThan(0);
    expect(clean.data.records.every((r) => r.result === 'success' && r.failed === 0)).toBe(true);
    expect((await page('device.import.page', tadmin, { result: 'ok' })).code).toBe('400');
    expect((await page('device.import.page', tadmin, { timeRange: ['2026-11-01 00:00:00'] })).code).toBe('400');
  });
});
