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
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
