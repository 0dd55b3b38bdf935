import type { UpgradeState } from '../domain/upgrades';

/**
 * How the demo world's firmware upgrades played out before the seed's clock (issue 5), as a pure
 * function of time, so that the seed lays down believable history: the tasks of the last months
 * finished, a few under way. Only the seed uses it: on the running platform a target moves by what
 * its device reports (server/ingest/firmwareReports.ts), never by a clock.
 *
 * An attempt is queued at `queuedAt`. An offline or inactive device never picks it up and fails
 * when the wait times out. An online device picks it up at its next check-in (battery devices
 * sleep between heartbeats, so that may take hours), refuses it with a low battery, otherwise
 * downloads at its link's speed and installs. A deterministic share of attempts fails part way,
 * with the errors real devices report; a retry is a new attempt with its own odds.
 */

export interface UpgradeAttempt {
  taskId: number;
  deviceCode: string;
  /** 1 for the first attempt, one more for each retry. */
  attempts: number;
  queuedAt: Date;
  onlineState: string;
  batteryLevel: number | null;
  /** The product's protocol (gateway_protocol dictionary) and power supply. */
  protocol: string;
  batteryPowered: boolean;
  /** How often the device checks in, in minutes. */
  heartbeatMinutes: number;
  /** The package size in bytes. */
  fileSize: number;
}

export interface AttemptOutcome {
  state: Exclude<UpgradeState, 'cancelled'>;
  progress: number;
  startedAt: Date | null;
  finishedAt: Date | null;
  errorMessage: string;
}

/** How long a queued attempt waits for an offline device before it fails. */
export const OFFLINE_TIMEOUT_MS = 24 * 3_600_000;
/** Below this battery level a device refuses to flash (a brown-out would brick it). */
export const LOW_BATTERY_PERCENT = 20;
/** The share of attempts that fail on the way, for reasons of their own. */
export const FAILURE_SHARE = 0.06;
export const OFFLINE_ERROR = '设备离线，升级超时';
const FAILURES = ['固件下载超时', '固件校验失败（校验值不匹配）', 'Flash 写入失败', '升级后上报版本与目标版本不一致', '设备重启后未重新上线'];

/** Bytes per second a device of this kind downloads at (NB-IoT over CoAP is slow, 4G fast). */
function linkSpeed(protocol: string, batteryPowered: boolean): number {
  if (protocol === 'coap') return 512;
  if (protocol === 'modbus') return 1_024;
  if (protocol === 'http') return 32 * 1_024;
  return batteryPowered ? 2_048 : 64 * 1_024;
}

/** FNV-1a of the text: the attempt's fixed random numbers, in [0, 1). */
function uniform(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  // One extra avalanche round: neighbouring keys must not give neighbouring numbers.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  return (hash >>> 0) / 4_294_967_296;
}

/** The parts of an attempt that do not depend on the time it is looked at. */
export function attemptPlan(attempt: UpgradeAttempt): { start: number; duration: number; failAt: number | null; error: string } {
  const key = `${attempt.taskId}:${attempt.deviceCode}:${attempt.attempts}`;
  const roll = (salt: string) => uniform(`${key}:${salt}`);
  const wake = attempt.batteryPowered ? roll('wake') * attempt.heartbeatMinutes * 60_000 : roll('wake') * 120_000;
  const download = (attempt.fileSize / linkSpeed(attempt.protocol, attempt.batteryPowered)) * (0.7 + roll('speed') * 0.8) * 1000;
  const install = (30 + roll('install') * 90) * 1000;
  const fails = roll('fail') < FAILURE_SHARE;
  return {
    start: attempt.queuedAt.getTime() + wake,
    duration: download + install,
    failAt: fails ? 0.1 + roll('failAt') * 0.85 : null,
    error: FAILURES[Math.floor(roll('error') * FAILURES.length)],
  };
}

/** Where an attempt stands at `now`. */
export function attemptAt(attempt: UpgradeAttempt, now: Date): AttemptOutcome {
  const time = now.getTime();
  const queued = attempt.queuedAt.getTime();
  if (attempt.onlineState !== 'online') {
    if (time < queued + OFFLINE_TIMEOUT_MS) return { state: 'pending', progress: 0, startedAt: null, finishedAt: null, errorMessage: '' };
    return { state: 'failed', progress: 0, startedAt: null, finishedAt: new Date(queued + OFFLINE_TIMEOUT_MS), errorMessage: OFFLINE_ERROR };
  }
  const plan = attemptPlan(attempt);
  if (time < plan.start) return { state: 'pending', progress: 0, startedAt: null, finishedAt: null, errorMessage: '' };
  const startedAt = new Date(plan.start);
  if (attempt.batteryPowered && attempt.batteryLevel !== null && attempt.batteryLevel < LOW_BATTERY_PERCENT) {
    return { state: 'failed', progress: 0, startedAt, finishedAt: startedAt, errorMessage: `设备电量过低（${attempt.batteryLevel}%），拒绝升级` };
  }
  const share = (time - plan.start) / plan.duration;
  if (plan.failAt !== null && share >= plan.failAt) {
    return { state: 'failed', progress: Math.floor(plan.failAt * 100), startedAt, finishedAt: new Date(plan.start + plan.failAt * plan.duration), errorMessage: plan.error };
  }
  if (share >= 1) return { state: 'succeeded', progress: 100, startedAt, finishedAt: new Date(plan.start + plan.duration), errorMessage: '' };
  return { state: 'upgrading', progress: Math.min(99, Math.floor(share * 100)), startedAt, finishedAt: null, errorMessage: '' };
}
