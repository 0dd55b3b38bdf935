// Commands through an external broker (MQTT_URL, issue 31): the platform publishes them through its
// own client there, and takes the devices' replies on devices/+/commands/reply. A waiting command
// goes once the device subscribes to its command topic (the broker's ACL question tells the
// platform); one queued for a device that is online goes at once; a reply settles it; the broker's
// ACL lets a device publish its own replies only. The "external" broker is an Aedes of the test's
// own that asks the platform's endpoints, as EMQX's HTTP authentication and authorization would.
import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes, type AuthenticateError } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replyTopicOf } from '../../server/ingest/mqttBridge';
import { commandableDevices, detailOnce, generate, replyCount, storedCommand, type TestDevice, type WireCommand } from './device-commands-helpers';
import { startServer, type TestServer } from './harness';

const PLATFORM = { user: 'iot-platform', password: 'platform-broker-password-0123' };
const METRICS_TOKEN = 'metrics-token-for-device-commands-bridge';

let server: TestServer | null = null;
let broker: Aedes;
let brokerServer: Server;
let brokerUrl: string;
let tadmin: string;
let devices: TestDevice[];
const clients: MqttClient[] = [];

async function ask(path: string, body: object): Promise<boolean> {
  if (!server) return false;
  const reply = await server.app.inject({ method: 'POST', url: `/api/device/mqtt/${path}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return reply.json<{ result: string }>().result === 'allow';
}

beforeAll(async () => {
  const clientUsers = new Map<string, string>();
  broker = await Aedes.createBroker({
    authenticate(_client, username, password, done) {
      const given = password?.toString('utf8') ?? '';
      if (username === PLATFORM.user) return done(null, given === PLATFORM.password);
      void ask('_auth', { username, password: given }).then((allowed) =>
        allowed ? done(null, true) : done(Object.assign(new Error('denied'), { returnCode: 4 }) as AuthenticateError, false),
      );
    },
    authorizePublish(client, packet, done) {
      if (!client || client.id.startsWith('iot-platform-')) return done(null);
      void ask('_acl', { username: clientUsers.get(client.id), topic: packet.topic, action: 'publish' }).then((allowed) => done(allowed ? null : new Error('denied')));
    },
    authorizeSubscribe(client, subscription, done) {
      if (client.id.startsWith('iot-platform-')) return done(null, subscription);
      void ask('_acl', { username: clientUsers.get(client.id), topic: subscription.topic, action: 'subscribe' }).then((allowed) => done(null, allowed ? subscription : null));
    },
  });
  broker.on('client', (client) => clientUsers.set(client.id, client.id.split('~')[0]));
  brokerServer = createServer(broker.handle);
  await new Promise<void>((resolve) => brokerServer.listen(0, '127.0.0.1', resolve));
  const port = (brokerServer.address() as AddressInfo).port;
  brokerUrl = `mqtt://127.0.0.1:${port}`;
  server = await startServer({ config: { metricsToken: METRICS_TOKEN, mqttUrl: `mqtt://${PLATFORM.user}:${PLATFORM.password}@127.0.0.1:${port}`, mqttTopic: 'devices/+/telemetry' } });
  tadmin = await server.login('tadmin');
  devices = await commandableDevices(server, tadmin, 2, 30);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await server?.close();
  await new Promise<void>((resolve) => broker.close(() => resolve()));
  await new Promise<void>((resolve) => brokerServer.close(() => resolve()));
});

/** A device on the external broker, subscribed to its commands; `next` waits for the next one. */
async function connect(device: TestDevice) {
  const client = await mqtt.connectAsync(brokerUrl, { username: device.code, password: device.secret, clientId: `${device.code}~${clients.length}`, reconnectPeriod: 0, connectTimeout: 5000 });
  clients.push(client);
  const received: WireCommand[] = [];
  const waiting: Array<() => void> = [];
  client.on('message', (topic, payload) => {
    if (topic !== `devices/${device.code}/commands`) return;
    received.push(JSON.parse(payload.toString()) as WireCommand);
    waiting.splice(0).forEach((wake) => wake());
  });
  await client.subscribeAsync(`devices/${device.code}/commands`, { qos: 1 });
  const next = async (count: number) => {
    while (received.length < count) await new Promise<void>((resolve) => waiting.push(resolve));
    return received.slice(0, count);
  };
  return { client, received, next };
}

describe('commands through an external broker (MQTT_URL)', () => {
  it('a waiting command goes once the device subscribes; one queued while it is online goes at once; replies settle them', async () => {
    const device = devices[0];
    // Offline (the platform has not heard from it for a while): its command waits for it.
    await server!.db.query("UPDATE device SET online_state = 'offline' WHERE id = $1", [device.id]);
    const waiting = await generate(server!, tadmin, device.code, 'valve_close');
    expect((await storedCommand(server!, waiting)).state).toBe('pending');
    const { client, next } = await connect(device);
    expect((await next(1)).map((command) => command.id)).toEqual([waiting]);
    await detailOnce(server!, tadmin, waiting, (detail) => detail.state === 'sent');
    await client.publishAsync(`devices/${device.code}/commands/reply`, JSON.stringify({ id: waiting, result: 'ok', message: '阀门已关闭' }), { qos: 1 });
    expect(await detailOnce(server!, tadmin, waiting, (detail) => detail.state !== 'sent')).toMatchObject({ state: 'acknowledged', message: '阀门已关闭' });

    // It reports (online from then on): the next command is published when it is queued.
    await client.publishAsync(`devices/${device.code}/telemetry`, JSON.stringify({ batteryLevel: 70 }), { qos: 1 });
    const onlineState = async () => (await server!.db.query<{ online_state: string }>('SELECT online_state FROM device WHERE id = $1', [device.id]))[0].online_state;
    while ((await onlineState()) !== 'online') await new Promise((resolve) => setTimeout(resolve, 20));
    const atOnce = await generate(server!, tadmin, device.code, 'valve_open');
    expect((await next(2))[1]).toMatchObject({ id: atOnce, type: 'valve_open', parameters: {} });
    await detailOnce(server!, tadmin, atOnce, (detail) => detail.state === 'sent');
    await client.publishAsync(`devices/${device.code}/commands/reply`, JSON.stringify({ id: atOnce, result: 'failed', message: '阀门卡滞' }), { qos: 1 });
    expect(await detailOnce(server!, tadmin, atOnce, (detail) => detail.state !== 'sent')).toMatchObject({ state: 'failed', message: '阀门卡滞' });
  });

  it('the broker’s ACL lets a device publish its own replies only', async () => {
    const [first, second] = devices;
    expect(await ask('_acl', { username: first.code, topic: `devices/${first.code}/commands/reply`, action: 'publish' })).toBe(true);
    expect(await ask('_acl', { username: first.code, topic: `devices/${second.code}/commands/reply`, action: 'publish' })).toBe(false);
    expect(await ask('_acl', { username: first.code, topic: `devices/${first.code}/commands/reply`, action: 'subscribe' })).toBe(false);
    expect(await ask('_acl', { username: first.code, topic: `devices/${first.code}/commands`, action: 'publish' })).toBe(false);
    // Another device's reply for a command it does not own changes nothing, and is counted once the platform has it.
    const metrics = async () => (await server!.app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    const unknown = async () => replyCount(await metrics(), 'mqtt', 'unknown_command');
    const theirs = await generate(server!, tadmin, second.code, 'reboot');
    const before = await unknown();
    const intruder = await connect(first);
    await intruder.client.publishAsync(`devices/${first.code}/commands/reply`, JSON.stringify({ id: theirs, result: 'ok' }), { qos: 1 });
    while ((await unknown()) === before) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await unknown()).toBe(before + 1);
    expect(await storedCommand(server!, theirs)).toMatchObject({ replied_at: null });
    expect(['pending', 'sent']).toContain((await storedCommand(server!, theirs)).state);
  });

  it('the replies are taken in the readings’ share group when there is one', () => {
    expect(replyTopicOf('$share/iot-platform/devices/+/telemetry')).toBe('$share/iot-platform/devices/+/commands/reply');
    expect(replyTopicOf('devices/+/telemetry')).toBe('devices/+/commands/reply');
  });
});
