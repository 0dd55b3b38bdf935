// Commands reach devices over the embedded broker (issue 31): a command generated for a device that
// is connected and subscribed to devices/<code>/commands arrives there in the fixed wire format, is
// `sent` once the device's PUBACK came back, and the device's reply on devices/<code>/commands/reply
// makes it `acknowledged` (or `failed`); a device that connects later gets its waiting commands, in
// id order; a command not answered before its expiry is `expired` and a late reply changes nothing;
// a reply for another device's command, an unknown id or a malformed reply changes nothing and is
// counted; another device's reply topic closes the connection. Every step is told to the live
// console (command.updated).
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceBrokerOf } from '../../server/app';
import { DEFAULT_COMMAND_TTL_SECONDS } from '../../server/config';
import { expireCommands } from '../../server/ingest/commandDelivery';
import {
  commandableDevices,
  connectDevice,
  detailOnce,
  generate,
  replyCount,
  replyTo,
  storedCommand,
  toldStates,
  type TestDevice,
} from './device-commands-helpers';
import { startServer, type TestServer } from './harness';

const METRICS_TOKEN = 'metrics-token-for-device-commands-012';

let server: TestServer;
let tadmin: string;
let brokerUrl: string;
let devices: TestDevice[];
const clients: MqttClient[] = [];

beforeAll(async () => {
  server = await startServer({ config: { metricsToken: METRICS_TOKEN, mqttPort: 0, mqttHost: '127.0.0.1' } });
  tadmin = await server.login('tadmin');
  brokerUrl = `mqtt://127.0.0.1:${deviceBrokerOf(server.app)!.port}`;
  devices = await commandableDevices(server, tadmin, 6);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await server.close();
});

async function connect(device: TestDevice, options?: Parameters<typeof connectDevice>[2]) {
  const connected = await connectDevice(brokerUrl, device, options);
  clients.push(connected.client);
  return connected;
}
const metrics = async () => (await server.app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
const closing = (client: MqttClient) => new Promise<void>((resolve) => (client.connected ? client.once('close', () => resolve()) : resolve()));

describe('a connected device', () => {
  it('receives a command as it is generated, sent once its PUBACK came, acknowledged by its reply', async () => {
    const device = devices[0];
    const { client, next } = await connect(device);
    const id = await generate(server, tadmin, device.code, 'report_interval', 30);
    const command = await next();
    expect(Object.keys(command).sort()).toEqual(['expiresAt', 'hex', 'id', 'parameters', 'text', 'type']);
    expect(command).toMatchObject({ id, type: 'report_interval', parameters: { intervalMinutes: 30 }, text: `SET_REPORT_INTERVAL=30;SEQ=${id % 65536}` });
    expect(command.hex).toMatch(/^68[0-9A-F]+16$/);
    expect(Date.parse(command.expiresAt) - server.now().getTime()).toBeGreaterThan((DEFAULT_COMMAND_TTL_SECONDS - 60) * 1000);
    const sent = await detailOnce(server, tadmin, id, (detail) => detail.state === 'sent');
    expect(sent).toMatchObject({ id, code: device.code, commandType: 'report_interval', replyTime: null, result: null, message: null });
    expect(sent.sentTime).not.toBeNull();

    await replyTo(client, device.code, { id, result: 'ok', message: '上报周期已设为 30 分钟', data: { intervalMinutes: 30 } });
    const acknowledged = await detailOnce(server, tadmin, id, () => true);
    expect(acknowledged).toMatchObject({ state: 'acknowledged', result: 'ok', message: '上报周期已设为 30 分钟' });
    expect(acknowledged.replyTime).not.toBeNull();
    expect(await toldStates(server, id)).toEqual(['pending', 'sent', 'acknowledged']);
    // 设备详情 lists it with its state.
    const detail = await server.call<{ recentCommands: Array<{ id: number; state: string }> }>('device.detail', { code: device.code }, { token: tadmin });
    expect(detail.data!.recentCommands[0]).toMatchObject({ id, state: 'acknowledged' });

    // The same reply again (QoS 1 may repeat it) changes nothing and is counted as late.
    const before = replyCount(await metrics(), 'mqtt', 'late');
    await replyTo(client, device.code, { id, result: 'failed', message: '重复' });
    expect(await detailOnce(server, tadmin, id, () => true)).toMatchObject({ state: 'acknowledged', result: 'ok', message: '上报周期已设为 30 分钟' });
    expect(replyCount(await metrics(), 'mqtt', 'late')).toBe(before + 1);
    expect(await toldStates(server, id)).toEqual(['pending', 'sent', 'acknowledged']);
  });

  it('a failed reply makes the command failed with the device’s message', async () => {
    const device = devices[1];
    const { client, next } = await connect(device);
    const id = await generate(server, tadmin, device.code, 'valve_close');
    expect((await next()).id).toBe(id);
    await detailOnce(server, tadmin, id, (detail) => detail.state === 'sent');
    await replyTo(client, device.code, { id, result: 'failed', message: '阀门卡滞' });
    expect(await detailOnce(server, tadmin, id, () => true)).toMatchObject({ state: 'failed', result: 'failed', message: '阀门卡滞' });
  });

  it('subscribed at QoS 0 it is sent once written (there is no PUBACK)', async () => {
    const device = devices[5];
    const { next } = await connect(device, { qos: 0 });
    const id = await generate(server, tadmin, device.code, 'reboot');
    expect((await next()).id).toBe(id);
    await detailOnce(server, tadmin, id, (detail) => detail.state === 'sent');
  });
});

describe('a device that is not connected', () => {
  it('gets its waiting commands when it connects and subscribes, in id order', async () => {
    const device = devices[2];
    const first = await generate(server, tadmin, device.code, 'time_sync');
    const second = await generate(server, tadmin, device.code, 'valve_open');
    expect((await storedCommand(server, first)).state).toBe('pending');
    // Signed in without subscribing: nothing is sent yet.
    const { client, received, next } = await connect(device, { subscribe: false });
    expect((await storedCommand(server, first)).state).toBe('pending');
    await client.subscribeAsync(`devices/${device.code}/commands`, { qos: 1 });
    expect((await next()).id).toBe(first);
    expect((await next()).id).toBe(second);
    expect(received[0].parameters).toEqual({ time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) as unknown });
    await detailOnce(server, tadmin, second, (detail) => detail.state === 'sent');
    expect((await storedCommand(server, first)).state).toBe('sent');
  });

  it('is not sent a command past its expiry; the command is expired and a late reply changes nothing', async () => {
    const device = devices[3];
    const stale = await generate(server, tadmin, device.code, 'reboot');
    const alsoStale = await generate(server, tadmin, device.code, 'time_sync');
    server.advance(DEFAULT_COMMAND_TTL_SECONDS + 1);
    // The sweep expires what is due (the server process runs it every few seconds) …
    expect(await expireCommands(server.db, server.now())).toBeGreaterThanOrEqual(1);
    expect((await storedCommand(server, alsoStale)).state).toBe('expired');
    // … and a detail asked for before the sweep finds its command expired already.
    expect((await detailOnce(server, tadmin, stale, () => true)).state).toBe('expired');
    expect(await toldStates(server, stale)).toEqual(['pending', 'expired']);

    const { client, received, next } = await connect(device);
    const fresh = await generate(server, tadmin, device.code, 'valve_open');
    // The first command it gets is the fresh one: the expired ones are not sent.
    expect((await next()).id).toBe(fresh);
    expect(received.map((command) => command.id)).toEqual([fresh]);
    const before = replyCount(await metrics(), 'mqtt', 'late');
    await replyTo(client, device.code, { id: stale, result: 'ok' });
    expect(await storedCommand(server, stale)).toMatchObject({ state: 'expired', sent_at: null, replied_at: null });
    expect(replyCount(await metrics(), 'mqtt', 'late')).toBe(before + 1);
  });
});

describe('replies that change nothing', () => {
  it('another device’s command, an unknown id and a malformed reply are counted; another device’s topic closes the connection', async () => {
    const [owner, other] = [devices[4], devices[0]];
    const ownerSession = await connect(owner);
    const id = await generate(server, tadmin, owner.code, 'reboot');
    expect((await ownerSession.next()).id).toBe(id);
    await detailOnce(server, tadmin, id, (detail) => detail.state === 'sent');

    const { client } = await connect(other);
    const before = await metrics();
    // The owner's command answered by another device, on its own reply topic: unknown to it.
    await replyTo(client, other.code, { id, result: 'ok' });
    await replyTo(client, other.code, { id: 2_000_000_000, result: 'ok' });
    for (const malformed of ['not json', '{"id": "x", "result": "ok"}', JSON.stringify({ id, result: 'maybe' }), JSON.stringify({ id, result: 'ok', extra: 1 }), JSON.stringify({ id, result: 'ok', data: { a: { b: { c: { d: 1 } } } } })]) {
      await replyTo(client, other.code, malformed);
    }
    const after = await metrics();
    expect(replyCount(after, 'mqtt', 'unknown_command') - replyCount(before, 'mqtt', 'unknown_command')).toBe(2);
    expect(replyCount(after, 'mqtt', 'malformed') - replyCount(before, 'mqtt', 'malformed')).toBe(5);
    expect(await storedCommand(server, id)).toMatchObject({ state: 'sent', replied_at: null });
    expect(client.connected).toBe(true);

    // On the owner's reply topic: the connection closes, the command stays as it was.
    const closed = closing(client);
    client.publish(`devices/${owner.code}/commands/reply`, JSON.stringify({ id, result: 'ok' }), { qos: 1 });
    await closed;
    expect(await storedCommand(server, id)).toMatchObject({ state: 'sent', replied_at: null });
    // The owner's own reply still settles it.
    await replyTo(ownerSession.client, owner.code, { id, result: 'ok' });
    expect((await storedCommand(server, id)).state).toBe('acknowledged');
  });

  it('a device may subscribe to its own command topic only', async () => {
    const { client } = await connect(devices[1], { subscribe: false });
    // Each refused in the SUBACK (128: the client library answers it as an error), the connection kept.
    for (const topic of [`devices/${devices[0].code}/commands`, `devices/${devices[1].code}/commands/reply`, 'devices/+/commands']) {
      await expect(client.subscribeAsync(topic, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    }
    expect(client.connected).toBe(true);
  });
});
