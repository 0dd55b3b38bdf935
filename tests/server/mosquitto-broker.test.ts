// A real broker beside the embedded one (issue 36): Debian's Mosquitto 2 with its dynamic-security
// plugin as MQTT_URL, MQTT_DYNSEC=1. The platform keeps the broker's own device accounts in step
// with the credentials it issues (a client per device, its password changed at a reset, disabled in
// the recycle bin, deleted when purged, a role allowing the device's own topics only), keeps a change
// pending while the broker is away or refuses it, and makes the broker's list equal to its own. The
// test starts Mosquitto itself (tests/support/mosquitto.ts) and asks the broker, not the platform,
// what it holds.
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { bridgeOf } from '../../server/ingest/mqttBridge';
import { startMosquitto, type Mosquitto } from '../support/mosquitto';
import { commandableDevices, detailOnce, generate, replyTo, type TestDevice } from './device-commands-helpers';
import { startServer, type TestServer } from './harness';
import { accountOf, confirmed, connectDevice, eventually, PLATFORM, refusal, storedReadings } from './mosquittoHelpers';

let broker: Mosquitto;
let server: TestServer;
let tadmin: string;
const clients: MqttClient[] = [];
let devices: TestDevice[];

beforeAll(async () => {
  broker = await startMosquitto(PLATFORM);
  server = await startServer({ config: { mqttUrl: broker.url(PLATFORM.user, PLATFORM.password), mqttDynsec: true } });
  tadmin = await server.login('tadmin');
  devices = await commandableDevices(server, tadmin, 8);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await server?.close();
  await broker?.dispose();
});

async function device(code: string, secret: string): Promise<MqttClient> {
  const client = await connectDevice(broker.port, code, secret);
  clients.push(client);
  return client;
}

let readingClock = Date.now() - 3_600_000;
/** A reading with a time of its own (stored once per device and time). */
const reading = (batteryLevel: number) => JSON.stringify({ reportedAt: new Date((readingClock += 1000)).toISOString(), batteryLevel });

async function reset(code: string): Promise<string> {
  const answer = await server.call<{ secret: string }>('device.credential.reset', { code }, { token: tadmin });
  expect(answer.code).toBe('200');
  return answer.data!.secret;
}

const closedOf = (client: MqttClient) => new Promise<void>((resolve) => client.once('close', () => resolve()));

describe('the broker’s own device accounts (MQTT_DYNSEC)', () => {
  it('MQTT_DYNSEC is on or off, and only with MQTT_URL', () => {
    expect(configFromEnv({ MQTT_URL: 'mqtt://broker', MQTT_DYNSEC: '1' }).mqttDynsec).toBe(true);
    expect(configFromEnv({ MQTT_URL: 'mqtt://broker' }).mqttDynsec).toBe(false);
    expect(() => configFromEnv({ MQTT_DYNSEC: '1' })).toThrow('MQTT_DYNSEC needs MQTT_URL');
    expect(() => configFromEnv({ MQTT_URL: 'mqtt://broker', MQTT_DYNSEC: 'yes' })).toThrow('MQTT_DYNSEC must be on or off');
  });

  it('a credential issued makes the device’s client, signing in as itself only, with rights to its own topics only', async () => {
    const [mine, theirs] = devices;
    expect(await confirmed(server.db, mine.code)).toMatchObject({ wanted: 'enabled', pending: false, password_kept: false, needs_reset: false });
    const role = await broker.read('getRole', `device-${mine.code}`);
    for (const acl of [`publishClientSend.*devices/${mine.code}/telemetry`, `publishClientSend.*devices/${mine.code}/commands/reply`, `subscribeLiteral.*devices/${mine.code}/commands`]) expect(role).toMatch(new RegExp(acl));
    expect(await broker.read('getClient', mine.code)).toMatch(new RegExp(`Clientid:\\s+${mine.code}`));

    const client = await device(mine.code, mine.secret);
    const [before, theirsBefore] = [await storedReadings(server.db, mine.id), await storedReadings(server.db, theirs.id)];
    await client.publishAsync(`devices/${mine.code}/telemetry`, reading(41), { qos: 1 });
    expect(await eventually(() => storedReadings(server.db, mine.id), (n) => n === before + 1)).toBe(before + 1);
    await expect(client.publishAsync(`devices/${theirs.code}/telemetry`, reading(42), { qos: 1 })).rejects.toThrow(/Not authorized/);
    await expect(client.subscribeAsync('devices/+/telemetry', { qos: 1 })).rejects.toThrow(/Not authorized/);
    await expect(client.subscribeAsync(`devices/${theirs.code}/commands`, { qos: 1 })).rejects.toThrow(/Not authorized/);
    expect(await client.subscribeAsync(`devices/${mine.code}/commands`, { qos: 1 })).toMatchObject([{ topic: `devices/${mine.code}/commands`, qos: 1 }]);
    expect(await storedReadings(server.db, theirs.id)).toBe(theirsBefore);
    // Its code and secret under another client id, a wrong secret: refused by the broker.
    expect(await refusal(broker.port, mine.code, mine.secret, 'someone-else')).toMatch(/Not authorized/);
    expect(await refusal(broker.port, mine.code, 'not-the-secret')).toMatch(/Not authorized/);
  });

  it('a reset: the old password signs in no more and its session ends; the new one signs in and reports', async () => {
    const target = devices[2];
    await confirmed(server.db, target.code);
    const old = await device(target.code, target.secret);
    const closed = closedOf(old);
    const fresh = await reset(target.code);
    expect(await confirmed(server.db, target.code)).toMatchObject({ wanted: 'enabled', pending: false, password_kept: false });
    await closed;
    expect(await refusal(broker.port, target.code, target.secret)).toMatch(/Not authorized/);
    const client = await device(target.code, fresh);
    const before = await storedReadings(server.db, target.id);
    await client.publishAsync(`devices/${target.code}/telemetry`, reading(55), { qos: 1 });
    expect(await eventually(() => storedReadings(server.db, target.id), (n) => n === before + 1)).toBe(before + 1);
    target.secret = fresh;
  });

  it('recycled, a device signs in no more at all; restored, it does again; purged, its client and role are gone', async () => {
    const [template] = await server.db.query<{ product_code: string; organization_code: string }>('SELECT product_code, organization_code FROM device WHERE code = $1', [devices[3].code]);
    const code = 'MQTTDYNSEC01';
    const inserted = await server.call('device.insert', { device: { code, name: 'Mosquitto 账号测试水表', productCode: template.product_code, organizationCode: template.organization_code } }, { token: tadmin });
    expect(inserted.code, inserted.message).toBe('200');
    // No credential, no client.
    expect(await accountOf(server.db, code)).toBeNull();
    const secret = await reset(code);
    await confirmed(server.db, code);
    const session = await device(code, secret);
    const closed = closedOf(session);

    expect((await server.call('device.delete', { code }, { token: tadmin })).code).toBe('200');
    expect(await confirmed(server.db, code)).toMatchObject({ wanted: 'disabled', pending: false });
    await closed;
    expect(await refusal(broker.port, code, secret)).toMatch(/Not authorized/);

    expect((await server.call('device.recycle.restore', { codes: [code] }, { token: tadmin })).code).toBe('200');
    expect(await confirmed(server.db, code)).toMatchObject({ wanted: 'enabled', pending: false });
    expect(await refusal(broker.port, code, secret)).toBe('');

    expect((await server.call('device.delete', { code }, { token: tadmin })).code).toBe('200');
    const purged = await server.call('device.recycle.delete', { codes: [code] }, { token: tadmin });
    expect(purged.code, purged.message).toBe('200');
    expect(await confirmed(server.db, code)).toBeNull();
    expect(await broker.read('listClients')).not.toContain(code);
    expect(await broker.read('listRoles')).not.toContain(`device-${code}`);
    expect(await refusal(broker.port, code, secret)).toMatch(/Not authorized/);
  });

  it('a change the broker refuses is logged, kept pending and tried again until the broker takes it', async () => {
    const target = devices[4];
    await confirmed(server.db, target.code);
    // The platform's account may no longer speak to the plugin (a deny above its role's allow).
    await broker.ctrl('addRoleACL', 'admin', 'publishClientSend', '$CONTROL/dynamic-security/v1', 'deny', '10');
    const fresh = await reset(target.code);
    const refused = await eventually(() => accountOf(server.db, target.code), (row) => (row?.attempts ?? 0) >= 2);
    expect(refused).toMatchObject({ pending: true, password_kept: true });
    expect(refused!.last_error).toMatch(/Not authorized/);
    expect(server.logs.join('\n')).toMatch(new RegExp(`broker accounts: ${target.code} \\(enabled\\) not confirmed`));
    // Until then the broker still holds the old password, and nothing signed in with it reports for the device.
    expect(await refusal(broker.port, target.code, fresh)).toMatch(/Not authorized/);
    await broker.ctrl('removeRoleACL', 'admin', 'publishClientSend', '$CONTROL/dynamic-security/v1');
    expect(await confirmed(server.db, target.code)).toMatchObject({ pending: false, password_kept: false, attempts: 0, last_error: null });
    expect(await refusal(broker.port, target.code, fresh)).toBe('');
    expect(await refusal(broker.port, target.code, target.secret)).toMatch(/Not authorized/);
    target.secret = fresh;
  });

  it('a broker that was away catches up once it is back', async () => {
    const [reissued, recycled] = [devices[5], devices[6]];
    await confirmed(server.db, reissued.code);
    await confirmed(server.db, recycled.code);
    await broker.stop();
    const ready = await eventually(() => server.app.inject({ method: 'GET', url: '/api/ready' }), (reply) => reply.statusCode === 503);
    expect(ready.json()).toMatchObject({ problems: ['mqtt: not connected to MQTT_URL'] });
    const fresh = await reset(reissued.code);
    expect((await server.call('device.delete', { code: recycled.code }, { token: tadmin })).code).toBe('200');
    expect(await accountOf(server.db, reissued.code)).toMatchObject({ pending: true, password_kept: true });
    expect(await accountOf(server.db, recycled.code)).toMatchObject({ wanted: 'disabled', pending: true });

    await broker.start();
    expect(await confirmed(server.db, reissued.code)).toMatchObject({ pending: false, password_kept: false });
    expect(await confirmed(server.db, recycled.code)).toMatchObject({ wanted: 'disabled', pending: false });
    expect(await refusal(broker.port, reissued.code, fresh)).toBe('');
    expect(await refusal(broker.port, reissued.code, reissued.secret)).toMatch(/Not authorized/);
    expect(await refusal(broker.port, recycled.code, recycled.secret)).toMatch(/Not authorized/);
    // The platform subscribed again (the broker kept no sessions): a reading arrives.
    await eventually(async () => (await server.app.inject({ method: 'GET', url: '/api/ready' })).statusCode, (status) => status === 200);
    const client = await device(reissued.code, fresh);
    const before = await storedReadings(server.db, reissued.id);
    await client.publishAsync(`devices/${reissued.code}/telemetry`, reading(60), { qos: 1 });
    expect(await eventually(() => storedReadings(server.db, reissued.id), (n) => n === before + 1)).toBe(before + 1);
    reissued.secret = fresh;
  });

  it('a resync makes the broker’s list equal to the platform’s, leaving other accounts alone', async () => {
    const [drifted, lost] = [devices[0], devices[1]];
    await confirmed(server.db, drifted.code);
    await confirmed(server.db, lost.code);
    // Behind the platform's back: a stray device client and role, an orphan role, a device disabled, one deleted, an operator's account.
    await broker.ctrl('createRole', 'device-ZZZZ99999999');
    await broker.ctrl('createClient', 'ZZZZ99999999', '-p', 'stray-password-1');
    await broker.ctrl('addClientRole', 'ZZZZ99999999', 'device-ZZZZ99999999');
    await broker.ctrl('createRole', 'device-YYYY99999999');
    await broker.ctrl('disableClient', drifted.code);
    await broker.ctrl('deleteClient', lost.code);
    await broker.ctrl('createClient', 'maintenance-1', '-p', 'operator-password-1');

    const outcome = await bridgeOf(server.db)!.accounts!.resync();
    expect(outcome).toMatchObject({ queued: 3, missing: 1, orphanRoles: 1 });
    await eventually(async () => (await server.db.query('SELECT 1 FROM broker_account WHERE version > confirmed_version')).length, (n) => n === 0);
    const listed = await broker.read('listClients');
    expect(listed).not.toContain('ZZZZ99999999');
    expect(listed).toContain('maintenance-1');
    expect(await broker.read('listRoles')).not.toMatch(/device-(ZZZZ|YYYY)99999999/);
    expect(await refusal(broker.port, drifted.code, drifted.secret)).toBe('');
    // The platform keeps no password to give the broker again: the device needs a new credential.
    expect(await accountOf(server.db, lost.code)).toMatchObject({ needs_reset: true, pending: false });
    lost.secret = await reset(lost.code);
    expect(await confirmed(server.db, lost.code)).toMatchObject({ needs_reset: false, pending: false });
    expect(await refusal(broker.port, lost.code, lost.secret)).toBe('');
    expect(await bridgeOf(server.db)!.accounts!.resync()).toMatchObject({ queued: 0, missing: 0 });
  });

  it('commands reach a device through the broker, and its reply settles them', async () => {
    const target = devices[7];
    await confirmed(server.db, target.code);
    const client = await device(target.code, target.secret);
    const received = new Promise<{ id: number; type: string }>((resolve) => client.once('message', (_topic, payload) => resolve(JSON.parse(payload.toString()) as { id: number; type: string })));
    await client.subscribeAsync(`devices/${target.code}/commands`, { qos: 1 });
    // Online by its report: a command queued now goes at once.
    await client.publishAsync(`devices/${target.code}/telemetry`, reading(70), { qos: 1 });
    await eventually(async () => (await server.db.query<{ online_state: string }>('SELECT online_state FROM device WHERE id = $1', [target.id]))[0].online_state, (state) => state === 'online');
    const id = await generate(server, tadmin, target.code, 'valve_close');
    expect(await received).toMatchObject({ id, type: 'valve_close' });
    await replyTo(client, target.code, { id, result: 'ok', message: '阀门已关闭' });
    expect(await detailOnce(server, tadmin, id, (detail) => detail.state === 'acknowledged')).toMatchObject({ state: 'acknowledged', message: '阀门已关闭' });
  });
});
