import { businessSecond, wallClockOf } from './businessTime';

/**
 * Device commands ("下发指令"): what each command type means, which devices take it, and how it is
 * written for the device — a readable text and a binary frame in the style of the meter protocols
 * (CJ/T 188): 68H, the 12-byte device address, 68H, function code, sequence, payload length,
 * payload, checksum (sum of every byte before it, modulo 256), 16H.
 */

/** The device_command_type dictionary. */
export const COMMAND_TYPES = ['reboot', 'time_sync', 'report_interval', 'valve_open', 'valve_close', 'silence'] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

/** The device_command_state dictionary. */
export const COMMAND_STATES = ['pending', 'sent', 'acknowledged', 'failed'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];

const FUNCTION_CODES: Readonly<Record<CommandType, number>> = { reboot: 0x01, time_sync: 0x02, report_interval: 0x03, valve_open: 0x04, valve_close: 0x05, silence: 0x06 };

/** The report interval a device accepts, in minutes (5 minutes to a day). */
export const REPORT_INTERVAL_MINUTES = { min: 5, max: 1440 } as const;

/** Only water meters have a valve; only smoke detectors a siren to silence (by product category). */
const CATEGORY_ONLY: Partial<Record<CommandType, string>> = { valve_open: 'C0101', valve_close: 'C0101', silence: 'C0301' };

/** Whether a device of a product in `categoryCode` (or one of its sub-categories) takes the command. */
export function commandSupported(type: CommandType, categoryCode: string): boolean {
  const only = CATEGORY_ONLY[type];
  return !only || categoryCode === only || categoryCode.startsWith(only);
}

export interface CommandRequest {
  type: CommandType;
  deviceCode: string;
  /** The command's number for the device (its id), sent modulo 65536. */
  sequence: number;
  /** For report_interval. */
  intervalMinutes?: number;
  /** When it was generated: time_sync sets the device to this time, on the wall clock of `timeZone`. */
  at: Date;
  /** The business zone (China Standard Time by default): the devices' clocks read it. */
  timeZone: string;
}

export interface EncodedCommand {
  parameters: Record<string, string | number>;
  text: string;
  hex: string;
}

const bcd = (value: number) => ((Math.floor(value / 10) % 10) << 4) | value % 10;


function payloadOf(request: CommandRequest): { parameters: Record<string, string | number>; text: string; bytes: number[] } {
  switch (request.type) {
    case 'time_sync': {
      // "2026-11-22 10:00:00" on the business zone's wall clock, and the same in BCD bytes.
      const local = wallClockOf(request.at, request.timeZone);
      const bytes = [Math.floor(local.year / 100), local.year % 100, local.month, local.day, local.hour, local.minute, local.second].map(bcd);
      const time = businessSecond(request.at, request.timeZone);
      return { parameters: { time }, text: `TIME_SYNC=${time}`, bytes };
    }
    case 'report_interval': {
      const minutes = request.intervalMinutes ?? 60;
      return { parameters: { intervalMinutes: minutes }, text: `SET_REPORT_INTERVAL=${minutes}`, bytes: [(minutes >> 8) & 0xff, minutes & 0xff] };
    }
    case 'valve_open':
      return { parameters: {}, text: 'VALVE=OPEN', bytes: [] };
    case 'valve_close':
      return { parameters: {}, text: 'VALVE=CLOSE', bytes: [] };
    case 'silence':
      return { parameters: {}, text: 'ALARM_SILENCE', bytes: [] };
    case 'reboot':
      return { parameters: {}, text: 'REBOOT', bytes: [] };
  }
}

/** The command's parameters, its text and its frame in upper-case hex. */
export function encodeCommand(request: CommandRequest): EncodedCommand {
  const { parameters, text, bytes } = payloadOf(request);
  const sequence = request.sequence % 65_536;
  const frame = [0x68, ...Buffer.from(request.deviceCode.toUpperCase(), 'ascii'), 0x68, FUNCTION_CODES[request.type], (sequence >> 8) & 0xff, sequence & 0xff, bytes.length, ...bytes];
  frame.push(frame.reduce((sum, byte) => sum + byte, 0) % 256, 0x16);
  return {
    parameters,
    text: `${text};SEQ=${sequence}`,
    hex: Buffer.from(frame).toString('hex').toUpperCase(),
  };
}
