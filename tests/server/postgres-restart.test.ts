import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { adminQuery, startPostgresCluster, type PostgresCluster } from '../support/postgresCluster';
import { ADMIN_PASSWORD, DEMO_PASSWORD } from './harness';
import { announceLiveEvent, startServerProcess, type ServerProcess } from './serverProcess';
import type { TokenPair } from '../../server/security/tokens';

/**
 * The database restarts (`pg_ctl restart -m fast`) while a running server process (`server/main.ts`)
 * is busy writing (issue 30). A cluster of this file's own: the others' databases live on the
 * shared one, which must not restart under them. Every call in flight is answered (success, or
 * "503" 服务繁忙，请稍后重试), every write acknowledged is stored, the calls made once the database
 * is back succeed, and the live console's LISTEN connection listens again.
 */

const DATABASE = 'iot_restart';
let cluster: PostgresCluster;
let server: ServerProcess;
let token: string;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  await adminQuery(cluster, `CREATE DATABASE ${DATABASE} OWNER iot_app`);
  // An empty database: the server migrates and seeds it as a first start does.
  server = await startServerProcess({ DATABASE_URL: cluster.appUrl(DATABASE), LOG_LEVEL: 'warn' });
  const login = await server.call<TokenPair>('auth.login', { loginName: 'admin', password: ADMIN_PASSWORD });
  if (login.code !== '200' || !login.data) throw new Error(`admin could not sign in: ${login.code} ${login.message}`);
  token = login.data.accessToken;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await cluster?.stop();
});

interface Answer {
  /** What was written: a user's account, or a device's reading (its code and time). */
  key: string;
  code: string;
  message: string;
  /** When the call was made and answered (ms since the epoch). */
  sentAt: number;
  answeredAt: number;
}

const newUser = (loginName: string) => ({ loginName, userName: '重启演练', organizationCode: 'T0001P01', roleCode: 'ROLE_TENANT_REPAIR', status: '1' });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seven devices of T0001 with a credential each: what reports through the restart. */
async function reportingDevices(): Promise<Array<{ code: string; secret: string }>> {
  const tadmin = await server.call<TokenPair>('auth.login', { loginName: 'tadmin', password: DEMO_PASSWORD });
  const rows = await adminQuery<{ code: string }>(cluster, "SELECT code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL ORDER BY code LIMIT 7", [], DATABASE);
  return Promise.all(
    rows.map(async ({ code }) => {
      const issued = await server.call<{ secret: string }>('device.credential.reset', { code }, tadmin.data!.accessToken);
      if (issued.code !== '200' || !issued.data) throw new Error(`no credential for ${code}: ${issued.message}`);
      return { code, secret: issued.data.secret };
    }),
  );
}

/** A reading of `device` taken at `at`, over HTTP as a device sends it; answers the envelope's code and message. */
async function report(device: { code: string; secret: string }, at: Date): Promise<{ code: string; message: string } | null> {
  const response = await fetch(`${server.url}/api/device/telemetry/_report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-device-code': device.code, 'x-device-secret': device.secret },
    body: JSON.stringify({ reportedAt: at.toISOString(), batteryLevel: 80, metrics: { level: 1.5 } }),
  }).catch(() => null);
  if (!response) return null;
  const body = (await response.json().catch(() => null)) as { code?: string; message?: string } | null;
  return { code: body?.code ?? `HTTP ${response.status}`, message: body?.message ?? '' };
}

/**
 * While the database restarts (down `downMs` longer than a restart takes), seven devices report
 * and one administrator adds users, each as fast as it is answered: a reading is a batched
 * ingestion transaction, a user a serializable transaction of several statements. (One writer of
 * users: every user written moves the rights' generation, so concurrent ones queue on that row.)
 */
async function writeThroughRestart(round: string, downMs: number): Promise<void> {
  const devices = await reportingDevices();
  const answers: Answer[] = [];
  let stop = false;
  let made = 0;
  const record = async (key: string, call: () => Promise<{ code: string; message: string } | null>) => {
    const sentAt = Date.now();
    made += 1;
    const reply = await call();
    answers.push({ key, code: reply?.code ?? 'no answer', message: reply?.message ?? '', sentAt, answeredAt: Date.now() });
  };
  // Readings a few minutes old, a millisecond apart: each one its own row of the history.
  const firstReading = Date.now() - 10 * 60_000;
  const deviceWorker = async (device: { code: string; secret: string }) => {
    for (let n = 0; !stop; n += 1) {
      const at = new Date(firstReading + n);
      await record(`${device.code}@${at.toISOString()}`, () => report(device, at));
    }
  };
  const userWorker = async () => {
    for (let n = 0; !stop; n += 1) {
      const loginName = `${round}_${n}`;
      await record(`user:${loginName}`, () => server.call('system.user.insert', { user: newUser(loginName) }, token).catch(() => null));
    }
  };
  const workers = [...devices.map(deviceWorker), userWorker()];
  await pause(1_000);
  const restartedAt = Date.now();
  await cluster.restart(downMs);
  // pg_ctl -w has returned: the database accepts connections again.
  const backAt = Date.now();
  await pause(3_000);
  stop = true;
  await Promise.all(workers);

  // Every call made was answered, with success or "busy"; the process is still running.
  expect(answers).toHaveLength(made);
  expect(answers.filter((answer) => answer.code !== '200' && answer.code !== '503')).toEqual([]);
  expect(server.output()).not.toMatch(/Unhandled 'error' event/);
  expect(answers.filter((answer) => answer.answeredAt >= restartedAt && answer.sentAt <= backAt).length).toBeGreaterThan(0);
  // Made once the database was back: each one succeeds (no broken connection is handed out again).
  const after = answers.filter((answer) => answer.sentAt > backAt);
  expect(after.length).toBeGreaterThan(0);
  expect(after.filter((answer) => answer.code !== '200')).toEqual([]);

  // Every acknowledged write is in the database: each user, each reading.
  const acknowledged = answers.filter((answer) => answer.code === '200').map((answer) => answer.key);
  const users = acknowledged.filter((key) => key.startsWith('user:')).map((key) => key.slice(5));
  const readings = acknowledged.filter((key) => !key.startsWith('user:'));
  const storedUsers = await adminQuery<{ key: string }>(cluster, "SELECT 'user:' || login_name AS key FROM app_user WHERE login_name = ANY($1::text[])", [users], DATABASE);
  const storedReadings = await adminQuery<{ key: string }>(
    cluster,
    `SELECT d.code || '@' || to_char(t.reported_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS key
       FROM device_telemetry t JOIN device d ON d.id = t.device_id
      WHERE d.code = ANY($1::text[]) AND t.reported_at >= $2`,
    [devices.map((device) => device.code), new Date(firstReading)],
    DATABASE,
  );
  const stored = new Set([...storedUsers, ...storedReadings].map((row) => row.key));
  expect(acknowledged.filter((key) => !stored.has(key))).toEqual([]);
  expect(users.length).toBeGreaterThan(0);
  expect(readings.length).toBeGreaterThan(0);

  // How soon after the database was back the server answered again (the first call made since).
  const firstSuccess = after.filter((answer) => answer.code === '200').sort((a, b) => a.answeredAt - b.answeredAt)[0];
  console.info(
    `${round}: database down ${backAt - restartedAt} ms; calls ${answers.length} (${readings.length} readings and ${users.length} users acknowledged), ` +
      `503 ${answers.filter((answer) => answer.code === '503').length}, acknowledged and missing 0; first success ${firstSuccess ? firstSuccess.answeredAt - backAt : 'none'} ms after the database was back; ${after.length} calls after it, all answered 200`,
  );

  // The live console's LISTEN connection is back: a notification reaches a stream again.
  await expectLiveAnnouncementsHeard();
}

describe('the database restarts under a running server process', () => {
  it('pg_ctl restart -m fast: every call in flight answered, nothing acknowledged lost, the calls after it succeed, the live console listens again', async () => {
    await writeThroughRestart('restart', 0);
  });

  it('down for 3 s, longer than the LISTEN connection waits between attempts: the same', async () => {
    await writeThroughRestart('outage', 3_000);
  });
});

/** Opens a live stream as the platform admin and announces until one announcement arrives through it. */
async function expectLiveAnnouncementsHeard(): Promise<void> {
  const abort = new AbortController();
  const response = await fetch(`${server.url}/api/live/events`, { headers: { token, accept: 'text/event-stream' }, signal: abort.signal });
  const reader = response.body!.getReader();
  let received = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      received += new TextDecoder().decode(value);
    }
  })();
  const notifier = new pg.Client({ connectionString: cluster.adminUrl(DATABASE) });
  await notifier.connect();
  try {
    const [device] = await adminQuery<{ code: string; organization_code: string; tenant_code: string }>(cluster, 'SELECT code, organization_code, tenant_code FROM device ORDER BY id LIMIT 1', [], DATABASE);
    const event = { tenantCode: device.tenant_code, organizationCode: device.organization_code, deviceCode: device.code };
    // The listening connection may still be on its way back: announced until one comes through.
    const ids: string[] = [];
    for (let n = 0; n < 50 && !ids.some((id) => received.includes(`id: ${id}\n`)); n += 1) {
      ids.push(await announceLiveEvent(notifier, event));
      await pause(200);
    }
    expect(ids.some((id) => received.includes(`id: ${id}\n`))).toBe(true);
  } finally {
    await notifier.end();
    abort.abort();
  }
}
