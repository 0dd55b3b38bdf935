// An external broker in place of the embedded one (MQTT_URL, issue 22): the broker asks the platform
// who may sign in and what each device may publish or subscribe to, the platform subscribes there
// and stores what devices publish, and /api/ready names a broker it cannot reach. The "external"
// broker here is an Aedes of the test's own that asks the platform's endpoints, as EMQX's HTTP
// authentication and authorization would.
import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes, type AuthenticateError } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import type { DeviceCredential } from '../../server/operations/devices/credentials';
import { startServer, type TestServer } from './harness';

const PLATFORM = { user: 'iot-platform', password: 'platform-broker-password-0123' };
const METRICS_TOKEN = 'metrics-token-for-mqtt-bridge-0123456';

let server: TestServer | null = null;
let broker: Aedes;
let brokerServer: Server;
let brokerUrl: string;
let devices: Array<{ id: number; code: string; secret: string }>;
const clients: MqttClient[] = [];

/** The platform's answer to the broker's question (what EMQX would POST). */
async function ask(path: string, body: object): Promise<boolean> {
  if (!server) return false;
  const reply = await server.app.inject({ method: 'POST', url: `/api/device/mqtt/${path}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return reply.json<{ result: string }>().result === 'allow';
}

beforeAll(async () => {
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
  const clientUsers = new Map<string, string>();
  broker.on('client', (client) => clientUsers.set(client.id, client.id.split('~')[0]));
  brokerServer = createServer(broker.handle);
  await new Promise<void>((resolve) => brokerServer.listen(0, '127.0.0.1', resolve));
  const port = (brokerServer.address() as AddressInfo).port;
  brokerUrl = `mqtt://127.0.0.1:${port}`;
  server = await startServer({
    config: { metricsToken: METRICS_TOKEN, mqttUrl: `mqtt://${PLATFORM.user}:${PLATFORM.password}@127.0.0.1:${port}`, mqttTopic: 'devices/+/telemetry' },
  });
  const tadmin = await server.login('tadmin');
  const rows = await server.db.query<{ id: number; code: string }>("SELECT id, code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL ORDER BY code DESC OFFSET 5 LIMIT 2");
  devices = [];
  for (const row of rows) {
    const answer = await server.call<DeviceCredential & { secret: string }>('device.credential.reset', { code: row.code }, { token: tadmin });
    devices.push({ ...row, secret: answer.data!.secret });
  }
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await server?.close();
  await new Promise<void>((resolve) => broker.close(() => resolve()));
  await new Promise<void>((resolve) => brokerServer.close(() => resolve()));
});

/** A device's connection to the external broker; its client id carries its code for the test broker's ACL questions. */
async function connect(code: string, secret: string): Promise<MqttClient> {
  const client = await mqtt.connectAsync(brokerUrl, { username: code, password: secret, clientId: `${code}~${clients.length}`, reconnectPeriod: 0, connectTimeout: 5000 });
  clients.push(client);
  return client;
}

const historyOf = async (id: number) => (await server!.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_telemetry WHERE device_id = $1', [id]))[0].n;

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('an external broker (MQTT_URL)', () => {
  it('the platform stores what a device publishes there', async () => {
    const [device] = devices;
    const history = await historyOf(device.id);
    const client = await connect(device.code, device.secret);
    await client.publishAsync(`devices/${device.code}/telemetry`, JSON.stringify({ batteryLevel: 33, metrics: { level: 2.5 } }), { qos: 1 });
    expect(await eventually(() => historyOf(device.id), (n) => n === history + 1)).toBe(history + 1);
    const [row] = await server!.db.query<{ online_state: string; battery_level: number }>('SELECT online_state, battery_level FROM device WHERE id = $1', [device.id]);
    expect(row).toEqual({ online_state: 'online', battery_level: 33 });
  });

  it('the broker asks the platform: a wrong secret or an unknown device may not sign in', async () => {
    await expect(connect(devices[0].code, 'wrong-secret')).rejects.toThrow(/Bad username or password/);
    await expect(connect('ZZZZ00000000', devices[0].secret)).rejects.toThrow(/Bad username or password/);
    expect(await ask('_auth', { username: devices[0].code, password: devices[0].secret })).toBe(true);
    expect(await ask('_auth', {})).toBe(false);
  });

  it('a device may publish only its own readings and subscribe only to its own commands', async () => {
    const [first, second] = devices;
    expect(await ask('_acl', { username: first.code, topic: `devices/${first.code}/telemetry`, action: 'publish' })).toBe(true);
    expect(await ask('_acl', { username: first.code, topic: `devices/${second.code}/telemetry`, action: 'publish' })).toBe(false);
    expect(await ask('_acl', { username: first.code, topic: `devices/${first.code}/commands`, action: 'subscribe' })).toBe(true);
    expect(await ask('_acl', { username: first.code, topic: 'devices/+/telemetry', action: 'subscribe' })).toBe(false);
    const history = await historyOf(second.id);
    const intruder = await connect(first.code, first.secret);
    const closed = new Promise<void>((resolve) => intruder.once('close', () => resolve()));
    intruder.publish(`devices/${second.code}/telemetry`, JSON.stringify({ batteryLevel: 1 }), { qos: 1 });
    await closed;
    expect(await historyOf(second.id)).toBe(history);
  });

  it('a bad reading published there is counted and dropped', async () => {
    const [, device] = devices;
    const metrics = async () => (await server!.app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    const outOfRange = (text: string) => Number(/^iot_device_reports_total\{transport="mqtt",outcome="out_of_range"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    const before = outOfRange(await metrics());
    const history = await historyOf(device.id);
    const client = await connect(device.code, device.secret);
    await client.publishAsync(`devices/${device.code}/telemetry`, JSON.stringify({ batteryLevel: 500 }), { qos: 1 });
    expect(await eventually(async () => outOfRange(await metrics()), (n) => n === before + 1)).toBe(before + 1);
    expect(await historyOf(device.id)).toBe(history);
  });

  it('/api/ready names a broker the platform cannot reach', async () => {
    expect((await server!.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    const ready = await eventually(
      () => server!.app.inject({ method: 'GET', url: '/api/ready' }),
      (reply) => reply.statusCode === 503,
    );
    expect(ready.json()).toEqual({ status: 'not ready', problems: ['mqtt: not connected to MQTT_URL'] });
  });

  it('MQTT_URL must name a broker, and not together with MQTT_PORT', () => {
    expect(configFromEnv({ MQTT_URL: 'mqtt://u:p@broker:1883' })).toMatchObject({ mqttUrl: 'mqtt://u:p@broker:1883', mqttTopic: '$share/iot-platform/devices/+/telemetry' });
    expect(() => configFromEnv({ MQTT_URL: 'http://broker' })).toThrow('MQTT_URL must be a broker address like mqtt://user:password@broker:1883');
    expect(() => configFromEnv({ MQTT_URL: 'mqtt://broker', MQTT_PORT: '1883' })).toThrow('MQTT_URL and MQTT_PORT: choose one broker (an external one, or the embedded one)');
  });
});
