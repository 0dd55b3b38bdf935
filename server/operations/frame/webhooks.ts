import type { Queryable } from '../../db/database';
import { fail } from '../../http/envelope';
import { newWebhookCode, newWebhookSecret, privateTarget, WEBHOOK_EVENTS, webhookSealBinding, type WebhookEvent } from '../../ingest/webhookDelivery';
import { sealSecret, secretCipherKey } from '../../security/secrets';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, flag, objectOf, schemaOf, text, plainText } from '../../core/params';
import { column, contains, equals, listing, textColumn, timeColumn, type ItemOf } from '../../core/listing';
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

const recent = 'webhook_delivery x WHERE x.webhook_id = w.id';
const WEBHOOKS = listing({
  from: 'webhook w',
  scope: async (where, context) => void where.add('w.tenant_code = $?', await adminTenant(context)),
  filters: { keyword: contains(['w.name', 'w.url'], text(64), { trim: true }) },
  columns: {
    code: column<string>('w.code'),
    name: column<string>('w.name'),
    url: column<string>('w.url'),
    events: column<WebhookEvent[]>('w.events'),
    eventNames: column('w.events', (events: WebhookEvent[]) => events.map((event) => WEBHOOK_EVENT_LABELS[event] ?? event).join('、')),
    enabled: column<boolean>('w.enabled'),
    /** Deliveries sent, and given up, that the log still holds (server/ingest/delivery.ts WEBHOOK_LOG_DAYS). */
    deliveredCount: column<number>(`(SELECT count(*)::int FROM ${recent} AND x.state = 'sent')`),
    failedCount: column<number>(`(SELECT count(*)::int FROM ${recent} AND x.state = 'failed')`),
    /** The newest delivery's state (pending, sending, sent, failed), or '' when there is none. */
    lastState: textColumn(`(SELECT x.state FROM ${recent} ORDER BY x.id DESC LIMIT 1)`),
    lastTime: timeColumn(`(SELECT x.created_at FROM ${recent} ORDER BY x.id DESC LIMIT 1)`),
    createTime: timeColumn('w.created_at'),
    updateTime: timeColumn('w.updated_at'),
  },
  sorts: { createTime: 'w.created_at', name: 'w.name' },
  fallback: 'w.id DESC',
});

/** A webhook, as its page answers it. */
export type WebhookRecord = ItemOf<typeof WEBHOOKS>;

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
  paramSchema: WEBHOOKS.paramSchema,
  handler: (context) => WEBHOOKS.page(context),
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

/** An attempt as the attempt log's JSON holds it. */
interface AttemptRow {
  attempt: number;
  outcome: string;
  status_code: number | null;
  error: string;
  duration_ms: number;
  attempted_at: string;
}

const DELIVERIES = listing({
  from: 'webhook_delivery d JOIN webhook w ON w.id = d.webhook_id',
  scope: async (where, context) => void where.add('d.tenant_code = $?', await adminTenant(context)),
  filters: {
    webhookCode: equals('w.code', CODE),
    event: equals('d.event', enumOf(WEBHOOK_EVENTS)),
    state: equals('d.state', enumOf(['pending', 'sending', 'sent', 'failed'])),
  },
  columns: {
    id: column('d.id::text', (id: string) => Number(id)),
    webhookCode: column<string>('w.code'),
    webhookName: column<string>('w.name'),
    url: column<string>('w.url'),
    event: column<WebhookEvent>('d.event'),
    eventName: column('d.event', (event: WebhookEvent) => WEBHOOK_EVENT_LABELS[event] ?? event),
    /** The JSON body as sent and signed. */
    body: column<string>('d.body'),
    /** pending (waiting for its next attempt), sending, sent, failed (given up). */
    state: column<string>('d.state'),
    attempts: column<number>('d.attempts'),
    /** When the next attempt is due (pending), '' otherwise. */
    nextAttemptTime: timeColumn("CASE WHEN d.state = 'pending' THEN d.next_attempt_at END"),
    deliveredTime: timeColumn('d.delivered_at'),
    lastStatus: column<number | null>('d.last_status'),
    lastError: column<string>('d.last_error'),
    createTime: timeColumn('d.created_at'),
    attemptLog: column(
      `COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'outcome', a.outcome, 'status_code', a.status_code, 'error', a.error,
                                                   'duration_ms', a.duration_ms, 'attempted_at', a.attempted_at) ORDER BY a.id)
                   FROM webhook_attempt a WHERE a.delivery_id = d.id), '[]'::json)`,
      (log: AttemptRow[]) =>
        log.map((attempt) => ({
          attempt: attempt.attempt,
          outcome: attempt.outcome,
          statusCode: attempt.status_code,
          error: attempt.error,
          durationMs: attempt.duration_ms,
          attemptTime: new Date(attempt.attempted_at).toISOString(),
        })),
    ),
  },
  sorts: { createTime: 'd.created_at' },
  fallback: 'd.id DESC',
});

/** A delivery of the log, as its page answers it. */
export type WebhookDeliveryRecord = ItemOf<typeof DELIVERIES>;

export const webhookDeliveryPage = defineOperation('openApi.webhook.delivery.page', {
  paramSchema: DELIVERIES.paramSchema,
  handler: (context) => DELIVERIES.page(context),
});

export const WEBHOOK_OPERATIONS = [webhookPage, webhookInsert, webhookModify, webhookDelete, webhookSecretReset, webhookDeliveryPage];
