import type { Row, SeedData } from '../db/bulk';
import { businessDayStamp } from '../domain/businessTime';
import { ALARM_METRICS, conditionText, withUnit, type AlarmMetric, type AlarmState, type AlarmType } from '../domain/alarms';
import type { DeviceTables } from './devices';
import { HANDLERS, IGNORE_REMARKS, MONITORING_CHECKS, PRODUCT_SETTINGS, RESOLVE_REMARKS, RULES_BY_TENANT, TAG_DISPLAY, type SeedRule } from './fixtures/alarms';
import { weightedPick, type Random } from './prng';
import { MINUTE_MS, DAY_MS, counter, iso, pad } from './clock';

/** How far back the alarm history goes. */
const HISTORY_DAYS = 90;
/** About how many alarms devices raised over the history (current ones included). */
const DEVICE_ALARMS = 22_000;
/** About how many the platform's monitoring raised. */
const MONITORING_ALARMS = 3_600;

function between(random: Random, [low, high]: [number, number], metric: AlarmMetric | null): number {
  const value = low + random.next() * (high - low);
  const integral = metric === null || metric === 'offline_minutes' || metric === 'battery' || metric === 'signal' || metric === 'fault_code';
  return integral ? Math.round(value) : Math.round(value * 100) / 100;
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

type WorldRule = SeedRule & { id: number; tenantCode: string };

/** What the alarm generators share: the generator, the clock, the rules and how a rule's alarm is drafted. */
class AlarmWorld {
  readonly start: number;
  readonly batteryProducts: Set<string>;
  readonly rules: Row[] = [];
  private readonly seedRules: WorldRule[] = [];

  constructor(
    readonly random: Random,
    readonly now: number,
    fleet: DeviceTables,
  ) {
    this.start = now - HISTORY_DAYS * DAY_MS;
    this.batteryProducts = new Set(fleet.products.filter((p) => p.battery_powered === true).map((p) => String(p.code)));
    for (const [tenantCode, list] of Object.entries(RULES_BY_TENANT)) list.forEach((rule, index) => this.addRule(rule, tenantCode, index));
  }

  private addRule(rule: SeedRule, tenantCode: string, index: number): void {
    const { random, now } = this;
    const id = this.rules.length + 1;
    this.seedRules.push({ ...rule, id, tenantCode });
    const createdAt = now - random.int(100, 300) * DAY_MS - random.int(0, 86_399) * 1000;
    this.rules.push({
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
  }

  /** The enabled rules of the device's tenant that fit it. */
  rulesFor(device: Row): WorldRule[] {
    return this.seedRules.filter(
      (rule) =>
        rule.tenantCode === device.tenant_code &&
        (rule.enabled ?? true) &&
        (rule.product === null || rule.product === device.product_code) &&
        !(rule.batteryOnly && !this.batteryProducts.has(String(device.product_code))) &&
        // a gateway's own offline rule replaces the general one
        !(rule.product === null && rule.type === 'offline' && device.product_code === 'PRD-GW-4G'),
    );
  }

  draftOf(device: Row, rule: WorldRule, triggered: number, current: boolean, value = between(this.random, rule.reading, rule.metric)): Draft {
    const label = ALARM_METRICS[rule.metric].label;
    return {
      source: 'device',
      ruleId: rule.id,
      device,
      type: rule.type,
      level: rule.level,
      title: rule.name,
      content: `${String(device.name)}（${String(device.code)}）${label} ${withUnit(rule.metric, value)}，触发「${rule.name}」：${conditionText(rule.metric, rule.operator, rule.threshold, rule.duration)}`,
      value,
      triggered,
      outcome: outcome(this.random, this.now, triggered, String(device.tenant_code), current),
    };
  }
}

/** The fleet as it stands: devices that are offline, flat or faulty right now still alarm. */
function currentAlarms(world: AlarmWorld, live: readonly Row[], drafts: Draft[]): void {
  const { random, now, start } = world;
  for (const device of live) {
    if (device.deleted_at !== null) continue;
    const candidates = world.rulesFor(device);
    const lastSeen = time(device.last_seen_at);
    const offlineRule = candidates.find((rule) => rule.type === 'offline');
    if (device.online_state === 'offline' && offlineRule && lastSeen !== null) {
      const triggered = lastSeen + (offlineRule.threshold + random.int(1, 15)) * MINUTE_MS;
      if (triggered < now && triggered > start) drafts.push(world.draftOf(device, offlineRule, triggered, true, Math.round((triggered - lastSeen) / MINUTE_MS)));
    }
    const batteryRule = candidates.find((rule) => rule.type === 'battery');
    if (batteryRule && typeof device.battery_level === 'number' && device.battery_level < batteryRule.threshold) {
      const triggered = now - random.int(1, 25 * 24 * 60) * MINUTE_MS;
      drafts.push({ ...world.draftOf(device, batteryRule, triggered, true, device.battery_level), level: device.battery_level < 5 ? 2 : batteryRule.level });
    }
    const faultRule = candidates.find((rule) => rule.type === 'fault');
    if (faultRule && device.health_state === 'faulty' && device.online_state === 'online') {
      drafts.push(world.draftOf(device, faultRule, now - random.int(10, 30 * 24 * 60) * MINUTE_MS, true));
    }
  }
}

/** The history: alarms raised while each device was installed and reporting. */
function historyAlarms(world: AlarmWorld, live: readonly Row[], drafts: Draft[]): void {
  const { random, now, start } = world;
  const historical = Math.max(0, DEVICE_ALARMS - drafts.length);
  for (let n = 0, attempts = 0; n < historical && attempts < historical * 3; attempts += 1) {
    const device = random.pick(live);
    const from = Math.max(start, time(device.activated_at) ?? start);
    const lastSeen = time(device.last_seen_at);
    const to = Math.min(now - 10 * MINUTE_MS, time(device.deleted_at) ?? now, device.online_state === 'offline' && lastSeen !== null ? lastSeen : now);
    if (to <= from) continue;
    const candidates = world.rulesFor(device);
    if (candidates.length === 0) continue;
    const rule = weightedPick(random, candidates);
    drafts.push(world.draftOf(device, rule, from + Math.floor(random.next() * (to - from) / 1000) * 1000, false));
    n += 1;
  }
}

/** The platform monitoring's own findings. */
function monitoringAlarms(world: AlarmWorld, live: readonly Row[], drafts: Draft[]): void {
  const { random, now, start } = world;
  for (let n = 0; n < MONITORING_ALARMS; n += 1) {
    const device = random.pick(live);
    const check = weightedPick(random, MONITORING_CHECKS);
    if (check.type === 'battery' && !world.batteryProducts.has(String(device.product_code))) continue;
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
}

/** The records in time order, numbered per business day (of `timeZone`) as the server's own codes are. */
function recordRows(drafts: Draft[], timeZone: string): Row[] {
  const dayStamp = (time: number) => businessDayStamp(new Date(time), timeZone);
  drafts.sort((a, b) => a.triggered - b.triggered);
  const perDay = counter();
  const repairPerDay = counter();
  return drafts.map((draft, index) => {
    const prefix = draft.source === 'device' ? 'AL' : 'MA';
    const day = dayStamp(draft.triggered);
    const { outcome: o } = draft;
    return {
      id: index + 1,
      code: `${prefix}${day}${pad(perDay(prefix + day), 5)}`,
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
      repair_order_code: o.repairOrder && o.handledAt !== null ? `WO${dayStamp(o.handledAt)}${pad(repairPerDay(dayStamp(o.handledAt)), 4)}` : null,
      source: draft.source,
      created_at: iso(draft.triggered),
    };
  });
}

/**
 * The demo world's alarm rules (per tenant), each tenant's device settings for a few shared
 * products, the tag display configuration, and about 25,000 alarm records over the last 90 days:
 * the current condition of the fleet (offline devices, flat batteries, faulty devices still
 * alarming) plus a history that mostly recovered or was handled, and the platform monitoring's own
 * alarms. The rules and checks are ./fixtures/alarms.ts.
 */
export function alarmsTables(random: Random, today: Date, fleet: DeviceTables, timeZone: string): SeedData {
  const now = today.getTime();
  const world = new AlarmWorld(random, now, fleet);
  const live = fleet.devices.filter((d) => d.online_state !== 'inactive' && time(d.activated_at) !== null);
  const drafts: Draft[] = [];
  currentAlarms(world, live, drafts);
  historyAlarms(world, live, drafts);
  monitoringAlarms(world, live, drafts);
  const records = recordRows(drafts, timeZone);
  return [
    { table: 'product_tenant_setting', rows: PRODUCT_SETTINGS.map(({ daysAgo, ...setting }) => ({ ...setting, updated_at: iso(now - daysAgo * DAY_MS) })) },
    { table: 'alarm_rule', rows: world.rules },
    { table: 'alarm_record', rows: records },
    { table: 'tag_display_config', rows: TAG_DISPLAY.map(({ daysAgo, ...config }) => ({ ...config, updated_at: iso(now - daysAgo * DAY_MS) })) },
  ];
}
