import type { JsonObject } from '../db/bulk';
import type { WorkOrderType } from '../domain/workOrders';
import { AUDIT_OPINIONS, FIELD_TEXTS as T, PRODUCT_STEM, VOLUME, WORKFORCE } from './fixtures/work';
import { lastStep, userId, weighted, type Device, type OrderDraft, type Step, type WorkWorld } from './workWorld';
import { DAY_MS } from './clock';

/** The demo world's field work: construction, survey and maintenance orders of each tenant. */

interface FieldContent {
  title: string;
  description: string;
  result: string;
  device: Device | null;
  site: string;
  assignee: string | null;
  planStart: number | null;
  deadline: number | null;
  maintenanceType?: string;
  form?: { template: number; data: JsonObject };
}

/** A construction, survey or maintenance order of `tenantCode` in `state`, taken along `path`. */
function fieldOrder(world: WorkWorld, type: Exclude<WorkOrderType, 'repair'>, tenantCode: string, path: Step[], state: string, content: FieldContent): OrderDraft {
  const { random } = world;
  const force = WORKFORCE[tenantCode];
  const draft = world.play(
    {
      type,
      title: content.title,
      description: content.description,
      source: 'manual',
      sourceCode: null,
      priority: 'normal',
      faultType: null,
      maintenanceType: content.maintenanceType ?? null,
      tenantCode,
      organizationCode: content.device?.organization_code ?? content.site,
      deviceCode: content.device?.code ?? null,
      address: content.device?.address ?? `${world.orgName.get(content.site)}现场`,
      contactName: '',
      contactPhone: '',
      batch: null,
      creatorId: userId(force.admin),
      assigneeId: content.assignee ? userId(content.assignee) : null,
      adminId: userId(force.admin),
      planStart: content.planStart,
      deadline: content.deadline,
      fields: {},
      formTemplateId: content.form?.template ?? null,
      formData: content.form?.data ?? null,
    },
    path,
    { open: !['completed', 'audited'].includes(state), createdBefore: content.planStart ?? undefined },
  );
  const done = lastStep(draft, 'submit') ?? lastStep(draft, 'complete');
  const rejected = draft.steps.find((step) => step.action === 'reject');
  draft.fields = {
    assigned_at: lastStep(draft, 'assign'),
    started_at: lastStep(draft, 'start') ?? (type === 'maintenance' ? done : null),
    completed_at: done,
    audited_at: lastStep(draft, 'audit'),
    result: done || state === 'in_progress' || state === 'rejected' ? content.result : '',
    audit_state: type !== 'construction' || !done ? null : state === 'audited' ? 'approved' : state === 'rejected' ? 'rejected' : 'pending',
    audit_opinion: state === 'audited' ? random.pick(AUDIT_OPINIONS) : (rejected?.remark ?? ''),
    reject_reason: rejected?.remark ?? '',
    cost: type === 'maintenance' && done && random.next() < 0.5 ? Math.round(world.between(30, 600)) : null,
  };
  world.orders.push(draft);
  return draft;
}

const assign: Step = { action: 'assign', to: 'assigned', by: 'admin', hours: [0.5, 24] };
const start: Step = { action: 'start', to: 'in_progress', by: 'assignee', hours: [2, 72] };

function constructions(world: WorkWorld, tenantCode: string): void {
  const { random, now } = world;
  const force = WORKFORCE[tenantCode];
  const tenantSites = world.sites(tenantCode);
  for (let n = 0; n < VOLUME[tenantCode].constructions; n += 1) {
    const forced = tenantCode === 'T0001' && n < 12 ? (['assigned', 'in_progress', 'completed', 'audited', 'rejected', 'created'] as const)[n % 6] : null;
    const state = forced ?? weighted(random, [['created', 5], ['assigned', 14], ['in_progress', 20], ['completed', 18], ['audited', 33], ['rejected', 10]]);
    const site = random.pick(tenantSites);
    const device = random.next() < 0.7 ? random.pick(world.devicesOf(tenantCode).filter((d) => d.organization_code.startsWith(site)).concat(world.devicesOf(tenantCode).slice(0, 1))) : null;
    const stem = device ? (PRODUCT_STEM.get(device.product_code) ?? '设备') : random.pick(T.constructionStems);
    const submit: Step = { action: 'submit', to: 'completed', by: 'assignee', hours: [4, 96] };
    // Every path is written out (the rejection draws its remark whichever state is taken).
    const path: Step[] = {
      created: [],
      assigned: [assign],
      in_progress: [assign, start],
      completed: [assign, start, submit],
      audited: [assign, start, submit, { action: 'audit', to: 'audited', by: 'admin', hours: [2, 72] }],
      rejected: [assign, start, submit, { action: 'reject', to: 'rejected', by: 'admin', hours: [2, 48], remark: random.pick(T.constructionRejections) }],
    }[state] as Step[];
    const plan = now + world.between(-150, 20) * DAY_MS;
    fieldOrder(world, 'construction', tenantCode, path, state, {
      title: `${world.orgName.get(site)}${stem}${random.pick(T.constructionKinds)}`,
      description: `在${world.orgName.get(site)}完成${stem}的${random.pick(T.constructionWorks)}，含管件、线缆与防护箱安装，调试上线。`,
      result: random.pick(T.constructionResults),
      device,
      site,
      assignee: state === 'created' ? null : forced ? 'implement' : random.pick(force.implementers),
      planStart: state === 'created' || state === 'assigned' ? Math.max(plan, now + DAY_MS) : null,
      deadline: null,
      form:
        random.next() < 0.3
          ? { template: 2, data: { installPosition: random.pick(T.installPositions), pipeDiameter: random.pick(T.pipeDiameters), sealNumber: `QF${random.int(100000, 999999)}` } }
          : undefined,
    });
  }
}

function surveys(world: WorkWorld, tenantCode: string): void {
  const { random, now } = world;
  const force = WORKFORCE[tenantCode];
  const tenantSites = world.sites(tenantCode);
  for (let n = 0; n < VOLUME[tenantCode].surveys; n += 1) {
    const forced = tenantCode === 'T0001' && n < 8 ? (['assigned', 'in_progress', 'completed', 'created'] as const)[n % 4] : null;
    const state = forced ?? weighted(random, [['created', 8], ['assigned', 20], ['in_progress', 20], ['completed', 52]]);
    const site = random.pick(tenantSites);
    const complete: Step = { action: 'complete', to: 'completed', by: 'assignee', hours: [2, 72] };
    const path: Step[] = { created: [], assigned: [assign], in_progress: [assign, start], completed: [assign, start, complete] }[state] as Step[];
    fieldOrder(world, 'exploration', tenantCode, path, state, {
      title: `${world.orgName.get(site)}${random.pick(T.surveyTitles)}`,
      description: random.pick(T.surveyDescriptions),
      result: random.pick(T.surveyResults),
      device: null,
      site,
      assignee: state === 'created' ? null : forced ? 'implement' : random.pick(force.implementers),
      planStart: state === 'completed' ? null : Math.round(now + world.between(1, 25) * DAY_MS),
      deadline: null,
      form: random.next() < 0.3 ? { template: 1, data: { signalDbm: -random.int(70, 110), wellDepth: random.int(60, 180) / 100, powerSupply: random.pick(T.powerSupplies) } } : undefined,
    });
  }
}

function maintenance(world: WorkWorld, tenantCode: string): void {
  const { random, now } = world;
  const force = WORKFORCE[tenantCode];
  for (let n = 0; n < VOLUME[tenantCode].maintenance; n += 1) {
    const forced = tenantCode === 'T0001' && n < 8 ? ([['assigned', 'repair'], ['completed', 'repair'], ['assigned', 'implement'], ['completed', 'implement']] as const)[n % 4] : null;
    const state = forced?.[0] ?? weighted(random, [['assigned', 35], ['completed', 65]]);
    const device = random.pick(world.devicesOf(tenantCode));
    const maintenanceType = random.pick(T.maintenanceTypes);
    const label = T.maintenanceLabels[maintenanceType];
    const planStart = state === 'completed' ? Math.round(now - world.between(5, 170) * DAY_MS) : Math.round(now + world.between(-12, 40) * DAY_MS);
    const complete: Step = { action: 'complete', to: 'completed', by: 'assignee', hours: [2, 120], remark: '维保完成' };
    const path: Step[] = state === 'completed' ? [assign, complete] : [assign];
    fieldOrder(world, 'maintenance', tenantCode, path, state, {
      title: `${device.name}${label}`,
      description: `${label}：${random.pick(T.maintenanceTasks)}。`,
      result: random.pick(T.maintenanceResults),
      device,
      site: device.organization_code,
      assignee: forced?.[1] ?? random.pick(force.repairers),
      planStart,
      deadline: planStart + 7 * DAY_MS,
      maintenanceType,
      form: random.next() < 0.2 ? { template: 3, data: { checklist: ['外观', '密封', '读数'], batteryVoltage: random.int(330, 368) / 100 } } : undefined,
    });
  }
}

/** Construction, surveys and maintenance, tenant by tenant. */
export function fieldWork(world: WorkWorld): void {
  for (const tenantCode of Object.keys(VOLUME)) {
    constructions(world, tenantCode);
    surveys(world, tenantCode);
    maintenance(world, tenantCode);
  }
}
