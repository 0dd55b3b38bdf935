import { EXPLORATION_EDITABLE, EXPLORATION_TRANSITIONS, STATE_REFUSES_ACTION, allows, type Actor } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import { callerOf } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { flag, objectOf, schemaOf, optionalPlainText, optionalTime, optionalEnumOf, workCodeSchema } from '../../core/params';
import { NO_FORM, formOf } from '../../domain/orderForms';
import { followUp } from './construction';
import { COMMON_COLUMNS, FIELD_ORDER_PROPERTIES, fieldReadOperations, insertFieldOrder, orderFormAfter, placement, updateFieldOrder } from './fieldOrders';
import { manages, workScope } from '../../core/workScope';
import { ORDER_FILTER_SCHEMA } from './workOrders';
import { actorOf, checkAssignee, findOrder, transition, writeHistory, type OrderRow } from '../../core/workOrders';
import { dictLabel } from '../../core/values';

/**
 * Engineering surveys (工程勘察): before devices are installed somewhere, an implementer goes to
 * look. An administrator plans the survey (a place, a date, a surveyor, the survey form to fill)
 * or the surveyor registers one; the surveyor records findings (in_progress), fills the survey
 * form and concludes (completed, audit pending). The administrator approves the survey (audited)
 * or sends it back (rejected) to be concluded again. A concluded survey is no longer edited.
 */

const editable = (state: string) => (EXPLORATION_EDITABLE as readonly string[]).includes(state);

const capabilities = (row: OrderRow, actor: Actor) => ({
  canModify: editable(row.state) && (actor.manager || actor.assignee),
  canDelete: editable(row.state) && (actor.manager || actor.assignee),
  canAudit: allows(EXPLORATION_TRANSITIONS.audit, row.state, actor),
  canFill: row.form_template_id !== null && editable(row.state) && actor.assignee,
});

const orderFields = objectOf({ ...FIELD_ORDER_PROPERTIES, planStartTime: optionalTime, deadline: optionalTime, finished: flag }, ['title']);

export const explorationOperations = [
  ...fieldReadOperations({
    type: 'exploration',
    page: 'exploration.page',
    detail: 'exploration.detail',
    export: 'exploration.export',
    sheetTitle: '工程勘察',
    filterSchema: { ...ORDER_FILTER_SCHEMA, auditState: optionalEnumOf(['pending', 'approved', 'rejected']) },
    capabilities,
    columns: [
      ...COMMON_COLUMNS,
      { title: '完成时间', value: (r) => r.completed_at },
      { title: '勘察结论', value: (r) => r.result, width: 36 },
      { title: '审核状态', value: (r) => dictLabel('audit_state', r.audit_state) },
    ],
  }),

  defineOperation('exploration.insert', {
    paramSchema: objectOf({ order: orderFields }, ['order']),
    handler: async (context) => {
      const scope = await workScope(context);
      const caller = callerOf(context);
      const fields = context.param.order;
      return context.db.transaction(async (tx) => {
        const place = await placement(tx, scope, fields);
        const assigneeId = manages(scope) ? (fields.assigneeId ?? null) : caller.userId;
        if (manages(scope) && assigneeId) await checkAssignee(tx, place.tenantCode, assigneeId, 'exploration');
        const form = await orderFormAfter(tx, 'exploration', place.tenantCode, NO_FORM, fields, !manages(scope) && fields.finished === true);
        const order = await insertFieldOrder(tx, context, 'exploration', fields, place, form);
        const created = { id: order.id, state: 'created', assignee_id: null, started_at: null, tenant_code: place.tenantCode };
        if (manages(scope)) await followUp(tx, context, scope, created, { ...fields, assigneeId }, 'exploration');
        else {
          await transition(tx, created, { action: 'assign', to: 'assigned', operatorId: caller.userId, at: context.now, set: { assignee_id: caller.userId, assigned_at: context.now } });
          await followUp(tx, context, scope, { ...created, state: 'assigned', assignee_id: caller.userId }, fields, 'exploration');
        }
        return { code: order.code };
      });
    },
  }),

  defineOperation('exploration.modify', {
    paramSchema: objectOf({ code: workCodeSchema, order: orderFields }, ['code', 'order']),
    handler: async (context) => {
      const scope = await workScope(context);
      await context.db.transaction(async (tx) => {
        const row = await findOrder(tx, scope, 'exploration', context.param.code, true);
        if (!editable(row.state)) throw fail.conflict('勘察已完成，不能修改');
        const place = await placement(tx, scope, context.param.order);
        const finishing = !manages(scope) && context.param.order.finished === true;
        const form = await orderFormAfter(tx, 'exploration', place.tenantCode, formOf(row), context.param.order, finishing);
        await updateFieldOrder(tx, row, context.param.order, place, context.now, context.config.timeZone, form);
        await writeHistory(tx, { orderId: row.id, action: 'modify', from: row.state, to: row.state, operatorId: callerOf(context).userId, at: context.now });
        await followUp(tx, context, scope, row, context.param.order, 'exploration');
      });
      return null;
    },
  }),

  defineOperation('exploration.delete', {
    paramSchema: objectOf({ code: workCodeSchema }, ['code']),
    handler: async (context) => {
      const scope = await workScope(context);
      await context.db.transaction(async (tx) => {
        const row = await findOrder(tx, scope, 'exploration', context.param.code, true);
        if (!editable(row.state)) throw fail.conflict('勘察已完成，不能删除');
        await tx.query('DELETE FROM work_order WHERE id = $1', [row.id]);
      });
      return null;
    },
  }),

  defineOperation('exploration.audit', {
    paramSchema: objectOf({ code: workCodeSchema, approved: schemaOf<boolean>({ type: 'boolean' }), opinion: optionalPlainText(500) }, ['code', 'approved']),
    handler: async (context) => {
      const scope = await workScope(context);
      const { approved, opinion = '' } = context.param;
      await context.db.transaction(async (tx) => {
        const row = await findOrder(tx, scope, 'exploration', context.param.code, true);
        const actor = actorOf(context, scope, row);
        if (!actor.manager) throw fail.forbidden('只有管理人员可以审核');
        const rule = approved ? EXPLORATION_TRANSITIONS.audit : EXPLORATION_TRANSITIONS.reject;
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
