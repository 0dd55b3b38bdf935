import type { Queryable } from '../db/database';
import { otaStep, type TargetStep, type UpgradePhase, type UpgradeState } from '../domain/upgrades';
import { refreshTaskStates } from './firmwareDelivery';
import type { FirmwareReport, OtaReport } from './firmwareReportFields';

/**
 * What a device's report says of its firmware (issue 31): the version it runs now
 * (`firmwareVersion`) and how its upgrade goes (`ota`: the task's code from the `ota` command, the
 * progress 0-100, the state, and a message when it failed). The report parser takes these fields
 * (reportChecks.ts, with firmwareReportFields.ts); storing a report moves the task's target by them (deviceReports.ts calls
 * storeFirmwareReports in the report's transaction, after the device's row is locked).
 */

/** A stored report's firmware fields, with its device and whether its readings became the device's latest. */
export interface FirmwareReading {
  deviceCode: string;
  report: FirmwareReport;
  /** The reading is the device's newest: its firmwareVersion becomes the device's. */
  newest: boolean;
  now: Date;
}

interface TargetRow {
  task_id: number;
  task_code: string;
  device_code: string;
  attempts: number;
  state: UpgradeState;
  phase: UpgradePhase;
  progress: number;
  package_version: string;
  firmware_version: string;
}

/**
 * Stores what the readings (one per device) say of firmware: each newest reading's version becomes
 * its device's; each `ota` moves its device's target of that task (domain/upgrades.ts otaStep: a
 * report of another task, for a finished target or one past its deadline, or going backwards
 * changes nothing), conditional
 * on the target as it was read (a cancel, a retry or the deadline at the same time wins), and the
 * tasks' states follow.
 */
export async function storeFirmwareReports(tx: Queryable, readings: readonly FirmwareReading[]): Promise<void> {
  const versions = readings.filter((r) => r.newest && r.report.firmwareVersion !== undefined);
  if (versions.length) {
    await tx.query(
      `UPDATE device d SET firmware_version = u.version FROM unnest($1::text[], $2::text[]) AS u (code, version)
        WHERE d.code = u.code AND d.firmware_version IS DISTINCT FROM u.version`,
      [versions.map((r) => r.deviceCode), versions.map((r) => r.report.firmwareVersion!)],
    );
  }
  const progress = readings.filter((r): r is FirmwareReading & { report: { ota: OtaReport } } => r.report.ota !== undefined);
  if (progress.length === 0) return;
  const targets = await tx.query<TargetRow>(
    `SELECT td.task_id, t.code AS task_code, td.device_code, td.attempts, td.state, td.phase, td.progress, t.package_version, d.firmware_version
       FROM unnest($1::text[], $2::text[]) AS u (device_code, task_code)
       JOIN upgrade_task t ON t.code = u.task_code
       JOIN upgrade_task_device td ON td.task_id = t.id AND td.device_code = u.device_code
       JOIN device d ON d.code = td.device_code`,
    [progress.map((r) => r.deviceCode), progress.map((r) => r.report.ota.taskCode)],
  );
  const targetOf = new Map(targets.map((row) => [`${row.device_code}:${row.task_code}`, row]));
  const moves: Array<{ row: TargetRow; step: TargetStep; at: Date }> = [];
  for (const reading of progress) {
    const row = targetOf.get(`${reading.deviceCode}:${reading.report.ota.taskCode}`);
    if (!row) continue;
    const step = otaStep(row, reading.report.ota, { runs: reading.report.firmwareVersion ?? row.firmware_version, target: row.package_version });
    if (step) moves.push({ row, step, at: reading.now });
  }
  if (moves.length === 0) return;
  const moved = await tx.query<{ task_id: number; device_code: string; state: string; package_version: string }>(
    `UPDATE upgrade_task_device td
        SET state = u.state, phase = u.phase, progress = u.progress, error_message = u.error_message,
            started_at = COALESCE(td.started_at, u.at), updated_at = u.at,
            finished_at = CASE WHEN u.state IN ('succeeded', 'failed') THEN u.at ELSE NULL END
       FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::int[], $10::timestamptz[])
            AS u (task_id, device_code, attempts, state, phase, progress, error_message, was_phase, was_progress, at)
      WHERE td.task_id = u.task_id AND td.device_code = u.device_code AND td.attempts = u.attempts
        AND td.state IN ('pending', 'upgrading') AND td.phase = u.was_phase AND td.progress = u.was_progress
        -- Past its deadline the target is the check's to fail, whatever the device says now.
        AND (td.deadline_at IS NULL OR td.deadline_at > u.at)
     RETURNING td.task_id, td.device_code, td.state,
               (SELECT t.package_version FROM upgrade_task t WHERE t.id = td.task_id) AS package_version`,
    [
      moves.map((m) => m.row.task_id),
      moves.map((m) => m.row.device_code),
      moves.map((m) => m.row.attempts),
      moves.map((m) => m.step.state),
      moves.map((m) => m.step.phase),
      moves.map((m) => m.step.progress),
      moves.map((m) => m.step.errorMessage),
      moves.map((m) => m.row.phase),
      moves.map((m) => m.row.progress),
      moves.map((m) => m.at.toISOString()),
    ],
  );
  const upgraded = moved.filter((row) => row.state === 'succeeded');
  if (upgraded.length) {
    await tx.query('UPDATE device d SET firmware_version = u.version FROM unnest($1::text[], $2::text[]) AS u (code, version) WHERE d.code = u.code', [
      upgraded.map((row) => row.device_code),
      upgraded.map((row) => row.package_version),
    ]);
  }
  await refreshTaskStates(tx, [...new Set(moved.map((row) => row.task_id))]);
}
