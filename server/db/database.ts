/**
 * The one database contract the server codes against: PGlite (embedded, the default) and a
 * PostgreSQL server (`pg`, when DATABASE_URL is set) both implement it.
 */
export type SqlParam = string | number | boolean | Date | null | readonly string[] | readonly number[];

export interface Queryable {
  /** Runs one statement with `$1…` parameters and answers its rows. */
  query<T>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** Runs a script of statements without parameters (migrations, truncation). */
  exec(sql: string): Promise<void>;
}

/** The engine behind a Database: the embedded PGlite or a PostgreSQL server. */
export type DatabaseEngine = 'pglite' | 'postgresql';

export interface Database extends Queryable {
  /** Which engine this is (the system status page says so). */
  readonly engine: DatabaseEngine;
  /**
   * Runs `work` in one serializable transaction: committed when it resolves, rolled back when it
   * throws. When the database cannot serialise it with a concurrent one (SQLSTATE 40001, or a
   * deadlock) it is run again from the start, so `work` must have no effect outside the
   * transaction; a check inside it (does the row exist, is the order still open) sees the state
   * that the write commits against, so of two identical calls one wins and the other is refused.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs `work` while holding the cluster-wide lock `name` (a PostgreSQL advisory lock): another
   * instance that asks for the same lock waits until `work` has settled (migrations, the seed).
   */
  exclusively<T>(name: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Calls `onPayload` with each notification sent on `channel` (pg_notify; delivered when the
   * sending transaction commits, in commit order), by any instance on this database. Answers what
   * stops listening. A notification sent while the listening connection was lost (a PostgreSQL
   * server that ended it, restarted, or could not be reached) is missed: `onResume` is called once
   * it listens again, for the listener to catch up from where it keeps what was announced.
   */
  listen(channel: string, onPayload: (payload: string) => void, onResume?: () => void): Promise<() => Promise<void>>;
  /** The connection pool's use, where there is a pool (PostgreSQL): for the metrics. */
  poolStatistics?(): PoolStatistics;
  /**
   * A consistent copy of the whole database while it serves (the embedded engine: its data folder
   * as a gzipped tarball, taken between two statements), with what every table held at that
   * moment. A PostgreSQL server is backed up with pg_dump instead (README "Operations").
   */
  backup?(): Promise<DatabaseBackup>;
}

/** What a table held when a backup was taken: its rows and a checksum of their content. */
export interface TableContent {
  rows: number;
  checksum: string;
}

export interface DatabaseBackup {
  archive: Blob;
  tables: Record<string, TableContent>;
}

/**
 * The rows and an md5 of the content of every table of the public schema (ordered by every
 * column, so the checksum does not depend on the physical order): what a backup is checked against.
 */
export async function tableContents(db: Queryable): Promise<Record<string, TableContent>> {
  const tables = await db.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const contents: Record<string, TableContent> = {};
  for (const { name } of tables) {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) continue;
    const [row] = await db.query<{ rows: number; checksum: string | null }>(
      `SELECT count(*)::int AS rows, md5(string_agg(t::text, E'\\n' ORDER BY t::text)) AS checksum FROM ${name} t`,
    );
    contents[name] = { rows: row?.rows ?? 0, checksum: row?.checksum ?? '' };
  }
  return contents;
}

export interface PoolStatistics {
  /** Connections open. */
  total: number;
  /** Of those, waiting for a caller. */
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
}

/** The platform's business time zone: day and month buckets, "today", codes stamped with a date. */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';
