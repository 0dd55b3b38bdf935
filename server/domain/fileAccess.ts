import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/database';
import { tenantOf } from './organizations';

/**
 * Who may read an uploaded file (issue 18, finding 9).
 *
 * The console sends its token in a header, which an `<img src>` cannot carry, so file urls carry a
 * **file ticket** instead, as object stores sign their links: `/files/<path>?ticket=<ticket>`. A
 * ticket names what its holder may read and when it stops working, signed with HMAC-SHA256 under
 * a secret every instance shares (FILES_SECRET, or one the first instance stores in the database):
 * - a tenant's file: with a ticket of that tenant, or of platform staff;
 * - a platform file (uploaded by platform staff, no tenant): with any valid ticket;
 * - a public file (mall goods pictures, marked when a goods record takes them): by anyone;
 * - anything else, an expired or altered ticket, or no ticket: 404, as for a file that does not
 *   exist (the answer tells nothing about which paths are taken).
 * A ticket is issued for FILE_TICKET_SECONDS, its expiry rounded up to FILE_TICKET_STEP_SECONDS so
 * that a page's urls stay the same (and cached) within a step.
 */
export const FILE_TICKET_SECONDS = 60 * 60;
export const FILE_TICKET_STEP_SECONDS = 10 * 60;
/** The ticket's parameter in a file url. */
export const FILE_TICKET_PARAMETER = 'ticket';

const SECRET_NAME = 'files';
const PLATFORM_SCOPE = '*';
const TICKET = /^([A-Za-z0-9_-]{1,2048})\.([A-Za-z0-9_-]{43})$/;

/** What a ticket lets its holder read: every file (platform staff), or the files of these tenants. */
export type TicketScope = { platform: true } | { platform: false; tenants: readonly string[] };

export interface FileTicket {
  ticket: string;
  /** When it stops working (ISO 8601). */
  expiresAt: string;
}

/**
 * The key that signs file tickets: FILES_SECRET when configured, else the one in the database,
 * stored by the first instance to start (every later one, and every other instance, reads it).
 */
export async function fileSecretOf(db: Queryable, configured: string | undefined): Promise<Buffer> {
  if (configured) return Buffer.from(configured, 'utf8');
  await db.query('INSERT INTO server_secret (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [SECRET_NAME, randomBytes(32).toString('hex')]);
  const [row] = await db.query<{ value: string }>('SELECT value FROM server_secret WHERE name = $1', [SECRET_NAME]);
  if (!row) throw new Error('the file secret could not be stored');
  return Buffer.from(row.value, 'utf8');
}

function sign(secret: Buffer, payload: string): string {
  return createHmac('sha256', secret).update(`file-ticket:${payload}`).digest('base64url');
}

/** The scope of a caller: platform staff read everything, others the tenants of their organisations. */
export async function scopeOfCaller(db: Queryable, caller: { roles: readonly string[]; organizationCodes: readonly string[] }): Promise<TicketScope> {
  if (caller.roles.some((role) => role.startsWith('PLATFORM_'))) return { platform: true };
  const tenants = await Promise.all(caller.organizationCodes.map((code) => tenantOf(db, code)));
  return { platform: false, tenants: [...new Set(tenants.filter((code): code is string => code !== null))].sort() };
}

/** A ticket for `scope`, valid from `now` for FILE_TICKET_SECONDS (rounded up to the step). */
export function issueFileTicket(secret: Buffer, scope: TicketScope, now: Date): FileTicket {
  const step = FILE_TICKET_STEP_SECONDS;
  const expires = Math.ceil((Math.floor(now.getTime() / 1000) + FILE_TICKET_SECONDS) / step) * step;
  const scopeText = scope.platform ? PLATFORM_SCOPE : scope.tenants.join(',');
  const payload = Buffer.from(`${scopeText}|${expires}`, 'utf8').toString('base64url');
  return { ticket: `${payload}.${sign(secret, payload)}`, expiresAt: new Date(expires * 1000).toISOString() };
}

/** The scope of a ticket that is well formed, signed with `secret` and not expired at `now`; null otherwise. */
export function verifyFileTicket(secret: Buffer, ticket: string | undefined, now: Date): TicketScope | null {
  const match = ticket === undefined ? null : TICKET.exec(ticket);
  if (!match) return null;
  const [, payload, signature] = match;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const [scopeText, expiresText] = Buffer.from(payload, 'base64url').toString('utf8').split('|');
  const expires = Number(expiresText);
  if (scopeText === undefined || !Number.isInteger(expires) || expires * 1000 <= now.getTime()) return null;
  if (scopeText === PLATFORM_SCOPE) return { platform: true };
  return { platform: false, tenants: scopeText === '' ? [] : scopeText.split(',') };
}

/** What the server knows of a stored file's readers. */
export interface FileAccessRow {
  tenant_code: string | null;
  public: boolean;
}

/** Whether a file may be served to the holder of `scope` (null: no valid ticket). */
export function mayRead(file: FileAccessRow, scope: TicketScope | null): boolean {
  if (file.public) return true;
  if (!scope) return false;
  if (scope.platform || file.tenant_code === null) return true;
  return scope.tenants.includes(file.tenant_code);
}
