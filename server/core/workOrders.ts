import type { Queryable, SqlParam } from '../db/database';
import { bind } from '../db/parameters';
import { organizationsWithin } from '../domain/organizations';
import { USER_STATUS } from '../domain/users';
import { ASSIGNEE_ROLES, FINISHED_STATES, STATE_REFUSES_ACTION, type Actor, type WorkKind, type WorkOrderType } from '../domain/workOrders';
import { fail } from '../http/envelope';
import { callerOf, type OperationContext } from './context';
import { Conditions, containing } from './listQuery';
import { parseRange } from './params';
import { manages, organizationFilter, workScopeClause, type WorkScope } from './workScope';

/**
 * A work order as every area reads and moves it (issue 32: the work area's order kinds and the
 * brand pages' backlog ask here rather than one another): the row with its names, the caller's
 * relation to it, finding it in scope, moving it from one state to the next with its history, the
 * people it may be assigned to, the order of priorities, and a list's filters and WHERE (the tenant
 * home counts the lists under their own WHERE).
 */

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

export const ORDER_COLUMNS = `o.*, (SELECT name FROM organization WHERE code = o.organization_code) AS organization_name, d.name AS device_name,
         (SELECT name FROM product WHERE code = d.product_code) AS product_name, (SELECT code FROM repair_batch WHERE id = o.batch_id) AS batch_code,
         (SELECT user_name FROM app_user WHERE id = o.creator_id) AS creator_name, au.user_name AS assignee_name, au.phone AS assignee_phone`;

export const ORDER_SELECT = `
  SELECT ${ORDER_COLUMNS}
    FROM ${ORDER_FROM}`;

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
export async function writeHistory(db: Queryable, entry: { orderId: number; action: string; from: string | null; to: string; operatorId: number | null; remark?: string; at: Date }): Promise<void> {
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
    assignments.push(`${column} = ${bind(params, value)}`);
  }
  const moved = await db.query<{ id: number }>(`UPDATE work_order SET ${assignments.join(', ')} WHERE id = $1 AND state = $4 RETURNING id`, params);
  if (moved.length === 0) throw fail.conflict(STATE_REFUSES_ACTION);
  await writeHistory(db, { orderId: row.id, action: step.action, from: row.state, to: step.to, operatorId: step.operatorId, remark: step.remark, at: step.at });
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

/**
 * Most urgent first, as a number the sort compares. A CASE, not array_position over a text array:
 * that cost about 16 µs a row, most of 品牌待办's 80 ms over the bench's large world.
 */
export const priorityRank = (column: string): string => `CASE ${column} WHEN 'urgent' THEN 1 WHEN 'high' THEN 2 WHEN 'normal' THEN 3 WHEN 'low' THEN 4 END`;

/** The filters work order lists share (each kind's schema picks its own; '' and null filter nothing). */
export interface OrderFilter {
  keyword?: string;
  state?: string | null;
  priority?: string | null;
  source?: string | null;
  faultType?: string | null;
  maintenanceType?: string | null;
  auditState?: string | null;
  organizationCode?: string;
  assigneeId?: number | null;
  batchCode?: string;
  overdue?: string | null;
  createTime?: [string, string];
  planTime?: [string, string];
}

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
    const overdue = `(o.deadline_at IS NOT NULL AND o.deadline_at < ${where.ref(now)} AND NOT (o.state = ANY(${where.ref([...FINISHED_STATES])}::text[])))`;
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
