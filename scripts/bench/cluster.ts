// The bench's own PostgreSQL cluster: Debian's binaries, kept under .bench/postgres so that its
// grown worlds are built once, started for a run and always stopped again (also on Ctrl-C).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { adminQuery, APP_ROLE, postgresBinaries, startPostgresCluster, type PostgresCluster } from '../../tests/support/postgresCluster';
import { benchDir } from './common';

export const CLUSTER_DIR = join(benchDir, 'postgres');

/**
 * Settings of the bench cluster besides the test defaults (loopback, no fsync, synchronous_commit
 * off, 300 connections): memory for a 10-million-row world on this machine, and room for the
 * growth's writes (fewer checkpoints, faster index builds). Planner settings stay at PostgreSQL's
 * defaults, as an operator who changed nothing would have them.
 */
const SETTINGS = {
  shared_buffers: '1GB',
  effective_cache_size: '4GB',
  maintenance_work_mem: '512MB',
  max_wal_size: '2GB',
  checkpoint_timeout: '30min',
  autovacuum: 'on',
  log_line_prefix: "'%m [%p] %d '",
};

export interface BenchCluster extends PostgresCluster {
  /** Runs statements as the superuser on `database`. */
  admin<T extends pg.QueryResultRow>(database: string, sql: string, params?: unknown[]): Promise<T[]>;
  /** Creates database `name` owned by the application role when it is missing; answers whether it was created. */
  ensureDatabase(name: string): Promise<boolean>;
  dropDatabase(name: string): Promise<void>;
  databaseExists(name: string): Promise<boolean>;
}

const LOCK_FILE = join(benchDir, 'postgres.lock');

/** The pid of another live bench run that holds the cluster, or null (a dead run's lock is stale). */
function heldBy(): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(LOCK_FILE, 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/**
 * Starts (creating it the first time) the bench cluster; a sentence instead when PostgreSQL is not
 * installed or another bench run is using the cluster (starting it again would stop theirs).
 */
export async function startBenchCluster(): Promise<BenchCluster | string> {
  if (!postgresBinaries()) return 'PostgreSQL 未安装（apt-get install -y postgresql）';
  const holder = heldBy();
  if (holder) return `另一个基准进程（pid ${holder}）正在使用 .bench/postgres`;
  mkdirSync(benchDir, { recursive: true });
  writeFileSync(LOCK_FILE, String(process.pid));
  const unlock = () => {
    try {
      if (readFileSync(LOCK_FILE, 'utf8').trim() === String(process.pid)) rmSync(LOCK_FILE, { force: true });
    } catch {
      // removed already
    }
  };
  let cluster: PostgresCluster;
  try {
    cluster = await startPostgresCluster({ keptDir: CLUSTER_DIR, settings: SETTINGS });
  } catch (error) {
    unlock();
    throw error;
  }
  // Stopped whatever ends this process: Ctrl-C, a kill, an uncaught failure (stop is synchronous).
  const onSignal = (signal: NodeJS.Signals) => {
    void cluster.stop();
    unlock();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  const onExit = () => {
    void cluster.stop();
    unlock();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', onExit);
  const admin = <T extends pg.QueryResultRow>(database: string, sql: string, params: unknown[] = []): Promise<T[]> => adminQuery<T>(cluster, sql, params, database);
  const databaseExists = async (name: string) => (await admin<{ present: boolean }>('postgres', 'SELECT EXISTS (SELECT FROM pg_database WHERE datname = $1) AS present', [name]))[0].present;
  return {
    ...cluster,
    admin,
    databaseExists,
    async ensureDatabase(name) {
      if (await databaseExists(name)) return false;
      await admin('postgres', `CREATE DATABASE ${name} OWNER ${APP_ROLE}`);
      return true;
    },
    async dropDatabase(name) {
      await admin('postgres', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
    async stop() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('exit', onExit);
      await cluster.stop();
      unlock();
    },
  };
}
