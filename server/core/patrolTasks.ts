import type { OperationContext } from './context';
import { Conditions, containing } from './listQuery';
import { parseRange } from './params';
import { organizationFilter, workScopeClause, type WorkScope } from './workScope';

/**
 * A patrol task list's filters and WHERE (巡检任务, patrol.task.page), below the areas (issue 32):
 * the work area lists and exports under it, the tenant home counts the tasks of one state under it.
 */

/** The task's state as read now: an open task past its window is overdue. */
export const EFFECTIVE_STATE = (now: string) => `CASE WHEN t.state IN ('pending', 'in_progress') AND t.plan_end_at < ${now}::timestamptz THEN 'overdue' ELSE t.state END`;

export interface TaskFilter {
  keyword?: string;
  state?: string | null;
  organizationCode?: string;
  assigneeId?: number | null;
  planTime?: [string, string];
}

/** The WHERE of the task list: scope, then each filter given ($1 is the request time). */
export async function taskWhere(context: OperationContext<TaskFilter>, scope: WorkScope): Promise<Conditions> {
  const where = new Conditions([context.now]);
  const filter = context.param;
  where
    .add(workScopeClause(scope, where.params, 't'))
    .when(filter.keyword, '(t.code ILIKE $? OR t.name ILIKE $?)', (v) => containing(String(v)))
    .when(filter.state, `${EFFECTIVE_STATE('$1')} = $?`);
  if (filter.organizationCode) where.add('t.organization_code = ANY($?::text[])', await organizationFilter(context.db, scope, filter.organizationCode));
  where.when(filter.assigneeId, 't.assignee_id = $?');
  if (filter.planTime) {
    const [start, end] = parseRange(filter.planTime, 'planTime', context.config.timeZone);
    where.add('t.plan_start_at <= $?', end).add('t.plan_end_at >= $?', start);
  }
  return where;
}
