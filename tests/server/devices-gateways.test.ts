// Gateways (网关管理) and cameras (视频监控): a gateway is a device of a gateway product, created
// and edited with the device rules (12-character code, a gateway product, a project or area of the
// scope), deleted to the recycle bin only once no live sub-device hangs on it; cameras are placed
// the same way and answer a short-lived play token. Another tenant's records answer "404"; button
// operations need the role's button ("403").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';
import { column, pageCall } from './devices-maintenance-helpers';

let server: TestServer;
let admin: string;
let tadmin: string;
let badmin: string;
let tuser: string;

beforeAll(async () => {
  server = await startServer();
  [admin, tadmin, badmin, tuser] = await Promise.all([server.login('admin', ADMIN_PASSWORD), server.login('tadmin'), server.login('badmin'), server.login('tuser')]);
});
afterAll(() => server.close());

interface GatewayRecord {
  code: string;
  name: string;
  productCode: string;
  nodeType: string;
  organizationCode: string;
  onlineState: string;
  subDeviceCount: number;
  onlineSubDeviceCount: number;
  imei: string;
  remark: string;
}

const gateway = (overrides: Record<string, unknown> = {}) => ({
  code: 'GW4G01900001',
  name: '一号厂房边缘网关',
  productCode: 'PRD-GW-4G',
  organizationCode: 'T0001P02A0101',
  imei: '861234567890123',
  longitude: 120.35,
  latitude: 30.31,
  address: '浙江省杭州市钱塘区下沙路88号',
  remark: '厂房东墙',
  ...overrides,
});

/** A live T0001 gateway with live sub-devices. */
async function t1Gateway(): Promise<string> {
  const [code] = await column<string>(
    server,
    `SELECT d.code AS value FROM device d JOIN product p ON p.code = d.product_code
      WHERE d.tenant_code = 'T0001' AND p.node_type = 'gateway' AND d.deleted_at IS NULL
        AND EXISTS (SELECT 1 FROM device s WHERE s.gateway_code = d.code AND s.deleted_at IS NULL)
      ORDER BY d.code LIMIT 1`,
  );
  return code;
}

describe('gateway.page / detail / subDevice.page', () => {
  it('lists the scope\'s gateways with their live sub-device counts', async () => {
    const reply = await pageCall<GatewayRecord>(server, 'gateway.page', tadmin, {}, { pageSize: 100, sort: [{ field: 'subDeviceCount', order: 'desc' }] });
    const [count] = await column<number>(server, "SELECT count(*)::int AS value FROM device d JOIN product p ON p.code = d.product_code WHERE p.node_type = 'gateway' AND d.tenant_code = 'T0001' AND d.deleted_at IS NULL");
    expect(reply.data.total).toBe(count);
    expect(reply.data.records.every((r) => r.nodeType === 'gateway' && r.code.startsWith('GW4G01'))).toBe(true);
    const top = reply.data.records[0];
    const [subs] = await column<number>(server, 'SELECT count(*)::int AS value FROM device WHERE gateway_code = $1 AND deleted_at IS NULL', [top.code]);
    expect(top.subDeviceCount).toBe(subs);
    expect(subs).toBeGreaterThan(0);
    expect(top.onlineSubDeviceCount).toBeLessThanOrEqual(subs);
    const online = await pageCall<GatewayRecord>(server, 'gateway.page', tadmin, { onlineState: 'online', organizationCode: 'T0001P01' }, { pageSize: 100 });
    expect(online.data.records.every((r) => r.onlineState === 'online' && r.organizationCode.startsWith('T0001P01'))).toBe(true);
    expect((await pageCall(server, 'gateway.page', badmin, { keyword: top.code })).data.total).toBe(0);
    expect((await pageCall(server, 'gateway.page', tadmin, { onlineState: 'sleepy' })).code).toBe('400');
  });

  it('details a gateway, never an ordinary device or another tenant\'s gateway', async () => {
    const code = await t1Gateway();
    const reply = await server.call<GatewayRecord>('gateway.detail', { code }, { token: tadmin });
    expect(reply.data).toMatchObject({ code, nodeType: 'gateway', productCode: 'PRD-GW-4G' });
    expect(reply.data!.subDeviceCount).toBeGreaterThan(0);
    expect((await server.call('gateway.detail', { code }, { token: badmin })).code).toBe('404');
    const [meter] = await column<string>(server, "SELECT code AS value FROM device WHERE product_code = 'PRD-WM-NB' AND tenant_code = 'T0001' AND deleted_at IS NULL LIMIT 1");
    expect(await server.call('gateway.detail', { code: meter }, { token: tadmin })).toMatchObject({ code: '404', message: '网关不存在' });
    expect((await server.call('gateway.detail', { code: 'GW-1' }, { token: tadmin })).code).toBe('400');
  });

  it('pages a gateway\'s live sub-devices', async () => {
    const code = await t1Gateway();
    const reply = await pageCall<GatewayRecord & { gatewayCode: string }>(server, 'gateway.subDevice.page', tadmin, { gatewayCode: code }, { pageSize: 100 });
    const [subs] = await column<number>(server, 'SELECT count(*)::int AS value FROM device WHERE gateway_code = $1 AND deleted_at IS NULL', [code]);
    expect(reply.data.total).toBe(subs);
    expect(reply.data.records.every((r) => r.gatewayCode === code && r.nodeType === 'sub')).toBe(true);
    expect((await pageCall(server, 'gateway.subDevice.page', badmin, { gatewayCode: code })).code).toBe('404');
    expect((await pageCall(server, 'gateway.subDevice.page', tadmin, {})).code).toBe('400');
  });
});

describe('gateway.insert / modify / delete', () => {
  it('creates a gateway as an inactive device of the tenant', async () => {
    const reply = await server.call('gateway.insert', { gateway: gateway() }, { token: tadmin });
    expect(reply).toMatchObject({ code: '200', data: { code: 'GW4G01900001' } });
    const detail = await server.call<GatewayRecord & { tenantCode: string }>('gateway.detail', { code: 'GW4G01900001' }, { token: tadmin });
    expect(detail.data).toMatchObject({ name: '一号厂房边缘网关', onlineState: 'inactive', tenantCode: 'T0001', subDeviceCount: 0, imei: '861234567890123' });
    expect(await server.call('gateway.insert', { gateway: gateway() }, { token: tadmin })).toMatchObject({ code: '409', message: '设备编码已存在' });
  });

  it('refuses bad input, a non-gateway product, a place outside the scope and a role without the button', async () => {
    expect((await server.call('gateway.insert', { gateway: gateway({ code: 'GW4G-01' }) }, { token: tadmin })).message).toMatch(/^参数错误：(gateway\.)?code/);
    expect((await server.call('gateway.insert', { gateway: gateway({ code: 'GW4G01900002', name: '<b>网关</b>' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('gateway.insert', { gateway: gateway({ code: 'GW4G01900002', imei: '123' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('gateway.insert', { gateway: { ...gateway({ code: 'GW4G01900002' }), extra: 1 } }, { token: tadmin })).code).toBe('400');
    expect(await server.call('gateway.insert', { gateway: gateway({ code: 'GW4G01900002', productCode: 'PRD-WM-NB' }) }, { token: tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：productCode（请选择网关类产品）',
    });
    expect(await server.call('gateway.insert', { gateway: gateway({ code: 'GW4G01900002', organizationCode: 'T0001D01' }) }, { token: tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：organizationCode（请选择项目或区域）',
    });
    expect((await server.call('gateway.insert', { gateway: gateway({ code: 'GW4G02900002', organizationCode: 'T0001P01' }) }, { token: badmin })).code).toBe('403');
    expect((await server.call('gateway.insert', { gateway: gateway({ code: 'GW4G01900002' }) }, { token: tuser })).code).toBe('403');
    // A recycled device keeps its code.
    const [recycled] = await column<string>(server, "SELECT code AS value FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NOT NULL LIMIT 1");
    expect(await server.call('gateway.insert', { gateway: gateway({ code: recycled }) }, { token: tadmin })).toMatchObject({ code: '409', message: '设备编码已存在（在回收站中）' });
  });

  it('modifies a gateway but not its code nor its tenant', async () => {
    const code = await t1Gateway();
    const current = (await server.call<GatewayRecord>('gateway.detail', { code }, { token: tadmin })).data!;
    const fields = gateway({ code, name: '灵隐泵站网关（主）', organizationCode: current.organizationCode, remark: '已更换天线' });
    expect((await server.call('gateway.modify', { code, gateway: fields }, { token: badmin })).code).toBe('404');
    expect((await server.call('gateway.modify', { code, gateway: fields }, { token: tuser })).code).toBe('403');
    expect((await server.call('gateway.modify', { code, gateway: { ...fields, code: 'GW4G01999999' } }, { token: tadmin })).message).toBe('参数错误：code（设备编码不能修改）');
    expect((await server.call('gateway.modify', { code, gateway: { ...fields, latitude: 95 } }, { token: tadmin })).code).toBe('400');
    expect(await server.call('gateway.modify', { code, gateway: fields }, { token: tadmin })).toMatchObject({ code: '200' });
    expect((await server.call<GatewayRecord>('gateway.detail', { code }, { token: tadmin })).data).toMatchObject({ name: '灵隐泵站网关（主）', remark: '已更换天线' });
    // Platform staff work across tenants but cannot move a gateway to another tenant.
    expect((await server.call('gateway.modify', { code, gateway: { ...fields, organizationCode: 'T0002P01' } }, { token: admin })).message).toBe('参数错误：organizationCode（不能移到其他租户）');
  });

  it('refuses to delete a gateway with live sub-devices; otherwise moves it to the recycle bin', async () => {
    const busy = await t1Gateway();
    expect((await server.call('gateway.delete', { code: busy }, { token: badmin })).code).toBe('404');
    expect((await server.call('gateway.delete', { code: busy }, { token: tuser })).code).toBe('403');
    expect(await server.call('gateway.delete', { code: busy }, { token: tadmin })).toMatchObject({ code: '409', message: '该网关下仍有子设备' });
    expect((await server.call('gateway.delete', { code: 12 }, { token: tadmin })).code).toBe('400');
    const idle = 'GW4G01900003';
    expect((await server.call('gateway.insert', { gateway: gateway({ code: idle }) }, { token: tadmin })).code).toBe('200');
    expect(await server.call('gateway.delete', { code: idle }, { token: tadmin })).toMatchObject({ code: '200' });
    const [row] = await server.db.query<{ deleted_by: string; recycle_reason: string }>('SELECT deleted_by, recycle_reason FROM device WHERE code = $1', [idle]);
    expect(row).toEqual({ deleted_by: 'tadmin', recycle_reason: 'deleted' });
    expect((await pageCall(server, 'device.recycle.page', tadmin, { keyword: idle })).data.total).toBe(1);
    expect((await server.call('gateway.detail', { code: idle }, { token: tadmin })).code).toBe('404');
  });
});

describe('camera.page / detail / insert / modify / delete / stream.get', () => {
  interface CameraRecord {
    code: string;
    name: string;
    brand: string;
    organizationCode: string;
    onlineState: string;
    streamUrl: string;
    streamProtocol: string;
    deviceCode: string;
    deviceName: string;
    channel: number;
  }

  const camera = (overrides: Record<string, unknown> = {}) => ({
    name: '一号厂房-东门枪机',
    organizationCode: 'T0001P02A0101',
    brand: 'hikvision',
    model: 'DS-2CD3T46WDV3-I3',
    channel: 1,
    streamUrl: 'rtsp://10.1.20.31:554/Streaming/Channels/101',
    longitude: 120.35,
    latitude: 30.31,
    deviceCode: '',
    remark: '',
    ...overrides,
  });

  it('lists the scope\'s cameras, filtered by brand, state and organisation', async () => {
    const all = await pageCall<CameraRecord>(server, 'camera.page', tadmin, {}, { pageSize: 100 });
    expect(all.data.total).toBe(36);
    expect(all.data.records.every((r) => r.code.startsWith('CAM01'))).toBe(true);
    const hik = await pageCall<CameraRecord>(server, 'camera.page', tadmin, { brand: 'hikvision', onlineState: 'online' }, { pageSize: 100 });
    expect(hik.data.total).toBeGreaterThan(0);
    expect(hik.data.records.every((r) => r.brand === 'hikvision' && r.onlineState === 'online')).toBe(true);
    const project = await pageCall<CameraRecord>(server, 'camera.page', tadmin, { organizationCode: 'T0001P02' }, { pageSize: 100 });
    expect(project.data.records.every((r) => r.organizationCode.startsWith('T0001P02'))).toBe(true);
    expect((await pageCall(server, 'camera.page', badmin, { keyword: 'CAM01' })).data.total).toBe(0);
    expect((await pageCall(server, 'camera.page', tadmin, { brand: 'sony' })).code).toBe('400');
  });

  it('details a camera with the device it watches', async () => {
    const [code] = await column<string>(server, "SELECT code AS value FROM camera WHERE tenant_code = 'T0001' AND device_code IS NOT NULL ORDER BY code LIMIT 1");
    const reply = await server.call<CameraRecord>('camera.detail', { code }, { token: tadmin });
    expect(reply.data!.deviceCode).toMatch(/^[A-Z0-9]{12}$/);
    expect(reply.data!.deviceName).not.toBe('');
    expect((await server.call('camera.detail', { code }, { token: badmin })).code).toBe('404');
    expect((await server.call('camera.detail', { code: 'CAM-1' }, { token: tadmin })).code).toBe('400');
  });

  it('creates a camera with a generated code, bound to a device of the scope', async () => {
    const [device] = await column<string>(server, "SELECT code AS value FROM device WHERE organization_code = 'T0001P02A0101' AND deleted_at IS NULL ORDER BY code LIMIT 1");
    const reply = await server.call<{ code: string }>('camera.insert', { camera: camera({ deviceCode: device }) }, { token: tadmin });
    expect(reply).toMatchObject({ code: '200', data: { code: 'CAM01000037' } });
    const detail = await server.call<CameraRecord>('camera.detail', { code: 'CAM01000037' }, { token: tadmin });
    expect(detail.data).toMatchObject({ name: '一号厂房-东门枪机', deviceCode: device, streamProtocol: 'rtsp', channel: 1 });

    expect((await server.call('camera.insert', { camera: camera({ streamUrl: 'javascript:alert(1)' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('camera.insert', { camera: camera({ channel: 0 }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('camera.insert', { camera: camera({ brand: 'sony' }) }, { token: tadmin })).code).toBe('400');
    const [theirDevice] = await column<string>(server, "SELECT code AS value FROM device WHERE tenant_code = 'T0002' AND deleted_at IS NULL LIMIT 1");
    expect(await server.call('camera.insert', { camera: camera({ deviceCode: theirDevice }) }, { token: tadmin })).toMatchObject({ code: '400', message: '参数错误：deviceCode（关联设备不存在）' });
    expect((await server.call('camera.insert', { camera: camera() }, { token: badmin })).code).toBe('403');
    expect((await server.call('camera.insert', { camera: camera() }, { token: tuser })).code).toBe('403');
  });

  it('modifies a camera of the scope', async () => {
    const fields = camera({ name: '一号厂房-东门球机', brand: 'dahua', streamUrl: 'rtsp://10.1.20.31:554/cam/realmonitor?channel=1&subtype=0', channel: 2 });
    expect((await server.call('camera.modify', { code: 'CAM01000001', camera: fields }, { token: badmin })).code).toBe('404');
    expect((await server.call('camera.modify', { code: 'CAM01000001', camera: fields }, { token: tuser })).code).toBe('403');
    expect((await server.call('camera.modify', { code: 'CAM01000001', camera: { ...fields, name: '' } }, { token: tadmin })).code).toBe('400');
    expect(await server.call('camera.modify', { code: 'CAM01000001', camera: fields }, { token: tadmin })).toMatchObject({ code: '200' });
    expect((await server.call<CameraRecord>('camera.detail', { code: 'CAM01000001' }, { token: tadmin })).data).toMatchObject({ name: '一号厂房-东门球机', brand: 'dahua', channel: 2 });
  });

  it('answers an online camera\'s play address with a short-lived token; refuses an offline one', async () => {
    const [online] = await column<string>(server, "SELECT code AS value FROM camera WHERE tenant_code = 'T0001' AND online_state = 'online' ORDER BY code LIMIT 1");
    const reply = await server.call<{ playUrl: string; playToken: string; expiresIn: number; expireTime: string }>('camera.stream.get', { code: online }, { token: tuser });
    expect(reply.code).toBe('200');
    expect(reply.data!.playToken.length).toBeGreaterThanOrEqual(32);
    expect(reply.data!.playUrl).toContain(`token=${reply.data!.playToken}`);
    expect(reply.data!.playUrl).toMatch(/^https:\/\/.+\.m3u8\?/);
    expect(reply.data!.expiresIn).toBe(300);
    expect(new Date(reply.data!.expireTime).getTime() - Date.now()).toBeLessThanOrEqual(300_000);
    const again = await server.call<{ playToken: string }>('camera.stream.get', { code: online }, { token: tuser });
    expect(again.data!.playToken).not.toBe(reply.data!.playToken);
    const [offline] = await column<string>(server, "SELECT code AS value FROM camera WHERE tenant_code = 'T0001' AND online_state = 'offline' ORDER BY code LIMIT 1");
    expect(await server.call('camera.stream.get', { code: offline }, { token: tadmin })).toMatchObject({ code: '409', message: '摄像头离线，无法播放' });
    expect((await server.call('camera.stream.get', { code: online }, { token: badmin })).code).toBe('404');
    expect((await server.call('camera.stream.get', { code: null }, { token: tadmin })).code).toBe('400');
  });

  it('deletes a camera of the scope', async () => {
    expect((await server.call('camera.delete', { code: 'CAM01000002' }, { token: badmin })).code).toBe('404');
    expect((await server.call('camera.delete', { code: 'CAM01000002' }, { token: tuser })).code).toBe('403');
    expect((await server.call('camera.delete', { code: 'cam' }, { token: tadmin })).code).toBe('400');
    expect(await server.call('camera.delete', { code: 'CAM01000002' }, { token: tadmin })).toMatchObject({ code: '200' });
    expect((await server.call('camera.detail', { code: 'CAM01000002' }, { token: tadmin })).code).toBe('404');
  });
});
