import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
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
  /** A superuser's URL of database `name` (for the tests' own checks: ending backends, settings). */
  adminUrl(database?: string): string;
  /** The application role's URL of database `name`. */
  appUrl(database: string): string;
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

/**
 * Starts a cluster in a new temporary folder. Durability is switched off (fsync, full page writes):
 * the cluster lives for one test run, and the suite is about behaviour, not crash safety.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinaries();
  if (!bin) throw new Error(INSTALL_POSTGRES);
  const asPostgres = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'iot-pg-'));
  const data = join(dir, 'data');
  if (asPostgres) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  runAsOwner(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], asPostgres);
  const port = await freePort();
  const options = [
    '-c listen_addresses=127.0.0.1',
    `-c port=${port}`,
    `-c unix_socket_directories=${dir}`,
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c synchronous_commit=off',
    '-c max_connections=300',
    '-c shared_buffers=256MB',
    // A zone other than the platform's and the host's: the server must pin its own on every connection.
    "-c timezone='America/Los_Angeles'",
  ].join(' ');
  runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', 'start'], asPostgres);

  const adminUrl = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE ${APP_ROLE} LOGIN CREATEDB NOSUPERUSER`);
    // dev.reset restores the tables it changed in place, which needs replication-role triggers off.
    await admin.query(`GRANT SET ON PARAMETER session_replication_role TO ${APP_ROLE}`);
  } finally {
    await admin.end();
  }

  return {
    port,
    adminUrl,
    appUrl: (database) => `postgres://${APP_ROLE}@127.0.0.1:${port}/${database}`,
    async stop() {
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
