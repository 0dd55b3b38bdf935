// Keeps a grown world's indexes in step with the migrations without growing it again: an applied
// migration that was edited since the world was built (an index migration being tuned) is checked
// against a database freshly migrated from the same files. When only the indexes differ, the
// world's are made the same (dropped, created from the fresh database's definitions); any other
// difference (a table, column, constraint, view, function or trigger) means the world is built again.
import type { Database, Queryable } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { openPglite } from '../../server/db/pglite';
import { openPostgres } from '../../server/db/postgres';
import type { BenchCluster } from './cluster';

/** The statements of a migration file, comments left out. */
function statements(sql: string): string[] {
  return sql
    .split('\n')
    .map((line) => line.replace(/--.*$/, ''))
    .join('\n')
    .split(';')
    .map((statement) => statement.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

/** Whether a migration only creates and drops indexes (and comments or analyses). */
export function indexOnly(sql: string): boolean {
  return statements(sql).every((statement) => /^(CREATE (UNIQUE )?INDEX|DROP INDEX|COMMENT ON INDEX|ANALYZE)\b/i.test(statement));
}

interface Schema {
  /** Everything but the indexes, one line each. */
  structure: string[];
  /** Index name → its CREATE INDEX statement (indexes behind a constraint are in `structure`). */
  indexes: Map<string, string>;
}

async function schemaOf(db: Queryable): Promise<Schema> {
  const lines = async (sql: string) => (await db.query<{ line: string }>(sql)).map((row) => row.line);
  const structure = [
    ...(await lines(
      `SELECT concat_ws(' ', table_name, column_name, data_type, is_nullable, column_default) AS line FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`,
    )),
    ...(await lines(`SELECT concat_ws(' ', conrelid::regclass::text, conname, pg_get_constraintdef(oid)) AS line FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1`)),
    ...(await lines(`SELECT concat_ws(' ', viewname, md5(definition)) AS line FROM pg_views WHERE schemaname = 'public' ORDER BY 1`)),
    ...(await lines(`SELECT concat_ws(' ', proname, md5(prosrc)) AS line FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1`)),
    ...(await lines(`SELECT concat_ws(' ', tgrelid::regclass::text, tgname, pg_get_triggerdef(oid)) AS line FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`)),
  ];
  const indexes = await db.query<{ name: string; def: string }>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT EXISTS (SELECT FROM pg_constraint k WHERE k.conindid = i.indexrelid)
      ORDER BY 1`,
  );
  return { structure, indexes: new Map(indexes.map((index) => [index.name, index.def])) };
}

/** A database of the same engine migrated from the files and nothing else. */
async function freshSchema(engine: 'pglite' | 'postgresql', cluster: BenchCluster | null): Promise<Schema> {
  if (engine === 'pglite') {
    const db = await openPglite();
    try {
      await migrate(db);
      return await schemaOf(db);
    } finally {
      await db.close();
    }
  }
  const name = 'bench_schema';
  await cluster!.dropDatabase(name);
  await cluster!.ensureDatabase(name);
  const db = openPostgres({ connectionString: cluster!.appUrl(name), poolMax: 1, statementTimeoutMs: 0 });
  try {
    await migrate(db);
    return await schemaOf(db);
  } finally {
    await db.close();
    await cluster!.dropDatabase(name);
  }
}

/**
 * Makes the world's indexes those of a freshly migrated database. Answers what it changed, or
 * null when more than indexes differ (the world must be built again).
 */
export async function syncIndexes(world: Database, engine: 'pglite' | 'postgresql', cluster: BenchCluster | null, log: (line: string) => void): Promise<string[] | null> {
  const fresh = await freshSchema(engine, cluster);
  const kept = await schemaOf(world);
  const structureDiffers = fresh.structure.length !== kept.structure.length || fresh.structure.some((line, index) => line !== kept.structure[index]);
  if (structureDiffers) return null;
  const changes: string[] = [];
  for (const [name, def] of kept.indexes) {
    if (fresh.indexes.get(name) === def) continue;
    await world.exec(`DROP INDEX ${name}`);
    changes.push(`删除 ${name}`);
  }
  for (const [name, def] of fresh.indexes) {
    if (kept.indexes.get(name) === def) continue;
    log(`  创建索引 ${name}…`);
    await world.exec(def);
    changes.push(`创建 ${name}`);
  }
  return changes;
}
