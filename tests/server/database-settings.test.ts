import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv, postgresSettingsFromEnv } from '../../server/config';
import { DEFAULT_TIME_ZONE } from '../../server/db/database';
import { openPostgres, POSTGRES_DEFAULTS } from '../../server/db/postgres';
import { engine, postgresCluster, startServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('database settings from the environment', () => {
  it('reads the pool settings and refuses what is not a whole number', () => {
    expect(postgresSettingsFromEnv({})).toEqual(POSTGRES_DEFAULTS);
    expect(
      postgresSettingsFromEnv({ DATABASE_POOL_MAX: '25', DATABASE_STATEMENT_TIMEOUT_MS: '0', DATABASE_IDLE_TIMEOUT_MS: '5000', DATABASE_CONNECT_TIMEOUT_MS: '2000' }),
    ).toEqual({ poolMax: 25, statementTimeoutMs: 0, idleTimeoutMs: 5000, connectTimeoutMs: 2000 });
    expect(() => postgresSettingsFromEnv({ DATABASE_POOL_MAX: '0' })).toThrow(/DATABASE_POOL_MAX/);
    expect(() => postgresSettingsFromEnv({ DATABASE_STATEMENT_TIMEOUT_MS: '-1' })).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS/);
    expect(() => postgresSettingsFromEnv({ DATABASE_IDLE_TIMEOUT_MS: '1.5' })).toThrow(/DATABASE_IDLE_TIMEOUT_MS/);
  });

  it('reads the business time zone, Asia/Shanghai by default, and refuses an unknown one', () => {
    expect(configFromEnv({}).timeZone).toBe('Asia/Shanghai');
    expect(DEFAULT_TIME_ZONE).toBe('Asia/Shanghai');
    expect(configFromEnv({ TIME_ZONE: 'Europe/Berlin' }).timeZone).toBe('Europe/Berlin');
    expect(() => configFromEnv({ TIME_ZONE: 'Mars/Olympus' })).toThrow(/TIME_ZONE/);
    expect(() => configFromEnv({ TIME_ZONE: "Asia/Shanghai'; DROP TABLE x; --" })).toThrow(/TIME_ZONE/);
  });
});

describe('every database session', () => {
  it('is pinned to the business time zone, whatever the database, the cluster or the process says', async () => {
    // The PostgreSQL test cluster runs in America/Los_Angeles and this process in America/New_York.
    const [zone] = await server.db.query<{ zone: string }>('SELECT current_setting($1) AS zone', ['TimeZone']);
    expect(zone.zone).toBe('Asia/Shanghai');
    const [day] = await server.db.query<{ day: string }>("SELECT to_char('2026-01-01T17:30:00Z'::timestamptz, 'YYYY-MM-DD') AS day");
    expect(day.day).toBe('2026-01-02');
  });
});

describe.runIf(engine === 'postgres')('the PostgreSQL pool', () => {
  it('cancels a statement past the statement timeout', async () => {
    const db = openPostgres({ connectionString: postgresCluster.appUrl(server.databaseName ?? ''), statementTimeoutMs: 50, poolMax: 1 });
    try {
      await expect(db.query('SELECT pg_sleep(1)')).rejects.toMatchObject({ code: '57014' });
      const [timeout] = await db.query<{ value: string }>('SELECT current_setting($1) AS value', ['statement_timeout']);
      expect(timeout.value).toBe('50ms');
    } finally {
      await db.close();
    }
  });

  it('runs a transaction again when PostgreSQL cannot serialise it with a concurrent one: six read-then-write increments add six', async () => {
    await server.db.exec('CREATE TABLE IF NOT EXISTS serial_probe (id int PRIMARY KEY, n int NOT NULL); DELETE FROM serial_probe; INSERT INTO serial_probe VALUES (1, 0)');
    let attempts = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        server.db.transaction(async (tx) => {
          attempts += 1;
          const [row] = await tx.query<{ n: number }>('SELECT n FROM serial_probe WHERE id = 1');
          // Read, think, write: without serializable retries, concurrent ones would overwrite each other.
          await new Promise((resolve) => setTimeout(resolve, 10));
          await tx.query('UPDATE serial_probe SET n = $1 WHERE id = 1', [row.n + 1]);
        }),
      ),
    );
    const [row] = await server.db.query<{ n: number }>('SELECT n FROM serial_probe WHERE id = 1');
    expect(row.n).toBe(6);
    expect(attempts).toBeGreaterThan(6);
    await server.db.exec('DROP TABLE serial_probe');
  });
});
