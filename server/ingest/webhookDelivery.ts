import { createHmac, randomBytes } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Queryable } from '../db/database';
import { openSecret, SEAL_BINDINGS, secretCipherKey } from '../security/secrets';
import type { AttemptOutcome, Claimed, DeliveryQueue } from './delivery';

/**
 * Webhooks (issue 23): a tenant's systems are told, at URLs the tenant registers, of its alarms
 * raised and recovered and its devices coming online and going offline. Each event is one
 * delivery per subscribed webhook, written with the live event in the transaction that makes the
 * change (enqueueWebhooks, called by recordLiveEvents) and sent after it by the delivery loop
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
 *
 * A webhook's URL is the tenant's to choose, so the platform does not post to addresses of its own
 * network (loopback, private, link-local, carrier-grade NAT, unique-local: PRIVATE_NETWORKS, and the
 * IPv6 forms that carry such an IPv4 address: NAT64, 6to4, IPv4-mapped and -compatible) unless
 * WEBHOOK_ALLOW_PRIVATE=1: a URL naming one is refused when registered, and a host name is checked
 * on every connection, after its DNS answer (a name that resolves inward is refused too).
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
/** What a secret is bound to when sealed (server/security/secrets.ts). */
export const webhookSealBinding = SEAL_BINDINGS.webhook;

/** The `x-iot-signature` of a body under a secret. */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** The networks a webhook may not reach unless allowed (an IPv6 address carrying an IPv4 one is checked as that IPv4: EMBEDDED_IPV4). */
const PRIVATE_NETWORKS = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  PRIVATE_NETWORKS.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // Teredo: the client's IPv4 address is in it obfuscated, its server's in the clear; refused whole.
  ['2001::', 32],
  // Local-use NAT64 (RFC 8215): the operator's own translator, and where the IPv4 sits depends on
  // the prefix length the operator chose (RFC 6052 §2.2); refused whole.
  ['64:ff9b:1::', 48],
] as const) {
  PRIVATE_NETWORKS.addSubnet(network, prefix, 'ipv6');
}

/**
 * IPv6 prefixes whose addresses carry an IPv4 address, and the 16-bit group it starts at: such an
 * address reaches (or is translated to) that IPv4 address, so it is refused as that IPv4 is.
 */
const EMBEDDED_IPV4: ReadonlyArray<{ prefix: readonly number[]; at: number }> = [
  // IPv4-compatible ::a.b.c.d (deprecated; ::/127 above is refused anyway).
  { prefix: [0, 0, 0, 0, 0, 0], at: 6 },
  // IPv4-mapped ::ffff:a.b.c.d.
  { prefix: [0, 0, 0, 0, 0, 0xffff], at: 6 },
  // IPv4-translated ::ffff:0:a.b.c.d (SIIT, RFC 2765).
  { prefix: [0, 0, 0, 0, 0xffff, 0], at: 6 },
  // NAT64's well-known prefix 64:ff9b::/96 (RFC 6052).
  { prefix: [0x64, 0xff9b, 0, 0, 0, 0], at: 6 },
  // 6to4 2002:aabb:ccdd::/48 (RFC 3056).
  { prefix: [0x2002], at: 1 },
];

/**
 * The eight 16-bit groups of an IPv6 address (a zone such as `%eth0` set aside), or null. The URL
 * parser does the reading (compressed forms, a trailing dotted IPv4, upper case) and writes the
 * address back in its one canonical form: hex groups, at most one `::`.
 */
function ipv6Groups(address: string): number[] | null {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head, tail] = canonical.split('::');
  const groups = (text: string | undefined) => (text ? text.split(':').map((group) => parseInt(group, 16)) : []);
  const before = groups(head);
  const after = groups(tail);
  const all = tail === undefined ? before : [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
  return all.length === 8 && all.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? all : null;
}

/** The IPv4 address an IPv6 address carries (EMBEDDED_IPV4), or null. */
function embeddedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  const form = groups && EMBEDDED_IPV4.find(({ prefix }) => prefix.every((group, index) => groups[index] === group));
  if (!groups || !form) return null;
  const [high, low] = [groups[form.at], groups[form.at + 1]];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Whether an IP address is of the platform's own network (see PRIVATE_NETWORKS), or carries one that is. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return PRIVATE_NETWORKS.check(address, 'ipv4');
  if (PRIVATE_NETWORKS.check(address.replace(/%.*$/, ''), 'ipv6')) return true;
  const carried = embeddedIpv4(address);
  return carried !== null && PRIVATE_NETWORKS.check(carried, 'ipv4');
}

/** Why a URL may not be a webhook's, or null: a private address written into it (host names are checked when sent). */
export function privateTarget(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return host;
  return isPrivateAddress(host) ? host : null;
}

/** dns.lookup that refuses a name resolving into the platform's own network. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { family: options.family ?? 0, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '');
    const inward = addresses.find((one) => isPrivateAddress(one.address));
    if (inward) return callback(Object.assign(new Error(`目标地址 ${inward.address} 属于内网，不投递`), { code: 'EPRIVATE' }), '');
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`${hostname} 没有地址`), { code: 'ENOTFOUND' }), '');
    callback(null, first.address, first.family);
  });
};

/** POSTs `body` to `url` and answers the HTTP status (the answer's body is not read). */
export function postWebhook(url: URL, body: string, headers: OutgoingHttpHeaders, signal: AbortSignal, allowPrivate: boolean): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const inward = allowPrivate ? null : privateTarget(url);
    if (inward) return reject(new Error(`目标地址 ${inward} 属于内网，不投递`));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, signal, ...(allowPrivate ? {} : { lookup: guardedLookup }) },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', (error: Error & { code?: unknown }) => {
      if (error.name === 'AbortError') return reject(error);
      reject(new Error(typeof error.code === 'string' && error.code !== 'EPRIVATE' ? `连接失败（${error.code}）` : error.message));
    });
    request.end(body);
  });
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
 * Queues each event for every enabled webhook of its tenant that subscribed to it; in the
 * transaction that makes the changes (one statement for all of them, nothing when the tenants
 * have none).
 */
export async function enqueueWebhooks(tx: Queryable, bodies: readonly WebhookBody[], now: Date): Promise<void> {
  if (bodies.length === 0) return;
  await tx.query(
    `INSERT INTO webhook_delivery (webhook_id, tenant_code, event, body, next_attempt_at, created_at)
     SELECT w.id, w.tenant_code, v.event, v.body, $2, $2
       FROM jsonb_to_recordset($1::jsonb) AS v(k int, tenant_code text, event text, body text)
       JOIN webhook w ON w.tenant_code = v.tenant_code AND w.enabled AND v.event = ANY(w.events)
      ORDER BY v.k, w.id`,
    [JSON.stringify(bodies.map((body, k) => ({ k, tenant_code: body.tenantCode, event: body.event, body: JSON.stringify(body) }))), now],
  );
}

type WebhookRow = Claimed & { event: string; body: string; url: string; code: string; secret_ciphertext: string; enabled: boolean };

/** The webhooks' queue for the delivery loop; `allowPrivate`: config.webhookAllowPrivate. */
export function webhookQueue(db: Queryable, { allowPrivate = false }: { allowPrivate?: boolean } = {}): DeliveryQueue<WebhookRow> {
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
      // Read once; a failed read is tried again at the next delivery rather than kept.
      cipherKey ??= secretCipherKey(db).catch((error: unknown) => {
        cipherKey = null;
        throw error;
      });
      const secret = openSecret(await cipherKey, webhookSealBinding(row.code), row.secret_ciphertext);
      if (secret === null) return { ok: false, status: null, error: 'Webhook 密钥无法读取，请重置密钥', final: true };
      const status = await postWebhook(
        new URL(row.url),
        row.body,
        {
          'content-type': 'application/json',
          'user-agent': 'iot-platform-webhook/1',
          [WEBHOOK_HEADERS.signature]: webhookSignature(secret, row.body),
          [WEBHOOK_HEADERS.event]: row.event,
          [WEBHOOK_HEADERS.webhook]: row.code,
          [WEBHOOK_HEADERS.delivery]: row.id,
          [WEBHOOK_HEADERS.attempt]: String(row.attempts),
        },
        signal,
        allowPrivate,
      );
      if (status >= 200 && status < 300) return { ok: true, status, error: '' };
      return { ok: false, status, error: `HTTP ${status}` };
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
