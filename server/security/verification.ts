import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import { startOfBusinessDay } from '../domain/businessTime';
import type { CodeOutcome, PlatformEvents } from '../domain/platformEvents';
import { ApiFailure, fail } from '../http/envelope';

/** Verification codes (SPEC §4, §8): 6 digits, valid 5 minutes, one per target per 60 s. */
export type Channel = 'sms' | 'voice' | 'mail';

export const CODE_LENGTH = 6;
export const CODE_TTL_SECONDS = 300;
export const RESEND_INTERVAL_SECONDS = 60;
export const MAX_CODE_ATTEMPTS = 5;
export const WRONG_CODE_MESSAGE = '验证码错误或已过期';
/** Codes a phone or mail may be sent in one day (China time), and codes a tenant's users may be sent. */
export const DAILY_CODES_PER_TARGET = 10;
export const DAILY_CODES_PER_TENANT = 1000;
export const DAILY_LIMIT_MESSAGE = '今日验证码发送次数已达上限，请明天再试';

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
  now: Date;
  /** The business zone: the daily limits count the codes of its day. */
  timeZone: string;
}

/**
 * Issues a code for the target: "429" within RESEND_INTERVAL_SECONDS of the previous one, and once
 * the target or its tenant has had the day's codes (DAILY_CODES_PER_TARGET, DAILY_CODES_PER_TENANT).
 * A new code voids the older ones. Delivery writes the outbox (which holds the code) and logs the
 * masked target only.
 *
 * The checks and the writes are one transaction that first takes the target's advisory lock, so
 * requests for one target are decided one after another, whichever instance received them: of
 * twenty sent at once one gets a code and the others see it (on PostgreSQL a request that read
 * before the winner committed is run again by the serializable transaction and then refused).
 */
export async function issueCode(db: Database, request: IssueRequest, log: (line: string) => void, events: PlatformEvents): Promise<void> {
  const { channel, target, now } = request;
  const tenantCode = request.tenantCode ?? null;
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
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`verification:${target}`]);
      const recent = await tx.query('SELECT 1 FROM verification_code WHERE target = $1 AND created_at > $2 LIMIT 1', [target, since]);
      if (recent.length > 0) refuse('too frequent', fail.tooFrequent());
      const [today] = await tx.query<{ target: number; tenant: number }>(
        `SELECT count(*) FILTER (WHERE target = $1)::int AS target, count(*) FILTER (WHERE tenant_code = $2)::int AS tenant
           FROM verification_code WHERE created_at >= $3 AND (target = $1 OR tenant_code = $2)`,
        [target, tenantCode, startOfBusinessDay(now, request.timeZone)],
      );
      if ((today?.target ?? 0) >= DAILY_CODES_PER_TARGET || (today?.tenant ?? 0) >= DAILY_CODES_PER_TENANT) refuse('daily limit', new ApiFailure('429', DAILY_LIMIT_MESSAGE));
      await tx.query('UPDATE verification_code SET voided_at = $2 WHERE target = $1 AND consumed_at IS NULL AND voided_at IS NULL', [target, now]);
      await tx.query(
        `INSERT INTO verification_code (channel, target, salt, code_hash, expires_at, created_at, tenant_code) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [channel, target, salt, hashCode(target, code, salt), new Date(now.getTime() + CODE_TTL_SECONDS * 1000), now, tenantCode],
      );
      if (!request.deliver) return;
      await tx.query('INSERT INTO outbox (channel, target, code, content, created_at) VALUES ($1, $2, $3, $4, $5)', [
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
