// Devices report (issue 22): a device's credential is issued and reset from the console, a report
// over HTTP with the right credential changes the telemetry history, the latest readings and the
// online state, and every refused message (unknown device, wrong or old secret, bad JSON, out of
// range, too large) changes nothing, is answered with its HTTP status and is counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { configFromEnv, defaultConfig } from '../../server/config';
import type { DeviceCredential } from '../../server/operations/devices/credentials';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';

const METRICS_TOKEN = 'metrics-token-for-device-reports-0123';

let server: TestServer;
let tadmin: string;
let tuser: string;
let badmin: string;
let device: { id: number; code: string };
/** A device of its own for the order of readings (the first's latest reading is the receipt time of its tests). */
let buffering: { id: number; code: string };

beforeAll(async () => {
  server = await startServer({ config: { metricsToken: METRICS_TOKEN } });
  [tadmin, tuser, badmin] = await Promise.all([server.login('tadmin'), server.login('tuser'), server.login('badmin')]);
  [device, buffering] = await server.db.query<{ id: number; code: string }>(
    "SELECT id, code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL AND online_state = 'offline' ORDER BY code LIMIT 2",
  );
});
afterAll(() => server.close());

const report = (code: string, secret: string, body: string | object, contentType = 'application/json') =>
  server.app.inject({
    method: 'POST',
    url: '/api/device/telemetry/_report',
    headers: { 'x-device-code': code, 'x-device-secret': secret, 'content-type': contentType },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function resetSecret(code: string, token = tadmin): Promise<string> {
  const answer = await server.call<DeviceCredential & { secret: string }>('device.credential.reset', { code }, { token });
  expect(answer.code, answer.message).toBe('200');
  return answer.data!.secret;
}

const deviceRow = async (id: number) =>
  (
    await server.db.query<{ online_state: string; battery_level: number | null; signal_strength: number | null; temperature: string | null; last_seen_at: Date | null }>(
      'SELECT online_state, battery_level, signal_strength, temperature, last_seen_at FROM device WHERE id = $1',
      [id],
    )
  )[0];
const historyOf = async (id: number) => (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_telemetry WHERE device_id = $1', [id]))[0].n;
const metrics = async () => (await server.app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
const countOf = (text: string, outcome: string) => Number(new RegExp(`^iot_device_reports_total\\{transport="http",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);

describe('device credentials', () => {
  it('a device has none until staff issue one; the secret is answered once, and the detail says only when', async () => {
    const before = await server.call<DeviceCredential>('device.credential.detail', { code: device.code }, { token: tadmin });
    expect(before.data).toEqual({ deviceCode: device.code, issued: false, issuedTime: null, reportPath: '/api/device/telemetry/_report' });
    const secret = await resetSecret(device.code);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const after = await server.call<DeviceCredential>('device.credential.detail', { code: device.code }, { token: tadmin });
    expect(after.data).toMatchObject({ issued: true });
    expect(Date.parse(after.data!.issuedTime!)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(after.data)).not.toContain(secret);
    const [stored] = await server.db.query<{ secret_hash: string }>('SELECT secret_hash FROM device_credential WHERE device_id = $1', [device.id]);
    expect(stored.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.secret_hash).not.toContain(secret);
  });

  it('only a role with the button resets, and only within its scope', async () => {
    expect((await server.call('device.credential.reset', { code: device.code }, { token: tuser })).code).toBe('403');
    const other = await server.call('device.credential.reset', { code: device.code }, { token: badmin });
    expect(other).toMatchObject({ code: '404', message: '设备不存在' });
    expect((await server.call('device.credential.detail', { code: device.code }, { token: badmin })).code).toBe('404');
    expect(catalogue['device.credential.reset'].button).toBe(true);
    expect((await server.call('device.credential.reset', { code: device.code }, { token: await server.login('admin', ADMIN_PASSWORD) })).code).toBe('200');
  });
});

describe('a report over HTTP', () => {
  it('with the right credential joins the history, becomes the latest readings and puts the device online', async () => {
    const secret = await resetSecret(device.code);
    const history = await historyOf(device.id);
    const reply = await report(device.code, secret, { batteryLevel: 57, signalStrength: 18, temperature: 21.46, metrics: { level: 3.25 } });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ code: '200', message: '成功', data: { latest: true, alarms: [], commands: [] } });
    expect(await historyOf(device.id)).toBe(history + 1);
    const row = await deviceRow(device.id);
    expect(row).toMatchObject({ online_state: 'online', battery_level: 57, signal_strength: 18 });
    expect(Number(row.temperature)).toBe(21.5);
    const data = await server.post(catalogue['device.data.page'].path, { pageParam: { pageNumber: 1, pageSize: 1 }, param: { code: device.code }, sortParamList: [] }, { token: tadmin });
    expect(data.body.data).toMatchObject({ records: [{ batteryLevel: 57, signalStrength: 18, temperature: 21.5, level: 3.25 }] });
  });

  it('a buffered reading that arrives late goes to the history without replacing the latest', async () => {
    const secret = await resetSecret(buffering.code);
    const now = Date.now();
    expect((await report(buffering.code, secret, { reportedAt: new Date(now - 60_000).toISOString(), batteryLevel: 80 })).statusCode).toBe(200);
    const late = await report(buffering.code, secret, { reportedAt: new Date(now - 3_600_000).toISOString(), batteryLevel: 99 });
    expect(late.json()).toMatchObject({ code: '200', data: { latest: false } });
    expect((await deviceRow(buffering.id)).battery_level).toBe(80);
    // The same instant sent twice is one reading.
    const history = await historyOf(buffering.id);
    await report(buffering.code, secret, { reportedAt: new Date(now - 3_600_000).toISOString(), batteryLevel: 99 });
    expect(await historyOf(buffering.id)).toBe(history);
  });

  it('refuses what it must not take, with its status and sentence, changes nothing, and counts each by outcome', async () => {
    const secret = await resetSecret(device.code);
    const good = { batteryLevel: 10 };
    const before = await metrics();
    const history = await historyOf(device.id);
    const seenBefore = (await deviceRow(device.id)).last_seen_at;
    const refusals: Array<[Awaited<ReturnType<typeof report>>, number, string]> = [
      [await report('ZZZZ00000000', secret, good), 401, '设备认证失败'],
      [await report(device.code, 'wrong-secret', good), 401, '设备认证失败'],
      [await report(device.code, '', good), 401, '设备认证失败'],
      [await report(device.code, secret, '{"batteryLevel": 1'), 400, '上报内容不是合法的 JSON'],
      [await report(device.code, secret, 'batteryLevel=1', 'application/x-www-form-urlencoded'), 400, '上报内容不是合法的 JSON'],
      [await report(device.code, secret, { batteryLevel: 101 }), 400, '上报内容不符合要求：/batteryLevel must be <= 100'],
      [await report(device.code, secret, { signalStrength: -1 }), 400, '上报内容不符合要求：/signalStrength must be >= 0'],
      [await report(device.code, secret, { batteryLevel: 5, owner: 'x' }), 400, '上报内容不符合要求：/ must NOT have additional properties'],
      [await report(device.code, secret, { metrics: { level: '3' } }), 400, '上报内容不符合要求：/metrics/level must be number'],
      [await report(device.code, secret, {}), 400, '上报内容不符合要求：/ must NOT have fewer than 1 properties'],
      [await report(device.code, secret, { reportedAt: new Date(Date.now() + 3_600_000).toISOString(), batteryLevel: 5 }), 400, '上报内容不符合要求：/reportedAt 晚于平台时间'],
      [await report(device.code, secret, { reportedAt: '2020-01-01T00:00:00Z', batteryLevel: 5 }), 400, '上报内容不符合要求：/reportedAt 早于 30 天前'],
      [await report(device.code, secret, { metrics: { level: 1 }, padding: 'x'.repeat(20_000) }), 413, '上报内容超过 16 KiB'],
    ];
    for (const [reply, status, message] of refusals) {
      expect(reply.statusCode, message).toBe(status);
      expect(reply.json(), message).toEqual({ code: String(status), message, data: null });
    }
    expect(await historyOf(device.id)).toBe(history);
    expect((await deviceRow(device.id)).last_seen_at).toEqual(seenBefore);
    const after = await metrics();
    const moved = (outcome: string) => countOf(after, outcome) - countOf(before, outcome);
    expect([moved('unknown_device'), moved('bad_credentials'), moved('bad_json'), moved('out_of_range'), moved('too_large'), moved('accepted')]).toEqual([1, 2, 2, 7, 1, 0]);
  });

  it('a reset stops the old secret at once; a deleted device cannot report', async () => {
    const old = await resetSecret(device.code);
    const fresh = await resetSecret(device.code);
    expect((await report(device.code, old, { batteryLevel: 40 })).statusCode).toBe(401);
    expect((await report(device.code, fresh, { batteryLevel: 40 })).statusCode).toBe(200);
    const [other] = await server.db.query<{ id: number; code: string }>(
      "SELECT id, code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL AND code <> $1 ORDER BY code LIMIT 1",
      [device.code],
    );
    const secret = await resetSecret(other.code);
    await server.db.query("UPDATE device SET deleted_at = now(), deleted_by = 'test' WHERE id = $1", [other.id]);
    expect((await report(other.code, secret, { batteryLevel: 40 })).json()).toMatchObject({ code: '401', message: '设备认证失败' });
  });
});

describe('admission', () => {
  it('stores at most INGEST_CONCURRENCY readings at once and one device’s one after another; a burst waits its turn and every reading is stored', async () => {
    let active = 0;
    let most = 0;
    const counting = {
      ...server.db,
      transaction: async <T>(work: Parameters<typeof server.db.transaction<T>>[0]) => {
        active += 1;
        most = Math.max(most, active);
        try {
          return await server.db.transaction(work);
        } finally {
          active -= 1;
        }
      },
    };
    const reporting = await server.db.query<{ id: number; code: string }>(
      "SELECT id, code FROM device WHERE tenant_code = 'T0002' AND deleted_at IS NULL ORDER BY code LIMIT 4",
    );
    const secrets = new Map<string, string>();
    for (const row of reporting) secrets.set(row.code, (await server.call<{ secret: string }>('device.credential.reset', { code: row.code }, { token: badmin })).data!.secret);
    const histories = await Promise.all(reporting.map((row) => historyOf(row.id)));
    // Readings of the last minute: later than anything of the seed's history or the other tests'.
    const send = (app: Awaited<ReturnType<typeof buildApp>>, code: string, index: number) =>
      app.inject({
        method: 'POST',
        url: '/api/device/telemetry/_report',
        headers: { 'x-device-code': code, 'x-device-secret': secrets.get(code)!, 'content-type': 'application/json' },
        payload: JSON.stringify({ reportedAt: new Date(Date.now() - 60_000 + index * 1000).toISOString(), batteryLevel: 50 + index }),
      });

    // Three readings of each of four devices at once, two stored at a time (one reading a
    // transaction here: batching is the next describe's).
    const wide = await buildApp({ db: counting, config: defaultConfig({ ingestConcurrency: 2, ingestBatchSize: 1 }) });
    try {
      const replies = await Promise.all(Array.from({ length: 12 }, (_, index) => send(wide, reporting[index % 4].code, index)));
      expect(replies.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 12 }, () => 200));
      expect(await Promise.all(reporting.map((row) => historyOf(row.id)))).toEqual(histories.map((count) => count + 3));
      expect(most).toBe(2);
    } finally {
      await wide.close();
    }

    // Eight readings of one device at once: stored one after another (in whatever order the
    // requests reached the queue), and the latest of them is the device's latest.
    most = 0;
    const [one] = reporting;
    const before = await historyOf(one.id);
    const app = await buildApp({ db: counting, config: defaultConfig({ ingestConcurrency: 6 }) });
    try {
      const replies = await Promise.all(Array.from({ length: 8 }, (_, index) => send(app, one.code, 20 + index)));
      expect(replies.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 8 }, () => 200));
      expect(most).toBe(1);
      expect(await historyOf(one.id)).toBe(before + 8);
      expect((await deviceRow(one.id)).battery_level).toBe(50 + 27);
    } finally {
      await app.close();
    }
  });

  it('INGEST_CONCURRENCY is a positive whole number, 6 by default', () => {
    expect(configFromEnv({}).ingestConcurrency).toBe(6);
    expect(configFromEnv({ INGEST_CONCURRENCY: '3' }).ingestConcurrency).toBe(3);
    expect(() => configFromEnv({ INGEST_CONCURRENCY: '0' })).toThrow('INGEST_CONCURRENCY must be a positive integer, got "0"');
  });
});
