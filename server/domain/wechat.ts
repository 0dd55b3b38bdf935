import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database';
import { fail } from '../http/envelope';
import { sha256 } from '../security/tokens';

/** The simulated WeChat scan login: a ticket shown as a QR code, scanned by an openId. */
export const TICKET_TTL_SECONDS = 300;
export const BIND_KEY_TTL_SECONDS = 600;
export const BIND_KEY_INVALID = '绑定已失效，请重新扫码';

export interface TicketRow {
  ticket: string;
  open_id: string | null;
  scanned_at: Date | null;
  used_at: Date | null;
  expires_at: Date;
}

export async function createTicket(db: Queryable, now: Date): Promise<string> {
  const ticket = randomBytes(18).toString('base64url');
  await db.query('INSERT INTO wechat_ticket (ticket, expires_at, created_at) VALUES ($1, $2, $3)', [
    ticket,
    new Date(now.getTime() + TICKET_TTL_SECONDS * 1000),
    now,
  ]);
  return ticket;
}

/** A ticket that is neither used nor expired, or null. */
export async function liveTicket(db: Queryable, ticket: string, now: Date): Promise<TicketRow | null> {
  const [row] = await db.query<TicketRow>(
    'SELECT ticket, open_id, scanned_at, used_at, expires_at FROM wechat_ticket WHERE ticket = $1 AND used_at IS NULL AND expires_at > $2',
    [ticket, now],
  );
  return row ?? null;
}

/** Uses a live ticket up; false when it was used meanwhile (two polls at once: only one signs in). */
export async function spendTicket(db: Queryable, ticket: string, now: Date): Promise<boolean> {
  const rows = await db.query('UPDATE wechat_ticket SET used_at = $2 WHERE ticket = $1 AND used_at IS NULL AND expires_at > $2 RETURNING ticket', [ticket, now]);
  return rows.length > 0;
}

/** A bind key for an openId that no account is bound to yet (stored hashed). */
export async function createBindKey(db: Queryable, openId: string, now: Date): Promise<string> {
  const key = randomBytes(24).toString('base64url');
  await db.query('INSERT INTO wechat_bind_key (key_hash, open_id, expires_at, created_at) VALUES ($1, $2, $3, $4)', [
    sha256(key),
    openId,
    new Date(now.getTime() + BIND_KEY_TTL_SECONDS * 1000),
    now,
  ]);
  return key;
}

/** The openId of a live bind key ("400" when unknown, used or expired). */
export async function openIdOfBindKey(db: Queryable, key: string, now: Date): Promise<string> {
  const [row] = await db.query<{ open_id: string }>(
    'SELECT open_id FROM wechat_bind_key WHERE key_hash = $1 AND used_at IS NULL AND expires_at > $2',
    [sha256(key), now],
  );
  if (!row) throw fail.badRequest(BIND_KEY_INVALID);
  return row.open_id;
}

/** Uses a live bind key up ("400" 绑定已失效 when it was used meanwhile: one binding or registration per scan). */
export async function spendBindKey(db: Queryable, key: string, now: Date): Promise<void> {
  const rows = await db.query('UPDATE wechat_bind_key SET used_at = $2 WHERE key_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING key_hash', [
    sha256(key),
    now,
  ]);
  if (rows.length === 0) throw fail.badRequest(BIND_KEY_INVALID);
}
