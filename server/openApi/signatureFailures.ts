import type { Queryable } from '../db/database';
import { countHit, currentHits, secondsUntil } from '../security/rateLimit';

/**
 * Ceilings on refused open-API calls (issue 30): anyone who knows an access key (it is shown in the
 * console) could send badly signed calls without limit, each written to the tenant's audit log
 * (200 rows in about a second). Every "401" of the signature checks (headers, key, signature,
 * timestamp, nonce) is counted per client address and per access key, in the database (every
 * instance counts together):
 * - an address past SIGNATURE_FAILURE_LIMIT.perAddress refusals in the window is refused "429"
 *   before anything is checked, until the window ends (Retry-After says when);
 * - a key past SIGNATURE_FAILURE_LIMIT.perKey has its further refusals answered "429" too, but a
 *   call signed right still goes through: knowing a key must not let anyone lock its tenant out.
 * A refusal past a limit is not written as an audit row of its own: the first one in the window is
 * (code "429"), and each one after it is counted on that row (open_api_call.suppressed, migration 115).
 */
export const SIGNATURE_FAILURE_LIMIT = { perAddress: 30, perKey: 60, windowSeconds: 300 } as const;

const ADDRESS_SCOPE = 'open-api-failure-address';
const KEY_SCOPE = 'open-api-failure-key';

export const TOO_MANY_FAILURES = `签名校验失败次数过多（每个地址每 ${SIGNATURE_FAILURE_LIMIT.windowSeconds / 60} 分钟最多 ${SIGNATURE_FAILURE_LIMIT.perAddress} 次，每个访问密钥最多 ${SIGNATURE_FAILURE_LIMIT.perKey} 次），请稍后再试`;

/** Seconds until an address past its limit may try again, or null when it is not. */
export async function addressBlocked(db: Queryable, address: string, now: Date): Promise<number | null> {
  const counted = await currentHits(db, ADDRESS_SCOPE, address, now);
  return counted && counted.hits >= SIGNATURE_FAILURE_LIMIT.perAddress ? secondsUntil(counted.windowEndsAt, now) : null;
}

/**
 * Counts a refused call against its address and, when it named a known key, that key. Answers the
 * seconds until the window ends when this refusal is past either limit, else null.
 */
export async function countSignatureFailure(db: Queryable, address: string, accessKey: string | null, now: Date): Promise<number | null> {
  const { perAddress, perKey, windowSeconds } = SIGNATURE_FAILURE_LIMIT;
  const hits = [await countHit(db, ADDRESS_SCOPE, address, perAddress, windowSeconds, now)];
  if (accessKey) hits.push(await countHit(db, KEY_SCOPE, accessKey, perKey, windowSeconds, now));
  const over = hits.filter((hit) => !hit.allowed);
  return over.length > 0 ? Math.max(...over.map((hit) => secondsUntil(hit.windowEndsAt, now))) : null;
}

/**
 * Counts a refusal past the limits on the key's audit row that began the window's run of them;
 * false when there is none yet (the caller writes it, as the first of the run).
 */
export async function countSuppressed(db: Queryable, tenantCode: string, accessKey: string, now: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE open_api_call SET suppressed = suppressed + 1
      WHERE id = (SELECT id FROM open_api_call
                   WHERE tenant_code = $1 AND access_key = $2 AND code = '429' AND message = $3 AND called_at > $4
                   ORDER BY called_at DESC, id DESC LIMIT 1)
      RETURNING id`,
    [tenantCode, accessKey, TOO_MANY_FAILURES, new Date(now.getTime() - SIGNATURE_FAILURE_LIMIT.windowSeconds * 1000)],
  );
  return rows.length > 0;
}
