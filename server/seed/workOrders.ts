import type { JsonObject, Row, SeedData } from '../db/bulk';
import { ORGANIZATION_TYPE } from '../domain/organizations';
import { CODE_PREFIX, workCode, type WorkOrderType } from '../domain/workOrders';
import { DEMO_ACCOUNTS } from './accounts';
import type { DeviceTables } from './devices';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';

/**
 * The demo world's work (issue 6): repair orders in every state (by hand, from alarms, fault
 * reports, patrols and repair batches) with their full history, fault reports, repair batches,
 * patrol tasks with their checks, construction, survey and maintenance orders. The demo repair,
 * patrol and implementer accounts hold work of their own in every state, beside other
 * implementers' work they must not see. Everything happens before `today`, except plans ahead.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Seeded user ids by login name: the demo accounts first, then the generated staff hz01…hz08
 * and sz01…sz08 (server/seed/users.ts). Their roles come from the user seed; a server test checks
 * that everyone given work here holds a role for it.
 */
const STAFF_PER_TENANT = 8;
function userId(loginName: string): number {
  const demo = DEMO_ACCOUNTS.findIndex((account) => account.loginName === loginName);
  if (demo >= 0) return demo + 1;
  const match = /^(hz|sz)(\d{2})$/.exec(loginName);
  if (!match) throw new Error(`unknown seeded user ${loginName}`);
  return DEMO_ACCOUNTS.length + (match[1] === 'sz' ? STAFF_PER_TENANT : 0) + Number(match[2]);
}

interface Workforce {
  admin: string;
  /** Who creates orders by hand. */
  creators: readonly string[];
  /** Repair and maintenance staff (ROLE_TENANT_REPAIR, ROLE_REPAIR_IMPLEMENT). */
  repairers: readonly string[];
  /** Implementers (ROLE_REPAIR_IMPLEMENT): construction and surveys. */
  implementers: readonly string[];
  /** Patrollers (ROLE_TENANT_PATROL). */
  patrollers: readonly string[];
  /** Who reports faults. */
  reporters: readonly string[];
}

const WORKFORCE: Record<string, Workforce> = {
  T0001: {
    admin: 'tadmin',
    creators: ['tadmin', 'tadmin', 'tuser', 'hz06'],
    // The demo accounts first: they get the larger share.
    repairers: ['repair', 'implement', 'repair', 'implement', 'hz02', 'hz03', 'hz05'],
    implementers: ['implement', 'implement', 'hz02', 'hz03'],
    patrollers: ['patrol', 'patrol', 'hz01', 'hz04', 'hz07'],
    reporters: ['tuser', 'repair', 'patrol', 'hz01', 'hz04', 'hz05', 'hz06', 'hz07'],
  },
  T0002: {
    admin: 'badmin',
    creators: ['badmin', 'badmin', 'sz05', 'sz07'],
    repairers: ['sz01', 'sz02', 'sz03', 'sz04', 'sz06'],
    implementers: ['sz01', 'sz02', 'sz03'],
    // The second tenant has no patrol staff: its tasks wait for one.
    patrollers: [],
    reporters: ['sz04', 'sz05', 'sz06', 'sz07'],
  },
};

/** How much work each tenant has. */
const VOLUME: Record<string, { orders: number; reports: number; batches: number; patrols: number; constructions: number; surveys: number; maintenance: number }> = {
  T0001: { orders: 560, reports: 300, batches: 16, patrols: 220, constructions: 120, surveys: 90, maintenance: 200 },
  T0002: { orders: 300, reports: 120, batches: 6, patrols: 24, constructions: 50, surveys: 40, maintenance: 90 },
};

const FAULTS: Record<string, { phrase: string; causes: readonly string[]; results: readonly string[] }> = {
  no_data: {
    phrase: '数据不上报',
    causes: ['主板程序跑飞', '上报周期配置被改', '模组死机'],
    results: ['现场重启设备并重新下发上报周期，数据恢复上报。', '升级固件至最新版本后恢复正常上报。', '更换通信模组，设备重新入网。'],
  },
  communication: {
    phrase: '通信中断',
    causes: ['物联网卡松动', '天线进水', '基站信号弱'],
    results: ['重新插拔物联网卡并加固卡槽，信号恢复。', '更换外置天线并做防水处理，信号强度恢复至 20 以上。', '移设天线至井盖外侧，通信恢复稳定。'],
  },
  metering: {
    phrase: '计量读数异常',
    causes: ['计量模块老化', '管道内有杂质卡阻', '安装方向错误'],
    results: ['拆检清理计量腔杂质，读数恢复正常。', '更换计量模块并现场比对读数，误差在允许范围内。', '按水流方向重新安装，读数正常。'],
  },
  battery: {
    phrase: '电池电量耗尽',
    causes: ['电池到期', '频繁唤醒耗电', '低温导致电池容量下降'],
    results: ['更换锂亚电池（3.6V 19Ah），设备恢复上报。', '更换电池并调整唤醒周期，预计续航 6 年。', '更换电池组，加装保温套。'],
  },
  valve: {
    phrase: '阀门无法开关',
    causes: ['阀门电机卡死', '阀体结垢', '控制板驱动损坏'],
    results: ['清理阀体结垢，阀门开关恢复正常。', '更换阀门电机，远程开关阀测试通过。', '更换控制板，开关阀指令执行正常。'],
  },
  sensor: {
    phrase: '传感器读数漂移',
    causes: ['探头污染', '传感器老化', '零点漂移'],
    results: ['清洗探头并重新校准，读数恢复正常。', '更换传感器探头，与标准仪器比对误差小于 1%。', '现场零点校准，读数稳定。'],
  },
  damage: {
    phrase: '外壳破损',
    causes: ['车辆碾压', '人为破坏', '老化开裂'],
    results: ['更换设备外壳并加装防护罩。', '更换整机，旧机返厂检测。', '修补外壳并做密封处理。'],
  },
  leakage: {
    phrase: '安装处渗水',
    causes: ['接口密封圈老化', '管件松动', '表井积水'],
    results: ['更换密封圈并紧固接口，无渗漏。', '重新安装管件并做打压试验，无渗漏。', '抽排表井积水并加装排水孔。'],
  },
  other: {
    phrase: '现场异常',
    causes: ['现场环境变化', '用户误操作', '周边施工影响'],
    results: ['现场检查并恢复设备安装状态，运行正常。', '与用户沟通后恢复设置，设备正常。', '调整安装位置，避开施工区域。'],
  },
};
const FAULT_TYPES = Object.keys(FAULTS);
const AUDIT_OPINIONS = ['处理及时，现场照片齐全。', '同意，维修记录完整。', '已电话回访，用户确认恢复。', '审核通过。'];
const AUDIT_REJECTIONS = ['现场照片缺失，请补充后重新提交。', '设备仍未恢复上报，请到场复查。', '处理说明过于简单，请补充故障原因。'];
const REFUSALS = ['设备不在本人负责片区，请改派。', '缺少备件，无法按期处理，请改派。', '本周在外地支援，无法到场。'];
const CANCELLATIONS = ['重复工单，已合并处理。', '用户误报，现场确认设备正常。', '设备已列入拆除计划，无需维修。'];
const CLOSINGS = ['已回访，工单关闭。', '维修完成，归档。', '问题已解决。'];
const CONTACTS = ['李师傅', '王经理', '张工', '陈主任', '物业刘工', '泵站值班员'];

const iso = (time: number) => new Date(time).toISOString();

/** One step of an order's life. */
interface Step {
  action: string;
  to: string;
  /** Who takes it. */
  by: 'creator' | 'admin' | 'assignee';
  /** Hours after the previous step: at least, at most. */
  hours: readonly [number, number];
  remark?: string;
}

interface OrderDraft {
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

interface BatchDraft {
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

type Device = Row & { code: string; name: string; organization_code: string; tenant_code: string; address: string; product_code: string };

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

/** Repair order states and how often each is seen. */
const REPAIR_STATE_WEIGHTS: ReadonlyArray<[string, number]> = [
  ['created', 6],
  ['assigned', 10],
  ['accepted', 7],
  ['in_progress', 11],
  ['completed', 10],
  ['audited', 30],
  ['closed', 18],
  ['rejected', 8],
];
const OPEN = new Set(['created', 'assigned', 'accepted', 'in_progress', 'rejected']);
const PRIORITY_WEIGHTS: ReadonlyArray<[string, number]> = [
  ['urgent', 8],
  ['high', 22],
  ['normal', 55],
  ['low', 15],
];
const PRIORITY_DAYS: Record<string, number> = { urgent: 1, high: 2, normal: 5, low: 10 };

function weighted(random: Random, items: ReadonlyArray<[string, number]>): string {
  const total = items.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random.next() * total;
  for (const [value, weight] of items) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return items[items.length - 1][0];
}

export function workOrdersTables(random: Random, today: Date, fleet: DeviceTables, timeZone: string): SeedData {
  const now = today.getTime();
  const organizations = flattenOrganizations();
  const orgName = new Map(organizations.map((org) => [org.code, org.name]));
  const live = (fleet.devices as Device[]).filter((device) => device.deleted_at === null);
  const devicesOf = (tenantCode: string) => live.filter((device) => device.tenant_code === tenantCode);
  /** Faulty and offline devices are the ones that need repair most. */
  const troubled = (tenantCode: string) => devicesOf(tenantCode).filter((device) => device.health_state !== 'healthy' || device.online_state === 'offline');
  const productStem = new Map<string, string>([
    ['PRD-WM-NB', '智能水表'],
    ['PRD-FM-4G', '电磁流量计'],
    ['PRD-PG-NB', '压力计'],
    ['PRD-LV-LR', '液位计'],
    ['PRD-WQ-MB', '水质传感器'],
    ['PRD-TH-LR', '温湿度传感器'],
    ['PRD-SD-NB', '烟感'],
    ['PRD-GW-4G', '边缘网关'],
  ]);
  const sites = (tenantCode: string) =>
    organizations.filter((org) => org.code.startsWith(tenantCode) && (org.type === ORGANIZATION_TYPE.project || org.type === ORGANIZATION_TYPE.area)).map((org) => org.code);

  const orders: OrderDraft[] = [];
  const between = (low: number, high: number) => low + random.next() * (high - low);

  /**
   * Plays an order's steps: durations first, then a creation time that lets the last step fall
   * before now (finished work lies further back, open work is recent).
   */
  function play(draft: Omit<OrderDraft, 'steps' | 'createdAt' | 'id'>, path: Step[], age: { open: boolean; createdBefore?: number; createdAfter?: number }): OrderDraft {
    const gaps = path.map((step) => between(step.hours[0], step.hours[1]) * HOUR_MS);
    const span = gaps.reduce((sum, gap) => sum + gap, 0);
    const latest = Math.min(now - span - 10 * 60_000, age.createdBefore ?? Infinity);
    const slack = age.open ? between(0, 12) * DAY_MS : between(0, 170) * DAY_MS;
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
  function repairFields(draft: OrderDraft, result: string, cause: string): Row {
    const when = (action: string) => {
      const step = [...draft.steps].reverse().find((s) => s.action === action);
      return step ? iso(step.at) : null;
    };
    const completed = when('complete');
    const audited = when('audit');
    const rejected = draft.steps.find((step) => step.action === 'reject' || step.action === 'refuse');
    const refused = rejected?.action === 'refuse';
    return {
      assigned_at: when('assign'),
      accepted_at: when('accept'),
      started_at: when('start'),
      completed_at: completed,
      audited_at: audited,
      closed_at: when('close'),
      result: completed ? result : '',
      fault_cause: completed ? cause : '',
      cost: completed && random.next() < 0.7 ? Math.round(between(20, 900)) : null,
      audit_state: audited ? 'approved' : rejected && !refused ? 'rejected' : completed ? 'pending' : null,
      audit_opinion: audited ? random.pick(AUDIT_OPINIONS) : rejected && !refused ? rejected.remark : '',
      reject_reason: rejected ? rejected.remark : '',
      close_reason: draft.steps.find((step) => step.action === 'close')?.remark ?? '',
    };
  }

  /** A repair order about `device` in `state`. */
  function repairOrder(
    tenantCode: string,
    device: Device,
    state: string,
    options: { assignee?: string; source?: string; sourceCode?: string | null; creatorId?: number | null; batch?: BatchDraft | null; title?: string; description?: string; faultType?: string; createdBefore?: number; createdAfter?: number },
  ): OrderDraft {
    const force = WORKFORCE[tenantCode];
    const faultType = options.faultType ?? random.pick(FAULT_TYPES);
    const fault = FAULTS[faultType];
    const priority = weighted(random, PRIORITY_WEIGHTS);
    const result = random.pick(fault.results);
    const path = repairPath(random, state, { result });
    const assignee = path.some((step) => step.action === 'assign') ? (options.assignee ?? random.pick(force.repairers)) : null;
    const source = options.source ?? (random.next() < 0.35 ? 'alarm' : 'manual');
    const creatorId = options.creatorId !== undefined ? options.creatorId : source === 'alarm' ? null : userId(random.pick(force.creators));
    const draft = play(
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
    draft.fields = repairFields(draft, result, random.pick(fault.causes));
    orders.push(draft);
    return draft;
  }

  // Repair orders by hand and from alarms; the demo repairers hold some in every state first.
  for (const tenantCode of Object.keys(VOLUME)) {
    const pool = troubled(tenantCode);
    const anyDevice = devicesOf(tenantCode);
    const pick = () => (random.next() < 0.7 ? random.pick(pool) : random.pick(anyDevice));
    const own = tenantCode === 'T0001' ? ['repair', 'implement'] : [];
    for (const loginName of own)
      for (const [state] of REPAIR_STATE_WEIGHTS) if (state !== 'created') for (let n = 0; n < 3; n += 1) repairOrder(tenantCode, pick(), state, { assignee: loginName });
    for (let n = 0; n < VOLUME[tenantCode].orders; n += 1) repairOrder(tenantCode, pick(), weighted(random, REPAIR_STATE_WEIGHTS), {});
  }

  // Fault reports: the older ones mostly turned into repair orders.
  const reports: Row[] = [];
  const reportDrafts: Array<{ row: Row; order: OrderDraft | null; createdAt: number }> = [];
  for (const [tenantCode, volume] of Object.entries(VOLUME)) {
    const force = WORKFORCE[tenantCode];
    const pool = troubled(tenantCode);
    for (let n = 0; n < volume.reports; n += 1) {
      const device = random.pick(pool);
      const faultType = random.pick(FAULT_TYPES);
      // The demo reporters report something every week or so.
      const reporter = n < 16 && tenantCode === 'T0001' ? (n % 2 === 0 ? 'repair' : 'patrol') : random.pick(force.reporters);
      const converted = n % 5 === 0 ? false : random.next() < 0.65;
      const createdAt = Math.round(now - (converted ? between(1, 170) : between(0.05, 20)) * DAY_MS);
      const description = `${device.address}的${device.name}${FAULTS[faultType].phrase}，${random.pick(['用户来电反映', '巡检时发现', '抄表时发现', '物业反映', '平台数据异常'])}。`;
      const row: Row = {
        id: n + 1 + (tenantCode === 'T0001' ? 0 : VOLUME.T0001.reports),
        code: '',
        tenant_code: tenantCode,
        organization_code: device.organization_code,
        device_code: device.code,
        fault_type: faultType,
        description,
        contact_phone: random.next() < 0.6 ? `13${random.int(5, 9)}${String(random.int(0, 99_999_999)).padStart(8, '0')}` : '',
        reporter_id: userId(reporter),
        state: converted ? 'converted' : 'pending',
        order_id: null,
        converted_at: null,
        created_at: iso(createdAt),
      };
      row.code = workCode(CODE_PREFIX.report, Number(row.id), new Date(createdAt), timeZone);
      let order: OrderDraft | null = null;
      if (converted) {
        order = repairOrder(tenantCode, device, weighted(random, REPAIR_STATE_WEIGHTS.filter(([state]) => state !== 'created')), {
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
          row.created_at = iso(order.createdAt - Math.round(between(0.5, 20) * HOUR_MS));
          row.code = workCode(CODE_PREFIX.report, Number(row.id), new Date(row.created_at as string), timeZone);
          order.sourceCode = String(row.code);
        }
        row.converted_at = iso(order.createdAt);
      }
      reportDrafts.push({ row, order, createdAt });
      reports.push(row);
    }
  }

  // Repair batches: a set of like devices repaired together, each with its own order.
  const batches: BatchDraft[] = [];
  const BATCH_PLANS = [
    { product: 'PRD-WM-NB', faultType: 'battery', name: '智能水表电池批量更换' },
    { product: 'PRD-PG-NB', faultType: 'sensor', name: '压力计批量校准维修' },
    { product: 'PRD-SD-NB', faultType: 'no_data', name: '烟感离线批量返修' },
    { product: 'PRD-WM-NB', faultType: 'valve', name: '阀控水表阀门批量检修' },
    { product: 'PRD-LV-LR', faultType: 'communication', name: '液位计通信批量整改' },
    { product: 'PRD-TH-LR', faultType: 'battery', name: '温湿度传感器电池批量更换' },
  ];
  for (const [tenantCode, volume] of Object.entries(VOLUME)) {
    const force = WORKFORCE[tenantCode];
    for (let n = 0; n < volume.batches; n += 1) {
      const plan = BATCH_PLANS[n % BATCH_PLANS.length];
      const project = random.pick(sites(tenantCode).filter((code) => code.length === 8));
      let candidates = devicesOf(tenantCode).filter((device) => device.product_code === plan.product && device.organization_code.startsWith(project));
      if (candidates.length < 6) candidates = devicesOf(tenantCode).filter((device) => device.product_code === plan.product);
      const size = random.int(6, 18);
      const chosen = new Map<string, Device>();
      while (chosen.size < Math.min(size, candidates.length)) {
        const device = random.pick(candidates);
        chosen.set(device.code, device);
      }
      const ageDays = n < 4 ? between(1, 10) : between(12, 160);
      const createdAt = Math.round(now - ageDays * DAY_MS);
      const assignee = tenantCode === 'T0001' && n % 3 === 0 ? 'implement' : random.pick(force.repairers);
      const sameProject = [...chosen.values()].every((device) => device.organization_code.startsWith(project));
      const batch: BatchDraft = {
        id: batches.length + 1,
        code: workCode(CODE_PREFIX.batch, batches.length + 1, new Date(createdAt), timeZone),
        name: `${orgName.get(project)}${plan.name}`,
        tenantCode,
        organizationCode: sameProject ? project : tenantCode,
        faultType: plan.faultType,
        priority: random.pick(['high', 'normal', 'normal']),
        description: `${orgName.get(project)}范围内 ${chosen.size} 台设备${FAULTS[plan.faultType].phrase}，统一安排处理。`,
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
        const order = repairOrder(tenantCode, device, state, {
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

  // Patrol tasks along the devices of a site; abnormal findings became repair orders.
  const patrolTasks: Row[] = [];
  const patrolDevices: Row[] = [];
  const patrolRecords: Array<{ row: Row; order: OrderDraft | null }> = [];
  for (const [tenantCode, volume] of Object.entries(VOLUME)) {
    const force = WORKFORCE[tenantCode];
    const tenantSites = sites(tenantCode);
    for (let n = 0; n < volume.patrols; n += 1) {
      const site = random.pick(tenantSites);
      const candidates = devicesOf(tenantCode).filter((device) => device.organization_code.startsWith(site));
      if (candidates.length < 3) continue;
      // The demo patroller's first tasks cover every state: ahead, under way, done, overdue.
      const forced = tenantCode === 'T0001' && n < 12 ? (['pending', 'in_progress', 'completed', 'overdue'] as const)[n % 4] : null;
      const patroller = force.patrollers.length === 0 ? null : forced ? 'patrol' : random.pick(force.patrollers);
      let start: number;
      if (forced === 'pending' || (!forced && random.next() < 0.12)) start = now + between(0.5, 20) * DAY_MS;
      else if (forced === 'in_progress') start = now - between(2, 20) * HOUR_MS;
      else if (forced) start = now - between(5, 120) * DAY_MS;
      else start = now - between(2, 120) * DAY_MS;
      start = Math.floor(start / HOUR_MS) * HOUR_MS;
      const end = start + random.int(1, 3) * DAY_MS;
      const size = Math.min(candidates.length, random.int(4, 12));
      const chosen = new Map<string, Device>();
      while (chosen.size < size) {
        const device = random.pick(candidates);
        chosen.set(device.code, device);
      }
      const devices = [...chosen.values()];
      const id = patrolTasks.length + 1;
      const createdAt = Math.min(start, now) - Math.round(between(1, 72) * HOUR_MS);
      // How far the patroller got.
      let checked = 0;
      if (patroller) {
        if (end < now) checked = forced === 'overdue' ? 0 : forced === 'completed' ? devices.length : random.next() < 0.85 ? devices.length : random.next() < 0.5 ? 0 : random.int(1, devices.length - 1);
        else if (start < now) checked = forced === 'in_progress' ? Math.max(1, Math.floor(devices.length / 2)) : random.int(0, devices.length - 1);
      }
      const completed = checked === devices.length && devices.length > 0;
      let at = Math.max(start, createdAt) + Math.round(between(0.5, 6) * HOUR_MS);
      const checkTimes: number[] = [];
      for (let i = 0; i < checked; i += 1) {
        at += Math.round(between(0.1, completed ? 4 : 1.5) * HOUR_MS);
        checkTimes.push(Math.min(at, now - 60_000, completed ? end - 60_000 : now - 60_000));
      }
      const code = workCode(CODE_PREFIX.patrol, id, new Date(createdAt), timeZone);
      patrolTasks.push({
        id,
        code,
        name: `${orgName.get(site)}${random.pick(['例行巡检', '设备巡检', '周巡检', '月度巡检', '夜间巡检'])}`,
        tenant_code: tenantCode,
        organization_code: site,
        assignee_id: patroller ? userId(patroller) : null,
        creator_id: userId(force.admin),
        plan_start_at: iso(start),
        plan_end_at: iso(end),
        state: completed ? 'completed' : checked > 0 ? 'in_progress' : 'pending',
        content: random.pick([
          '检查设备外观、安装牢固情况、信号强度与电池电量，核对读数。',
          '检查表井积水、设备密封与铅封，拍照留存。',
          '核对设备读数与平台数据，清理探头，检查供电。',
        ]),
        started_at: checkTimes.length ? iso(checkTimes[0]) : null,
        completed_at: completed ? iso(checkTimes[checkTimes.length - 1]) : null,
        created_at: iso(createdAt),
        updated_at: iso(checkTimes.length ? checkTimes[checkTimes.length - 1] : createdAt),
      });
      devices.forEach((device, index) => {
        patrolDevices.push({ task_id: id, device_code: device.code, sort: index + 1 });
        if (index >= checked) return;
        const abnormal = random.next() < 0.07;
        const faultType = random.pick(FAULT_TYPES);
        const description = abnormal ? `${FAULTS[faultType].phrase}，已拍照记录。` : random.pick(['', '外观完好，读数正常。', '信号良好。', '设备运行正常。']);
        const order = abnormal
          ? repairOrder(tenantCode, device, weighted(random, REPAIR_STATE_WEIGHTS), {
              source: 'patrol',
              sourceCode: code,
              creatorId: patroller ? userId(patroller) : null,
              title: `巡检异常·${device.name}`,
              description,
              faultType,
              createdAfter: checkTimes[index] + 60_000,
              createdBefore: checkTimes[index] + 10 * 60_000,
            })
          : null;
        patrolRecords.push({
          row: {
            id: 0,
            task_id: id,
            device_code: device.code,
            result: abnormal ? 'abnormal' : 'normal',
            description,
            patroller_id: patroller ? userId(patroller) : null,
            repair_order_id: null,
            checked_at: iso(checkTimes[index]),
          },
          order,
        });
      });
    }
  }

  // Construction, surveys and maintenance.
  const fieldOrder = (
    type: Exclude<WorkOrderType, 'repair'>,
    tenantCode: string,
    path: Step[],
    state: string,
    content: { title: string; description: string; result: string; device: Device | null; site: string; assignee: string | null; planStart: number | null; deadline: number | null; maintenanceType?: string; form?: { template: number; data: JsonObject } },
  ) => {
    const force = WORKFORCE[tenantCode];
    const draft = play(
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
        address: content.device?.address ?? `${orgName.get(content.site)}现场`,
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
    const when = (action: string) => {
      const step = [...draft.steps].reverse().find((s) => s.action === action);
      return step ? iso(step.at) : null;
    };
    const done = when('submit') ?? when('complete');
    const rejected = draft.steps.find((step) => step.action === 'reject');
    draft.fields = {
      assigned_at: when('assign'),
      started_at: when('start') ?? (type === 'maintenance' ? done : null),
      completed_at: done,
      audited_at: when('audit'),
      result: done || state === 'in_progress' || state === 'rejected' ? content.result : '',
      audit_state: type !== 'construction' || !done ? null : state === 'audited' ? 'approved' : state === 'rejected' ? 'rejected' : 'pending',
      audit_opinion: state === 'audited' ? random.pick(AUDIT_OPINIONS) : (rejected?.remark ?? ''),
      reject_reason: rejected?.remark ?? '',
      cost: type === 'maintenance' && done && random.next() < 0.5 ? Math.round(between(30, 600)) : null,
    };
    orders.push(draft);
    return draft;
  };

  const assign: Step = { action: 'assign', to: 'assigned', by: 'admin', hours: [0.5, 24] };
  const start: Step = { action: 'start', to: 'in_progress', by: 'assignee', hours: [2, 72] };
  for (const [tenantCode, volume] of Object.entries(VOLUME)) {
    const force = WORKFORCE[tenantCode];
    const tenantSites = sites(tenantCode);
    for (let n = 0; n < volume.constructions; n += 1) {
      const forced = tenantCode === 'T0001' && n < 12 ? (['assigned', 'in_progress', 'completed', 'audited', 'rejected', 'created'] as const)[n % 6] : null;
      const state = forced ?? weighted(random, [['created', 5], ['assigned', 14], ['in_progress', 20], ['completed', 18], ['audited', 33], ['rejected', 10]]);
      const site = random.pick(tenantSites);
      const device = random.next() < 0.7 ? random.pick(devicesOf(tenantCode).filter((d) => d.organization_code.startsWith(site)).concat(devicesOf(tenantCode).slice(0, 1))) : null;
      const stem = device ? (productStem.get(device.product_code) ?? '设备') : random.pick(['智能水表', '压力计', '液位计', '水质传感器']);
      const submit: Step = { action: 'submit', to: 'completed', by: 'assignee', hours: [4, 96] };
      const path: Step[] = {
        created: [],
        assigned: [assign],
        in_progress: [assign, start],
        completed: [assign, start, submit],
        audited: [assign, start, submit, { action: 'audit', to: 'audited', by: 'admin', hours: [2, 72] }],
        rejected: [assign, start, submit, { action: 'reject', to: 'rejected', by: 'admin', hours: [2, 48], remark: random.pick(['现场照片不清晰，请补拍。', '铅封编号缺失，请补充。', '安装位置与设计不符，请整改。']) }],
      }[state] as Step[];
      const plan = now + between(-150, 20) * DAY_MS;
      fieldOrder('construction', tenantCode, path, state, {
        title: `${orgName.get(site)}${stem}${random.pick(['安装施工', '换装施工', '布线施工', '迁移施工'])}`,
        description: `在${orgName.get(site)}完成${stem}的${random.pick(['新装', '换装', '迁移'])}，含管件、线缆与防护箱安装，调试上线。`,
        result: random.pick(['设备已安装并上电，平台确认上线，读数正常。', '完成安装调试，铅封已施加，照片已上传。', '完成布线与接地，设备运行正常。']),
        device,
        site,
        assignee: state === 'created' ? null : forced ? 'implement' : random.pick(force.implementers),
        planStart: state === 'created' || state === 'assigned' ? Math.max(plan, now + DAY_MS) : null,
        deadline: null,
        form:
          random.next() < 0.3
            ? { template: 2, data: { installPosition: random.pick(['表井内', '泵房墙面', '管廊支架']), pipeDiameter: random.pick(['DN25', 'DN50', 'DN100', 'DN150']), sealNumber: `QF${random.int(100000, 999999)}` } }
            : undefined,
      });
    }
    for (let n = 0; n < volume.surveys; n += 1) {
      const forced = tenantCode === 'T0001' && n < 8 ? (['assigned', 'in_progress', 'completed', 'created'] as const)[n % 4] : null;
      const state = forced ?? weighted(random, [['created', 8], ['assigned', 20], ['in_progress', 20], ['completed', 52]]);
      const site = random.pick(tenantSites);
      const complete: Step = { action: 'complete', to: 'completed', by: 'assignee', hours: [2, 72] };
      const path: Step[] = { created: [], assigned: [assign], in_progress: [assign, start], completed: [assign, start, complete] }[state] as Step[];
      fieldOrder('exploration', tenantCode, path, state, {
        title: `${orgName.get(site)}${random.pick(['新装监测点勘察', '管网改造前期勘察', '供电与信号勘察', '设备迁移勘察'])}`,
        description: random.pick(['勘察安装位置、供电条件与 NB/4G 信号强度，给出安装方案。', '核对管径、表井尺寸与现场环境，评估施工条件。', '确认监测点位与通信条件，拍照记录。']),
        result: random.pick(['现场信号强度 -85dBm，满足 NB-IoT 安装条件，建议表井内安装。', '表井积水严重，需先做防水处理再安装。', '供电条件满足，建议采用 4G 设备并外置天线。']),
        device: null,
        site,
        assignee: state === 'created' ? null : forced ? 'implement' : random.pick(force.implementers),
        planStart: state === 'completed' ? null : Math.round(now + between(1, 25) * DAY_MS),
        deadline: null,
        form: random.next() < 0.3 ? { template: 1, data: { signalDbm: -random.int(70, 110), wellDepth: random.int(60, 180) / 100, powerSupply: random.pick(['市电', '电池', '太阳能']) } } : undefined,
      });
    }
    for (let n = 0; n < volume.maintenance; n += 1) {
      const forced = tenantCode === 'T0001' && n < 8 ? ([['assigned', 'repair'], ['completed', 'repair'], ['assigned', 'implement'], ['completed', 'implement']] as const)[n % 4] : null;
      const state = forced?.[0] ?? weighted(random, [['assigned', 35], ['completed', 65]]);
      const device = random.pick(devicesOf(tenantCode));
      const maintenanceType = random.pick(['routine', 'calibration', 'cleaning', 'battery', 'inspection']);
      const label = { routine: '例行保养', calibration: '计量校准', cleaning: '清洗除垢', battery: '电池更换', inspection: '安全检查' }[maintenanceType];
      const planStart = state === 'completed' ? Math.round(now - between(5, 170) * DAY_MS) : Math.round(now + between(-12, 40) * DAY_MS);
      const complete: Step = { action: 'complete', to: 'completed', by: 'assignee', hours: [2, 120], remark: '维保完成' };
      const path: Step[] = state === 'completed' ? [assign, complete] : [assign];
      fieldOrder('maintenance', tenantCode, path, state, {
        title: `${device.name}${label}`,
        description: `${label}：${random.pick(['检查外观与密封', '清理探头与滤网', '校准零点与量程', '更换电池并测试上报', '检查接地与防雷'])}。`,
        result: random.pick(['维保完成，设备运行正常。', '已校准，误差 0.5% 以内。', '已更换电池，上报恢复正常。', '已清洗探头，读数稳定。']),
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

  // Ids and codes follow creation time, as they would have been given.
  orders.sort((a, b) => a.createdAt - b.createdAt);
  orders.forEach((order, index) => {
    order.id = index + 1;
  });
  for (const { row, order } of reportDrafts) if (order) row.order_id = order.id;
  patrolRecords.sort((a, b) => String(a.row.checked_at).localeCompare(String(b.row.checked_at)));
  patrolRecords.forEach(({ row, order }, index) => {
    row.id = index + 1;
    row.repair_order_id = order ? order.id : null;
  });

  const orderRows: Row[] = orders.map((order) => {
    const last = order.steps[order.steps.length - 1];
    return {
      id: order.id,
      code: workCode(CODE_PREFIX[order.type], order.id, new Date(order.createdAt), timeZone),
      type: order.type,
      title: order.title,
      description: order.description,
      state: last.to,
      source: order.source,
      source_code: order.sourceCode,
      priority: order.priority,
      fault_type: order.faultType,
      maintenance_type: order.maintenanceType,
      tenant_code: order.tenantCode,
      organization_code: order.organizationCode,
      device_code: order.deviceCode,
      address: order.address,
      contact_name: order.contactName,
      contact_phone: order.contactPhone,
      batch_id: order.batch?.id ?? null,
      creator_id: order.creatorId,
      assignee_id: order.assigneeId,
      plan_start_at: order.planStart === null ? null : iso(order.planStart),
      deadline_at: order.deadline === null ? null : iso(order.deadline),
      assigned_at: null,
      accepted_at: null,
      started_at: null,
      completed_at: null,
      audited_at: null,
      closed_at: null,
      result: '',
      fault_cause: '',
      cost: null,
      audit_state: null,
      audit_opinion: '',
      reject_reason: '',
      close_reason: '',
      form_template_id: order.formTemplateId,
      form_data: order.formData,
      ...order.fields,
      created_at: iso(order.createdAt),
      updated_at: iso(last.at),
    };
  });
  const historyRows: Row[] = [];
  for (const order of orders)
    for (const step of order.steps)
      historyRows.push({
        id: historyRows.length + 1,
        order_id: order.id,
        action: step.action,
        from_state: step.from,
        to_state: step.to,
        operator_id: step.operatorId,
        remark: step.remark,
        created_at: iso(step.at),
      });

  return [
    {
      table: 'repair_batch',
      rows: batches.map((batch) => ({
        id: batch.id,
        code: batch.code,
        name: batch.name,
        tenant_code: batch.tenantCode,
        organization_code: batch.organizationCode,
        fault_type: batch.faultType,
        priority: batch.priority,
        description: batch.description,
        creator_id: batch.creatorId,
        assignee_id: batch.assigneeId,
        deadline_at: iso(batch.deadline),
        created_at: iso(batch.createdAt),
      })),
    },
    { table: 'work_order', rows: orderRows },
    { table: 'work_order_history', rows: historyRows },
    { table: 'repair_report', rows: reports },
    { table: 'patrol_task', rows: patrolTasks },
    { table: 'patrol_task_device', rows: patrolDevices },
    { table: 'patrol_record', rows: patrolRecords.map(({ row }) => row) },
  ];
}
