import type { JsonObject, Row } from '../db/bulk';
import type { Queryable } from '../db/database';
import { sealChannelSecrets } from '../domain/channelSecrets';
import type { ChannelSecrets } from '../domain/notificationChannels';
import { secretCipherKey } from '../security/secrets';

/**
 * The seeded channels' rows as they are written: each secret sealed for its channel, with its mask
 * (server/domain/channelSecrets.ts). The demo world is built without a database (and so without the
 * key, which may not exist yet: the seed of an empty database runs before anything else needed
 * it); the key is read, or stored, the way every instance does, in the transaction that loads the
 * rows, so no seeded secret is ever written in the clear.
 */
export async function sealedChannelRows(db: Queryable, rows: readonly Row[]): Promise<Row[]> {
  if (rows.length === 0) return [];
  const cipherKey = await secretCipherKey(db);
  return rows.map((row) => {
    const { secrets, masks } = sealChannelSecrets(cipherKey, Number(row.id), row.secrets as unknown as ChannelSecrets);
    return { ...row, secrets: secrets as unknown as JsonObject, secret_masks: masks as unknown as JsonObject, secrets_sealed: true };
  });
}
