import { createHmac, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database';
import { openSecret, secretCipherKey } from '../openApi/signature';
import type { AttemptOutcome, Claimed, DeliveryQueue } from './delivery';

/**
 * Webhooks (issue 23): a tenant's systems are told, at URLs the tenant registers, of its alarms
 * raised and recovered and its devices coming online and going offline. Each event is one
 * delivery per subscribed webhook, written with the live event in the transaction that makes the
 * change (enqueueWebhooks, called by recordLiveEvent) and sent after it by the delivery loop
 * (delivery.ts): a POST of the JSON body, signed, retried with backoff, every attempt logged.
 *
 * The request: `content-type: application/json` and
 * - `x-iot-signature`: `sha256=` + the lowercase hex HMAC-SHA256 of the body's bytes as sent, under
 *   the webhook's secret (shown once when the webhook is made or its secret reset);
 * - `x-iot-event` (alarm.raised, alarm.recovered, device.online, device.offline), `x-iot-webhook`
 *   (its code), `x-iot-delivery` (the delivery's id: the same on every attempt, so a receiver
 *   that got it already can ignore a retry) and `x-iot-attempt` (1, 2, …).
 * Any 2xx answer is a delivery; anything else, a refused connection or no answer within the time
 * limit is a failed attempt, tried again later. Redirects are not followed.
 */

export const WEBHOOK_EVENTS = ['alarm.raised', 'alarm.recovered', 'device.online', 'device.offline'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_HEADERS = {
  signature: 'x-iot-signature',
  event: 'x-iot-event',
  webhook: 'x-iot-webhook',
  delivery: 'x-iot-delivery',
  attempt: 'x-iot-attempt',
} as const;

/** A new webhook code: `wh_` and 16 hex digits. */
export const newWebhookCode = (): string => `wh_${randomBytes(8).toString('hex')}`;
/** A new webhook secret: `whsec_` and 43 base64url characters (256 random bits). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;
/** What a secret is bound to when sealed (server/openApi/signature.ts sealSecret). */
export const webhookSealBinding = (code: string): string => `webhook:${code}`;

/** The `x-iot-signature` of a body under a secret. */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** What a delivery's body says. */
export interface WebhookBody {
  /** The live event's id: one event, one id, whichever webhooks it goes to. */
  eventId: string;
  event: WebhookEvent;
  tenantCode: string;
  organizationCode: string;
  occurredAt: string;
  /** deviceCode, and alarmCode for an alarm. */
  data: Record<string, unknown>;
}

/**
 * Queues the event for every enabled webhook of its tenant that subscribed to it; in the
 * transaction that makes the change (one statement, nothing when the tenant has none).
 */
export async function enqueueWebhooks(tx: Queryable, body: WebhookBody, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO webhook_delivery (webhook_id, tenant_code, event, body, next_attempt_at, created_at)
     SELECT id, tenant_code, $2, $3, $4, $4 FROM webhook WHERE tenant_code = $1 AND enabled AND $2 = ANY(events)`,
    [body.tenantCode, body.event, JSON.stringify(body), now],
  );
}

type WebhookRow = Claimed & { event: string; body: string; url: string; code: string; secret_ciphertext: string; enabled: boolean };

/** The webhooks' queue for the delivery loop. */
export function webhookQueue(db: Queryable, fetchImpl: typeof fetch = fetch): DeliveryQueue<WebhookRow> {
  let cipherKey: Promise<Buffer> | null = null;
  return {
    name: 'webhooks',
    claim: (database, now, claimUntil, batch) =>
      database.query<WebhookRow>(
        `UPDATE webhook_delivery d SET state = 'sending', attempts = d.attempts + 1, next_attempt_at = $2
           FROM webhook w
          WHERE w.id = d.webhook_id AND d.id IN (
                SELECT id FROM webhook_delivery WHERE state IN ('pending', 'sending') AND next_attempt_at <= $1
                 ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
          RETURNING d.id::text AS id, d.attempts, d.event, d.body, w.url, w.code, w.secret_ciphertext, w.enabled`,
        [now, claimUntil, batch],
      ),
    send: async (row, signal): Promise<AttemptOutcome> => {
      if (!row.enabled) return { ok: false, status: null, error: 'Webhook 已停用', final: true };
      cipherKey ??= secretCipherKey(db);
      const secret = openSecret(await cipherKey, webhookSealBinding(row.code), row.secret_ciphertext);
      if (secret === null) return { ok: false, status: null, error: 'Webhook 密钥无法读取，请重置密钥', final: true };
      const response = await fetchImpl(row.url, {
        method: 'POST',
        body: row.body,
        redirect: 'manual',
        signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'iot-platform-webhook/1',
          [WEBHOOK_HEADERS.signature]: webhookSignature(secret, row.body),
          [WEBHOOK_HEADERS.event]: row.event,
          [WEBHOOK_HEADERS.webhook]: row.code,
          [WEBHOOK_HEADERS.delivery]: row.id,
          [WEBHOOK_HEADERS.attempt]: String(row.attempts),
        },
      }).catch((error: unknown) => {
        // fetch says "fetch failed"; why is in its cause (ECONNREFUSED, ENOTFOUND…).
        const cause = (error as { cause?: { code?: unknown } }).cause?.code;
        throw new Error(typeof cause === 'string' ? `连接失败（${cause}）` : error instanceof Error ? error.message : String(error));
      });
      // The answer's body is not read: only its status counts.
      await response.body?.cancel().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status, error: '' };
      return { ok: false, status: response.status, error: `HTTP ${response.status}` };
    },
    log: async (database, row, outcome, durationMs, at) => {
      await database.query(
        'INSERT INTO webhook_attempt (delivery_id, attempt, outcome, status_code, error, duration_ms, attempted_at) VALUES ($1::bigint, $2, $3, $4, $5, $6, $7)',
        [row.id, row.attempts, outcome.ok ? 'sent' : 'failed', outcome.status, outcome.error, durationMs, at],
      );
    },
    settle: async (database, row, state, next, outcome, at) => {
      await database.query(
        `UPDATE webhook_delivery SET state = $3, next_attempt_at = $4, delivered_at = CASE WHEN $3 = 'sent' THEN $5::timestamptz ELSE NULL END, last_status = $6, last_error = $7
          WHERE id = $1::bigint AND attempts = $2 AND state = 'sending'`,
        [row.id, row.attempts, state, next, at, outcome.status, outcome.error],
      );
    },
  };
}
