// Two instances on one PostgreSQL database, each with its embedded broker (issue 31): a command
// generated on one instance reaches the device whose session the other holds, announced through
// LISTEN/NOTIFY; the device's reply on that instance settles it for both; a device that signs in to
// both brokers at once gets each command once, whichever instance claims it; a device that connects
// later to either gets what waits for it.
import type { FastifyInstance } from 'fastify';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, deviceBrokerOf } from '../../server/app';
import { defaultConfig } from '../../server/config';
import type { Database } from '../../server/db/database';
import { openPostgres } from '../../server/db/postgres';
import { commandableDevices, connectDevice, detailOnce, generate, replyTo, storedCommand, type TestDevice, type WireCommand } from './device-commands-helpers';
import { postgresCluster, startServer, type TestServer } from './harness';

let first: TestServer;
let secondDb: Database;
let second: FastifyInstance;
let tadmin: string;
let devices: TestDevice[];
const clients: MqttClient[] = [];

const brokerOf = (app: FastifyInstance) => `mqtt://127.0.0.1:${deviceBrokerOf(app)!.port}`;

beforeAll(async () => {
  first = await startServer({ config: { mqttPort: 0, mqttHost: '127.0.0.1' } });
  secondDb = openPostgres({ connectionString: postgresCluster.appUrl(first.databaseName!) });
  second = await buildApp({ db: secondDb, config: defaultConfig({ dev: true, mqttPort: 0, mqttHost: '127.0.0.1' }) });
  tadmin = await first.login('tadmin');
  devices = await commandableDevices(first, tadmin, 3, 20);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await second?.close();
  await secondDb?.close();
  await first?.close();
});

async function connect(app: FastifyInstance, device: TestDevice) {
  const connected = await connectDevice(brokerOf(app), device);
  clients.push(connected.client);
  return connected;
}

/** Both instances' senders have nothing under way. */
const settled = () => Promise.all([deviceBrokerOf(first.app)!.commands.idle(), deviceBrokerOf(second)!.commands.idle()]);

describe('two instances on one PostgreSQL database, each with its broker', () => {
  it('a command generated on one instance goes out through the other, which holds the session, and its reply settles it', async () => {
    const device = devices[0];
    const { client, next } = await connect(second, device);
    const id = await generate(first, tadmin, device.code, 'time_sync');
    expect((await next()).id).toBe(id);
    await detailOnce(first, tadmin, id, (detail) => detail.state === 'sent');
    await replyTo(client, device.code, { id, result: 'ok', message: '已校时' });
    expect(await detailOnce(first, tadmin, id, () => true)).toMatchObject({ state: 'acknowledged', message: '已校时' });
  });

  it('a device signed in to both brokers gets each command once', async () => {
    const device = devices[1];
    // One session per broker: the client id is unique within a broker, not across instances.
    const here = await connect(first.app, device);
    const there = await connect(second, device);
    const ids: number[] = [];
    for (const type of ['reboot', 'time_sync', 'valve_open', 'valve_close', 'reboot', 'time_sync']) ids.push(await generate(first, tadmin, device.code, type));
    for (const id of ids) await detailOnce(first, tadmin, id, (detail) => detail.state === 'sent');
    await settled();
    const received: WireCommand[] = [...here.received, ...there.received];
    expect(received.map((command) => command.id).sort((a, b) => a - b)).toEqual(ids);
    // Each session took its commands in id order.
    for (const session of [here, there]) {
      const order = session.received.map((command) => command.id);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
  });

  it('a device that connects later to the other instance gets what waits for it', async () => {
    const device = devices[2];
    const waiting = [await generate(first, tadmin, device.code, 'valve_close'), await generate(first, tadmin, device.code, 'valve_open')];
    expect((await storedCommand(first, waiting[0])).state).toBe('pending');
    const { next } = await connect(second, device);
    expect([(await next()).id, (await next()).id]).toEqual(waiting);
    await detailOnce(first, tadmin, waiting[1], (detail) => detail.state === 'sent');
  });
});
