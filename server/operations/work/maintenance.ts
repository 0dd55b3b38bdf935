import { MAINTENANCE_EDITABLE, MAINTENANCE_TRANSITIONS, MAINTENANCE_TYPES, STATE_REFUSES_ACTION, allows, type Actor } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import { callerOf } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, plainText, optionalTime, enumOf, optionalEnumOf, userIdSchema, workCodeSchema, orNull, numberIn } from '../../core/params';
import { NO_FORM, formOf, resolveOrderForm } from '../../domain/orderForms';
import { COMMON_COLUMNS, FIELD_ORDER_PROPERTIES, fieldReadOperations, insertFieldOrder, orderFormAfter, placement, updateFieldOrder } from './fieldOrders';
import { manages, workScope } from '../../core/workScope';
import { ORDER_FILTER_SCHEMA, formDataSchema } from './workOrders';
import { actorOf, checkAssignee, findOrder, transition, writeHistory, type OrderRow } from '../../core/workOrders';
import { dictLabel } from '../../core/values';

/**
 * Maintenance orders (维保): routine upkeep of a device or a site (servicing, calibration,
 * cleaning, battery replacement, safety checks), planned and assigned by an administrator (with
 * the operations form to fill, when one is chosen) and completed by the repair staff or
 * implementer it names, who fills the form on completion. Only a plan not yet done is edited.
 */

const editable = (state: string) => (MAINTENANCE_EDITABLE as readonly string[]).includes(state);

const capabilities = (row: OrderRow, actor: Actor) => ({
  canModify: editable(row.state) && actor.manager,
  canDelete: editable(row.state) && actor.manager,
  canComplete: allows(MAINTENANCE_TRANSITIONS.complete, row.state, actor),
  canFill: row.form_template_id !== null && allows(MAINTENANCE_TRANSITIONS.complete, row.state, actor),
});

const orderFields = objectOf(
  {
    ...FIELD_ORDER_PROPERTIES,
    maintenanceType: enumOf(MAINTENANCE_TYPES),
    planStartTime: optionalTime,
    deadline: optionalTime,
    assigneeId: userIdSchema,
  },
  ['title', 'maintenanceType', 'assigneeId'],
);

export const maintenanceOperations = [
  ...fieldReadOperations({
    type: 'maintenance',
    page: 'maintenance.page',
    detail: 'maintenance.detail',
    sheetTitle: '维保管理',
    filterSchema: { ...ORDER_FILTER_SCHEMA, maintenanceType: optionalEnumOf(MAINTENANCE_TYPES) },
    capabilities,
    columns: [...COMMON_COLUMNS, { title: '维保类型', value: (r) => dictLabel('maintenance_type', r.maintenance_type) }, { title: '维保结果', value: (r) => r.result, width: 36 }],
  }),

  defineOperation('maintenance.insert', {
    paramSchema: objectOf({ order: orderFields }, ['order']),
    handler: async (context) => {
      const scope = await workScope(context);
      if (!manages(scope)) throw fail.forbidden();
      const caller = callerOf(context);
      const fields = context.param.order;
      return context.db.transaction(async (tx) => {
        const place = await placement(tx, scope, fields);
        const assigneeId = fields.assigneeId as number;
        await checkAssignee(tx, place.tenantCode, assigneeId, 'maintenance');
        const form = await orderFormAfter(tx, 'maintenance', place.tenantCode, NO_FORM, fields, false);
        const order = await insertFieldOrder(tx, context, 'maintenance', { ...fields, result: '' }, place, form);
        await transition(tx, { id: order.id, state: 'created' }, { action: 'assign', to: 'assigned', operatorId: caller.userId, at: context.now, set: { assignee_id: assigneeId, assigned_at: context.now } });
        return { code: order.code };
      });
    },
  }),

  defineOperation('maintenance.modify', {
    paramSchema: objectOf({ code: workCodeSchema, order: orderFields }, ['code', 'order']),
    handler: async (context) => {
      const scope = await workScope(context);
      if (!manages(scope)) throw fail.forbidden();
      const caller = callerOf(context);
      const fields = context.param.order;
      await context.db.transaction(async (tx) => {
        const row = await findOrder(tx, scope, 'maintenance', context.param.code, true);
        if (!editable(row.state)) throw fail.conflict('维保已完成，不能修改');
        const place = await placement(tx, scope, fields);
        const form = await orderFormAfter(tx, 'maintenance', place.tenantCode, formOf(row), fields, false);
        await updateFieldOrder(tx, row, { ...fields, result: row.result }, place, context.now, context.config.timeZone, form);
        const assigneeId = fields.assigneeId as number;
        if (assigneeId !== row.assignee_id) {
          await checkAssignee(tx, place.tenantCode, assigneeId, 'maintenance');
          await transition(tx, row, { action: 'assign', to: 'assigned', operatorId: caller.userId, at: context.now, set: { assignee_id: assigneeId, assigned_at: context.now } });
        } else {
          await writeHistory(tx, { orderId: row.id, action: 'modify', from: row.state, to: row.state, operatorId: caller.userId, at: context.now });
        }
      });
      return null;
    },
  }),

  defineOperation('maintenance.delete', {
    paramSchema: objectOf({ code: workCodeSchema }, ['code']),
    handler: async (context) => {
      const scope = await workScope(context);
      if (!manages(scope)) throw fail.forbidden();
      await context.db.transaction(async (tx) => {
        const row = await findOrder(tx, scope, 'maintenance', context.param.code, true);
        if (!editable(row.state)) throw fail.conflict('维保已完成，不能删除');
        await tx.query('DELETE FROM work_order WHERE id = $1', [row.id]);
      });
      return null;
    },
  }),

  defineOperation('maintenance.complete', {
    paramSchema: objectOf(
      { code: workCodeSchema, result: plainText(1000), cost: orNull(numberIn(0, 1_000_000)), formData: formDataSchema },
      ['code', 'result'],
    ),
    handler: async (context) => {
      const scope = await workScope(context);
      await context.db.transaction(async (tx) => {
        const row = await findOrder(tx, scope, 'maintenance', context.param.code, true);
        const actor = actorOf(context, scope, row);
        if (!actor.assignee) throw fail.forbidden('只能完成指派给自己的维保单');
        if (!allows(MAINTENANCE_TRANSITIONS.complete, row.state, actor)) throw fail.conflict(STATE_REFUSES_ACTION);
        const cost = context.param.cost === undefined || context.param.cost === null ? null : Math.round(context.param.cost * 100) / 100;
        // The operations form, when the plan names one, is filled before the work counts as done.
        const form = await resolveOrderForm(tx, { tenantCode: row.tenant_code, orderType: 'maintenance', current: formOf(row), templateId: undefined, data: context.param.formData, finishing: true });
        await transition(tx, row, {
          action: 'complete',
          to: 'completed',
          operatorId: callerOf(context).userId,
          at: context.now,
          remark: context.param.result,
          set: { completed_at: context.now, started_at: row.started_at ?? context.now, result: context.param.result, cost, form_data: form.data === null ? null : JSON.stringify(form.data) },
        });
      });
      return null;
    },
  }),
];
