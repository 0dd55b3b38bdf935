import { randomInt } from 'node:crypto';
import type { Queryable } from '../db/database';

/**
 * Counters that every instance shares: a row per (scope, key) in the database, moved by one
 * statement each, so requests sent at once to several instances are counted one after another.
 *
 * Why not `@fastify/rate-limit`: its counters live in the process or in Redis (several instances
 * would each allow the limit, and this platform has no Redis), it runs before the handler (so the
 * refused attempt could not be written to the login log) and answers HTTP 429, where this API
 * answers HTTP 200 with the envelope code "429"; and it counts requests, where a login counts only
 * failures (a right password gives its hit back, so a company behind one address is not limited
 * by its own sign-ins). The statement below is the store such a plugin would need, used directly.
 */
export interface Hit {
  /** Whether this hit is within the limit. */
  allowed: boolean;
  /** Hits in the current window, this one included. */
  hits: number;
  /** When the current window ends (the wait, when refused). */
  windowEndsAt: Date;
}

/** Counts one hit for (scope, key) in a fixed window of `windowSeconds`; allowed while at most `limit`. */
export async function countHit(db: Queryable, scope: string, key: string, limit: number, windowSeconds: number, now: Date): Promise<Hit> {
  const [row] = await db.query<{ hits: number; window_ends_at: Date }>(
    `INSERT INTO rate_counter AS c (scope, key, hits, window_ends_at) VALUES ($1, $2, 1, $4)
     ON CONFLICT (scope, key) DO UPDATE SET
       hits = CASE WHEN c.window_ends_at <= $3::timestamptz THEN 1 ELSE LEAST(c.hits + 1, 1000000000) END,
       window_ends_at = CASE WHEN c.window_ends_at <= $3::timestamptz THEN EXCLUDED.window_ends_at ELSE c.window_ends_at END
     RETURNING hits, window_ends_at`,
    [scope, key, now, new Date(now.getTime() + windowSeconds * 1000)],
  );
  await sometimesPrune(db, now);
  return { allowed: row.hits <= limit, hits: row.hits, windowEndsAt: new Date(row.window_ends_at) };
}

/** The hits already counted for (scope, key) in its current window, without counting one; null when none. */
export async function currentHits(db: Queryable, scope: string, key: string, now: Date): Promise<{ hits: number; windowEndsAt: Date } | null> {
  const [row] = await db.query<{ hits: number; window_ends_at: Date }>('SELECT hits, window_ends_at FROM rate_counter WHERE scope = $1 AND key = $2 AND window_ends_at > $3', [
    scope,
    key,
    now,
  ]);
  return row ? { hits: row.hits, windowEndsAt: new Date(row.window_ends_at) } : null;
}

/** Gives a hit back (a login that turned out right), in the window it was counted in. */
export async function giveBackHit(db: Queryable, scope: string, key: string, hit: Hit): Promise<void> {
  await db.query('UPDATE rate_counter SET hits = hits - 1 WHERE scope = $1 AND key = $2 AND window_ends_at = $3 AND hits > 0', [scope, key, hit.windowEndsAt]);
}

/** Whole seconds until `until` (at least 1). */
export function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}

/** Removes counters, failures and captchas nobody can need any more, about once in 200 hits. */
async function sometimesPrune(db: Queryable, now: Date): Promise<void> {
  if (randomInt(200) !== 0) return;
  const dayAgo = new Date(now.getTime() - 86_400_000);
  await db.query('DELETE FROM rate_counter WHERE window_ends_at < $1', [dayAgo]);
  await db.query('DELETE FROM login_failure WHERE last_failed_at < $1', [dayAgo]);
  // Past the 12-hour reset and any wait (at most 15 minutes): a row of a day ago counts for nothing.
  await db.query('DELETE FROM login_account_failure WHERE last_failed_at < $1', [dayAgo]);
  await db.query('DELETE FROM captcha WHERE expires_at < $1', [dayAgo]);
}
