import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throw-away PostgreSQL cluster for the tests: Debian's PostgreSQL binaries, a temporary folder,
 * loopback only, trust authentication, and a non-superuser role for the application (as production
 * has). It never reads or touches a DATABASE_URL from the shell.
 */

const VERSIONS = ['17', '16', '15'];

/** The folder of `initdb` and `pg_ctl` (Debian: /usr/lib/postgresql/<n>/bin), or null. */
export function postgresBinaries(): string | null {
  const given = process.env.POSTGRES_BIN;
  if (given) return existsSync(join(given, 'initdb')) ? given : null;
  for (const version of VERSIONS) {
    const dir = `/usr/lib/postgresql/${version}/bin`;
    if (existsSync(join(dir, 'initdb'))) return dir;
  }
  return null;
}

/** The one line to show when the binaries are missing. */
export const INSTALL_POSTGRES = 'PostgreSQL 测试需要 Debian 的 postgresql：apt-get install -y postgresql';

/** The application's role: it owns its databases and may create them, and is not a superuser. */
export const APP_ROLE = 'iot_app';

export interface PostgresCluster {
  port: number;
  /** The server's log file (`pg_ctl -l`): what auto_explain and the server itself write. */
  logFile: string;
  /** A superuser's URL of database `name` (for the tests' own checks: ending backends, settings). */
  adminUrl(database?: string): string;
  /** The application role's URL of database `name`. */
  appUrl(database: string): string;
  /**
   * `pg_ctl restart -m fast` (every connection ended, the server back once it accepts connections
   * again); with `downMs`, stopped and started again that much later.
   */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL binary as the `postgres` user when this process is root (initdb refuses root). */
function runAsOwner(binary: string, args: string[], asPostgres: boolean): void {
  const [command, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
  const result = spawnSync(command, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
}

export interface ClusterOptions {
  /**
   * A folder kept between runs (the benchmark's grown worlds): the cluster is created in it when it
   * holds none and reused otherwise (a server a crashed run left running there is stopped first),
   * and `stop()` shuts it down cleanly without removing it. Default: a new temporary folder, removed
   * by `stop()`.
   */
  keptDir?: string;
  /** More `-c name=value` settings after the defaults below (a later one wins). */
  settings?: Readonly<Record<string, string | number>>;
}

/** Whether a postmaster is running on `data` (`pg_ctl status` answers 0). */
function running(bin: string, data: string, asPostgres: boolean): boolean {
  const [command, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), 'status', '-D', data]] : [join(bin, 'pg_ctl'), ['status', '-D', data]];
  return spawnSync(command, argv, { stdio: 'ignore' }).status === 0;
}

/**
 * Starts a cluster in a new temporary folder (or in `options.keptDir`). Durability is switched off
 * (fsync, full page writes): the cluster lives for one test run, and the suite is about behaviour,
 * not crash safety.
 */
export async function startPostgresCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBinaries();
  if (!bin) throw new Error(INSTALL_POSTGRES);
  const asPostgres = process.getuid?.() === 0;
  const kept = options.keptDir !== undefined;
  if (kept) mkdirSync(options.keptDir!, { recursive: true });
  const dir = kept ? options.keptDir! : mkdtempSync(join(tmpdir(), 'iot-pg-'));
  const data = join(dir, 'data');
  if (asPostgres) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const created = !kept || !existsSync(join(data, 'PG_VERSION'));
  if (created) runAsOwner(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], asPostgres);
  else if (running(bin, data, asPostgres)) runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'], asPostgres);
  const port = await freePort();
  const settings: Record<string, string | number> = {
    listen_addresses: '127.0.0.1',
    port,
    unix_socket_directories: dir,
    fsync: 'off',
    full_page_writes: 'off',
    synchronous_commit: 'off',
    max_connections: 300,
    shared_buffers: '256MB',
    // A zone other than the platform's and the host's: the server must pin its own on every connection.
    timezone: "'America/Los_Angeles'",
    ...options.settings,
  };
  const flags = Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  const logFile = join(dir, 'server.log');
  runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-l', logFile, '-o', flags, '-w', '-t', '300', 'start'], asPostgres);

  const adminUrl = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    const [role] = (await admin.query<{ present: boolean }>('SELECT EXISTS (SELECT FROM pg_roles WHERE rolname = $1) AS present', [APP_ROLE])).rows;
    if (!role.present) await admin.query(`CREATE ROLE ${APP_ROLE} LOGIN CREATEDB NOSUPERUSER`);
    // dev.reset restores the tables it changed in place, which needs replication-role triggers off.
    await admin.query(`GRANT SET ON PARAMETER session_replication_role TO ${APP_ROLE}`);
  } finally {
    await admin.end();
  }

  let stopped = false;
  return {
    port,
    logFile,
    adminUrl,
    appUrl: (database) => `postgres://${APP_ROLE}@127.0.0.1:${port}/${database}`,
    async restart(downMs = 0) {
      // pg_ctl restart starts the server again with the options it was started with (postmaster.opts).
      if (downMs === 0) return runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-l', logFile, '-m', 'fast', '-w', '-t', '120', 'restart'], asPostgres);
      runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', '-t', '120', 'stop'], asPostgres);
      await new Promise((resolve) => setTimeout(resolve, downMs));
      runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-l', logFile, '-o', flags, '-w', '-t', '120', 'start'], asPostgres);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (kept) {
        // Synchronous (a signal handler calls it too); nothing to do when it is already down.
        if (running(bin, data, asPostgres)) runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', '-t', '120', 'stop'], asPostgres);
        return;
      }
      try {
        runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop'], asPostgres);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Runs one statement as the superuser on database `database` of the cluster. */
export async function adminQuery<T extends pg.QueryResultRow>(cluster: Pick<PostgresCluster, 'adminUrl'>, sql: string, params: unknown[] = [], database = 'postgres'): Promise<T[]> {
  const client = new pg.Client({ connectionString: cluster.adminUrl(database) });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
