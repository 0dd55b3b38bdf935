import type { JsonObject, Row } from '../db/bulk';
import { ORGANIZATION_TYPE } from '../domain/organizations';
import type { WorkOrderType } from '../domain/workOrders';
import { DEMO_ACCOUNTS } from './accounts';
import type { DeviceTables } from './devices';
import { AUDIT_OPINIONS, AUDIT_REJECTIONS, CANCELLATIONS, CLOSINGS, CONTACTS, FAULT_TYPES, FAULTS, OPEN, PRIORITY_DAYS, PRIORITY_WEIGHTS, REFUSALS, WORKFORCE } from './fixtures/work';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';
import { HOUR_MS, DAY_MS, iso } from './clock';

/**
 * What the work generators (./workOrders.ts, ./workSources.ts, ./fieldWork.ts) share: the drafts of
 * orders and batches, how an order's steps are played out in time, and the repair order.
 */

/**
 * Seeded user ids by login name: the demo accounts first, then the generated staff hz01…hz08
 * and sz01…sz08 (server/seed/users.ts). Their roles come from the user seed; a server test checks
 * that everyone given work here holds a role for it.
 */
const STAFF_PER_TENANT = 8;
export function userId(loginName: string): number {
  const demo = DEMO_ACCOUNTS.findIndex((account) => account.loginName === loginName);
  if (demo >= 0) return demo + 1;
  const match = /^(hz|sz)(\d{2})$/.exec(loginName);
  if (!match) throw new Error(`unknown seeded user ${loginName}`);
  return DEMO_ACCOUNTS.length + (match[1] === 'sz' ? STAFF_PER_TENANT : 0) + Number(match[2]);
}

/** One step of an order's life. */
export interface Step {
  action: string;
  to: string;
  /** Who takes it. */
  by: 'creator' | 'admin' | 'assignee';
  /** Hours after the previous step: at least, at most. */
  hours: readonly [number, number];
  remark?: string;
}

export interface OrderDraft {
  id: number;
  type: WorkOrderType;
  title: string;
  description: string;
  source: string;
  sourceCode: string | null;
  priority: string;
  faultType: string | null;
  maintenanceType: string | null;
  tenantCode: string;
  organizationCode: string;
  deviceCode: string | null;
  address: string;
  contactName: string;
  contactPhone: string;
  batch: BatchDraft | null;
  creatorId: number | null;
  assigneeId: number | null;
  adminId: number;
  planStart: number | null;
  deadline: number | null;
  createdAt: number;
  steps: Array<{ action: string; from: string | null; to: string; operatorId: number | null; remark: string; at: number }>;
  fields: Row;
  formTemplateId: number | null;
  formData: JsonObject | null;
}

export interface BatchDraft {
  id: number;
  code: string;
  name: string;
  tenantCode: string;
  organizationCode: string;
  faultType: string;
  priority: string;
  description: string;
  creatorId: number;
  assigneeId: number | null;
  deadline: number;
  createdAt: number;
}

export type Device = Row & { code: string; name: string; organization_code: string; tenant_code: string; address: string; product_code: string };

/** The repair order's paths to each state (REPAIR_TRANSITIONS), one chosen per order. */
function repairPath(random: Random, state: string, remarks: { result: string }): Step[] {
  const assign: Step = { action: 'assign', to: 'assigned', by: 'admin', hours: [0.2, 8] };
  const accept: Step = { action: 'accept', to: 'accepted', by: 'assignee', hours: [0.2, 10] };
  const start: Step = { action: 'start', to: 'in_progress', by: 'assignee', hours: [0.5, 24] };
  const complete: Step = { action: 'complete', to: 'completed', by: 'assignee', hours: [1, 60], remark: remarks.result };
  const audit: Step = { action: 'audit', to: 'audited', by: 'admin', hours: [2, 72] };
  const worked = [assign, accept, start, complete];
  switch (state) {
    case 'created':
      return [];
    case 'assigned':
      return [assign];
    case 'accepted':
      return [assign, accept];
    case 'in_progress':
      return [assign, accept, start];
    case 'completed':
      return worked;
    case 'audited':
      return [...worked, audit];
    case 'closed':
      return random.next() < 0.8
        ? [...worked, audit, { action: 'close', to: 'closed', by: 'admin', hours: [1, 48], remark: random.pick(CLOSINGS) }]
        : [...(random.next() < 0.5 ? [assign] : []), { action: 'close', to: 'closed', by: 'admin', hours: [1, 24], remark: random.pick(CANCELLATIONS) }];
    case 'rejected':
      return random.next() < 0.5
        ? [assign, ...(random.next() < 0.5 ? [accept] : []), { action: 'refuse', to: 'rejected', by: 'assignee', hours: [0.5, 20], remark: random.pick(REFUSALS) }]
        : [...worked, { action: 'reject', to: 'rejected', by: 'admin', hours: [2, 48], remark: random.pick(AUDIT_REJECTIONS) }];
    default:
      throw new Error(`no path to ${state}`);
  }
}

export function weighted(random: Random, items: ReadonlyArray<readonly [string, number]>): string {
  const total = items.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random.next() * total;
  for (const [value, weight] of items) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return items[items.length - 1][0];
}

/** When an order last took `action`, or null. */
export function lastStep(draft: OrderDraft, action: string): string | null {
  const step = [...draft.steps].reverse().find((s) => s.action === action);
  return step ? iso(step.at) : null;
}

export interface RepairOptions {
  assignee?: string;
  source?: string;
  sourceCode?: string | null;
  creatorId?: number | null;
  batch?: BatchDraft | null;
  title?: string;
  description?: string;
  faultType?: string;
  createdBefore?: number;
  createdAfter?: number;
}

/** The world the work happens in, and the orders written so far. */
export class WorkWorld {
  readonly orders: OrderDraft[] = [];
  readonly orgName: Map<string, string>;
  private readonly organizations = flattenOrganizations();
  private readonly live: Device[];

  constructor(
    readonly random: Random,
    readonly now: number,
    readonly timeZone: string,
    fleet: DeviceTables,
  ) {
    this.orgName = new Map(this.organizations.map((org) => [org.code, org.name]));
    this.live = (fleet.devices as Device[]).filter((device) => device.deleted_at === null);
  }

  between(low: number, high: number): number {
    return low + this.random.next() * (high - low);
  }

  devicesOf(tenantCode: string): Device[] {
    return this.live.filter((device) => device.tenant_code === tenantCode);
  }

  /** Faulty and offline devices are the ones that need repair most. */
  troubled(tenantCode: string): Device[] {
    return this.devicesOf(tenantCode).filter((device) => device.health_state !== 'healthy' || device.online_state === 'offline');
  }

  /** The tenant's projects and areas. */
  sites(tenantCode: string): string[] {
    return this.organizations.filter((org) => org.code.startsWith(tenantCode) && (org.type === ORGANIZATION_TYPE.project || org.type === ORGANIZATION_TYPE.area)).map((org) => org.code);
  }

  /**
   * Plays an order's steps: durations first, then a creation time that lets the last step fall
   * before now (finished work lies further back, open work is recent).
   */
  play(draft: Omit<OrderDraft, 'steps' | 'createdAt' | 'id'>, path: Step[], age: { open: boolean; createdBefore?: number; createdAfter?: number }): OrderDraft {
    const { now } = this;
    const gaps = path.map((step) => this.between(step.hours[0], step.hours[1]) * HOUR_MS);
    const span = gaps.reduce((sum, gap) => sum + gap, 0);
    const latest = Math.min(now - span - 10 * 60_000, age.createdBefore ?? Infinity);
    const slack = age.open ? this.between(0, 12) * DAY_MS : this.between(0, 170) * DAY_MS;
    const createdAt = Math.round(Math.min(latest, Math.max(latest - slack, age.createdAfter ?? -Infinity, latest - 200 * DAY_MS)));
    const steps: OrderDraft['steps'] = [{ action: 'create', from: null, to: 'created', operatorId: draft.creatorId, remark: '', at: createdAt }];
    let at = createdAt;
    let state = 'created';
    path.forEach((step, index) => {
      at = Math.round(at + gaps[index]);
      const operatorId = step.by === 'assignee' ? draft.assigneeId : step.by === 'admin' ? draft.adminId : draft.creatorId;
      steps.push({ action: step.action, from: state, to: step.to, operatorId, remark: step.remark ?? '', at });
      state = step.to;
    });
    return { ...draft, id: 0, createdAt, steps };
  }

  /** The time columns and outcome fields of a repair order from its steps. */
  private repairFields(draft: OrderDraft, result: string, cause: string): Row {
    const { random } = this;
    const completed = lastStep(draft, 'complete');
    const audited = lastStep(draft, 'audit');
    const rejected = draft.steps.find((step) => step.action === 'reject' || step.action === 'refuse');
    const refused = rejected?.action === 'refuse';
    return {
      assigned_at: lastStep(draft, 'assign'),
      accepted_at: lastStep(draft, 'accept'),
      started_at: lastStep(draft, 'start'),
      completed_at: completed,
      audited_at: audited,
      closed_at: lastStep(draft, 'close'),
      result: completed ? result : '',
      fault_cause: completed ? cause : '',
      cost: completed && random.next() < 0.7 ? Math.round(this.between(20, 900)) : null,
      audit_state: audited ? 'approved' : rejected && !refused ? 'rejected' : completed ? 'pending' : null,
      audit_opinion: audited ? random.pick(AUDIT_OPINIONS) : rejected && !refused ? rejected.remark : '',
      reject_reason: rejected ? rejected.remark : '',
      close_reason: draft.steps.find((step) => step.action === 'close')?.remark ?? '',
    };
  }

  /** A repair order about `device` in `state`. */
  repairOrder(tenantCode: string, device: Device, state: string, options: RepairOptions): OrderDraft {
    const { random } = this;
    const force = WORKFORCE[tenantCode];
    const faultType = options.faultType ?? random.pick(FAULT_TYPES);
    const fault = FAULTS[faultType];
    const priority = weighted(random, PRIORITY_WEIGHTS);
    const result = random.pick(fault.results);
    const path = repairPath(random, state, { result });
    const assignee = path.some((step) => step.action === 'assign') ? (options.assignee ?? random.pick(force.repairers)) : null;
    const source = options.source ?? (random.next() < 0.35 ? 'alarm' : 'manual');
    const creatorId = options.creatorId !== undefined ? options.creatorId : source === 'alarm' ? null : userId(random.pick(force.creators));
    const draft = this.play(
      {
        type: 'repair',
        title: options.title ?? `${device.name} ${fault.phrase}`,
        description:
          options.description ??
          (source === 'alarm' ? `设备告警自动转工单：${device.name}（${device.code}）${fault.phrase}，请尽快到场处理。` : `${device.address}的${device.name}${fault.phrase}，请到场检查处理。`),
        source,
        sourceCode: options.sourceCode ?? null,
        priority,
        faultType,
        maintenanceType: null,
        tenantCode,
        organizationCode: device.organization_code,
        deviceCode: device.code,
        address: device.address,
        contactName: random.pick(CONTACTS),
        contactPhone: `13${random.int(5, 9)}${String(random.int(0, 99_999_999)).padStart(8, '0')}`,
        batch: options.batch ?? null,
        creatorId,
        assigneeId: assignee ? userId(assignee) : null,
        adminId: userId(force.admin),
        planStart: null,
        deadline: null,
        fields: {},
        formTemplateId: null,
        formData: null,
      },
      path,
      { open: OPEN.has(state), createdBefore: options.createdBefore, createdAfter: options.createdAfter },
    );
    draft.deadline = draft.createdAt + PRIORITY_DAYS[priority] * DAY_MS;
    draft.fields = this.repairFields(draft, result, random.pick(fault.causes));
    this.orders.push(draft);
    return draft;
  }
}

