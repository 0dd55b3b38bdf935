import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { configFromEnv, defaultConfig } from '../../server/config';
import type { Database } from '../../server/db/database';
import { openPostgres } from '../../server/db/postgres';
import { DatabaseTooNew, listMigrations, migrate } from '../../server/db/migrate';
import { fail } from '../../server/http/envelope';
import { readinessProblems } from '../../server/http/operability';
import { defineOperation } from '../../server/core/operation';
import { logLevelOf } from '../../server/log';
import { ADMIN_PASSWORD, catalogue, DEMO_PASSWORD, engine, secretsIn, startServer, type TestServer } from './harness';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ config: { metricsToken: METRICS_TOKEN } });
});
afterAll(() => server.close());

const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });

describe('health and readiness', () => {
  it('/api/health answers while the process runs; /api/ready once the database answers and every migration is applied', async () => {
    const health = await get('/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await get('/api/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('is not ready, 503 with what is missing, once the database stops answering', async () => {
    // The server started while the database answered; then the database went away.
    let stopped = false;
    const stopping: Database = {
      ...server.db,
      query: async <T>(sql: string, params?: Parameters<Database['query']>[1]) => {
        if (stopped) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return server.db.query<T>(sql, params);
      },
    };
    const app = await buildApp({ db: stopping, config: defaultConfig() });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
      stopped = true;
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'not ready', problems: ['database: connect ECONNREFUSED 127.0.0.1:5432'] });
    } finally {
      await app.close();
    }
  });

  it('is not ready while a PostgreSQL server cannot be reached at all', async () => {
    const gone = openPostgres({ connectionString: 'postgres://iot_app@127.0.0.1:1/iot', connectTimeoutMs: 500, poolMax: 1 });
    try {
      expect(await readinessProblems(gone)).toEqual([expect.stringMatching(/^database: .*ECONNREFUSED/)]);
    } finally {
      await gone.close();
    }
  });

  it('is not ready while the database lacks a migration this build knows', async () => {
    const behind: Database = {
      ...server.db,
      query: async <T>(sql: string, params?: Parameters<Database['query']>[1]) =>
        sql.includes('schema_migration') ? ([{ latest: '001_initial' }] as T[]) : server.db.query<T>(sql, params),
    };
    const app = await buildApp({ db: behind, config: defaultConfig() });
    try {
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().problems).toEqual([expect.stringMatching(/^migrations: the database is at 001_initial, this build needs \d{3}_/)]);
    } finally {
      await app.close();
    }
  });
});

describe('upgrades', () => {
  it('a build refuses a database that a newer build has migrated, before changing anything', async () => {
    const migrations = listMigrations();
    const older = migrations.slice(0, -1);
    const before = await server.db.query<{ name: string }>('SELECT name FROM schema_migration ORDER BY name');
    const refusal = await migrate(server.db, older).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DatabaseTooNew);
    expect((refusal as Error).message).toBe(
      `数据库比本程序新：数据库已应用迁移 ${migrations.at(-1)!.name}，本程序只认识到 ${older.at(-1)!.name}。请升级程序后再启动（不会修改数据库）。`,
    );
    expect(await server.db.query<{ name: string }>('SELECT name FROM schema_migration ORDER BY name')).toEqual(before);
    // The build that knows every migration goes on as before.
    expect(await migrate(server.db, migrations)).toEqual([]);
  });
});

describe('load shedding', () => {
  it('past the memory limit answers calls 503 with Retry-After at once, and still answers the health check', async () => {
    const app = await buildApp({ db: server.db, config: defaultConfig({ maxHeapUsedBytes: 1 }) });
    try {
      // The plugin samples the process once a second.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const call = await app.inject({ method: 'POST', url: `/api${catalogue['auth.login'].path}`, payload: { param: { loginName: 'tadmin', password: DEMO_PASSWORD } } });
      expect(call.statusCode).toBe(503);
      expect(call.headers['retry-after']).toBe('10');
      expect(call.json()).toEqual({ code: '503', message: '服务繁忙，请稍后重试', data: null });
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('metrics', () => {
  it('are not served without METRICS_TOKEN, and refused with a wrong token', async () => {
    const app = await buildApp({ db: server.db, config: defaultConfig() });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/metrics' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
    expect((await get('/api/metrics')).statusCode).toBe(401);
    expect((await get('/api/metrics', { authorization: 'Bearer wrong-token-0123456789abcdef' })).statusCode).toBe(401);
    expect(() => configFromEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(configFromEnv({ METRICS_TOKEN }).metricsToken).toBe(METRICS_TOKEN);
  });

  it('count requests and their latency by operation and answer code, and move after calls', async () => {
    const read = async () => (await get('/api/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })).body;
    const countOf = (text: string, labels: string) => Number(new RegExp(`^iot_requests_total\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const before = await read();
    await server.login('tadmin');
    await server.call('auth.login', { loginName: 'tadmin', password: 'Wrong@2026' });
    await server.login('admin', ADMIN_PASSWORD);
    const after = await read();
    expect(countOf(after, 'operation="auth.login",code="200"') - countOf(before, 'operation="auth.login",code="200"')).toBe(2);
    expect(countOf(after, 'operation="auth.login",code="401"') - countOf(before, 'operation="auth.login",code="401"')).toBe(1);
    expect(after).toMatch(/^# TYPE iot_request_duration_seconds histogram$/m);
    expect(after).toMatch(/^iot_request_duration_seconds_bucket\{le="0\.1",operation="auth\.login",code="200"\} \d+$/m);
    expect(after).toMatch(/^iot_process_resident_memory_bytes \d+/m);
    if (engine === 'postgres') {
      expect(after).toMatch(/^iot_db_pool_connections \d+$/m);
      expect(after).toMatch(/^iot_db_pool_waiting_clients 0$/m);
    }
  });
});

describe('metrics of what the platform does', () => {
  const read = async () => (await get('/api/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })).body;
  /** The value of one series (0 when it has not appeared yet). */
  const valueOf = (text: string, series: string) => {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };
  const moved = (before: string, after: string, series: string) => valueOf(after, series) - valueOf(before, series);

  it('count sign-in refusals by reason and the lockout a run of wrong passwords causes', async () => {
    // An address of its own, so that the address limit and the lock touch no other test.
    const ip = '127.0.0.77';
    const before = await read();
    expect((await server.call('auth.login', { loginName: 'tuser', password: 'Wrong@2026' }, { ip })).code).toBe('401');
    for (let attempt = 0; attempt < 6; attempt += 1) await server.call('auth.login', { loginName: 'nobody-metrics', password: 'Wrong@2026' }, { ip });
    const after = await read();
    expect(after).toMatch(/^# TYPE iot_login_failures_total counter$/m);
    expect(moved(before, after, 'iot_login_failures_total{reason="wrong_password"}')).toBe(1);
    // Five wrong passwords are counted as such; the fifth locks the pair, and the sixth is refused as locked.
    expect(moved(before, after, 'iot_login_failures_total{reason="unknown_login_name"}')).toBe(5);
    expect(moved(before, after, 'iot_login_failures_total{reason="locked"}')).toBe(1);
    expect(moved(before, after, 'iot_login_lockouts_total')).toBe(1);
  });

  it('count verification codes sent and refused, by channel', async () => {
    const token = await server.login('tadmin');
    const target = '13900007701';
    const before = await read();
    expect((await server.call('verification.sms.send', target, { token })).code).toBe('200');
    expect((await server.call('verification.sms.send', target, { token })).code).toBe('429');
    const after = await read();
    expect(moved(before, after, 'iot_verification_codes_total{channel="sms",outcome="sent"}')).toBe(1);
    expect(moved(before, after, 'iot_verification_codes_total{channel="sms",outcome="too_frequent"}')).toBe(1);
    expect(moved(before, after, 'iot_verification_codes_total{channel="sms",outcome="withheld"}')).toBe(0);
  });

  it('time exports by operation, also one that fails', async () => {
    const token = await server.login('tadmin');
    const exportDevices = (param: unknown) =>
      server.app.inject({ method: 'POST', url: '/api/device/_export', headers: { 'content-type': 'application/json', token }, payload: JSON.stringify({ param }) });
    const before = await read();
    const done = await exportDevices({ productCode: 'PRD-GW-4G' });
    expect(done.headers['content-type']).toContain('spreadsheetml');
    // A filter of the wrong type is refused before the handler runs: no export was timed for it.
    expect((await exportDevices({ onlineState: 1 })).json<{ code: string }>().code).toBe('400');
    const after = await read();
    expect(after).toMatch(/^# TYPE iot_export_duration_seconds histogram$/m);
    expect(moved(before, after, 'iot_export_duration_seconds_count{operation="device.export",outcome="done"}')).toBe(1);
    expect(after).toMatch(/^iot_export_duration_seconds_bucket\{le="60",operation="device\.export",outcome="done"\} \d+$/m);

    // An export whose work fails is timed as failed.
    const failing = defineOperation('device.export', {
      handler: async () => {
        throw fail.conflict('导出失败');
      },
    });
    const app = await buildApp({ db: server.db, config: defaultConfig({ metricsToken: METRICS_TOKEN }), operations: [failing] });
    try {
      const refused = await app.inject({ method: 'POST', url: '/api/device/_export', headers: { 'content-type': 'application/json', token }, payload: '{"param":{}}' });
      expect(refused.json<{ code: string }>().code).toBe('409');
      const metrics = (await app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
      expect(valueOf(metrics, 'iot_export_duration_seconds_count{operation="device.export",outcome="failed"}')).toBe(1);
      expect(valueOf(metrics, 'iot_export_duration_seconds_count{operation="device.export",outcome="done"}')).toBe(0);
    } finally {
      await app.close();
    }
  });
});

describe('request ids', () => {
  it('every answer carries x-request-id, and the call’s log line names it with the operation, the code and the time', async () => {
    const token = await server.login('tuser');
    const response = await server.app.inject({ method: 'POST', url: `/api${catalogue['auth.init'].path}`, headers: { token, 'content-type': 'application/json' }, payload: { param: {} } });
    const id = String(response.headers['x-request-id']);
    expect(id).toMatch(UUID);
    const line = server.logs.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.reqId === id && entry.operation);
    expect(line).toMatchObject({ reqId: id, operation: 'auth.init', code: '200', status: 200, msg: expect.stringMatching(/^POST auth\.init 200 \d+ ms$/) });
    expect(typeof line?.ms).toBe('number');
    expect(typeof line?.userId).toBe('number');
    // Another call, another id.
    expect((await get('/api/health')).headers['x-request-id']).not.toBe(id);
  });

  it('the log line names the tenant of the selected organisation, and the platform for platform staff at the platform root', async () => {
    const lineOf = async (loginName: string, orgCode?: string, password?: string) => {
      const token = await server.login(loginName, password);
      const headers: Record<string, string> = { token, 'content-type': 'application/json', ...(orgCode ? { orgcode: orgCode } : {}) };
      const response = await server.app.inject({ method: 'POST', url: `/api${catalogue['auth.init'].path}`, headers, payload: { param: {} } });
      expect(response.json<{ code: string }>().code).toBe('200');
      const id = String(response.headers['x-request-id']);
      return server.logs.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.reqId === id && entry.operation);
    };
    // Tenant staff: the tenant itself, a project below it, and a user whose own organisation is a project.
    expect(await lineOf('tadmin')).toMatchObject({ operation: 'auth.init', organization: 'T0001', tenant: 'T0001' });
    expect(await lineOf('tadmin', 'T0001P01A01')).toMatchObject({ organization: 'T0001P01A01', tenant: 'T0001' });
    expect(await lineOf('tuser')).toMatchObject({ organization: 'T0001P01', tenant: 'T0001' });
    expect(await lineOf('badmin')).toMatchObject({ organization: 'T0002', tenant: 'T0002' });
    // Platform staff at the platform root log the platform's code; working in a tenant, that tenant.
    expect(await lineOf('operator')).toMatchObject({ organization: 'P0001', tenant: 'P0001' });
    expect(await lineOf('admin', 'T0002P01', ADMIN_PASSWORD)).toMatchObject({ organization: 'T0002P01', tenant: 'T0002' });
    // No caller, no tenant.
    const anonymous = await get('/api/health');
    expect(server.logs.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.reqId === anonymous.headers['x-request-id'])).not.toHaveProperty('tenant');
  });

  it('every test server’s log is scanned for the passwords, tokens and codes its test saw (the harness fails the file on one)', async () => {
    const token = await server.login('tuser');
    expect(secretsIn(server.logs, new Set([token, DEMO_PASSWORD, ADMIN_PASSWORD]))).toEqual([]);
    // The scan finds a secret as a word, not as part of a timestamp or a hex request id.
    expect(secretsIn(['{"msg":"renewed tok-en_1.abc"}'], new Set(['tok-en_1.abc']))).toHaveLength(1);
    expect(secretsIn(['{"msg":"code 482913 sent"}'], new Set(['482913']))).toHaveLength(1);
    expect(secretsIn(['{"time":1764824829137,"reqId":"0a48291344"}'], new Set(['482913']))).toEqual([]);
  });

  it('LOG_LEVEL chooses how much is logged: info by default, warn for slow calls and faults only', () => {
    expect(logLevelOf(undefined)).toBe('info');
    expect(logLevelOf('warn')).toBe('warn');
    expect(() => logLevelOf('verbose')).toThrow(/LOG_LEVEL/);
  });
});
