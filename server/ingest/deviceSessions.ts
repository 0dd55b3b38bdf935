import type { Client } from 'aedes';
import type { Database, Queryable } from '../db/database';
import type { ReportingDevice } from './deviceReports';
import { REVOCATION_CHANNEL, type SignedInDevice } from './deviceCredentials';

/**
 * A device's open MQTT sessions end when it may report no more (issue 30): a credential reset, the
 * recycle bin, a purge. The change announces the devices' ids with pg_notify in its own
 * transaction; at the commit every instance on the database hears it (PGlite: this process) and its
 * embedded broker closes their sessions at once. Two things close the gaps around that:
 *
 * - a sign-in whose device is announced while its secret is being checked is asked of the database
 *   again before it is admitted (the revocations heard while sign-ins are pending are kept until none
 *   is): its first check may have read the device just before the change committed. Asked after the
 *   announcement arrived, the database holds the change: a sign-in with what the change left valid
 *   (the new secret of a reset announced a moment before) is admitted, one with what it ended is not;
 * - every SESSION_RECHECK_MS the broker asks the database, in one statement, whether each open
 *   session's device is still live with the secret it signed in with, and closes those that are not
 *   (an announcement lost with a LISTEN connection that the database ended).
 */

/** How often the open sessions are checked against the database besides the announcements. */
export const SESSION_RECHECK_MS = 60_000;
/** Ids in one announcement (a pg_notify payload is at most 8,000 bytes). */
const IDS_PER_ANNOUNCEMENT = 500;

/**
 * Announces that these devices may report no more: their sessions close on every instance when the
 * caller's transaction commits (nothing is announced if it rolls back). One payload per 500 devices,
 * a JSON array of their ids.
 */
export async function announceRevokedDevices(tx: Queryable, deviceIds: readonly number[]): Promise<void> {
  if (deviceIds.length === 0) return;
  const payloads: string[] = [];
  for (let start = 0; start < deviceIds.length; start += IDS_PER_ANNOUNCEMENT) payloads.push(JSON.stringify(deviceIds.slice(start, start + IDS_PER_ANNOUNCEMENT)));
  await tx.query('SELECT pg_notify($1, x) FROM unnest($2::text[]) AS x', [REVOCATION_CHANNEL, payloads]);
}

/**
 * For an `UPDATE device d … FROM (SELECT … FOR UPDATE) b … RETURNING d.id, ${MOVED}`: whether the
 * device changed its organisation or product (b holds the row as it was, d as it is now).
 */
export const MOVED = '(b.organization_code IS DISTINCT FROM d.organization_code OR b.product_code IS DISTINCT FROM d.product_code) AS moved';

/**
 * A device moved to another organisation or product: its open sessions hold where it was (its
 * alarms and live events would go to the old organisation until it reconnected), so they are
 * closed as a revocation closes them, and the device signs in again, with the same secret, to where
 * it is now.
 */
export async function announceMovedDevices(tx: Queryable, rows: ReadonlyArray<{ id: number; moved: boolean }>): Promise<void> {
  await announceRevokedDevices(tx, rows.filter((row) => row.moved).map((row) => row.id));
}

/** The ids an announcement names (nothing for a payload that is not one). */
function revokedIds(payload: string): number[] {
  try {
    const value: unknown = JSON.parse(payload);
    return Array.isArray(value) ? value.filter((id): id is number => Number.isSafeInteger(id)) : [];
  } catch {
    return [];
  }
}

/** Calls `onRevoked` with the ids of each announcement, from any instance; answers what stops listening. */
export function listenForRevocations(db: Database, onRevoked: (deviceIds: number[]) => void): Promise<() => Promise<void>> {
  return db.listen(REVOCATION_CHANNEL, (payload) => {
    const ids = revokedIds(payload);
    if (ids.length > 0) onRevoked(ids);
  });
}

/** How often a sign-in is asked of the database again when its device is announced while it is asked. */
const MAX_SIGN_IN_CHECKS = 3;

/**
 * Which of these sessions hold no more, in one statement: their indexes. A session holds while its
 * device is live with the secret it signed in with, in the organisation and product it signed in to.
 */
async function staleOf(db: Queryable, sessions: ReadonlyArray<{ id: number; signedIn: SignedInDevice | undefined }>): Promise<number[]> {
  const rows = await db.query<{ k: number }>(
    `SELECT s.k FROM jsonb_to_recordset($1::jsonb) AS s(k int, id int, secret_hash text, organization_code text, product_code text)
      WHERE NOT EXISTS (SELECT 1 FROM device d JOIN device_credential c ON c.device_id = d.id
                         WHERE d.id = s.id AND d.deleted_at IS NULL AND c.secret_hash = s.secret_hash
                           AND d.organization_code = s.organization_code AND d.product_code = s.product_code)`,
    [
      JSON.stringify(
        sessions.map(({ id, signedIn }, k) => ({
          k,
          id,
          secret_hash: signedIn?.secretHash ?? '',
          organization_code: signedIn?.device.organization_code ?? '',
          product_code: signedIn?.device.product_code ?? '',
        })),
      ),
    ],
  );
  return rows.map((row) => row.k);
}

/** A sign-in under way: what its admission is checked against. */
export interface PendingSignIn {
  readonly mark: number;
}

/**
 * The devices' sessions on one embedded broker: which device each client signed in as, and the
 * clients of each device, so that a revocation closes them and a command (issue 31) finds them.
 */
export class DeviceSessions {
  private readonly clients = new Map<number, Set<Client>>();
  private readonly signedIn = new WeakMap<Client, SignedInDevice>();
  /** Revocations heard so far; the device ids heard while a sign-in was pending, with their number. */
  private heard = 0;
  private readonly heardWhilePending = new Map<number, number>();
  private pending = 0;

  /** A sign-in begins (before its database check). */
  begin(): PendingSignIn {
    this.pending += 1;
    return { mark: this.heard };
  }

  /**
   * A sign-in ends: with the device it checked out as, or null when it was refused. Answers whether
   * the client is admitted: not when the client is gone meanwhile, nor when a revocation of the
   * device arrived since it began and the database, asked again, says that what it signed in with
   * holds no more (a device revoked again and again while it is asked is refused: it signs in again).
   * Never rejects: a database that cannot be asked refuses the sign-in.
   */
  async end(signIn: PendingSignIn, client: Client, signedIn: SignedInDevice | null, db: Queryable): Promise<boolean> {
    try {
      if (signedIn === null) return false;
      const { id } = signedIn.device;
      let mark = signIn.mark;
      for (let asked = 0; (this.heardWhilePending.get(id) ?? -1) > mark; asked += 1) {
        if (asked === MAX_SIGN_IN_CHECKS) return false;
        mark = this.heard;
        if ((await staleOf(db, [{ id, signedIn }])).length > 0) return false;
      }
      if (client.closed || client.conn.destroyed) return false;
      this.signedIn.set(client, signedIn);
      const set = this.clients.get(id) ?? new Set<Client>();
      set.add(client);
      this.clients.set(id, set);
      client.conn.once('close', () => this.forget(client, id));
      return true;
    } catch {
      return false;
    } finally {
      this.pending -= 1;
      if (this.pending === 0) this.heardWhilePending.clear();
    }
  }

  /** The device a client signed in as, while its session holds. */
  deviceOf(client: Client | null): ReportingDevice | undefined {
    return client ? this.signedIn.get(client)?.device : undefined;
  }

  /** The open sessions of a device (a taken-over one closes as the new one opens). */
  sessionsOf(deviceId: number): Client[] {
    return [...(this.clients.get(deviceId) ?? [])];
  }

  /** A revocation of these devices was heard: a sign-in of theirs still pending is refused at its end. */
  heardRevocation(deviceIds: readonly number[]): void {
    for (const id of deviceIds) {
      this.heard += 1;
      if (this.pending > 0) this.heardWhilePending.set(id, this.heard);
    }
  }

  /** Closes the sessions of these devices at once, whatever they signed in with; answers how many closed. */
  revoke(deviceIds: readonly number[]): number {
    this.heardRevocation(deviceIds);
    let closed = 0;
    for (const id of deviceIds) {
      for (const client of this.clients.get(id) ?? []) {
        this.close(client, id);
        closed += 1;
      }
    }
    return closed;
  }

  /**
   * Checks the open sessions (of `deviceIds`, or every one) against the database in one statement:
   * closes those whose device is gone, in the recycle bin, has another secret now, or sits in
   * another organisation or product than it signed in as. A session opened after the change holds
   * what is current and stays: an announcement heard late (after the device signed in again with
   * its new secret) closes nothing it should not. Answers how many closed.
   */
  async recheck(db: Queryable, deviceIds?: readonly number[]): Promise<number> {
    const ids = deviceIds ?? [...this.clients.keys()];
    const open = ids.flatMap((id) => [...(this.clients.get(id) ?? [])].map((client) => ({ id, client })));
    if (open.length === 0) return 0;
    const stale = await staleOf(db, open.map(({ id, client }) => ({ id, signedIn: this.signedIn.get(client) })));
    // A session may have closed while the statement ran: only those still open are closed.
    for (const k of stale) if (this.signedIn.has(open[k].client)) this.close(open[k].client, open[k].id);
    return stale.length;
  }

  /** How many sessions are open. */
  get size(): number {
    let size = 0;
    for (const set of this.clients.values()) size += set.size;
    return size;
  }

  private close(client: Client, id: number): void {
    // Forgotten first: whatever the client still sends (its will included) finds no device.
    this.forget(client, id);
    client.close();
  }

  private forget(client: Client, id: number): void {
    this.signedIn.delete(client);
    const set = this.clients.get(id);
    if (!set) return;
    set.delete(client);
    if (set.size === 0) this.clients.delete(id);
  }
}
