import type { Queryable, SqlParam } from '../../db/database';
import { organizationsWithin, tenantOf } from '../../domain/organizations';
import { USER_STATUS } from '../../domain/users';
import { ASSIGNEE_ROLES, FINISHED_STATES, PRIORITIES, STATE_REFUSES_ACTION, WORK_ORDER_STATES, type Actor, type WorkKind, type WorkOrderType } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, optionalEnumOf, optionalUserId, parseRange, text, timeRange, type ParamSchema } from '../../core/params';
import { Conditions, containing, exportOf, pageOf, type Listing, type Page } from '../listQuery';
import { manages, organizationFilter, workScopeClause, type WorkScope } from '../../core/workScope';
import { isoOrEmpty } from '../../core/values';

/**
 * What every kind of work order shares: the row as read with its names, the record the console
 * gets, the filters of a list, the history of transitions, the people an order may be assigned to
 * and the checks of times and codes in `param`.
 */

export const DEVICE_CODE: ParamSchema = { type: 'string', pattern: '^[A-Za-z0-9]{12}$' };
/** An optional device code: empty or null means none. */
export const optionalDeviceCode: ParamSchema = { anyOf: [DEVICE_CODE, { type: 'string', maxLength: 0 }, { type: 'null' }] };

/** A dynamic form's values as sent: flat, bounded, plain values (checked against the template in domain/orderForms.ts). */
export const formDataSchema: ParamSchema = {
  anyOf: [
    {
      type: 'object',
      maxProperties: 100,
      propertyNames: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
      additionalProperties: {
        anyOf: [
          { type: 'string', maxLength: 2000 },
          { type: 'number' },
          { type: 'boolean' },
          { type: 'null' },
          { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 500 } },
        ],
      },
    },
    { type: 'null' },
  ],
};
export const formTemplateIdSchema: ParamSchema = { anyOf: [{ type: 'integer', minimum: 1, maximum: 2_147_483_647 }, { type: 'null' }] };

/** A work_order row with the names the lists show. */
export interface OrderRow {
  id: number;
  code: string;
  type: WorkOrderType;
  title: string;
  description: string;
  state: string;
  source: string;
  source_code: string | null;
  priority: string;
  fault_type: string | null;
  maintenance_type: string | null;
  tenant_code: string;
  organization_code: string;
  organization_name: string;
  device_code: string | null;
  device_name: string | null;
  product_name: string | null;
  address: string;
  contact_name: string;
  contact_phone: string;
  batch_id: number | null;
  batch_code: string | null;
  creator_id: number | null;
  creator_name: string | null;
  assignee_id: number | null;
  assignee_name: string | null;
  assignee_phone: string | null;
  plan_start_at: Date | null;
  deadline_at: Date | null;
  assigned_at: Date | null;
  accepted_at: Date | null;
  started_at: Date | null;
  completed_at: Date | null;
  audited_at: Date | null;
  closed_at: Date | null;
  result: string;
  fault_cause: string;
  cost: string | null;
  audit_state: string | null;
  audit_opinion: string;
  reject_reason: string;
  close_reason: string;
  form_template_id: number | null;
  form_template_version: number | null;
  form_data: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

// The names shown with an order are looked up one by one (scalar subqueries) rather than joined:
// a join of seven tables costs PostgreSQL about 4 ms to plan, three times what reading a page of
// orders takes, while each lookup is planned on its own in a few microseconds (issue 19).
export const ORDER_FROM = `work_order o
  LEFT JOIN device d ON d.code = o.device_code
  LEFT JOIN app_user au ON au.id = o.assignee_id`;

const ORDER_COLUMNS = `o.*, (SELECT name FROM organization WHERE code = o.organization_code) AS organization_name, d.name AS device_name,
         (SELECT name FROM product WHERE code = d.product_code) AS product_name, (SELECT code FROM repair_batch WHERE id = o.batch_id) AS batch_code,
         (SELECT user_name FROM app_user WHERE id = o.creator_id) AS creator_name, au.user_name AS assignee_name, au.phone AS assignee_phone`;

export const ORDER_SELECT = `
  SELECT ${ORDER_COLUMNS}
    FROM ${ORDER_FROM}`;

/** Open and past its deadline. */
export function isOverdue(row: Pick<OrderRow, 'state' | 'deadline_at'>, now: Date): boolean {
  return row.deadline_at !== null && row.deadline_at.getTime() < now.getTime() && !(FINISHED_STATES as readonly string[]).includes(row.state);
}

/** The record of a work order as every list and detail page reads it. */
export function orderRecord(row: OrderRow, now: Date) {
  return {
    id: row.id,
    code: row.code,
    type: row.type,
    title: row.title,
    description: row.description,
    state: row.state,
    source: row.source,
    sourceCode: row.source_code ?? '',
    priority: row.priority,
    faultType: row.fault_type ?? '',
    maintenanceType: row.maintenance_type ?? '',
    tenantCode: row.tenant_code,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    deviceCode: row.device_code ?? '',
    deviceName: row.device_name ?? '',
    productName: row.product_name ?? '',
    address: row.address,
    contactName: row.contact_name,
    contactPhone: row.contact_phone,
    batchCode: row.batch_code ?? '',
    creatorName: row.creator_id === null ? '系统' : (row.creator_name ?? ''),
    assigneeId: row.assignee_id,
    assigneeName: row.assignee_name ?? '',
    assigneePhone: row.assignee_phone ?? '',
    planStartTime: isoOrEmpty(row.plan_start_at),
    deadline: isoOrEmpty(row.deadline_at),
    planTime: row.plan_start_at && row.deadline_at ? [isoOrEmpty(row.plan_start_at), isoOrEmpty(row.deadline_at)] : null,
    overdue: isOverdue(row, now),
    assignTime: isoOrEmpty(row.assigned_at),
    acceptTime: isoOrEmpty(row.accepted_at),
    startTime: isoOrEmpty(row.started_at),
    completeTime: isoOrEmpty(row.completed_at),
    auditTime: isoOrEmpty(row.audited_at),
    closeTime: isoOrEmpty(row.closed_at),
    result: row.result,
    faultCause: row.fault_cause,
    cost: row.cost === null ? null : Number(row.cost),
    auditState: row.audit_state ?? '',
    auditOpinion: row.audit_opinion,
    rejectReason: row.reject_reason,
    closeReason: row.close_reason,
    formTemplateId: row.form_template_id,
    formTemplateVersion: row.form_template_version,
    formData: row.form_data,
    createTime: isoOrEmpty(row.created_at),
    updateTime: isoOrEmpty(row.updated_at),
  };
}

/** The caller's relation to an order. */
export function actorOf(context: OperationContext<unknown>, scope: WorkScope, row: Pick<OrderRow, 'assignee_id'>): Actor {
  return { manager: manages(scope), assignee: row.assignee_id !== null && row.assignee_id === callerOf(context).userId };
}

const NOT_FOUND: Record<WorkOrderType, string> = {
  repair: '工单不存在',
  construction: '施工单不存在',
  exploration: '勘察单不存在',
  maintenance: '维保单不存在',
};

/** The order `code` of `type` within scope, locked for update inside a transaction ("404" otherwise). */
export async function findOrder(db: Queryable, scope: WorkScope, type: WorkOrderType, code: string, lock = false): Promise<OrderRow> {
  const params: SqlParam[] = [type, code];
  const clause = workScopeClause(scope, params, 'o');
  if (lock) await db.query(`SELECT 1 FROM work_order o WHERE o.type = $1 AND o.code = $2 AND ${clause} FOR UPDATE`, params);
  const [row] = await db.query<OrderRow>(`${ORDER_SELECT} WHERE o.type = $1 AND o.code = $2 AND ${clause}`, params);
  if (!row) throw fail.notFound(NOT_FOUND[type]);
  return row;
}

/** Records one step of an order's life. */
export async function writeHistory(
  db: Queryable,
  entry: { orderId: number; action: string; from: string | null; to: string; operatorId: number | null; remark?: string; at: Date },
): Promise<void> {
  await db.query('INSERT INTO work_order_history (order_id, action, from_state, to_state, operator_id, remark, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
    entry.orderId,
    entry.action,
    entry.from,
    entry.to,
    entry.operatorId,
    entry.remark ?? '',
    entry.at,
  ]);
}

/** An order's history, oldest first, for its detail page. */
export async function historyOf(db: Queryable, orderId: number) {
  const rows = await db.query<{ id: number; action: string; from_state: string | null; to_state: string; operator_id: number | null; operator_name: string | null; remark: string; created_at: Date }>(
    `SELECT h.id, h.action, h.from_state, h.to_state, h.operator_id, u.user_name AS operator_name, h.remark, h.created_at
       FROM work_order_history h LEFT JOIN app_user u ON u.id = h.operator_id
      WHERE h.order_id = $1 ORDER BY h.created_at, h.id`,
    [orderId],
  );
  return rows.map((row) => ({
    id: row.id,
    action: row.action,
    fromState: row.from_state ?? '',
    toState: row.to_state,
    operatorName: row.operator_id === null ? '系统' : (row.operator_name ?? ''),
    remark: row.remark,
    time: row.created_at.toISOString(),
  }));
}

/**
 * Moves an order from the state it was read in (`row.state`) to `to`, stamping the time column of
 * the step, and records it. The write is conditional on that state: when the order has moved
 * meanwhile nothing is written and the step is refused ("409" 当前状态不允许该操作).
 */
export async function transition(
  db: Queryable,
  row: Pick<OrderRow, 'id' | 'state'>,
  step: { action: string; to: string; operatorId: number; remark?: string; at: Date; set?: Record<string, SqlParam> },
): Promise<void> {
  const assignments = ['state = $2', 'updated_at = $3'];
  const params: SqlParam[] = [row.id, step.to, step.at, row.state];
  for (const [column, value] of Object.entries(step.set ?? {})) {
    if (!/^[a-z_]+$/.test(column)) throw new Error(`not a column: ${column}`);
    params.push(value);
    assignments.push(`${column} = $${params.length}`);
  }
  const moved = await db.query<{ id: number }>(`UPDATE work_order SET ${assignments.join(', ')} WHERE id = $1 AND state = $4 RETURNING id`, params);
  if (moved.length === 0) throw fail.conflict(STATE_REFUSES_ACTION);
  await writeHistory(db, { orderId: row.id, action: step.action, from: row.state, to: step.to, operatorId: step.operatorId, remark: step.remark, at: step.at });
}

/** The next id of a table's serial, so that a code can carry it (WX2026112200042). */
export async function nextId(db: Queryable, table: 'work_order' | 'repair_report' | 'repair_batch' | 'patrol_task'): Promise<number> {
  const [row] = await db.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('${table}', 'id'))::int AS id`);
  return row.id;
}

/**
 * `userId` may receive `kind` work of `tenantCode`: an active user of that tenant holding one of
 * the kind's roles ("400" 指派人员无效 otherwise).
 */
export async function checkAssignee(db: Queryable, tenantCode: string, userId: number, kind: WorkKind): Promise<void> {
  const organizations = (await organizationsWithin(db, [tenantCode])).map((org) => org.code);
  const [row] = await db.query<{ id: number }>(
    `SELECT u.id FROM app_user u
      WHERE u.id = $1 AND u.status = $2
        AND EXISTS (SELECT 1 FROM user_role ur WHERE ur.user_id = u.id AND ur.role_code = ANY($3::text[]))
        AND EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = u.id AND uo.organization_code = ANY($4::text[]))`,
    [userId, USER_STATUS.active, [...ASSIGNEE_ROLES[kind]], organizations],
  );
  if (!row) throw fail.badRequest('指派人员无效：须为本租户在职且具备相应角色的人员');
}

/** The filters work order lists share (each kind's schema picks its own). */
export interface OrderFilter {
  keyword?: string;
  state?: string;
  priority?: string;
  source?: string;
  faultType?: string;
  maintenanceType?: string;
  auditState?: string;
  organizationCode?: string;
  assigneeId?: number | null;
  batchCode?: string;
  overdue?: string;
  createTime?: [string, string];
  planTime?: [string, string];
}

export const ORDER_FILTER_SCHEMA: Record<string, ParamSchema> = {
  keyword: text(64),
  state: optionalEnumOf(WORK_ORDER_STATES),
  priority: optionalEnumOf(PRIORITIES),
  organizationCode: text(64),
  assigneeId: optionalUserId,
  overdue: optionalEnumOf(['1', '0']),
  createTime: timeRange,
  planTime: timeRange,
};

/** WHERE of a work order list: type, scope, then each filter given. */
export async function orderWhere(db: Queryable, scope: WorkScope, type: WorkOrderType, filter: OrderFilter, now: Date, timeZone: string): Promise<Conditions> {
  const where = new Conditions().add('o.type = $?', type);
  where.add(workScopeClause(scope, where.params, 'o'));
  where.when(filter.keyword, "(o.code ILIKE $? OR o.title ILIKE $? OR coalesce(o.device_code, '') ILIKE $? OR coalesce(d.name, '') ILIKE $?)", (v) => containing(String(v)));
  for (const [key, column] of [
    ['state', 'o.state'],
    ['priority', 'o.priority'],
    ['source', 'o.source'],
    ['faultType', 'o.fault_type'],
    ['maintenanceType', 'o.maintenance_type'],
    ['auditState', 'o.audit_state'],
  ] as const) {
    where.when(filter[key], `${column} = $?`);
  }
  if (filter.organizationCode) where.add('o.organization_code = ANY($?::text[])', await organizationFilter(db, scope, filter.organizationCode));
  where.when(filter.assigneeId, 'o.assignee_id = $?');
  where.when(filter.batchCode, 'b.code = $?');
  if (filter.overdue) {
    where.params.push(now, [...FINISHED_STATES]);
    const overdue = `(o.deadline_at IS NOT NULL AND o.deadline_at < $${where.params.length - 1} AND NOT (o.state = ANY($${where.params.length}::text[])))`;
    where.add(filter.overdue === '1' ? overdue : `NOT ${overdue}`);
  }
  if (filter.createTime) {
    const [start, end] = parseRange(filter.createTime, 'createTime', timeZone);
    where.add('o.created_at >= $?', start).add('o.created_at <= $?', end);
  }
  if (filter.planTime) {
    const [start, end] = parseRange(filter.planTime, 'planTime', timeZone);
    where.add('o.plan_start_at >= $?', start).add('o.plan_start_at <= $?', end);
  }
  return where;
}

/**
 * Most urgent first, as a number the sort compares. A CASE, not array_position over a text array:
 * that cost about 16 µs a row, most of 品牌待办's 80 ms over the bench's large world.
 */
export const priorityRank = (column: string): string => `CASE ${column} WHEN 'urgent' THEN 1 WHEN 'high' THEN 2 WHEN 'normal' THEN 3 WHEN 'low' THEN 4 END`;

export const ORDER_SORTS: Readonly<Record<string, string>> = {
  code: 'o.code',
  createTime: 'o.created_at',
  deadline: 'o.deadline_at',
  planStartTime: 'o.plan_start_at',
  completeTime: 'o.completed_at',
  state: 'o.state',
  priority: priorityRank('o.priority'),
};

/**
 * The work order lists over listQuery: the WHERE, the count and the page's choice of rows read
 * work_order alone (with the device or the batch when a filter names them); the organisation,
 * product and people's names are joined for the page's rows only.
 */
const ORDER_LISTING: Listing<OrderRow, OrderRow> = {
  from: ORDER_FROM,
  narrowFrom: (needed) =>
    [
      'work_order o',
      /\bd\./.test(needed) ? 'LEFT JOIN device d ON d.code = o.device_code' : '',
      /\bb\./.test(needed) ? 'LEFT JOIN repair_batch b ON b.id = o.batch_id' : '',
    ]
      .filter(Boolean)
      .join(' '),
  key: 'o.id',
  columns: ORDER_COLUMNS,
  sorts: ORDER_SORTS,
  fallback: 'o.created_at DESC, o.id DESC',
  record: (row) => row,
};

/** One page of the work orders of `type` (listQuery's count: an estimate past EXACT_COUNT_LIMIT). */
export async function orderPage(context: OperationContext<unknown>, scope: WorkScope, type: WorkOrderType, filter: OrderFilter): Promise<Page<OrderRow>> {
  return pageOf(context, ORDER_LISTING, await orderWhere(context.db, scope, type, filter, context.now, context.config.timeZone));
}

/** The work orders of `type` for an export (past the spreadsheet limit refused by spreadsheet()), in the list's order. */
export async function orderExport(context: OperationContext<unknown>, scope: WorkScope, type: WorkOrderType, filter: OrderFilter): Promise<OrderRow[]> {
  return exportOf(context, ORDER_LISTING, await orderWhere(context.db, scope, type, filter, context.now, context.config.timeZone));
}

/** Staff who may receive `kind` work, for the assignee pickers. */
export const staffOperations = [
  defineOperation<{ kind?: WorkKind; keyword?: string }>('work.staff.list', {
    paramSchema: objectOf({ kind: enumOf(Object.keys(ASSIGNEE_ROLES)), keyword: text(32) }),
    handler: async (context) => {
      const caller = callerOf(context);
      const home = context.organizationCode ?? caller.organizationCodes[0];
      const tenantCode = home ? await tenantOf(context.db, home) : null;
      // Platform staff above the tenants pick among every tenant's staff.
      const roots = tenantCode ? [tenantCode] : home ? [home] : [];
      const organizations = (await organizationsWithin(context.db, roots)).map((org) => org.code);
      const roles = [...ASSIGNEE_ROLES[context.param.kind ?? 'repair']];
      const params: SqlParam[] = [USER_STATUS.active, roles, organizations];
      let keyword = '';
      if (context.param.keyword) {
        params.push(containing(context.param.keyword));
        keyword = ` AND (u.user_name ILIKE $4 OR u.login_name ILIKE $4)`;
      }
      const rows = await context.db.query<{ id: number; user_name: string; role_name: string; organization_name: string }>(
        `SELECT u.id, u.user_name,
                (SELECT r.name FROM user_role ur JOIN role r ON r.code = ur.role_code WHERE ur.user_id = u.id AND ur.role_code = ANY($2::text[]) ORDER BY r.sort LIMIT 1) AS role_name,
                (SELECT o.name FROM user_organization uo JOIN organization o ON o.code = uo.organization_code WHERE uo.user_id = u.id ORDER BY uo.sort LIMIT 1) AS organization_name
           FROM app_user u
          WHERE u.status = $1
            AND EXISTS (SELECT 1 FROM user_role ur WHERE ur.user_id = u.id AND ur.role_code = ANY($2::text[]))
            AND EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = u.id AND uo.organization_code = ANY($3::text[]))${keyword}
          ORDER BY u.user_name, u.id LIMIT 200`,
        params,
      );
      // A picker's answer: who (id) and a name to show, nothing personal (no phone, mail or account).
      return rows.map((row) => ({
        id: row.id,
        name: `${row.user_name}（${row.role_name}·${row.organization_name}）`,
        userName: row.user_name,
      }));
    },
  }),
];

