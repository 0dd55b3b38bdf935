// Two platform instances on one PostgreSQL and one Mosquitto (issue 36): they share the devices'
// readings through the shared subscription `$share/iot-platform/devices/+/telemetry`, one is killed
// (SIGKILL) under load, and nothing the broker acknowledged to a device is lost. Mosquitto 2.0.11
// does not pass what a dead member never acknowledged to the others, and keeps handing the dead
// member its share: the survivor takes the dead instance's session over once its lease lapsed
// (server/ingest/bridgeSessions.ts), stores what it held and ends it. Commands reach the devices
// through the survivor. The real server processes run (tests/server/serverProcess.ts).
import type { MqttClient } from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenPair } from '../../server/security/tokens';
import { startMosquitto, type Mosquitto } from '../support/mosquitto';
import { copySeededDatabase, DEMO_PASSWORD, postgresCluster } from './harness';
import { connectDevice, eventually, PLATFORM } from './mosquittoHelpers';
import { startServerProcess, type ServerProcess } from './serverProcess';

const DEVICES = 20;
const READINGS_PER_DEVICE = 100;
/** The second instance is killed once this many readings were acknowledged. */
const KILL_AFTER = 600;

let broker: Mosquitto;
let first: ServerProcess;
let second: ServerProcess;
let db: pg.Client;
let token: string;
let devices: Array<{ id: number; code: string; secret: string }>;
const clients: MqttClient[] = [];

const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows;

beforeAll(async () => {
  broker = await startMosquitto(PLATFORM);
  const database = await copySeededDatabase();
  const env = { DATABASE_URL: postgresCluster.appUrl(database), MQTT_URL: broker.url(PLATFORM.user, PLATFORM.password), MQTT_DYNSEC: '1', LOG_LEVEL: 'info' };
  first = await startServerProcess(env);
  second = await startServerProcess(env);
  db = new pg.Client({ connectionString: postgresCluster.adminUrl(database) });
  await db.connect();
  const login = await first.call<TokenPair>('auth.login', { loginName: 'tadmin', password: DEMO_PASSWORD });
  token = login.data!.accessToken;
  const rows = await query<{ id: number; code: string }>(
    `SELECT d.id, d.code FROM device d WHERE d.tenant_code = 'T0001' AND d.deleted_at IS NULL AND d.product_code = 'PRD-WM-NB'
        AND NOT EXISTS (SELECT 1 FROM device s WHERE s.gateway_code = d.code) ORDER BY d.code LIMIT $1`,
    [DEVICES],
  );
  devices = [];
  for (const row of rows) {
    const answer = await first.call<{ secret: string }>('device.credential.reset', { code: row.code }, token);
    expect(answer.code).toBe('200');
    devices.push({ ...row, secret: answer.data!.secret });
  }
  // The broker has every device's account once it confirmed them.
  await eventually(async () => (await query<{ n: number }>('SELECT count(*)::int AS n FROM broker_account WHERE version = confirmed_version')).at(0)?.n, (n) => n === DEVICES, 60_000);
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await first?.stop();
  await second?.stop('SIGKILL');
  await db?.end();
  await broker?.dispose();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('two instances on one Mosquitto', () => {
  it('share the readings; one killed under load, the other takes its session over and every acknowledged reading is stored', async () => {
    const holders = await query<{ holder: string }>('SELECT DISTINCT holder FROM mqtt_bridge_session');
    expect(holders).toHaveLength(2);
    for (const device of devices) clients.push(await connectDevice(broker.port, device.code, device.secret));
    const start = Date.now() - 3_600_000;
    let sent = 0;
    let acknowledged = 0;
    let killed: Promise<number | null> | null = null;
    await Promise.all(
      devices.map(async (device, index) => {
        for (let n = 0; n < READINGS_PER_DEVICE; n += 1) {
          sent += 1;
          const reading = { reportedAt: new Date(start + n * 1000).toISOString(), batteryLevel: 50 + (n % 40), metrics: { level: n } };
          await clients[index].publishAsync(`devices/${device.code}/telemetry`, JSON.stringify(reading), { qos: 1 });
          acknowledged += 1;
          if (acknowledged === KILL_AFTER) killed = second.stop('SIGKILL');
          if (n % 20 === 19) await pause(20);
        }
      }),
    );
    expect(killed).not.toBeNull();
    await killed;
    expect(acknowledged).toBe(sent);
    expect(sent).toBe(DEVICES * READINGS_PER_DEVICE);

    const storedNow = async () =>
      (await query<{ n: number }>('SELECT count(*)::int AS n FROM device_telemetry WHERE device_id = ANY($1::int[]) AND reported_at >= $2', [devices.map((device) => device.id), new Date(start)]))[0].n;
    // The dead instance's lease lapses (15 s), the survivor takes its session over and drains it.
    const stored = await eventually(storedNow, (n) => n === acknowledged, 90_000);
    expect(stored).toBe(acknowledged);
    expect(first.output()).toMatch(/took over session iot-platform-[0-9a-f]{12}/);
    // Only the survivor's own session is left.
    expect(await eventually(async () => (await query('SELECT 1 FROM mqtt_bridge_session')).length, (n) => n === 1, 20_000)).toBe(1);
  }, 150_000);

  it('commands reach a device through the surviving instance', async () => {
    const [device] = devices;
    const client = clients[0];
    const received = new Promise<{ id: number; type: string }>((resolve) => client.once('message', (_topic, payload) => resolve(JSON.parse(payload.toString()) as { id: number; type: string })));
    await client.subscribeAsync(`devices/${device.code}/commands`, { qos: 1 });
    const generated = await first.call<{ id: number; state: string }>('deviceAccess.command.generate', { code: device.code, commandType: 'reboot' }, token);
    expect(generated.code, generated.message).toBe('200');
    const command = await received;
    expect(command).toMatchObject({ id: generated.data!.id, type: 'reboot' });
    await client.publishAsync(`devices/${device.code}/commands/reply`, JSON.stringify({ id: command.id, result: 'ok', message: '即将重启' }), { qos: 1 });
    const settled = await eventually(
      async () => (await first.call<{ state: string }>('deviceAccess.command.detail', { id: command.id }, token)).data?.state,
      (state) => state === 'acknowledged',
    );
    expect(settled).toBe('acknowledged');
  }, 60_000);

  it('a graceful stop ends the instance’s session: none is left behind', async () => {
    expect(await first.stop()).toBe(0);
    expect(await query('SELECT client_id FROM mqtt_bridge_session')).toEqual([]);
  }, 30_000);
});
