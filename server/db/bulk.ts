import type { Queryable } from './database';

/** A plain JSON-able column value. */
export type ColumnValue = string | number | boolean | null | string[] | JsonObject;
/** A jsonb column's value. */
export interface JsonObject {
  readonly [key: string]: string | number | boolean | null | readonly string[] | JsonObject;
}
export type Row = Record<string, ColumnValue>;

/** Rows to load, table by table in insertion order (the demo world of server/seed). */
export type SeedData = ReadonlyArray<{ table: string; rows: readonly Row[] }>;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const CHUNK = 2000;

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not a plain SQL identifier: ${name}`);
  return name;
}

/**
 * Inserts rows (all with the columns of the first) in chunks, one statement per chunk through
 * json_populate_recordset, so a self-referencing table loads in one go.
 */
export async function insertRows(db: Queryable, table: string, rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]).map(identifier).join(', ');
  const target = identifier(table);
  for (let start = 0; start < rows.length; start += CHUNK) {
    await db.query(
      `INSERT INTO ${target} (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::${target}, $1::json)`,
      [JSON.stringify(rows.slice(start, start + CHUNK))],
    );
  }
}

/** The application tables (every base table of the schema but the migrations record and the instances' shared secrets, which a reset keeps). */
export async function applicationTables(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT IN ('schema_migration', 'server_secret')
      ORDER BY table_name`,
  );
  return rows.map((row) => identifier(row.table_name));
}

/** Empties every application table and restarts its identities. */
export async function truncateApplicationTables(db: Queryable): Promise<void> {
  const tables = await applicationTables(db);
  if (tables.length) await db.exec(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`);
}

/** Moves each `id` sequence past the highest id present (after rows were loaded with ids). */
export async function advanceIdSequences(db: Queryable): Promise<void> {
  const rows = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_name = 'id' AND column_default LIKE 'nextval(%'`,
  );
  for (const { table_name } of rows) {
    const table = identifier(table_name);
    await db.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), COALESCE(MAX(id), 0) + 1, false) FROM ${table}`, [table]);
  }
}
