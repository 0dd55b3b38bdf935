import type { Queryable } from '../db/database';
import { DEVICE_CODE } from './deviceCredentials';
import type { DynsecControl, DynsecResponse } from './dynsecControl';
import { deviceRoleName, type WantedAccount } from './mosquittoAccounts';

/**
 * The broker's whole list made equal to the platform's (issue 36): run by each instance when it
 * connects and every hour (mosquittoAccountSync.ts). The broker's clients whose username is a device
 * code (twelve letters and digits: the platform's; MQTT_URL's own user and any other account keep
 * other names) are compared with the devices: a live device with a credential is an enabled
 * client, one in the recycle bin a disabled one, anything else (purged, unknown, never issued) no
 * client. Each difference is queued as a change of that device's account (not over one that is
 * pending: it is on its way), and the accounts' worker makes it. A device that may sign in but has
 * no client, and no password waiting, cannot be given one (the platform keeps only its secret's hash):
 * it is marked as needing a credential reset. A `device-<code>` role no client holds, of a code that
 * should have none, is queued for deletion too.
 */

export interface ResyncOutcome {
  /** The device clients the broker had. */
  brokerClients: number;
  /** Changes queued for the worker. */
  queued: number;
  /** Devices that may sign in but have no client on the broker: their credential must be reset. */
  missing: number;
  /** Roles of devices no client holds, queued for deletion (among `queued`). */
  orphanRoles: number;
}

interface ListedClient {
  username?: unknown;
  clientid?: unknown;
  disabled?: unknown;
  roles?: Array<{ rolename?: unknown }>;
}

const DEVICE_ROLE = /^device-[A-Za-z0-9]{12}$/;

function listOf<T>(response: DynsecResponse | undefined, field: string): T[] {
  if (!response) throw new Error('动态安全插件无应答');
  if (response.error) throw new Error(`${response.command}：${response.error}`);
  const list = response.data?.[field];
  if (!Array.isArray(list)) throw new Error(`${response.command} 应答中没有 ${field}`);
  return list as T[];
}

/** What each device code's client should be: the platform's side. */
async function platformAccounts(db: Queryable): Promise<Map<string, WantedAccount>> {
  const rows = await db.query<{ code: string; live_with_credential: boolean; live: boolean }>(
    `SELECT d.code, bool_or(d.deleted_at IS NULL AND k.device_id IS NOT NULL) AS live_with_credential, bool_or(d.deleted_at IS NULL) AS live
       FROM device d LEFT JOIN device_credential k ON k.device_id = d.id
      GROUP BY d.code HAVING bool_or(k.device_id IS NOT NULL)`,
  );
  const wanted = new Map<string, WantedAccount>();
  // A live device without a credential holding the code of a recycled one with a credential: no client.
  for (const row of rows) wanted.set(row.code, row.live_with_credential ? 'enabled' : row.live ? 'deleted' : 'disabled');
  return wanted;
}

export async function resyncBrokerAccounts(db: Queryable, control: DynsecControl, platformUser: string, now: () => Date): Promise<ResyncOutcome> {
  const [clientsAnswer, rolesAnswer] = await control.send([
    { command: 'listClients', verbose: true, count: -1, offset: 0 },
    { command: 'listRoles', verbose: false, count: -1, offset: 0 },
  ]);
  const clients = listOf<ListedClient>(clientsAnswer, 'clients');
  const roles = listOf<unknown>(rolesAnswer, 'roles').map((role) => (typeof role === 'string' ? role : String((role as { rolename?: unknown }).rolename ?? '')));
  const wanted = await platformAccounts(db);
  const pending = new Set(
    (await db.query<{ device_code: string }>('SELECT device_code FROM broker_account WHERE version > confirmed_version')).map((row) => row.device_code),
  );

  const changes: Array<{ code: string; wanted: WantedAccount }> = [];
  const onBroker = new Set<string>();
  const heldRoles = new Set<string>();
  for (const client of clients) {
    for (const role of client.roles ?? []) if (typeof role.rolename === 'string') heldRoles.add(role.rolename);
    const code = typeof client.username === 'string' ? client.username : '';
    if (!DEVICE_CODE.test(code) || code === platformUser) continue;
    onBroker.add(code);
    if (pending.has(code)) continue;
    const should = wanted.get(code) ?? 'deleted';
    const inStep =
      should !== 'deleted' &&
      (client.disabled === true) === (should === 'disabled') &&
      client.clientid === code &&
      (client.roles ?? []).some((role) => role.rolename === deviceRoleName(code));
    if (!inStep) changes.push({ code, wanted: should });
  }
  const missing = [...wanted].filter(([code, should]) => should === 'enabled' && !onBroker.has(code) && !pending.has(code)).map(([code]) => code);
  // A device's role no client holds, for a code that should have no client: deleted by the worker, under the row's claim (never
  // while a change of the same device, which may create its client with that role, is under way).
  const orphans = roles
    .filter((role) => DEVICE_ROLE.test(role) && !heldRoles.has(role))
    .map((role) => role.slice('device-'.length))
    .filter((code) => !onBroker.has(code) && !pending.has(code) && (wanted.get(code) ?? 'deleted') === 'deleted');
  for (const code of orphans) changes.push({ code, wanted: 'deleted' });

  const at = now();
  const [queued] = await db.query<{ n: number }>(
    `WITH changed AS (
       INSERT INTO broker_account (device_code, wanted, changed_at, next_attempt_at)
       SELECT x.code, x.wanted, $2, $2 FROM jsonb_to_recordset($1::jsonb) AS x(code text, wanted text)
       ON CONFLICT (device_code) DO UPDATE SET wanted = EXCLUDED.wanted, version = broker_account.version + 1,
         changed_at = EXCLUDED.changed_at, next_attempt_at = EXCLUDED.next_attempt_at, attempts = 0
        WHERE broker_account.version = broker_account.confirmed_version
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM changed`,
    [JSON.stringify(changes), at],
  );
  await db.query(
    `INSERT INTO broker_account (device_code, wanted, version, confirmed_version, changed_at, confirmed_at, next_attempt_at, needs_reset)
     SELECT code, 'enabled', 1, 1, $2, $2, $2, true FROM unnest($1::text[]) AS code
     ON CONFLICT (device_code) DO UPDATE SET needs_reset = true WHERE broker_account.version = broker_account.confirmed_version`,
    [missing, at],
  );
  return { brokerClients: onBroker.size, queued: queued?.n ?? 0, missing: missing.length, orphanRoles: orphans.length };
}
