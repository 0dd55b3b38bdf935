import type { Queryable } from '../../db/database';
import { CONSTRUCTION_EDITABLE, CONSTRUCTION_TRANSITIONS, STATE_REFUSES_ACTION, allows, type Actor, type WorkKind, type WorkOrderState } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { flag, objectOf, schemaOf, optionalPlainText, timeRange, optionalEnumOf, workCodeSchema, orNull } from '../../core/params';
import { NO_FORM, formOf } from '../../domain/orderForms';
import { COMMON_COLUMNS, FIELD_ORDER_PROPERTIES, fieldReadOperations, insertFieldOrder, orderFormAfter, placement, updateFieldOrder, type FieldOrderFields } from './fieldOrders';
import { manages, workScope, type WorkScope } from '../../core/workScope';
import { ORDER_FILTER_SCHEMA } from './workOrders';
import { actorOf, checkAssignee, findOrder, transition, writeHistory, type OrderRow } from '../../core/workOrders';
import { dictLabel } from '../../core/values';

/**
 * Construction orders (施工): an administrator plans one for an implementer, or the implementer
 * registers the work himself. The constructor reports progress (in_progress) and submits the
 * finished work (completed, audit pending); the administrator approves it (audited) or sends it
 * back (rejected), and the constructor submits again. Submitted or approved work is not edited.
 */

const editable = (state: string) => (CONSTRUCTION_EDITABLE as readonly string[]).includes(state);

const capabilities = (row: OrderRow, actor: Actor) => ({
  canModify: editable(row.state) && (actor.manager || actor.assignee),
  canDelete: editable(row.state) && (actor.manager || actor.assignee),
  canAudit: allows(CONSTRUCTION_TRANSITIONS.audit, row.state, actor),
  canFill: row.form_template_id !== null && editable(row.state) && actor.assignee,
});

const orderFields = objectOf(
  { ...FIELD_ORDER_PROPERTIES, planTime: orNull(timeRange), finished: flag },
  ['title'],
);

/**
 * The steps a save takes after the fields are written: an administrator (re)assigns; the
 * constructor starts the work or, with `finished`, submits it for audit.
 */
export async function followUp(
  tx: Queryable,
  context: OperationContext<unknown>,
  scope: WorkScope,
  row: Pick<OrderRow, 'id' | 'state' | 'assignee_id' | 'started_at' | 'tenant_code'>,
  fields: FieldOrderFields,
  kind: Extract<WorkKind, 'construction' | 'exploration'>,
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

const constructionFilter = { ...ORDER_FILTER_SCHEMA, auditState: optionalEnumOf(['pending', 'approved', 'rejected']) };

export const constructionOperations = [
  ...fieldReadOperations({
    type: 'construction',
    page: 'construction.page',
    detail: 'construction.detail',
    export: 'construction.export',
    sheetTitle: '施工管理',
    filterSchema: constructionFilter,
    capabilities,
    columns: [
      ...COMMON_COLUMNS,
      { title: '审核状态', value: (r) => dictLabel('audit_state', r.audit_state) },
      { title: '提交时间', value: (r) => r.completed_at },
      { title: '施工情况', value: (r) => r.result, width: 36 },
    ],
  }),

  defineOperation('construction.insert', {
    paramSchema: objectOf({ order: orderFields }, ['order']),
    handler: async (context) => {
      const scope = await workScope(context);
      const caller = callerOf(context);
      const fields = context.param.order;
      return context.db.transaction(async (tx) => {
        const place = await placement(tx, scope, fields);
        // The constructor registering his own work is its assignee.
        const assigneeId = manages(scope) ? (fields.assigneeId ?? null) : caller.userId;
        if (manages(scope) && assigneeId) await checkAssignee(tx, place.tenantCode, assigneeId, 'construction');
        const form = await orderFormAfter(tx, 'construction', place.tenantCode, NO_FORM, fields, !manages(scope) && fields.finished === true);
        const order = await insertFieldOrder(tx, context, 'construction', fields, place, form);
        const created = { id: order.id, state: 'created', assignee_id: null, started_at: null, tenant_code: place.tenantCode };
        if (manages(scope)) await followUp(tx, context, scope, created, { ...fields, assigneeId }, 'construction');
        else {
          await transition(tx, created, { action: 'assign', to: 'assigned', operatorId: caller.userId, at: context.now, set: { assignee_id: caller.userId, assigned_at: context.now } });
          await followUp(tx, context, scope, { ...created, state: 'assigned', assignee_id: caller.userId }, fields, 'construction');
        }
        return { code: order.code };
      });
    },
  }),

  defineOperation('construction.modify', {
    paramSchema: objectOf({ code: workCodeSchema, order: orderFields }, ['code', 'order']),
    handler: async (context) => {
      const scope = await workScope(context);
      await context.db.transaction(async (tx) => {
        const row = await findOrder(tx, scope, 'construction', context.param.code, true);
        if (!editable(row.state)) throw fail.conflict('施工单已提交审核或已审核，不能修改');
        const place = await placement(tx, scope, context.param.order);
        const finishing = !manages(scope) && context.param.order.finished === true;
        const form = await orderFormAfter(tx, 'construction', place.tenantCode, formOf(row), context.param.order, finishing);
        await updateFieldOrder(tx, row, context.param.order, place, context.now, context.config.timeZone, form);
        await writeHistory(tx, { orderId: row.id, action: 'modify', from: row.state, to: row.state, operatorId: callerOf(context).userId, at: context.now });
        await followUp(tx, context, scope, row, context.param.order, 'construction');
      });
      return null;
    },
  }),

  defineOperation('construction.delete', {
    paramSchema: objectOf({ code: workCodeSchema }, ['code']),
    handler: async (context) => {
      const scope = await workScope(context);
      await context.db.transaction(async (tx) => {
        const row = await findOrder(tx, scope, 'construction', context.param.code, true);
        if (!editable(row.state)) throw fail.conflict('施工单已提交审核或已审核，不能删除');
        await tx.query('DELETE FROM work_order WHERE id = $1', [row.id]);
      });
      return null;
    },
  }),

  defineOperation('construction.audit', {
    paramSchema: objectOf({ code: workCodeSchema, approved: schemaOf<boolean>({ type: 'boolean' }), opinion: optionalPlainText(500) }, ['code', 'approved']),
    handler: async (context) => {
      const scope = await workScope(context);
      const { approved, opinion = '' } = context.param;
      await context.db.transaction(async (tx) => {
        const row = await findOrder(tx, scope, 'construction', context.param.code, true);
        const actor = actorOf(context, scope, row);
        if (!actor.manager) throw fail.forbidden('只有管理人员可以审核');
        const rule = approved ? CONSTRUCTION_TRANSITIONS.audit : CONSTRUCTION_TRANSITIONS.reject;
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
