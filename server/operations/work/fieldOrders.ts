import type { Queryable } from '../../db/database';
import { CODE_PREFIX, workCode, type Actor, type WorkOrderType } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import type { SheetColumn } from '../../http/spreadsheet';
import { exportFile } from '../../core/exports';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation, type OperationDefinition } from '../../core/operation';
import { objectOf, text, type ParamSchema, optionalPlainText, plainText, optionalTimeOf, optionalUserId, parseRange, workCodeSchema, orBlank } from '../../core/params';
import { NO_FORM, filledFormOf, formOf, resolveOrderForm, type OrderForm } from '../../domain/orderForms';
import { findWorkDevice, placeOrder, type WorkScope, workScope } from '../../core/workScope';
import { formDataSchema, formTemplateIdSchema, historyOf, nextId, optionalDeviceCode, orderExport, orderPage, orderRecord } from './workOrders';
import { actorOf, findOrder, writeHistory, type OrderRow } from '../../core/workOrders';
import { dictLabel } from '../../core/values';

/**
 * What construction (施工), engineering survey (勘察) and maintenance (维保) orders share: their
 * fields (with the dynamic form's template and values), where an order is placed, how it is
 * written and edited, and the list, detail and export operations.
 */

export interface FieldOrderFields {
  title: string;
  organizationCode?: string | null;
  deviceCode?: string | null;
  address?: string;
  description?: string;
  result?: string;
  planTime?: [string, string] | null;
  planStartTime?: string | null;
  deadline?: string | null;
  assigneeId?: number | null;
  maintenanceType?: string | null;
  finished?: boolean;
  formTemplateId?: number | null;
  formData?: Record<string, unknown> | null;
}

export const FIELD_ORDER_PROPERTIES = {
  title: plainText(64),
  organizationCode: orBlank(text(64, 1)),
  deviceCode: optionalDeviceCode,
  address: optionalPlainText(128),
  description: optionalPlainText(1000),
  result: optionalPlainText(1000),
  assigneeId: optionalUserId,
  formTemplateId: formTemplateIdSchema,
  formData: formDataSchema,
};

/** The organisation (and tenant) an order goes under: its device's, or the one chosen. */
export async function placement(db: Queryable, scope: WorkScope, fields: FieldOrderFields) {
  let device: { code: string; address: string } | null = null;
  let organization = fields.organizationCode || null;
  if (fields.deviceCode) {
    const found = await findWorkDevice(db, scope, fields.deviceCode);
    const [{ address }] = await db.query<{ address: string }>('SELECT address FROM device WHERE code = $1', [found.code]);
    device = { code: found.code, address };
    organization = found.organization_code;
  }
  if (!organization) throw fail.badRequest('请填写设备编码或选择组织');
  const place = await placeOrder(db, scope, organization);
  return { ...place, deviceCode: device?.code ?? null, address: fields.address || device?.address || '' };
}

/**
 * The dynamic form an order keeps after a save of `fields` (domain/orderForms.ts): the template
 * chosen (a published one of the order's kind and tenant) and the values, checked against it.
 * `finishing` (the assignee submits the work as done) requires the form filled.
 */
export function orderFormAfter(
  tx: Queryable,
  type: Exclude<WorkOrderType, 'repair'>,
  tenantCode: string,
  current: OrderForm,
  fields: Pick<FieldOrderFields, 'formTemplateId' | 'formData'>,
  finishing: boolean,
): Promise<OrderForm> {
  return resolveOrderForm(tx, { tenantCode, orderType: type, current, templateId: fields.formTemplateId, data: fields.formData, finishing });
}

/** Plan start and end: a window (planTime) or a start date and a deadline. */
export function planOf(fields: FieldOrderFields, timeZone: string): { start: Date | null; end: Date | null } {
  if (fields.planTime) {
    const [start, end] = parseRange(fields.planTime, 'planTime', timeZone);
    return { start, end };
  }
  const start = optionalTimeOf(fields.planStartTime, 'planStartTime', timeZone);
  const end = optionalTimeOf(fields.deadline, 'deadline', timeZone);
  if (start && end && end.getTime() < start.getTime()) throw fail.badRequest('截止时间须晚于计划开始时间');
  return { start, end };
}

/** Writes a new order, created and unassigned (the creation is recorded; assigning is a step of its own). */
export async function insertFieldOrder(
  tx: Queryable,
  context: OperationContext<unknown>,
  type: Exclude<WorkOrderType, 'repair'>,
  fields: FieldOrderFields,
  place: Awaited<ReturnType<typeof placement>>,
  form: OrderForm = NO_FORM,
): Promise<{ id: number; code: string }> {
  const caller = callerOf(context);
  const plan = planOf(fields, context.config.timeZone);
  const id = await nextId(tx, 'work_order');
  const code = workCode(CODE_PREFIX[type], id, context.now, context.config.timeZone);
  await tx.query(
    `INSERT INTO work_order (id, code, type, title, description, state, maintenance_type, tenant_code, organization_code, device_code, address,
                             creator_id, plan_start_at, deadline_at, result, form_template_id, form_template_version, form_data, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'created', $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17::jsonb, $18, $18)`,
    [
      id,
      code,
      type,
      fields.title,
      fields.description ?? '',
      fields.maintenanceType ?? null,
      place.tenantCode,
      place.organizationCode,
      place.deviceCode,
      place.address,
      caller.userId,
      plan.start,
      plan.end,
      fields.result ?? '',
      form.templateId,
      form.version,
      form.data === null ? null : JSON.stringify(form.data),
      context.now,
    ],
  );
  await writeHistory(tx, { orderId: id, action: 'create', from: null, to: 'created', operatorId: caller.userId, at: context.now });
  return { id, code };
}

/** Rewrites an order's editable fields and its dynamic form (as orderFormAfter settled it). */
export async function updateFieldOrder(
  tx: Queryable,
  row: OrderRow,
  fields: FieldOrderFields,
  place: Awaited<ReturnType<typeof placement>>,
  now: Date,
  timeZone: string,
  form: OrderForm = formOf(row),
): Promise<void> {
  const plan = planOf(fields, timeZone);
  await tx.query(
    `UPDATE work_order SET title = $2, description = $3, maintenance_type = $4, tenant_code = $5, organization_code = $6, device_code = $7, address = $8,
                           plan_start_at = $9, deadline_at = $10, result = $11, form_template_id = $12, form_template_version = $13, form_data = $14::jsonb, updated_at = $15
      WHERE id = $1`,
    [
      row.id,
      fields.title,
      fields.description ?? '',
      fields.maintenanceType ?? row.maintenance_type,
      place.tenantCode,
      place.organizationCode,
      place.deviceCode,
      place.address,
      plan.start,
      plan.end,
      fields.result ?? '',
      form.templateId,
      form.version,
      form.data === null ? null : JSON.stringify(form.data),
      now,
    ],
  );
}

/** A field order's record with the actions the caller may take on it. */
export type Capabilities = (row: OrderRow, actor: Actor) => Record<string, boolean>;

export interface FieldKind {
  type: Exclude<WorkOrderType, 'repair'>;
  /** The catalogue names of the list, detail and (when catalogued) export operations. */
  page: string;
  detail: string;
  export?: string;
  sheetTitle: string;
  filterSchema: Record<string, ParamSchema>;
  capabilities: Capabilities;
  columns: readonly SheetColumn<OrderRow>[];
}

/** The columns every field order export starts with. */
export const COMMON_COLUMNS: readonly SheetColumn<OrderRow>[] = [
  { title: '编号', value: (r) => r.code, width: 20 },
  { title: '名称', value: (r) => r.title, width: 28 },
  { title: '状态', value: (r) => dictLabel('work_order_state', r.state) },
  { title: '所属组织', value: (r) => r.organization_name, width: 22 },
  { title: '设备编码', value: (r) => r.device_code ?? '' },
  { title: '地址', value: (r) => r.address, width: 30 },
  { title: '负责人', value: (r) => r.assignee_name ?? '' },
  { title: '计划开始', value: (r) => r.plan_start_at },
  { title: '截止时间', value: (r) => r.deadline_at },
];


export function fieldReadOperations(kind: FieldKind): OperationDefinition[] {
  // Object.assign rather than spreads: the capabilities differ by kind (canAudit, canComplete …)
  // and a spread of their Record would drop them from the answer's type and contract (issue 23).
  const record = (context: OperationContext<unknown>, scope: WorkScope, row: OrderRow) => Object.assign(orderRecord(row, context.now), kind.capabilities(row, actorOf(context, scope, row)));
  return [
    defineOperation(kind.page, {
      paramSchema: objectOf(kind.filterSchema),
      handler: async (context) => {
        const scope = await workScope(context);
        const page = await orderPage(context, scope, kind.type, context.param);
        return { ...page, records: page.records.map((row) => record(context, scope, row)) };
      },
    }),
    ...(kind.export
      ? [
          defineOperation(kind.export, {
            paramSchema: objectOf(kind.filterSchema),
            handler: async (context) => {
              const scope = await workScope(context);
              const rows = await orderExport(context, scope, kind.type, context.param);
              return exportFile(context, kind.sheetTitle, kind.columns, rows);
            },
          }),
        ]
      : []),
    defineOperation(kind.detail, {
      paramSchema: objectOf({ code: workCodeSchema }, ['code']),
      handler: async (context) => {
        const scope = await workScope(context);
        const row = await findOrder(context.db, scope, kind.type, context.param.code);
        return Object.assign(record(context, scope, row), await filledFormOf(context.db, formOf(row)), { history: await historyOf(context.db, row.id) });
      },
    }),
  ];
}
