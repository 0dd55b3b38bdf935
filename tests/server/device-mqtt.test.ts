// Devices report over MQTT to the embedded broker (issue 22): a device signs in with its code and
// secret, its readings on devices/<code>/telemetry are stored before they are acknowledged, a wrong
// secret or another device's topic is refused, a bad reading is counted and dropped without closing
// the connection, and /api/ready names a broker that no longer takes connections.
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceBrokerOf } from '../../server/app';
import { configFromEnv } from '../../server/config';
import type { DeviceCredential } from '../../server/operations/devices/credentials';
import { startServer, type TestServer } from './harness';

const METRICS_TOKEN = 'metrics-token-for-device-mqtt-012345';

let server: TestServer;
let tadmin: string;
let brokerUrl: string;
let devices: Array<{ id: number; code: string; secret: string }>;
const clients: MqttClient[] = [];

beforeAll(async () => {
  server = await startServer({ config: { metricsToken: METRICS_TOKEN, mqttPort: 0, mqttHost: '127.0.0.1' } });
  tadmin = await server.login('tadmin');
  brokerUrl = `mqtt://127.0.0.1:${deviceBrokerOf(server.app)!.port}`;
  const rows = await server.db.query<{ id: number; code: string }>(
    "SELECT id, code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL AND online_state = 'offline' ORDER BY code DESC LIMIT 2",
  );
  devices = [];
  for (const row of rows) {
    const answer = await server.call<DeviceCredential & { secret: string }>('device.credential.reset', { code: row.code }, { token: tadmin });
    devices.push({ ...row, secret: answer.data!.secret });
  }
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await server.close();
});

async function connect(username: string, password: string): Promise<MqttClient> {
  const client = await mqtt.connectAsync(brokerUrl, { username, password, reconnectPeriod: 0, connectTimeout: 5000, clientId: username });
  clients.push(client);
  return client;
}

const deviceRow = async (id: number) =>
  (await server.db.query<{ online_state: string; battery_level: number | null }>('SELECT online_state, battery_level FROM device WHERE id = $1', [id]))[0];
const historyOf = async (id: number) => (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_telemetry WHERE device_id = $1', [id]))[0].n;
const metrics = async () => (await server.app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
const countOf = (text: string, outcome: string) => Number(new RegExp(`^iot_device_reports_total\\{transport="mqtt",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);

describe('the embedded MQTT broker', () => {
  it('stores a device’s reading before it acknowledges it, and puts the device online', async () => {
    const [device] = devices;
    const client = await connect(device.code, device.secret);
    const history = await historyOf(device.id);
    await client.publishAsync(`devices/${device.code}/telemetry`, JSON.stringify({ batteryLevel: 66, metrics: { level: 1.5 } }), { qos: 1 });
    // The PUBACK came after the write: no waiting needed.
    expect(await historyOf(device.id)).toBe(history + 1);
    expect(await deviceRow(device.id)).toEqual({ online_state: 'online', battery_level: 66 });
  });

  it('refuses a wrong secret, an unknown device and no credentials at all, and counts them', async () => {
    const before = await metrics();
    await expect(connect(devices[0].code, 'wrong-secret')).rejects.toThrow(/Bad username or password/);
    await expect(connect('ZZZZ00000000', devices[0].secret)).rejects.toThrow(/Bad username or password/);
    await expect(mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0, connectTimeout: 5000 })).rejects.toThrow(/Bad username or password/);
    const after = await metrics();
    expect(countOf(after, 'bad_credentials') - countOf(before, 'bad_credentials')).toBe(1);
    expect(countOf(after, 'unknown_device') - countOf(before, 'unknown_device')).toBe(2);
  });

  it('counts and drops a bad reading, and the device stays connected', async () => {
    const [device] = devices;
    const client = await connect(device.code, device.secret);
    const before = await metrics();
    const history = await historyOf(device.id);
    await client.publishAsync(`devices/${device.code}/telemetry`, '{"batteryLevel":', { qos: 1 });
    await client.publishAsync(`devices/${device.code}/telemetry`, JSON.stringify({ batteryLevel: 300 }), { qos: 1 });
    await client.publishAsync(`devices/${device.code}/telemetry`, JSON.stringify({ batteryLevel: 12 }), { qos: 1 });
    expect(client.connected).toBe(true);
    expect(await historyOf(device.id)).toBe(history + 1);
    expect((await deviceRow(device.id)).battery_level).toBe(12);
    const after = await metrics();
    expect(countOf(after, 'bad_json') - countOf(before, 'bad_json')).toBe(1);
    expect(countOf(after, 'out_of_range') - countOf(before, 'out_of_range')).toBe(1);
    expect(countOf(after, 'accepted') - countOf(before, 'accepted')).toBe(1);
  });

  it('a device may neither report as another nor listen to another’s topics', async () => {
    const [first, second] = devices;
    const listener = await connect(first.code, first.secret);
    // Refused in the SUBACK (128, which the client reports as an error); the connection stays.
    await expect(listener.subscribeAsync(`devices/${second.code}/commands`, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    expect(listener.connected).toBe(true);
    expect((await listener.subscribeAsync(`devices/${first.code}/commands`, { qos: 1 }))[0].qos).toBe(1);
    const history = await historyOf(second.id);
    const intruder = await connect(first.code, first.secret);
    const closed = new Promise<void>((resolve) => intruder.once('close', () => resolve()));
    intruder.publish(`devices/${second.code}/telemetry`, JSON.stringify({ batteryLevel: 1 }), { qos: 1 });
    await closed;
    expect(await historyOf(second.id)).toBe(history);
  });

  it('a reset secret signs in no more', async () => {
    const [, second] = devices;
    const answer = await server.call<{ secret: string }>('device.credential.reset', { code: second.code }, { token: tadmin });
    await expect(connect(second.code, second.secret)).rejects.toThrow(/Bad username or password/);
    second.secret = answer.data!.secret;
    expect((await connect(second.code, second.secret)).connected).toBe(true);
  });

  it('/api/ready names a broker that no longer takes connections', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    await deviceBrokerOf(server.app)!.close();
    const ready = await server.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'not ready', problems: ['mqtt: the device broker does not take connections'] });
  });
});

describe('MQTT_PORT and MQTT_HOST', () => {
  it('no broker unless MQTT_PORT is set; a port out of range is refused at start; devices are on the network by default', () => {
    expect(configFromEnv({}).mqttPort).toBeUndefined();
    expect(configFromEnv({ MQTT_PORT: '' }).mqttPort).toBeUndefined();
    expect(configFromEnv({ MQTT_PORT: '1883' })).toMatchObject({ mqttPort: 1883, mqttHost: '0.0.0.0' });
    expect(configFromEnv({ MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' })).toMatchObject({ mqttPort: 0, mqttHost: '127.0.0.1' });
    expect(() => configFromEnv({ MQTT_PORT: '70000' })).toThrow('MQTT_PORT must be a port number from 0 to 65535, got "70000"');
    expect(() => configFromEnv({ MQTT_PORT: 'mqtt' })).toThrow(/MQTT_PORT/);
  });
});
