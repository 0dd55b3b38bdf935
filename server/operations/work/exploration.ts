import { EXPLORATION_EDITABLE, type Actor } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import { callerOf, defineOperation, objectOf, type ParamSchema } from '../define';
import { followUp } from './construction';
import { COMMON_COLUMNS, FIELD_ORDER_PROPERTIES, fieldReadOperations, insertFieldOrder, placement, updateFieldOrder, type FieldOrderFields } from './fieldOrders';
import { manages, workScope } from './scope';
import { ORDER_FILTER_SCHEMA, checkAssignee, findOrder, optionalTime, transition, workCodeSchema, writeHistory, type OrderRow } from './workOrders';

/**
 * Engineering surveys (工程勘察): before devices are installed somewhere, an implementer goes to
 * look. An administrator plans the survey (a place, a date, a surveyor) or the surveyor registers
 * one; the surveyor records findings (in_progress) and the conclusion (completed). A concluded
 * survey is a record: no longer edited or deleted.
 */

const editable = (state: string) => (EXPLORATION_EDITABLE as readonly string[]).includes(state);

const capabilities = (row: OrderRow, actor: Actor) => ({
  canModify: editable(row.state) && (actor.manager || actor.assignee),
  canDelete: editable(row.state) && (actor.manager || actor.assignee),
});

const orderFields: ParamSchema = objectOf({ ...FIELD_ORDER_PROPERTIES, planStartTime: optionalTime, deadline: optionalTime, finished: { type: 'boolean' } }, ['title']);

export const explorationOperations = [
  ...fieldReadOperations({
    type: 'exploration',
    page: 'exploration.page',
    detail: 'exploration.detail',
    export: 'exploration.export',
    sheetTitle: '工程勘察',
    filterSchema: ORDER_FILTER_SCHEMA,
    capabilities,
    columns: [...COMMON_COLUMNS, { title: '完成时间', value: (r) => r.completed_at }, { title: '勘察结论', value: (r) => r.result, width: 36 }],
  }),

  defineOperation<{ order: FieldOrderFields }>('exploration.insert', {
    paramSchema: objectOf({ order: orderFields }, ['order']),
    handler: async (context) => {
      const scope = await workScope(context);
      const caller = callerOf(context);
      const fields = context.param.order;
      return context.db.transaction(async (tx) => {
        const place = await placement(tx, scope, fields);
        const assigneeId = manages(scope) ? (fields.assigneeId ?? null) : caller.userId;
        if (manages(scope) && assigneeId) await checkAssignee(tx, place.tenantCode, assigneeId, 'exploration');
        const order = await insertFieldOrder(tx, context, 'exploration', fields, place);
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

  defineOperation<{ code: string; order: FieldOrderFields }>('exploration.modify', {
    paramSchema: objectOf({ code: workCodeSchema, order: orderFields }, ['code', 'order']),
    handler: async (context) => {
      const scope = await workScope(context);
      await context.db.transaction(async (tx) => {
        const row = await findOrder(tx, scope, 'exploration', context.param.code, true);
        if (!editable(row.state)) throw fail.conflict('勘察已完成，不能修改');
        const place = await placement(tx, scope, context.param.order);
        await updateFieldOrder(tx, row, context.param.order, place, context.now);
        await writeHistory(tx, { orderId: row.id, action: 'modify', from: row.state, to: row.state, operatorId: callerOf(context).userId, at: context.now });
        await followUp(tx, context, scope, row, context.param.order, 'exploration');
      });
      return null;
    },
  }),

  defineOperation<{ code: string }>('exploration.delete', {
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
];
