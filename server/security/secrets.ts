import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database';

/**
 * Secrets at rest: every secret the server must read back (an open API access key's secret, a
 * webhook's signing secret, a notification channel's robot secret, SMTP password, AccessKey secret
 * or AppSecret, a WeChat access token) is stored sealed, AES-256-GCM under one key, and bound to
 * what it belongs to (the additional authenticated data): a ciphertext copied to another key,
 * webhook, channel or field does not open. Below the business areas: each area names its own
 * binding through SEAL_BINDINGS, so no two kinds can share one.
 */

/** The row of server_secret the key is derived from (named after the first kind that used it). */
const CIPHER_SECRET_NAME = 'open-api';
/**
 * The HKDF salt and info the key was first derived with (issue 23, the open API's secrets).
 * Unchanged since, or every secret sealed before would no longer open.
 */
const HKDF_SALT = 'iot-console';
const HKDF_INFO = 'open-api access key secrets';
/** `v1.<iv>.<tag>.<body>`, base64url; a body up to 3 KiB (a WeChat access token may run to 512 characters and more). */
const SEALED = /^v1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{1,4096})$/;

/**
 * What each kind of secret is bound to when sealed. The access key's binding is the key itself
 * (`ak_…`, as issue 23 sealed it); every other kind has a prefix of its own.
 */
export const SEAL_BINDINGS = {
  accessKey: (accessKey: string): string => accessKey,
  webhook: (code: string): string => `webhook:${code}`,
  /** One secret of a notification channel (notification_channel.secrets), by the channel's id and the secret's name. */
  channelSecret: (channelId: number, name: string): string => `channel:${channelId}:${name}`,
  /** A channel's provider access token (channel_access_token), for the AppID it was issued to. */
  channelToken: (channelId: number, appId: string): string => `channel-token:${channelId}:${appId}`,
  /** A device's broker password waiting to be given to the broker (broker_account, issue 36), by the device's code. */
  brokerPassword: (deviceCode: string): string => `broker-password:${deviceCode}`,
} as const;

/** The key derived from the instances' shared value (server_secret `open-api`). */
export function cipherKeyOf(sharedValue: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sharedValue, HKDF_SALT, HKDF_INFO, 32));
}

/**
 * The key that seals the secrets: derived from the instances' shared secret `open-api` in
 * server_secret, stored by the first instance (or the first seed) that needs it, read by every
 * other. It is its own secret, not FILES_SECRET's: rotating the file tickets' key must not lose
 * every secret.
 */
export async function secretCipherKey(db: Queryable): Promise<Buffer> {
  await db.query('INSERT INTO server_secret (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [CIPHER_SECRET_NAME, randomBytes(32).toString('hex')]);
  const [row] = await db.query<{ value: string }>('SELECT value FROM server_secret WHERE name = $1', [CIPHER_SECRET_NAME]);
  if (!row) throw new Error('the secrets key could not be stored');
  return cipherKeyOf(row.value);
}

/** The secret encrypted (AES-256-GCM), bound to `binding`: a ciphertext moved to another binding does not open. */
export function sealSecret(cipherKey: Buffer, binding: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cipherKey, iv);
  cipher.setAAD(Buffer.from(binding, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `v1.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
}

/** The secret sealed for `binding`, or null when it is missing, altered, not sealed, or sealed for another binding or key. */
export function openSecret(cipherKey: Buffer, binding: string, sealed: string | null | undefined): string | null {
  const match = typeof sealed === 'string' ? SEALED.exec(sealed) : null;
  if (!match) return null;
  const [, iv, tag, body] = match;
  try {
    const decipher = createDecipheriv('aes-256-gcm', cipherKey, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(binding, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
