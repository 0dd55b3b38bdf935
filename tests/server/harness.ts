import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp, type AppOptions } from '../../server/app';
import { loadCatalogue } from '../../server/catalogue';
import { defaultConfig, type ServerConfig } from '../../server/config';
import type { Database } from '../../server/db/database';
import { openPglite } from '../../server/db/pglite';
import { openPostgres } from '../../server/db/postgres';
import type { Envelope } from '../../server/http/envelope';
import { forgetRights } from '../../server/security/caller';
import { forgetLongLists } from '../../server/core/listQuery';
import type { TokenPair } from '../../server/security/tokens';
import { resetToSeed } from '../../server/seed/seed';
import { adminQuery, type PostgresCluster } from '../support/postgresCluster';
import { mismatchLines, watchAnswers } from './contractAnswers';

export const DEMO_PASSWORD = 'Demo@2026';
export const ADMIN_PASSWORD = 'Admin@2026';
export const catalogue = loadCatalogue();

export interface CallOptions {
  token?: string;
  orgCode?: string;
  headers?: Record<string, string>;
  /** The client address the request comes from (127.0.0.1 unless told). */
  ip?: string;
}

/** The engine this project's server files run on: PGlite (project `server`) or PostgreSQL (`server-pg`). */
export const engine = inject('databaseEngine');

export interface TestServer {
  app: FastifyInstance;
  db: Database;
  /** With PostgreSQL, the name of the server's database in the cluster (null on PGlite). */
  databaseName: string | null;
  /** Moves the server's clock forward. */
  advance(seconds: number): void;
  /** The server's clock (moved by advance). */
  now(): Date;
  /** Calls a catalogued operation by name, as the console does. */
  call<T = unknown>(name: string, param?: unknown, options?: CallOptions): Promise<Envelope<T>>;
  /** Posts a raw body to an /api path and answers HTTP status and parsed body. */
  post(path: string, payload: string | object | undefined, headers?: Record<string, string>, ip?: string): Promise<{ status: number; body: Envelope }>;
  /** Signs in and answers the access token. */
  login(loginName: string, password?: string): Promise<string>;
  loginPair(loginName: string, password?: string): Promise<TokenPair>;
  /** The newest code the outbox holds for a target. */
  latestCode(target: string): Promise<string>;
  /** A fresh image captcha and its answer: what an anonymous code request carries. */
  solvedCaptcha(): Promise<{ captchaUuid: string; captchaCode: string }>;
  /** Adds secrets a test gave the server (a channel's secret, a token it was issued) to those close() checks the log for. */
  neverLogged(...secrets: string[]): void;
  /** Lines the server logged. */
  logs: string[];
  close(): Promise<void>;
}

export interface StartOptions {
  config?: Partial<ServerConfig>;
  operations?: AppOptions['operations'];
}

/**
 * Databases that closed test servers gave back, put back to the seeded world. The files of a worker
 * share this module (vitest `isolate: false`) and run one after another, so the next server takes
 * one instead of loading the dump again: a reset restores only the tables written since (what
 * dev.reset does before every browser test, and platform.test.ts proves exact), where loading the
 * dump unpacks every table.
 */
const idle: Database[] = [];
/** The cluster database behind each PostgreSQL pool of this worker. */
const databaseNames = new WeakMap<Database, string>();

const noSeedRows = () => Promise.reject(new Error('the seeded dump carries no kept copy to reset from'));

/** Puts a closed server's database back to the seeded world and keeps it for the next; closes it when that fails. */
async function giveBack(db: Database): Promise<void> {
  try {
    await resetToSeed(db, noSeedRows);
    forgetRights(db);
    forgetLongLists(db);
    idle.push(db);
  } catch {
    await db.close().catch(() => undefined);
  }
}

/** The throw-away PostgreSQL cluster of project `server-pg` (global-setup-pg.ts). */
export const postgresCluster: Pick<PostgresCluster, 'adminUrl' | 'appUrl'> = {
  adminUrl: (database = 'postgres') => `postgres://postgres@127.0.0.1:${inject('postgresPort')}/${database}`,
  appUrl: (database) => `postgres://iot_app@127.0.0.1:${inject('postgresPort')}/${database}`,
};

let copies = 0;

/** A new database of the cluster, copied from the seeded template; answers its name. */
export async function copySeededDatabase(): Promise<string> {
  copies += 1;
  const name = `iot_test_${process.pid}_${copies}`;
  await adminQuery(postgresCluster, `CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')} OWNER iot_app`);
  return name;
}

/** A fresh seeded database on this project's engine: an in-memory PGlite from the dump, or a PostgreSQL copy. */
async function openSeededDatabase(): Promise<Database> {
  if (engine === 'postgres') {
    const name = await copySeededDatabase();
    const db = openPostgres({ connectionString: postgresCluster.appUrl(name) });
    databaseNames.set(db, name);
    return db;
  }
  return openPglite({ dump: new Blob([readFileSync(inject('seededDatabaseDump'))]) });
}

/** A server on a copy of the seeded database (the global setup's dump or template), as seeded. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const db = idle.pop() ?? (await openSeededDatabase());
  let offsetMs = 0;
  const config = defaultConfig({ dev: true, now: () => new Date(Date.now() + offsetMs), ...options.config });
  const logs: string[] = [];
  const app = await buildApp({
    db,
    config,
    operations: options.operations,
    logger: { level: 'info', stream: { write: (line: string) => logs.push(line) } },
  });
  // Every answer is checked against its operation's contract (issue 23); close() reports departures.
  const mismatches = watchAnswers(app);

  const post: TestServer['post'] = async (path, payload, headers = {}, ip) => {
    const response = await app.inject({
      method: 'POST',
      ...(ip ? { remoteAddress: ip } : {}),
      url: `/api${path}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'object' ? JSON.stringify(payload) : payload,
    });
    return { status: response.statusCode, body: response.json<Envelope>() };
  };

  const call: TestServer['call'] = async <T>(name: string, param: unknown = {}, options: CallOptions = {}) => {
    const entry = catalogue[name];
    if (!entry) throw new Error(`operation ${name} is not catalogued`);
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.token = options.token;
    if (options.orgCode) headers.orgCode = options.orgCode;
    const { status, body } = await post(entry.path, { param }, headers, options.ip);
    if (status !== 200) throw new Error(`${name} answered HTTP ${status}`);
    return body as Envelope<T>;
  };

  // What must never reach the log (issue 24): the passwords, every token and code the tests saw.
  const secrets = new Set<string>([DEMO_PASSWORD, ADMIN_PASSWORD]);
  const loginPair = async (loginName: string, password = DEMO_PASSWORD) => {
    secrets.add(password);
    const reply = await call<TokenPair>('auth.login', { loginName, password });
    if (reply.code !== '200' || !reply.data) throw new Error(`login ${loginName} failed: ${reply.code} ${reply.message}`);
    secrets.add(reply.data.accessToken);
    secrets.add(reply.data.refreshToken);
    return reply.data;
  };

  return {
    app,
    db,
    databaseName: databaseNames.get(db) ?? null,
    advance: (seconds) => {
      offsetMs += seconds * 1000;
    },
    now: () => config.now(),
    call,
    post,
    loginPair,
    login: async (loginName, password) => (await loginPair(loginName, password)).accessToken,
    latestCode: async (target) => {
      const reply = await call<Array<{ target: string; code: string }>>('dev.outbox', { target });
      const entry = reply.data?.[0];
      if (!entry) throw new Error(`no code was sent to ${target}`);
      secrets.add(entry.code);
      return entry.code;
    },
    solvedCaptcha: async () => {
      // Written straight into the table (verification.captcha.get is limited per address, and
      // every test request comes from 127.0.0.1); verification.test.ts fetches and solves real ones.
      const captchaUuid = randomUUID();
      const now = config.now();
      await db.query('INSERT INTO captcha (uuid, answer, expires_at, created_at) VALUES ($1, $2, $3, $4)', [captchaUuid, '2468', new Date(now.getTime() + 300_000), now]);
      return { captchaUuid, captchaCode: '2468' };
    },
    neverLogged: (...values) => {
      for (const value of values) secrets.add(value);
    },
    logs,
    close: async () => {
      await app.close();
      await giveBack(db);
      const leaks = secretsIn(logs, secrets);
      if (leaks.length) throw new Error(`the server logged secrets (a password, token or code):\n${leaks.join('\n')}`);
      const departures = mismatchLines(mismatches);
      if (departures.length) throw new Error(`answers departed from their contracts (schemas/contracts.json; npm run contracts after changing a handler):\n${departures.join('\n')}`);
    },
  };
}

/**
 * The log lines that hold one of `secrets`. A secret counts only as a whole word: a six-digit code
 * inside a timestamp or a request id (hex) is not that code.
 */
export function secretsIn(lines: readonly string[], secrets: ReadonlySet<string>): string[] {
  const patterns = [...secrets].filter((secret) => secret.length >= 6).map((secret) => new RegExp(`(?<![0-9A-Za-z])${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![0-9A-Za-z])`));
  return lines.filter((line) => patterns.some((pattern) => pattern.test(line))).map((line) => line.slice(0, 300));
}
