import type { Row, SeedData } from '../db/bulk';
import { businessDayStamp } from '../domain/businessTime';
import { ALARM_METRICS, conditionText, withUnit, type AlarmMetric, type AlarmOperator, type AlarmState, type AlarmType } from '../domain/alarms';
import type { DeviceTables } from './devices';
import type { Random } from './prng';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** How far back the alarm history goes. */
const HISTORY_DAYS = 90;
/** About how many alarms devices raised over the history (current ones included). */
const DEVICE_ALARMS = 22_000;
/** About how many the platform's monitoring raised. */
const MONITORING_ALARMS = 3_600;

/** An alarm rule of the demo world; `reading` is the range of a value that breaks it. */
interface SeedRule {
  name: string;
  product: string | null;
  type: AlarmType;
  level: number;
  metric: AlarmMetric;
  operator: AlarmOperator;
  threshold: number;
  duration: number;
  channels: string[];
  reading: [number, number];
  /** How often it fires, relative to the others that fit a device. */
  weight: number;
  enabled?: boolean;
  remark?: string;
  /** Only for products with a battery. */
  batteryOnly?: boolean;
}

const COMMON_RULES: readonly SeedRule[] = [
  { name: '设备离线告警', product: null, type: 'offline', level: 2, metric: 'offline_minutes', operator: 'gt', threshold: 120, duration: 0, channels: ['sms', 'wechat'], reading: [121, 600], weight: 3, remark: '超过两个上报周期未收到数据' },
  { name: '网关离线告警', product: 'PRD-GW-4G', type: 'offline', level: 1, metric: 'offline_minutes', operator: 'gt', threshold: 10, duration: 0, channels: ['sms', 'voice', 'dingtalk'], reading: [11, 90], weight: 6, remark: '网关离线将影响其下全部子设备' },
  { name: '电池低电量告警', product: null, type: 'battery', level: 3, metric: 'battery', operator: 'lt', threshold: 20, duration: 0, channels: ['wechat'], reading: [3, 19], weight: 2, batteryOnly: true },
  { name: '信号弱告警', product: null, type: 'threshold', level: 4, metric: 'signal', operator: 'lt', threshold: 8, duration: 30, channels: ['mail'], reading: [2, 7], weight: 1 },
  { name: '设备故障告警', product: null, type: 'fault', level: 2, metric: 'fault_code', operator: 'ge', threshold: 1, duration: 0, channels: ['sms', 'wechat'], reading: [1, 12], weight: 1 },
];

const RULES_BY_TENANT: Record<string, readonly SeedRule[]> = {
  T0001: [
    ...COMMON_RULES,
    { name: '水表低温防冻告警', product: 'PRD-WM-NB', type: 'threshold', level: 3, metric: 'temperature', operator: 'lt', threshold: 2, duration: 30, channels: ['wechat'], reading: [-6, 1.8], weight: 2, remark: '冬季管道防冻' },
    { name: '管网压力超限告警', product: 'PRD-PG-NB', type: 'threshold', level: 1, metric: 'pressure', operator: 'gt', threshold: 0.8, duration: 5, channels: ['sms', 'voice'], reading: [0.82, 1.25], weight: 3 },
    { name: '管网压力过低告警', product: 'PRD-PG-NB', type: 'threshold', level: 2, metric: 'pressure', operator: 'lt', threshold: 0.15, duration: 10, channels: ['sms'], reading: [0.02, 0.14], weight: 2 },
    { name: '流量突增告警', product: 'PRD-FM-4G', type: 'threshold', level: 3, metric: 'flow', operator: 'gt', threshold: 120, duration: 15, channels: ['dingtalk'], reading: [125, 260], weight: 4, remark: '疑似爆管或偷漏水' },
    { name: '液位超高告警', product: 'PRD-LV-LR', type: 'threshold', level: 2, metric: 'level', operator: 'gt', threshold: 4.5, duration: 5, channels: ['sms', 'wechat'], reading: [4.52, 5.6], weight: 4 },
    { name: '温湿度超温告警', product: 'PRD-TH-LR', type: 'threshold', level: 2, metric: 'temperature', operator: 'gt', threshold: 40, duration: 10, channels: ['wechat', 'dingtalk'], reading: [40.5, 58], weight: 3 },
    { name: '机房湿度过高告警', product: 'PRD-TH-LR', type: 'threshold', level: 3, metric: 'humidity', operator: 'gt', threshold: 85, duration: 30, channels: ['wechat'], reading: [86, 98], weight: 2 },
    { name: '烟雾报警', product: 'PRD-SD-NB', type: 'threshold', level: 1, metric: 'smoke', operator: 'ge', threshold: 0.1, duration: 0, channels: ['sms', 'voice', 'wechat'], reading: [0.1, 0.45], weight: 3 },
    { name: '水质 pH 超标告警', product: 'PRD-WQ-MB', type: 'threshold', level: 2, metric: 'ph', operator: 'gt', threshold: 8.5, duration: 15, channels: ['sms'], reading: [8.6, 9.8], weight: 2, enabled: false, remark: '试运行期间暂停' },
  ],
  T0002: [
    ...COMMON_RULES,
    { name: '水质 pH 偏高告警', product: 'PRD-WQ-MB', type: 'threshold', level: 2, metric: 'ph', operator: 'gt', threshold: 8.5, duration: 15, channels: ['sms', 'wechat'], reading: [8.6, 9.6], weight: 3 },
    { name: '水质 pH 偏低告警', product: 'PRD-WQ-MB', type: 'threshold', level: 2, metric: 'ph', operator: 'lt', threshold: 6.5, duration: 15, channels: ['sms', 'wechat'], reading: [5.4, 6.4], weight: 2 },
    { name: '浊度超标告警', product: 'PRD-WQ-MB', type: 'threshold', level: 3, metric: 'turbidity', operator: 'gt', threshold: 1, duration: 30, channels: ['wechat'], reading: [1.1, 4.8], weight: 3, remark: '参照 GB 5749 生活饮用水标准' },
    { name: '液位超高告警', product: 'PRD-LV-LR', type: 'threshold', level: 2, metric: 'level', operator: 'gt', threshold: 3.8, duration: 5, channels: ['sms'], reading: [3.85, 4.9], weight: 4 },
    { name: '管网压力超限告警', product: 'PRD-PG-NB', type: 'threshold', level: 1, metric: 'pressure', operator: 'gt', threshold: 0.75, duration: 5, channels: ['sms', 'voice'], reading: [0.78, 1.1], weight: 3 },
    { name: '温湿度超温告警', product: 'PRD-TH-LR', type: 'threshold', level: 3, metric: 'temperature', operator: 'gt', threshold: 38, duration: 10, channels: ['wechat'], reading: [38.5, 52], weight: 3 },
    { name: '烟雾报警', product: 'PRD-SD-NB', type: 'threshold', level: 1, metric: 'smoke', operator: 'ge', threshold: 0.1, duration: 0, channels: ['sms', 'voice'], reading: [0.1, 0.4], weight: 3 },
    { name: '流量突增告警', product: 'PRD-FM-4G', type: 'threshold', level: 3, metric: 'flow', operator: 'gt', threshold: 150, duration: 15, channels: ['feishu'], reading: [155, 300], weight: 3, enabled: false },
  ],
};

/** What the platform's own monitoring notices, independent of any tenant rule. */
const MONITORING_CHECKS: ReadonlyArray<{ title: string; type: AlarmType; level: number; metric: AlarmMetric | null; reading: [number, number]; weight: number; describe: (value: number) => string }> = [
  { title: '数据上报中断', type: 'offline', level: 2, metric: 'offline_minutes', reading: [180, 2880], weight: 5, describe: (v) => `已连续 ${Math.round(v)} 分钟未上报数据` },
  { title: '心跳超时', type: 'offline', level: 3, metric: 'offline_minutes', reading: [30, 240], weight: 4, describe: (v) => `心跳超时 ${Math.round(v)} 分钟` },
  { title: '信号质量持续偏低', type: 'threshold', level: 4, metric: 'signal', reading: [1, 6], weight: 3, describe: (v) => `近 24 小时平均信号强度 ${Math.round(v)} CSQ` },
  { title: '上报频率异常', type: 'threshold', level: 3, metric: null, reading: [40, 400], weight: 2, describe: (v) => `1 小时内上报 ${Math.round(v)} 次，远超配置的上报周期` },
  { title: '电量下降过快', type: 'battery', level: 3, metric: 'battery', reading: [5, 35], weight: 2, describe: (v) => `7 天内电量下降至 ${Math.round(v)}%` },
  { title: '设备频繁重启', type: 'fault', level: 2, metric: null, reading: [3, 20], weight: 2, describe: (v) => `24 小时内重启 ${Math.round(v)} 次` },
];

const HANDLERS: Record<string, readonly string[]> = {
  T0001: ['tadmin', 'repair', 'patrol', 'hz01', 'hz02', 'hz03'],
  T0002: ['badmin', 'sz01', 'sz02', 'sz03'],
};
const RESOLVE_REMARKS = ['现场检查后已恢复正常', '已更换电池', '已重启设备，数据恢复上报', '已调整阀门开度', '已清理传感器探头', '已通知物业处理', '现场复位后正常', '线路松动，已重新接线'];
const IGNORE_REMARKS = ['误报，现场确认正常', '计划停水检修期间告警', '设备调试中', '重复告警'];

const iso = (time: number) => new Date(time).toISOString();
const pad = (value: number, width: number) => String(value).padStart(width, '0');

function between(random: Random, [low, high]: [number, number], metric: AlarmMetric | null): number {
  const value = low + random.next() * (high - low);
  const integral = metric === null || metric === 'offline_minutes' || metric === 'battery' || metric === 'signal' || metric === 'fault_code';
  return integral ? Math.round(value) : Math.round(value * 100) / 100;
}

function weightedPick<T extends { weight: number }>(random: Random, items: readonly T[]): T {
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  let roll = random.next() * total;
  for (const item of items) {
    roll -= item.weight;
    if (roll < 0) return item;
  }
  return items[items.length - 1];
}

interface Outcome {
  state: AlarmState;
  recoveredAt: number | null;
  handledBy: string | null;
  handledAt: number | null;
  remark: string | null;
  repairOrder: boolean;
}

/**
 * What became of an alarm raised at `triggered`: most recover by themselves or are handled within
 * hours; the newest are still pending; a few went to repair (processing) or were ignored.
 */
function outcome(random: Random, now: number, triggered: number, tenantCode: string, current: boolean): Outcome {
  const age = now - triggered;
  const roll = random.next();
  let state: AlarmState;
  if (current) state = age < 2 * DAY_MS ? (roll < 0.85 ? 'pending' : 'processing') : roll < 0.5 ? 'pending' : roll < 0.85 ? 'processing' : 'ignored';
  else if (age < 2 * DAY_MS) state = roll < 0.45 ? 'pending' : roll < 0.55 ? 'processing' : roll < 0.8 ? 'recovered' : roll < 0.95 ? 'resolved' : 'ignored';
  else state = roll < 0.56 ? 'recovered' : roll < 0.9 ? 'resolved' : roll < 0.96 ? 'ignored' : roll < 0.985 ? 'processing' : 'pending';
  const handler = random.pick(HANDLERS[tenantCode] ?? ['tadmin']);
  const later = (minMinutes: number, maxMinutes: number) => Math.min(now - MINUTE_MS, triggered + random.int(minMinutes, maxMinutes) * MINUTE_MS);
  switch (state) {
    case 'recovered':
      return { state, recoveredAt: later(5, 12 * 60), handledBy: null, handledAt: null, remark: null, repairOrder: false };
    case 'resolved': {
      const handledAt = later(10, 2 * 24 * 60);
      return { state, recoveredAt: random.next() < 0.7 ? handledAt : null, handledBy: handler, handledAt, remark: random.pick(RESOLVE_REMARKS), repairOrder: random.next() < 0.15 };
    }
    case 'ignored':
      return { state, recoveredAt: null, handledBy: handler, handledAt: later(5, 24 * 60), remark: random.pick(IGNORE_REMARKS), repairOrder: false };
    case 'processing':
      return { state, recoveredAt: null, handledBy: handler, handledAt: later(5, 6 * 60), remark: '已转维修工单，等待现场处理', repairOrder: true };
    default:
      return { state, recoveredAt: null, handledBy: null, handledAt: null, remark: null, repairOrder: false };
  }
}

interface Draft {
  source: 'device' | 'monitoring';
  ruleId: number | null;
  device: Row;
  type: AlarmType;
  level: number;
  title: string;
  content: string;
  value: number | null;
  triggered: number;
  outcome: Outcome;
}

const time = (value: unknown): number | null => (typeof value === 'string' ? Date.parse(value) : null);

/**
 * The demo world's alarm rules (per tenant), each tenant's device settings for a few shared
 * products, the tag display configuration, and about 25,000 alarm records over the last 90 days:
 * the current condition of the fleet (offline devices, flat batteries, faulty devices still
 * alarming) plus a history that mostly recovered or was handled, and the platform monitoring's own
 * alarms.
 */
export function alarmsTables(random: Random, today: Date, fleet: DeviceTables, timeZone: string): SeedData {
  // Codes carry the business day (of `timeZone`), as the server's own do.
  const dayStamp = (time: number) => businessDayStamp(new Date(time), timeZone);
  const now = today.getTime();
  const start = now - HISTORY_DAYS * DAY_MS;
  const batteryProducts = new Set(fleet.products.filter((p) => p.battery_powered === true).map((p) => String(p.code)));

  const rules: Row[] = [];
  const seedRules: Array<SeedRule & { id: number; tenantCode: string }> = [];
  for (const [tenantCode, list] of Object.entries(RULES_BY_TENANT)) {
    list.forEach((rule, index) => {
      const id = rules.length + 1;
      seedRules.push({ ...rule, id, tenantCode });
      const createdAt = now - random.int(100, 300) * DAY_MS - random.int(0, 86_399) * 1000;
      rules.push({
        id,
        code: `AR${tenantCode.slice(-2)}${pad(index + 1, 4)}`,
        name: rule.name,
        product_code: rule.product,
        tenant_code: tenantCode,
        alarm_type: rule.type,
        level: rule.level,
        metric: rule.metric,
        operator: rule.operator,
        threshold: rule.threshold,
        duration_minutes: rule.duration,
        notify_channels: rule.channels,
        enabled: rule.enabled ?? true,
        remark: rule.remark ?? '',
        created_by: tenantCode === 'T0001' ? 'tadmin' : 'badmin',
        created_at: iso(createdAt),
        updated_at: iso(createdAt + random.int(0, 60) * DAY_MS),
      });
    });
  }
  const rulesFor = (device: Row) =>
    seedRules.filter(
      (rule) =>
        rule.tenantCode === device.tenant_code &&
        (rule.enabled ?? true) &&
        (rule.product === null || rule.product === device.product_code) &&
        !(rule.batteryOnly && !batteryProducts.has(String(device.product_code))) &&
        // a gateway's own offline rule replaces the general one
        !(rule.product === null && rule.type === 'offline' && device.product_code === 'PRD-GW-4G'),
    );
  const describe = (device: Row, rule: SeedRule, value: number) => {
    const label = ALARM_METRICS[rule.metric].label;
    return `${String(device.name)}（${String(device.code)}）${label} ${withUnit(rule.metric, value)}，触发「${rule.name}」：${conditionText(rule.metric, rule.operator, rule.threshold, rule.duration)}`;
  };
  const draftOf = (device: Row, rule: SeedRule & { id: number }, triggered: number, current: boolean, value = between(random, rule.reading, rule.metric)): Draft => ({
    source: 'device',
    ruleId: rule.id,
    device,
    type: rule.type,
    level: rule.level,
    title: rule.name,
    content: describe(device, rule, value),
    value,
    triggered,
    outcome: outcome(random, now, triggered, String(device.tenant_code), current),
  });

  const live = fleet.devices.filter((d) => d.online_state !== 'inactive' && time(d.activated_at) !== null);
  const drafts: Draft[] = [];

  // The fleet as it stands: devices that are offline, flat or faulty right now still alarm.
  for (const device of live) {
    if (device.deleted_at !== null) continue;
    const candidates = rulesFor(device);
    const lastSeen = time(device.last_seen_at);
    const offlineRule = candidates.find((rule) => rule.type === 'offline');
    if (device.online_state === 'offline' && offlineRule && lastSeen !== null) {
      const triggered = lastSeen + (offlineRule.threshold + random.int(1, 15)) * MINUTE_MS;
      if (triggered < now && triggered > start) drafts.push(draftOf(device, offlineRule, triggered, true, Math.round((triggered - lastSeen) / MINUTE_MS)));
    }
    const batteryRule = candidates.find((rule) => rule.type === 'battery');
    if (batteryRule && typeof device.battery_level === 'number' && device.battery_level < batteryRule.threshold) {
      const triggered = now - random.int(1, 25 * 24 * 60) * MINUTE_MS;
      drafts.push({ ...draftOf(device, batteryRule, triggered, true, device.battery_level), level: device.battery_level < 5 ? 2 : batteryRule.level });
    }
    const faultRule = candidates.find((rule) => rule.type === 'fault');
    if (faultRule && device.health_state === 'faulty' && device.online_state === 'online') {
      drafts.push(draftOf(device, faultRule, now - random.int(10, 30 * 24 * 60) * MINUTE_MS, true));
    }
  }

  // The history: alarms raised while each device was installed and reporting.
  const historical = Math.max(0, DEVICE_ALARMS - drafts.length);
  for (let n = 0, attempts = 0; n < historical && attempts < historical * 3; attempts += 1) {
    const device = random.pick(live);
    const from = Math.max(start, time(device.activated_at) ?? start);
    const lastSeen = time(device.last_seen_at);
    const to = Math.min(now - 10 * MINUTE_MS, time(device.deleted_at) ?? now, device.online_state === 'offline' && lastSeen !== null ? lastSeen : now);
    if (to <= from) continue;
    const candidates = rulesFor(device);
    if (candidates.length === 0) continue;
    const rule = weightedPick(random, candidates);
    drafts.push(draftOf(device, rule, from + Math.floor(random.next() * (to - from) / 1000) * 1000, false));
    n += 1;
  }

  // The platform monitoring's own findings.
  for (let n = 0; n < MONITORING_ALARMS; n += 1) {
    const device = random.pick(live);
    const check = weightedPick(random, MONITORING_CHECKS);
    if (check.type === 'battery' && !batteryProducts.has(String(device.product_code))) continue;
    const from = Math.max(start, time(device.activated_at) ?? start);
    const to = Math.min(now - 10 * MINUTE_MS, time(device.deleted_at) ?? now);
    if (to <= from) continue;
    const triggered = from + Math.floor(random.next() * (to - from) / 1000) * 1000;
    const value = between(random, check.reading, check.metric);
    drafts.push({
      source: 'monitoring',
      ruleId: null,
      device,
      type: check.type,
      level: check.level,
      title: check.title,
      content: `${String(device.name)}（${String(device.code)}）${check.describe(value)}`,
      value,
      triggered,
      outcome: outcome(random, now, triggered, String(device.tenant_code), false),
    });
  }

  drafts.sort((a, b) => a.triggered - b.triggered);
  const perDay = new Map<string, number>();
  const repairPerDay = new Map<string, number>();
  const nextOf = (counter: Map<string, number>, key: string) => {
    const next = (counter.get(key) ?? 0) + 1;
    counter.set(key, next);
    return next;
  };
  const records: Row[] = drafts.map((draft, index) => {
    const prefix = draft.source === 'device' ? 'AL' : 'MA';
    const day = dayStamp(draft.triggered);
    const { outcome: o } = draft;
    return {
      id: index + 1,
      code: `${prefix}${day}${pad(nextOf(perDay, prefix + day), 5)}`,
      rule_id: draft.ruleId,
      device_code: draft.device.code,
      organization_code: draft.device.organization_code,
      tenant_code: draft.device.tenant_code,
      alarm_type: draft.type,
      level: draft.level,
      state: o.state,
      title: draft.title,
      content: draft.content,
      metric_value: draft.value,
      triggered_at: iso(draft.triggered),
      recovered_at: o.recoveredAt === null ? null : iso(o.recoveredAt),
      handled_by: o.handledBy,
      handled_at: o.handledAt === null ? null : iso(o.handledAt),
      handle_remark: o.remark,
      repair_order_code: o.repairOrder && o.handledAt !== null ? `WO${dayStamp(o.handledAt)}${pad(nextOf(repairPerDay, dayStamp(o.handledAt)), 4)}` : null,
      source: draft.source,
      created_at: iso(draft.triggered),
    };
  });

  // Tenants' own device settings for shared products, and what their dashboards show.
  const productSettings: Row[] = [
    { product_code: 'PRD-TH-LR', tenant_code: 'T0001', settings: { reportIntervalMinutes: 30, heartbeatMinutes: 120, lowBatteryPercent: 25, temperatureHigh: 40, temperatureLow: 0 }, updated_by: 'tadmin', updated_at: iso(now - 42 * DAY_MS) },
    { product_code: 'PRD-WQ-MB', tenant_code: 'T0002', settings: { reportIntervalMinutes: 10, heartbeatMinutes: 30, lowBatteryPercent: 20, temperatureHigh: 35, temperatureLow: 2 }, updated_by: 'badmin', updated_at: iso(now - 75 * DAY_MS) },
  ];
  const tagDisplay: Row[] = [
    { tenant_code: 'T0001', config: { fields: ['productName', 'firmwareVersion', 'batteryLevel', 'signalStrength', 'temperature', 'lastSeenAt'], showAlarmBadge: true }, updated_by: 'tadmin', updated_at: iso(now - 30 * DAY_MS) },
    { tenant_code: 'T0002', config: { fields: ['productName', 'onlineState', 'healthState', 'temperature', 'address'], showAlarmBadge: true }, updated_by: 'badmin', updated_at: iso(now - 60 * DAY_MS) },
  ];

  return [
    { table: 'product_tenant_setting', rows: productSettings },
    { table: 'alarm_rule', rows: rules },
    { table: 'alarm_record', rows: records },
    { table: 'tag_display_config', rows: tagDisplay },
  ];
}
