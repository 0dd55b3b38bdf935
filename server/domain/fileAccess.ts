import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/database';
import { tenantOf } from './organizations';
import { USER_STATUS } from './users';

/**
 * Who may read an uploaded file (issue 18, finding 9; issue 30).
 *
 * The console sends its token in a header, which an `<img src>` cannot carry, so a file's url
 * carries a **file ticket** instead, as object stores sign their links: `/files/<path>?ticket=…`.
 * A ticket opens one file, for one session, for a while: it names the session it was issued to
 * and when it stops working, and is signed with HMAC-SHA256 over those and the file's path, under
 * a secret every instance shares (FILES_SECRET, or one the first instance stores in the database).
 * The file is served only while that session is alive: a sign-out, a refresh (which starts a new
 * session), an expired access token, a disabled or deleted user all end every url it was given.
 *
 * A session is given urls for the files its user may read (asked in one call for the paths a page
 * shows, system.file.ticket):
 * - a tenant's file: to a caller of that tenant, or platform staff;
 * - a platform file (uploaded by platform staff, no tenant): to any caller;
 * - a public file (mall goods pictures, marked when a goods record takes them): a plain url,
 *   served to anyone;
 * - anything else (another tenant's, or no such file): no url.
 * Serving answers 403 to a request without a valid ticket for its path (whether the path exists
 * or not), 404 for a path that is not stored.
 *
 * A ticket is issued for FILE_TICKET_SECONDS, its expiry rounded up to FILE_TICKET_STEP_SECONDS so
 * that a page's urls stay the same (and cached) within a step.
 */
export const FILE_TICKET_SECONDS = 30 * 60;
export const FILE_TICKET_STEP_SECONDS = 10 * 60;
/** The ticket's parameter in a file url. */
export const FILE_TICKET_PARAMETER = 'ticket';
/** Where stored files are served (the console's FILE_PATH_PREFIX). */
export const FILES_PREFIX = '/files/';

const SECRET_NAME = 'files';
/** `s<session id>.<expiry, seconds since 1970>.<signature>`. */
const TICKET = /^s([1-9][0-9]{0,9})\.([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;
/** The largest session id (auth_session.id is a serial). */
const SESSION_ID_MAX = 2_147_483_647;

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

function sign(secret: Buffer, path: string, sessionId: number, expires: number): string {
  return createHmac('sha256', secret).update(`file-ticket:2|${path}|s${sessionId}|${expires}`).digest('base64url');
}

/** What a ticket lets its holder read: every file (platform staff), or the files of these tenants. */
export type TicketScope = { platform: true } | { platform: false; tenants: readonly string[] };

/** The scope of a caller: platform staff read everything, others the tenants of their organisations. */
export async function scopeOfCaller(db: Queryable, caller: { roles: readonly string[]; organizationCodes: readonly string[] }): Promise<TicketScope> {
  if (caller.roles.some((role) => role.startsWith('PLATFORM_'))) return { platform: true };
  const tenants = await Promise.all(caller.organizationCodes.map((code) => tenantOf(db, code)));
  return { platform: false, tenants: [...new Set(tenants.filter((code): code is string => code !== null))].sort() };
}

/** What the server knows of a stored file's readers. */
export interface FileAccessRow {
  tenant_code: string | null;
  public: boolean;
}

/** Whether a file may be read by a caller of `scope`. */
export function mayRead(file: FileAccessRow, scope: TicketScope): boolean {
  if (file.public || scope.platform || file.tenant_code === null) return true;
  return scope.tenants.includes(file.tenant_code);
}

/** When tickets issued at `now` stop working (seconds since 1970): FILE_TICKET_SECONDS on, rounded up to the step. */
export function ticketExpiry(now: Date): number {
  const step = FILE_TICKET_STEP_SECONDS;
  return Math.ceil((Math.floor(now.getTime() / 1000) + FILE_TICKET_SECONDS) / step) * step;
}

/** The url of a stored file for `sessionId` until `expires` (seconds): a plain one for a public file. */
export function fileUrlFor(secret: Buffer, path: string, file: FileAccessRow, sessionId: number, expires: number): string {
  if (file.public) return `${FILES_PREFIX}${path}`;
  return `${FILES_PREFIX}${path}?${FILE_TICKET_PARAMETER}=s${sessionId}.${expires}.${sign(secret, path, sessionId, expires)}`;
}

/** The session a ticket for `path` was issued to, when it is well formed, signed with `secret` and not expired at `now`; null otherwise. */
export function verifyFileTicket(secret: Buffer, path: string, ticket: string | undefined, now: Date): { sessionId: number } | null {
  const match = ticket === undefined ? null : TICKET.exec(ticket);
  if (!match) return null;
  const [, sessionText, expiresText, signature] = match;
  const sessionId = Number(sessionText);
  const expires = Number(expiresText);
  if (sessionId > SESSION_ID_MAX || expires * 1000 <= now.getTime()) return null;
  const expected = Buffer.from(sign(secret, path, sessionId, expires));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { sessionId } : null;
}

/**
 * Whether a session is alive at `now` (not signed out or replaced by a refresh, its access token
 * not expired, its user active): what a ticket's file is served on. Answers when its access token
 * expires, or null.
 */
export async function liveSessionExpiry(db: Queryable, sessionId: number, now: Date): Promise<Date | null> {
  const [row] = await db.query<{ access_expires_at: Date }>(
    `SELECT s.access_expires_at FROM auth_session s JOIN app_user u ON u.id = s.user_id
      WHERE s.id = $1 AND s.revoked_at IS NULL AND s.access_expires_at > $2 AND u.status = $3`,
    [sessionId, now, USER_STATUS.active],
  );
  return row ? new Date(row.access_expires_at) : null;
}

/**
 * A device's download of a firmware image (issue 31). A device has no session: its ticket is a kind
 * of its own, `t<task id>.<device code>.<attempt>.<expiry>.<signature>`, signed over the image's
 * path, the upgrade task's target (the task, the device, the attempt) and the expiry: the target's
 * deadline, when the task's time limit ends the attempt. It opens that one image only, and only
 * while the target is still upgrading in that attempt (a cancelled, finished or retried target's
 * url stops working): http/files.ts asks the database.
 */
export interface DeviceDownload {
  taskId: number;
  deviceCode: string;
  attempt: number;
}

const DEVICE_TICKET = /^t([1-9][0-9]{0,9})\.([A-Z0-9]{12})\.([1-9][0-9]?)\.([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;
const TASK_ID_MAX = 2_147_483_647;

function signDownload(secret: Buffer, path: string, download: DeviceDownload, expires: number): string {
  return createHmac('sha256', secret).update(`device-download:1|${path}|t${download.taskId}|${download.deviceCode}|${download.attempt}|${expires}`).digest('base64url');
}

/** The url a device downloads `path` at for `download` until `expires` (seconds since 1970). */
export function deviceDownloadUrl(secret: Buffer, path: string, download: DeviceDownload, expires: number): string {
  const ticket = `t${download.taskId}.${download.deviceCode}.${download.attempt}.${expires}.${signDownload(secret, path, download, expires)}`;
  return `${FILES_PREFIX}${path}?${FILE_TICKET_PARAMETER}=${ticket}`;
}

/** The target a device ticket for `path` was issued to, when it is well formed, signed with `secret` and not expired at `now`; null otherwise. */
export function verifyDeviceTicket(secret: Buffer, path: string, ticket: string | undefined, now: Date): DeviceDownload | null {
  const match = ticket === undefined ? null : DEVICE_TICKET.exec(ticket);
  if (!match) return null;
  const [, taskText, deviceCode, attemptText, expiresText, signature] = match;
  const download = { taskId: Number(taskText), deviceCode, attempt: Number(attemptText) };
  const expires = Number(expiresText);
  if (download.taskId > TASK_ID_MAX || expires * 1000 <= now.getTime()) return null;
  const expected = Buffer.from(signDownload(secret, path, download, expires));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? download : null;
}
