import type { Queryable } from '../db/database';
import { findUserByLoginName, USER_STATUS, type UserProfile } from '../domain/users';
import { ApiFailure, fail } from '../http/envelope';
import { verifyPassword } from './password';
import type { ClientInfo } from './tokens';

export const MAX_FAILED_LOGINS = 5;
export const LOCK_MINUTES = 10;

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

interface Credentials {
  password_hash: string;
  failed_login_count: number;
  locked_until: Date | null;
}

/**
 * Counts a wrong password; the fifth in a row locks the account for LOCK_MINUTES. One statement,
 * so wrong passwords sent at once are each counted against the count the one before left (the row
 * is locked while it is written), and one that arrives while the account is locked counts nothing
 * and answers locked, as it would one after another. Answers whether the account is locked now.
 */
async function countFailure(db: Queryable, userId: number, now: Date): Promise<boolean> {
  const [row] = await db.query<{ locked: boolean }>(
    `UPDATE app_user
        SET failed_login_count = CASE WHEN locked_until > $4::timestamptz THEN failed_login_count
                                      WHEN failed_login_count + 1 >= $2 THEN 0 ELSE failed_login_count + 1 END,
            locked_until = CASE WHEN locked_until > $4::timestamptz THEN locked_until
                                WHEN failed_login_count + 1 >= $2 THEN $3::timestamptz ELSE locked_until END
      WHERE id = $1
      RETURNING locked_until IS NOT NULL AND locked_until > $4::timestamptz AS locked`,
    [userId, MAX_FAILED_LOGINS, new Date(now.getTime() + LOCK_MINUTES * 60_000), now],
  );
  return row?.locked ?? false;
}

/**
 * Checks a login name and password, with lockout, and records the attempt. Answers the user or
 * throws "401" (unknown name or wrong password), "423" (locked) or "403" (disabled).
 */
export async function checkPassword(
  db: Queryable,
  loginName: string,
  password: string,
  client: ClientInfo,
  now: Date,
  method: LoginMethod = 'password',
): Promise<UserProfile> {
  const user = await findUserByLoginName(db, loginName);
  const refuse = async (reason: string, error: ApiFailure): Promise<never> => {
    await recordLogin(db, { loginName, userId: user?.id ?? null, method, success: false, reason }, client, now);
    throw error;
  };
  if (!user) return refuse('unknown login name', fail.credentials());
  const [credentials] = await db.query<Credentials>(
    'SELECT password_hash, failed_login_count, locked_until FROM app_user WHERE id = $1',
    [user.id],
  );
  if (credentials.locked_until && credentials.locked_until > now) return refuse('locked', fail.locked());
  if (!(await verifyPassword(password, credentials.password_hash))) {
    const locked = await countFailure(db, user.id, now);
    return refuse(locked ? 'wrong password, locked' : 'wrong password', locked ? fail.locked() : fail.credentials());
  }
  if (user.status !== USER_STATUS.active) return refuse('disabled', fail.forbidden('账号已停用'));
  // Written only when there is something to clear: a sign-in is not a change to the account. Not
  // when wrong passwords sent meanwhile have locked it: then this sign-in is refused as locked.
  if (credentials.failed_login_count > 0 || credentials.locked_until) {
    const cleared = await db.query(
      'UPDATE app_user SET failed_login_count = 0, locked_until = NULL WHERE id = $1 AND (locked_until IS NULL OR locked_until <= $2) RETURNING id',
      [user.id, now],
    );
    if (cleared.length === 0) return refuse('locked', fail.locked());
  }
  await recordLogin(db, { loginName, userId: user.id, method, success: true, reason: '' }, client, now);
  return user;
}
