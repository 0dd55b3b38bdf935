import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));
const MIGRATION_FILE = /^\d{3}_[a-z0-9_]+\.sql$/;

export interface Migration {
  name: string;
  sql: string;
}

/** The SQL migrations `NNN_name.sql`, in order. */
export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => MIGRATION_FILE.test(file))
    .sort()
    .map((file) => ({ name: file.replace(/\.sql$/, ''), sql: readFileSync(join(dir, file), 'utf8') }));
}

/** A database that a newer build has migrated: this build must not run on it. */
export class DatabaseTooNew extends Error {
  constructor(
    readonly databaseAt: string,
    readonly buildKnows: string,
  ) {
    super(`数据库比本程序新：数据库已应用迁移 ${databaseAt}，本程序只认识到 ${buildKnows}。请升级程序后再启动（不会修改数据库）。`);
    this.name = 'DatabaseTooNew';
  }
}

/**
 * Applies the migrations not yet recorded in `schema_migration`, each in its own transaction.
 * Refuses (DatabaseTooNew, before changing anything) a database on which a newer build has applied
 * migrations this build does not know: an older build would run on tables it does not understand.
 */
export async function migrate(db: Database, migrations = listMigrations()): Promise<string[]> {
  await db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const done = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migration')).map((row) => row.name));
  const latestKnown = migrations.at(-1)?.name ?? '';
  const newest = [...done].sort().at(-1) ?? '';
  if (newest > latestKnown && !migrations.some((migration) => migration.name === newest)) throw new DatabaseTooNew(newest, latestKnown);
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.name)) continue;
    await db.transaction(async (tx) => {
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migration (name) VALUES ($1)', [migration.name]);
    });
    applied.push(migration.name);
  }
  return applied;
}
