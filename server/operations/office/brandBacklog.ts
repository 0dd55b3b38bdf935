import type { Queryable, SqlParam } from '../../db/database';
import {
  CONSTRUCTION_TRANSITIONS,
  MAINTENANCE_TRANSITIONS,
  REPAIR_TRANSITIONS,
  STATE_REFUSES_ACTION,
  allows,
  type Actor,
  type Transition,
  type WorkKind,
} from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, text, type ParamSchema, optionalPlainText, enumOf, optionalEnumOf, optionalUserId, workCodeSchema } from '../../core/params';
import { Conditions, containing, pageOf, type Listing } from '../../core/listQuery';
import { manages, organizationFilter, workScope, workScopeClause, type WorkScope } from '../../core/workScope';
import { actorOf, checkAssignee, findOrder, priorityRank, transition, type OrderRow } from '../../core/workOrders';
import { dictLabel } from '../../core/values';

/**
 * 品牌专区 · 待办任务: the caller's open work, read from the work orders and patrol tasks
 * themselves. For someone who manages by organisation (the tenant admin) that is what waits for
 * them — orders to assign (new ones, repair orders refused or sent back, unassigned patrol
 * tasks) and submitted work to audit; for repair, patrol and implementer staff it is what is
 * assigned to them and not yet done. brand.backlog.handle takes one step on one item, by the
 * same state machines (server/domain/workOrders.ts) and history as the work screens.
 */

export const BACKLOG_KINDS = ['repair', 'maintenance', 'construction', 'exploration', 'patrol'] as const;
export type BacklogKind = (typeof BACKLOG_KINDS)[number];
export const BACKLOG_ACTIONS = ['assign', 'accept', 'start', 'complete', 'approve', 'reject'] as const;
export type BacklogAction = (typeof BACKLOG_ACTIONS)[number];

/** Whom the staff pickers offer for each kind's assignment (work.staff.list's kind). */
const ASSIGN_KIND: Record<BacklogKind, WorkKind> = { repair: 'repair', maintenance: 'repair', construction: 'construction', exploration: 'construction', patrol: 'patrol' };
/** Each kind's detail route. */
const DETAIL_ROUTE: Record<BacklogKind, string> = {
  repair: '/repair/detail',
  maintenance: '/maintenance/detail',
  construction: '/construction/detail',
  exploration: '/exploration/detail',
  patrol: '/patrol/detail',
};

/** Submitted work the administrator audits (approve or send back), as construction's rules say. */
const AUDIT: Transition = CONSTRUCTION_TRANSITIONS.audit;
const SEND_BACK: Transition = CONSTRUCTION_TRANSITIONS.reject;

/** Which manager may take a step on an order: from these states (and, for an audit, with the audit pending). */
const MANAGER_RULES: Record<'assign' | 'approve' | 'reject', Partial<Record<BacklogKind, Transition>>> = {
  assign: {
    repair: REPAIR_TRANSITIONS.assign,
    maintenance: { from: ['created'], to: 'assigned', by: 'manager' },
    construction: { from: ['created'], to: 'assigned', by: 'manager' },
    exploration: { from: ['created'], to: 'assigned', by: 'manager' },
  },
  approve: { repair: REPAIR_TRANSITIONS.audit, construction: AUDIT, exploration: AUDIT },
  reject: { repair: REPAIR_TRANSITIONS.reject, construction: SEND_BACK, exploration: SEND_BACK },
};

/** The assignee's steps on an order. */
const ASSIGNEE_RULES: Record<'accept' | 'start' | 'complete', Partial<Record<BacklogKind, Transition>>> = {
  accept: { repair: REPAIR_TRANSITIONS.accept },
  start: {
    repair: REPAIR_TRANSITIONS.start,
    construction: { from: ['assigned', 'rejected'], to: 'in_progress', by: 'assignee' },
    exploration: { from: ['assigned', 'rejected'], to: 'in_progress', by: 'assignee' },
  },
  complete: {
    repair: REPAIR_TRANSITIONS.complete,
    maintenance: MAINTENANCE_TRANSITIONS.complete,
    construction: { from: ['in_progress'], to: 'completed', by: 'assignee' },
    exploration: { from: ['in_progress'], to: 'completed', by: 'assignee' },
  },
};

function ruleOf(kind: BacklogKind, action: BacklogAction): Transition | undefined {
  if (action === 'assign' || action === 'approve' || action === 'reject') return MANAGER_RULES[action][kind];
  return ASSIGNEE_RULES[action][kind];
}

/**
 * Whether finishing the order here would skip its dynamic form: a field order with a form
 * template is completed where the form is filled (its own screen), never from the backlog.
 */
const formFirst = (kind: BacklogKind, formTemplateId: number | null) => kind !== 'repair' && kind !== 'patrol' && formTemplateId !== null;

/** The steps `actor` may take now on an order of `kind` in `state` (an audit needs the audit pending). */
function orderActions(kind: Exclude<BacklogKind, 'patrol'>, row: { state: string; audit_state: string | null; form_template_id: number | null }, actor: Actor): BacklogAction[] {
  return BACKLOG_ACTIONS.filter((action) => {
    const rule = ruleOf(kind, action);
    if (!rule || !allows(rule, row.state, actor)) return false;
    if (action === 'complete' && formFirst(kind, row.form_template_id)) return false;
    return action === 'approve' || action === 'reject' ? row.audit_state === 'pending' : true;
  });
}

/** A patrol task: a manager assigns one left without a patroller; the patroller starts his own. */
function patrolActions(storedState: string, assigneeId: number | null, actor: Actor): BacklogAction[] {
  const actions: BacklogAction[] = [];
  if (actor.manager && storedState === 'pending' && assigneeId === null) actions.push('assign');
  if (actor.assignee && storedState === 'pending') actions.push('start');
  return actions;
}

/** The step an item waits for, as the list shows it (backlog_step dictionary: assign, accept, start, complete, audit, rework, patrol). */
function stepOf(kind: BacklogKind, actions: readonly BacklogAction[], state: string): string {
  if (actions.includes('approve')) return 'audit';
  if (actions.includes('assign')) return 'assign';
  if (kind === 'patrol') return 'patrol';
  if (actions.includes('accept')) return 'accept';
  if (actions.includes('start')) return state === 'rejected' ? 'rework' : 'start';
  return 'complete';
}

interface BacklogRow {
  kind: BacklogKind;
  code: string;
  title: string;
  state: string;
  stored_state: string;
  audit_state: string | null;
  priority: string;
  organization_name: string;
  assignee_id: number | null;
  assignee_name: string | null;
  device_code: string | null;
  device_name: string | null;
  due_at: Date | null;
  created_at: Date;
  form_template_id: number | null;
}

/** Open work orders: what waits for a manager, or what an assignee has still to do. */
const OPEN_ORDER = {
  manager: `(o.state = 'created' OR (o.type = 'repair' AND o.state = 'rejected') OR (o.state = 'completed' AND o.audit_state = 'pending' AND o.type IN ('repair', 'construction', 'exploration')))`,
  own: `(o.state IN ('assigned', 'accepted', 'in_progress') OR (o.type IN ('construction', 'exploration') AND o.state = 'rejected'))`,
};
const OPEN_PATROL = { manager: "(t.state = 'pending' AND t.assignee_id IS NULL)", own: "t.state IN ('pending', 'in_progress')" };

interface BacklogFilter {
  keyword?: string;
  kind?: string;
  overdue?: string;
  organizationCode?: string;
}

const filterSchema: Record<string, ParamSchema> = {
  keyword: text(64),
  kind: optionalEnumOf(BACKLOG_KINDS),
  overdue: optionalEnumOf(['1', '0']),
  organizationCode: text(64),
};

const SORTS = { dueTime: 'b.due_at', createTime: 'b.created_at', code: 'b.code', priority: priorityRank('b.priority') };

/**
 * The union of open orders and patrol tasks of the scope, as one table `b`, with the filter's
 * conditions ($1 is the time an item becomes overdue at). The count and the page's choice of rows
 * read the two tables alone (with the device `d` only when the keyword names its name); the
 * organisation, assignee and device names are looked up for the page's rows: joining the device
 * inside the union read the device of every open order up to the page (5,242 lookups a page).
 */
async function backlogQuery(context: OperationContext<BacklogFilter>, scope: WorkScope): Promise<{ listing: Listing<BacklogRow, ReturnType<typeof backlogRecord>>; where: Conditions }> {
  const side = manages(scope) ? 'manager' : 'own';
  const where = new Conditions([context.now]);
  const params = where.params;
  // One text per scope, used by both unions: every statement names each parameter it is sent.
  const openOrders = `FROM work_order o WHERE ${workScopeClause(scope, params, 'o')} AND ${OPEN_ORDER[side]}`;
  const openTasks = `FROM patrol_task t WHERE ${workScopeClause(scope, params, 't')} AND ${OPEN_PATROL[side]}`;
  const orders = `SELECT o.type AS kind, o.code, o.title, o.state, o.state AS stored_state, o.audit_state, o.priority,
                         o.organization_code, o.assignee_id, o.device_code, o.deadline_at AS due_at, o.created_at, o.form_template_id
                    ${openOrders}`;
  const tasks = `SELECT 'patrol' AS kind, t.code, t.name AS title,
                        CASE WHEN t.plan_end_at < $1::timestamptz THEN 'overdue' ELSE t.state END AS state, t.state AS stored_state, NULL AS audit_state,
                        'normal' AS priority, t.organization_code, t.assignee_id,
                        NULL AS device_code, t.plan_end_at AS due_at, t.created_at, NULL::int AS form_template_id
                   ${openTasks}`;
  const items = `(${orders} UNION ALL ${tasks}) b`;
  // The count and the page's choice of items read only what the filters and the order name (the
  // open orders' index holds it: migration 112); the keyword needs the titles and the devices.
  const narrowItems = `(SELECT o.type AS kind, o.code, o.priority, o.organization_code, o.deadline_at AS due_at, o.created_at ${openOrders}
                        UNION ALL
                        SELECT 'patrol' AS kind, t.code, 'normal' AS priority, t.organization_code, t.plan_end_at AS due_at, t.created_at ${openTasks}) b`;
  const device = 'LEFT JOIN device d ON d.code = b.device_code';
  where.add('$1::timestamptz IS NOT NULL');
  const filter = context.param;
  where.when(filter.keyword?.trim(), "(b.code ILIKE $? OR b.title ILIKE $? OR coalesce(b.device_code, '') ILIKE $? OR coalesce(d.name, '') ILIKE $?)", (keyword) =>
    containing(String(keyword)),
  );
  where.when(filter.kind, 'b.kind = $?');
  if (filter.overdue) where.add(`${filter.overdue === '1' ? '' : 'NOT '}(b.due_at IS NOT NULL AND b.due_at < $1::timestamptz)`);
  if (filter.organizationCode) where.add('b.organization_code = ANY($?::text[])', await organizationFilter(context.db, scope, filter.organizationCode));
  const userId = callerOf(context).userId;
  const listing: Listing<BacklogRow, ReturnType<typeof backlogRecord>> = {
    // Every item has its organisation (a foreign key): the inner join drops none.
    from: `${items} JOIN organization org ON org.code = b.organization_code ${device} LEFT JOIN app_user au ON au.id = b.assignee_id`,
    narrowFrom: (needed) => (/\bd\.|\bb\.(title|device_code)\b/.test(needed) ? `${items} ${device}` : narrowItems),
    // Codes are unique across orders and patrol tasks (each kind has its own prefix: CODE_PREFIX),
    // so the page's items are found again by their codes' unique indexes.
    key: 'b.code',
    columns: 'b.*, org.name AS organization_name, au.user_name AS assignee_name, d.name AS device_name',
    sorts: SORTS,
    fallback: `b.due_at ASC NULLS LAST, ${priorityRank('b.priority')}, b.created_at, b.code`,
    record: (row) => backlogRecord(row, userId, manages(scope), context.now),
  };
  return { listing, where };
}

/** The assignee would complete the order now, but on its own screen, with its form. */
function fillsForm(row: BacklogRow, actor: Actor): boolean {
  if (row.kind === 'patrol' || !formFirst(row.kind, row.form_template_id)) return false;
  const rule = ruleOf(row.kind, 'complete');
  return rule !== undefined && allows(rule, row.stored_state, actor);
}

function backlogRecord(row: BacklogRow, userId: number, manager: boolean, now: Date) {
  const actor: Actor = { manager, assignee: row.assignee_id !== null && row.assignee_id === userId };
  const actions = row.kind === 'patrol' ? patrolActions(row.stored_state, row.assignee_id, actor) : orderActions(row.kind, { ...row, state: row.stored_state }, actor);
  const step = stepOf(row.kind, actions, row.stored_state);
  return {
    key: `${row.kind}:${row.code}`,
    kind: row.kind,
    code: row.code,
    title: row.title,
    state: row.state,
    stateName: row.kind === 'patrol' ? dictLabel('patrol_task_state', row.state) : dictLabel('work_order_state', row.state),
    step,
    priority: row.priority,
    organizationName: row.organization_name,
    assigneeName: row.assignee_name ?? '',
    deviceCode: row.device_code ?? '',
    deviceName: row.device_name ?? '',
    dueTime: row.due_at ? row.due_at.toISOString() : '',
    overdue: row.due_at !== null && row.due_at.getTime() < now.getTime(),
    createTime: row.created_at.toISOString(),
    detailUrl: `${DETAIL_ROUTE[row.kind]}?code=${row.code}`,
    actions,
    /** Which staff the 派单 picker offers (work.staff.list's kind), when the item may be assigned. */
    assignKind: actions.includes('assign') ? ASSIGN_KIND[row.kind] : '',
    canAccept: actions.includes('accept'),
    canStart: actions.includes('start'),
    canComplete: actions.includes('complete'),
    canAudit: actions.includes('approve'),
    canPatrol: row.kind === 'patrol' && actor.assignee,
    /** The order is finished on its own screen, where its dynamic form is filled (construction, exploration, maintenance). */
    fillKind: fillsForm(row, actor) ? row.kind : '',
  };
}

interface HandleParam {
  kind: BacklogKind;
  code: string;
  action: BacklogAction;
  assigneeId?: number | null;
  remark?: string;
}

interface PatrolTaskRow {
  id: number;
  code: string;
  state: string;
  assignee_id: number | null;
  tenant_code: string;
}

async function findPatrolTask(db: Queryable, scope: WorkScope, code: string): Promise<PatrolTaskRow> {
  const params: SqlParam[] = [code];
  const clause = workScopeClause(scope, params, 't');
  await db.query(`SELECT 1 FROM patrol_task t WHERE t.code = $1 AND ${clause} FOR UPDATE`, params);
  const [row] = await db.query<PatrolTaskRow>(`SELECT t.id, t.code, t.state, t.assignee_id, t.tenant_code FROM patrol_task t WHERE t.code = $1 AND ${clause}`, params);
  if (!row) throw fail.notFound('巡检任务不存在');
  return row;
}

/** "403" for a step that is not the caller's to take, "409" for one the item's state does not allow. */
function refuse(action: BacklogAction, actor: Actor): never {
  const byManager = action === 'assign' || action === 'approve' || action === 'reject';
  if (byManager && !actor.manager) throw fail.forbidden('只有管理人员可以执行该操作');
  if (!byManager && !actor.assignee) throw fail.forbidden('只能处理指派给自己的工作');
  throw fail.conflict(STATE_REFUSES_ACTION);
}

async function assigneeName(db: Queryable, userId: number): Promise<string> {
  const [row] = await db.query<{ user_name: string }>('SELECT user_name FROM app_user WHERE id = $1', [userId]);
  return row?.user_name ?? '';
}

async function handlePatrol(tx: Queryable, context: OperationContext<HandleParam>, scope: WorkScope): Promise<string> {
  const { action, assigneeId } = context.param;
  const row = await findPatrolTask(tx, scope, context.param.code);
  const actor: Actor = { manager: manages(scope), assignee: row.assignee_id !== null && row.assignee_id === callerOf(context).userId };
  if (!patrolActions(row.state, row.assignee_id, actor).includes(action)) refuse(action, actor);
  if (action === 'assign') {
    if (!assigneeId) throw fail.badRequest('请选择处理人');
    await checkAssignee(tx, row.tenant_code, assigneeId, 'patrol');
    const assigned = await tx.query<{ id: number }>(
      "UPDATE patrol_task SET assignee_id = $2, updated_at = $3 WHERE id = $1 AND state = 'pending' AND assignee_id IS NULL RETURNING id",
      [row.id, assigneeId, context.now],
    );
    if (assigned.length === 0) throw fail.conflict(STATE_REFUSES_ACTION);
    return row.state;
  }
  const started = await tx.query<{ id: number }>(
    "UPDATE patrol_task SET state = 'in_progress', started_at = coalesce(started_at, $2), updated_at = $2 WHERE id = $1 AND state = 'pending' RETURNING id",
    [row.id, context.now],
  );
  if (started.length === 0) throw fail.conflict(STATE_REFUSES_ACTION);
  return 'in_progress';
}

/** The columns a step stamps on an order and the history's remark. */
async function orderStep(
  tx: Queryable,
  context: OperationContext<HandleParam>,
  row: OrderRow,
  kind: Exclude<BacklogKind, 'patrol'>,
): Promise<{ history: string; set: Record<string, SqlParam>; remark: string }> {
  const { action, assigneeId } = context.param;
  const remark = context.param.remark?.trim() ?? '';
  const now = context.now;
  switch (action) {
    case 'assign': {
      if (!assigneeId) throw fail.badRequest('请选择处理人');
      await checkAssignee(tx, row.tenant_code, assigneeId, kind);
      const set = { assignee_id: assigneeId, assigned_at: now, accepted_at: null, started_at: null, completed_at: null, audit_state: null };
      return { history: 'assign', set, remark: [`指派给${await assigneeName(tx, assigneeId)}`, remark].filter(Boolean).join('：') };
    }
    case 'accept':
      return { history: 'accept', set: { accepted_at: now }, remark };
    case 'start':
      return { history: 'start', set: { started_at: row.started_at ?? now }, remark };
    case 'complete': {
      if (!remark) throw fail.badRequest('请填写处理结果');
      const audited = kind !== 'maintenance';
      return {
        history: kind === 'construction' ? 'submit' : 'complete',
        set: { completed_at: now, started_at: row.started_at ?? now, result: remark, ...(audited ? { audit_state: 'pending' } : {}) },
        remark,
      };
    }
    case 'approve':
      return { history: 'audit', set: { audited_at: now, audit_state: 'approved', audit_opinion: remark }, remark };
    case 'reject':
      if (!remark) throw fail.badRequest('请填写驳回原因');
      return { history: 'reject', set: { audit_state: 'rejected', audit_opinion: remark, reject_reason: remark }, remark };
  }
}

async function handleOrder(tx: Queryable, context: OperationContext<HandleParam>, scope: WorkScope, kind: Exclude<BacklogKind, 'patrol'>): Promise<string> {
  const row = await findOrder(tx, scope, kind, context.param.code, true);
  const actor = actorOf(context, scope, row);
  const { action } = context.param;
  if (action === 'complete' && actor.assignee && formFirst(kind, row.form_template_id)) throw fail.conflict('该工单需填写表单，请在详情页填写后提交');
  if (!orderActions(kind, row, actor).includes(action)) refuse(action, actor);
  const rule = ruleOf(kind, action) as Transition;
  const step = await orderStep(tx, context, row, kind);
  await transition(tx, row, { action: step.history, to: rule.to, operatorId: callerOf(context).userId, remark: step.remark, at: context.now, set: step.set });
  return rule.to;
}

export const backlogOperations = [
  defineOperation('brand.backlog.page', {
    paramSchema: objectOf(filterSchema),
    handler: async (context) => {
      const { listing, where } = await backlogQuery(context, await workScope(context));
      return pageOf(context, listing, where);
    },
  }),

  /** One step on one open item: 派单, 接单, 开始, 完成 (with the result), 审核通过 or 驳回 (with the reason). */
  defineOperation('brand.backlog.handle', {
    paramSchema: objectOf(
      {
        kind: enumOf(BACKLOG_KINDS),
        code: workCodeSchema,
        action: enumOf(BACKLOG_ACTIONS),
        assigneeId: optionalUserId,
        remark: optionalPlainText(1000),
      },
      ['kind', 'code', 'action'],
    ),
    handler: async (context) => {
      const scope = await workScope(context);
      const { kind, code } = context.param;
      const state = await context.db.transaction((tx) => (kind === 'patrol' ? handlePatrol(tx, context, scope) : handleOrder(tx, context, scope, kind)));
      return { kind, code, state };
    },
  }),
];
