import { createHash } from 'node:crypto';
import type { JsonObject, Row } from '../db/bulk';
import { businessDayStamp } from '../domain/businessTime';
import { DEFAULT_TIME_LIMIT_MINUTES, MAX_ATTEMPTS, taskStateOf, type UpgradeState } from '../domain/upgrades';
import { SEED_PRODUCTS, type DeviceTables } from './devices';
import type { Random } from './prng';
import { MINUTE_MS, HOUR_MS, DAY_MS, iso, pad } from './clock';
import { readFixture } from './fixtures/fixture';

/**
 * The demo world's firmware packages and upgrade tasks, and how the upgrades played out before the
 * seed's clock (issue 5), as a pure function of time, so that the seed lays down believable
 * history: the tasks of the last months finished, a few under way. Only the seed uses it: on the running platform a target moves by what
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

const hex = (random: Random, bytes: number) => random.bytes(bytes).toString('hex');
/** YYYYMMDD of the business day (of `timeZone`), the date part of the platform's business codes. */
export const dateStamp = (time: number, timeZone: string) => businessDayStamp(new Date(time), timeZone);

/** Where the platform's firmware builds are published for download. */
const FIRMWARE_SITE = 'https://ota.yunlian-iot.com/firmware';


/** The next minor version after the newest one in the field. */
const nextVersion = (version: string) => {
  const [major, minor] = version.split('.').map(Number);
  return `${major}.${minor + 1}.0`;
};

interface SeedPackage {
  id: number;
  productCode: string;
  tenantCode: string | null;
  version: string;
  type: 'full' | 'diff';
  baseVersion: string | null;
  fileSize: number;
}

/** The device columns the firmware side reads. */
export interface DeviceRow {
  code: string;
  product_code: string;
  organization_code: string;
  tenant_code: string;
  online_state: string;
  battery_level: number | null;
  firmware_version: string;
  deleted_at: string | null;
}

/** A task of the demo world and how it played out. */
interface SeedTask {
  tenantCode: string;
  organizationCode: string;
  name: string;
  productCode: string;
  version: string;
  type: 'full' | 'diff';
  /** Days (fractional) before the seed clock that the devices were queued; negative: scheduled ahead. */
  queuedDaysAgo: number;
  devices: number;
  /** Retry failed devices until all succeed (a task that ended well). */
  retryUntilDone?: boolean;
  /** Cancelled this long after queuing. */
  cancelAfterHours?: number;
  /** Only devices that are online (a task pushed to a healthy site). */
  onlineOnly?: boolean;
  createdBy: string;
  description: string;
}

/** firmware.json: the upgrade history's tables. */
const { FAILURES, FULL_SIZE, TASKS } = readFixture<{
  /** Why an attempt fails on the way, as devices report it. */
  FAILURES: readonly string[];
  /** The package sizes of each product's firmware (full image; a differential one is a fifth). */
  FULL_SIZE: Record<string, number>;
  TASKS: readonly SeedTask[];
}>('firmware');

/** The packages: every product's versions in the field, the next one (full and differential), and two tenants' own builds. */
function packageTables(random: Random, now: number, timeZone: string): { rows: Row[]; packages: SeedPackage[] } {
  const rows: Row[] = [];
  const packages: SeedPackage[] = [];
  const add = (productCode: string, tenantCode: string | null, version: string, type: 'full' | 'diff', baseVersion: string | null, ageDays: number, description: string) => {
    const product = SEED_PRODUCTS.find((p) => p.code === productCode)!;
    const id = rows.length + 1;
    const fileSize = Math.round((type === 'full' ? FULL_SIZE[productCode] : FULL_SIZE[productCode] / 5) * (0.9 + random.next() * 0.2));
    // Drawn as before (an MD5 or a SHA-256's worth of bytes), so the rest of the world is the same
    // rows; every package carries a SHA-256, what devices verify a download with (issue 31).
    const drawnAlgorithm = random.next() < 0.6 ? 'MD5' : 'SHA256';
    const createdAt = now - ageDays * DAY_MS - random.int(0, 20 * 60) * MINUTE_MS;
    const fileName = `${product.model}_v${type === 'diff' ? `${baseVersion}-to-` : ''}${version}.bin`;
    rows.push({
      id,
      code: `FW${dateStamp(createdAt, timeZone)}${pad(id, 3)}`,
      name: `${product.name} ${type === 'full' ? '整包' : '差分包'} v${version}`,
      product_code: productCode,
      tenant_code: tenantCode,
      version,
      package_type: type,
      base_version: baseVersion,
      file_url: `${FIRMWARE_SITE}/${tenantCode ?? 'platform'}/${product.model}/${fileName}`,
      file_name: fileName,
      file_size: fileSize,
      checksum_algorithm: 'SHA256',
      checksum: createHash('sha256').update(`${fileName}:${hex(random, drawnAlgorithm === 'MD5' ? 16 : 32)}`).digest('hex'),
      description,
      created_by: tenantCode === 'T0001' ? 'tadmin' : tenantCode === 'T0002' ? 'badmin' : 'admin',
      created_at: iso(createdAt),
      updated_at: iso(createdAt),
    });
    packages.push({ id, productCode, tenantCode, version, type, baseVersion, fileSize });
  };
  for (const product of SEED_PRODUCTS) {
    const versions = product.firmware;
    versions.forEach((version, index) => {
      const age = 70 + (versions.length - index) * 50;
      add(product.code, null, version, 'full', null, age, index === 0 ? '出厂版本。' : '稳定版本，修复已知问题。');
      if (index > 0) add(product.code, null, version, 'diff', versions[index - 1], age - 1, `由 ${versions[index - 1]} 差分升级。`);
    });
    const latest = versions[versions.length - 1];
    const next = nextVersion(latest);
    add(product.code, null, next, 'full', null, 6, '新版本：功耗优化，支持远程参数配置。');
    add(product.code, null, next, 'diff', latest, 6, `由 ${latest} 差分升级到 ${next}。`);
  }
  add('PRD-TH-LR', 'T0001', '1.2.4-hz.1', 'full', null, 15, '杭州项目定制：冷库场景 -40℃ 量程。');
  add('PRD-WQ-MB', 'T0002', '4.3.2-sz.1', 'full', null, 10, '苏州项目定制：增加叶绿素通道。');
  return { rows, packages };
}

/** The attempts of one device in a task, played out to `until` (retried after failures when asked). */
function playOut(base: Omit<UpgradeAttempt, 'attempts' | 'queuedAt'>, queuedAt: number, until: number, retry: boolean): { outcome: AttemptOutcome; attempts: number; queuedAt: number } | null {
  let attempts = 1;
  let queued = queuedAt;
  for (;;) {
    const outcome = attemptAt({ ...base, attempts, queuedAt: new Date(queued) }, new Date(until));
    if (!retry || outcome.state !== 'failed') return { outcome, attempts, queuedAt: queued };
    if (attempts === MAX_ATTEMPTS) return null;
    // The operator retried the failures an hour after they came in.
    queued = outcome.finishedAt!.getTime() + HOUR_MS;
    attempts += 1;
  }
}

function taskTables(random: Random, now: number, fleet: DeviceTables, packages: readonly SeedPackage[], timeZone: string): { tasks: Row[]; taskDevices: Row[] } {
  const tasks: Row[] = [];
  const taskDevices: Row[] = [];
  const devices = fleet.devices as unknown as DeviceRow[];
  const products = new Map(fleet.products.map((p) => [String(p.code), p]));
  TASKS.forEach((spec, index) => {
    const id = index + 1;
    const pkg = packages.find((p) => p.productCode === spec.productCode && p.version === spec.version && p.type === spec.type && p.tenantCode === null)!;
    const product = products.get(spec.productCode)!;
    const seedProduct = SEED_PRODUCTS.find((p) => p.code === spec.productCode)!;
    const settings = product.settings as JsonObject;
    const queuedAt = Math.floor((now - spec.queuedDaysAgo * DAY_MS) / MINUTE_MS) * MINUTE_MS;
    const cancelAt = spec.cancelAfterHours === undefined ? null : queuedAt + spec.cancelAfterHours * HOUR_MS;
    const until = Math.min(now, cancelAt ?? now);
    // Finished tasks moved their devices to the target version; the others start from what they run.
    const finishedWell = spec.retryUntilDone === true;
    const candidates = devices.filter(
      (d) =>
        d.product_code === spec.productCode &&
        d.tenant_code === spec.tenantCode &&
        d.deleted_at === null &&
        d.organization_code.startsWith(spec.organizationCode) &&
        d.online_state !== 'inactive' &&
        (!spec.onlineOnly || (d.online_state === 'online' && (d.battery_level === null || d.battery_level >= 20))) &&
        (finishedWell ? d.firmware_version === spec.version : spec.type === 'diff' ? d.firmware_version === pkg.baseVersion : d.firmware_version !== spec.version),
    );
    const chosen = candidates.slice(0, spec.devices);
    const rows: Row[] = [];
    for (const device of chosen) {
      const fromVersion = finishedWell ? (pkg.baseVersion ?? seedProduct.firmware[Math.max(0, seedProduct.firmware.indexOf(spec.version) - 1)]) : device.firmware_version;
      const played = playOut(
        {
          taskId: id,
          deviceCode: device.code,
          onlineState: device.online_state,
          batteryLevel: device.battery_level,
          protocol: String(product.protocol),
          batteryPowered: product.battery_powered === true,
          heartbeatMinutes: Number(settings.heartbeatMinutes ?? 240),
          fileSize: pkg.fileSize,
        },
        queuedAt,
        until,
        finishedWell,
      );
      if (!played) continue;
      const { outcome } = played;
      const cancelled = cancelAt !== null && (outcome.state === 'pending' || outcome.state === 'upgrading');
      rows.push({
        task_id: id,
        device_code: device.code,
        from_version: fromVersion,
        state: cancelled ? 'cancelled' : outcome.state,
        progress: outcome.progress,
        attempts: played.attempts,
        queued_at: iso(played.queuedAt),
        started_at: outcome.startedAt ? outcome.startedAt.toISOString() : null,
        finished_at: cancelled ? iso(cancelAt) : outcome.finishedAt ? outcome.finishedAt.toISOString() : null,
        error_message: outcome.errorMessage,
        // The history's in-flight devices were downloading when the seed's clock stopped; each attempt had a day.
        phase: !cancelled && outcome.state === 'upgrading' ? 'downloading' : '',
        deadline_at: iso(played.queuedAt + DEFAULT_TIME_LIMIT_MINUTES * MINUTE_MS),
        updated_at: iso(cancelled ? cancelAt : (outcome.finishedAt?.getTime() ?? outcome.startedAt?.getTime() ?? played.queuedAt)),
      });
    }
    const states = rows.map((row) => String(row.state));
    const active = states.some((state) => state === 'pending' || state === 'upgrading');
    const state = taskStateOf({
      active,
      started: rows.some((row) => row.started_at !== null || ['upgrading', 'succeeded', 'failed'].includes(String(row.state))),
      cancelled: states.includes('cancelled'),
      failed: states.includes('failed'),
    });
    const startTimes = rows.map((row) => row.started_at).filter((time): time is string => typeof time === 'string').sort();
    const finishTimes = rows.map((row) => row.finished_at).filter((time): time is string => typeof time === 'string').sort();
    const createdAt = Math.min(queuedAt, now) - random.int(5, 120) * MINUTE_MS;
    tasks.push({
      id,
      code: `OTA${dateStamp(createdAt, timeZone)}${pad(id, 4)}`,
      name: spec.name,
      package_id: pkg.id,
      package_name: `${seedProduct.name} ${spec.type === 'full' ? '整包' : '差分包'} v${spec.version}`,
      package_version: spec.version,
      product_code: spec.productCode,
      tenant_code: spec.tenantCode,
      organization_code: spec.organizationCode,
      state,
      description: spec.description,
      scheduled_at: queuedAt > createdAt + 10 * MINUTE_MS ? iso(queuedAt) : null,
      started_at: startTimes[0] ?? (state === 'pending' ? null : iso(queuedAt)),
      finished_at: active ? null : cancelAt !== null ? iso(cancelAt) : (finishTimes[finishTimes.length - 1] ?? null),
      cancelled_at: cancelAt !== null ? iso(cancelAt) : null,
      cancelled_by: cancelAt !== null ? spec.createdBy : null,
      created_by: spec.createdBy,
      created_at: iso(createdAt),
    });
    taskDevices.push(...rows);
  });
  return { tasks, taskDevices };
}

/** The packages, tasks and task devices of the demo world (drawn in that order from `random`). */
export function upgradeTables(random: Random, now: number, fleet: DeviceTables, timeZone: string): { packages: Row[]; tasks: Row[]; taskDevices: Row[] } {
  const { rows: packages, packages: seedPackages } = packageTables(random, now, timeZone);
  const { tasks, taskDevices } = taskTables(random, now, fleet, seedPackages, timeZone);
  return { packages, tasks, taskDevices };
}
