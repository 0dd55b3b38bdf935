// Devices on open MQTT sessions (issue 30): a credential reset, the recycle bin or a purge closes
// the device's open session at once, and nothing it sent after is stored; a client id belongs to the
// device whose code it is, so another device can neither use it nor take the owner's session over;
// a packet past the report limit closes the connection on its fixed header, before it is read; one
// client has a bounded number of messages in hand at once. Through an external broker (MQTT_URL)
// the platform refuses what it can see: the readings and ACL questions of a device in the recycle
// bin, or reset and not signed in again, and a sign-in under another device's client id.
import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes, type AuthenticateError } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceBrokerOf } from '../../server/app';
import { announceRevokedDevices } from '../../server/ingest/deviceSessions';
import { MQTT_IN_FLIGHT_PER_CLIENT } from '../../server/ingest/mqttLimits';
import type { DeviceCredential } from '../../server/operations/devices/credentials';
import { varint } from '../support/mqttPackets';
import { startServer, type TestServer } from './harness';

const METRICS_TOKEN = 'metrics-token-for-device-sessions-0123';

let server: TestServer;
let tadmin: string;
let brokerUrl: string;
const clients: MqttClient[] = [];

interface Device {
  id: number;
  code: string;
  secret: string;
}
let devices: Device[];

beforeAll(async () => {
  server = await startServer({ config: { metricsToken: METRICS_TOKEN, mqttPort: 0, mqttHost: '127.0.0.1' } });
  tadmin = await server.login('tadmin');
  brokerUrl = `mqtt://127.0.0.1:${deviceBrokerOf(server.app)!.port}`;
  // Devices that are no gateway and carry no sub-device (the recycle bin takes them alone).
  const rows = await server.db.query<{ id: number; code: string }>(
    `SELECT d.id, d.code FROM device d
      WHERE d.tenant_code = 'T0001' AND d.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM device s WHERE s.gateway_code = d.code)
      ORDER BY d.code DESC LIMIT 9`,
  );
  devices = [];
  for (const row of rows) devices.push({ ...row, secret: await resetSecret(row.code) });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await server.close();
});

async function resetSecret(code: string): Promise<string> {
  const answer = await server.call<DeviceCredential & { secret: string }>('device.credential.reset', { code }, { token: tadmin });
  expect(answer.code).toBe('200');
  return answer.data!.secret;
}

async function connect(device: Device, clientId = device.code): Promise<MqttClient> {
  const client = await mqtt.connectAsync(brokerUrl, { username: device.code, password: device.secret, clientId, reconnectPeriod: 0, connectTimeout: 5000 });
  clients.push(client);
  return client;
}

/** Resolves when the server ends the client's connection. */
const closing = (client: MqttClient) => new Promise<void>((resolve) => (client.connected ? client.once('close', () => resolve()) : resolve()));
const historyOf = async (id: number) => (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_telemetry WHERE device_id = $1', [id]))[0].n;
const telemetry = (device: Device) => `devices/${device.code}/telemetry`;
const metrics = async () => (await server.app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
const countOf = (text: string, outcome: string) => Number(new RegExp(`^iot_device_reports_total\\{transport="mqtt",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);

describe('a device that may report no more loses its open session', () => {
  it('a credential reset closes the session at once; the old secret signs in no more, the new one does', async () => {
    const device = devices[0];
    const client = await connect(device);
    await client.publishAsync(telemetry(device), JSON.stringify({ batteryLevel: 41 }), { qos: 1 });
    const history = await historyOf(device.id);
    const closed = closing(client);
    const oldSecret = device.secret;
    device.secret = await resetSecret(device.code);
    await closed;
    expect(client.connected).toBe(false);
    expect(await historyOf(device.id)).toBe(history);
    await expect(connect({ ...device, secret: oldSecret })).rejects.toThrow(/Bad username or password/);
    const renewed = await connect(device);
    await renewed.publishAsync(telemetry(device), JSON.stringify({ batteryLevel: 42 }), { qos: 1 });
    expect(await historyOf(device.id)).toBe(history + 1);
  });

  it('moving the device to the recycle bin closes its session, and nothing more of it is stored', async () => {
    const device = devices[1];
    const client = await connect(device);
    await client.publishAsync(telemetry(device), JSON.stringify({ batteryLevel: 30 }), { qos: 1 });
    const history = await historyOf(device.id);
    const closed = closing(client);
    expect((await server.call('device.delete', { code: device.code }, { token: tadmin })).code).toBe('200');
    await closed;
    expect(await historyOf(device.id)).toBe(history);
    await expect(connect(device)).rejects.toThrow(/Bad username or password/);
  });

  it('a purge from the recycle bin closes a session that was still open', async () => {
    const device = devices[2];
    const client = await connect(device);
    // In the bin without its announcement (as by hand in the database): only the purge can tell.
    await server.db.query("UPDATE device SET deleted_at = now(), deleted_by = 'test', recycle_reason = 'deleted' WHERE id = $1", [device.id]);
    const closed = closing(client);
    expect((await server.call('device.recycle.delete', { codes: [device.code] }, { token: tadmin })).code).toBe('200');
    await closed;
    expect(client.connected).toBe(false);
  });

  it('the periodic check closes a session whose secret changed without an announcement', async () => {
    const device = devices[3];
    const broker = deviceBrokerOf(server.app)!;
    const client = await connect(device);
    const other = await connect(devices[4]);
    expect(await broker.recheckSessions()).toBe(0);
    await server.db.query("UPDATE device_credential SET secret_hash = repeat('0', 64) WHERE device_id = $1", [device.id]);
    const closed = closing(client);
    expect(await broker.recheckSessions()).toBe(1);
    await closed;
    expect(other.connected).toBe(true);
  });
});

describe('an announcement heard late', () => {
  it('closes nothing the device opened after the change: its new session, signed in with the new secret, stays', async () => {
    const [row] = await server.db.query<{ id: number; code: string }>(
      `SELECT d.id, d.code FROM device d
        WHERE d.tenant_code = 'T0001' AND d.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM device s WHERE s.gateway_code = d.code)
        ORDER BY d.code LIMIT 1 OFFSET 1`,
    );
    const device: Device = { id: row.id, code: row.code, secret: await resetSecret(row.code) };
    const client = await connect(device);
    // The reset's announcement again, as an instance hears it when it arrives after the device
    // already signed in again with its new secret.
    await server.db.transaction((tx) => announceRevokedDevices(tx, [device.id]));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.connected).toBe(true);
    const history = await historyOf(device.id);
    await client.publishAsync(telemetry(device), JSON.stringify({ batteryLevel: 61 }), { qos: 1 });
    expect(await historyOf(device.id)).toBe(history + 1);
  });
});

describe('a device moved to another organisation or product', () => {
  it('device.transfer closes its session, and it signs in again with the same secret to where it is now; a new name alone leaves the session open', async () => {
    // A device of its own (the others are taken from the end of the codes) and a site it is not at.
    const [row] = await server.db.query<{ id: number; code: string; organization_code: string }>(
      `SELECT d.id, d.code, d.organization_code FROM device d
        WHERE d.tenant_code = 'T0001' AND d.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM device s WHERE s.gateway_code = d.code)
        ORDER BY d.code LIMIT 1`,
    );
    const [site] = await server.db.query<{ organization_code: string }>(
      "SELECT DISTINCT organization_code FROM device WHERE tenant_code = 'T0001' AND organization_code <> $1 ORDER BY organization_code LIMIT 1",
      [row.organization_code],
    );
    const device: Device = { id: row.id, code: row.code, secret: await resetSecret(row.code) };
    const client = await connect(device);
    const closed = closing(client);
    expect((await server.call('device.transfer', { codes: [device.code], organizationCode: site.organization_code }, { token: tadmin })).code).toBe('200');
    await closed;
    const again = await connect(device);
    const history = await historyOf(device.id);
    await again.publishAsync(telemetry(device), JSON.stringify({ batteryLevel: 55 }), { qos: 1 });
    expect(await historyOf(device.id)).toBe(history + 1);

    const detail = await server.call<Record<string, unknown>>('device.detail', { code: device.code }, { token: tadmin });
    const fields = { code: device.code, name: `${String(detail.data?.name ?? '设备')}-改`, productCode: String(detail.data?.productCode), organizationCode: site.organization_code };
    expect((await server.call('device.modify', { code: device.code, device: fields }, { token: tadmin })).code).toBe('200');
    // Still connected: a reading it publishes after the rename is acknowledged and stored.
    await again.publishAsync(telemetry(device), JSON.stringify({ batteryLevel: 56 }), { qos: 1 });
    expect(again.connected).toBe(true);
    expect(await historyOf(device.id)).toBe(history + 2);
  });
});

describe('a client id belongs to the device whose code it is', () => {
  it('another device connecting with the owner’s client id is refused, and the owner keeps its session', async () => {
    const [owner, other] = [devices[5], devices[6]];
    const client = await connect(owner);
    await expect(connect(other, owner.code)).rejects.toThrow(/Identifier rejected/);
    expect(client.connected).toBe(true);
    const history = await historyOf(owner.id);
    await client.publishAsync(telemetry(owner), JSON.stringify({ batteryLevel: 77 }), { qos: 1 });
    expect(await historyOf(owner.id)).toBe(history + 1);
  });

  it('a device may use no client id but its code', async () => {
    const device = devices[6];
    await expect(connect(device, `${device.code}-2`)).rejects.toThrow(/Identifier rejected/);
    await expect(connect(device, '')).rejects.toThrow(/Identifier rejected/);
  });
});

describe('what one device may send', () => {
  it('a report of 16 KiB is stored; one byte more closes the connection, stored nowhere and counted too large', async () => {
    const device = devices[7];
    const client = await connect(device);
    const history = await historyOf(device.id);
    const body = (size: number, batteryLevel: number) => {
      const json = JSON.stringify({ batteryLevel });
      return json + ' '.repeat(size - json.length);
    };
    await client.publishAsync(telemetry(device), body(16 * 1024, 50), { qos: 1 });
    expect(await historyOf(device.id)).toBe(history + 1);
    const before = countOf(await metrics(), 'too_large');
    const closed = closing(client);
    client.publish(telemetry(device), body(16 * 1024 + 1, 51), { qos: 1 });
    await closed;
    expect(await historyOf(device.id)).toBe(history + 1);
    expect(countOf(await metrics(), 'too_large') - before).toBe(1);
  });

  it('a packet announced past the limit closes the connection on its header, before its body is sent', async () => {
    const device = devices[7];
    const client = await connect(device);
    const closed = closing(client);
    // A PUBLISH (QoS 0) announcing 2 MB: the fixed header, then a first kilobyte of it, and no more.
    const header = Buffer.concat([Buffer.from([0x30]), varint(2 * 1024 * 1024)]);
    expect(header).toEqual(Buffer.from([0x30, 0x80, 0x80, 0x80, 0x01]));
    client.stream.write(Buffer.concat([header, Buffer.alloc(1024, 0x5b)]));
    await closed;
    expect(client.connected).toBe(false);
  });

  it('a burst of one device’s readings is handled a few at a time, every one stored and acknowledged', async () => {
    const device = devices[8];
    const broker = deviceBrokerOf(server.app)!;
    const client = await connect(device);
    const history = await historyOf(device.id);
    const start = server.now().getTime() - 600_000;
    const readings = Array.from({ length: 120 }, (_, k) => JSON.stringify({ reportedAt: new Date(start + k * 1000).toISOString(), batteryLevel: k % 100 }));
    await Promise.all(readings.map((reading) => client.publishAsync(telemetry(device), reading, { qos: 1 })));
    expect(await historyOf(device.id)).toBe(history + readings.length);
    const peak = broker.peakInFlight(device.id);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(MQTT_IN_FLIGHT_PER_CLIENT);
  });
});

describe('through an external broker (MQTT_URL)', () => {
  const PLATFORM = { user: 'iot-platform', password: 'platform-broker-password-4567' };
  let bridged: TestServer;
  let external: Aedes;
  let externalServer: Server;
  let device: Device;
  let admin: string;

  /** The platform's answer to the broker's question (what EMQX would POST). */
  const ask = async (path: '_auth' | '_acl', body: object) =>
    (await bridged.app.inject({ method: 'POST', url: `/api/device/mqtt/${path}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) })).json<{ result: string }>().result === 'allow';
  const bridgedMetrics = async () => (await bridged.app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
  const bridgedHistory = async () => (await bridged.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_telemetry WHERE device_id = $1', [device.id]))[0].n;
  const resetBridged = async (code: string) => (await bridged.call<{ secret: string }>('device.credential.reset', { code }, { token: admin })).data!.secret;
  async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  /** A reading as the broker passes it on, whichever session sent it (one the broker did not ask the ACL for: EMQX caches its answers). */
  const arrive = (payload: string) => new Promise<void>((resolve, reject) => external.publish({ cmd: 'publish', topic: `devices/${device.code}/telemetry`, payload: Buffer.from(payload), qos: 1, retain: false, dup: false }, (error) => (error ? reject(error) : resolve())));
  /** A reading passes through the broker, and the bridge counts it with this outcome. */
  async function passedOn(payload: string, outcome: string) {
    const before = countOf(await bridgedMetrics(), outcome);
    await arrive(payload);
    await eventually(async () => countOf(await bridgedMetrics(), outcome), (n) => n === before + 1);
  }

  beforeAll(async () => {
    external = await Aedes.createBroker({
      authenticate(client, username, password, done) {
        const given = password?.toString('utf8') ?? '';
        if (username === PLATFORM.user) return done(null, given === PLATFORM.password);
        void ask('_auth', { username, password: given, clientid: client.id }).then((allowed) => done(allowed ? null : (Object.assign(new Error('denied'), { returnCode: 4 }) as AuthenticateError), allowed));
      },
    });
    externalServer = createServer(external.handle);
    await new Promise<void>((resolve) => externalServer.listen(0, '127.0.0.1', resolve));
    const port = (externalServer.address() as AddressInfo).port;
    bridged = await startServer({ config: { metricsToken: METRICS_TOKEN, mqttUrl: `mqtt://${PLATFORM.user}:${PLATFORM.password}@127.0.0.1:${port}`, mqttTopic: 'devices/+/telemetry' } });
    admin = await bridged.login('tadmin');
    const [row] = await bridged.db.query<{ id: number; code: string }>(
      `SELECT d.id, d.code FROM device d WHERE d.tenant_code = 'T0001' AND d.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM device s WHERE s.gateway_code = d.code) ORDER BY d.code LIMIT 1`,
    );
    device = { ...row, secret: await resetBridged(row.code) };
  });
  afterAll(async () => {
    await bridged?.close();
    await new Promise<void>((resolve) => external.close(() => resolve()));
    await new Promise<void>((resolve) => externalServer.close(() => resolve()));
  });

  it('after a reset the old session’s readings and ACL questions are refused until the device signs in with the new secret', async () => {
    const session = await mqtt.connectAsync(`mqtt://127.0.0.1:${(externalServer.address() as AddressInfo).port}`, { username: device.code, password: device.secret, clientId: device.code, reconnectPeriod: 0 });
    clients.push(session);
    const publishAcl = { username: device.code, topic: `devices/${device.code}/telemetry`, action: 'publish' };
    expect(await ask('_acl', publishAcl)).toBe(true);
    const history = await bridgedHistory();
    await passedOn(JSON.stringify({ batteryLevel: 61 }), 'accepted');
    expect(await bridgedHistory()).toBe(history + 1);

    const oldSecret = device.secret;
    device.secret = await resetBridged(device.code);
    // The broker keeps the old session open; the platform answers for it no more.
    expect(session.connected).toBe(true);
    expect(await ask('_acl', publishAcl)).toBe(false);
    await passedOn(JSON.stringify({ batteryLevel: 62 }), 'bad_credentials');
    expect(await bridgedHistory()).toBe(history + 1);
    expect(await ask('_auth', { username: device.code, password: oldSecret, clientid: device.code })).toBe(false);
    // Under another client id, not even with the new secret.
    expect(await ask('_auth', { username: device.code, password: device.secret, clientid: `${device.code}-2` })).toBe(false);
    expect(await ask('_auth', { username: device.code, password: device.secret, clientid: device.code })).toBe(true);
    expect(await ask('_acl', publishAcl)).toBe(true);
    await passedOn(JSON.stringify({ batteryLevel: 63 }), 'accepted');
    expect(await bridgedHistory()).toBe(history + 2);
    await passedOn(JSON.stringify({ batteryLevel: 64 }) + ' '.repeat(16 * 1024), 'too_large');
  });

  it('a device in the recycle bin is denied and its readings refused', async () => {
    expect((await bridged.call('device.delete', { code: device.code }, { token: admin })).code).toBe('200');
    expect(await ask('_acl', { username: device.code, topic: `devices/${device.code}/telemetry`, action: 'publish' })).toBe(false);
    expect(await ask('_acl', { username: device.code, topic: `devices/${device.code}/commands`, action: 'subscribe' })).toBe(false);
    expect(await ask('_auth', { username: device.code, password: device.secret, clientid: device.code })).toBe(false);
    const history = await bridgedHistory();
    await passedOn(JSON.stringify({ batteryLevel: 65 }), 'unknown_device');
    expect(await bridgedHistory()).toBe(history);
  });
});
