import { timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/database';
import { newToken, sha256 } from '../security/tokens';
import type { ReportingDevice } from './deviceReports';
import { ReportRefused } from './reportChecks';
import { DEVICE_CODE_PATTERN } from '../core/params';

/**
 * Who is reporting (issue 22; sessions, issue 30): a device signs in with its code and a secret the
 * platform issued (only its SHA-256 is kept). A device in the recycle bin, or without a secret, is
 * refused; a reset stops the old secret at once, for new sign-ins and, through the revocation it
 * announces (deviceSessions.ts), for the MQTT sessions already open on every instance.
 */

export const DEVICE_CODE = new RegExp(DEVICE_CODE_PATTERN);

/** The LISTEN/NOTIFY channel a reset or a removal announces a device's revocation on (deviceSessions.ts closes its sessions). */
export const REVOCATION_CHANNEL = 'device_revoked';

/** A signed-in device and the hash of the secret it signed in with (what an open session is checked against later). */
export interface SignedInDevice {
  device: ReportingDevice;
  secretHash: string;
}

/** The device whose code and secret these are, with its secret's hash; refused as unknown (or deleted) or for a wrong secret. */
export async function signInDevice(db: Queryable, code: string, secret: string): Promise<SignedInDevice> {
  if (!DEVICE_CODE.test(code)) throw new ReportRefused('unknown device');
  const [row] = await db.query<ReportingDevice & { secret_hash: string | null }>(
    `SELECT d.id, d.code, d.name, d.tenant_code, d.organization_code, d.product_code, c.secret_hash
       FROM device d LEFT JOIN device_credential c ON c.device_id = d.id
      WHERE d.code = $1 AND d.deleted_at IS NULL`,
    [code],
  );
  if (!row) throw new ReportRefused('unknown device');
  const secretHash = sha256(secret);
  const presented = Buffer.from(secretHash, 'hex');
  const expected = Buffer.from(row.secret_hash ?? '', 'hex');
  if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) throw new ReportRefused('bad credentials');
  const device = { id: row.id, code: row.code, name: row.name, tenant_code: row.tenant_code, organization_code: row.organization_code, product_code: row.product_code };
  return { device, secretHash };
}

/** The device whose code and secret these are; refused as unknown (or deleted) or for a wrong secret. */
export async function authenticateDevice(db: Queryable, code: string, secret: string): Promise<ReportingDevice> {
  return (await signInDevice(db, code, secret)).device;
}

/**
 * Notes that a device signed in to the external broker with its current secret (the broker asked
 * `_auth`): from then on the bridge takes its readings. Conditional on the secret: a sign-in checked
 * just before a reset marks nothing.
 */
export async function noteBrokerSignIn(db: Queryable, signedIn: SignedInDevice, now: Date): Promise<void> {
  await db.query('UPDATE device_credential SET broker_signed_in_at = $3 WHERE device_id = $1 AND secret_hash = $2', [signedIn.device.id, signedIn.secretHash, now]);
}

/**
 * The live device of this code, for readings an external broker passes on (mqttBridge.ts): refused
 * as unknown when it is gone or in the recycle bin, for its credential when it has none or has not
 * signed in to the broker since its secret was issued (a reset: the old secret's session may still be
 * open there, and its readings are not the device's until it signs in with the new one).
 */
export async function findReportingDevice(db: Queryable, code: string): Promise<ReportingDevice> {
  const [row] = await db.query<ReportingDevice & { signed_in: boolean }>(
    `SELECT d.id, d.code, d.name, d.tenant_code, d.organization_code, d.product_code, c.broker_signed_in_at IS NOT NULL AS signed_in
       FROM device d LEFT JOIN device_credential c ON c.device_id = d.id
      WHERE d.code = $1 AND d.deleted_at IS NULL`,
    [code],
  );
  if (!row) throw new ReportRefused('unknown device');
  if (!row.signed_in) throw new ReportRefused('bad credentials');
  return { id: row.id, code: row.code, name: row.name, tenant_code: row.tenant_code, organization_code: row.organization_code, product_code: row.product_code };
}

/**
 * A new secret for the device; the old one stops at once: refused at the next sign-in, and the
 * device's open sessions are told to close when the caller's transaction commits (run it in one).
 * Answers the secret (shown once, kept as its hash).
 */
export async function issueDeviceSecret(db: Queryable, deviceId: number, issuedBy: number | null, now: Date): Promise<string> {
  const secret = newToken();
  // One statement with its announcement (the simulator's dev operation issues thousands at once).
  await db.query(
    `WITH issued AS (
       INSERT INTO device_credential (device_id, secret_hash, issued_at, issued_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (device_id) DO UPDATE SET secret_hash = EXCLUDED.secret_hash, issued_at = EXCLUDED.issued_at, issued_by = EXCLUDED.issued_by, broker_signed_in_at = NULL
       RETURNING device_id
     )
     SELECT pg_notify($5, jsonb_build_array(device_id)::text) FROM issued`,
    [deviceId, sha256(secret), now, issuedBy, REVOCATION_CHANNEL],
  );
  return secret;
}
