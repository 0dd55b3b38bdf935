import { otaCommandHandler } from './ota';
import type { SimulatedDevice } from './readings';

/**
 * How a simulated device answers the platform's commands (issue 31): it subscribes to
 * `devices/<code>/commands`, takes each command once (a QoS 1 message may come twice), and answers
 * on `devices/<code>/commands/reply` with `{"id", "result": "ok" | "failed", "message"?, "data"?}`.
 * What each type does is one entry of COMMAND_HANDLERS (the firmware upgrade adds `ota`):
 *
 * - reboot: answers, then drops off and signs in again a few seconds later;
 * - time_sync: sets its clock (answers the time it was given);
 * - report_interval: reports every `intervalMinutes` from then on;
 * - valve_open / valve_close: a water meter's valve, told in its next `metrics` (valveOpen 1 or 0);
 * - silence: a smoke detector's siren stops (the alarm itself goes on while there is smoke).
 *   Valves and sirens are the water meters' and smoke detectors' only: the others answer failed.
 *
 * A command past its `expiresAt`, or of a type the device does not know, is answered `failed`.
 */

/** A command as the platform sends it (the wire format). */
export interface IncomingCommand {
  id: number;
  type: string;
  parameters: Record<string, unknown>;
  text: string;
  hex: string;
  expiresAt: string;
}

/** The device's answer. */
export interface CommandAnswer {
  result: 'ok' | 'failed';
  message?: string;
  data?: Record<string, unknown>;
}

/** What a handler may do besides answering. */
export interface CommandContext {
  device: SimulatedDevice;
  /** Publishes a report on the device's telemetry topic (resolves once the platform took it). */
  publish(report: Record<string, unknown>): Promise<void>;
  /** Drops the connection, and signs in again after `afterMs`. */
  reconnect(afterMs: number): Promise<void>;
  random: () => number;
}

/** A handler answers; `after` runs once the answer is out (a reboot drops off only then, an upgrade downloads). */
export type CommandOutcome = CommandAnswer & { after?: () => Promise<void> | void };
export type CommandHandler = (command: IncomingCommand, context: CommandContext) => CommandOutcome | Promise<CommandOutcome>;

/** How long a rebooting device is away. */
export const REBOOT_MS = 3_000;

export const COMMAND_HANDLERS: Record<string, CommandHandler> = {
  reboot: (_command, context) => ({ result: 'ok', message: '设备即将重启', after: () => context.reconnect(REBOOT_MS) }),
  time_sync: (command) => {
    const time = command.parameters.time;
    if (typeof time !== 'string') return { result: 'failed', message: '缺少校时时间' };
    return { result: 'ok', message: '已校时', data: { time } };
  },
  report_interval: (command, context) => {
    const minutes = command.parameters.intervalMinutes;
    if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes <= 0) return { result: 'failed', message: '上报周期不合法' };
    context.device.reportEveryMs(minutes * 60_000);
    return { result: 'ok', message: `上报周期已设为 ${minutes} 分钟`, data: { intervalMinutes: minutes } };
  },
  valve_open: (_command, context) => (context.device.setValve(true) ? { result: 'ok', message: '阀门已打开', data: { valveOpen: 1 } } : { result: 'failed', message: '该设备没有阀门' }),
  valve_close: (_command, context) => (context.device.setValve(false) ? { result: 'ok', message: '阀门已关闭', data: { valveOpen: 0 } } : { result: 'failed', message: '该设备没有阀门' }),
  silence: (_command, context) => (context.device.hasSiren() ? { result: 'ok', message: '已消音' } : { result: 'failed', message: '该设备没有蜂鸣器' }),
  // Firmware over the air (ota.ts): answered at once, the upgrade reported as it goes.
  ota: otaCommandHandler,
};

/** The command in a message on the command topic, or null when it is not one. */
export function commandOf(payload: Buffer | string): IncomingCommand | null {
  let value: unknown;
  try {
    value = JSON.parse(payload.toString());
  } catch {
    return null;
  }
  const command = value as Partial<IncomingCommand> | null;
  if (!command || typeof command !== 'object' || !Number.isSafeInteger(command.id) || typeof command.type !== 'string') return null;
  if (!command.parameters || typeof command.parameters !== 'object') return null;
  return command as IncomingCommand;
}

/** The ids a device remembers having answered (a repeated message is not answered twice). */
const REMEMBERED = 64;

/**
 * A device's command handling: `take` answers a message of its command topic through `reply`
 * (resolving once the answer is out), then runs what the handler left for after. Answers the
 * command's type and the result it was answered with, or null for a repeat or a message that is no
 * command.
 */
export class CommandTaker {
  private readonly answered: number[] = [];

  constructor(
    private readonly context: CommandContext,
    private readonly reply: (answer: CommandAnswer & { id: number }) => Promise<void>,
    private readonly handlers: Readonly<Record<string, CommandHandler>> = COMMAND_HANDLERS,
    private readonly now: () => number = Date.now,
  ) {}

  async take(payload: Buffer | string): Promise<{ type: string; result: CommandAnswer['result'] } | null> {
    const command = commandOf(payload);
    if (!command || this.answered.includes(command.id)) return null;
    this.answered.push(command.id);
    if (this.answered.length > REMEMBERED) this.answered.shift();
    const handler = this.handlers[command.type];
    let outcome: CommandOutcome;
    if (Date.parse(command.expiresAt) <= this.now()) outcome = { result: 'failed', message: '指令已过期' };
    else if (!handler) outcome = { result: 'failed', message: `不支持的指令：${command.type}` };
    else {
      try {
        outcome = await handler(command, this.context);
      } catch (error) {
        outcome = { result: 'failed', message: error instanceof Error ? error.message.slice(0, 200) : '执行失败' };
      }
    }
    const { after, ...answer } = outcome;
    await this.reply({ id: command.id, ...answer });
    await after?.();
    return { type: command.type, result: answer.result };
  }
}
