import type { OperationContext } from '../../core/context';
import { countRows, type Conditions } from '../../core/listQuery';
import { taskWhere } from '../../core/patrolTasks';
import { orderWhere, type OrderFilter } from '../../core/workOrders';
import type { WorkScope } from '../../core/workScope';

/**
 * A home figure that is a list's total (工作台, issue 34): the list's own WHERE, counted as the list
 * counts it (listQuery's countRows: exact up to 10,000 rows, the estimate past it, which the
 * console shows as 10,000+ like the list's pager).
 */
export interface ListCount {
  count: number;
  /** Past 10,000 rows: `count` is the planner's estimate. */
  estimated: boolean;
}

export async function listCount(context: OperationContext<unknown>, from: string, where: Conditions): Promise<ListCount> {
  const { total, estimated } = await countRows(context.db, from, where.sql, where.params);
  return { count: total, estimated };
}

/** 维修工单 (repair.order.page) under `filter`: its WHERE, over work_order alone as its count reads it. */
export async function repairCount(context: OperationContext<unknown>, scope: WorkScope, filter: OrderFilter): Promise<ListCount> {
  return listCount(context, 'work_order o', await orderWhere(context.db, scope, 'repair', filter, context.now, context.config.timeZone));
}

type TaskContext = Parameters<typeof taskWhere>[0];

/** 巡检任务 (patrol.task.page) in one state as the list reads it (已逾期: open past its window). */
export async function patrolCount(context: OperationContext<unknown>, scope: WorkScope, state: 'pending' | 'in_progress' | 'overdue'): Promise<ListCount> {
  const asked: TaskContext = { ...context, param: { state } };
  return listCount(context, 'patrol_task t', await taskWhere(asked, scope));
}
