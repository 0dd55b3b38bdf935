import type { Queryable } from '../db/database';
import type { LoginRefusal, PlatformEvents } from '../domain/platformEvents';
import { findUserById, USER_STATUS, type UserProfile } from '../domain/users';
import { ApiFailure, fail } from '../http/envelope';
import { hashPassword, verifyPassword } from './password';
import { countHit, giveBackHit, secondsUntil } from './rateLimit';
import type { ClientInfo } from './tokens';

/**
 * Login abuse (issue 18, issue 30), as Keycloak and ThingsBoard do it:
 * - one answer, "401" 用户名或密码错误, and one password hash computed, for an unknown name, a wrong
 *   password and a disabled account's wrong password;
 * - MAX_FAILED_LOGINS wrong passwords for one login name from one address within FAILURE_WINDOW
 *   lock that pair (not the account) for FAILURE_WINDOW: whoever sends them locks only themselves.
 *   The wrong password that locks it says so (it tells nothing the next attempt would not);
 * - ADDRESS_MAX_FAILURES failed logins from one address in ADDRESS_WINDOW, whatever the names,
 *   and that address waits for the window's end;
 * - an account-wide ceiling, Keycloak's brute-force detection with its defaults: ACCOUNT_MAX_FAILURES
 *   wrong passwords for one login name from any addresses within ACCOUNT_FAILURE_RESET make it wait
 *   ACCOUNT_FIRST_WAIT, twice as long after each further one, at most ACCOUNT_MAX_WAIT; a wrong
 *   password while it waits is not counted (Keycloak: "count does not increment when a temporarily
 *   disabled account commits a login failure"), and even the right one is refused then. Unknown
 *   names are counted and answered exactly alike (login_account_failure is keyed by the name as typed);
 * - failures are forgotten FAILURE_WINDOW (pair) or ACCOUNT_FAILURE_RESET (account) after the last
 *   one, by a right password from outside a lock, or by a new password (a trigger, migration 115);
 * - every attempt, refused ones included, goes into login_log.
 */
export const MAX_FAILED_LOGINS = 5;
export const FAILURE_WINDOW_SECONDS = 15 * 60;
export const ADDRESS_MAX_FAILURES = 20;
export const ADDRESS_WINDOW_SECONDS = 5 * 60;
/** Keycloak's defaults: Max Login Failures 30, Wait Increment 1 minute, Max Wait 15 minutes, Failure Reset Time 12 hours. */
export const ACCOUNT_MAX_FAILURES = 30;
export const ACCOUNT_FIRST_WAIT_SECONDS = 60;
export const ACCOUNT_MAX_WAIT_SECONDS = 15 * 60;
export const ACCOUNT_FAILURE_RESET_SECONDS = 12 * 3600;

const ADDRESS_SCOPE = 'login-address';

/** "429" for an address past ADDRESS_MAX_FAILURES. */
export const addressLimited = (seconds: number) => new ApiFailure('429', `登录尝试过于频繁，请 ${seconds} 秒后再试`);
/**
 * "429" for a (login name, address) pair that MAX_FAILED_LOGINS wrong passwords locked, whatever
 * the password: the same for a name nobody has (so it tells nothing about which names exist) and
 * for the right password (so guessing on while locked learns nothing). The owner who sees it from
 * their own address knows to wait or reset the password (which lifts it); from any other address
 * they are not locked.
 */
export const pairLocked = (minutes: number) => new ApiFailure('429', `登录失败次数过多，请 ${minutes} 分钟后再试`);
/** "429" for a login name waiting after ACCOUNT_MAX_FAILURES wrong passwords from anywhere: alike for every name. */
export const accountLocked = (minutes: number) => new ApiFailure('429', `该账号登录失败次数过多，已临时锁定，请 ${minutes} 分钟后再试`);

/** A lock on a login name: its (name, address) pair's, or the name's own across addresses. */
export interface LoginLock {
  kind: 'pair' | 'account';
  /** Whole minutes until it ends (at least 1). */
  minutes: number;
}

/** The answer a lock gives at the sign-in form. */
export const lockedAnswer = (lock: LoginLock): ApiFailure => (lock.kind === 'account' ? accountLocked(lock.minutes) : pairLocked(lock.minutes));

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

function minutesLeft(lastFailedAt: Date, now: Date): number {
  // Never more than the window: a concurrent attempt that arrived a moment later may have written
  // a failure time after this request's `now`.
  return Math.min(FAILURE_WINDOW_SECONDS / 60, Math.ceil(secondsUntil(new Date(new Date(lastFailedAt).getTime() + FAILURE_WINDOW_SECONDS * 1000), now) / 60));
}

/** The lock that ends later of the pair's (its last failure) and the account's (its end), or null. */
function lockOf(pairFailedAt: Date | null, accountUntil: Date | null, now: Date): LoginLock | null {
  const pair = pairFailedAt ? { kind: 'pair' as const, minutes: minutesLeft(pairFailedAt, now) } : null;
  const account = accountUntil ? { kind: 'account' as const, minutes: Math.ceil(secondsUntil(new Date(accountUntil), now) / 60) } : null;
  if (pair && account) return account.minutes > pair.minutes ? account : pair;
  return pair ?? account;
}

/** The lock on the login name from this address (its pair's or its own across addresses), or null. */
export async function loginLock(db: Queryable, loginName: string, address: string, now: Date): Promise<LoginLock | null> {
  const [row] = await db.query<{ pair_failed_at: Date | null; account_until: Date | null }>(
    `SELECT (SELECT last_failed_at FROM login_failure WHERE login_name = $1 AND address = $2 AND failures >= $3 AND last_failed_at > $4) AS pair_failed_at,
            (SELECT locked_until FROM login_account_failure WHERE login_name = $1 AND locked_until > $5) AS account_until`,
    [loginName, address, MAX_FAILED_LOGINS, new Date(now.getTime() - FAILURE_WINDOW_SECONDS * 1000), now],
  );
  return lockOf(row?.pair_failed_at ?? null, row?.account_until ?? null, now);
}

/**
 * Counts a wrong password for the login name across addresses (Keycloak's brute-force count):
 * forgotten first if the last one is ACCOUNT_FAILURE_RESET old, not counted while the name waits,
 * and from ACCOUNT_MAX_FAILURES on each one sets a wait that doubles, capped. Answers when the
 * name's wait ends, or null.
 */
async function countAccountFailure(db: Queryable, loginName: string, now: Date): Promise<Date | null> {
  const [row] = await db.query<{ locked_until: Date | null }>(
    `INSERT INTO login_account_failure AS f (login_name, failures, last_failed_at) VALUES ($1, 1, $2)
     ON CONFLICT (login_name) DO UPDATE SET
       failures = CASE WHEN f.last_failed_at <= $3::timestamptz THEN 1 WHEN f.locked_until > $2::timestamptz THEN f.failures ELSE LEAST(f.failures + 1, 1000000000) END,
       locked_until = CASE
         WHEN f.last_failed_at <= $3::timestamptz THEN NULL
         WHEN f.locked_until > $2::timestamptz THEN f.locked_until
         WHEN f.failures + 1 >= $4 THEN $2::timestamptz + make_interval(secs => LEAST($6::float8, $5::float8 * power(2, LEAST(f.failures + 1 - $4, 30))))
         ELSE NULL END,
       last_failed_at = $2
     RETURNING locked_until`,
    [loginName, now, new Date(now.getTime() - ACCOUNT_FAILURE_RESET_SECONDS * 1000), ACCOUNT_MAX_FAILURES, ACCOUNT_FIRST_WAIT_SECONDS, ACCOUNT_MAX_WAIT_SECONDS],
  );
  return row?.locked_until && new Date(row.locked_until) > now ? new Date(row.locked_until) : null;
}

/**
 * Counts a wrong password for (login name, address) in one statement, and for the login name
 * across addresses in another. The pair's count is forgotten first if its last failure is
 * FAILURE_WINDOW old; once MAX_FAILED_LOGINS are counted the pair is locked until the last of them
 * is FAILURE_WINDOW old (more failures do not move that). Wrong passwords sent at once are each
 * counted against the count the one before left, so they are answered as one after another would
 * be: answers the lock this one completed or came after (the pair's fifth failure says so), else null.
 */
export async function countFailure(db: Queryable, loginName: string, address: string, now: Date, events: PlatformEvents): Promise<LoginLock | null> {
  const [row] = await db.query<{ failures: number; last_failed_at: Date }>(
    `INSERT INTO login_failure AS f (login_name, address, failures, last_failed_at) VALUES ($1, $2, 1, $3)
     ON CONFLICT (login_name, address) DO UPDATE SET
       failures = CASE WHEN f.last_failed_at <= $4::timestamptz THEN 1 ELSE LEAST(f.failures + 1, 1000000000) END,
       last_failed_at = CASE WHEN f.last_failed_at <= $4::timestamptz OR f.failures < $5 THEN $3::timestamptz ELSE f.last_failed_at END
     RETURNING failures, last_failed_at`,
    [loginName, address, now, new Date(now.getTime() - FAILURE_WINDOW_SECONDS * 1000), MAX_FAILED_LOGINS],
  );
  if (row.failures === MAX_FAILED_LOGINS) events.loginLocked();
  const accountUntil = await countAccountFailure(db, loginName, now);
  return lockOf(row.failures >= MAX_FAILED_LOGINS ? row.last_failed_at : null, accountUntil, now);
}

/**
 * A right password from this address: the name's failures are forgotten, unless wrong passwords
 * sent meanwhile have locked it (then this one is refused as locked, as it would be after them):
 * answers that lock, else null.
 */
export async function forgetFailures(db: Queryable, loginName: string, address: string, now: Date): Promise<LoginLock | null> {
  const cutoff = new Date(now.getTime() - FAILURE_WINDOW_SECONDS * 1000);
  await db.query('DELETE FROM login_failure WHERE login_name = $1 AND address = $2 AND NOT (failures >= $3 AND last_failed_at > $4)', [
    loginName,
    address,
    MAX_FAILED_LOGINS,
    cutoff,
  ]);
  await db.query('DELETE FROM login_account_failure WHERE login_name = $1 AND (locked_until IS NULL OR locked_until <= $2)', [loginName, now]);
  return loginLock(db, loginName, address, now);
}

/**
 * Checks a login name and password and records the attempt. Answers the user or throws "401"
 * (unknown name or wrong password), "429" (address limit, pair or account lock, the failure that
 * locks included) or "403" (disabled, told only for the right password).
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
  const locked = await loginLock(db, loginName, client.ip, now);
  if (locked !== null) return refuse('locked', lockedAnswer(locked));
  // The same work for every name: a hash is checked whether or not the account exists.
  const matches = await verifyPassword(password, account?.password_hash ?? (await hashOfNobody()));
  if (!account || !matches) {
    // The failure that locks says so; it is logged and counted as what it was.
    const lockedNow = await countFailure(db, loginName, client.ip, now, events);
    const reason = account ? 'wrong password' : 'unknown login name';
    return refuse(reason, lockedNow ? lockedAnswer(lockedNow) : fail.credentials());
  }
  if (account.status !== USER_STATUS.active) return refuse('disabled', fail.forbidden('账号已停用'));
  const lockedBefore = await forgetFailures(db, loginName, client.ip, now);
  if (lockedBefore !== null) return refuse('locked', lockedAnswer(lockedBefore));
  await giveBackHit(db, ADDRESS_SCOPE, client.ip, addressHit);
  const user = await findUserById(db, account.id);
  if (!user) return refuse('unknown login name', fail.credentials());
  await recordLogin(db, { loginName, userId: user.id, method, success: true, reason: '' }, client, now);
  return user;
}
