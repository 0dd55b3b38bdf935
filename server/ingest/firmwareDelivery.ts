import type { ServerConfig } from '../config';
import type { Database, Queryable } from '../db/database';
import { deviceDownloadUrl, fileSecretOf } from '../domain/fileAccess';
import { taskStateOf, timeoutReason, type UpgradePhase } from '../domain/upgrades';
import { startPeriodicTask, type PeriodicTask } from '../periodicTask';
import { queueCommand } from './commandDelivery';

/**
 * Firmware reaches devices (issue 31): each target of an upgrade task is offered its package as an
 * `ota` command (`{version, url, size, sha256, taskCode}`) once its time has come (at once, or at
 * the task's scheduled time), and fails when it has not finished by its deadline (the task's time
 * limit after it was offered: the command and the download expire then too). What moves a target
 * in between is its device's reports (firmwareReports.ts). Every change is conditional on the row
 * as it was read: of two instances, or of a report, a cancel and the check at once, one wins.
 */

/** What offering needs: the clock, the settings, the key device tickets are signed with. */
export interface OfferContext {
  now: Date;
  config: Pick<ServerConfig, 'timeZone' | 'commandTtlSeconds' | 'publicUrl'>;
  fileSecret: Buffer;
}

/** Targets offered or checked in one transaction. */
const BATCH = 200;

interface DueTarget {
  task_id: number;
  task_code: string;
  device_code: string;
  attempts: number;
  deadline_at: Date;
  device_id: number;
  deleted: boolean;
  created_by: string;
  package_version: string;
  file_path: string | null;
  file_url: string | null;
  file_size: number | null;
  checksum_algorithm: string | null;
  checksum: string | null;
}

/** Why a target is failed instead of offered, or null when it can be offered. */
function unofferable(target: DueTarget): string | null {
  if (target.deleted) return '设备已删除，未下发升级';
  if (target.checksum_algorithm !== 'SHA256' || !target.checksum) return '升级包没有 SHA-256 校验值，设备无法校验，未下发';
  if (!target.file_path && !target.file_url) return '升级包没有可下载的固件文件，未下发';
  return null;
}

/** The download a target's device is sent: the platform's image on a ticket for this attempt (until its deadline), or the package's external address. */
function downloadOf(target: DueTarget, context: OfferContext): string {
  if (!target.file_path) return target.file_url!;
  const expires = Math.ceil(target.deadline_at.getTime() / 1000);
  const path = deviceDownloadUrl(context.fileSecret, target.file_path, { taskId: target.task_id, deviceCode: target.device_code, attempt: target.attempts }, expires);
  return `${context.config.publicUrl}${path}`;
}

/**
 * Offers the package to the targets whose time has come (of `taskIds`, or of every task) and that
 * were not offered it in this attempt: queues each one's `ota` command, to expire at its deadline.
 * Rows another transaction holds are skipped (it is offering them). Answers how many were due (at
 * most a batch) and how many of them were offered (the others failed: they cannot be).
 */
export async function offerDueTargets(tx: Queryable, context: OfferContext, taskIds: readonly number[] | null = null): Promise<{ due: number; offered: number }> {
  const params: Array<Date | readonly number[]> = [context.now];
  if (taskIds) params.push(taskIds);
  const due = await tx.query<DueTarget>(
    `SELECT td.task_id, t.code AS task_code, td.device_code, td.attempts, td.deadline_at, d.id AS device_id, d.deleted_at IS NOT NULL AS deleted,
            t.created_by, t.package_version, k.file_path, k.file_url, k.file_size, k.checksum_algorithm, k.checksum
       FROM upgrade_task_device td
       JOIN upgrade_task t ON t.id = td.task_id
       JOIN device d ON d.code = td.device_code
       LEFT JOIN upgrade_package k ON k.id = t.package_id
      WHERE td.state = 'pending' AND td.command_id IS NULL AND td.queued_at <= $1 AND td.deadline_at > $1 ${taskIds ? 'AND td.task_id = ANY($2::int[])' : ''}
      ORDER BY td.deadline_at, td.task_id, td.device_code
      LIMIT ${BATCH}
      FOR UPDATE OF td SKIP LOCKED`,
    params,
  );
  const refused: Array<{ target: DueTarget; reason: string }> = [];
  const offered: Array<{ target: DueTarget; commandId: number }> = [];
  for (const target of due) {
    const reason = unofferable(target);
    if (reason) {
      refused.push({ target, reason });
      continue;
    }
    const command = await queueCommand(
      tx,
      {
        deviceId: target.device_id,
        type: 'ota',
        // The task's code goes with the command: the device names it in its progress reports.
        parameters: { version: target.package_version, url: downloadOf(target, context), size: target.file_size, sha256: target.checksum, taskCode: target.task_code },
        expiresAt: target.deadline_at,
        createdBy: target.created_by,
      },
      context,
    );
    offered.push({ target, commandId: command.id });
  }
  if (offered.length) {
    await tx.query(
      `UPDATE upgrade_task_device td SET command_id = u.command_id, updated_at = $5
         FROM unnest($1::int[], $2::text[], $3::int[], $4::int[]) AS u (task_id, device_code, attempts, command_id)
        WHERE td.task_id = u.task_id AND td.device_code = u.device_code AND td.attempts = u.attempts AND td.command_id IS NULL`,
      [offered.map((o) => o.target.task_id), offered.map((o) => o.target.device_code), offered.map((o) => o.target.attempts), offered.map((o) => o.commandId), context.now],
    );
  }
  await failTargets(
    tx,
    refused.map(({ target, reason }) => ({ taskId: target.task_id, deviceCode: target.device_code, attempts: target.attempts, reason })),
    context.now,
  );
  await refreshTaskStates(tx, [...new Set(due.map((target) => target.task_id))]);
  return { due: due.length, offered: offered.length };
}

interface FailedTarget {
  taskId: number;
  deviceCode: string;
  attempts: number;
  reason: string;
}

/** Fails targets still upgrading in the attempt that was read, with their reasons. */
async function failTargets(tx: Queryable, targets: readonly FailedTarget[], now: Date): Promise<void> {
  if (targets.length === 0) return;
  await tx.query(
    `UPDATE upgrade_task_device td SET state = 'failed', error_message = u.reason, finished_at = $5, updated_at = $5
       FROM unnest($1::int[], $2::text[], $3::int[], $4::text[]) AS u (task_id, device_code, attempts, reason)
      WHERE td.task_id = u.task_id AND td.device_code = u.device_code AND td.attempts = u.attempts AND td.state IN ('pending', 'upgrading')`,
    [targets.map((t) => t.taskId), targets.map((t) => t.deviceCode), targets.map((t) => t.attempts), targets.map((t) => t.reason), now],
  );
}

/**
 * The `ota` commands of cancelled targets that have not gone out yet expire now: a device that
 * connects later is not sent a package it would only be refused (its url stops with the target).
 */
export async function withdrawOffers(tx: Queryable, taskId: number, deviceCodes: readonly string[], now: Date): Promise<void> {
  if (deviceCodes.length === 0) return;
  await tx.query(
    `UPDATE device_command c SET expires_at = $3
       FROM upgrade_task_device td
      WHERE td.task_id = $1 AND td.device_code = ANY($2::text[]) AND c.id = td.command_id AND c.state = 'pending' AND c.expires_at > $3`,
    [taskId, deviceCodes, now],
  );
}

interface OpenTarget {
  task_id: number;
  device_code: string;
  attempts: number;
  phase: UpgradePhase;
  progress: number;
  time_limit_minutes: number;
  command_state: string | null;
  command_sent: boolean;
  reply_message: string | null;
}

/**
 * Fails the unfinished targets past their deadline, with the reason (never offered, offered and
 * silent, stopped part way), and those whose device refused the `ota` command (its reply "failed"),
 * with the device's message. Answers how many failed.
 */
export async function failOverdueTargets(tx: Queryable, now: Date): Promise<number> {
  const open = await tx.query<OpenTarget>(
    `SELECT td.task_id, td.device_code, td.attempts, td.phase, td.progress, t.time_limit_minutes,
            c.state AS command_state, c.sent_at IS NOT NULL AS command_sent, c.reply_message
       FROM upgrade_task_device td
       JOIN upgrade_task t ON t.id = td.task_id
       LEFT JOIN device_command c ON c.id = td.command_id
      WHERE td.state IN ('pending', 'upgrading') AND (td.deadline_at <= $1 OR (c.state = 'failed' AND td.phase = ''))
      ORDER BY td.deadline_at
      LIMIT ${BATCH}
      FOR UPDATE OF td SKIP LOCKED`,
    [now],
  );
  // A refusal counts only before the device reported any progress; after that its reports decide, or the deadline.
  const failed = open.map((target) => ({
    taskId: target.task_id,
    deviceCode: target.device_code,
    attempts: target.attempts,
    reason:
      target.command_state === 'failed' && target.phase === ''
        ? `设备拒绝升级：${target.reply_message?.trim() || '未说明原因'}`
        : timeoutReason({ phase: target.phase, progress: target.progress, commandSent: target.command_sent }, target.time_limit_minutes),
  }));
  await failTargets(tx, failed, now);
  await refreshTaskStates(tx, [...new Set(failed.map((target) => target.taskId))]);
  return failed.length;
}

/** One run of the check: every due target offered, every overdue one failed, a batch per transaction. */
export async function runFirmwareChecks(db: Database, context: OfferContext): Promise<{ offered: number; failed: number }> {
  let failed = 0;
  for (;;) {
    const count = await db.transaction((tx) => failOverdueTargets(tx, context.now));
    failed += count;
    if (count < BATCH) break;
  }
  let offered = 0;
  for (;;) {
    const batch = await db.transaction((tx) => offerDueTargets(tx, context));
    offered += batch.offered;
    if (batch.due < BATCH) break;
  }
  return { offered, failed };
}

/**
 * The server process's check, every OTA_CHECK_SECONDS (0 = never): scheduled targets offered at
 * their time, overdue ones failed (server/periodicTask.ts: one run at a time, a failed run logged
 * and tried again). Several instances may each run it: the rows are claimed with SKIP LOCKED and
 * changed conditionally, so each target is offered once and failed once.
 */
export function startFirmwareChecks(db: Database, config: ServerConfig, warn: (message: string) => void): PeriodicTask {
  let secret: Promise<Buffer> | null = null;
  return startPeriodicTask({ name: 'firmware delivery', seconds: config.otaCheckSeconds, atStart: true, warn }, async () => {
    secret ??= fileSecretOf(db, config.filesSecret);
    await runFirmwareChecks(db, { now: config.now(), config, fileSecret: await secret });
  });
}

interface TaskSummaryRow {
  task_id: number;
  active: boolean;
  started: boolean;
  cancelled: boolean;
  failed: boolean;
  first_start: Date | null;
  first_queued: Date | null;
  last_finish: Date | null;
}

/** Each task's state, start and finish from its targets (after a report, a check, a cancel or a retry). */
export async function refreshTaskStates(db: Queryable, taskIds: readonly number[]): Promise<void> {
  if (taskIds.length === 0) return;
  const summaries = await db.query<TaskSummaryRow>(
    `SELECT task_id,
            bool_or(state IN ('pending', 'upgrading')) AS active,
            bool_or(state IN ('upgrading', 'succeeded', 'failed') OR started_at IS NOT NULL) AS started,
            bool_or(state = 'cancelled') AS cancelled,
            bool_or(state = 'failed') AS failed,
            min(started_at) AS first_start, min(queued_at) AS first_queued, max(finished_at) AS last_finish
       FROM upgrade_task_device WHERE task_id = ANY($1::int[]) GROUP BY task_id`,
    [taskIds],
  );
  if (summaries.length === 0) return;
  const states = summaries.map((s) => taskStateOf(s));
  // Only tasks whose state or times change are written: readers at the same time do not collide on its row.
  await db.query(
    `WITH next AS (
       SELECT t.id, u.state,
              CASE WHEN u.state = 'pending' THEN t.started_at ELSE COALESCE(t.started_at, NULLIF(u.started_at, '')::timestamptz) END AS started_at,
              CASE WHEN u.state IN ('pending', 'upgrading') THEN NULL ELSE GREATEST(t.cancelled_at, NULLIF(u.finished_at, '')::timestamptz) END AS finished_at
         FROM upgrade_task t JOIN unnest($1::int[], $2::text[], $3::text[], $4::text[]) AS u (id, state, started_at, finished_at) ON t.id = u.id
     )
     UPDATE upgrade_task t SET state = n.state, started_at = n.started_at, finished_at = n.finished_at
       FROM next n
      WHERE t.id = n.id AND (t.state, t.started_at, t.finished_at) IS DISTINCT FROM (n.state, n.started_at, n.finished_at)`,
    [
      summaries.map((s) => s.task_id),
      states,
      summaries.map((s) => (s.first_start ?? s.first_queued)?.toISOString() ?? ''),
      summaries.map((s) => s.last_finish?.toISOString() ?? ''),
    ],
  );
}
