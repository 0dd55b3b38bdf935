import type { Queryable } from '../../db/database';
import { parseBusinessTime } from '../../domain/businessTime';
import { MAX_ATTEMPTS, TIME_LIMIT_MINUTES } from '../../domain/upgrades';
import { fail } from '../../http/envelope';
import { offerDueTargets, refreshTaskStates, withdrawOffers, type OfferContext } from '../../ingest/firmwareDelivery';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, schemaOf, text, type ParamOf, optionalPlainText, optionalTimeText, plainText, orNull, flag, listOf, integerIn, deviceCode } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { Conditions } from '../../core/listQuery';
import { between, column, contains, custom, derived, equals, listing, pickedRange, textColumn, timeColumn, type ItemOf } from '../../core/listing';
import { tenantOf } from '../../domain/organizations';
import { findVisiblePackage } from './upgradePackages';
import {
  actorOf,
  dateStamp,
  idSchema,
  nextId,
  organizationClause,
  organizationWithin,
  workScope,
  type WorkScope,
} from './workScope';

/**
 * Upgrade tasks ("升级任务"): a package pushed to devices of an organisation, chosen one by one
 * and/or as every eligible device of the package's product there. Each target is offered the
 * package as an `ota` command when its time comes (at once, or at the scheduled time) and moves by
 * what its device reports, failing at its deadline, the task's time limit later
 * (server/ingest/firmwareDelivery.ts, firmwareReports.ts); a task can be cancelled while targets
 * are still queued or upgrading, and its failed targets retried (each up to MAX_ATTEMPTS times),
 * which offers them the package again. A task's device list is upgradeTaskDevices.ts.
 */

export const STATES = ['pending', 'upgrading', 'succeeded', 'failed', 'cancelled'] as const;
export type TaskState = (typeof STATES)[number];
const MAX_TASK_DEVICES = 10_000;
const MAX_SCHEDULE_AHEAD_MS = 90 * 86_400_000;

/** The task's devices counted by state. */
const DEVICE_COUNTS = `
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS device_count,
           count(*) FILTER (WHERE td.state = 'pending')::int AS pending_count,
           count(*) FILTER (WHERE td.state = 'upgrading')::int AS upgrading_count,
           count(*) FILTER (WHERE td.state = 'succeeded')::int AS succeeded_count,
           count(*) FILTER (WHERE td.state = 'failed')::int AS failed_count,
           count(*) FILTER (WHERE td.state = 'cancelled')::int AS cancelled_count,
           count(*) FILTER (WHERE td.state = 'failed' AND td.attempts < ${MAX_ATTEMPTS})::int AS retryable_count
      FROM upgrade_task_device td WHERE td.task_id = t.id
  ) c`;

/** The devices done with a task (succeeded, failed or cancelled), from the row's counts. */
const finishedOf = (row: Readonly<Record<string, unknown>>): number => (row.succeededCount as number) + (row.failedCount as number) + (row.cancelledCount as number);

/**
 * The task list: counted and chosen over the tasks alone (the device counts joined when the sort
 * reads them); product, organisation and counts for the page's rows. The scope: a task's
 * tenant_code is its organisation's tenant, null for an organisation above the tenants.
 */
const TASKS = listing({
  from: `
  upgrade_task t
  JOIN product p ON p.code = t.product_code
  JOIN organization o ON o.code = t.organization_code
  ${DEVICE_COUNTS}`,
  narrowFrom: (needed) => (/\bc\./.test(needed) ? `upgrade_task t ${DEVICE_COUNTS}` : 'upgrade_task t'),
  key: 't.id',
  scope: async (where, context) => where.scope(await workScope(context), 't', { tenant: 'tenant_code' }),
  filters: {
    keyword: contains(['t.code', 't.name', 't.package_name'], text(64)),
    state: equals('t.state', enumOf(STATES)),
    productCode: equals('t.product_code', text(32)),
    organizationCode: custom(text(64), async (where, code, context) => void where.add('t.organization_code = ANY($?::text[])', await organizationWithin(context.db, await workScope(context), code))),
    timeRange: between('t.created_at', pickedRange),
  },
  columns: {
    id: column<number>('t.id'),
    code: column<string>('t.code'),
    name: column<string>('t.name'),
    packageId: column<number | null>('t.package_id'),
    packageName: column<string>('t.package_name'),
    packageVersion: column<string>('t.package_version'),
    productCode: column<string>('t.product_code'),
    productName: column<string>('p.name'),
    organizationCode: column<string>('t.organization_code'),
    organizationName: column<string>('o.name'),
    state: column<TaskState>('t.state'),
    description: column<string>('t.description'),
    scheduledAt: timeColumn('t.scheduled_at'),
    startedAt: timeColumn('t.started_at'),
    finishedAt: timeColumn('t.finished_at'),
    cancelledAt: timeColumn('t.cancelled_at'),
    cancelledBy: textColumn('t.cancelled_by'),
    /** How long each target has to finish once it is offered the package, in minutes. */
    timeLimitMinutes: column<number>('t.time_limit_minutes'),
    createdBy: column<string>('t.created_by'),
    createTime: timeColumn('t.created_at'),
    deviceCount: column<number>('c.device_count'),
    pendingCount: column<number>('c.pending_count'),
    upgradingCount: column<number>('c.upgrading_count'),
    succeededCount: column<number>('c.succeeded_count'),
    failedCount: column<number>('c.failed_count'),
    cancelledCount: column<number>('c.cancelled_count'),
    /** The share of devices that are done (succeeded, failed or cancelled). */
    completion: derived((row) => (row.deviceCount ? finishedOf(row) / (row.deviceCount as number) : 0)),
    /** The share of devices that succeeded. */
    successRate: derived((row) => (row.deviceCount ? (row.succeededCount as number) / (row.deviceCount as number) : 0)),
    cancellable: derived((row) => row.state === 'pending' || row.state === 'upgrading'),
    retryable: column('c.retryable_count', (count: number) => count > 0),
  },
  sorts: { createTime: 't.created_at', scheduledAt: 't.scheduled_at', startedAt: 't.started_at', finishedAt: 't.finished_at', code: 't.code', deviceCount: 'c.device_count' },
  fallback: 't.id DESC',
});

type UpgradeTask = ItemOf<typeof TASKS>;

const TASK_OVER = '升级任务已结束，不能取消';
const NOTHING_TO_RETRY = '没有可重试的失败设备';

/** The task `id` within the scope, as its targets' reports and the checks left it ("404" 升级任务不存在 otherwise). */
export async function findTask(context: OperationContext<unknown>, scope: WorkScope, id: number): Promise<UpgradeTask> {
  const where = new Conditions().add('t.id = $?', id);
  where.add(organizationClause(scope, where.params, 't'));
  const task = await TASKS.find(context, where);
  if (!task) throw fail.notFound('升级任务不存在');
  return task;
}

/** What offering a task's targets needs from the request. */
const offerContext = (context: OperationContext<unknown>): OfferContext => ({ now: context.now, config: context.config, fileSecret: context.fileSecret });

const taskFields = objectOf(
  {
    name: plainText(64),
    packageId: idSchema,
    organizationCode: text(64, 1),
    includeAllDevices: orNull(flag),
    deviceCodes: orNull(listOf(MAX_TASK_DEVICES, deviceCode)),
    scheduledAt: optionalTimeText,
    timeLimitMinutes: orNull(integerIn(TIME_LIMIT_MINUTES.min, TIME_LIMIT_MINUTES.max)),
    description: orNull(optionalPlainText(500)),
  },
  ['name', 'packageId', 'organizationCode'],
);
type TaskFields = ParamOf<typeof taskFields>;

interface TargetRow {
  code: string;
  organization_code: string;
  product_code: string;
  firmware_version: string;
  busy_task: string | null;
}

/** The devices a new task targets: listed ones (each checked) plus, when asked, every eligible device of the product. */
async function targetsOf(
  db: Queryable,
  scope: WorkScope,
  within: readonly string[],
  fields: TaskFields,
  pkg: { product_code: string; version: string; package_type: string; base_version: string | null },
): Promise<TargetRow[]> {
  const select = `SELECT d.code, d.organization_code, d.product_code, d.firmware_version,
                         (SELECT t.code FROM upgrade_task_device td JOIN upgrade_task t ON t.id = td.task_id
                           WHERE td.device_code = d.code AND td.state IN ('pending', 'upgrading') LIMIT 1) AS busy_task
                    FROM device d`;
  const chosen = new Map<string, TargetRow>();
  const listed = [...new Set(fields.deviceCodes ?? [])];
  if (listed.length) {
    const rows = await db.query<TargetRow>(`${select} WHERE d.code = ANY($1::text[]) AND d.organization_code = ANY($2::text[]) AND d.deleted_at IS NULL`, [
      listed,
      scope.organizationCodes,
    ]);
    const found = new Map(rows.map((row) => [row.code, row]));
    for (const code of listed) {
      const device = found.get(code);
      if (!device) throw fail.notFound(`设备 ${code} 不存在`);
      if (!within.includes(device.organization_code)) throw fail.badRequest(`设备 ${code} 不在所选组织下`);
      if (device.product_code !== pkg.product_code) throw fail.badRequest(`设备 ${code} 不是该升级包的产品`);
      if (pkg.package_type === 'diff' && device.firmware_version !== pkg.base_version) {
        throw fail.badRequest(`设备 ${code} 当前版本 ${device.firmware_version || '未知'} 与差分包基础版本 ${pkg.base_version} 不符`);
      }
      if (device.busy_task) throw fail.conflict(`设备 ${code} 正在升级任务 ${device.busy_task} 中`);
      chosen.set(code, device);
    }
  }
  if (fields.includeAllDevices) {
    // Every live device of the product there that can take the package and is not already upgrading.
    const rows = await db.query<TargetRow>(
      `${select} WHERE d.product_code = $1 AND d.organization_code = ANY($2::text[]) AND d.deleted_at IS NULL
                   AND ${pkg.package_type === 'diff' ? 'd.firmware_version = $3' : 'd.firmware_version <> $3'}
                 ORDER BY d.code LIMIT ${MAX_TASK_DEVICES + 1}`,
      [pkg.product_code, within, pkg.package_type === 'diff' ? (pkg.base_version ?? '') : pkg.version],
    );
    for (const row of rows) if (!row.busy_task && !chosen.has(row.code)) chosen.set(row.code, row);
  }
  if (chosen.size === 0) throw fail.badRequest('没有符合条件的目标设备：请选择设备或勾选该组织下的全部设备');
  if (chosen.size > MAX_TASK_DEVICES) throw fail.badRequest(`一个升级任务最多 ${MAX_TASK_DEVICES} 台设备，请缩小组织范围分批升级`);
  return [...chosen.values()];
}

const codesSchema = schemaOf<string[]>({ type: 'array', minItems: 1, maxItems: MAX_TASK_DEVICES, uniqueItems: true, items: deviceCode });

export const upgradeTaskOperations = [
  defineOperation('upgrade.task.page', {
    paramSchema: TASKS.paramSchema,
    handler: (context) => TASKS.page(context),
  }),

  defineOperation('upgrade.task.detail', {
    paramSchema: objectOf({ id: idSchema }, ['id']),
    handler: async (context) => findTask(context, await workScope(context), context.param.id),
  }),

  defineOperation('upgrade.task.insert', {
    paramSchema: objectOf({ task: taskFields }, ['task']),
    handler: async (context) => {
      const fields = context.param.task;
      const scope = await workScope(context);
      const within = await organizationWithin(context.db, scope, fields.organizationCode);
      const pkg = await findVisiblePackage(context.db, scope, fields.packageId);
      const tenantCode = await tenantOf(context.db, fields.organizationCode);
      // A tenant's own package goes to that tenant's devices only.
      if (pkg.tenant_code !== null && pkg.tenant_code !== tenantCode) throw fail.notFound('升级包不存在');
      // Devices verify a download by its SHA-256 before they install it.
      if (pkg.checksum_algorithm !== 'SHA256') throw fail.badRequest('升级包没有 SHA-256 校验值，设备无法校验固件：请上传固件文件或填写 SHA256 校验值');
      const timeLimit = fields.timeLimitMinutes ?? context.config.otaTimeLimitMinutes;
      const scheduledAt = fields.scheduledAt ? parseBusinessTime(fields.scheduledAt, context.config.timeZone) : null;
      if (scheduledAt && Number.isNaN(scheduledAt.getTime())) throw fail.badField('scheduledAt');
      if (scheduledAt && scheduledAt.getTime() - context.now.getTime() > MAX_SCHEDULE_AHEAD_MS) throw fail.badRequest('参数错误：scheduledAt（最多提前 90 天计划）');
      const queuedAt = scheduledAt && scheduledAt > context.now ? scheduledAt : context.now;
      return context.db.transaction(async (tx) => {
        // Held until the task is in: a deletion of the package at the same time waits, then sees the task.
        const [held] = await tx.query('SELECT 1 FROM upgrade_package WHERE id = $1 FOR SHARE', [pkg.id]);
        if (!held) throw fail.notFound('升级包不存在');
        const targets = await targetsOf(tx, scope, within, fields, pkg);
        const id = await nextId(tx, 'upgrade_task');
        const code = `OTA${dateStamp(context.now, context.config.timeZone)}${String(id).padStart(4, '0')}`;
        await tx.query(
          `INSERT INTO upgrade_task (id, code, name, package_id, package_name, package_version, product_code, tenant_code, organization_code, state,
                                     description, scheduled_at, created_by, created_at, time_limit_minutes)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10, $11, $12, $13, $14)`,
          [id, code, fields.name, pkg.id, pkg.name, pkg.version, pkg.product_code, tenantCode, fields.organizationCode, fields.description ?? '', queuedAt > context.now ? queuedAt : null, actorOf(context), context.now, timeLimit],
        );
        await tx.query(
          `INSERT INTO upgrade_task_device (task_id, device_code, from_version, state, progress, attempts, queued_at, updated_at, deadline_at)
           SELECT $1, u.code, u.version, 'pending', 0, 1, $4, $5, $6 FROM unnest($2::text[], $3::text[]) AS u (code, version)`,
          [id, targets.map((t) => t.code), targets.map((t) => t.firmware_version), queuedAt, context.now, new Date(queuedAt.getTime() + timeLimit * 60_000)],
        );
        // Due now: the first batch of targets is offered the package with the task (the periodic check offers the rest).
        await offerDueTargets(tx, offerContext(context), [id]);
        return { id, code, deviceCount: targets.length };
      });
    },
  }),

  defineOperation('upgrade.task.cancel', {
    paramSchema: objectOf({ id: idSchema }, ['id']),
    handler: async (context) => {
      const task = await findTask(context, await workScope(context), context.param.id);
      if (task.pendingCount + task.upgradingCount === 0) throw fail.conflict(TASK_OVER);
      const cancelled = await context.db.transaction(async (tx) => {
        const rows = await tx.query<{ device_code: string }>(
          `UPDATE upgrade_task_device SET state = 'cancelled', finished_at = $2, updated_at = $2
            WHERE task_id = $1 AND state IN ('pending', 'upgrading') RETURNING device_code`,
          [task.id, context.now],
        );
        // A cancellation (or the devices finishing) since the task was read left nothing to cancel.
        if (rows.length === 0) throw fail.conflict(TASK_OVER);
        await tx.query('UPDATE upgrade_task SET cancelled_at = $2, cancelled_by = $3 WHERE id = $1', [task.id, context.now, actorOf(context)]);
        await withdrawOffers(tx, task.id, rows.map((row) => row.device_code), context.now);
        await refreshTaskStates(tx, [task.id]);
        return rows.length;
      });
      return { cancelled };
    },
  }),

  defineOperation('upgrade.task.retry', {
    paramSchema: objectOf({ id: idSchema, deviceCodes: codesSchema }, ['id']),
    handler: async (context) => {
      const task = await findTask(context, await workScope(context), context.param.id);
      const codes = context.param.deviceCodes ?? null;
      const failed = await context.db.query<{ device_code: string; state: string; attempts: number; deleted: boolean }>(
        `SELECT td.device_code, td.state, td.attempts, d.deleted_at IS NOT NULL AS deleted
           FROM upgrade_task_device td JOIN device d ON d.code = td.device_code
          WHERE td.task_id = $1 ${codes ? 'AND td.device_code = ANY($2::text[])' : "AND td.state = 'failed'"}`,
        codes ? [task.id, codes] : [task.id],
      );
      if (codes) {
        const found = new Map(failed.map((row) => [row.device_code, row]));
        for (const code of codes) {
          const row = found.get(code);
          if (!row) throw fail.notFound(`设备 ${code} 不在该升级任务中`);
          if (row.state !== 'failed') throw fail.conflict(`设备 ${code} 未升级失败，无需重试`);
          if (row.attempts >= MAX_ATTEMPTS) throw fail.conflict(`设备 ${code} 已重试 ${MAX_ATTEMPTS - 1} 次，请排查后重新创建任务`);
        }
      }
      const retryable = failed.filter((row) => row.state === 'failed' && row.attempts < MAX_ATTEMPTS && !row.deleted).map((row) => row.device_code);
      if (retryable.length === 0) throw fail.conflict(NOTHING_TO_RETRY);
      const retried = await context.db.transaction(async (tx) => {
        // Only devices still failed move: of two retries at once, each device is retried once.
        const rows = await tx.query<{ device_code: string }>(
          `UPDATE upgrade_task_device
              SET state = 'pending', progress = 0, phase = '', command_id = NULL, attempts = attempts + 1, queued_at = $3, deadline_at = $5,
                  started_at = NULL, finished_at = NULL, error_message = '', updated_at = $3
            WHERE task_id = $1 AND device_code = ANY($2::text[]) AND state = 'failed' AND attempts < $4 RETURNING device_code`,
          [task.id, retryable, context.now, MAX_ATTEMPTS, new Date(context.now.getTime() + task.timeLimitMinutes * 60_000)],
        );
        const moved = new Set(rows.map((row) => row.device_code));
        const missed = retryable.find((code) => codes?.includes(code) && !moved.has(code));
        if (missed) throw fail.conflict(`设备 ${missed} 未升级失败，无需重试`);
        if (rows.length === 0) throw fail.conflict(NOTHING_TO_RETRY);
        await refreshTaskStates(tx, [task.id]);
        // A new attempt: a new command and a download for it (the last attempt's url stops working).
        await offerDueTargets(tx, offerContext(context), [task.id]);
        return rows.length;
      });
      return { retried };
    },
  }),
];
