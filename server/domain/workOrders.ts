import { readDictionaries } from './schemaFiles';
import { businessDayStamp } from './businessTime';

/**
 * The work side's rules (issue 6), free of SQL: the states a work order moves through, which
 * action takes it from where to where and who may take it, the roles that receive each kind of
 * order, and the codes orders carry. The operations and the seed both build on these.
 */

/** work_order_state, in the dictionary's order. */
export const WORK_ORDER_STATES = ['created', 'assigned', 'accepted', 'in_progress', 'completed', 'audited', 'closed', 'rejected'] as const;
export type WorkOrderState = (typeof WORK_ORDER_STATES)[number];

/** The kinds of order kept in work_order (patrol tasks have their own table). */
export type WorkOrderType = 'repair' | 'construction' | 'exploration' | 'maintenance';
/** Everything that can be assigned to somebody. */
export type WorkKind = WorkOrderType | 'patrol';

/** patrol_task_state. */
export const PATROL_TASK_STATES = ['pending', 'in_progress', 'completed', 'overdue'] as const;
export type PatrolTaskState = (typeof PATROL_TASK_STATES)[number];

/** A state that does not allow an action ("409"). */
export const STATE_REFUSES_ACTION = '当前状态不允许该操作';

const dictionaries = readDictionaries();
/** The values of a shipped dictionary (schemas/dictionaries.json), for param enums. */
export function dictionaryValues(dictType: string): string[] {
  const dictionary = dictionaries.find((entry) => entry.dictType === dictType);
  if (!dictionary) throw new Error(`dictionary ${dictType} is not in schemas/dictionaries.json`);
  return dictionary.items.map((item) => item.value);
}

export const PRIORITIES = dictionaryValues('work_order_priority');
export const FAULT_TYPES = dictionaryValues('repair_fault_type');
export const MAINTENANCE_TYPES = dictionaryValues('maintenance_type');
export const WORK_ORDER_SOURCES = dictionaryValues('work_order_source');

/**
 * Roles that look at work by organisation (the selected organisation and below): tenant admins,
 * ordinary tenant users and platform staff. Everyone else (repair, patrol and implementer staff)
 * sees only what is assigned to them.
 */
export const MANAGER_ROLES: readonly string[] = ['TENANT_ADMIN', 'ROLE_TENANT_ORDINARY', 'PLATFORM_ADMIN', 'PLATFORM_OPERATOR'];

/** Who may receive each kind of work (they also hold the menus to see it). */
export const ASSIGNEE_ROLES: Readonly<Record<WorkKind, readonly string[]>> = {
  repair: ['ROLE_TENANT_REPAIR', 'ROLE_REPAIR_IMPLEMENT'],
  maintenance: ['ROLE_TENANT_REPAIR', 'ROLE_REPAIR_IMPLEMENT'],
  construction: ['ROLE_REPAIR_IMPLEMENT'],
  exploration: ['ROLE_REPAIR_IMPLEMENT'],
  patrol: ['ROLE_TENANT_PATROL'],
};

/** Code prefixes: 维修 WX, 施工 SG, 勘察 KC, 维保 WB, 故障上报 GZ, 维修批次 PL, 巡检 XJ. */
export const CODE_PREFIX = {
  repair: 'WX',
  construction: 'SG',
  exploration: 'KC',
  maintenance: 'WB',
  report: 'GZ',
  batch: 'PL',
  patrol: 'XJ',
} as const;

/** `WX` + the business day (yyyymmdd in `timeZone`) of `at` + the row id on five digits or more: WX2026112200042. */
export function workCode(prefix: string, id: number, at: Date, timeZone: string): string {
  return `${prefix}${businessDayStamp(at, timeZone)}${String(id).padStart(5, '0')}`;
}

/** Who is acting on an order: someone who manages by organisation, and/or its assignee. */
export interface Actor {
  manager: boolean;
  assignee: boolean;
}

export interface Transition {
  from: readonly WorkOrderState[];
  to: WorkOrderState;
  by: 'manager' | 'assignee';
}

/**
 * The repair order's state machine. `reject` is the administrator's 审核驳回 of completed work;
 * `refuse` is the assignee's 拒单 before the work starts. Both leave the order rejected, from
 * where it is assigned again (or closed).
 */
export const REPAIR_TRANSITIONS = {
  assign: { from: ['created', 'assigned', 'rejected'], to: 'assigned', by: 'manager' },
  accept: { from: ['assigned'], to: 'accepted', by: 'assignee' },
  start: { from: ['accepted'], to: 'in_progress', by: 'assignee' },
  complete: { from: ['in_progress'], to: 'completed', by: 'assignee' },
  audit: { from: ['completed'], to: 'audited', by: 'manager' },
  reject: { from: ['completed'], to: 'rejected', by: 'manager' },
  refuse: { from: ['assigned', 'accepted'], to: 'rejected', by: 'assignee' },
  close: { from: ['created', 'assigned', 'accepted', 'rejected', 'audited'], to: 'closed', by: 'manager' },
} as const satisfies Record<string, Transition>;
export type RepairAction = keyof typeof REPAIR_TRANSITIONS;

/** Whether `actor` may take `transition` from `state`. */
export function allows(transition: Transition, state: string, actor: Actor): boolean {
  return (transition.from as readonly string[]).includes(state) && (transition.by === 'manager' ? actor.manager : actor.assignee);
}

/** The actions of a repair order the actor may take now (the console shows only these). */
export function repairCapabilities(state: string, actor: Actor) {
  const can = (action: RepairAction) => allows(REPAIR_TRANSITIONS[action], state, actor);
  return {
    canAssign: can('assign'),
    canAccept: can('accept'),
    canStart: can('start'),
    canComplete: can('complete'),
    canAudit: can('audit'),
    canReject: can('reject'),
    canRefuse: can('refuse'),
    canClose: can('close'),
  };
}

/**
 * Construction orders (施工): done by an implementer, then audited. The constructor reports
 * progress (in_progress) and finally submits (completed, audit pending); the administrator
 * approves (audited) or sends it back (rejected), from where the constructor submits again.
 */
export const CONSTRUCTION_EDITABLE: readonly WorkOrderState[] = ['created', 'assigned', 'in_progress', 'rejected'];
export const CONSTRUCTION_TRANSITIONS = {
  audit: { from: ['completed'], to: 'audited', by: 'manager' },
  reject: { from: ['completed'], to: 'rejected', by: 'manager' },
} as const satisfies Record<string, Transition>;

/**
 * Engineering surveys (勘察): assigned, surveyed (in_progress), concluded (completed, audit
 * pending); the administrator approves the survey and its filled form (audited) or sends it back
 * (rejected), from where the surveyor concludes it again.
 */
export const EXPLORATION_EDITABLE: readonly WorkOrderState[] = ['created', 'assigned', 'in_progress', 'rejected'];
export const EXPLORATION_TRANSITIONS = {
  audit: { from: ['completed'], to: 'audited', by: 'manager' },
  reject: { from: ['completed'], to: 'rejected', by: 'manager' },
} as const satisfies Record<string, Transition>;

/** Maintenance orders (维保): planned and assigned by an administrator, completed by the assignee. */
export const MAINTENANCE_EDITABLE: readonly WorkOrderState[] = ['created', 'assigned'];
export const MAINTENANCE_TRANSITIONS = {
  complete: { from: ['assigned', 'accepted', 'in_progress'], to: 'completed', by: 'assignee' },
} as const satisfies Record<string, Transition>;

/** A patrol task still open (pending or started) whose window has passed reads as overdue. */
export function patrolTaskState(stored: string, planEnd: Date, now: Date): PatrolTaskState {
  if ((stored === 'pending' || stored === 'in_progress') && planEnd.getTime() < now.getTime()) return 'overdue';
  return stored as PatrolTaskState;
}

/** Finished states: no longer counted as open or overdue. */
export const FINISHED_STATES: readonly WorkOrderState[] = ['completed', 'audited', 'closed'];
