// Two instances on one PostgreSQL database, each with its embedded broker (issue 30): a credential
// reset, the recycle bin or a purge made on one instance closes the device's session held by the
// other, through the announcement (LISTEN/NOTIFY) at the change's commit; the client-id rule holds
// on both.
import type { FastifyInstance } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, deviceBrokerOf } from '../../server/app';
import { defaultConfig } from '../../server/config';
import type { Database } from '../../server/db/database';
import { openPostgres } from '../../server/db/postgres';
import type { Envelope } from '../../server/http/envelope';
import { catalogue, postgresCluster, startServer, type TestServer } from './harness';

let first: TestServer;
let secondDb: Database;
let second: FastifyInstance;
let tadmin: string;
const clients: MqttClient[] = [];
let devices: Array<{ id: number; code: string; secret: string }>;

const brokerOf = (app: FastifyInstance) => `mqtt://127.0.0.1:${deviceBrokerOf(app)!.port}`;

/** An operation called on the second instance (the session token is the first's: sessions live in the database). */
async function callSecond<T>(name: string, param: unknown): Promise<Envelope<T>> {
  const reply = await second.inject({ method: 'POST', url: `/api${catalogue[name].path}`, headers: { 'content-type': 'application/json', token: tadmin }, payload: JSON.stringify({ param }) });
  return reply.json<Envelope<T>>();
}

beforeAll(async () => {
  first = await startServer({ config: { mqttPort: 0, mqttHost: '127.0.0.1' } });
  secondDb = openPostgres({ connectionString: postgresCluster.appUrl(first.databaseName!) });
  second = await buildApp({ db: secondDb, config: defaultConfig({ dev: true, mqttPort: 0, mqttHost: '127.0.0.1' }) });
  tadmin = await first.login('tadmin');
  const rows = await first.db.query<{ id: number; code: string }>(
    `SELECT d.id, d.code FROM device d
      WHERE d.tenant_code = 'T0001' AND d.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM device s WHERE s.gateway_code = d.code)
      ORDER BY d.code DESC OFFSET 20 LIMIT 5`,
  );
  devices = [];
  for (const row of rows) {
    const answer = await first.call<{ secret: string }>('device.credential.reset', { code: row.code }, { token: tadmin });
    devices.push({ ...row, secret: answer.data!.secret });
  }
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await second?.close();
  await secondDb?.close();
  await first?.close();
});

async function connect(url: string, device: { code: string; secret: string }, clientId = device.code): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, { username: device.code, password: device.secret, clientId, reconnectPeriod: 0, connectTimeout: 5000 });
  clients.push(client);
  return client;
}
const closing = (client: MqttClient) => new Promise<void>((resolve) => (client.connected ? client.once('close', () => resolve()) : resolve()));

describe('two instances on one PostgreSQL database, each with its broker', () => {
  it('a reset on one instance closes the device’s session on the other', async () => {
    const device = devices[0];
    const session = await connect(brokerOf(second), device);
    const bystander = await connect(brokerOf(second), devices[3]);
    const closed = closing(session);
    const answer = await first.call<{ secret: string }>('device.credential.reset', { code: device.code }, { token: tadmin });
    expect(answer.code).toBe('200');
    await closed;
    expect(bystander.connected).toBe(true);
    device.secret = answer.data!.secret;
    expect((await connect(brokerOf(second), device)).connected).toBe(true);
  });

  it('the recycle bin on one instance closes the session on the other, and the other way round', async () => {
    const [, onSecond, onFirst] = devices;
    const there = await connect(brokerOf(second), onSecond);
    const closedThere = closing(there);
    expect((await first.call('device.delete', { code: onSecond.code }, { token: tadmin })).code).toBe('200');
    await closedThere;
    const here = await connect(brokerOf(first.app), onFirst);
    const closedHere = closing(here);
    expect((await callSecond('device.batchDelete', { codes: [onFirst.code] })).code).toBe('200');
    await closedHere;
  });

  it('a session that escaped its announcement is closed by the purge made on the other instance', async () => {
    const device = devices[3];
    const session = await connect(brokerOf(first.app), device);
    await first.db.query("UPDATE device SET deleted_at = now(), deleted_by = 'test', recycle_reason = 'deleted' WHERE id = $1", [device.id]);
    const closed = closing(session);
    expect((await callSecond('device.recycle.delete', { codes: [device.code] })).code).toBe('200');
    await closed;
  });

  it('another device may not use a client id on either broker', async () => {
    const [owner] = devices;
    const session = await connect(brokerOf(first.app), owner);
    const intruder = devices[4];
    await expect(connect(brokerOf(second), intruder, owner.code)).rejects.toThrow(/Identifier rejected/);
    await expect(connect(brokerOf(first.app), intruder, owner.code)).rejects.toThrow(/Identifier rejected/);
    expect(session.connected).toBe(true);
  });
});
