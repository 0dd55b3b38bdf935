/**
 * Firmware over the air (issue 31): the states of an upgrade task and of each of its targets, and
 * the rules that move a target by what its device reports. A task sends each target an `ota`
 * command (server/ingest/firmwareDelivery.ts); the device reports its progress in its telemetry
 * (`"ota": {"taskCode", "progress", "state", "message"?}` and its `firmwareVersion`), and a target
 * that has not finished by its deadline (the task's time limit after it was offered the package)
 * fails with a reason. Nothing moves by a clock of its own.
 */

export type UpgradeState = 'pending' | 'upgrading' | 'succeeded' | 'failed' | 'cancelled';

/** States a target may still leave (the others are final). */
export const ACTIVE_UPGRADE_STATES: readonly UpgradeState[] = ['pending', 'upgrading'];

/** The most attempts a device gets within one task. */
export const MAX_ATTEMPTS = 5;

/** How long a task's targets have to finish, unless the task says (OTA_TIME_LIMIT_MINUTES), and its bounds. */
export const DEFAULT_TIME_LIMIT_MINUTES = 24 * 60;
export const TIME_LIMIT_MINUTES = { min: 5, max: 7 * 24 * 60 } as const;

/** What a device says of an upgrade in its report's `ota`. */
export const OTA_REPORT_STATES = ['downloading', 'installing', 'succeeded', 'failed'] as const;
export type OtaReportState = (typeof OTA_REPORT_STATES)[number];

/** The phase a target's device last reported while it was still upgrading ('' before its first report). */
export type UpgradePhase = '' | 'downloading' | 'installing';

export interface OtaProgressReport {
  state: OtaReportState;
  /** 0-100: how far the whole upgrade is, as the device counts it. */
  progress: number;
  message?: string;
}

export interface TargetStanding {
  state: UpgradeState;
  phase: UpgradePhase;
  progress: number;
}

/** Where a report takes a target. */
export interface TargetStep {
  state: Exclude<UpgradeState, 'pending' | 'cancelled'>;
  phase: UpgradePhase;
  progress: number;
  errorMessage: string;
}

const RANK: Record<UpgradePhase | 'succeeded' | 'failed', number> = { '': 0, downloading: 1, installing: 2, succeeded: 3, failed: 3 };
/** A target shows 100 % only once its device says it succeeded. */
const MOST_BEFORE_DONE = 99;

export const DEVICE_FAILED_MESSAGE = '设备上报升级失败';

/**
 * What a report does to a target, or null when it changes nothing: a finished target stays as it
 * is; a report never takes a target back (an earlier phase, or the same phase at no more progress);
 * progress never goes down. "succeeded" counts only when the version the device runs now (`runs`:
 * the report's firmwareVersion, else what the platform last knew) is the task's; otherwise the
 * target fails saying so. "failed" fails it with the device's message.
 */
export function otaStep(target: TargetStanding, report: OtaProgressReport, versions: { runs: string; target: string }): TargetStep | null {
  if (!ACTIVE_UPGRADE_STATES.includes(target.state)) return null;
  if (report.state === 'failed') {
    return { state: 'failed', phase: target.phase, progress: target.progress, errorMessage: report.message?.trim() || DEVICE_FAILED_MESSAGE };
  }
  if (report.state === 'succeeded') {
    if (versions.runs !== versions.target) {
      return { state: 'failed', phase: target.phase, progress: target.progress, errorMessage: `升级后设备上报版本 ${versions.runs || '未知'} 与目标版本 ${versions.target} 不一致` };
    }
    return { state: 'succeeded', phase: target.phase, progress: 100, errorMessage: '' };
  }
  const rank = RANK[report.state];
  const was = RANK[target.phase];
  if (rank < was || (rank === was && report.progress <= target.progress)) return null;
  return { state: 'upgrading', phase: report.state, progress: Math.max(target.progress, Math.min(report.progress, MOST_BEFORE_DONE)), errorMessage: '' };
}

/** "24 小时", "90 分钟". */
export function timeLimitText(minutes: number): string {
  return minutes % 60 === 0 ? `${minutes / 60} 小时` : `${minutes} 分钟`;
}

/** What the console calls each phase ('' before the device said anything). */
export const PHASE_TEXT: Record<UpgradePhase, string> = { '': '', downloading: '下载中', installing: '安装中' };

/**
 * Why a target failed at its deadline: it never received the package's command (the device did not
 * come online), it received it and never reported, or it stopped part way.
 */
export function timeoutReason(target: { phase: UpgradePhase; progress: number; commandSent: boolean }, limitMinutes: number): string {
  const limit = timeLimitText(limitMinutes);
  if (target.phase !== '') return `升级超时：${limit}内未完成，停在${PHASE_TEXT[target.phase]}（${target.progress}%）`;
  if (!target.commandSent) return `升级超时：设备${limit}内未上线，未收到升级指令`;
  return `升级超时：设备收到升级指令后${limit}内未上报进度`;
}

/** What a task's devices amount to. */
export interface TaskDevicesSummary {
  /** Some device is still queued or upgrading. */
  active: boolean;
  /** Some device has started or finished (the task is under way). */
  started: boolean;
  cancelled: boolean;
  failed: boolean;
}

/**
 * A task's state from its devices: pending until the first device starts, upgrading while any
 * device is still queued or upgrading, then cancelled (when it was cancelled), failed (when any
 * device failed) or succeeded.
 */
export function taskStateOf(devices: TaskDevicesSummary): UpgradeState {
  if (devices.active) return devices.started ? 'upgrading' : 'pending';
  if (devices.cancelled) return 'cancelled';
  if (devices.failed) return 'failed';
  return 'succeeded';
}

/** Orders versions "1.10.0" after "1.9.2" (a pre-release before its release). */
export function compareVersions(a: string, b: string): number {
  const parse = (version: string) => {
    const [core, pre] = version.split('-', 2);
    return { numbers: core.split('.').map(Number), pre: pre ?? null };
  };
  const left = parse(a);
  const right = parse(b);
  for (let i = 0; i < Math.max(left.numbers.length, right.numbers.length); i += 1) {
    const difference = (left.numbers[i] ?? 0) - (right.numbers[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  if (left.pre === right.pre) return 0;
  if (left.pre === null) return 1;
  if (right.pre === null) return -1;
  return left.pre < right.pre ? -1 : 1;
}
