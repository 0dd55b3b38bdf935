import { timingSafeEqual } from 'node:crypto';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, type Registry } from 'prom-client';
import type { ServerConfig } from '../config';
import type { Database, PoolStatistics } from '../db/database';
import { listMigrations } from '../db/migrate';
import { BUSY_MESSAGE } from './constraints';
import type { OperationDurations } from './operationDurations';
import { API_PREFIX, callersOfRequests } from './routes';

/**
 * What an operator's load balancer, process manager and monitoring ask of the server:
 * - `GET /api/health`: the process answers (liveness);
 * - `GET /api/ready`: the database answers within READY_TIMEOUT_MS and every migration this build
 *   knows is applied (readiness); otherwise 503 with what is missing;
 * - load shedding (@fastify/under-pressure): past the configured event-loop delay or memory, a call
 *   is answered 503 with Retry-After at once instead of waiting in a queue without end;
 * - `GET /api/metrics`: Prometheus text (prom-client) for a caller with METRICS_TOKEN, 404 without
 *   one configured: requests and their latency by operation and answer code, the database pool,
 *   the process, and what the domain reports (sign-in refusals and lockouts, verification codes
 *   sent and refused, export durations: platformMetrics.ts);
 * - every answer carries `x-request-id`, and one log line per call names it with the operation,
 *   the answer code and the time, and for a signed-in caller the user id, the selected
 *   organisation and its tenant (`tenant`: the tenant at or above that organisation; platform staff
 *   working at the platform's own organisations log the platform's code, P0001 in the seed).
 */

export const HEALTH_PATH = `${API_PREFIX}/health`;
export const READY_PATH = `${API_PREFIX}/ready`;
export const METRICS_PATH = `${API_PREFIX}/metrics`;
/**
 * `npm run backup` asks the running server for a consistent copy here (the embedded engine only):
 * with the token of the data folder's lock file, which only who can read the folder has. The
 * answer is one line of JSON (what every table held) and then the gzipped tarball.
 */
export const BACKUP_PATH = `${API_PREFIX}/admin/backup`;
/** The paths above answer even under pressure: a balancer must be able to ask. */
const OPERATOR_PATHS = new Set([HEALTH_PATH, READY_PATH, METRICS_PATH, BACKUP_PATH]);
const READY_TIMEOUT_MS = 2000;

/** The operation behind a route (set by routes.ts in `request.routeOptions.config`). */
export interface OperationRouteConfig {
  operation?: string;
}


function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** What keeps the server from being ready; empty when it is. */
export async function readinessProblems(db: Database): Promise<string[]> {
  try {
    const [row] = await withTimeout(db.query<{ latest: string | null }>('SELECT max(name) AS latest FROM schema_migration'), READY_TIMEOUT_MS, 'the database');
    const expected = listMigrations().at(-1)?.name ?? null;
    if (expected && (row?.latest ?? '') < expected) return [`migrations: the database is at ${row?.latest ?? 'none'}, this build needs ${expected}`];
    return [];
  } catch (error) {
    return [`database: ${error instanceof Error ? error.message : String(error)}`];
  }
}

function tokenMatches(given: string | undefined, expected: string): boolean {
  const presented = Buffer.from(given?.replace(/^Bearer\s+/i, '') ?? '');
  const wanted = Buffer.from(expected);
  return presented.length === wanted.length && timingSafeEqual(presented, wanted);
}

/** The envelope code of an answer the route sent (`"200"`, `"409"`…), or the HTTP status for anything else. */
function answerCode(reply: FastifyReply): string {
  const code = (reply as FastifyReply & { answerCode?: string }).answerCode;
  return code ?? String(reply.statusCode);
}

/** Remembers the envelope code of a JSON answer for the metrics and the log line. */
function noteAnswerCode(reply: FastifyReply, payload: unknown): void {
  if (typeof payload !== 'string' || !payload.startsWith('{"code":"')) return;
  const end = payload.indexOf('"', 9);
  if (end > 9) (reply as FastifyReply & { answerCode?: string }).answerCode = payload.slice(9, end);
}

function operationOf(request: FastifyRequest): string {
  const config = request.routeOptions.config as OperationRouteConfig | undefined;
  if (config?.operation) return config.operation;
  const url = request.routeOptions.url ?? '';
  if (url.startsWith('/files/')) return 'files';
  return OPERATOR_PATHS.has(url) ? url.slice(API_PREFIX.length + 1) : 'other';
}

/**
 * Registers health, readiness, load shedding, metrics and request ids on `app`; every call's time
 * also goes to `durations` (the system status page's slowest operations of the last hour). The
 * metrics are served from `registry`, which also holds the domain's series (platformMetrics.ts).
 */
export async function registerOperability(
  app: FastifyInstance,
  db: Database,
  config: ServerConfig,
  durations: OperationDurations,
  registry: Registry,
  /** What else keeps the server from being ready (the device broker), checked with the database. */
  otherProblems: () => string[] = () => [],
): Promise<void> {
  collectDefaultMetrics({ register: registry, prefix: 'iot_' });
  const requests = new Counter({ name: 'iot_requests_total', help: '按操作与应答码统计的请求数', labelNames: ['operation', 'code'], registers: [registry] });
  const latency = new Histogram({
    name: 'iot_request_duration_seconds',
    help: '按操作与应答码统计的请求耗时（秒）',
    labelNames: ['operation', 'code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const slow = new Counter({ name: 'iot_slow_requests_total', help: `耗时不少于 SLOW_REQUEST_MS（${config.slowRequestMs} ms）的请求数`, labelNames: ['operation'], registers: [registry] });
  const shed = new Counter({ name: 'iot_shed_requests_total', help: '因服务压力过大而拒绝的请求数', registers: [registry] });
  const pool = db.poolStatistics?.bind(db);
  if (pool) {
    const gauge = (name: string, help: string, read: (stats: PoolStatistics) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read(pool()));
        },
      });
    gauge('iot_db_pool_connections', '数据库连接池中的连接数', (stats) => stats.total);
    gauge('iot_db_pool_idle_connections', '数据库连接池中空闲的连接数', (stats) => stats.idle);
    gauge('iot_db_pool_waiting_clients', '等待数据库连接的调用数', (stats) => stats.waiting);
  }

  await app.register(underPressure, {
    maxEventLoopDelay: config.maxEventLoopDelayMs,
    maxHeapUsedBytes: config.maxHeapUsedBytes,
    retryAfter: 10,
    pressureHandler: (request, reply) => {
      if (OPERATOR_PATHS.has(request.routeOptions.url ?? '')) return;
      shed.inc();
      void reply.code(503).header('retry-after', '10').send({ code: '503', message: BUSY_MESSAGE, data: null });
    },
  });

  app.addHook('onSend', async (request, reply, payload) => {
    void reply.header('x-request-id', request.id);
    noteAnswerCode(reply, payload);
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const operation = operationOf(request);
    const code = answerCode(reply);
    const seconds = reply.elapsedTime / 1000;
    requests.inc({ operation, code });
    latency.observe({ operation, code }, seconds);
    if (reply.elapsedTime >= config.slowRequestMs) slow.inc({ operation });
    // Catalogued operations only: not the operator's paths (health, metrics…) nor the files.
    if ((request.routeOptions.config as OperationRouteConfig | undefined)?.operation) durations.record(operation, reply.elapsedTime, config.now());
    const caller = callersOfRequests.get(request);
    const ms = Math.round(reply.elapsedTime);
    request.log.info(
      { operation, code, status: reply.statusCode, ms, userId: caller?.userId, organization: caller?.organizationCode ?? undefined, tenant: caller?.tenantCode ?? undefined },
      `${request.method} ${operation} ${code} ${ms} ms`,
    );
  });

  app.get(HEALTH_PATH, async () => ({ status: 'ok' }));
  app.get(READY_PATH, async (_request, reply) => {
    const problems = [...(await readinessProblems(db)), ...otherProblems()];
    if (problems.length === 0) return { status: 'ready' };
    return reply.code(503).send({ status: 'not ready', problems });
  });
  app.post(BACKUP_PATH, async (request, reply) => {
    const token = request.headers['x-backup-token'];
    if (!config.backupToken || !db.backup) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    if (typeof token !== 'string' || !tokenMatches(token, config.backupToken)) return reply.code(401).type('text/plain; charset=utf-8').send('Unauthorized');
    const { archive, tables } = await db.backup();
    const manifest = Buffer.from(`${JSON.stringify({ takenAt: config.now().toISOString(), tables })}\n`);
    return reply.type('application/octet-stream').send(Buffer.concat([manifest, Buffer.from(await archive.arrayBuffer())]));
  });
  app.get(METRICS_PATH, async (request, reply) => {
    if (!config.metricsToken) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    if (!tokenMatches(request.headers.authorization, config.metricsToken)) return reply.code(401).type('text/plain; charset=utf-8').send('Unauthorized');
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
