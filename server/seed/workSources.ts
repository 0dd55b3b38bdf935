import type { Row } from '../db/bulk';
import { CODE_PREFIX, workCode } from '../domain/workOrders';
import { BATCH_PLANS, FAULT_TYPES, FAULTS, PATROL_CONTENTS, PATROL_NAMES, PATROL_NOTES, REPAIR_STATE_WEIGHTS, REPORT_ORIGINS, VOLUME, WORKFORCE } from './fixtures/work';
import { userId, weighted, type BatchDraft, type Device, type OrderDraft, type WorkWorld } from './workWorld';
import { HOUR_MS, DAY_MS, iso } from './clock';

/**
 * Where the demo world's repair orders come from: by hand and from alarms, from fault reports, in
 * repair batches, and from abnormal findings of patrols.
 */

export interface SourceTables {
  reportDrafts: Array<{ row: Row; order: OrderDraft | null }>;
  patrolRecords: Array<{ row: Row; order: OrderDraft | null }>;
}

/** Repair orders by hand and from alarms; the demo repairers hold some in every state first. */
export function repairsByHand(world: WorkWorld): void {
  const { random } = world;
  for (const tenantCode of Object.keys(VOLUME)) {
    const pool = world.troubled(tenantCode);
    const anyDevice = world.devicesOf(tenantCode);
    const pick = () => (random.next() < 0.7 ? random.pick(pool) : random.pick(anyDevice));
    const own = tenantCode === 'T0001' ? ['repair', 'implement'] : [];
    for (const loginName of own)
      for (const [state] of REPAIR_STATE_WEIGHTS) if (state !== 'created') for (let n = 0; n < 3; n += 1) world.repairOrder(tenantCode, pick(), state, { assignee: loginName });
    for (let n = 0; n < VOLUME[tenantCode].orders; n += 1) world.repairOrder(tenantCode, pick(), weighted(random, REPAIR_STATE_WEIGHTS), {});
  }
}

const phone = (world: WorkWorld) => `13${world.random.int(5, 9)}${String(world.random.int(0, 99_999_999)).padStart(8, '0')}`;

/** Fault reports: the older ones mostly turned into repair orders. */
export function faultReports(world: WorkWorld): SourceTables['reportDrafts'] {
  const { random, now, timeZone } = world;
  const drafts: SourceTables['reportDrafts'] = [];
  for (const [tenantCode, volume] of Object.entries(VOLUME)) {
    const force = WORKFORCE[tenantCode];
    const pool = world.troubled(tenantCode);
    for (let n = 0; n < volume.reports; n += 1) {
      const device = random.pick(pool);
      const faultType = random.pick(FAULT_TYPES);
      // The demo reporters report something every week or so.
      const reporter = n < 16 && tenantCode === 'T0001' ? (n % 2 === 0 ? 'repair' : 'patrol') : random.pick(force.reporters);
      const converted = n % 5 === 0 ? false : random.next() < 0.65;
      const createdAt = Math.round(now - (converted ? world.between(1, 170) : world.between(0.05, 20)) * DAY_MS);
      const description = `${device.address}的${device.name}${FAULTS[faultType].phrase}，${random.pick(REPORT_ORIGINS)}。`;
      const row: Row = {
        id: n + 1 + (tenantCode === 'T0001' ? 0 : VOLUME.T0001.reports),
        code: '',
        tenant_code: tenantCode,
        organization_code: device.organization_code,
        device_code: device.code,
        fault_type: faultType,
        description,
        contact_phone: random.next() < 0.6 ? phone(world) : '',
        reporter_id: userId(reporter),
        state: converted ? 'converted' : 'pending',
        order_id: null,
        converted_at: null,
        created_at: iso(createdAt),
      };
      row.code = workCode(CODE_PREFIX.report, Number(row.id), new Date(createdAt), timeZone);
      let order: OrderDraft | null = null;
      if (converted) {
        order = world.repairOrder(tenantCode, device, weighted(random, REPAIR_STATE_WEIGHTS.filter(([state]) => state !== 'created')), {
          source: 'report',
          sourceCode: String(row.code),
          creatorId: userId(force.admin),
          title: `${FAULTS[faultType].phrase}·${device.name}`,
          description,
          faultType,
          createdAfter: createdAt + HOUR_MS,
        });
        if (order.createdAt <= createdAt) {
          // The order came after the report: move the report back before it.
          row.created_at = iso(order.createdAt - Math.round(world.between(0.5, 20) * HOUR_MS));
          row.code = workCode(CODE_PREFIX.report, Number(row.id), new Date(row.created_at), timeZone);
          order.sourceCode = String(row.code);
        }
        row.converted_at = iso(order.createdAt);
      }
      drafts.push({ row, order });
    }
  }
  return drafts;
}

/** `size` different devices drawn from `candidates`. */
function drawDevices(world: WorkWorld, candidates: readonly Device[], size: number): Map<string, Device> {
  const chosen = new Map<string, Device>();
  while (chosen.size < size) {
    const device = world.random.pick(candidates);
    chosen.set(device.code, device);
  }
  return chosen;
}

/** Repair batches: a set of like devices repaired together, each with its own order. */
export function repairBatches(world: WorkWorld): BatchDraft[] {
  const { random, now, timeZone } = world;
  const batches: BatchDraft[] = [];
  for (const [tenantCode, volume] of Object.entries(VOLUME)) {
    const force = WORKFORCE[tenantCode];
    for (let n = 0; n < volume.batches; n += 1) {
      const plan = BATCH_PLANS[n % BATCH_PLANS.length];
      const project = random.pick(world.sites(tenantCode).filter((code) => code.length === 8));
      let candidates = world.devicesOf(tenantCode).filter((device) => device.product_code === plan.product && device.organization_code.startsWith(project));
      if (candidates.length < 6) candidates = world.devicesOf(tenantCode).filter((device) => device.product_code === plan.product);
      const size = random.int(6, 18);
      const chosen = drawDevices(world, candidates, Math.min(size, candidates.length));
      const ageDays = n < 4 ? world.between(1, 10) : world.between(12, 160);
      const createdAt = Math.round(now - ageDays * DAY_MS);
      const assignee = tenantCode === 'T0001' && n % 3 === 0 ? 'implement' : random.pick(force.repairers);
      const sameProject = [...chosen.values()].every((device) => device.organization_code.startsWith(project));
      const batch: BatchDraft = {
        id: batches.length + 1,
        code: workCode(CODE_PREFIX.batch, batches.length + 1, new Date(createdAt), timeZone),
        name: `${world.orgName.get(project)}${plan.name}`,
        tenantCode,
        organizationCode: sameProject ? project : tenantCode,
        faultType: plan.faultType,
        priority: random.pick(['high', 'normal', 'normal']),
        description: `${world.orgName.get(project)}范围内 ${chosen.size} 台设备${FAULTS[plan.faultType].phrase}，统一安排处理。`,
        creatorId: userId(force.admin),
        assigneeId: userId(assignee),
        deadline: createdAt + 14 * DAY_MS,
        createdAt,
      };
      batches.push(batch);
      for (const device of chosen.values()) {
        // Older batches are mostly done; recent ones are under way.
        const state =
          ageDays > 30
            ? weighted(random, [['audited', 6], ['closed', 3], ['completed', 1]])
            : weighted(random, [['assigned', 3], ['accepted', 2], ['in_progress', 3], ['completed', 2], ['audited', 1]]);
        const order = world.repairOrder(tenantCode, device, state, {
          assignee,
          source: 'manual',
          creatorId: batch.creatorId,
          batch,
          title: `${batch.name}·${device.name}`,
          description: batch.description,
          faultType: plan.faultType,
          createdAfter: createdAt,
          createdBefore: createdAt + 60_000,
        });
        order.deadline = batch.deadline;
      }
    }
  }
  return batches;
}

type PatrolState = 'pending' | 'in_progress' | 'completed' | 'overdue';

/** When a patrol is planned to start: ahead, under way or past (on the hour). */
function patrolStart(world: WorkWorld, forced: PatrolState | null): number {
  const { random, now } = world;
  let start: number;
  if (forced === 'pending' || (!forced && random.next() < 0.12)) start = now + world.between(0.5, 20) * DAY_MS;
  else if (forced === 'in_progress') start = now - world.between(2, 20) * HOUR_MS;
  else if (forced) start = now - world.between(5, 120) * DAY_MS;
  else start = now - world.between(2, 120) * DAY_MS;
  return Math.floor(start / HOUR_MS) * HOUR_MS;
}

/** How many of a patrol's devices were checked by now. */
function patrolProgress(world: WorkWorld, forced: PatrolState | null, start: number, end: number, devices: number): number {
  const { random, now } = world;
  if (end < now) return forced === 'overdue' ? 0 : forced === 'completed' ? devices : random.next() < 0.85 ? devices : random.next() < 0.5 ? 0 : random.int(1, devices - 1);
  if (start < now) return forced === 'in_progress' ? Math.max(1, Math.floor(devices / 2)) : random.int(0, devices - 1);
  return 0;
}

/** Patrol tasks along the devices of a site; abnormal findings became repair orders. */
export function patrolTasks(world: WorkWorld): { tasks: Row[]; devices: Row[]; records: SourceTables['patrolRecords'] } {
  const { random, now, timeZone } = world;
  const tasks: Row[] = [];
  const taskDevices: Row[] = [];
  const records: SourceTables['patrolRecords'] = [];
  for (const [tenantCode, volume] of Object.entries(VOLUME)) {
    const force = WORKFORCE[tenantCode];
    const tenantSites = world.sites(tenantCode);
    for (let n = 0; n < volume.patrols; n += 1) {
      const site = random.pick(tenantSites);
      const candidates = world.devicesOf(tenantCode).filter((device) => device.organization_code.startsWith(site));
      if (candidates.length < 3) continue;
      // The demo patroller's first tasks cover every state: ahead, under way, done, overdue.
      const forced = tenantCode === 'T0001' && n < 12 ? (['pending', 'in_progress', 'completed', 'overdue'] as const)[n % 4] : null;
      const patroller = force.patrollers.length === 0 ? null : forced ? 'patrol' : random.pick(force.patrollers);
      const start = patrolStart(world, forced);
      const end = start + random.int(1, 3) * DAY_MS;
      const devices = [...drawDevices(world, candidates, Math.min(candidates.length, random.int(4, 12))).values()];
      const id = tasks.length + 1;
      const createdAt = Math.min(start, now) - Math.round(world.between(1, 72) * HOUR_MS);
      // How far the patroller got.
      const checked = patroller ? patrolProgress(world, forced, start, end, devices.length) : 0;
      const completed = checked === devices.length && devices.length > 0;
      let at = Math.max(start, createdAt) + Math.round(world.between(0.5, 6) * HOUR_MS);
      const checkTimes: number[] = [];
      for (let i = 0; i < checked; i += 1) {
        at += Math.round(world.between(0.1, completed ? 4 : 1.5) * HOUR_MS);
        checkTimes.push(Math.min(at, now - 60_000, completed ? end - 60_000 : now - 60_000));
      }
      const code = workCode(CODE_PREFIX.patrol, id, new Date(createdAt), timeZone);
      tasks.push({
        id,
        code,
        name: `${world.orgName.get(site)}${random.pick(PATROL_NAMES)}`,
        tenant_code: tenantCode,
        organization_code: site,
        assignee_id: patroller ? userId(patroller) : null,
        creator_id: userId(force.admin),
        plan_start_at: iso(start),
        plan_end_at: iso(end),
        state: completed ? 'completed' : checked > 0 ? 'in_progress' : 'pending',
        content: random.pick(PATROL_CONTENTS),
        started_at: checkTimes.length ? iso(checkTimes[0]) : null,
        completed_at: completed ? iso(checkTimes[checkTimes.length - 1]) : null,
        created_at: iso(createdAt),
        updated_at: iso(checkTimes.length ? checkTimes[checkTimes.length - 1] : createdAt),
      });
      devices.forEach((device, index) => {
        taskDevices.push({ task_id: id, device_code: device.code, sort: index + 1 });
        if (index < checked) records.push(patrolCheck(world, { tenantCode, id, code, patroller, device, checkedAt: checkTimes[index] }));
      });
    }
  }
  return { tasks, devices: taskDevices, records };
}

/** One device checked on a patrol; an abnormal finding became a repair order. */
function patrolCheck(world: WorkWorld, check: { tenantCode: string; id: number; code: string; patroller: string | null; device: Device; checkedAt: number }): SourceTables['patrolRecords'][number] {
  const { random } = world;
  const { device, patroller } = check;
  const abnormal = random.next() < 0.07;
  const faultType = random.pick(FAULT_TYPES);
  const description = abnormal ? `${FAULTS[faultType].phrase}，已拍照记录。` : random.pick(PATROL_NOTES);
  const order = abnormal
    ? world.repairOrder(check.tenantCode, device, weighted(random, REPAIR_STATE_WEIGHTS), {
        source: 'patrol',
        sourceCode: check.code,
        creatorId: patroller ? userId(patroller) : null,
        title: `巡检异常·${device.name}`,
        description,
        faultType,
        createdAfter: check.checkedAt + 60_000,
        createdBefore: check.checkedAt + 10 * 60_000,
      })
    : null;
  return {
    row: {
      id: 0,
      task_id: check.id,
      device_code: device.code,
      result: abnormal ? 'abnormal' : 'normal',
      description,
      patroller_id: patroller ? userId(patroller) : null,
      repair_order_id: null,
      checked_at: iso(check.checkedAt),
    },
    order,
  };
}
