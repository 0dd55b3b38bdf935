import type { ServerConfig } from '../config';
import type { Queryable } from '../db/database';
import { SEAL_BINDINGS, sealSecret, secretCipherKey } from '../security/secrets';

/**
 * The broker's own device accounts (issue 36, MQTT_DYNSEC=1): with a Mosquitto whose
 * dynamic-security plugin authenticates the devices, the platform keeps a client there per device,
 * in step with the credentials it issues. Username and client id are the device's code (as on the
 * embedded broker: a device signs in as itself only), the password its secret, and a role of its
 * own (`device-<code>`) lets it publish on `devices/<code>/telemetry` and
 * `devices/<code>/commands/reply` and subscribe to `devices/<code>/commands`, nothing else.
 *
 * What the operations change is written here, in their own transaction, as the state the device's
 * client should reach (broker_account, migration 130), and announced at the commit; the instances
 * connected to the broker bring the broker there (mosquittoAccountSync.ts) and keep it pending until
 * the broker confirmed it. A new password waits sealed and is forgotten once the broker has it.
 */

/** Announced (pg_notify, at the commit) when a device's account must change: the connected instances act at once. */
export const BROKER_ACCOUNT_CHANNEL = 'broker_account_changed';

export type WantedAccount = 'enabled' | 'disabled' | 'deleted';

/** The role of a device's own rights on the broker. */
export const deviceRoleName = (code: string): string => `device-${code}`;

/** What a device may do on the broker: publish its readings and its replies, subscribe to its commands. */
export function deviceRoleAcls(code: string): Array<{ acltype: string; topic: string; priority: number; allow: boolean }> {
  return [
    { acltype: 'publishClientSend', topic: `devices/${code}/telemetry`, priority: 0, allow: true },
    { acltype: 'publishClientSend', topic: `devices/${code}/commands/reply`, priority: 0, allow: true },
    { acltype: 'subscribeLiteral', topic: `devices/${code}/commands`, priority: 0, allow: true },
    // Receiving is allowed by the plugin's default, said here too: a broker whose default denies still hands the device its commands.
    { acltype: 'publishClientReceive', topic: `devices/${code}/commands`, priority: 0, allow: true },
  ];
}

/** A device's new secret for the broker. */
export interface BrokerPassword {
  code: string;
  secret: string;
}

/**
 * New secrets issued (a first credential or a reset, the devices live): each device's client is to
 * be created with it or given it, and enabled. No-op without MQTT_DYNSEC. Run it in the issuing
 * transaction: rolled back with it, announced at its commit.
 */
export async function noteBrokerPasswords(db: Queryable, config: ServerConfig, passwords: readonly BrokerPassword[]): Promise<void> {
  if (!config.mqttDynsec || passwords.length === 0) return;
  const key = await secretCipherKey(db);
  const sealed = passwords.map(({ code, secret }) => ({ code, sealed: sealSecret(key, SEAL_BINDINGS.brokerPassword(code), secret) }));
  const now = config.now();
  await db.query(
    `WITH changed AS (
       INSERT INTO broker_account (device_code, wanted, password_sealed, changed_at, next_attempt_at)
       SELECT x.code, 'enabled', x.sealed, $2, $2 FROM jsonb_to_recordset($1::jsonb) AS x(code text, sealed text)
       ON CONFLICT (device_code) DO UPDATE SET wanted = 'enabled', password_sealed = EXCLUDED.password_sealed, version = broker_account.version + 1,
         changed_at = EXCLUDED.changed_at, next_attempt_at = EXCLUDED.next_attempt_at, attempts = 0, needs_reset = false
       RETURNING 1
     )
     SELECT pg_notify($3, '') FROM (SELECT 1 FROM changed LIMIT 1) AS announced`,
    [JSON.stringify(sealed), now, BROKER_ACCOUNT_CHANNEL],
  );
}

/**
 * Devices that went to the recycle bin (disabled), came back from it (enabled) or were purged
 * (deleted): their clients are to follow. A code that a live device holds is left alone when
 * disabling or deleting (a purged device's code taken by another since). Only devices the broker may
 * know are written: with a credential, or with an account already (a purge notes its devices before
 * deleting them, while their credentials are there). No-op without MQTT_DYNSEC; run it in the
 * changing transaction.
 */
export async function noteBrokerDevices(db: Queryable, config: ServerConfig, codes: readonly string[], wanted: WantedAccount): Promise<void> {
  if (!config.mqttDynsec || codes.length === 0) return;
  const now = config.now();
  await db.query(
    `WITH changed AS (
       INSERT INTO broker_account (device_code, wanted, changed_at, next_attempt_at)
       SELECT c.code, $2, $3, $3 FROM unnest($1::text[]) AS c(code)
        WHERE ($2 = 'enabled' OR NOT EXISTS (SELECT 1 FROM device d WHERE d.code = c.code AND d.deleted_at IS NULL))
          AND (EXISTS (SELECT 1 FROM broker_account a WHERE a.device_code = c.code)
               OR EXISTS (SELECT 1 FROM device d JOIN device_credential k ON k.device_id = d.id WHERE d.code = c.code))
       ON CONFLICT (device_code) DO UPDATE SET wanted = EXCLUDED.wanted, version = broker_account.version + 1,
         changed_at = EXCLUDED.changed_at, next_attempt_at = EXCLUDED.next_attempt_at, attempts = 0
       RETURNING 1
     )
     SELECT pg_notify($4, '') FROM (SELECT 1 FROM changed LIMIT 1) AS announced`,
    [codes, wanted, now, BROKER_ACCOUNT_CHANNEL],
  );
}
