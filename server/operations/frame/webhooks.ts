import type { Queryable } from '../../db/database';
import { fail } from '../../http/envelope';
import { newWebhookCode, newWebhookSecret, privateTarget, WEBHOOK_EVENTS, webhookSealBinding, type WebhookEvent } from '../../ingest/webhookDelivery';
import { sealSecret, secretCipherKey } from '../../security/secrets';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, flag, objectOf, schemaOf, text, plainText } from '../../core/params';
import { Conditions, containing, pageOf, type Listing, type Page } from '../../core/listQuery';
import { callerTenant } from '../../core/access';

/**
 * Webhooks (issue 23): the URLs a tenant's administrator registers to be told of the tenant's alarms
 * raised and recovered and its devices coming online and going offline, and the log of their
 * deliveries (server/ingest/webhookDelivery.ts sends them). TENANT_ADMIN only, of the caller's own
 * tenant: another tenant's webhook is "404", anyone else "403". A webhook's secret signs its
 * deliveries; it is answered once, when the webhook is made or its secret reset.
 */

const ADMIN_ROLE = 'TENANT_ADMIN';
const CODE = schemaOf<string>({ type: 'string', pattern: '^wh_[0-9a-f]{16}$' });
const URL_SCHEMA = schemaOf<string>({
  type: 'string',
  minLength: 8,
  maxLength: 512,
  pattern: '^https?://[^\\s<>"]+$',
});
const EVENTS = schemaOf<WebhookEvent[]>({
  type: 'array',
  minItems: 1,
  maxItems: WEBHOOK_EVENTS.length,
  uniqueItems: true,
  items: { type: 'string', enum: [...WEBHOOK_EVENTS] },
});

export const WEBHOOK_EVENT_LABELS: Readonly<Record<WebhookEvent, string>> = {
  'alarm.raised': '告警产生',
  'alarm.recovered': '告警恢复',
  'device.online': '设备上线',
  'device.offline': '设备离线',
};

/** The caller's tenant, for its administrator only. */
async function adminTenant(context: OperationContext<unknown>): Promise<string> {
  if (!callerOf(context).roles.includes(ADMIN_ROLE)) throw fail.forbidden();
  const tenant = await callerTenant(context);
  if (!tenant) throw fail.forbidden();
  return tenant;
}

/**
 * A URL the platform can post to: http or https with a host and no user name ("400" 参数错误：url
 * otherwise), not naming an address of the platform's own network unless the configuration allows it.
 */
export function checkWebhookUrl(url: string, allowPrivate: boolean): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fail.badField('url');
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname || parsed.username || parsed.password) throw fail.badField('url');
  const inward = allowPrivate ? null : privateTarget(parsed);
  if (inward) throw fail.badRequest(`参数错误：url（${inward} 属于内网地址，平台不向内网投递）`);
  return parsed.toString();
}

interface WebhookRow {
  id: number;
  code: string;
  name: string;
  url: string;
  events: WebhookEvent[];
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
  delivered: number;
  failed: number;
  last_state: string | null;
  last_at: Date | null;
}

export interface WebhookRecord {
  code: string;
  name: string;
  url: string;
  events: WebhookEvent[];
  eventNames: string;
  enabled: boolean;
  /** Deliveries sent, and given up, that the log still holds (server/ingest/delivery.ts WEBHOOK_LOG_DAYS). */
  deliveredCount: number;
  failedCount: number;
  /** The newest delivery's state (pending, sending, sent, failed), or '' when there is none. */
  lastState: string;
  lastTime: string;
  createTime: string;
  updateTime: string;
}

function webhookRecord(row: WebhookRow): WebhookRecord {
  return {
    code: row.code,
    name: row.name,
    url: row.url,
    events: row.events,
    eventNames: row.events.map((event) => WEBHOOK_EVENT_LABELS[event] ?? event).join('、'),
    enabled: row.enabled,
    deliveredCount: row.delivered,
    failedCount: row.failed,
    lastState: row.last_state ?? '',
    lastTime: row.last_at?.toISOString() ?? '',
    createTime: row.created_at.toISOString(),
    updateTime: row.updated_at.toISOString(),
  };
}

const recent = 'webhook_delivery x WHERE x.webhook_id = w.id';
const webhookListing: Listing<WebhookRow, WebhookRecord> = {
  from: 'webhook w',
  columns: `w.id, w.code, w.name, w.url, w.events, w.enabled, w.created_at, w.updated_at,
      (SELECT count(*)::int FROM ${recent} AND x.state = 'sent') AS delivered,
      (SELECT count(*)::int FROM ${recent} AND x.state = 'failed') AS failed,
      (SELECT x.state FROM webhook_delivery x WHERE x.webhook_id = w.id ORDER BY x.id DESC LIMIT 1) AS last_state,
      (SELECT x.created_at FROM webhook_delivery x WHERE x.webhook_id = w.id ORDER BY x.id DESC LIMIT 1) AS last_at`,
  sorts: { createTime: 'w.created_at', name: 'w.name' },
  fallback: 'w.id DESC',
  record: webhookRecord,
};

/** The webhook `code` of `tenant` ("404" Webhook 不存在 otherwise), locked for a change when asked. */
async function findWebhook(db: Queryable, tenant: string, code: string, lock = false): Promise<{ id: number; code: string }> {
  const [row] = await db.query<{ id: number; code: string }>(`SELECT id, code FROM webhook WHERE tenant_code = $1 AND code = $2${lock ? ' FOR UPDATE' : ''}`, [
    tenant,
    code,
  ]);
  if (!row) throw fail.notFound('Webhook 不存在');
  return row;
}

/** At most this many webhooks per tenant: each event is a delivery per webhook. */
export const MAX_WEBHOOKS = 20;

const webhookFields = {
  name: plainText(64),
  url: URL_SCHEMA,
  events: EVENTS,
  enabled: flag,
};

export interface IssuedWebhookSecret {
  code: string;
  /** Shown in this answer only: the server keeps it encrypted and never answers it again. */
  secret: string;
}

export const webhookPage = defineOperation('openApi.webhook.page', {
  paramSchema: objectOf({ keyword: text(64) }),
  async handler(context): Promise<Page<WebhookRecord>> {
    const tenant = await adminTenant(context);
    const where = new Conditions().add('w.tenant_code = $?', tenant);
    const keyword = context.param.keyword?.trim();
    if (keyword) where.add('(w.name ILIKE $? OR w.url ILIKE $?)', containing(keyword));
    return pageOf(context, webhookListing, where);
  },
});

export const webhookInsert = defineOperation('openApi.webhook.insert', {
  paramSchema: objectOf(webhookFields, ['name', 'url', 'events']),
  async handler(context): Promise<IssuedWebhookSecret> {
    const tenant = await adminTenant(context);
    const caller = callerOf(context);
    const url = checkWebhookUrl(context.param.url, context.config.webhookAllowPrivate);
    const code = newWebhookCode();
    const secret = newWebhookSecret();
    const sealed = sealSecret(await secretCipherKey(context.db), webhookSealBinding(code), secret);
    await context.db.transaction(async (tx) => {
      // Counted under the tenant's lock: two inserts at once cannot both pass the limit.
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`webhook:${tenant}`]);
      const [count] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook WHERE tenant_code = $1', [tenant]);
      if ((count?.n ?? 0) >= MAX_WEBHOOKS) throw fail.badRequest(`每个租户最多 ${MAX_WEBHOOKS} 个 Webhook`);
      await tx.query(
        `INSERT INTO webhook (code, tenant_code, name, url, events, secret_ciphertext, enabled, created_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9, $9)`,
        [code, tenant, context.param.name.trim(), url, context.param.events, sealed, context.param.enabled ?? true, caller.userId, context.now],
      );
    });
    return { code, secret };
  },
});

export const webhookModify = defineOperation('openApi.webhook.modify', {
  paramSchema: objectOf({ code: CODE, ...webhookFields }, ['code', 'name', 'url', 'events']),
  async handler(context): Promise<null> {
    const tenant = await adminTenant(context);
    const url = checkWebhookUrl(context.param.url, context.config.webhookAllowPrivate);
    const row = await findWebhook(context.db, tenant, context.param.code);
    await context.db.query('UPDATE webhook SET name = $2, url = $3, events = $4::text[], enabled = COALESCE($5, enabled), updated_at = $6 WHERE id = $1', [
      row.id,
      context.param.name.trim(),
      url,
      context.param.events,
      context.param.enabled ?? null,
      context.now,
    ]);
    return null;
  },
});

export const webhookDelete = defineOperation('openApi.webhook.delete', {
  paramSchema: objectOf({ code: CODE }, ['code']),
  async handler(context): Promise<null> {
    const tenant = await adminTenant(context);
    const row = await findWebhook(context.db, tenant, context.param.code);
    // Its deliveries and their log go with it.
    await context.db.query('DELETE FROM webhook WHERE id = $1', [row.id]);
    return null;
  },
});

export const webhookSecretReset = defineOperation('openApi.webhook.secret.reset', {
  paramSchema: objectOf({ code: CODE }, ['code']),
  async handler(context): Promise<IssuedWebhookSecret> {
    const tenant = await adminTenant(context);
    const row = await findWebhook(context.db, tenant, context.param.code);
    const secret = newWebhookSecret();
    const sealed = sealSecret(await secretCipherKey(context.db), webhookSealBinding(row.code), secret);
    // Deliveries not yet sent are signed with the new secret from now on.
    await context.db.query('UPDATE webhook SET secret_ciphertext = $2, updated_at = $3 WHERE id = $1', [row.id, sealed, context.now]);
    return { code: row.code, secret };
  },
});

interface DeliveryRow {
  id: string;
  webhook_code: string;
  webhook_name: string;
  url: string;
  event: WebhookEvent;
  body: string;
  state: string;
  attempts: number;
  next_attempt_at: Date;
  delivered_at: Date | null;
  last_status: number | null;
  last_error: string;
  created_at: Date;
  attempt_log: Array<{
    attempt: number;
    outcome: string;
    status_code: number | null;
    error: string;
    duration_ms: number;
    attempted_at: string;
  }>;
}

export interface DeliveryAttempt {
  attempt: number;
  outcome: string;
  statusCode: number | null;
  error: string;
  durationMs: number;
  attemptTime: string;
}

export interface WebhookDeliveryRecord {
  id: number;
  webhookCode: string;
  webhookName: string;
  url: string;
  event: WebhookEvent;
  eventName: string;
  /** The JSON body as sent and signed. */
  body: string;
  /** pending (waiting for its next attempt), sending, sent, failed (given up). */
  state: string;
  attempts: number;
  /** When the next attempt is due (pending), '' otherwise. */
  nextAttemptTime: string;
  deliveredTime: string;
  lastStatus: number | null;
  lastError: string;
  createTime: string;
  attemptLog: DeliveryAttempt[];
}

const deliveryListing: Listing<DeliveryRow, WebhookDeliveryRecord> = {
  from: 'webhook_delivery d JOIN webhook w ON w.id = d.webhook_id',
  columns: `d.id::text AS id, w.code AS webhook_code, w.name AS webhook_name, w.url, d.event, d.body, d.state, d.attempts, d.next_attempt_at, d.delivered_at,
    d.last_status, d.last_error, d.created_at,
    COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'outcome', a.outcome, 'status_code', a.status_code, 'error', a.error,
                                                'duration_ms', a.duration_ms, 'attempted_at', a.attempted_at) ORDER BY a.id)
                FROM webhook_attempt a WHERE a.delivery_id = d.id), '[]'::json) AS attempt_log`,
  sorts: { createTime: 'd.created_at' },
  fallback: 'd.id DESC',
  record: (row) => ({
    id: Number(row.id),
    webhookCode: row.webhook_code,
    webhookName: row.webhook_name,
    url: row.url,
    event: row.event,
    eventName: WEBHOOK_EVENT_LABELS[row.event] ?? row.event,
    body: row.body,
    state: row.state,
    attempts: row.attempts,
    nextAttemptTime: row.state === 'pending' ? row.next_attempt_at.toISOString() : '',
    deliveredTime: row.delivered_at?.toISOString() ?? '',
    lastStatus: row.last_status,
    lastError: row.last_error,
    createTime: row.created_at.toISOString(),
    attemptLog: row.attempt_log.map((attempt) => ({
      attempt: attempt.attempt,
      outcome: attempt.outcome,
      statusCode: attempt.status_code,
      error: attempt.error,
      durationMs: attempt.duration_ms,
      attemptTime: new Date(attempt.attempted_at).toISOString(),
    })),
  }),
};

export const webhookDeliveryPage = defineOperation(
  'openApi.webhook.delivery.page',
  {
    paramSchema: objectOf({
      webhookCode: CODE,
      event: enumOf(WEBHOOK_EVENTS),
      state: enumOf(['pending', 'sending', 'sent', 'failed']),
    }),
    async handler(context): Promise<Page<WebhookDeliveryRecord>> {
      const tenant = await adminTenant(context);
      const where = new Conditions().add('d.tenant_code = $?', tenant);
      where.when(context.param.webhookCode, 'w.code = $?').when(context.param.event, 'd.event = $?').when(context.param.state, 'd.state = $?');
      return pageOf(context, deliveryListing, where);
    },
  },
);

export const WEBHOOK_OPERATIONS = [webhookPage, webhookInsert, webhookModify, webhookDelete, webhookSecretReset, webhookDeliveryPage];
