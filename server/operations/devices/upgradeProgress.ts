import type { Database, Queryable } from '../../db/database';
import { attemptAt, taskStateOf } from '../../domain/upgrades';

/**
 * Brings upgrade tasks up to `now`: every queued or upgrading device of the tasks moves as
 * domain/upgrades says it has by then (picked up, downloading, installed or failed), a device that
 * finished is recorded at its new firmware version, and each task's state, start and finish follow
 * its devices. Deterministic in `now`, so reading often or seldom gives the same history; run
 * before anything reads or changes a task.
 */

/** A package size to assume when a finished task's package has since been deleted. */
const UNKNOWN_PACKAGE_SIZE = 256 * 1024;
const DEFAULT_HEARTBEAT_MINUTES = { battery: 240, mains: 10 };

interface ActiveDeviceRow {
  task_id: number;
  device_code: string;
  attempts: number;
  queued_at: Date;
  state: string;
  progress: number;
  online_state: string;
  battery_level: number | null;
  protocol: string;
  battery_powered: boolean;
  heartbeat_minutes: string | null;
  file_size: number | null;
  package_version: string;
}

export async function settleTasks(db: Queryable, taskIds: readonly number[], now: Date): Promise<void> {
  if (taskIds.length === 0) return;
  // The devices are read by their codes, not joined: joined, the planner hash-joins a few hundred
  // active rows against the whole device table (a sequential scan of it on every page of tasks).
  const active = await db.query<Pick<ActiveDeviceRow, 'task_id' | 'device_code' | 'attempts' | 'queued_at' | 'state' | 'progress' | 'file_size' | 'package_version'>>(
    `SELECT td.task_id, td.device_code, td.attempts, td.queued_at, td.state, td.progress, k.file_size, t.package_version
       FROM upgrade_task_device td
       JOIN upgrade_task t ON t.id = td.task_id
       LEFT JOIN upgrade_package k ON k.id = t.package_id
      WHERE td.task_id = ANY($1::int[]) AND td.state IN ('pending', 'upgrading')`,
    [taskIds],
  );
  if (active.length === 0) {
    await refreshTaskStates(db, taskIds);
    return;
  }
  const devices = await db.query<Pick<ActiveDeviceRow, 'online_state' | 'battery_level' | 'protocol' | 'battery_powered' | 'heartbeat_minutes'> & { code: string }>(
    `SELECT d.code, d.online_state, d.battery_level, p.protocol, p.battery_powered, p.settings ->> 'heartbeatMinutes' AS heartbeat_minutes
       FROM device d JOIN product p ON p.code = d.product_code
      WHERE d.code = ANY($1::text[])`,
    [[...new Set(active.map((row) => row.device_code))]],
  );
  const deviceOf = new Map(devices.map((device) => [device.code, device]));
  const rows: ActiveDeviceRow[] = active.flatMap((row) => {
    const device = deviceOf.get(row.device_code);
    return device ? [{ ...row, ...device }] : [];
  });
  const changed = { taskIds: [] as number[], codes: [] as string[], attempts: [] as number[], states: [] as string[], progress: [] as number[], started: [] as string[], finished: [] as string[], errors: [] as string[], updated: [] as string[] };
  const upgraded: Array<{ taskId: number; code: string }> = [];
  for (const row of rows) {
    const heartbeat = Number(row.heartbeat_minutes);
    const outcome = attemptAt(
      {
        taskId: row.task_id,
        deviceCode: row.device_code,
        attempts: row.attempts,
        queuedAt: row.queued_at,
        onlineState: row.online_state,
        batteryLevel: row.battery_level,
        protocol: row.protocol,
        batteryPowered: row.battery_powered,
        heartbeatMinutes: Number.isFinite(heartbeat) && heartbeat > 0 ? heartbeat : row.battery_powered ? DEFAULT_HEARTBEAT_MINUTES.battery : DEFAULT_HEARTBEAT_MINUTES.mains,
        fileSize: row.file_size ?? UNKNOWN_PACKAGE_SIZE,
      },
      now,
    );
    if (outcome.state === row.state && outcome.progress === row.progress) continue;
    changed.taskIds.push(row.task_id);
    changed.codes.push(row.device_code);
    changed.attempts.push(row.attempts);
    changed.states.push(outcome.state);
    changed.progress.push(outcome.progress);
    changed.started.push(outcome.startedAt?.toISOString() ?? '');
    changed.finished.push(outcome.finishedAt?.toISOString() ?? '');
    changed.errors.push(outcome.errorMessage);
    changed.updated.push((outcome.finishedAt ?? now).toISOString());
    if (outcome.state === 'succeeded') upgraded.push({ taskId: row.task_id, code: row.device_code });
  }
  if (changed.codes.length) {
    // Only rows still in the attempt that was read move (a cancel or retry meanwhile wins).
    await db.query(
      `UPDATE upgrade_task_device td
          SET state = u.state, progress = u.progress, started_at = NULLIF(u.started_at, '')::timestamptz,
              finished_at = NULLIF(u.finished_at, '')::timestamptz, error_message = u.error_message, updated_at = u.updated_at::timestamptz
         FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[])
              AS u (task_id, device_code, attempts, state, progress, started_at, finished_at, error_message, updated_at)
        WHERE td.task_id = u.task_id AND td.device_code = u.device_code AND td.attempts = u.attempts AND td.state IN ('pending', 'upgrading')`,
      [changed.taskIds, changed.codes, changed.attempts, changed.states, changed.progress, changed.started, changed.finished, changed.errors, changed.updated],
    );
  }
  if (upgraded.length) {
    await db.query(
      `UPDATE device d SET firmware_version = t.package_version
         FROM unnest($1::int[], $2::text[]) AS u (task_id, device_code)
         JOIN upgrade_task t ON t.id = u.task_id
        WHERE d.code = u.device_code`,
      [upgraded.map((u) => u.taskId), upgraded.map((u) => u.code)],
    );
  }
  await refreshTaskStates(db, taskIds);
}

/** Tasks settled in one transaction by settleActiveTasks. */
const TASKS_PER_TRANSACTION = 20;

/**
 * Every unfinished task of every tenant brought up to `now`, a few tasks per transaction (so a
 * cancel or retry waits for one small batch, never for all of them); the number of tasks looked at.
 * The server process runs it on a timer (server/upgradeClock.ts): a list of tasks shows what it
 * last wrote, and opening one task settles that task first.
 */
export async function settleActiveTasks(db: Database, now: Date): Promise<number> {
  let after = 0;
  let seen = 0;
  for (;;) {
    const batch = await db.query<{ id: number }>(
      `SELECT id FROM upgrade_task WHERE state IN ('pending', 'upgrading') AND id > $1 ORDER BY id LIMIT ${TASKS_PER_TRANSACTION}`,
      [after],
    );
    if (batch.length === 0) return seen;
    const ids = batch.map((row) => row.id);
    await db.transaction((tx) => settleTasks(tx, ids, now));
    seen += ids.length;
    after = ids[ids.length - 1];
  }
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

/** Each task's state, start and finish from its devices (after a settle, cancel or retry). */
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
  // Only tasks whose state or times change are written: reading a settled task writes nothing, so
  // readers at the same time do not collide with each other (nor with a cancel) on its row.
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
