import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Database, Queryable, SqlParam } from './database';

export interface PgliteOptions {
  /** A data folder kept between runs; omitted = in memory. */
  dataDir?: string;
  /** A `dumpDataDir()` tarball to start from instead of an empty cluster (tests, fast resets). */
  dump?: Blob;
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

/** Opens the embedded PostgreSQL (a fresh cluster costs ~3 s, a dump or a data folder much less). */
export async function openPglite(options: PgliteOptions = {}): Promise<PgliteDatabase> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const pglite = await PGlite.create({
    ...(await pgliteRuntime()),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.dump ? { loadDataDir: options.dump } : {}),
  });
  return {
    ...queryable(pglite),
    transaction: (work) => pglite.transaction((tx) => work(queryable(tx))),
    close: () => pglite.close(),
    dump: () => pglite.dumpDataDir('none'),
  };
}
