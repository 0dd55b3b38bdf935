import type { Database } from '../db/database';
import { openSecret, SEAL_BINDINGS, sealSecret, secretCipherKey } from '../security/secrets';
import { maskSecret, SECRET_NAMES, type ChannelSecrets, type SecretName } from './notificationChannels';

/**
 * A notification channel's secrets at rest (issue 30/31 follow-up): `notification_channel.secrets`
 * holds each secret sealed (server/security/secrets.ts) and bound to its channel and its name
 * (`channel:<id>:<name>`), so a ciphertext copied to another channel or field does not open;
 * `secret_masks` holds what the console is shown of each (`****1a2b`), so the screens never open
 * one; `secrets_sealed` says the row is so (migration 127). A secret is opened only where a
 * transport sends with it (server/ingest/channels/). Rows an earlier version wrote in the clear are
 * sealed once at start (sealPlainChannels), the seed's before they are written
 * (server/seed/channelSecrets.ts).
 */

/** How 发送配置 names each secret (schemas/pages/sendConfig/form.json), for the messages that name one. */
export const SECRET_LABELS: Readonly<Record<SecretName, string>> = { secret: '加签密钥', mailPassword: '邮箱密码', accessKeySecret: 'AccessKey Secret', appSecret: 'AppSecret' };

export interface SealedSecrets {
  /** Each secret sealed for its channel and name. */
  secrets: ChannelSecrets;
  /** What the console is shown of each. */
  masks: ChannelSecrets;
}

/** Each given secret sealed for channel `channelId`, with its mask, beside those `kept` as they are sealed. */
export function sealChannelSecrets(cipherKey: Buffer, channelId: number, plain: ChannelSecrets, kept: SealedSecrets = { secrets: {}, masks: {} }): SealedSecrets {
  const sealed: SealedSecrets = { secrets: { ...kept.secrets }, masks: { ...kept.masks } };
  for (const name of SECRET_NAMES) {
    const value = plain[name];
    if (value === undefined) continue;
    sealed.secrets[name] = sealSecret(cipherKey, SEAL_BINDINGS.channelSecret(channelId, name), value);
    sealed.masks[name] = maskSecret(value);
  }
  return sealed;
}

/** The channel's secrets opened, or the name of the first that does not open (altered, another channel's or field's, or never sealed). */
export function openChannelSecrets(cipherKey: Buffer, channelId: number, sealed: ChannelSecrets): { secrets: ChannelSecrets } | { unreadable: SecretName } {
  const secrets: ChannelSecrets = {};
  for (const name of SECRET_NAMES) {
    if (sealed[name] === undefined) continue;
    const value = openSecret(cipherKey, SEAL_BINDINGS.channelSecret(channelId, name), sealed[name]);
    if (value === null) return { unreadable: name };
    secrets[name] = value;
  }
  return { secrets };
}

/** The secrets of a row an earlier version wrote: the known names' text values (anything else is dropped, never kept plain). */
function plainSecretsOf(stored: unknown): ChannelSecrets {
  const secrets: ChannelSecrets = {};
  if (typeof stored !== 'object' || stored === null) return secrets;
  const values = stored as Record<string, unknown>;
  for (const name of SECRET_NAMES) {
    const value = values[name];
    if (typeof value === 'string' && value !== '') secrets[name] = value;
  }
  return secrets;
}

/**
 * Seals the secrets of every channel still holding them in the clear (written by a version before
 * migration 127), at start, under the start-up lock. Conditional: a row already sealed is left
 * alone, so instances starting together seal each row once. Answers how many rows it sealed.
 */
export async function sealPlainChannels(db: Database): Promise<number> {
  const cipherKey = await secretCipherKey(db);
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ id: number; secrets: unknown }>('SELECT id, secrets FROM notification_channel WHERE NOT secrets_sealed ORDER BY id FOR UPDATE');
    if (rows.length === 0) return 0;
    const sealed = rows.map((row) => ({ id: row.id, ...sealChannelSecrets(cipherKey, row.id, plainSecretsOf(row.secrets)) }));
    const updated = await tx.query<{ id: number }>(
      `UPDATE notification_channel c SET secrets = v.secrets, secret_masks = v.masks, secrets_sealed = true
         FROM jsonb_to_recordset($1::jsonb) AS v(id int, secrets jsonb, masks jsonb)
        WHERE c.id = v.id AND NOT c.secrets_sealed
        RETURNING c.id`,
      [JSON.stringify(sealed)],
    );
    return updated.length;
  });
}
