import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Envelope } from '../../server/http/envelope';
import { catalogue } from './harness';

const ROOT = join(import.meta.dirname, '..', '..');

/** A reference server started as its own process (`tsx server/main.ts`), as an operator runs it. */
export interface ServerProcess {
  url: string;
  /** Everything it printed. */
  output(): string;
  /** Calls a catalogued operation over HTTP. */
  call<T = unknown>(name: string, param?: unknown, token?: string): Promise<Envelope<T>>;
  /** Sends SIGTERM and answers the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * Starts `server/main.ts` on a free loopback port with exactly `env` besides PATH (never the shell's
 * own DATABASE_URL), and waits for its READY line.
 */
export function startServerProcess(env: Record<string, string>, args: string[] = []): Promise<ServerProcess> {
  // tsx as a loader in one process, as npm start runs it (its CLI would kill a busy server on SIGTERM).
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--port', '0', '--host', '127.0.0.1', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: process.env.TZ ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /READY (http:\/\/\S+)/.exec(output);
      if (ready && !started) {
        started = true;
        resolve(handle(ready[1]));
      }
    };
    let started = false;
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      if (!started) reject(new Error(`the server exited (${code}) before it was ready:\n${output}`));
    });
  });

  function handle(url: string): ServerProcess {
    return {
      url,
      output: () => output,
      async call<T>(name: string, param: unknown = {}, token?: string) {
        const entry = catalogue[name];
        if (!entry) throw new Error(`operation ${name} is not catalogued`);
        const response = await fetch(`${url}/api${entry.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
          body: JSON.stringify({ param }),
        });
        return (await response.json()) as Envelope<T>;
      },
      async stop(signal = 'SIGTERM') {
        if (child.exitCode === null) child.kill(signal);
        return exited;
      },
      exited,
    };
  }
}

/** What runs one statement (a pg Client of the test's own, on the server's database). */
interface StatementRunner {
  query(sql: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/**
 * A live event of `organizationCode` written and announced as the server writes one (a row of
 * live_event, then pg_notify with its id), straight in the database: what a running server's open
 * streams must pass on, whether its listening connection heard the announcement or not. Answers
 * the event's id.
 */
export async function announceLiveEvent(db: StatementRunner, event: { tenantCode: string; organizationCode: string; deviceCode: string }): Promise<string> {
  const { rows } = await db.query(
    `INSERT INTO live_event (kind, tenant_code, organization_code, payload, created_at)
     VALUES ('device.offline', $1, $2, jsonb_build_object('deviceCode', $3::text), now()) RETURNING id::text AS id, created_at`,
    [event.tenantCode, event.organizationCode, event.deviceCode],
  );
  const id = String(rows[0].id);
  const at = new Date(rows[0].created_at as Date).toISOString();
  await db.query('SELECT pg_notify($1, $2)', [
    'live_event',
    JSON.stringify({ id, kind: 'device.offline', tenantCode: event.tenantCode, organizationCode: event.organizationCode, payload: { deviceCode: event.deviceCode }, at }),
  ]);
  return id;
}
