import type { Queryable, SqlParam } from '../../db/database';
import { organizationsWithin, tenantOf } from '../../domain/organizations';
import { USER_STATUS } from '../../domain/users';
import { ASSIGNEE_ROLES, FINISHED_STATES, PRIORITIES, WORK_ORDER_STATES, type WorkKind, type WorkOrderType } from '../../domain/workOrders';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, schemaOf, optionalEnumOf, optionalUserId, text, timeRange, orBlank, orNull, integerIn, deviceCode } from '../../core/params';
import { containing, exportOf, pageOf, type Listing, type Page } from '../../core/listQuery';
import type { WorkScope } from '../../core/workScope';
import { isoOrEmpty } from '../../core/values';
import { ORDER_COLUMNS, ORDER_FROM, orderWhere, priorityRank, type OrderFilter, type OrderRow } from '../../core/workOrders';

/**
 * What the work area's kinds of work order share: the record the console gets, the filters' schema
 * of a list, the history as the detail shows it, the staff an order may go to and the checks of times
 * and codes in `param`. The row itself, finding an order, its transitions and the assignee check
 * are core/workOrders.ts's (the brand pages' backlog reads them too), as are a list's filters and
 * WHERE (the tenant home counts the repair list under it).
 */

/** An optional device code: empty or null means none. */
export const optionalDeviceCode = orBlank(deviceCode);

/** A dynamic form's values as sent: flat, bounded, plain values (checked against the template in domain/orderForms.ts). */
export const formDataSchema = orNull(
  schemaOf<Record<string, unknown>>({
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
  }),
);
export const formTemplateIdSchema = orNull(integerIn(1, 2_147_483_647));

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

/** The next id of a table's serial, so that a code can carry it (WX2026112200042). */
export async function nextId(db: Queryable, table: 'work_order' | 'repair_report' | 'repair_batch' | 'patrol_task'): Promise<number> {
  const [row] = await db.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('${table}', 'id'))::int AS id`);
  return row.id;
}

export const ORDER_FILTER_SCHEMA = {
  keyword: text(64),
  state: optionalEnumOf(WORK_ORDER_STATES),
  priority: optionalEnumOf(PRIORITIES),
  organizationCode: text(64),
  assigneeId: optionalUserId,
  overdue: optionalEnumOf(['1', '0']),
  createTime: timeRange,
  planTime: timeRange,
};

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
  defineOperation('work.staff.list', {
    paramSchema: objectOf({ kind: enumOf(Object.keys(ASSIGNEE_ROLES) as WorkKind[]), keyword: text(32) }),
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

