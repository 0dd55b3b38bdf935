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

export interface Database extends Queryable {
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
  /** The connection pool's use, where there is a pool (PostgreSQL): for the metrics. */
  poolStatistics?(): PoolStatistics;
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
