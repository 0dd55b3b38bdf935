import type { Queryable, SqlParam } from '../../db/database';
import { businessDay, businessDaysBetween } from '../../domain/businessTime';
import { CODE_PREFIX, PATROL_TASK_STATES, workCode } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, schemaOf, text, type ParamOf, optionalPlainText, plainText, timeRange, timeText, enumOf, optionalEnumOf, optionalUserId, parseRange, parseTime, workCodeSchema, deviceCode } from '../../core/params';
import { exportOf, pageOf, type Listing } from '../../core/listQuery';
import { between, column, contains, equals, listing, textColumn, timeColumn } from '../../core/listing';
import { createRepairOrder } from './repair';
import { findWorkDevices, manages, organizationFilter, placeOrder, workScope, workScopeClause, type WorkScope } from '../../core/workScope';
import { nextId } from './workOrders';
import { checkAssignee } from '../../core/workOrders';
import { EFFECTIVE_STATE, taskWhere } from '../../core/patrolTasks';
import { dictLabel, isoOrEmpty } from '../../core/values';

/**
 * Patrol (巡检): an administrator plans a task (a patroller, a time window, the devices to check);
 * the patroller executes it device by device; an abnormal finding raises a repair order (source
 * patrol). A task still pending or started after its window reads as overdue. Patrollers see
 * their own tasks and records only; the patrol board sums them up.
 */

/** Queries that pass the request time as $1 without reading it still give it a type. */
const NOW_TYPED = '$1::timestamptz IS NOT NULL';

interface TaskRow {
  id: number;
  code: string;
  name: string;
  tenant_code: string;
  organization_code: string;
  organization_name: string;
  assignee_id: number | null;
  assignee_name: string | null;
  creator_name: string | null;
  plan_start_at: Date;
  plan_end_at: Date;
  stored_state: string;
  state: string;
  content: string;
  started_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
  device_count: number;
  checked_count: number;
  abnormal_count: number;
}

const TASK_FROM = `patrol_task t
  JOIN organization org ON org.code = t.organization_code
  LEFT JOIN app_user au ON au.id = t.assignee_id
  LEFT JOIN app_user cu ON cu.id = t.creator_id`;

/** The task columns; `now` is the placeholder of the request time. */
const taskColumns = (now: string) => `t.id, t.code, t.name, t.tenant_code, t.organization_code, org.name AS organization_name, t.assignee_id, au.user_name AS assignee_name,
         cu.user_name AS creator_name, t.plan_start_at, t.plan_end_at, t.state AS stored_state, ${EFFECTIVE_STATE(now)} AS state, t.content,
         t.started_at, t.completed_at, t.created_at,
         (SELECT count(*)::int FROM patrol_task_device td WHERE td.task_id = t.id) AS device_count,
         (SELECT count(*)::int FROM patrol_record pr WHERE pr.task_id = t.id) AS checked_count,
         (SELECT count(*)::int FROM patrol_record pr WHERE pr.task_id = t.id AND pr.result = 'abnormal') AS abnormal_count`;

/** The task select; `now` is the placeholder of the request time. */
const taskSelect = (now: string) => `
  SELECT ${taskColumns(now)}
    FROM ${TASK_FROM}`;

/** Not started yet: planned, or overdue without a single check. */
const untouched = (row: TaskRow) => row.stored_state === 'pending' && row.checked_count === 0;

function taskRecord(row: TaskRow, scope: WorkScope, userId: number) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    assigneeId: row.assignee_id,
    assigneeName: row.assignee_name ?? '',
    creatorName: row.creator_name ?? '',
    planStartTime: isoOrEmpty(row.plan_start_at),
    planEndTime: isoOrEmpty(row.plan_end_at),
    planTime: [isoOrEmpty(row.plan_start_at), isoOrEmpty(row.plan_end_at)],
    state: row.state,
    content: row.content,
    deviceCount: row.device_count,
    checkedCount: row.checked_count,
    abnormalCount: row.abnormal_count,
    progress: row.device_count === 0 ? 0 : Math.round((row.checked_count / row.device_count) * 1000) / 1000,
    startTime: isoOrEmpty(row.started_at),
    completeTime: isoOrEmpty(row.completed_at),
    createTime: isoOrEmpty(row.created_at),
    canModify: manages(scope) && untouched(row),
    canDelete: manages(scope) && untouched(row),
    canExecute: row.assignee_id === userId && row.stored_state !== 'completed',
  };
}

const taskFilterSchema = {
  keyword: text(64),
  state: optionalEnumOf(PATROL_TASK_STATES),
  organizationCode: text(64),
  assigneeId: optionalUserId,
  planTime: timeRange,
};

/**
 * The task list ($1 is the request time): counted and paged over patrol_task alone; the names and
 * the progress are read for the page's rows. The state sorts as it reads (overdue included).
 */
const TASKS: Listing<TaskRow, TaskRow> = {
  from: TASK_FROM,
  narrowFrom: 'patrol_task t',
  key: 't.id',
  columns: taskColumns('$1'),
  sorts: { code: 't.code', planStartTime: 't.plan_start_at', planEndTime: 't.plan_end_at', createTime: 't.created_at', state: EFFECTIVE_STATE('$1') },
  fallback: 't.plan_start_at DESC, t.id DESC',
  record: (row) => row,
};

async function findTask(db: Queryable, scope: WorkScope, code: string, now: Date, lock = false): Promise<TaskRow> {
  const params: SqlParam[] = [now, code];
  const clause = `${NOW_TYPED} AND ${workScopeClause(scope, params, 't')}`;
  if (lock) await db.query(`SELECT 1 FROM patrol_task t WHERE t.code = $2 AND ${clause} FOR UPDATE`, params);
  const [row] = await db.query<TaskRow>(`${taskSelect('$1')} WHERE t.code = $2 AND ${clause}`, params);
  if (!row) throw fail.notFound('巡检任务不存在');
  return row;
}

/** How many devices one patrol task takes. */
export const PATROL_DEVICE_LIMIT = 100;

const taskFields = objectOf(
  {
    name: plainText(64),
    organizationCode: text(64, 1),
    assigneeId: optionalUserId,
    planTime: timeRange,
    deviceCodes: schemaOf<string[]>({ type: 'array', minItems: 1, maxItems: PATROL_DEVICE_LIMIT, uniqueItems: true, items: deviceCode }),
    content: optionalPlainText(1000),
  },
  ['name', 'organizationCode', 'planTime', 'deviceCodes'],
);
type TaskFields = ParamOf<typeof taskFields>;
/** A device's check as the execute form sends it (the device's name, shown by the form, comes back with it). */
const checkFields = objectOf({ deviceCode: deviceCode, deviceName: text(64), result: enumOf(['normal', 'abnormal']), description: optionalPlainText(500) }, ['deviceCode', 'result']);
type CheckFields = ParamOf<typeof checkFields>;

/** Checks a task's fields: organisation in scope, a window ending ahead, devices there, a patroller. */
async function checkTask(db: Queryable, scope: WorkScope, fields: TaskFields, now: Date, timeZone: string) {
  const place = await placeOrder(db, scope, fields.organizationCode);
  const [start, end] = parseRange(fields.planTime, 'planTime', timeZone);
  if (end.getTime() <= now.getTime()) throw fail.badRequest('计划结束时间须晚于当前时间');
  const devices = await findWorkDevices(db, scope, fields.deviceCodes);
  const within = new Set(await organizationFilter(db, scope, place.organizationCode));
  if (devices.some((device) => !within.has(device.organization_code))) throw fail.badRequest('巡检设备须位于所选组织内');
  if (fields.assigneeId) await checkAssignee(db, place.tenantCode, fields.assigneeId, 'patrol');
  return { place, start, end };
}

async function writeDevices(db: Queryable, taskId: number, codes: readonly string[]) {
  await db.query('DELETE FROM patrol_task_device WHERE task_id = $1', [taskId]);
  await db.query('INSERT INTO patrol_task_device (task_id, device_code, sort) SELECT $1, code, ordinality FROM unnest($2::text[]) WITH ORDINALITY AS u(code, ordinality)', [
    taskId,
    codes,
  ]);
}

/** The record list: counted and paged over the records and their tasks (the scope), with the device when the keyword reads its name. */
const RECORDS = listing({
  from: `patrol_record pr
  JOIN patrol_task t ON t.id = pr.task_id
  LEFT JOIN device d ON d.code = pr.device_code
  LEFT JOIN app_user pu ON pu.id = pr.patroller_id
  LEFT JOIN work_order o ON o.id = pr.repair_order_id`,
  narrowFrom: (needed) => `patrol_record pr JOIN patrol_task t ON t.id = pr.task_id${/\bd\./.test(needed) ? ' LEFT JOIN device d ON d.code = pr.device_code' : ''}`,
  key: 'pr.id',
  scope: async (where, context) => void where.add(workScopeClause(await workScope(context), where.params, 't')),
  filters: {
    taskCode: equals('t.code', workCodeSchema),
    result: equals('pr.result', optionalEnumOf(['normal', 'abnormal'])),
    keyword: contains(['pr.device_code', "coalesce(d.name, '')", 'pr.description'], text(64)),
    checkTime: between('pr.checked_at', parseRange),
  },
  columns: {
    id: column<number>('pr.id'),
    taskCode: column<string>('t.code'),
    taskName: column<string>('t.name'),
    deviceCode: column<string>('pr.device_code'),
    deviceName: textColumn('d.name'),
    result: column<string>('pr.result'),
    description: column<string>('pr.description'),
    patrollerName: textColumn('pu.user_name'),
    checkedTime: timeColumn('pr.checked_at'),
    repairOrderCode: textColumn('o.code'),
  },
  sorts: { checkedTime: 'pr.checked_at', deviceCode: 'pr.device_code', result: 'pr.result' },
  fallback: 'pr.checked_at DESC, pr.id DESC',
});

const boardSchema = objectOf({ metric: enumOf(['summary', 'daily', 'state', 'patroller', 'abnormal']), startTime: timeText, endTime: timeText });
type BoardParam = ParamOf<typeof boardSchema>;

const DAY_MS = 86_400_000;

async function boardStatistics(context: OperationContext<BoardParam>) {
  const scope = await workScope(context);
  const end = context.param.endTime ? parseTime(context.param.endTime, 'endTime', context.config.timeZone) : context.now;
  const start = context.param.startTime ? parseTime(context.param.startTime, 'startTime', context.config.timeZone) : new Date(end.getTime() - 30 * DAY_MS);
  if (start.getTime() >= end.getTime()) throw fail.badRequest('请输入不同的时间');
  if (end.getTime() - start.getTime() > 400 * DAY_MS) throw fail.badRequest('统计时间范围不能超过400天');
  const params: SqlParam[] = [context.now, start, end];
  const scoped = `${NOW_TYPED} AND $2::timestamptz IS NOT NULL AND $3::timestamptz IS NOT NULL AND ${workScopeClause(scope, params, 't')}`;
  const tasks = `${scoped} AND t.plan_start_at BETWEEN $2 AND $3`;
  const records = `${scoped} AND pr.checked_at BETWEEN $2 AND $3`;
  switch (context.param.metric ?? 'summary') {
    case 'summary': {
      const [row] = await context.db.query<{ task_count: number; completed: number; overdue: number; pending: number; in_progress: number }>(
        `SELECT count(*)::int AS task_count,
                count(*) FILTER (WHERE ${EFFECTIVE_STATE('$1')} = 'completed')::int AS completed,
                count(*) FILTER (WHERE ${EFFECTIVE_STATE('$1')} = 'overdue')::int AS overdue,
                count(*) FILTER (WHERE ${EFFECTIVE_STATE('$1')} = 'pending')::int AS pending,
                count(*) FILTER (WHERE ${EFFECTIVE_STATE('$1')} = 'in_progress')::int AS in_progress
           FROM patrol_task t WHERE ${tasks}`,
        params,
      );
      const [checks] = await context.db.query<{ checked: number; abnormal: number }>(
        `SELECT count(*)::int AS checked, count(*) FILTER (WHERE pr.result = 'abnormal')::int AS abnormal FROM patrol_record pr JOIN patrol_task t ON t.id = pr.task_id WHERE ${records}`,
        params,
      );
      return {
        taskCount: row.task_count,
        completedCount: row.completed,
        overdueCount: row.overdue,
        pendingCount: row.pending,
        inProgressCount: row.in_progress,
        completionRate: row.task_count === 0 ? 0 : Math.round((row.completed / row.task_count) * 1000) / 1000,
        completionPercent: row.task_count === 0 ? 0 : Math.round((row.completed / row.task_count) * 1000) / 10,
        checkedCount: checks.checked,
        abnormalCount: checks.abnormal,
        abnormalRate: checks.checked === 0 ? 0 : Math.round((checks.abnormal / checks.checked) * 1000) / 1000,
      };
    }
    case 'daily': {
      // Business days (the configured zone's), like the times the pickers send.
      const rows = await context.db.query<{ checked_at: Date; result: string }>(
        `SELECT pr.checked_at, pr.result FROM patrol_record pr JOIN patrol_task t ON t.id = pr.task_id WHERE ${records}`,
        params,
      );
      const byDay = new Map<string, { checked: number; abnormal: number }>();
      for (const row of rows) {
        const key = businessDay(row.checked_at, context.config.timeZone);
        const day = byDay.get(key) ?? { checked: 0, abnormal: 0 };
        day.checked += 1;
        if (row.result === 'abnormal') day.abnormal += 1;
        byDay.set(key, day);
      }
      const days: Array<{ day: string; checked: number; abnormal: number }> = [];
      for (const day of businessDaysBetween(start, end, context.config.timeZone)) {
        days.push({ day: day.slice(5), checked: byDay.get(day)?.checked ?? 0, abnormal: byDay.get(day)?.abnormal ?? 0 });
      }
      return days;
    }
    case 'state': {
      const rows = await context.db.query<{ state: string; count: number }>(
        `SELECT ${EFFECTIVE_STATE('$1')} AS state, count(*)::int AS count FROM patrol_task t WHERE ${tasks} GROUP BY 1`,
        params,
      );
      return PATROL_TASK_STATES.map((state) => ({ state, name: dictLabel('patrol_task_state', state), count: rows.find((row) => row.state === state)?.count ?? 0 }));
    }
    case 'patroller': {
      const rows = await context.db.query<{ name: string; total: number; completed: number; abnormal: number }>(
        `SELECT coalesce(au.user_name, '未指派') AS name, count(*)::int AS total,
                count(*) FILTER (WHERE t.state = 'completed')::int AS completed,
                sum((SELECT count(*) FROM patrol_record pr WHERE pr.task_id = t.id AND pr.result = 'abnormal'))::int AS abnormal
           FROM patrol_task t LEFT JOIN app_user au ON au.id = t.assignee_id
          WHERE ${tasks} GROUP BY 1 ORDER BY total DESC, name LIMIT 10`,
        params,
      );
      return rows;
    }
    case 'abnormal': {
      const rows = await context.db.query<{ id: number; task_code: string; task_name: string; device_code: string; device_name: string | null; description: string; patroller_name: string | null; checked_at: Date; order_code: string | null }>(
        `SELECT pr.id, t.code AS task_code, t.name AS task_name, pr.device_code, d.name AS device_name, pr.description, pu.user_name AS patroller_name, pr.checked_at, o.code AS order_code
           FROM ${RECORDS.listing.from} WHERE ${records} AND pr.result = 'abnormal' ORDER BY pr.checked_at DESC, pr.id DESC LIMIT 10`,
        params,
      );
      return rows.map((row) => ({
        id: row.id,
        taskCode: row.task_code,
        taskName: row.task_name,
        deviceCode: row.device_code,
        deviceName: row.device_name ?? '',
        description: row.description,
        patrollerName: row.patroller_name ?? '',
        checkedTime: row.checked_at.toISOString(),
        repairOrderCode: row.order_code ?? '',
      }));
    }
  }
}

export const patrolOperations = [
  defineOperation('patrol.task.page', {
    paramSchema: objectOf(taskFilterSchema),
    handler: async (context) => {
      const scope = await workScope(context);
      const page = await pageOf(context, TASKS, await taskWhere(context, scope));
      const userId = callerOf(context).userId;
      return { ...page, records: page.records.map((row) => taskRecord(row, scope, userId)) };
    },
  }),

  defineOperation('patrol.task.export', {
    paramSchema: objectOf(taskFilterSchema),
    handler: async (context) => {
      const scope = await workScope(context);
      const rows = await exportOf(context, TASKS, await taskWhere(context, scope));
      return exportFile(
        context,
        '巡检任务',
        [
          { title: '任务编号', value: (r: TaskRow) => r.code, width: 20 },
          { title: '任务名称', value: (r) => r.name, width: 28 },
          { title: '所属组织', value: (r) => r.organization_name, width: 22 },
          { title: '巡检人员', value: (r) => r.assignee_name ?? '' },
          { title: '计划开始', value: (r) => r.plan_start_at },
          { title: '计划结束', value: (r) => r.plan_end_at },
          { title: '状态', value: (r) => dictLabel('patrol_task_state', r.state) },
          { title: '设备数', value: (r) => r.device_count },
          { title: '已巡检', value: (r) => r.checked_count },
          { title: '异常数', value: (r) => r.abnormal_count },
          { title: '完成时间', value: (r) => r.completed_at },
        ],
        rows,
      );
    },
  }),

  defineOperation('patrol.task.detail', {
    paramSchema: objectOf({ code: workCodeSchema }, ['code']),
    handler: async (context) => {
      const scope = await workScope(context);
      const row = await findTask(context.db, scope, context.param.code, context.now);
      const devices = await context.db.query<{
        device_code: string;
        device_name: string | null;
        product_name: string | null;
        address: string | null;
        online_state: string | null;
        result: string | null;
        description: string | null;
        checked_at: Date | null;
        order_code: string | null;
      }>(
        `SELECT td.device_code, d.name AS device_name, p.name AS product_name, d.address, d.online_state, pr.result, pr.description, pr.checked_at, o.code AS order_code
           FROM patrol_task_device td
           LEFT JOIN device d ON d.code = td.device_code
           LEFT JOIN product p ON p.code = d.product_code
           LEFT JOIN patrol_record pr ON pr.task_id = td.task_id AND pr.device_code = td.device_code
           LEFT JOIN work_order o ON o.id = pr.repair_order_id
          WHERE td.task_id = $1 ORDER BY td.sort, td.device_code`,
        [row.id],
      );
      return {
        ...taskRecord(row, scope, callerOf(context).userId),
        deviceCodes: devices.map((device) => device.device_code),
        devices: devices.map((device) => ({
          deviceCode: device.device_code,
          deviceName: device.device_name ?? '',
          productName: device.product_name ?? '',
          address: device.address ?? '',
          onlineState: device.online_state ?? '',
          checked: device.result !== null,
          result: device.result ?? '',
          description: device.description ?? '',
          checkedTime: isoOrEmpty(device.checked_at),
          repairOrderCode: device.order_code ?? '',
        })),
        // The devices still to check, as the execute form fills them in.
        checks: devices
          .filter((device) => device.result === null)
          .map((device) => ({ deviceCode: device.device_code, deviceName: device.device_name ?? '', result: 'normal', description: '' })),
      };
    },
  }),

  defineOperation('patrol.task.insert', {
    paramSchema: objectOf({ task: taskFields }, ['task']),
    handler: async (context) => {
      const scope = await workScope(context);
      if (!manages(scope)) throw fail.forbidden();
      const { task } = context.param;
      return context.db.transaction(async (tx) => {
        const { place, start, end } = await checkTask(tx, scope, task, context.now, context.config.timeZone);
        const id = await nextId(tx, 'patrol_task');
        const code = workCode(CODE_PREFIX.patrol, id, context.now, context.config.timeZone);
        await tx.query(
          `INSERT INTO patrol_task (id, code, name, tenant_code, organization_code, assignee_id, creator_id, plan_start_at, plan_end_at, state, content, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10, $11, $11)`,
          [id, code, task.name, place.tenantCode, place.organizationCode, task.assigneeId ?? null, callerOf(context).userId, start, end, task.content ?? '', context.now],
        );
        await writeDevices(tx, id, task.deviceCodes);
        return { code };
      });
    },
  }),

  defineOperation('patrol.task.modify', {
    paramSchema: objectOf({ code: workCodeSchema, task: taskFields }, ['code', 'task']),
    handler: async (context) => {
      const scope = await workScope(context);
      if (!manages(scope)) throw fail.forbidden();
      const { task } = context.param;
      await context.db.transaction(async (tx) => {
        const row = await findTask(tx, scope, context.param.code, context.now, true);
        if (!untouched(row)) throw fail.conflict('巡检任务已开始或已完成，不能修改');
        const { place, start, end } = await checkTask(tx, scope, task, context.now, context.config.timeZone);
        await tx.query(
          `UPDATE patrol_task SET name = $2, tenant_code = $3, organization_code = $4, assignee_id = $5, plan_start_at = $6, plan_end_at = $7, content = $8, updated_at = $9
            WHERE id = $1`,
          [row.id, task.name, place.tenantCode, place.organizationCode, task.assigneeId ?? null, start, end, task.content ?? '', context.now],
        );
        await writeDevices(tx, row.id, task.deviceCodes);
      });
      return null;
    },
  }),

  defineOperation('patrol.task.delete', {
    paramSchema: objectOf({ code: workCodeSchema }, ['code']),
    handler: async (context) => {
      const scope = await workScope(context);
      if (!manages(scope)) throw fail.forbidden();
      await context.db.transaction(async (tx) => {
        const row = await findTask(tx, scope, context.param.code, context.now, true);
        if (!untouched(row)) throw fail.conflict('巡检任务已开始或已完成，不能删除');
        await tx.query('DELETE FROM patrol_task WHERE id = $1', [row.id]);
      });
      return null;
    },
  }),

  defineOperation('patrol.task.execute', {
    paramSchema: objectOf(
      {
        code: workCodeSchema,
        checks: schemaOf<CheckFields[]>({
          type: 'array',
          minItems: 1,
          maxItems: PATROL_DEVICE_LIMIT,
          items: checkFields,
        }),
      },
      ['code', 'checks'],
    ),
    handler: async (context) => {
      const scope = await workScope(context);
      const caller = callerOf(context);
      const { checks } = context.param;
      return context.db.transaction(async (tx) => {
        const row = await findTask(tx, scope, context.param.code, context.now, true);
        if (row.assignee_id !== caller.userId) throw fail.forbidden('只能执行指派给自己的巡检任务');
        if (row.stored_state === 'completed') throw fail.conflict('巡检任务已完成');
        const codes = checks.map((check) => check.deviceCode);
        if (new Set(codes).size !== codes.length) throw fail.badRequest('同一设备只能提交一次巡检结果');
        const planned = new Set((await tx.query<{ device_code: string }>('SELECT device_code FROM patrol_task_device WHERE task_id = $1', [row.id])).map((d) => d.device_code));
        if (codes.some((code) => !planned.has(code))) throw fail.badRequest('设备不在该巡检任务中');
        const [done] = await tx.query<{ device_code: string }>('SELECT device_code FROM patrol_record WHERE task_id = $1 AND device_code = ANY($2::text[]) ORDER BY array_position($2::text[], device_code) LIMIT 1', [row.id, codes]);
        if (done) throw fail.conflict(`设备 ${done.device_code} 已巡检`);
        if (checks.some((check) => check.result === 'abnormal' && !check.description?.trim())) throw fail.badRequest('请填写异常描述');
        const repairOrders: string[] = [];
        for (const check of checks) {
          let orderId: number | null = null;
          if (check.result === 'abnormal') {
            const order = await createRepairOrder(tx, context, scope, {
              title: `巡检异常·${check.deviceName || check.deviceCode}`,
              deviceCode: check.deviceCode,
              faultType: 'other',
              priority: 'high',
              description: check.description ?? '',
              source: 'patrol',
              sourceCode: row.code,
            });
            orderId = order.id;
            repairOrders.push(order.code);
          }
          await tx.query(
            'INSERT INTO patrol_record (task_id, device_code, result, description, patroller_id, repair_order_id, checked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
            [row.id, check.deviceCode, check.result, check.description ?? '', caller.userId, orderId, context.now],
          );
        }
        const finished = row.checked_count + checks.length >= row.device_count;
        const moved = await tx.query<{ id: number }>(
          `UPDATE patrol_task SET state = $2, started_at = coalesce(started_at, $3), completed_at = CASE WHEN $2 = 'completed' THEN $3 ELSE NULL END, updated_at = $3
            WHERE id = $1 AND state <> 'completed' RETURNING id`,
          [row.id, finished ? 'completed' : 'in_progress', context.now],
        );
        if (moved.length === 0) throw fail.conflict('巡检任务已完成');
        return { state: finished ? 'completed' : 'in_progress', repairOrderCodes: repairOrders };
      });
    },
  }),

  defineOperation('patrol.record.page', {
    paramSchema: RECORDS.paramSchema,
    handler: (context) => RECORDS.page(context),
  }),

  defineOperation('patrol.board.statistics', {
    paramSchema: boardSchema,
    handler: boardStatistics,
  }),
];
