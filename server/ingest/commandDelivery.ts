import type { ServerConfig } from '../config';
import type { Database, Queryable } from '../db/database';
import { encodeCommand, otaParametersOf, CommandParametersRefused, REPORT_INTERVAL_MINUTES, type CommandState, type CommandType } from '../domain/deviceCommands';
import { fail } from '../http/envelope';
import { recordLiveEvents } from '../live/liveEvents';
import { startPeriodicTask, type PeriodicTask } from '../periodicTask';

/**
 * Commands reach devices (issue 31): the one place a command is queued, and every change of its
 * state, each one conditional statement (`UPDATE … WHERE state = … RETURNING`), so that of two
 * instances one sends, and a late or repeated reply changes nothing.
 *
 * A command is written `pending` and announced with pg_notify (COMMAND_CHANNEL) at its commit; the
 * instance that holds its device's session (commandSender.ts) claims it for a while (a lease: one
 * instance sends it), publishes it on `devices/<code>/commands` and marks it `sent` once the device's
 * PUBACK arrived. Over HTTP a report's answer takes the waiting commands (`sent` there and then).
 * The device's reply settles it (commandReplies.ts); one not answered before `expires_at` is expired.
 * Every change is told to the live console as `command.updated`.
 */

/** Where a queued command is announced (payload: `{"id", "deviceId"}`), heard by every instance. */
export const COMMAND_CHANNEL = 'device_command';

/** What the caller asks for: the device (by id), the type and its parameters, and when it expires. */
export interface CommandToQueue {
  deviceId: number;
  type: CommandType;
  /** report_interval: `{intervalMinutes}`; ota: `{version, url, size, sha256}`; the others none. */
  parameters?: Readonly<Record<string, unknown>>;
  /** No reply before this: expired (COMMAND_TTL_SECONDS from now by default). */
  expiresAt?: Date;
  /** Who asked (a login name; `system` for what the platform sends by itself). */
  createdBy?: string;
}

/** The time and settings a command is written with (an operation's context has both). */
export interface CommandClock {
  now: Date;
  config: Pick<ServerConfig, 'timeZone' | 'commandTtlSeconds'>;
}

/** A queued command, as the operations answer it. */
export interface QueuedCommand {
  id: number;
  code: string;
  commandType: CommandType;
  parameters: Record<string, string | number>;
  commandText: string;
  commandHex: string;
  state: 'pending';
  createTime: string;
  expiresAt: string;
}

/** What the device receives on `devices/<code>/commands` (and in an HTTP report's `data.commands`): the fixed wire format. */
export interface CommandMessage {
  id: number;
  type: string;
  parameters: Record<string, unknown>;
  text: string;
  hex: string;
  expiresAt: string;
}

/** A command's row as the senders read it. */
export interface CommandRow {
  id: number;
  command_type: string;
  parameters: Record<string, unknown>;
  command_text: string;
  command_hex: string;
  expires_at: Date;
}

export const COMMAND_COLUMNS = 'c.id, c.command_type, c.parameters, c.command_text, c.command_hex, c.expires_at';

export function commandMessage(row: CommandRow): CommandMessage {
  return { id: row.id, type: row.command_type, parameters: row.parameters, text: row.command_text, hex: row.command_hex, expiresAt: new Date(row.expires_at).toISOString() };
}

/** The device a command belongs to, as the live console scopes it. */
interface CommandDevice {
  code: string;
  tenant_code: string;
  organization_code: string;
}

/** A change of a command's state for the live console (and the tenants' webhooks). */
export interface CommandChange extends CommandDevice {
  id: number;
  state: CommandState;
}

/** Tells the live console of changed commands, in the transaction that changed them. */
export async function recordCommandChanges(tx: Queryable, changes: readonly CommandChange[], now: Date): Promise<void> {
  await recordLiveEvents(
    tx,
    changes.map((change) => ({
      kind: 'command.updated' as const,
      tenantCode: change.tenant_code,
      organizationCode: change.organization_code,
      payload: { deviceCode: change.code, commandId: change.id, state: change.state },
    })),
    now,
  );
}

/** The parameters a command type takes, checked (report_interval's minutes, ota's download); none for the others. */
function parametersOf(type: CommandType, given: Readonly<Record<string, unknown>>): { intervalMinutes?: number; ota?: ReturnType<typeof otaParametersOf> } {
  if (type === 'ota') return { ota: otaParametersOf(given) };
  if (type === 'report_interval') {
    const minutes = given.intervalMinutes;
    if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < REPORT_INTERVAL_MINUTES.min || minutes > REPORT_INTERVAL_MINUTES.max) {
      throw new CommandParametersRefused(`report_interval: intervalMinutes must be an integer from ${REPORT_INTERVAL_MINUTES.min} to ${REPORT_INTERVAL_MINUTES.max}`);
    }
    return { intervalMinutes: minutes };
  }
  if (Object.keys(given).length > 0) throw new CommandParametersRefused(`${type} takes no parameters`);
  return {};
}

/**
 * Queues a command for a device, in the caller's transaction: written `pending` with its text and
 * frame, told to the live console, and announced at the commit, when the instance holding the
 * device's session sends it (or the device takes it with its next report). The device must be
 * live (not in the recycle bin): 404 设备不存在 otherwise. Parameters that are not the type's throw
 * CommandParametersRefused (check the caller's input first).
 */
export async function queueCommand(tx: Queryable, command: CommandToQueue, clock: CommandClock): Promise<QueuedCommand> {
  const { now, config } = clock;
  const extra = parametersOf(command.type, command.parameters ?? {});
  const [device] = await tx.query<CommandDevice>('SELECT code, tenant_code, organization_code FROM device WHERE id = $1 AND deleted_at IS NULL', [command.deviceId]);
  if (!device) throw fail.notFound('设备不存在');
  const expiresAt = command.expiresAt ?? new Date(now.getTime() + config.commandTtlSeconds * 1000);
  if (expiresAt.getTime() <= now.getTime()) throw new CommandParametersRefused('a command must expire after it is queued');
  const [{ id }] = await tx.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('device_command', 'id'))::int AS id`);
  const encoded = encodeCommand({ type: command.type, deviceCode: device.code, sequence: id, at: now, timeZone: config.timeZone, ...extra });
  await tx.query(
    `INSERT INTO device_command (id, device_id, command_type, parameters, command_text, command_hex, state, created_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8, $9)`,
    [id, command.deviceId, command.type, JSON.stringify(encoded.parameters), encoded.text, encoded.hex, command.createdBy ?? 'system', now, expiresAt],
  );
  await tx.query('SELECT pg_notify($1, $2)', [COMMAND_CHANNEL, JSON.stringify({ id, deviceId: command.deviceId })]);
  await recordCommandChanges(tx, [{ id, state: 'pending', ...device }], now);
  return {
    id,
    code: device.code,
    commandType: command.type,
    parameters: encoded.parameters,
    commandText: encoded.text,
    commandHex: encoded.hex,
    state: 'pending',
    createTime: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
  };
}

/** A queued command's announcement: its id and its device's. */
export interface CommandAnnouncement {
  id: number;
  deviceId: number;
}

/** Calls `onQueued` for each command queued on any instance, after its commit; answers what stops listening. */
export function listenForCommands(db: Database, onQueued: (announcement: CommandAnnouncement) => void): Promise<() => Promise<void>> {
  return db.listen(COMMAND_CHANNEL, (payload) => {
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      return;
    }
    const { id, deviceId } = (value ?? {}) as Record<string, unknown>;
    if (Number.isSafeInteger(id) && Number.isSafeInteger(deviceId)) onQueued({ id: id as number, deviceId: deviceId as number });
  });
}

/** How long a claimed send holds before another try may take it (a PUBACK that never came). */
export const SEND_LEASE_MS = 30_000;

/** A claimed command on its way to its device, with the device's code. */
export type ClaimedCommand = CommandRow & { code: string };

/**
 * Claims the device's next waiting command for this sender (`claimedBy`), in id order: the oldest
 * pending one that has not expired, when no other sender holds it. A later command waits for the one
 * before it (a device takes its commands in order). Answers it, or null: nothing waits, or the next
 * is another sender's (of two instances that try at once, one claims).
 */
export async function claimNextCommand(db: Queryable, deviceId: number, claimedBy: string, now: Date): Promise<ClaimedCommand | null> {
  const [row] = await db.query<ClaimedCommand>(
    `UPDATE device_command c SET claimed_by = $2, claimed_until = $4
       FROM device d
      WHERE c.id = (SELECT min(id) FROM device_command WHERE device_id = $1 AND state = 'pending' AND expires_at > $3)
        AND c.state = 'pending' AND (c.claimed_until IS NULL OR c.claimed_until <= $3) AND d.id = c.device_id AND d.deleted_at IS NULL
      RETURNING ${COMMAND_COLUMNS}, d.code`,
    [deviceId, claimedBy, now, new Date(now.getTime() + SEND_LEASE_MS)],
  );
  return row ?? null;
}

/** Gives a claimed command back (its send failed): the next try takes it at once. */
export async function releaseCommand(db: Queryable, id: number, claimedBy: string): Promise<void> {
  await db.query(`UPDATE device_command SET claimed_by = NULL, claimed_until = NULL WHERE id = $1 AND state = 'pending' AND claimed_by = $2`, [id, claimedBy]);
}

/** The changed commands' devices, for the live console. */
const CHANGED = 'c.id, c.state, d.code, d.tenant_code, d.organization_code';

/**
 * The claimed command is out (its PUBACK arrived, or it went at QoS 0): `sent`, if it is still this
 * sender's and pending (a reply that came first settled it already). Answers whether it changed.
 */
export async function markCommandSent(db: Database, id: number, claimedBy: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const changed = await tx.query<CommandChange>(
      `UPDATE device_command c SET state = 'sent', sent_at = $3, claimed_by = NULL, claimed_until = NULL
         FROM device d WHERE c.id = $1 AND c.state = 'pending' AND c.claimed_by = $2 AND d.id = c.device_id
       RETURNING ${CHANGED}`,
      [id, claimedBy, now],
    );
    await recordCommandChanges(tx, changed, now);
    return changed.length > 0;
  });
}

/** The most commands one HTTP report's answer carries. */
export const COMMANDS_PER_REPORT = 20;

/**
 * The device's waiting commands, taken by its HTTP report: `sent` now (the answer carries them), in
 * id order, those another sender holds left to it. Answers them in the wire format.
 */
export async function takeWaitingCommands(db: Database, deviceId: number, now: Date): Promise<CommandMessage[]> {
  // Most reports find nothing waiting: one look at the waiting index, no transaction.
  const [waiting] = await db.query<{ id: number }>(`SELECT id FROM device_command WHERE device_id = $1 AND state = 'pending' AND expires_at > $2 LIMIT 1`, [deviceId, now]);
  if (!waiting) return [];
  return db.transaction(async (tx) => {
    const taken = await tx.query<CommandRow & CommandChange>(
      `UPDATE device_command c SET state = 'sent', sent_at = $2, claimed_by = NULL, claimed_until = NULL
         FROM device d
        WHERE c.id IN (SELECT id FROM device_command WHERE device_id = $1 AND state = 'pending' AND expires_at > $2 AND (claimed_until IS NULL OR claimed_until <= $2)
                        ORDER BY id LIMIT ${COMMANDS_PER_REPORT})
          AND c.state = 'pending' AND (c.claimed_until IS NULL OR c.claimed_until <= $2) AND d.id = c.device_id
       RETURNING ${COMMAND_COLUMNS}, ${CHANGED}`,
      [deviceId, now],
    );
    taken.sort((a, b) => a.id - b.id);
    await recordCommandChanges(tx, taken, now);
    return taken.map(commandMessage);
  });
}

/** Commands expired in one statement at most (the sweep goes on until none is due). */
const EXPIRED_PER_ROUND = 500;

/**
 * Expires the commands not answered before their expiry (all of them, or those of `ids`): pending
 * or sent ones only, each in one conditional statement, told to the live console. Answers how many.
 */
export async function expireCommands(db: Database, now: Date, ids?: readonly number[]): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await db.transaction(async (tx) => {
      const changed = await tx.query<CommandChange>(
        `UPDATE device_command c SET state = 'expired', claimed_by = NULL, claimed_until = NULL
           FROM device d
          WHERE c.id IN (SELECT id FROM device_command WHERE state IN ('pending', 'sent') AND expires_at <= $1 ${ids ? 'AND id = ANY($2::int[])' : ''}
                          ORDER BY expires_at LIMIT ${EXPIRED_PER_ROUND})
            AND c.state IN ('pending', 'sent') AND c.expires_at <= $1 AND d.id = c.device_id
         RETURNING ${CHANGED}`,
        ids ? [now, ids] : [now],
      );
      await recordCommandChanges(tx, changed, now);
      return changed.length;
    });
    total += expired;
    if (expired < EXPIRED_PER_ROUND) return total;
  }
}

/** How often the server process expires the commands past their expiry (a command's detail does it for itself at once). */
export const COMMAND_EXPIRY_SECONDS = 15;

/** Expires the commands past their expiry every COMMAND_EXPIRY_SECONDS, on every instance (each statement is conditional). */
export function startCommandExpiry(db: Database, now: () => Date, info: (line: string) => void, warn: (line: string) => void): PeriodicTask {
  return startPeriodicTask({ name: 'command expiry', seconds: COMMAND_EXPIRY_SECONDS, atStart: true, warn }, async () => {
    const expired = await expireCommands(db, now());
    if (expired > 0) info(`commands: ${expired} expired without a reply`);
  });
}
