import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../server/app';
import { configFromEnv, defaultConfig } from '../../server/config';
import { listMigrations, migrate } from '../../server/db/migrate';
import { redactUrl } from '../../server/log';
import { defineOperation } from '../../server/core/operation';
import { DEMO_ACCOUNTS, formatDemoAccounts } from '../../server/seed/accounts';
import { applicationTables } from '../../server/db/bulk';
import type { Queryable } from '../../server/db/database';
import { openPglite } from '../../server/db/pglite';
import { buildSeed, resetToSeed, seedIfEmpty } from '../../server/seed/seed';
import { catalogue, DEMO_PASSWORD, engine, startServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('the seed', () => {
  it('every demo account signs in with its password and has its role', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const token = await server.login(account.loginName, account.password);
      const info = await server.call<{ roleList: string[]; orgCodeList: string[]; userName: string }>('auth.init', {}, { token });
      expect(info.data, account.loginName).toMatchObject({ roleList: [account.role], orgCodeList: [account.organizationCode], userName: account.userName });
    }
    expect(formatDemoAccounts()).toContain('admin');
    expect(formatDemoAccounts()).toContain('Admin@2026');
  });

  it('builds a platform with two tenants of projects, nested areas, departments and one virtual node each', async () => {
    const rows = await server.db.query<{ code: string; name: string; type: number; parent_code: string | null }>('SELECT code, name, type, parent_code FROM organization ORDER BY sort');
    expect(rows[0]).toEqual({ code: 'P0001', name: '云联物联网平台', type: 1, parent_code: null });
    expect(rows.filter((row) => row.type === 2).map((row) => [row.code, row.name, row.parent_code])).toEqual([
      ['T0001', '杭州云联科技有限公司', 'P0001'],
      ['T0002', '苏州智水环境科技有限公司', 'P0001'],
    ]);
    for (const tenant of ['T0001', 'T0002']) {
      const own = rows.filter((row) => row.code.startsWith(tenant) && row.code !== tenant);
      expect(own.filter((row) => row.type === 5), tenant).toHaveLength(1);
      expect(own.filter((row) => row.type === 3).length, tenant).toBeGreaterThanOrEqual(2);
      expect(own.filter((row) => row.type === 4).length, tenant).toBeGreaterThanOrEqual(3);
      expect(own.filter((row) => row.type === 6).length, tenant).toBeGreaterThanOrEqual(2);
    }
    const [{ count }] = await server.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM app_user WHERE wechat_open_id = 'wx-demo-tadmin'`);
    expect(count).toBe(1);
  });

  it('is deterministic', async () => {
    expect(JSON.stringify(await buildSeed())).toBe(JSON.stringify(await buildSeed()));
  });
});

describe('migrations', () => {
  it('are applied once, in order, and recorded', async () => {
    const names = listMigrations().map((migration) => migration.name);
    expect(names).toEqual([...names].sort());
    expect(names[0]).toMatch(/^001_/);
    const recorded = await server.db.query<{ name: string }>('SELECT name FROM schema_migration ORDER BY name');
    expect(recorded.map((row) => row.name)).toEqual(names);
    expect(await migrate(server.db)).toEqual([]);
  });
});

describe('dev.reset', () => {
  // PGlite's dump (the run's seeded world as a tarball) is the embedded engine's own mechanism.
  it.runIf(engine === 'pglite')('restores from the copy its dump carries without building the seed, and takes the copy again after a later migration', async () => {
    const fromDump = () => openPglite({ dump: new Blob([readFileSync(inject('seededDatabaseDump'))]) });
    let built = 0;
    const data = async () => {
      built += 1;
      return buildSeed();
    };
    const deviceName = async (db: Queryable) => (await db.query<{ name: string }>('SELECT name FROM device WHERE id = 1'))[0].name;
    const db = await fromDump();
    try {
      const seeded = await deviceName(db);
      await db.query("UPDATE device SET name = '改过的名字' WHERE id = 1");
      await resetToSeed(db, data);
      expect(built).toBe(0);
      expect(await deviceName(db)).toBe(seeded);
    } finally {
      await db.close();
    }
    const migrated = await fromDump();
    try {
      await migrated.query("INSERT INTO schema_migration (name) VALUES ('999_later')");
      await migrated.query("UPDATE device SET name = '改过的名字' WHERE id = 1");
      await resetToSeed(migrated, data);
      expect(built).toBe(1);
      expect(await migrated.query('SELECT migration FROM seed_snapshot.taken_under')).toEqual([{ migration: '999_later' }]);
      await migrated.query("UPDATE device SET name = '又改过' WHERE id = 1");
      await resetToSeed(migrated, data);
      expect(built).toBe(1);
      expect(await deviceName(migrated)).not.toBe('又改过');
    } finally {
      await migrated.close();
    }
  }, 120_000);

  it('restores the freshly seeded state in place', async () => {
    const token = await server.login('tuser');
    await server.call('user.password.update', { oldPassWord: DEMO_PASSWORD, updatePassWord: 'Changed@2027' }, { token });
    await server.call('verification.sms.send', { target: '13800000001', ...(await server.solvedCaptcha()) });
    expect((await server.call('dev.reset')).code).toBe('200');
    expect((await server.call('auth.init', {}, { token })).code).toBe('301');
    expect((await server.call('auth.login', { loginName: 'tuser', password: DEMO_PASSWORD })).code).toBe('200');
    expect((await server.call('auth.login', { loginName: 'tuser', password: 'Changed@2027' })).code).toBe('401');
    expect((await server.call<unknown[]>('dev.outbox')).data).toEqual([]);
    const [{ users }] = await server.db.query<{ users: number }>('SELECT count(*)::int AS users FROM app_user');
    expect(users).toBe((await buildSeed()).find((table) => table.table === 'app_user')!.rows.length);
    // Identities continue past the seeded ids.
    expect((await server.call('verification.sms.send', { target: '13800000001', ...(await server.solvedCaptcha()) })).code).toBe('200');
  }, 120_000); // a reset that finds no kept copy reloads every seeded row

  it('restores again from its kept copy: changed, added and removed rows are back as seeded', async () => {
    expect((await server.call('dev.reset')).code).toBe('200');
    const seeded = await server.db.query('SELECT id, code, name, deleted_at FROM device ORDER BY id');
    await server.db.query("UPDATE device SET name = '改过的名字' WHERE id = 1");
    await server.db.query('DELETE FROM device_care');
    await server.db.query("INSERT INTO device_category (code, name) VALUES ('CX', '临时分类')");
    expect((await server.call('dev.reset')).code).toBe('200');
    expect(await server.db.query('SELECT id, code, name, deleted_at FROM device ORDER BY id')).toEqual(seeded);
    const [{ care }] = await server.db.query<{ care: number }>('SELECT count(*)::int AS care FROM device_care');
    expect(care).toBe((await buildSeed()).find((table) => table.table === 'device_care')!.rows.length);
    expect(await server.db.query("SELECT 1 FROM device_category WHERE code = 'CX'")).toEqual([]);
    // Identities continue past the seeded ids after a copy too.
    const [{ id }] = await server.db.query<{ id: number }>("INSERT INTO device_category (code, name) VALUES ('CY', '新分类') RETURNING id");
    expect(id).toBeGreaterThan(10);
  });
});

/**
 * Every application table's row count and a digest of its rows, and where each id sequence
 * stands. Not the authorisation generation (migration 025): a counter that must move with every
 * change, the reset's included, rather than data of the seeded world.
 */
async function fingerprint(db: Queryable): Promise<Record<string, string>> {
  const prints: Record<string, string> = {};
  for (const table of (await applicationTables(db)).filter((name) => name !== 'authorization_generation')) {
    const [row] = await db.query<{ print: string }>(`SELECT count(*) || ':' || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS print FROM ${table} t`);
    prints[table] = row.print;
  }
  const sequences = await db.query<{ name: string; last: string }>(`SELECT sequencename AS name, coalesce(last_value, 0)::text AS last FROM pg_sequences WHERE schemaname = current_schema()`);
  for (const { name, last } of sequences) prints[`sequence ${name}`] = last;
  return prints;
}

describe('dev.reset after changes across tables', () => {
  it('puts back exactly the seeded world: written tables, the rows their foreign keys cascaded to, and the ids', async () => {
    expect((await server.call('dev.reset')).code).toBe('200');
    const seeded = await fingerprint(server.db);
    // A signed-in user, a cascading delete of a device with its records, an update and an insert.
    const token = await server.login('tadmin');
    await server.call('user.name.update', '改过的昵称', { token });
    const [device] = await server.db.query<{ id: number }>('SELECT d.id FROM device d JOIN alarm_record a ON a.device_code = d.code GROUP BY d.id ORDER BY count(*) DESC, d.id LIMIT 1');
    await server.db.query('DELETE FROM device WHERE id = $1', [device.id]);
    await server.db.query("UPDATE organization SET name = name || '（改）' WHERE type = 3");
    await server.db.query("INSERT INTO device_category (code, name) VALUES ('CZ', '临时分类')");
    // A rolled-back insert still takes an id from the sequence.
    await server.db
      .transaction(async (tx) => {
        await tx.query("INSERT INTO device_category (code, name) VALUES ('CW', '回滚的分类')");
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await fingerprint(server.db)).not.toEqual(seeded);
    expect((await server.call('dev.reset')).code).toBe('200');
    expect(await fingerprint(server.db)).toEqual(seeded);
  });
});

describe('dev.reset on a PostgreSQL server', () => {
  it.runIf(engine === 'postgres')('restores in place from the kept copy as a non-superuser granted session_replication_role, without building the seed', async () => {
    const [role] = await server.db.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user');
    expect(role.rolsuper).toBe(false);
    await server.db.query("UPDATE organization SET name = '改名' WHERE code = 'T0001'");
    let built = 0;
    await resetToSeed(server.db, async () => {
      built += 1;
      return buildSeed();
    });
    expect(built).toBe(0);
    const [tenant] = await server.db.query<{ name: string }>("SELECT name FROM organization WHERE code = 'T0001'");
    expect(tenant.name).toBe('杭州云联科技有限公司');
  });
});

describe('a server that seeded its own database', () => {
  it.runIf(engine === 'pglite')('keeps the reset copy at start: its first dev.reset restores the world it began with', async () => {
    // Its own database, seeded as npm start's first run leaves it (from the run's seeded dump: a
    // fresh cluster would migrate and load every row again for the same world).
    const data = await buildSeed();
    const db = await openPglite({ dump: new Blob([readFileSync(inject('seededDatabaseDump'))]) });
    try {
      expect(await seedIfEmpty(db, async () => data)).toBe(false);
      const app = await buildApp({ db, config: defaultConfig({ dev: true }), seed: data });
      // The copy exists before any reset asked for it.
      expect(await db.query("SELECT schema_name FROM information_schema.schemata WHERE schema_name = 'seed_snapshot'")).toHaveLength(1);
      const started = await fingerprint(db);
      await db.query("UPDATE organization SET name = name || '（改）' WHERE type = 4");
      await db.query('DELETE FROM device_care');
      const reset = await app.inject({ method: 'POST', url: catalogue['dev.reset'] ? `/api${catalogue['dev.reset'].path}` : '', payload: {} });
      expect(reset.json()).toMatchObject({ code: '200' });
      expect(await fingerprint(db)).toEqual(started);
      await app.close();
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe('serving the console', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'console-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dir, 'assets', 'app-1234.js'), 'console.log(1)');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves files, falls back to index.html for client routes, keeps /api as the API', async () => {
    const app = await buildApp({ db: server.db, config: defaultConfig({ staticDir: dir }) });
    try {
      const get = (url: string) => app.inject({ method: 'GET', url });
      for (const url of ['/', '/login', '/device/all', '/foreign/device/all?dlmToken=abc']) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(200);
        expect(response.body, url).toContain('<title>console</title>');
        expect(response.headers['content-type'], url).toMatch(/text\/html/);
      }
      const asset = await get('/assets/app-1234.js');
      expect(asset.body).toBe('console.log(1)');
      expect(asset.headers['cache-control']).toContain('immutable');
      expect((await get('/api/no/such')).json()).toEqual({ code: '404', message: '接口不存在', data: null });
      const login = await app.inject({ method: 'POST', url: `/api${catalogue['auth.login'].path}`, payload: { param: { loginName: 'badmin', password: DEMO_PASSWORD } } });
      expect(login.json<{ code: string }>().code).toBe('200');
    } finally {
      await app.close();
    }
  });

  it('sends the console page with a Content-Security-Policy: no inline script, no eval, framed only by configured shells', async () => {
    const app = await buildApp({ db: server.db, config: defaultConfig({ staticDir: dir, embedOrigins: ['https://shell.example.com'] }) });
    try {
      for (const url of ['/', '/login', '/foreign/device/all']) {
        const response = await app.inject({ method: 'GET', url });
        const policy = String(response.headers['content-security-policy']);
        expect(policy, url).toContain("script-src 'self';");
        expect(policy, url).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
        expect(policy, url).toContain("object-src 'none'");
        expect(policy, url).toMatch(/frame-ancestors 'self' https:\/\/shell\.example\.com$/);
        expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      }
      // The API's JSON answers carry no page policy.
      const api = await app.inject({ method: 'POST', url: `/api${catalogue['auth.login'].path}`, payload: { param: {} } });
      expect(api.headers['content-security-policy']).toBeUndefined();
    } finally {
      await app.close();
    }
    const alone = await buildApp({ db: server.db, config: defaultConfig({ staticDir: dir }) });
    try {
      expect(String((await alone.inject({ method: 'GET', url: '/' })).headers['content-security-policy'])).toMatch(/frame-ancestors 'self'$/);
    } finally {
      await alone.close();
    }
  });

  it('reads the embedding shells from EMBED_ORIGINS and refuses what is not an origin', () => {
    expect(configFromEnv({ EMBED_ORIGINS: 'https://a.example.com, http://10.0.0.5:8080' }).embedOrigins).toEqual(['https://a.example.com', 'http://10.0.0.5:8080']);
    expect(configFromEnv({}).embedOrigins).toEqual([]);
    expect(() => configFromEnv({ EMBED_ORIGINS: "https://a.example.com 'unsafe-inline'" })).toThrow(/EMBED_ORIGINS/);
    expect(() => configFromEnv({ EMBED_ORIGINS: 'https://a.example.com/path' })).toThrow(/EMBED_ORIGINS/);
  });

  it('refuses a static folder without index.html', async () => {
    await expect(buildApp({ db: server.db, config: defaultConfig({ staticDir: join(dir, 'assets') }) })).rejects.toThrow(/index\.html/);
  });
});

describe('logs', () => {
  it('an internal fault answers code "500" (HTTP 200) and logs no token', async () => {
    const lines: string[] = [];
    const broken = defineOperation('auth.init', {
      handler: async () => {
        throw new Error('database went away');
      },
    });
    const { loggerOptions } = await import('../../server/log');
    const app = await buildApp({ db: server.db, config: defaultConfig(), operations: [broken], logger: loggerOptions({ write: (line) => lines.push(line) }) });
    try {
      const token = await server.login('tadmin');
      const response = await app.inject({ method: 'POST', url: `/api${catalogue['auth.init'].path}?token=${token}`, headers: { token }, payload: { param: {} } });
      expect(response.statusCode).toBe(200);
      const requestId = String(response.headers['x-request-id']);
      expect(response.json()).toEqual({ code: '500', message: '系统错误，请联系管理员', data: null, requestId });
      const text = lines.join('\n');
      expect(text).toContain('database went away');
      // The fault's log line carries the id the user can quote.
      expect(lines.some((line) => line.includes(`"reqId":"${requestId}"`) && line.includes('database went away'))).toBe(true);
      expect(text).not.toContain(token);
    } finally {
      await app.close();
    }
  });

  it('urls lose their token query values', () => {
    expect(redactUrl('/foreign/device/all?dlmToken=abc&x=1')).toBe('/foreign/device/all?dlmToken=[redacted]&x=1');
    expect(redactUrl('/a?x=1&token=abc')).toBe('/a?x=1&token=[redacted]');
  });
});
