import { businessSecond, wallClockOf } from './businessTime';

/**
 * Device commands ("下发指令"): what each command type means, which devices take it, and how it is
 * written for the device — a readable text and a binary frame in the style of the meter protocols
 * (CJ/T 188): 68H, the 12-byte device address, 68H, function code, sequence, payload length,
 * payload, checksum (sum of every byte before it, modulo 256), 16H.
 */

/** The device_command_type dictionary. */
export const COMMAND_TYPES = ['reboot', 'time_sync', 'report_interval', 'valve_open', 'valve_close', 'silence', 'ota'] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

/** What 下发指令 offers: every type but `ota`, which an upgrade task sends with its package's download (issue 31). */
export const CONSOLE_COMMAND_TYPES = COMMAND_TYPES.filter((type): type is Exclude<CommandType, 'ota'> => type !== 'ota');
export type ConsoleCommandType = (typeof CONSOLE_COMMAND_TYPES)[number];

/**
 * The device_command_state dictionary (issue 31): `pending` (not yet out: the device is not
 * connected, or asleep) → `sent` (published; with QoS 1 once the device's PUBACK arrived) →
 * `acknowledged` or `failed` (the device's reply) or `expired` (no reply before its expiry).
 */
export const COMMAND_STATES = ['pending', 'sent', 'acknowledged', 'failed', 'expired'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];

const FUNCTION_CODES: Readonly<Record<CommandType, number>> = { reboot: 0x01, time_sync: 0x02, report_interval: 0x03, valve_open: 0x04, valve_close: 0x05, silence: 0x06, ota: 0x07 };

/**
 * What an `ota` command tells the device: the package's version, a signed download, its size in
 * bytes and its SHA-256 (hex); and the upgrade task it belongs to, which the device names in its
 * progress reports.
 */
export interface OtaParameters {
  version: string;
  url: string;
  size: number;
  sha256: string;
  taskCode?: string;
}

/** Why a command's parameters are not the ones its type takes (a programming error of the caller: the operations check their input first). */
export class CommandParametersRefused extends Error {}

const OTA_VERSION = /^[\x21-\x7e]{1,32}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The parameters of an `ota` command, checked: a version of 1-32 printable characters, an http(s) url, a positive size below 4 GiB (the frame’s 4 bytes), a lower-case hex SHA-256, an optional task code. */
export function otaParametersOf(value: Readonly<Record<string, unknown>>): OtaParameters {
  const { version, url, size, sha256, taskCode } = value;
  if (typeof version !== 'string' || !OTA_VERSION.test(version)) throw new CommandParametersRefused('ota: version must be 1-32 printable characters');
  if (typeof url !== 'string' || url.length > 2048 || !/^https?:\/\/\S+$/.test(url)) throw new CommandParametersRefused('ota: url must be an http(s) address');
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size <= 0 || size > 0xffff_ffff) throw new CommandParametersRefused('ota: size must be a positive integer below 4 GiB');
  if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256)) throw new CommandParametersRefused('ota: sha256 must be 64 lower-case hex digits');
  if (taskCode !== undefined && (typeof taskCode !== 'string' || !/^[A-Za-z0-9_-]{1,32}$/.test(taskCode))) throw new CommandParametersRefused('ota: taskCode must be 1-32 letters, digits, - or _');
  return { version, url, size, sha256, ...(taskCode === undefined ? {} : { taskCode }) };
}

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
  /** For ota. */
  ota?: OtaParameters;
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
    case 'ota': {
      if (!request.ota) throw new CommandParametersRefused('ota: parameters missing');
      const ota = otaParametersOf({ ...request.ota });
      // The frame carries the version and the size (4 bytes); the download and its digest are the JSON's.
      const size = [(ota.size >>> 24) & 0xff, (ota.size >>> 16) & 0xff, (ota.size >>> 8) & 0xff, ota.size & 0xff];
      return { parameters: { ...ota }, text: `OTA=${ota.version}`, bytes: [...Buffer.from(ota.version, 'ascii'), ...size] };
    }
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
