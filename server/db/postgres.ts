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
 * The server ended the connection (an administrator's `pg_terminate_backend`, a shutdown, a standby
 * promoted). Before a transaction's COMMIT nothing of it was committed, so it may run again on
 * another connection; at its COMMIT, or for a statement that commits by itself, the commit may have
 * landed just before the connection ended (PostgreSQL checks for the signal after committing and
 * before answering: a restart under load showed it), so only what cannot have written anything is
 * sent again (a read; a transaction that failed before its COMMIT). A socket that merely broke is
 * not among them either.
 */
const ENDED_BY_SERVER = new Set(['57P01', '57P02', '57P03']);

/**
 * SQLSTATE 08007, transaction_resolution_unknown: the connection was lost while the COMMIT was
 * under way, so whether it committed is unknown. Never run again (it might be twice); answered
 * "503" 服务繁忙 (a lost connection), which promises nothing either way.
 */
export class CommitOutcomeUnknown extends Error {
  readonly code = '08007';
  constructor(override readonly cause: unknown) {
    super(`the connection was lost during COMMIT: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/**
 * Whether a statement sent outside a transaction cannot have written anything, so that it may be
 * sent again when the server ended its connection: a plain read, by its text (a SELECT that calls
 * a function with an effect, or a data-modifying WITH, is not taken for one).
 */
export function isPlainRead(sql: string): boolean {
  return /^\s*(SELECT|SHOW|VALUES|WITH)\b/i.test(sql) && !/\b(INSERT|UPDATE|DELETE|MERGE)\b|\b(nextval|setval|pg_notify|set_config|pg_advisory\w*)\s*\(/i.test(sql);
}
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

/** `inTransaction`: a statement of a transaction (a refused kept plan fails it, to run it again whole). */
function queryable(target: pg.PoolClient, names: StatementNames | null, inTransaction: boolean): Queryable {
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
        if (!inTransaction) return (await target.query(sql, [...params])).rows as T[];
        throw error;
      }
    },
    async exec(sql: string) {
      await target.query(sql);
    },
  };
}

/** A kind of failure after which the work may run again, and how often at most. */
interface RetryBudget {
  matches(state: string, error: unknown): boolean;
  /** Tries in all, the first included. */
  limit: number;
}

/**
 * Runs `attempt` again while the failure is of a budget's kind and that budget is not spent. Each
 * kind counts on its own: a transaction whose connections were ended twice still gets its full
 * share of runs against concurrent writers (with 20 writers on one tenant's rows, a shared count
 * left some "409" after a connection was ended under them).
 */
async function withRetries<T>(attempt: () => Promise<T>, budgets: readonly RetryBudget[]): Promise<T> {
  const used = budgets.map(() => 1);
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      const state = sqlStateOf(error) ?? '';
      const kind = budgets.findIndex((budget) => budget.matches(state, error));
      if (kind < 0 || used[kind] >= budgets[kind].limit) throw error;
      used[kind] += 1;
      // Apart, and later each time, so that the callers that collided do not collide again.
      await pause(Math.random() * 5 * 2 ** Math.min(tries, 8));
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
    const checkout = await checkOut();
    const { client } = checkout;
    let broken: Error | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      const result = await work(queryable(client, names, true));
      try {
        await client.query('COMMIT');
      } catch (error) {
        if (isConnectionLost(error)) throw new CommitOutcomeUnknown(error);
        throw error;
      }
      return result;
    } catch (error) {
      if (error instanceof CommitOutcomeUnknown || isConnectionLost(error)) broken = error instanceof Error ? error : new Error(String(error));
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
      checkout.release(broken);
    }
  }

  const checkOut = checkOutOf(pool, log);

  /**
   * One statement outside a transaction, on a connection of its own checked out for it. A failure
   * to get the connection sent nothing, so it is tried again when the server ended the connection
   * as it opened; once sent, only a plain read is (see isPlainRead).
   */
  async function standalone<T>(sql: string, run: (statement: Queryable) => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries += 1) {
      let checkout: Checkout;
      try {
        checkout = await checkOut();
      } catch (error) {
        if (tries >= RECONNECT_RETRIES || !endedByServer(sqlStateOf(error) ?? '')) throw error;
        await pause(Math.random() * 5 * 2 ** tries);
        continue;
      }
      try {
        const result = await run(queryable(checkout.client, names, false));
        checkout.release();
        return result;
      } catch (error) {
        checkout.release(isConnectionLost(error) ? (error instanceof Error ? error : new Error(String(error))) : undefined);
        if (tries >= RECONNECT_RETRIES || !endedByServer(sqlStateOf(error) ?? '') || !isPlainRead(sql)) throw error;
        await pause(Math.random() * 5 * 2 ** tries);
      }
    }
  }
  const notifications = notificationsOf(options.connectionString, log);
  const endedByServer = (state: string) => ENDED_BY_SERVER.has(state);
  return {
    engine: 'postgresql',
    // A statement outside a transaction commits by itself: sent again only when it is a read.
    query: (sql, params) => standalone(sql, (statement) => statement.query(sql, params)),
    exec: (sql) => standalone(sql, (statement) => statement.exec(sql)),
    transaction: (work) =>
      // A named statement's kept plan refused (isStalePlan): run again, the statement renamed.
      withRetries(
        () => runTransaction(work),
        [
          { matches: (state, error) => RETRYABLE.has(state) || isStalePlan(error), limit: SERIALIZATION_RETRIES },
          // Before its COMMIT nothing of it was committed: as often as for a concurrent writer.
          { matches: endedByServer, limit: SERIALIZATION_RETRIES },
        ],
      ),
    exclusively: (name, work) => exclusivelyOn(checkOut, name, work),
    poolStatistics: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    listen: (channel, onPayload, onResume) => notifications.listen(channel, onPayload, onResume),
    close: async () => {
      await notifications.close();
      await pool.end();
    },
  };
}

/** A connection of the pool in use: released (discarded when `error`, or when it heard one) when done. */
interface Checkout {
  client: pg.PoolClient;
  release(error?: Error): void;
}

/**
 * Takes a connection from the pool, with an `error` listener for as long as it is out: pg-pool
 * removes its own idle listener at checkout, and a connection the server ends between two
 * statements (or after the statement that saw the error) emits `error` on the Client, which
 * without a listener ends the process (issue 30). What it heard makes the release a discard.
 */
function checkOutOf(pool: pg.Pool, log: (line: string) => void): () => Promise<Checkout> {
  return async () => {
    const client = await pool.connect();
    let lost: Error | undefined;
    const onError = (error: Error) => {
      lost ??= error;
      log(`database connection lost while in use (it will be replaced): ${error.message}`);
    };
    client.on('error', onError);
    return {
      client,
      release: (error) => {
        client.removeListener('error', onError);
        client.release(error ?? lost);
      },
    };
  };
}

/**
 * `work` while holding the lock `name`: a transaction-level lock held by an open transaction on a
 * connection of its own (through PgBouncer in transaction mode that transaction keeps one server
 * connection until it ends, where a session lock could be released on another connection, or never).
 */
async function exclusivelyOn<T>(checkOut: () => Promise<Checkout>, name: string, work: () => Promise<T>): Promise<T> {
  const checkout = await checkOut();
  const { client } = checkout;
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
    checkout.release(broken);
  }
}

/** How long a listening connection that was lost waits before it connects again. */
const RELISTEN_DELAY_MS = 1000;

/** What a Database's listen and close need of its notifications. */
interface Notifications {
  listen(channel: string, onPayload: (payload: string) => void, onResume?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

interface Listener {
  onPayload(payload: string): void;
  onResume?(): void;
}

/**
 * One connection of its own, outside the pool, that LISTENs on every channel the server listens to
 * (a session that waits for notifications cannot be shared with queries; through PgBouncer it needs
 * session mode): however many channels (the live console, ended sessions, revoked devices…), one
 * connection per instance. A lost connection is opened again and LISTENs to them all again, a
 * delay later each time until the database is back; notifications sent meanwhile are missed, which
 * each listener knows how to make up for (the live events catch up from their table).
 */
function notificationsOf(connectionString: string, log: (message: string) => void): Notifications {
  const handlers = new Map<string, Set<Listener>>();
  // Listening once already: a connection opened after that is a resumption (the listeners catch up).
  let listenedBefore = false;
  // The connection listening now (null while lost); the callbacks replace it.
  let current: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  /** One attempt later, however many ways the loss was heard (an error, the end, a failed connect). */
  const connectLater = (error?: Error) => {
    if (closed || retry !== null || handlers.size === 0) return;
    log(`database notifications lost${error ? `: ${error.message}` : ''}; listening again`);
    retry = setTimeout(() => {
      retry = null;
      connect().catch((failure: unknown) => connectLater(failure instanceof Error ? failure : undefined));
    }, RELISTEN_DELAY_MS);
    retry.unref();
  };

  const connect = (): Promise<pg.Client> => {
    if (current) return Promise.resolve(current);
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString, application_name: 'iot-console-listen' });
      next.on('notification', (message) => {
        for (const listener of handlers.get(message.channel) ?? []) listener.onPayload(message.payload ?? '');
      });
      let gone = false;
      const lost = (error?: Error) => {
        if (gone) return;
        gone = true;
        if (current === next) current = null;
        void next.end().catch(() => undefined);
        connectLater(error);
      };
      next.on('error', lost);
      next.on('end', () => lost());
      try {
        await next.connect();
        for (const channel of handlers.keys()) await next.query(`LISTEN ${channel}`);
      } catch (error) {
        lost(error instanceof Error ? error : undefined);
        throw error;
      } finally {
        connecting = null;
      }
      if (closed || gone) {
        await next.end().catch(() => undefined);
        throw new Error(closed ? 'the database is closed' : 'the notification connection was lost as it opened');
      }
      current = next;
      if (listenedBefore) for (const listener of [...handlers.values()].flatMap((set) => [...set])) listener.onResume?.();
      listenedBefore = true;
      return next;
    })();
    return connecting;
  };

  return {
    async listen(channel, onPayload, onResume) {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
      const first = !handlers.has(channel);
      const ofChannel = handlers.get(channel) ?? new Set();
      const listener: Listener = { onPayload, onResume };
      ofChannel.add(listener);
      handlers.set(channel, ofChannel);
      try {
        // The connection opens with the first listener (it LISTENs to every channel known then);
        // a channel added later is LISTENed to on the connection there is.
        const wasOpen = current !== null;
        const client = current ?? (await connect());
        if (first && wasOpen) await client.query(`LISTEN ${channel}`);
      } catch (error) {
        ofChannel.delete(listener);
        if (ofChannel.size === 0) handlers.delete(channel);
        throw error;
      }
      return async () => {
        ofChannel.delete(listener);
        if (ofChannel.size > 0 || handlers.get(channel) !== ofChannel) return;
        handlers.delete(channel);
        await current?.query(`UNLISTEN ${channel}`).catch(() => undefined);
      };
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      handlers.clear();
      const client = current;
      current = null;
      await client?.end().catch(() => undefined);
    },
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
