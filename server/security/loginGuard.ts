import type { Queryable } from '../db/database';
import type { LoginRefusal, PlatformEvents } from '../domain/platformEvents';
import { findUserById, USER_STATUS, type UserProfile } from '../domain/users';
import { ApiFailure, fail } from '../http/envelope';
import { hashPassword, verifyPassword } from './password';
import { countHit, giveBackHit, secondsUntil } from './rateLimit';
import type { ClientInfo } from './tokens';

/**
 * Login abuse (issue 18), as Keycloak and ThingsBoard do it:
 * - one answer, "401" 用户名或密码错误, and one password hash computed, for an unknown name, a wrong
 *   password and a disabled account's wrong password;
 * - MAX_FAILED_LOGINS wrong passwords for one login name from one address within FAILURE_WINDOW
 *   lock that pair (not the account) for FAILURE_WINDOW: whoever sends them locks only themselves;
 * - ADDRESS_MAX_FAILURES failed logins from one address in ADDRESS_WINDOW, whatever the names,
 *   and that address waits for the window's end;
 * - failures are forgotten FAILURE_WINDOW after the last one, and at once by a right password
 *   from the same address or by a new password (a trigger of migration 088);
 * - every attempt, refused ones included, goes into login_log.
 */
export const MAX_FAILED_LOGINS = 5;
export const FAILURE_WINDOW_SECONDS = 15 * 60;
export const ADDRESS_MAX_FAILURES = 20;
export const ADDRESS_WINDOW_SECONDS = 5 * 60;

const ADDRESS_SCOPE = 'login-address';

/** "429" for an address past ADDRESS_MAX_FAILURES. */
export const addressLimited = (seconds: number) => new ApiFailure('429', `登录尝试过于频繁，请 ${seconds} 秒后再试`);
/**
 * "429" for a (login name, address) pair past MAX_FAILED_LOGINS, whatever the password: the same
 * for a name nobody has (so it tells nothing about which names exist) and for the right password
 * (so guessing on while locked learns nothing). The owner who sees it from their own address knows
 * to wait or reset the password (which lifts it); from any other address they are not locked.
 */
export const pairLocked = (minutes: number) => new ApiFailure('429', `登录失败次数过多，请 ${minutes} 分钟后再试`);

export type LoginMethod = 'password' | 'wechat';

export interface LoginAttempt {
  loginName: string;
  userId: number | null;
  method: LoginMethod;
  success: boolean;
  reason: string;
}

/** Every sign-in attempt, successful or not, goes into login_log with time, IP and user agent. */
export async function recordLogin(db: Queryable, attempt: LoginAttempt, client: ClientInfo, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO login_log (login_name, user_id, method, success, reason, ip, user_agent, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [attempt.loginName.slice(0, 64), attempt.userId, attempt.method, attempt.success, attempt.reason, client.ip, client.userAgent.slice(0, 512), now],
  );
}

let dummyHash: Promise<string> | null = null;
/** A hash of a password nobody has, checked for an unknown name so that it costs what a real one does. */
function hashOfNobody(): Promise<string> {
  dummyHash ??= hashPassword(`nobody-${Date.now()}-${Math.random()}`);
  return dummyHash;
}

/** Minutes until the (login name, address) pair's lock ends, or null when it is not locked. */
export async function pairLock(db: Queryable, loginName: string, address: string, now: Date): Promise<number | null> {
  const [row] = await db.query<{ last_failed_at: Date }>(
    'SELECT last_failed_at FROM login_failure WHERE login_name = $1 AND address = $2 AND failures >= $3 AND last_failed_at > $4',
    [loginName, address, MAX_FAILED_LOGINS, new Date(now.getTime() - FAILURE_WINDOW_SECONDS * 1000)],
  );
  return row ? minutesLeft(row.last_failed_at, now) : null;
}

function minutesLeft(lastFailedAt: Date, now: Date): number {
  // Never more than the window: a concurrent attempt that arrived a moment later may have written
  // a failure time after this request's `now`.
  return Math.min(FAILURE_WINDOW_SECONDS / 60, Math.ceil(secondsUntil(new Date(new Date(lastFailedAt).getTime() + FAILURE_WINDOW_SECONDS * 1000), now) / 60));
}

/**
 * Counts a wrong password for (login name, address) in one statement: forgotten first if the last
 * failure is FAILURE_WINDOW old; once MAX_FAILED_LOGINS are counted the pair is locked until the
 * last of them is FAILURE_WINDOW old (more failures do not move that). Wrong passwords sent at
 * once are each counted against the count the one before left, so they are answered as one after
 * another would be: answers the minutes to wait when this one came after the lock, else null.
 */
export async function countFailure(db: Queryable, loginName: string, address: string, now: Date, events: PlatformEvents): Promise<number | null> {
  const [row] = await db.query<{ failures: number; last_failed_at: Date }>(
    `INSERT INTO login_failure AS f (login_name, address, failures, last_failed_at) VALUES ($1, $2, 1, $3)
     ON CONFLICT (login_name, address) DO UPDATE SET
       failures = CASE WHEN f.last_failed_at <= $4::timestamptz THEN 1 ELSE LEAST(f.failures + 1, 1000000000) END,
       last_failed_at = CASE WHEN f.last_failed_at <= $4::timestamptz OR f.failures < $5 THEN $3::timestamptz ELSE f.last_failed_at END
     RETURNING failures, last_failed_at`,
    [loginName, address, now, new Date(now.getTime() - FAILURE_WINDOW_SECONDS * 1000), MAX_FAILED_LOGINS],
  );
  if (row.failures === MAX_FAILED_LOGINS) events.loginLocked();
  return row.failures > MAX_FAILED_LOGINS ? minutesLeft(row.last_failed_at, now) : null;
}

/**
 * A right password from this address: its failures are forgotten, unless wrong passwords sent
 * meanwhile have locked the pair (then this one is refused as locked, as it would be after them):
 * answers the minutes to wait then, else null.
 */
export async function forgetFailures(db: Queryable, loginName: string, address: string, now: Date): Promise<number | null> {
  const cutoff = new Date(now.getTime() - FAILURE_WINDOW_SECONDS * 1000);
  await db.query('DELETE FROM login_failure WHERE login_name = $1 AND address = $2 AND NOT (failures >= $3 AND last_failed_at > $4)', [
    loginName,
    address,
    MAX_FAILED_LOGINS,
    cutoff,
  ]);
  return pairLock(db, loginName, address, now);
}

/**
 * Checks a login name and password and records the attempt. Answers the user or throws "401"
 * (unknown name or wrong password), "429" (address or pair limit) or "403" (disabled, told only
 * for the right password).
 */
export async function checkPassword(
  db: Queryable,
  loginName: string,
  password: string,
  client: ClientInfo,
  now: Date,
  events: PlatformEvents,
  method: LoginMethod = 'password',
): Promise<UserProfile> {
  // One query whether or not the name exists (the id only goes to the log).
  const [account] = await db.query<{ id: number; password_hash: string; status: number }>(
    'SELECT id, password_hash, status FROM app_user WHERE login_name = $1',
    [loginName],
  );
  const userId = account?.id ?? null;
  const refuse = async (reason: LoginRefusal, error: ApiFailure): Promise<never> => {
    await recordLogin(db, { loginName, userId, method, success: false, reason }, client, now);
    events.loginRefused(reason);
    throw error;
  };
  const addressHit = await countHit(db, ADDRESS_SCOPE, client.ip, ADDRESS_MAX_FAILURES, ADDRESS_WINDOW_SECONDS, now);
  if (!addressHit.allowed) return refuse('address limited', addressLimited(Math.min(ADDRESS_WINDOW_SECONDS, secondsUntil(addressHit.windowEndsAt, now))));
  const locked = await pairLock(db, loginName, client.ip, now);
  if (locked !== null) return refuse('locked', pairLocked(locked));
  // The same work for every name: a hash is checked whether or not the account exists.
  const matches = await verifyPassword(password, account?.password_hash ?? (await hashOfNobody()));
  if (!account || !matches) {
    const lockedMeanwhile = await countFailure(db, loginName, client.ip, now, events);
    if (lockedMeanwhile !== null) return refuse('locked', pairLocked(lockedMeanwhile));
    return refuse(account ? 'wrong password' : 'unknown login name', fail.credentials());
  }
  if (account.status !== USER_STATUS.active) return refuse('disabled', fail.forbidden('账号已停用'));
  const lockedBefore = await forgetFailures(db, loginName, client.ip, now);
  if (lockedBefore !== null) return refuse('locked', pairLocked(lockedBefore));
  await giveBackHit(db, ADDRESS_SCOPE, client.ip, addressHit);
  const user = await findUserById(db, account.id);
  if (!user) return refuse('unknown login name', fail.credentials());
  await recordLogin(db, { loginName, userId: user.id, method, success: true, reason: '' }, client, now);
  return user;
}
