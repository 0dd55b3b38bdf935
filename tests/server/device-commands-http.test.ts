// Commands over HTTP (issue 31): a device that reports with POST /api/device/telemetry/_report takes
// its waiting commands in the answer (data.commands, in the MQTT wire format, `sent` from then on,
// never twice), and answers one with POST /api/device/commands/_reply and its credential: 200 and
// the state, or 400 malformed, 401 for a wrong credential, 404 for no command of this device, 409
// for a command already settled or expired, each of which changes nothing and is counted. The open
// API reads a command (deviceAccess.command.detail) and provisions the device it is for: create,
// issue a credential, modify, recycle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMMAND_TTL_SECONDS } from '../../server/config';
import { commandableDevices, generate, replyCount, storedCommand, toldStates, type TestDevice, type WireCommand } from './device-commands-helpers';
import { startServer, type TestServer } from './harness';
import { issueKey, openCall, type OpenKey } from './open-api-helpers';

const METRICS_TOKEN = 'metrics-token-for-device-commands-http';

let server: TestServer;
let tadmin: string;
let devices: TestDevice[];

beforeAll(async () => {
  server = await startServer({ config: { metricsToken: METRICS_TOKEN } });
  tadmin = await server.login('tadmin');
  devices = await commandableDevices(server, tadmin, 3, 10);
});
afterAll(async () => {
  await server.close();
});

const metrics = async () => (await server.app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;

async function report(device: TestDevice, body: unknown = { batteryLevel: 50 }) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/device/telemetry/_report',
    headers: { 'content-type': 'application/json', 'x-device-code': device.code, 'x-device-secret': device.secret },
    payload: JSON.stringify(body),
  });
  return { status: response.statusCode, body: response.json<{ code: string; data: { commands: WireCommand[] } | null }>() };
}

async function reply(device: Pick<TestDevice, 'code' | 'secret'>, body: unknown) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/device/commands/_reply',
    headers: { 'content-type': 'application/json', 'x-device-code': device.code, 'x-device-secret': device.secret },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.statusCode, body: response.json<{ code: string; message: string; data: unknown }>() };
}

describe('a device that reports over HTTP', () => {
  it('takes its waiting commands in the report’s answer, once, and settles one with its reply', async () => {
    const device = devices[0];
    const first = await generate(server, tadmin, device.code, 'report_interval', 60);
    const second = await generate(server, tadmin, device.code, 'valve_close');
    const answered = await report(device);
    expect(answered.status).toBe(200);
    const commands = answered.body.data!.commands;
    expect(commands.map((command) => command.id)).toEqual([first, second]);
    expect(commands[0]).toMatchObject({ type: 'report_interval', parameters: { intervalMinutes: 60 }, text: expect.stringMatching(/^SET_REPORT_INTERVAL=60;SEQ=\d+$/) as unknown });
    expect(Object.keys(commands[1]).sort()).toEqual(['expiresAt', 'hex', 'id', 'parameters', 'text', 'type']);
    expect((await storedCommand(server, first)).state).toBe('sent');
    // The next report finds nothing waiting.
    expect((await report(device)).body.data!.commands).toEqual([]);

    expect(await reply(device, { id: first, result: 'ok', message: '已设置' })).toEqual({ status: 200, body: { code: '200', message: '成功', data: { id: first, state: 'acknowledged' } } });
    expect((await reply(device, { id: second, result: 'failed', message: '阀门卡滞' })).body.data).toEqual({ id: second, state: 'failed' });
    const detail = await server.call<{ state: string; result: string; message: string }>('deviceAccess.command.detail', { id: second }, { token: tadmin });
    expect(detail.data).toMatchObject({ state: 'failed', result: 'failed', message: '阀门卡滞' });
    expect(await toldStates(server, first)).toEqual(['pending', 'sent', 'acknowledged']);
  });

  it('a reply that changes nothing is refused with why, and counted', async () => {
    const [device, other] = devices.slice(1);
    const mine = await generate(server, tadmin, device.code, 'reboot');
    const theirs = await generate(server, tadmin, other.code, 'reboot');
    expect((await report(device)).body.data!.commands.map((command) => command.id)).toEqual([mine]);
    expect((await report(other)).body.data!.commands.map((command) => command.id)).toEqual([theirs]);
    const before = await metrics();

    expect(await reply(device, { id: theirs, result: 'ok' })).toMatchObject({ status: 404, body: { code: '404', message: '指令不存在' } });
    expect(await reply(device, { id: 2_000_000_000, result: 'ok' })).toMatchObject({ status: 404, body: { code: '404' } });
    expect(await reply(device, 'not json')).toMatchObject({ status: 400, body: { code: '400', message: '回复内容不符合要求' } });
    expect(await reply(device, { id: mine, result: 'done' })).toMatchObject({ status: 400 });
    expect(await reply(device, { id: mine, result: 'ok', data: 'x'.repeat(20_000) })).toMatchObject({ status: 400 });
    expect(await reply({ code: device.code, secret: 'wrong-secret' }, { id: mine, result: 'ok' })).toMatchObject({ status: 401, body: { code: '401' } });
    expect(await storedCommand(server, theirs)).toMatchObject({ state: 'sent', replied_at: null });
    expect(await storedCommand(server, mine)).toMatchObject({ state: 'sent', replied_at: null });

    expect((await reply(device, { id: mine, result: 'ok' })).status).toBe(200);
    expect(await reply(device, { id: mine, result: 'failed' })).toMatchObject({ status: 409, body: { code: '409', message: '指令已结束或已过期' } });
    const after = await metrics();
    expect(replyCount(after, 'http', 'unknown_command') - replyCount(before, 'http', 'unknown_command')).toBe(2);
    expect(replyCount(after, 'http', 'malformed') - replyCount(before, 'http', 'malformed')).toBe(3);
    expect(replyCount(after, 'http', 'late') - replyCount(before, 'http', 'late')).toBe(1);
    expect(replyCount(after, 'http', 'acknowledged') - replyCount(before, 'http', 'acknowledged')).toBe(1);
    expect((await storedCommand(server, mine)).state).toBe('acknowledged');

    // A command past its expiry is not taken by the next report, and its reply is late.
    const expiring = await generate(server, tadmin, other.code, 'time_sync');
    server.advance(DEFAULT_COMMAND_TTL_SECONDS + 1);
    expect((await report(other)).body.data!.commands).toEqual([]);
    expect((await reply(other, { id: theirs, result: 'ok' })).status).toBe(409);
    const detail = await server.call<{ state: string }>('deviceAccess.command.detail', { id: expiring }, { token: tadmin });
    expect(detail.data!.state).toBe('expired');
  });

  it('deviceAccess.command.detail is scoped like its device', async () => {
    const id = await generate(server, tadmin, devices[0].code, 'reboot');
    const other = await server.login('badmin');
    expect(await server.call('deviceAccess.command.detail', { id }, { token: other })).toMatchObject({ code: '404', message: '指令不存在' });
    expect(await server.call('deviceAccess.command.detail', { id: 0 }, { token: tadmin })).toMatchObject({ code: '400' });
  });
});

describe('the open API', () => {
  let key: OpenKey;
  beforeAll(async () => {
    key = await issueKey(server);
  });

  it('provisions a device (create, credential, modify, recycle) and follows a command to it', async () => {
    const [template] = await server.db.query<{ product_code: string; organization_code: string }>(
      "SELECT product_code, organization_code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL AND product_code = 'PRD-WM-NB' ORDER BY id LIMIT 1",
    );
    const code = 'OPENCMD00001';
    const device = { code, name: '开放接口水表', productCode: template.product_code, organizationCode: template.organization_code };
    const created = await openCall<{ id: number; code: string }>(server, key, 'device.insert', { param: { device } });
    expect(created.body).toMatchObject({ code: '200', data: { code } });
    const credential = await openCall<{ secret: string; deviceCode: string }>(server, key, 'device.credential.reset', { param: { code } });
    expect(credential.body.data).toMatchObject({ deviceCode: code, issued: true });
    const secret = credential.body.data!.secret;
    expect((await openCall(server, key, 'device.modify', { param: { code, device: { ...device, name: '开放接口水表（已改名）' } } })).body.code).toBe('200');

    // The device reports (it is active from then on), a command goes to it, its reply settles it.
    expect((await report({ id: created.body.data!.id, code, secret })).status).toBe(200);
    const generated = await openCall<{ id: number; state: string }>(server, key, 'deviceAccess.command.generate', { param: { code, commandType: 'valve_open' } });
    const id = generated.body.data!.id;
    expect((await report({ id: 0, code, secret })).body.data!.commands.map((command) => command.id)).toEqual([id]);
    expect((await reply({ code, secret }, { id, result: 'ok', message: '阀门已打开' })).status).toBe(200);
    const detail = await openCall<{ state: string; result: string; message: string }>(server, key, 'deviceAccess.command.detail', { param: { id } });
    expect(detail.body.data).toMatchObject({ id, code, commandType: 'valve_open', state: 'acknowledged', result: 'ok', message: '阀门已打开' });

    expect((await openCall(server, key, 'device.delete', { param: { code } })).body).toMatchObject({ code: '200', data: { deleted: 1 } });
    expect((await report({ id: 0, code, secret })).status).toBe(401);
  });
});
