import { MAX_ATTEMPTS, PHASE_TEXT, type UpgradePhase } from '../../domain/upgrades';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, text } from '../../core/params';
import { Conditions, containing, pageOf, type Listing } from '../../core/listQuery';
import { findTask, STATES, type TaskState } from './upgradeTasks';
import { isoOrEmpty } from '../../core/values';
import { idSchema, workScope } from './workScope';

/**
 * The devices of an upgrade task ("升级任务" → 设备): where each stands in its current attempt, as
 * its device last reported (the phase, the progress), and by when it must finish.
 */

interface TaskDeviceRow {
  device_code: string;
  device_name: string;
  organization_name: string;
  online_state: string;
  from_version: string;
  firmware_version: string;
  state: TaskState;
  progress: number;
  phase: UpgradePhase;
  attempts: number;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  error_message: string;
  deadline_at: Date | null;
  command_id: number | null;
  updated_at: Date;
}

const COLUMNS = `td.device_code, d.name AS device_name, o.name AS organization_name, d.online_state, td.from_version, d.firmware_version,
  td.state, td.progress, td.phase, td.attempts, td.queued_at, td.started_at, td.finished_at, td.error_message, td.deadline_at, td.command_id, td.updated_at`;

const SORTS = { deviceCode: 'td.device_code', progress: 'td.progress', attempts: 'td.attempts', updateTime: 'td.updated_at', state: 'td.state' };

export const upgradeTaskDeviceOperations = [
  defineOperation('upgrade.task.device.page', {
    paramSchema: objectOf({ taskId: idSchema, state: enumOf(STATES), keyword: text(64) }, ['taskId']),
    handler: async (context) => {
      const task = await findTask(context, await workScope(context), context.param.taskId);
      const where = new Conditions();
      const taskParam = where.ref(task.id);
      where.add(`td.task_id = ${taskParam}`);
      if (context.param.state) where.add('td.state = $?', context.param.state);
      if (context.param.keyword) where.add('(td.device_code ILIKE $? OR d.name ILIKE $?)', containing(context.param.keyword));
      const record = (row: TaskDeviceRow) => ({
        deviceCode: row.device_code,
        deviceName: row.device_name,
        organizationName: row.organization_name,
        onlineState: row.online_state,
        fromVersion: row.from_version,
        targetVersion: task.packageVersion,
        currentVersion: row.firmware_version,
        state: row.state,
        progress: row.progress,
        progressRate: row.progress / 100,
        /** What the device last said it was doing while upgrading: downloading, installing ('' before it said anything). */
        phase: row.phase,
        // Where a target that did not succeed stopped; nothing once it has.
        phaseText: row.state === 'succeeded' ? '' : PHASE_TEXT[row.phase],
        /** The `ota` command that offered this attempt (null until its time comes). */
        commandId: row.command_id,
        deadlineAt: isoOrEmpty(row.deadline_at),
        attempts: row.attempts,
        retryable: row.state === 'failed' && row.attempts < MAX_ATTEMPTS,
        queuedAt: row.queued_at.toISOString(),
        startedAt: isoOrEmpty(row.started_at),
        finishedAt: isoOrEmpty(row.finished_at),
        errorMessage: row.error_message,
        updateTime: row.updated_at.toISOString(),
      });
      // Counted and chosen over the task's devices alone (the device joined when the keyword reads
      // its name); the device and its organisation are joined for the page's rows. Every task
      // device has its device (a foreign key), and within one task the device code is its key.
      const listing: Listing<TaskDeviceRow, ReturnType<typeof record>> = {
        from: `upgrade_task_device td JOIN device d ON d.code = td.device_code AND td.task_id = ${taskParam} JOIN organization o ON o.code = d.organization_code`,
        narrowFrom: (needed) => (/\bd\./.test(needed) ? 'upgrade_task_device td JOIN device d ON d.code = td.device_code' : 'upgrade_task_device td'),
        key: 'td.device_code',
        columns: COLUMNS,
        sorts: SORTS,
        fallback: 'td.device_code',
        record,
      };
      return pageOf(context, listing, where);
    },
  }),
];
