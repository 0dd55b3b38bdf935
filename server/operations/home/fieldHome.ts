import { defineOperation } from '../../core/operation';
import { workScope } from '../../core/workScope';
import { patrolCount, repairCount, type ListCount } from './listCounts';
import { grantedViews, whenGranted } from './views';

/**
 * 工作台 of the field staff (ROLE_TENANT_REPAIR, ROLE_TENANT_PATROL, ROLE_REPAIR_IMPLEMENT): their own
 * repair orders and patrol tasks by state, as 维修工单 and 巡检任务 list them for them (work
 * scope: what is assigned to them, across their tenant). A manager asking gets the same figures
 * over the organisations selected, as the lists would show them; a section is answered only to
 * those whose menus hold its list, "403" when they hold neither.
 */

export const FIELD_HOME_VIEWS = ['repair/order', 'patrol/list'] as const;

export interface FieldHome {
  asOf: string;
  /** 维修工单: 已派单 (waiting to be accepted), 已接单, 处理中, and 已超期 of any open state. */
  repair: { assigned: ListCount; accepted: ListCount; inProgress: ListCount; overdue: ListCount } | null;
  /** 巡检任务: 待巡检, 巡检中, 已逾期. */
  patrol: { pending: ListCount; inProgress: ListCount; overdue: ListCount } | null;
}

export const fieldHome = defineOperation('home.field.summary', {
  handler: async (context): Promise<FieldHome> => {
    const granted = await grantedViews(context, FIELD_HOME_VIEWS);
    const scope = await workScope(context);
    const [repair, patrol] = await Promise.all([
      whenGranted(granted, 'repair/order', async () => {
        const [assigned, accepted, inProgress, overdue] = await Promise.all([
          repairCount(context, scope, { state: 'assigned' }),
          repairCount(context, scope, { state: 'accepted' }),
          repairCount(context, scope, { state: 'in_progress' }),
          repairCount(context, scope, { overdue: '1' }),
        ]);
        return { assigned, accepted, inProgress, overdue };
      }),
      whenGranted(granted, 'patrol/list', async () => {
        const [pending, inProgress, overdue] = await Promise.all([patrolCount(context, scope, 'pending'), patrolCount(context, scope, 'in_progress'), patrolCount(context, scope, 'overdue')]);
        return { pending, inProgress, overdue };
      }),
    ]);
    return { asOf: context.now.toISOString(), repair, patrol };
  },
});
