import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { OwnerOnlyNodeFS } from './pgliteNodeFs';
import { DEFAULT_TIME_ZONE, tableContents, type Database, type DatabaseBackup, type Queryable, type SqlParam } from './database';

export interface PgliteOptions {
  /** A data folder kept between runs; omitted = in memory. */
  dataDir?: string;
  /** A `dumpDataDir()` tarball to start from instead of an empty cluster (tests, fast resets). */
  dump?: Blob;
  /** The business time zone, pinned on the session (Asia/Shanghai unless given). */
  timeZone?: string;
  /** Whether statements with parameters are prepared once and their plans kept (default on). */
  preparedStatements?: boolean;
}

/** What may be prepared: a statement PREPARE accepts (not EXPLAIN, LOCK, SET and the like). */
const PREPARABLE = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|VALUES)\b/i;

/**
 * A parameter as an SQL literal for EXECUTE (issue 19). The literal has no type of its own: it
 * takes the parameter's type that PREPARE inferred, exactly as the text of a bound parameter does.
 * Requires standard_conforming_strings (checked when the database opens): then a string literal
 * ends only at a single quote, and doubling each quote is the whole of quoting.
 */
export function sqlLiteral(value: SqlParam): string {
  if (value === null) return 'NULL';
  if (Array.isArray(value)) return quoted(`{${(value as ReadonlyArray<string | number>).map(arrayElement).join(',')}}`);
  if (value instanceof Date) return quoted(value.toISOString());
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return quoted(String(value));
}

function quoted(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** An element of an array literal: always double-quoted, its backslashes and double quotes escaped. */
function arrayElement(element: string | number | null): string {
  if (element === null) return 'NULL';
  return `"${String(element).replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/**
 * Statements prepared on the one PGlite session, by text (issue 19): PGlite runs the planner on
 * the event loop, and planning a list page's statement cost as much as running it (the repair
 * orders' page: 2.8 → 1.7 ms a call). A text is prepared on first use (PREPARE) and run with
 * EXECUTE and its parameters as literals; a statement PREPARE cannot take (EXPLAIN, SET…) is
 * sent unnamed. A migration under a kept plan is planned again by PostgreSQL itself (an SQL-level
 * PREPARE has no fixed result type); a name the session lost (26000) is prepared again.
 */
class PreparedStatements {
  private readonly names = new Map<string, string | null>();
  private count = 0;

  constructor(private readonly limit: number) {}

  async run<T>(target: PGlite | Transaction, sql: string, params: readonly SqlParam[]): Promise<T[] | undefined> {
    let name = this.names.get(sql);
    if (name === null || params.length === 0) return undefined;
    if (name === undefined) {
      if (this.names.size >= this.limit || !PREPARABLE.test(sql)) {
        if (this.names.size < this.limit) this.names.set(sql, null);
        return undefined;
      }
      name = `iot_${(this.count += 1)}`;
      await target.exec(`PREPARE ${name} AS ${sql}`);
      this.names.set(sql, name);
    }
    try {
      const [result] = await target.exec(`EXECUTE ${name}(${params.map(sqlLiteral).join(', ')})`);
      return (result?.rows ?? []) as T[];
    } catch (error) {
      if (!isStalePlan(error)) throw error;
      // Prepared again next time. Outside a transaction this call is answered unnamed; inside one
      // the transaction has failed and fails to its caller.
      this.names.delete(sql);
      if (target instanceof PGlite) return undefined;
      throw error;
    }
  }
}

/** A kept plan that no longer fits its tables (0A000), or a name the session no longer knows (26000). */
function isStalePlan(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return (code === '0A000' && /cached plan/i.test(String((error as { message?: unknown }).message))) || code === '26000';
}

/** Distinct statements prepared at most; past it statements are sent unnamed. */
const PREPARED_LIMIT = 1_000;

function queryable(target: PGlite | Transaction, prepared: PreparedStatements | null): Queryable {
  return {
    async query<T>(sql: string, params: readonly SqlParam[] = []) {
      const rows = prepared ? await prepared.run<T>(target, sql, params) : undefined;
      if (rows) return rows;
      const result = await target.query<T>(sql, [...params]);
      return result.rows;
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  };
}

export interface PgliteDatabase extends Database {
  /** The whole cluster as a tarball, for `PgliteOptions.dump`. */
  dump(): Promise<Blob>;
  backup(): Promise<DatabaseBackup>;
}

interface PgliteRuntime {
  pgliteWasmModule: WebAssembly.Module;
  fsBundle: Blob;
}

let runtime: Promise<PgliteRuntime> | null = null;

/**
 * PGlite's WebAssembly module and file-system bundle, compiled and read once per process: each
 * database opened after the first starts without compiling them again (the tests open one per
 * file, the browser suite one per server).
 */
function pgliteRuntime(): Promise<PgliteRuntime> {
  runtime ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    return {
      pgliteWasmModule: await WebAssembly.compile(readFileSync(join(dist, 'pglite.wasm'))),
      fsBundle: new Blob([readFileSync(join(dist, 'pglite.data'))]),
    };
  })();
  return runtime;
}

/**
 * Runs database work one statement (or one whole transaction) at a time, each in its own turn of
 * the event loop, first come first served.
 *
 * PGlite executes a statement synchronously on the event loop: there is no I/O to wait for, so a
 * request's queries resolve one after another as microtasks, and without this every request read in
 * one poll of the loop ran to completion before the loop polled again. Under load (100 keep-alive
 * connections) one turn of the loop served some 45 requests and took ~0.5 s, and since libuv accepts
 * a single connection per turn, connections waited in the kernel's accept queue: after any stall
 * long enough for clients to give up and reconnect, the queue (full of the abandoned connections)
 * drained at ~2 a second, the new connections timed out before they were accepted, reconnected to
 * the back of the queue, and about 50 of the soak's 100 callers stayed locked out for good. Waiting
 * for `setImmediate` before each statement lets the loop poll between statements, so accepting a
 * connection or reading a request waits for one statement, not for everyone's requests.
 */
export function statementTurns(): <T>(work: () => Promise<T>) => Promise<T> {
  const waiting: Array<() => void> = [];
  let busy = false;
  const next = () => {
    const resume = waiting.shift();
    if (resume) setImmediate(resume);
    else busy = false;
  };
  return async (work) => {
    if (busy) await new Promise<void>((resume) => waiting.push(resume));
    else {
      busy = true;
      await new Promise<void>((resume) => setImmediate(resume));
    }
    try {
      return await work();
    } finally {
      next();
    }
  };
}

/** Opens the embedded PostgreSQL (a fresh cluster costs ~3 s, a dump or a data folder much less). */
export async function openPglite(options: PgliteOptions = {}): Promise<PgliteDatabase> {
  const pglite = await PGlite.create({
    ...(await pgliteRuntime()),
    // The data folder is its owner's alone (folders 0700, files 0600), every file PGlite writes there.
    ...(options.dataDir ? { fs: new OwnerOnlyNodeFS(options.dataDir) } : {}),
    ...(options.dump ? { loadDataDir: options.dump } : {}),
  });
  await pglite.query('SELECT set_config($1, $2, false)', ['TimeZone', options.timeZone ?? DEFAULT_TIME_ZONE]);
  const inTurn = statementTurns();
  // Literals are quoted for standard-conforming strings only (sqlLiteral).
  const [{ standard }] = (await pglite.query<{ standard: string }>("SELECT current_setting('standard_conforming_strings') AS standard")).rows;
  const prepared = options.preparedStatements !== false && standard === 'on' ? new PreparedStatements(PREPARED_LIMIT) : null;
  const direct = queryable(pglite, prepared);
  return {
    engine: 'pglite',
    // Statements inside a transaction run in the transaction's turn (it holds the database anyway).
    query: (sql, params) => inTurn(() => direct.query(sql, params)),
    exec: (sql) => inTurn(() => direct.exec(sql)),
    transaction: (work) => inTurn(() => pglite.transaction((tx) => work(queryable(tx, prepared)))),
    // One process holds a PGlite database: nobody else can ask for the lock.
    exclusively: (_name, work) => work(),
    close: () => pglite.close(),
    listen: (channel, onPayload) => inTurn(() => pglite.listen(channel, onPayload)),
    dump: () => pglite.dumpDataDir('none'),
    // In one turn: no statement of anyone else runs between the table counts and the tarball.
    backup: () => inTurn(async () => ({ tables: await tableContents(direct), archive: await pglite.dumpDataDir('gzip') })),
  };
}
