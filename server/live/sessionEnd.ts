import type { Database } from '../db/database';
import { USER_STATUS } from '../domain/users';
import { findSessionByAccessToken } from '../security/tokens';

/**
 * Long-lived requests that must end with their session (issue 30): the live streams. A session's
 * end is announced by the database to every instance (pg_notify 'session_end', migration 113: a
 * sign-out, a refresh, a password change or reset, a user disabled, deleted or their sessions
 * revoked, an access token made to expire); each instance asks the database again, for the
 * watches of that session or user, whether their token still holds, and ends those whose token
 * does not. A token's own expiry needs no announcement: each watch ends at it by a timer. And
 * since an announcement can be missed (the listening connection lost and opened again), every
 * SWEEP_MS the sessions of all watches are asked again in one query, and those that ended end.
 */

const CHANNEL = 'session_end';
/** setTimeout's longest delay; a later expiry is waited for in steps. */
const LONGEST_TIMER_MS = 2_147_483_647;
/** How often every watched session is asked again, whatever was announced. */
export const SWEEP_MS = 60_000;

export interface SessionWatch {
  sessionId: number;
  userId: number;
  accessToken: string;
  /** Called once, when the session has ended. */
  end(): void;
}

export interface SessionEnds {
  /**
   * Watches a session until it ends (then `end` is called) or the answer is called. The session
   * is asked once after it is registered, so an end announced between the caller's own check and
   * this watch is not missed.
   */
  watch(watch: SessionWatch): Promise<() => void>;
  stop(): Promise<void>;
}

interface Watched {
  watch: SessionWatch;
  timer: ReturnType<typeof setTimeout> | null;
  ended: boolean;
}

export async function watchSessionEnds(db: Database, now: () => Date, log: (line: string) => void, sweepMs = SWEEP_MS): Promise<SessionEnds> {
  const bySession = new Map<number, Set<Watched>>();
  const byUser = new Map<number, Set<Watched>>();

  const forget = (watched: Watched) => {
    if (watched.timer) clearTimeout(watched.timer);
    watched.timer = null;
    for (const [index, key] of [[bySession, watched.watch.sessionId] as const, [byUser, watched.watch.userId] as const]) {
      const set = index.get(key);
      set?.delete(watched);
      if (set?.size === 0) index.delete(key);
    }
  };
  const end = (watched: Watched) => {
    if (watched.ended) return;
    watched.ended = true;
    forget(watched);
    watched.watch.end();
  };
  const armExpiry = (watched: Watched, expiresAt: Date) => {
    if (watched.timer) clearTimeout(watched.timer);
    const wait = expiresAt.getTime() - now().getTime();
    if (wait <= 0) return end(watched);
    watched.timer = setTimeout(() => (wait > LONGEST_TIMER_MS ? armExpiry(watched, expiresAt) : end(watched)), Math.min(wait, LONGEST_TIMER_MS));
    watched.timer.unref();
  };
  /** Asks whether the watch's token still holds: ends it if not, else waits for its (perhaps earlier) expiry. */
  const recheck = async (watched: Watched) => {
    if (watched.ended) return;
    const session = await findSessionByAccessToken(db, watched.watch.accessToken, now());
    if (watched.ended) return;
    if (!session || session.sessionId !== watched.watch.sessionId) return end(watched);
    armExpiry(watched, session.accessExpiresAt);
  };
  const recheckLogged = (watched: Watched) =>
    recheck(watched).catch((error: unknown) => {
      // The database could not be asked: the stream ends (its tab opens it again and is checked then).
      log(`live events: a session could not be checked: ${error instanceof Error ? error.message : String(error)}`);
      end(watched);
    });

  const told = (payload: string) => {
    let ended: { sessionId?: unknown; userId?: unknown };
    try {
      ended = JSON.parse(payload) as typeof ended;
    } catch {
      return;
    }
    const affected = new Set<Watched>();
    if (typeof ended.sessionId === 'number') for (const watched of bySession.get(ended.sessionId) ?? []) affected.add(watched);
    if (typeof ended.userId === 'number') for (const watched of byUser.get(ended.userId) ?? []) affected.add(watched);
    for (const watched of affected) void recheckLogged(watched);
  };
  const stopListening = await db.listen(CHANNEL, told);

  /** Ends the watches whose session is no longer live (revoked, expired, its user disabled or gone). */
  const sweep = async () => {
    const ids = [...bySession.keys()];
    if (ids.length === 0) return;
    const live = await db.query<{ id: number }>(
      `SELECT s.id FROM auth_session s JOIN app_user u ON u.id = s.user_id
        WHERE s.id = ANY($1::int[]) AND s.revoked_at IS NULL AND s.access_expires_at > $2 AND u.status = $3`,
      [ids, now(), USER_STATUS.active],
    );
    const holding = new Set(live.map((row) => row.id));
    for (const id of ids) if (!holding.has(id)) for (const watched of [...(bySession.get(id) ?? [])]) end(watched);
  };
  const sweeper = setInterval(() => {
    sweep().catch((error: unknown) => log(`live events: the sessions could not be swept: ${error instanceof Error ? error.message : String(error)}`));
  }, sweepMs);
  sweeper.unref();

  return {
    async watch(watch) {
      const watched: Watched = { watch, timer: null, ended: false };
      for (const [index, key] of [[bySession, watch.sessionId] as const, [byUser, watch.userId] as const]) {
        const set = index.get(key) ?? new Set<Watched>();
        set.add(watched);
        index.set(key, set);
      }
      await recheckLogged(watched);
      return () => {
        watched.ended = true;
        forget(watched);
      };
    },
    async stop() {
      clearInterval(sweeper);
      for (const set of bySession.values()) for (const watched of set) if (watched.timer) clearTimeout(watched.timer);
      bySession.clear();
      byUser.clear();
      await stopListening();
    },
  };
}
