import type { ServerConfig } from '../config';
import type { Database, Queryable } from '../db/database';
import { encodeCommand, otaParametersOf, CommandParametersRefused, REPORT_INTERVAL_MINUTES, type CommandState, type CommandType } from '../domain/deviceCommands';
import { fail } from '../http/envelope';
import { recordLiveEvents } from '../live/liveEvents';

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
