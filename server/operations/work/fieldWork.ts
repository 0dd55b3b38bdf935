import type { Queryable } from '../../db/database';
import { STATE_REFUSES_ACTION, allows, type Actor, type Transition, type WorkKind, type WorkOrderState } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import type { SheetColumn } from '../../http/spreadsheet';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { flag, objectOf, optionalEnumOf, optionalPlainText, workCodeSchema, type ParamSchema } from '../../core/params';
import { NO_FORM, formOf } from '../../domain/orderForms';
import { manages, workScope, type WorkScope } from '../../core/workScope';
import { actorOf, checkAssignee, findOrder, transition, writeHistory, type OrderRow } from '../../core/workOrders';
import { FIELD_ORDER_PROPERTIES, fieldReadOperations, insertFieldOrder, orderFormAfter, placement, updateFieldOrder, type FieldOrderFields } from './fieldOrders';
import { ORDER_FILTER_SCHEMA } from './workOrders';

/**
 * Field work (外业): construction (施工) and engineering surveys (工程勘察) go the same way. An
 * administrator plans an order for an implementer, or the implementer registers the work himself;
 * the implementer records progress (in_progress) and finishes it (completed, audit pending); the
 * administrator approves it (audited) or sends it back (rejected) to be finished again. Finished
 * or approved work is not edited. One declaration per kind gives its operations.
 */
export interface FieldWork {
  type: Extract<WorkKind, 'construction' | 'exploration'>;
  /** The catalogue names of its operations. */
  page: string;
  detail: string;
  export: string;
  insert: string;
  modify: string;
  delete: string;
  audit: string;
  sheetTitle: string;
  /** The export's columns. */
  columns: readonly SheetColumn<OrderRow>[];
  /** The states in which an order is edited or deleted. */
  editable: readonly WorkOrderState[];
  transitions: { audit: Transition; reject: Transition };
  /** The fields of its kind besides FIELD_ORDER_PROPERTIES (its plan's times). */
  planFields: Record<string, ParamSchema>;
  /** Why a finished order is not edited, and not deleted. */
  refused: { modify: string; delete: string };
}

/**
 * The steps a save takes after the fields are written: an administrator (re)assigns; the
 * implementer starts the work or, with `finished`, hands it in for audit.
 */
async function followUp(
  tx: Queryable,
  context: OperationContext<unknown>,
  scope: WorkScope,
  row: Pick<OrderRow, 'id' | 'state' | 'assignee_id' | 'started_at' | 'tenant_code'>,
  fields: FieldOrderFields,
  kind: FieldWork['type'],
): Promise<void> {
  const caller = callerOf(context);
  const at = context.now;
  let state = row.state as WorkOrderState;
  if (manages(scope)) {
    const assigneeId = fields.assigneeId ?? null;
    if (assigneeId === row.assignee_id) return;
    if (assigneeId === null) {
      if (state !== 'assigned') throw fail.conflict('作业已开始，不能取消指派');
      await transition(tx, { id: row.id, state }, { action: 'modify', to: 'created', operatorId: caller.userId, at, set: { assignee_id: null, assigned_at: null }, remark: '取消指派' });
      return;
    }
    await checkAssignee(tx, row.tenant_code, assigneeId, kind);
    const [assignee] = await tx.query<{ user_name: string }>('SELECT user_name FROM app_user WHERE id = $1', [assigneeId]);
    await transition(tx, { id: row.id, state }, {
      action: 'assign',
      to: state === 'created' ? 'assigned' : state,
      operatorId: caller.userId,
      at,
      set: { assignee_id: assigneeId, assigned_at: at },
      remark: `指派给${assignee.user_name}`,
    });
    return;
  }
  const startedAt = row.started_at ?? at;
  if (state !== 'in_progress') {
    await transition(tx, { id: row.id, state }, { action: 'start', to: 'in_progress', operatorId: caller.userId, at, set: { started_at: startedAt } });
    state = 'in_progress';
  }
  if (fields.finished) {
    // Both go to the administrator's audit: construction is submitted, a survey concluded.
    await transition(tx, { id: row.id, state }, {
      action: kind === 'construction' ? 'submit' : 'complete',
      to: 'completed',
      operatorId: caller.userId,
      at,
      set: { completed_at: at, audit_state: 'pending' },
      remark: fields.result ?? '',
    });
  }
}

/** The list, detail, export, insert, modify, delete and audit operations of a kind of field work. */
export function fieldWorkOperations(work: FieldWork) {
  const editable = (state: string) => (work.editable as readonly string[]).includes(state);
  const capabilities = (row: OrderRow, actor: Actor) => ({
    canModify: editable(row.state) && (actor.manager || actor.assignee),
    canDelete: editable(row.state) && (actor.manager || actor.assignee),
    canAudit: allows(work.transitions.audit, row.state, actor),
    canFill: row.form_template_id !== null && editable(row.state) && actor.assignee,
  });
  const orderFields = objectOf({ ...FIELD_ORDER_PROPERTIES, ...work.planFields, finished: flag }, ['title']);
  // The plan's times are the kind's own: what the shared steps read of them is FieldOrderFields'.
  const fieldsOf = (order: unknown) => order as FieldOrderFields;

  return [
    ...fieldReadOperations({
      type: work.type,
      page: work.page,
      detail: work.detail,
      export: work.export,
      sheetTitle: work.sheetTitle,
      filterSchema: { ...ORDER_FILTER_SCHEMA, auditState: optionalEnumOf(['pending', 'approved', 'rejected']) },
      capabilities,
      columns: work.columns,
    }),

    defineOperation(work.insert, {
      paramSchema: objectOf({ order: orderFields }, ['order']),
      handler: async (context) => {
        const scope = await workScope(context);
        const caller = callerOf(context);
        const fields = fieldsOf(context.param.order);
        return context.db.transaction(async (tx) => {
          const place = await placement(tx, scope, fields);
          // The implementer registering his own work is its assignee.
          const assigneeId = manages(scope) ? (fields.assigneeId ?? null) : caller.userId;
          if (manages(scope) && assigneeId) await checkAssignee(tx, place.tenantCode, assigneeId, work.type);
          const form = await orderFormAfter(tx, work.type, place.tenantCode, NO_FORM, fields, !manages(scope) && fields.finished === true);
          const order = await insertFieldOrder(tx, context, work.type, fields, place, form);
          const created = { id: order.id, state: 'created', assignee_id: null, started_at: null, tenant_code: place.tenantCode };
          if (manages(scope)) await followUp(tx, context, scope, created, { ...fields, assigneeId }, work.type);
          else {
            await transition(tx, created, { action: 'assign', to: 'assigned', operatorId: caller.userId, at: context.now, set: { assignee_id: caller.userId, assigned_at: context.now } });
            await followUp(tx, context, scope, { ...created, state: 'assigned', assignee_id: caller.userId }, fields, work.type);
          }
          return { code: order.code };
        });
      },
    }),

    defineOperation(work.modify, {
      paramSchema: objectOf({ code: workCodeSchema, order: orderFields }, ['code', 'order']),
      handler: async (context) => {
        const scope = await workScope(context);
        const fields = fieldsOf(context.param.order);
        await context.db.transaction(async (tx) => {
          const row = await findOrder(tx, scope, work.type, context.param.code, true);
          if (!editable(row.state)) throw fail.conflict(work.refused.modify);
          const place = await placement(tx, scope, fields);
          const finishing = !manages(scope) && fields.finished === true;
          const form = await orderFormAfter(tx, work.type, place.tenantCode, formOf(row), fields, finishing);
          await updateFieldOrder(tx, row, fields, place, context.now, context.config.timeZone, form);
          await writeHistory(tx, { orderId: row.id, action: 'modify', from: row.state, to: row.state, operatorId: callerOf(context).userId, at: context.now });
          await followUp(tx, context, scope, row, fields, work.type);
        });
        return null;
      },
    }),

    defineOperation(work.delete, {
      paramSchema: objectOf({ code: workCodeSchema }, ['code']),
      handler: async (context) => {
        const scope = await workScope(context);
        await context.db.transaction(async (tx) => {
          const row = await findOrder(tx, scope, work.type, context.param.code, true);
          if (!editable(row.state)) throw fail.conflict(work.refused.delete);
          await tx.query('DELETE FROM work_order WHERE id = $1', [row.id]);
        });
        return null;
      },
    }),

    defineOperation(work.audit, {
      paramSchema: objectOf({ code: workCodeSchema, approved: flag, opinion: optionalPlainText(500) }, ['code', 'approved']),
      handler: async (context) => {
        const scope = await workScope(context);
        const { approved, opinion = '' } = context.param;
        await context.db.transaction(async (tx) => {
          const row = await findOrder(tx, scope, work.type, context.param.code, true);
          const actor = actorOf(context, scope, row);
          if (!actor.manager) throw fail.forbidden('只有管理人员可以审核');
          const rule = approved ? work.transitions.audit : work.transitions.reject;
          if (!allows(rule, row.state, actor)) throw fail.conflict(STATE_REFUSES_ACTION);
          if (!approved && !opinion.trim()) throw fail.badRequest('请填写驳回原因');
          await transition(tx, row, {
            action: approved ? 'audit' : 'reject',
            to: rule.to,
            operatorId: callerOf(context).userId,
            at: context.now,
            remark: opinion,
            set: approved
              ? { audit_state: 'approved', audit_opinion: opinion, audited_at: context.now }
              : { audit_state: 'rejected', audit_opinion: opinion, reject_reason: opinion },
          });
        });
        return null;
      },
    }),
  ];
}
