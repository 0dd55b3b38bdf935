import { randomUUID } from 'node:crypto';
import type { ServerServices } from '../core/context';
import { openSecret, SEAL_BINDINGS, secretCipherKey } from '../security/secrets';
import { sha256 } from '../security/tokens';
import type { DynsecCommand, DynsecControl, DynsecResponse } from './dynsecControl';
import { BROKER_ACCOUNT_CHANNEL, deviceRoleAcls, deviceRoleName, type WantedAccount } from './mosquittoAccounts';
import { resyncBrokerAccounts } from './mosquittoResync';

/**
 * Brings the broker's device accounts to what broker_account says (issue 36; mosquittoAccounts.ts).
 * Every instance connected to the broker runs this: woken by the announcement of a change (at its
 * commit) and every few seconds for the retries, it claims pending rows (a lease: two instances
 * never work on one device's account at once), reads each device's client from the broker
 * (getClient), sends what brings it to the wanted state, and reads the answers. A change the broker
 * confirmed is confirmed conditionally (only the version it sent: a reset meanwhile stays pending,
 * with its own password); one that failed or went unanswered is logged, kept pending and tried again
 * after a growing pause, so a broker that was away catches up when it is back.
 */

/** Rows claimed at once; their reads go in one message, their changes in another. */
const BATCH = 25;
/** How long a claim holds before another instance may take the row (a worker that stopped mid-change). */
const CLAIM_MS = 120_000;
/** How often the pending rows are looked at besides the announcements. */
const TICK_MS = 2_000;
/** The pause after the 1st, 2nd… failed attempt (the last one repeats). */
const RETRY_SECONDS = [2, 5, 15, 30, 60, 120, 300];
/** How often the broker's whole list is compared with the platform's (also once at start). */
export const RESYNC_MS = 60 * 60_000;

interface PendingAccount {
  device_code: string;
  wanted: WantedAccount;
  password_sealed: string | null;
  version: string;
  attempts: number;
}

/** A client as getClient answers it. */
interface BrokerClient {
  clientid?: string;
  disabled?: boolean;
  roles?: Array<{ rolename?: string }>;
}

/** What brings one device's client to its wanted state. */
interface Plan {
  commands: DynsecCommand[];
  /** Per command, the error that means "already so" (a role that exists, a client already gone). */
  tolerated: Array<string | undefined>;
  /** The broker has no client for a device that may sign in, and no password is known to make one. */
  needsReset: boolean;
  /** The password given (its device's readings through the broker are the device's from then on). */
  password: string | null;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The commands for one device, given its client on the broker (null: none) and the password to give it (null: none waits). */
export function planAccount(code: string, wanted: WantedAccount, password: string | null, client: BrokerClient | null): Plan {
  const role = deviceRoleName(code);
  const plan: Plan = { commands: [], tolerated: [], needsReset: false, password: null };
  const add = (command: DynsecCommand, tolerated?: string) => {
    plan.commands.push(command);
    plan.tolerated.push(tolerated);
  };
  if (wanted === 'deleted') {
    // The client before its role: a role deleted while a client holds it leaves the client pointing at freed memory.
    if (client) add({ command: 'deleteClient', username: code }, 'Client not found');
    add({ command: 'deleteRole', rolename: role }, 'Role not found');
    return plan;
  }
  if (!client) {
    if (!password) {
      plan.needsReset = wanted === 'enabled';
      return plan;
    }
    add({ command: 'createRole', rolename: role, acls: deviceRoleAcls(code) }, 'Role already exists');
    add({ command: 'createClient', username: code, password, clientid: code, roles: [{ rolename: role, priority: 0 }] });
    if (wanted === 'disabled') add({ command: 'disableClient', username: code });
    plan.password = password;
    return plan;
  }
  // A new password ends the sessions signed in with the old one (the plugin disconnects them).
  if (password) {
    add({ command: 'setClientPassword', username: code, password });
    plan.password = password;
  }
  if (client.clientid !== code) add({ command: 'setClientId', username: code, clientid: code });
  if (!(client.roles ?? []).some((held) => held.rolename === role)) {
    add({ command: 'createRole', rolename: role, acls: deviceRoleAcls(code) }, 'Role already exists');
    add({ command: 'addClientRole', username: code, rolename: role, priority: 0 });
  }
  if (wanted === 'enabled' && client.disabled) add({ command: 'enableClient', username: code });
  if (wanted === 'disabled' && !client.disabled) add({ command: 'disableClient', username: code });
  return plan;
}

/** The client of a getClient answer, null when the broker has none, or the failure. */
function clientOf(response: DynsecResponse | undefined): BrokerClient | null | Error {
  if (!response) return new Error('getClient 无应答');
  if (response.error === 'Client not found') return null;
  if (response.error) return new Error(`getClient：${response.error}`);
  const client = response.data?.client;
  return client && typeof client === 'object' ? (client as BrokerClient) : new Error('getClient 应答中没有 client');
}

export interface BrokerAccountSync {
  /** Looks at the pending rows now (an announcement, a reconnection). */
  wake(): void;
  /** Compares the broker's whole list with the platform's now; answers when the differences are queued. */
  resync(): ReturnType<typeof resyncBrokerAccounts>;
  /** Settles when no round is under way and none is due (tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** One instance's worker: who claims, on which database, through which connection. */
interface Worker {
  services: ServerServices;
  control: DynsecControl;
  holder: string;
}

async function claim({ services, holder }: Worker): Promise<PendingAccount[]> {
  const now = services.config.now();
  return services.db.query<PendingAccount>(
    `UPDATE broker_account a SET claimed_by = $1, claimed_until = $3, attempts = a.attempts + 1
      WHERE a.device_code IN (SELECT device_code FROM broker_account
                               WHERE version > confirmed_version AND next_attempt_at <= $2 AND (claimed_until IS NULL OR claimed_until < $2)
                               ORDER BY next_attempt_at, device_code LIMIT $4 FOR UPDATE SKIP LOCKED)
      RETURNING a.device_code, a.wanted, a.password_sealed, a.version::text AS version, a.attempts`,
    [holder, now, new Date(now.getTime() + CLAIM_MS), BATCH],
  );
}

async function confirm({ services, holder }: Worker, row: PendingAccount, plan: Plan): Promise<void> {
  const { db } = services;
  const now = services.config.now();
  // A purged device's row goes once the broker forgot it (unless the code was issued again
  // meanwhile), in the one statement that confirms it: no reader sees it confirmed and still there.
  const gone =
    row.wanted === 'deleted' &&
    (await db.query("DELETE FROM broker_account WHERE device_code = $1 AND claimed_by = $2 AND wanted = 'deleted' AND version = $3::bigint RETURNING device_code", [row.device_code, holder, row.version]))
      .length > 0;
  if (!gone) {
    await db.query(
      `UPDATE broker_account SET confirmed_version = $3::bigint, confirmed_at = $4, attempts = 0, last_error = NULL, claimed_by = NULL, claimed_until = NULL,
              needs_reset = $5, password_sealed = CASE WHEN version = $3::bigint THEN NULL ELSE password_sealed END
        WHERE device_code = $1 AND claimed_by = $2`,
      [row.device_code, holder, row.version, now, plan.needsReset],
    );
  }
  // Only the new password opens the broker now, and its sessions with the old one are gone: the device's readings there are its own.
  if (plan.password) {
    await db.query(
      `UPDATE device_credential c SET broker_signed_in_at = $3 FROM device d
        WHERE d.id = c.device_id AND d.code = $1 AND d.deleted_at IS NULL AND c.secret_hash = $2`,
      [row.device_code, sha256(plan.password), now],
    );
  }
}

async function failed({ services, holder }: Worker, row: PendingAccount, error: string): Promise<void> {
  const now = services.config.now();
  const pause = RETRY_SECONDS[Math.min(Math.max(row.attempts, 1), RETRY_SECONDS.length) - 1];
  services.log(`broker accounts: ${row.device_code} (${row.wanted}) not confirmed, attempt ${row.attempts}, again in ${pause} s: ${error}`);
  await services.db.query('UPDATE broker_account SET last_error = $3, next_attempt_at = $4, claimed_by = NULL, claimed_until = NULL WHERE device_code = $1 AND claimed_by = $2', [
    row.device_code,
    holder,
    error.slice(0, 500),
    new Date(now.getTime() + pause * 1000),
  ]);
}

/** The password a row waits to give, null when none; a sealed one that no longer opens: lost (the device is disabled until its next reset). */
function passwordOf(row: PendingAccount, key: Buffer | null): { password: string | null; lost: boolean } {
  if (!row.password_sealed || !key) return { password: null, lost: false };
  const password = openSecret(key, SEAL_BINDINGS.brokerPassword(row.device_code), row.password_sealed);
  return { password, lost: password === null };
}

type Planned = { row: PendingAccount; plan: Plan; from: number } | { row: PendingAccount; error: string };

/** Each claimed row's plan from the broker's answers to getClient, and the commands of all of them, in order. */
async function planRows(worker: Worker, rows: PendingAccount[], reads: DynsecResponse[]): Promise<{ planned: Planned[]; commands: DynsecCommand[] }> {
  const planned: Planned[] = [];
  const commands: DynsecCommand[] = [];
  const key = rows.some((row) => row.password_sealed) ? await secretCipherKey(worker.services.db) : null;
  for (const [index, row] of rows.entries()) {
    const client = clientOf(reads[index]);
    if (client instanceof Error) {
      planned.push({ row, error: client.message });
      continue;
    }
    const { password, lost } = passwordOf(row, key);
    if (lost) worker.services.log(`broker accounts: ${row.device_code}: the password waiting for the broker no longer opens; the device is disabled there until its credential is reset`);
    const plan = planAccount(row.device_code, lost && row.wanted === 'enabled' ? 'disabled' : row.wanted, password, client);
    if (lost) plan.needsReset = true;
    planned.push({ row, plan, from: commands.length });
    commands.push(...plan.commands);
  }
  return { planned, commands };
}

/** One batch: read the clients, send what changes them, settle each row by its answers. Answers how many were claimed. */
async function round(worker: Worker): Promise<number> {
  const rows = await claim(worker);
  if (rows.length === 0) return 0;
  let reads: DynsecResponse[];
  try {
    reads = await worker.control.send(rows.map((row) => ({ command: 'getClient', username: row.device_code })));
  } catch (error) {
    for (const row of rows) await failed(worker, row, message(error));
    return rows.length;
  }
  const { planned, commands } = await planRows(worker, rows, reads);
  let answers: DynsecResponse[] = [];
  try {
    answers = await worker.control.send(commands);
  } catch (error) {
    for (const entry of planned) await failed(worker, entry.row, 'error' in entry ? entry.error : message(error));
    return rows.length;
  }
  for (const entry of planned) {
    if ('error' in entry) {
      await failed(worker, entry.row, entry.error);
      continue;
    }
    const { row, plan, from } = entry;
    const refused = plan.commands
      .map((command, index) => ({ command: command.command, error: answers[from + index]?.error, tolerated: plan.tolerated[index] }))
      .find((answer) => answer.error !== undefined && answer.error !== answer.tolerated);
    if (refused) await failed(worker, row, `${refused.command}：${refused.error}`);
    else await confirm(worker, row, plan);
  }
  return rows.length;
}

/**
 * Keeps the broker's accounts through `control` (the platform's own connection, its account holding
 * the plugin's admin role) while `connected()`; `platformUser` is MQTT_URL's own username, never
 * taken for a device's.
 */
export async function startBrokerAccountSync(services: ServerServices, control: DynsecControl, connected: () => boolean, platformUser: string): Promise<BrokerAccountSync> {
  const worker: Worker = { services, control, holder: `accounts:${randomUUID()}` };
  const { db } = services;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;

  const run = () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          while (!closed && connected() && (await round(worker)) === BATCH);
        } catch (error) {
          services.log(`broker accounts: a round failed: ${message(error)}`);
        }
      } while (again && !closed);
    })().finally(() => {
      running = null;
    });
  };

  const resync = () => resyncBrokerAccounts(db, control, platformUser, services.config.now);
  const resyncInBackground = () => {
    if (!connected() || closed) return;
    resync().then(
      (outcome) => {
        if (outcome.queued + outcome.missing + outcome.orphanRoles > 0) services.log(`broker accounts: resync queued ${outcome.queued} change(s), ${outcome.missing} device(s) need a credential reset, ${outcome.orphanRoles} stray role(s) deleted`);
        run();
      },
      (error: unknown) => services.log(`broker accounts: the resync failed: ${message(error)}`),
    );
  };
  const stopListening = await db.listen(BROKER_ACCOUNT_CHANNEL, run, run);
  const ticker = setInterval(run, TICK_MS);
  ticker.unref();
  const resyncer = setInterval(resyncInBackground, RESYNC_MS);
  resyncer.unref();
  resyncInBackground();
  run();

  return {
    wake: run,
    resync,
    idle: async () => {
      while (running) await running;
    },
    close: async () => {
      closed = true;
      clearInterval(ticker);
      clearInterval(resyncer);
      await stopListening().catch(() => undefined);
      while (running) await running;
    },
  };
}
