import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv, postgresSettingsFromEnv } from '../../server/config';
import { DEFAULT_TIME_ZONE } from '../../server/db/database';
import { openPostgres, POSTGRES_DEFAULTS, StatementNames } from '../../server/db/postgres';
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
    ).toEqual({ poolMax: 25, statementTimeoutMs: 0, idleTimeoutMs: 5000, connectTimeoutMs: 2000, preparedStatements: true });
    expect(postgresSettingsFromEnv({ DATABASE_PREPARED_STATEMENTS: 'off' }).preparedStatements).toBe(false);
    expect(postgresSettingsFromEnv({ DATABASE_PREPARED_STATEMENTS: 'ON' }).preparedStatements).toBe(true);
    expect(() => postgresSettingsFromEnv({ DATABASE_PREPARED_STATEMENTS: 'maybe' })).toThrow('DATABASE_PREPARED_STATEMENTS must be on or off, got "maybe"');
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

describe('statement names (issue 19)', () => {
  it('names a statement with parameters by its text, the same each time, and never one without', () => {
    const names = new StatementNames(2);
    const first = names.nameOf('SELECT $1::int', 1);
    expect(first).toMatch(/^iot_[0-9a-f]{24}_0$/);
    expect(names.nameOf('SELECT $1::int', 1)).toBe(first);
    expect(names.nameOf('SELECT 1; SELECT 2', 0)).toBeUndefined();
    expect(names.nameOf('SELECT $1::text', 1)).not.toBe(first);
    // Past the limit a new text goes unnamed; the known ones keep their names.
    expect(names.nameOf('SELECT $1::date', 1)).toBeUndefined();
    expect(names.nameOf('SELECT $1::int', 1)).toBe(first);
    // A refused plan: the text is named anew.
    names.rename('SELECT $1::int');
    const renamed = names.nameOf('SELECT $1::int', 1);
    expect(renamed).toMatch(/_1$/);
    expect(renamed).not.toBe(first);
  });
});

describe.runIf(engine === 'postgres')('the PostgreSQL pool', () => {
  it('prepares a statement once per connection and runs it again from its kept plan', async () => {
    const url = postgresCluster.appUrl(server.databaseName ?? '');
    const db = openPostgres({ connectionString: url, poolMax: 1 });
    try {
      for (let run = 0; run < 3; run += 1) await db.query('SELECT count(*)::int AS n FROM organization WHERE code = ANY($1::text[])', [['T0001']]);
      const prepared = await db.query<{ name: string; statement: string }>("SELECT name, statement FROM pg_prepared_statements WHERE starts_with(name, 'iot_') AND statement LIKE $1", ['%FROM organization WHERE code = ANY%']);
      expect(prepared).toHaveLength(1);
    } finally {
      await db.close();
    }
    const unprepared = openPostgres({ connectionString: url, poolMax: 1, preparedStatements: false });
    try {
      await unprepared.query('SELECT count(*)::int AS n FROM organization WHERE code = ANY($1::text[])', [['T0001']]);
      expect(await unprepared.query("SELECT name FROM pg_prepared_statements WHERE starts_with(name, 'iot_') AND name <> $1", [''])).toEqual([]);
    } finally {
      await unprepared.close();
    }
  });

  it('prepares a statement again when a migration changed its table under the kept plan, inside a transaction or not', async () => {
    const db = openPostgres({ connectionString: postgresCluster.appUrl(server.databaseName ?? ''), poolMax: 1 });
    try {
      await db.exec('DROP TABLE IF EXISTS plan_probe; CREATE TABLE plan_probe (id int PRIMARY KEY); INSERT INTO plan_probe VALUES (1)');
      const read = (on: Pick<typeof db, 'query'>) => on.query<Record<string, unknown>>('SELECT * FROM plan_probe WHERE id = $1', [1]);
      expect(await read(db)).toEqual([{ id: 1 }]);
      // Another instance's migration adds a column: the kept plan's result type no longer fits.
      await server.db.exec("ALTER TABLE plan_probe ADD COLUMN note text NOT NULL DEFAULT 'n'");
      expect(await read(db)).toEqual([{ id: 1, note: 'n' }]);
      await server.db.exec("ALTER TABLE plan_probe ADD COLUMN more text NOT NULL DEFAULT 'm'");
      expect(await db.transaction((tx) => read(tx))).toEqual([{ id: 1, note: 'n', more: 'm' }]);
    } finally {
      await server.db.exec('DROP TABLE IF EXISTS plan_probe');
      await db.close();
    }
  });

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
