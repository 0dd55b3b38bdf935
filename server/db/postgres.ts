import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Database, Queryable, SqlParam } from './database';
import { DEFAULT_TIME_ZONE } from './database';

export interface PostgresOptions {
  connectionString: string;
  /** Pinned on every connection, whatever the database's or the host's zone is. */
  timeZone?: string;
  /** Connections the pool opens at most (DATABASE_POOL_MAX). */
  poolMax?: number;
  /** A statement running longer is cancelled by the server (DATABASE_STATEMENT_TIMEOUT_MS; 0 = none). */
  statementTimeoutMs?: number;
  /** An idle pooled connection is closed after this long (DATABASE_IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number;
  /** Waiting this long for a connection (a new one, or a free one of a full pool) fails the call (DATABASE_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /**
   * Whether statements with parameters are prepared once per connection and their plans kept
   * (DATABASE_PREPARED_STATEMENTS, on by default). Off for PgBouncer in transaction mode before
   * 1.21 (or without `max_prepared_statements`), which cannot carry a named statement from one
   * transaction to the next.
   */
  preparedStatements?: boolean;
  /** Where the pool reports a connection it lost (the server's log). */
  log?: (message: string) => void;
}

export const POSTGRES_DEFAULTS = {
  poolMax: 10,
  statementTimeoutMs: 30_000,
  idleTimeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  preparedStatements: true,
} as const;

/**
 * Distinct statements given a name at most (issue 19). A name is prepared on each connection that
 * runs it and kept there, with its plan, while the connection lives; the lists' statements are a
 * few hundred (one per list and filter combination: the offset of a page is a parameter). Past
 * the limit statements are sent unnamed, as they were before.
 */
export const PREPARED_STATEMENT_LIMIT = 1_000;

/**
 * Names for statement texts. Named, PostgreSQL parses and plans a statement once per connection
 * and keeps its plan (after five runs, a generic plan when it costs no more than the ones made for
 * the values): planning was a third of a list page's database time. A text whose kept plan no
 * longer fits the tables (a column added by a migration run by another instance: SQLSTATE 0A000)
 * gets a new name, so each connection prepares it again.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private renamed = 0;

  constructor(private readonly limit = PREPARED_STATEMENT_LIMIT) {}

  /** The name of `sql`, or undefined when it is sent unnamed (no parameters, or past the limit). */
  nameOf(sql: string, parameterCount: number): string | undefined {
    // Without parameters pg sends a simple query, which may hold several statements: never named.
    if (parameterCount === 0) return undefined;
    const known = this.names.get(sql);
    if (known !== undefined || this.names.size >= this.limit) return known;
    const name = `iot_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}_${this.renamed}`;
    this.names.set(sql, name);
    return name;
  }

  /** Gives `sql` a new name the next time (its kept plan was refused). */
  rename(sql: string): void {
    if (!this.names.delete(sql)) return;
    this.renamed += 1;
  }
}

/** The kept plan of a named statement no longer fits its tables (PostgreSQL: "cached plan must not change result type"). */
export function isStalePlan(error: unknown): boolean {
  return sqlStateOf(error) === '0A000' && error instanceof Error && /cached plan/i.test(error.message);
}

/** How often a transaction the database could not serialise is run again before the caller is told. */
const SERIALIZATION_RETRIES = 8;
/** SQLSTATEs after which a transaction may simply run again: it was rolled back whole. */
const RETRYABLE = new Set(['40001', '40P01']);
/**
 * The server ended the connection before the statement completed (an administrator's
 * `pg_terminate_backend`, a shutdown, a standby promoted): nothing of it was committed, so it may be
 * sent again on another connection. A socket that merely broke is not among them: a COMMIT could
 * have landed before the answer was lost, so that call fails rather than risk doing it twice.
 */
const ENDED_BY_SERVER = new Set(['57P01', '57P02', '57P03']);
/** How often a statement or transaction on a connection the server ended is sent again. */
const RECONNECT_RETRIES = 3;

const sqlStateOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : undefined;

/** A connection that is gone (the server restarted, an administrator ended it, the network broke). */
export function isConnectionLost(error: unknown): boolean {
  const state = sqlStateOf(error);
  if (state && (state.startsWith('08') || state === '57P01' || state === '57P02' || state === '57P03')) return true;
  if (state && ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(state)) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection.*(closed|ended)|Client has encountered a connection error/i.test(message);
}

function queryable(target: pg.Pool | pg.PoolClient, names: StatementNames | null): Queryable {
  return {
    async query<T>(sql: string, params: readonly SqlParam[] = []) {
      const name = names?.nameOf(sql, params.length);
      if (name === undefined) return (await target.query(sql, [...params])).rows as T[];
      try {
        return (await target.query({ name, text: sql, values: [...params] })).rows as T[];
      } catch (error) {
        // Outside a transaction the statement is sent again, unnamed; inside one the transaction
        // has failed and is run again whole (openPostgres's transaction retries a stale plan).
        if (!isStalePlan(error)) throw error;
        names?.rename(sql);
        if (target instanceof pg.Pool) return (await target.query(sql, [...params])).rows as T[];
        throw error;
      }
    },
    async exec(sql: string) {
      await target.query(sql);
    },
  };
}

/** Runs `attempt` again while the failure says it may be (see RETRYABLE, ENDED_BY_SERVER). */
async function withRetries<T>(attempt: () => Promise<T>, retryable: (state: string, error: unknown) => boolean, limit: number): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      const state = sqlStateOf(error) ?? '';
      if (tries >= limit || !retryable(state, error)) throw error;
      // Apart, and later each time, so that the callers that collided do not collide again.
      await pause(Math.random() * 5 * 2 ** tries);
    }
  }
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `'Asia/Shanghai'` as an SQL literal (zone names are letters, digits, `/`, `_`, `+`, `-`). */
function zoneLiteral(zone: string): string {
  if (!/^[A-Za-z0-9/_+-]{1,64}$/.test(zone)) throw new Error(`not a time zone name: ${zone}`);
  return `'${zone}'`;
}

/**
 * A PostgreSQL server reached through a `pg` pool (DATABASE_URL). Every connection is pinned to
 * the business time zone and the statement timeout as it opens; a connection the server ends
 * (restart, failover, `pg_terminate_backend`) is reported and replaced, never fatal to the process.
 */
export function openPostgres(options: PostgresOptions): Database {
  const settings = { ...POSTGRES_DEFAULTS, ...definedOnly(options) };
  const names = settings.preparedStatements ? new StatementNames() : null;
  const log = options.log ?? (() => undefined);
  // Session settings are SET rather than sent as start-up options: PgBouncer in transaction mode
  // refuses unknown start-up options, and it keeps TimeZone per client (a tracked parameter).
  const setup = `SET TIME ZONE ${zoneLiteral(options.timeZone ?? DEFAULT_TIME_ZONE)}; SET statement_timeout = ${Math.trunc(settings.statementTimeoutMs)}`;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: settings.poolMax,
    idleTimeoutMillis: settings.idleTimeoutMs,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    application_name: 'iot-console',
    // Awaited before the connection serves its first caller; when it fails, the connection is closed.
    onConnect: async (client) => {
      await client.query(setup);
    },
  });
  // Without a listener an idle connection that the server ends takes the whole process down.
  pool.on('error', (error) => log(`database connection lost (it will be replaced): ${error.message}`));

  async function runTransaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      const result = await work(queryable(client, names));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (isConnectionLost(error)) broken = error instanceof Error ? error : new Error(String(error));
      else {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        }
      }
      throw error;
    } finally {
      // A connection that is lost or failed to roll back is closed, not given to the next caller.
      client.release(broken);
    }
  }

  const direct = queryable(pool, names);
  const listeners = new Set<() => Promise<void>>();
  const endedByServer = (state: string) => ENDED_BY_SERVER.has(state);
  return {
    engine: 'postgresql',
    query: (sql, params) => withRetries(() => direct.query(sql, params), endedByServer, RECONNECT_RETRIES),
    exec: (sql) => withRetries(() => direct.exec(sql), endedByServer, RECONNECT_RETRIES),
    transaction: (work) =>
      // A named statement's kept plan refused (isStalePlan): run again, the statement renamed.
      withRetries(() => runTransaction(work), (state, error) => RETRYABLE.has(state) || isStalePlan(error) || endedByServer(state), SERIALIZATION_RETRIES),
    async exclusively(name, work) {
      // A transaction-level lock held by an open transaction on a connection of its own: through
      // PgBouncer in transaction mode that transaction keeps one server connection until it ends,
      // where a session lock could be released on another connection (or never).
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        // The wait is as long as the other instance's work (a first seed), not a statement's.
        await client.query('SET LOCAL statement_timeout = 0');
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [name]);
        try {
          return await work();
        } finally {
          await client.query('COMMIT');
        }
      } catch (error) {
        broken = error instanceof Error ? error : new Error(String(error));
        throw error;
      } finally {
        client.release(broken);
      }
    },
    poolStatistics: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    listen: (channel, onPayload) => listenOn(options.connectionString, channel, onPayload, log, listeners),
    close: async () => {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
}

/** How long a listening connection that was lost waits before it connects again. */
const RELISTEN_DELAY_MS = 1000;

/**
 * A connection of its own, outside the pool, that LISTENs on `channel` (a session that waits for
 * notifications cannot be shared; through PgBouncer it needs session mode). A lost connection is
 * opened again and listens again; notifications sent meanwhile are missed, which the caller knows
 * how to make up for (the live events catch up from their table).
 */
async function listenOn(
  connectionString: string,
  channel: string,
  onPayload: (payload: string) => void,
  log: (message: string) => void,
  listeners: Set<() => Promise<void>>,
): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  // The connection listening now (replaced when lost); a holder, since the callbacks replace it.
  const current: { client: pg.Client | null } = { client: null };
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString, application_name: 'iot-console-listen' });
    next.on('notification', (message) => {
      if (message.channel === channel) onPayload(message.payload ?? '');
    });
    const lost = (error?: Error) => {
      if (stopped || current.client !== next) return;
      current.client = null;
      log(`database notifications of ${channel} lost${error ? `: ${error.message}` : ''}; listening again`);
      void next.end().catch(() => undefined);
      retry = setTimeout(() => void connect().catch((failure: unknown) => lost(failure instanceof Error ? failure : undefined)), RELISTEN_DELAY_MS);
      retry.unref();
    };
    next.on('error', lost);
    next.on('end', () => lost());
    current.client = next;
    await next.connect();
    await next.query(`LISTEN ${channel}`);
  };
  try {
    await connect();
  } catch (error) {
    stopped = true;
    if (retry) clearTimeout(retry);
    await current.client?.end().catch(() => undefined);
    throw error;
  }
  const stop = async () => {
    stopped = true;
    listeners.delete(stop);
    if (retry) clearTimeout(retry);
    await current.client?.end().catch(() => undefined);
  };
  listeners.add(stop);
  return stop;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
