import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { DEFAULT_TIME_ZONE, tableContents, type Database, type DatabaseBackup, type Queryable, type SqlParam } from './database';

export interface PgliteOptions {
  /** A data folder kept between runs; omitted = in memory. */
  dataDir?: string;
  /** A `dumpDataDir()` tarball to start from instead of an empty cluster (tests, fast resets). */
  dump?: Blob;
  /** The business time zone, pinned on the session (Asia/Shanghai unless given). */
  timeZone?: string;
}

function queryable(target: PGlite | Transaction): Queryable {
  return {
    async query<T>(sql: string, params: readonly SqlParam[] = []) {
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
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const pglite = await PGlite.create({
    ...(await pgliteRuntime()),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.dump ? { loadDataDir: options.dump } : {}),
  });
  await pglite.query('SELECT set_config($1, $2, false)', ['TimeZone', options.timeZone ?? DEFAULT_TIME_ZONE]);
  const inTurn = statementTurns();
  const direct = queryable(pglite);
  return {
    engine: 'pglite',
    // Statements inside a transaction run in the transaction's turn (it holds the database anyway).
    query: (sql, params) => inTurn(() => direct.query(sql, params)),
    exec: (sql) => inTurn(() => direct.exec(sql)),
    transaction: (work) => inTurn(() => pglite.transaction((tx) => work(queryable(tx)))),
    // One process holds a PGlite database: nobody else can ask for the lock.
    exclusively: (_name, work) => work(),
    close: () => pglite.close(),
    listen: (channel, onPayload) => inTurn(() => pglite.listen(channel, onPayload)),
    dump: () => pglite.dumpDataDir('none'),
    // In one turn: no statement of anyone else runs between the table counts and the tarball.
    backup: () => inTurn(async () => ({ tables: await tableContents(direct), archive: await pglite.dumpDataDir('gzip') })),
  };
}
