import { mkdirSync } from 'node:fs';
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

/** Opens the embedded PostgreSQL (a fresh cluster costs ~3 s, a dump or a data folder much less). */
export async function openPglite(options: PgliteOptions = {}): Promise<PgliteDatabase> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const pglite = await PGlite.create({
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
