import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Database, Queryable } from '../db/database';
import type { OperationRouteConfig } from '../http/operability';
import { API_PREFIX } from '../http/routes';
import type { OperationContext, ServerServices } from '../core/context';
import { organizationScope } from '../core/scope';
import { authenticate, selectOrganization } from '../security/caller';
import { enqueueWebhooks, WEBHOOK_EVENTS, type WebhookEvent } from '../ingest/webhookDelivery';
import { watchSessionEnds } from './sessionEnd';

/**
 * The live console (issue 22): one server-sent-events stream per signed-in tab, told of what changed
 * within the caller's organisations without asking. A change is recorded (`live_event`, migration
 * 102) in the transaction that makes it and announced with pg_notify at its commit, to every
 * instance on the database (PGlite: this process); each instance passes it to the streams whose
 * scope holds the event's organisation. A tab that reconnects sends the last id it saw
 * (Last-Event-ID) and is sent what it missed of the last day first.
 */

export const LIVE_PATH = `${API_PREFIX}/live/events`;
const CHANNEL = 'live_event';
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;
/** What a reconnecting tab may still catch up on. */
const RETENTION_HOURS = 24;
/**
 * What a stream is told when its token is refused or its session ends, before it is closed: the
 * console (src/live/liveEvents.ts) asks its session whether it still holds (renewing the token, or
 * going to the login page) instead of reconnecting with the dead token; a plain EventSource waits
 * a minute before it tries again.
 */
const SESSION_ENDED = 'retry: 60000\nevent: session\ndata: {"code":"301"}\n\n';

export type LiveEventKind = 'alarm.raised' | 'alarm.recovered' | 'device.online' | 'device.offline' | 'command.updated';

export interface LiveEvent {
  id: string;
  kind: LiveEventKind;
  tenantCode: string;
  organizationCode: string;
  payload: Record<string, unknown>;
  at: string;
}

type LiveChange = Omit<LiveEvent, 'id' | 'at'>;

/** The kinds a tenant's webhook may subscribe to (a command's progress is the console's only). */
const isWebhookEvent = (kind: LiveEventKind): kind is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(kind);

/**
 * Records changes for the live console and the tenants' webhooks, in the transaction that makes
 * them; announced at its commit. Three statements whatever their number (a batch of device
 * reports brings hundreds of devices online at once): the rows, their announcements, the webhooks.
 */
export async function recordLiveEvents(tx: Queryable, changes: readonly LiveChange[], now: Date): Promise<void> {
  if (changes.length === 0) return;
  const rows = await tx.query<{ id: string; kind: LiveEventKind; tenant_code: string; organization_code: string; payload: Record<string, unknown> }>(
    `INSERT INTO live_event (kind, tenant_code, organization_code, payload, created_at)
     SELECT kind, tenant_code, organization_code, payload, $2 FROM jsonb_to_recordset($1::jsonb) AS v(k int, kind text, tenant_code text, organization_code text, payload jsonb) ORDER BY k
     RETURNING id::text AS id, kind, tenant_code, organization_code, payload`,
    [JSON.stringify(changes.map((change, k) => ({ k, kind: change.kind, tenant_code: change.tenantCode, organization_code: change.organizationCode, payload: change.payload }))), now],
  );
  // In the order they were made (ids follow the rows' order).
  rows.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  const at = now.toISOString();
  const announced: LiveEvent[] = rows.map((row) => ({ id: row.id, kind: row.kind, tenantCode: row.tenant_code, organizationCode: row.organization_code, payload: row.payload, at }));
  await tx.query('SELECT pg_notify($1, x) FROM unnest($2::text[]) AS x', [CHANNEL, announced.map((event) => JSON.stringify(event))]);
  // The tenants' webhooks that subscribed to them are told too (issue 23), after the commit.
  await enqueueWebhooks(
    tx,
    announced.flatMap((event) =>
      isWebhookEvent(event.kind) ? [{ eventId: event.id, event: event.kind, tenantCode: event.tenantCode, organizationCode: event.organizationCode, occurredAt: at, data: event.payload }] : [],
    ),
    now,
  );
}

interface Stream {
  organizations: ReadonlySet<string>;
  send(event: LiveEvent): void;
  end(): void;
}

function frame(event: LiveEvent): string {
  return `id: ${event.id}\nevent: ${event.kind}\ndata: ${JSON.stringify(event)}\n\n`;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/**
 * Passes what the database announces on to the open streams each event is for, oldest first, each
 * once (a catch-up after the listening connection came back finds again what it had passed on);
 * answers what stops listening.
 */
async function fanOut(services: ServerServices, streams: ReadonlySet<Stream>): Promise<() => Promise<void>> {
  // The newest event this instance passed on, and the ids of the latest ones: what a catch-up
  // finds again (announced as the connection came back) is not sent twice.
  let newest = await newestEventId(services.db);
  const recent = new Set<string>();
  const deliver = (event: LiveEvent) => {
    if (recent.has(event.id)) return;
    recent.add(event.id);
    if (recent.size > RECENT_IDS) recent.delete(recent.values().next().value as string);
    if (BigInt(event.id) > newest) newest = BigInt(event.id);
    for (const stream of streams) if (stream.organizations.has(event.organizationCode)) stream.send(event);
  };
  // While a catch-up reads the table, what is announced waits, so a stream still gets its events
  // oldest first (an event announced as the connection came back is newer than those it missed).
  let waiting: LiveEvent[] | null = null;
  const announced = (payload: string) => {
    let event: LiveEvent;
    try {
      event = JSON.parse(payload) as LiveEvent;
    } catch {
      return; // not an event
    }
    if (waiting) waiting.push(event);
    else deliver(event);
  };
  // The listening connection was lost and is back: what was announced meanwhile is read from the
  // table (an event that commits after a newer one was passed on, while the connection was away,
  // is the one it cannot find; a tab that reconnects still catches up by its own last id).
  const catchUp = () => {
    if (waiting) return;
    const held: LiveEvent[] = (waiting = []);
    const release = (missed: LiveEvent[]) => {
      waiting = null;
      [...missed, ...held].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1)).forEach(deliver);
    };
    void missedEvents(services.db, newest.toString(), null, services.config.now()).then(release, (error: unknown) => {
      release([]);
      services.log(`live events: catching up after the database connection came back failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
  return services.db.listen(CHANNEL, announced, catchUp);
}

/** Listens for the announcements and serves the streams; answers what stops listening. */
export async function registerLiveEvents(app: FastifyInstance, services: ServerServices): Promise<() => Promise<void>> {
  const streams = new Set<Stream>();
  const stopListening = await fanOut(services, streams);
  const sessionEnds = await watchSessionEnds(services.db, services.config.now, services.log);
  let lastPrune = 0;

  app.route<{ Querystring: Record<string, unknown> }, OperationRouteConfig>({
    method: 'GET',
    url: LIVE_PATH,
    config: { operation: 'live.events' },
    handler: async (request, reply: FastifyReply) => {
      const query = (request.query ?? {}) as Record<string, unknown>;
      const now = services.config.now();
      // EventSource cannot send headers: the token and organisation may come in the address too.
      const token = text(request.headers.token) ?? text(query.token);
      const caller = await authenticate(services.db, token, now);
      if (!caller) {
        // An EventSource takes any answer but a 200 stream as a failed load, which the browser
        // reports in the console: it is told in the stream instead, and opens it again with the
        // session's next token (src/live/liveEvents.ts). Anyone else gets 401.
        if (!String(request.headers.accept ?? '').includes('text/event-stream')) return reply.code(401).send({ code: '301', message: '用户失效，请重新登录', data: null });
        return reply.code(200).type('text/event-stream; charset=utf-8').header('cache-control', 'no-cache').send(SESSION_ENDED);
      }
      const organizationCode = selectOrganization(caller, text(request.headers.orgcode) ?? text(query.orgCode));
      const context = { ...services, param: {}, page: null, caller, organizationCode, client: { ip: request.ip, userAgent: '' }, now, file: null } satisfies OperationContext<unknown>;
      const scope = await organizationScope(context);
      const organizations = new Set(scope.organizationCodes);

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      raw.write('retry: 3000\n\n');
      let finished = false;
      let unwatch: (() => void) | null = null;
      const keepalive = setInterval(() => raw.write(': keepalive\n\n'), KEEPALIVE_MS);
      keepalive.unref();
      // Listed at once, so that nothing announced after the answer's head went out is missed; what
      // arrives before the stream is ready (its session watched, a reconnecting tab's catch-up read)
      // waits here and follows the caught-up events.
      let waiting: LiveEvent[] | null = [];
      const stream: Stream = { organizations, send: (event) => (waiting ? waiting.push(event) : raw.write(frame(event))), end: () => finish() };
      streams.add(stream);
      /** The stream is done with: forgotten, and closed (told why first when its session ended). */
      const finish = (told = '') => {
        if (finished) return;
        finished = true;
        clearInterval(keepalive);
        streams.delete(stream);
        unwatch?.();
        if (!raw.writableEnded) raw.end(told);
      };
      request.raw.on('close', () => finish());
      // It ends with its session (signed out, expired, its user disabled or deleted: issue 30).
      const watching = await sessionEnds.watch({ sessionId: caller.sessionId, userId: caller.userId, accessToken: token ?? '', end: () => finish(SESSION_ENDED) });
      if (finished) return watching();
      unwatch = watching;
      // What a reconnecting tab missed, before anything new.
      const lastId = text(request.headers['last-event-id']) ?? text(query.lastEventId);
      const missed = lastId && /^\d{1,18}$/.test(lastId) ? await missedEvents(services.db, lastId, [...organizations], now) : [];
      if (finished) return;
      const caughtUp = new Set(missed.map((event) => event.id));
      const arrived = waiting.filter((event) => !caughtUp.has(event.id));
      waiting = null;
      for (const event of [...missed, ...arrived]) raw.write(frame(event));
      if (now.getTime() - lastPrune > 3_600_000) {
        lastPrune = now.getTime();
        void services.db
          .query('DELETE FROM live_event WHERE created_at < $1', [new Date(now.getTime() - RETENTION_HOURS * 3_600_000)])
          .catch((error: unknown) => services.log(`live events: pruning failed: ${error instanceof Error ? error.message : String(error)}`));
      }
    },
  });

  return async () => {
    for (const stream of streams) {
      streams.delete(stream);
      stream.end();
    }
    await stopListening();
    await sessionEnds.stop();
  };
}

/** Ids of the latest events passed on that a catch-up does not send again. */
const RECENT_IDS = 2_000;

async function newestEventId(db: Database): Promise<bigint> {
  const [row] = await db.query<{ id: string | null }>('SELECT max(id)::text AS id FROM live_event');
  return BigInt(row?.id ?? 0);
}

/** The events after `lastId` of the last day, in `organizations` (null: of every organisation), oldest first, 500 at most. */
async function missedEvents(db: Database, lastId: string, organizations: string[] | null, now: Date): Promise<LiveEvent[]> {
  const rows = await db.query<{ id: string; kind: LiveEventKind; tenant_code: string; organization_code: string; payload: Record<string, unknown>; created_at: Date }>(
    // ORDER BY the column, not the text the answer calls id ('10' sorts before '9').
    `SELECT e.id::text AS id, kind, tenant_code, organization_code, payload, created_at FROM live_event e
      WHERE e.id > $1::bigint AND created_at > $2${organizations ? ' AND organization_code = ANY($3::text[])' : ''} ORDER BY e.id LIMIT 500`,
    [lastId, new Date(now.getTime() - RETENTION_HOURS * 3_600_000), ...(organizations ? [organizations] : [])],
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    tenantCode: row.tenant_code,
    organizationCode: row.organization_code,
    payload: row.payload,
    at: new Date(row.created_at).toISOString(),
  }));
}
