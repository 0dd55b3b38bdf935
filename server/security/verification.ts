import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import { startOfBusinessDay } from '../domain/businessTime';
import type { Channel, CodeOutcome, PlatformEvents } from '../domain/platformEvents';
import { ApiFailure, fail } from '../http/envelope';

/** Verification codes (SPEC §4, §8): 6 digits, valid 5 minutes, one per target per 60 s. */

export const CODE_LENGTH = 6;
export const CODE_TTL_SECONDS = 300;
export const RESEND_INTERVAL_SECONDS = 60;
export const MAX_CODE_ATTEMPTS = 5;
export const WRONG_CODE_MESSAGE = '验证码错误或已过期';
/** Codes a phone or mail may be sent in one day (China time), and codes a tenant's users may be sent. */
export const DAILY_CODES_PER_TARGET = 10;
export const DAILY_CODES_PER_TENANT = 1000;
export const DAILY_LIMIT_MESSAGE = '今日验证码发送次数已达上限，请明天再试';
/**
 * Codes one signed-in user may have sent, whatever the targets (issue 30): in any hour, and in one
 * day, a share well below their tenant's, so that no one user can spend the tenant's codes and
 * block phone binding and password recovery for everyone else. A phone change (old number, then
 * new) takes two; a resend or a voice code one more.
 */
export const CODES_PER_USER_PER_HOUR = 6;
export const DAILY_CODES_PER_USER = 20;
export const USER_HOURLY_MESSAGE = '验证码发送次数过多，请1小时后再试';

export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const MAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
export const PHONE_MESSAGE = '请输入正确的手机号码';
export const MAIL_MESSAGE = '请输入正确的邮箱格式';

/** A phone number (trimmed) or mail (trimmed, lower-case) as codes and users store it. */
export function normalizeTarget(channel: Channel, raw: string): string {
  const target = raw.trim();
  if (channel === 'mail') {
    if (!MAIL_PATTERN.test(target)) throw fail.badRequest(MAIL_MESSAGE);
    return target.toLowerCase();
  }
  if (!PHONE_PATTERN.test(target)) throw fail.badRequest(PHONE_MESSAGE);
  return target;
}

/** For logs: 138****0001, t***@example.com. */
export function maskTarget(target: string): string {
  const at = target.indexOf('@');
  if (at > 0) return `${target.slice(0, 1)}***${target.slice(at)}`;
  if (target.length >= 7) return `${target.slice(0, 3)}****${target.slice(-4)}`;
  return '****';
}

function hashCode(target: string, code: string, salt: string): string {
  return createHash('sha256').update(`${salt}:${target}:${code}`).digest('hex');
}

function contentOf(channel: Channel, code: string): string {
  const minutes = CODE_TTL_SECONDS / 60;
  if (channel === 'voice') return `您的语音验证码是 ${code.split('').join(' ')}，${minutes}分钟内有效。`;
  if (channel === 'mail') return `您的邮箱验证码为 ${code}，${minutes}分钟内有效。如非本人操作，请忽略本邮件。`;
  return `【云联物联网】验证码${code}，${minutes}分钟内有效，请勿泄露。`;
}

export interface IssueRequest {
  channel: Channel;
  target: string;
  /** False when the target belongs to nobody: the code is recorded (same answer, same rate limit) but not sent. */
  deliver: boolean;
  /** The tenant the code is charged to (the caller's, else the target's owner's); none above the tenants. */
  tenantCode?: string | null;
  /** The signed-in user who asked for it (their hourly limit and daily share); none for an anonymous request. */
  requestedBy?: number | null;
  /**
   * The target is one the requester is binding (not their own phone or mail): it becomes their one
   * pending binding of its kind, and the live codes of the one before (another number) are voided.
   */
  binding?: boolean;
  now: Date;
  /** The business zone: the daily limits count the codes of its day. */
  timeZone: string;
}

/** The channels that reach one kind of target: a phone (SMS, voice) or a mail. */
const channelsOfKind = (channel: Channel): Channel[] => (channel === 'mail' ? ['mail'] : ['sms', 'voice']);

interface CodeCounts {
  target: number;
  tenant: number;
  userDay: number;
  userHour: number;
}

/** The codes of the day of the target, the tenant and the requester, and the requester's of the last hour. */
async function countCodes(tx: Queryable, request: IssueRequest): Promise<CodeCounts> {
  const { now } = request;
  const dayStart = startOfBusinessDay(now, request.timeZone);
  const hourAgo = new Date(now.getTime() - 3_600_000);
  const [row] = await tx.query<CodeCounts>(
    `SELECT count(*) FILTER (WHERE target = $1 AND created_at >= $3)::int AS target,
            count(*) FILTER (WHERE tenant_code = $2 AND created_at >= $3)::int AS tenant,
            count(*) FILTER (WHERE requested_by = $4 AND created_at >= $3)::int AS "userDay",
            count(*) FILTER (WHERE requested_by = $4 AND created_at > $5)::int AS "userHour"
       FROM verification_code WHERE created_at >= LEAST($3::timestamptz, $5::timestamptz) AND (target = $1 OR tenant_code = $2 OR requested_by = $4)`,
    [request.target, request.tenantCode ?? null, dayStart, request.requestedBy ?? null, hourAgo],
  );
  return row ?? { target: 0, tenant: 0, userDay: 0, userHour: 0 };
}

/**
 * Issues a code for the target: "429" within RESEND_INTERVAL_SECONDS of the previous one, once the
 * target or its tenant has had the day's codes (DAILY_CODES_PER_TARGET, DAILY_CODES_PER_TENANT),
 * and, for a signed-in requester, past their CODES_PER_USER_PER_HOUR or DAILY_CODES_PER_USER. A
 * new code voids the older ones of the target, and a binding code the requester's earlier binding
 * codes of its kind. Delivery writes the outbox (which holds the code) and logs the masked target
 * only: this is the one place a code is written to be sent.
 *
 * The checks and the writes are one transaction that first takes the requester's advisory lock,
 * then the target's, so requests of one user or for one target are decided one after another,
 * whichever instance received them: of twenty sent at once one gets a code and the others see it
 * (on PostgreSQL a request that read before the winner committed is run again by the serializable
 * transaction and then refused).
 */
export async function issueCode(db: Database, request: IssueRequest, log: (line: string) => void, events: PlatformEvents): Promise<void> {
  const { channel, target, now } = request;
  const tenantCode = request.tenantCode ?? null;
  const requestedBy = request.requestedBy ?? null;
  const since = new Date(now.getTime() - RESEND_INTERVAL_SECONDS * 1000);
  const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
  const salt = randomBytes(16).toString('hex');
  // Decided inside the transaction, counted once it ends (a transaction run again must not count twice).
  let refusal: CodeOutcome | null = null;
  const refuse = (outcome: CodeOutcome, error: ApiFailure): never => {
    refusal = outcome;
    throw error;
  };
  try {
    await db.transaction(async (tx) => {
      refusal = null;
      if (requestedBy !== null) await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`verification-user:${requestedBy}`]);
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`verification:${target}`]);
      const recent = await tx.query('SELECT 1 FROM verification_code WHERE target = $1 AND created_at > $2 LIMIT 1', [target, since]);
      if (recent.length > 0) refuse('too frequent', fail.tooFrequent());
      const today = await countCodes(tx, request);
      if (requestedBy !== null && today.userHour >= CODES_PER_USER_PER_HOUR) refuse('too frequent', new ApiFailure('429', USER_HOURLY_MESSAGE));
      if (today.target >= DAILY_CODES_PER_TARGET || today.tenant >= DAILY_CODES_PER_TENANT || (requestedBy !== null && today.userDay >= DAILY_CODES_PER_USER)) {
        refuse('daily limit', new ApiFailure('429', DAILY_LIMIT_MESSAGE));
      }
      await tx.query('UPDATE verification_code SET voided_at = $2 WHERE target = $1 AND consumed_at IS NULL AND voided_at IS NULL', [target, now]);
      if (request.binding && requestedBy !== null) {
        await tx.query(
          `UPDATE verification_code SET voided_at = $2
            WHERE requested_by = $1 AND binding AND channel = ANY($3::text[]) AND target <> $4 AND consumed_at IS NULL AND voided_at IS NULL`,
          [requestedBy, now, channelsOfKind(channel), target],
        );
      }
      await tx.query(
        `INSERT INTO verification_code (channel, target, salt, code_hash, expires_at, created_at, tenant_code, requested_by, binding)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [channel, target, salt, hashCode(target, code, salt), new Date(now.getTime() + CODE_TTL_SECONDS * 1000), now, tenantCode, requestedBy, request.binding === true],
      );
      if (!request.deliver) return;
      // Pending for the delivery loop: sent through the platform's transport when one is configured (server/ingest/channels/).
      await tx.query("INSERT INTO outbox (channel, target, code, content, created_at, delivery_state, next_attempt_at) VALUES ($1, $2, $3, $4, $5, 'pending', $5)", [
        channel,
        target,
        code,
        contentOf(channel, code),
        now,
      ]);
    });
  } catch (error) {
    if (refusal) events.codeRequested(request.channel, refusal);
    throw error;
  }
  events.codeRequested(channel, request.deliver ? 'sent' : 'withheld');
  // Logged once committed (a transaction run again must not log twice).
  if (request.deliver) log(`[outbox] ${channel} ${maskTarget(target)}`);
}

interface CodeRow {
  id: number;
  salt: string;
  code_hash: string;
  failed_attempts: number;
}

/**
 * Consumes the live code of the target when `code` matches; otherwise counts the attempt (the
 * fifth wrong one voids the code) and throws "400" 验证码错误或已过期.
 */
export async function verifyCode(db: Queryable, target: string, code: string, now: Date): Promise<void> {
  const [row] = await db.query<CodeRow>(
    `SELECT id, salt, code_hash, failed_attempts FROM verification_code
      WHERE target = $1 AND consumed_at IS NULL AND voided_at IS NULL AND expires_at > $2
      ORDER BY created_at DESC, id DESC LIMIT 1`,
    [target, now],
  );
  if (!row) throw fail.badRequest(WRONG_CODE_MESSAGE);
  const expected = Buffer.from(row.code_hash, 'hex');
  const actual = Buffer.from(hashCode(target, code.trim(), row.salt), 'hex');
  if (timingSafeEqual(expected, actual)) {
    // Spent once: of two requests with the same code only the first consumes it.
    const spent = await db.query('UPDATE verification_code SET consumed_at = $2 WHERE id = $1 AND consumed_at IS NULL AND voided_at IS NULL RETURNING id', [row.id, now]);
    if (spent.length === 0) throw fail.badRequest(WRONG_CODE_MESSAGE);
    return;
  }
  await db.query(
    `UPDATE verification_code SET failed_attempts = failed_attempts + 1,
            voided_at = CASE WHEN failed_attempts + 1 >= $2 THEN $3::timestamptz ELSE voided_at END
      WHERE id = $1`,
    [row.id, MAX_CODE_ATTEMPTS, now],
  );
  throw fail.badRequest(WRONG_CODE_MESSAGE);
}
