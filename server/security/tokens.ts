import { createHash, randomBytes } from 'node:crypto';
import type { ServerConfig } from '../config';
import type { Queryable } from '../db/database';
import { USER_STATUS } from '../domain/users';

/** What a successful sign-in answers (auth.login, auth.refresh, WeChat bind/register). */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

/** A random opaque token; only its hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

const later = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

/** Starts a session for the user and answers its token pair. */
export async function openSession(
  db: Queryable,
  userId: number,
  config: ServerConfig,
  now: Date,
  client: ClientInfo,
): Promise<TokenPair> {
  const accessToken = newToken();
  const refreshToken = newToken();
  await db.query(
    `INSERT INTO auth_session (user_id, access_hash, access_expires_at, refresh_hash, refresh_expires_at, ip, user_agent, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      userId,
      sha256(accessToken),
      later(now, config.accessTokenTtlSeconds),
      sha256(refreshToken),
      later(now, config.refreshTokenTtlSeconds),
      client.ip,
      client.userAgent.slice(0, 512),
      now,
    ],
  );
  return { accessToken, refreshToken, expiresIn: config.accessTokenTtlSeconds, refreshExpiresIn: config.refreshTokenTtlSeconds };
}

export interface LiveSession {
  sessionId: number;
  userId: number;
  /** When its access token stops working (it may be moved earlier, never later). */
  accessExpiresAt: Date;
}

/**
 * The live session an access token belongs to, or null (unknown, revoked, expired, or its user
 * disabled or deleted): what a long-lived request (the live stream) asks again when told that its
 * session or user changed.
 */
export async function findSessionByAccessToken(db: Queryable, accessToken: string, now: Date): Promise<LiveSession | null> {
  const [row] = await db.query<{ id: number; user_id: number; access_expires_at: Date }>(
    `SELECT s.id, s.user_id, s.access_expires_at FROM auth_session s JOIN app_user u ON u.id = s.user_id
      WHERE s.access_hash = $1 AND s.revoked_at IS NULL AND s.access_expires_at > $2 AND u.status = $3`,
    [sha256(accessToken), now, USER_STATUS.active],
  );
  return row ? { sessionId: row.id, userId: row.user_id, accessExpiresAt: new Date(row.access_expires_at) } : null;
}

/** Revokes the session a live refresh token belongs to and answers its user, or null. */
export async function consumeRefreshToken(db: Queryable, refreshToken: string, now: Date): Promise<number | null> {
  const [row] = await db.query<{ user_id: number }>(
    `UPDATE auth_session SET revoked_at = $2
      WHERE refresh_hash = $1 AND revoked_at IS NULL AND refresh_expires_at > $2
      RETURNING user_id`,
    [sha256(refreshToken), now],
  );
  return row ? row.user_id : null;
}

/** Ends a session; false when it had already ended (another sign-out of the same session won). */
export async function revokeSession(db: Queryable, sessionId: number, now: Date): Promise<boolean> {
  const rows = await db.query('UPDATE auth_session SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id', [sessionId, now]);
  return rows.length > 0;
}

/** Ends every session of the user except `keepSessionId` (after a password change). */
export async function revokeUserSessions(db: Queryable, userId: number, now: Date, keepSessionId: number | null = null): Promise<void> {
  await db.query(
    'UPDATE auth_session SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND id IS DISTINCT FROM $3::integer',
    [userId, now, keepSessionId],
  );
}

/** Makes the user's access tokens expire now; the refresh tokens stay usable unless `refreshToo`. */
export async function expireAccessTokens(db: Queryable, userId: number, now: Date, refreshToo = false): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `UPDATE auth_session SET access_expires_at = $2, refresh_expires_at = CASE WHEN $3 THEN $2 ELSE refresh_expires_at END
      WHERE user_id = $1 AND revoked_at IS NULL AND access_expires_at > $2 RETURNING id`,
    [userId, now, refreshToo],
  );
  return rows.length;
}
