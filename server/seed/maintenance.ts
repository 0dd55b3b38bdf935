import type { Row, SeedData } from '../db/bulk';
import { businessDay, businessDayStamp } from '../domain/businessTime';
import type { DeviceTables } from './devices';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';
import { ORGANIZATION_TYPE } from '../domain/organizations';
import { HOUR_MS, DAY_MS, iso, pad } from './clock';

/** How many device errors the demo world holds over the last 90 days. */
export const SEED_ERROR_COUNT = 3200;
/** How many devices of each tenant have a sampled health trend (the first live ones). */
export const HEALTH_SAMPLED_PER_TENANT = 150;
/** Days of health samples per sampled device, today included. */
export const HEALTH_SAMPLE_DAYS = 30;
/** Cameras per tenant. */
const CAMERA_COUNTS: Record<string, number> = { T0001: 36, T0002: 24 };
/** Who handles things in each tenant (seeded accounts). */
const STAFF: Record<string, string[]> = { T0001: ['tadmin', 'repair', 'implement'], T0002: ['badmin'] };

/** The health state a score stands for (the thresholds of the fleet's seed). */
export function healthStateOf(score: number): 'healthy' | 'subhealthy' | 'faulty' {
  return score >= 80 ? 'healthy' : score >= 60 ? 'subhealthy' : 'faulty';
}

interface FleetDevice {
  code: string;
  productCode: string;
  organizationCode: string;
  tenantCode: string;
  onlineState: string;
  healthScore: number;
  signal: number | null;
  battery: number | null;
  createdAt: number;
  deleted: boolean;
  sleeping: boolean;
}

function fleetDevices(fleet: DeviceTables): FleetDevice[] {
  return fleet.devices.map((row) => ({
    code: String(row.code),
    productCode: String(row.product_code),
    organizationCode: String(row.organization_code),
    tenantCode: String(row.tenant_code),
    onlineState: String(row.online_state),
    healthScore: Number(row.health_score),
    signal: row.signal_strength === null ? null : Number(row.signal_strength),
    battery: row.battery_level === null ? null : Number(row.battery_level),
    createdAt: new Date(String(row.created_at)).getTime(),
    deleted: row.deleted_at !== null,
    sleeping: row.sleeping === true,
  }));
}

type ErrorType = 'offline_long' | 'data_abnormal' | 'signal_weak' | 'report_missing';

/** What a reading looks like when it goes wrong, per product. */
const ABNORMAL_READINGS: Record<string, string[]> = {
  'PRD-WM-NB': ['累计流量倒走 0.35 m³', '瞬时流量 48.2 m³/h 超出量程', '表内压力读数为 0'],
  'PRD-FM-4G': ['瞬时流量跳变（12.6 → 386.0 m³/h）', '空管报警，流速 0 m/s', '励磁电流异常'],
  'PRD-PG-NB': ['压力读数跳变（0.28 → 1.86 MPa）', '压力读数持续为 0 MPa', '传感器零点漂移 0.05 MPa'],
  'PRD-LV-LR': ['液位读数 12.8 m 超出池深', '液位回波丢失', '液位读数 2 小时无变化'],
  'PRD-WQ-MB': ['浊度 1250 NTU 超出量程', 'pH 读数 14.0 不可信', '余氯电极信号丢失'],
  'PRD-TH-LR': ['温度读数 -40.0 ℃ 不可信', '湿度读数 100% 持续 6 小时', '温湿度读数不变'],
  'PRD-SD-NB': ['烟雾浓度传感器自检失败', '迷宫污染度 85%', '连续 3 次误报'],
  'PRD-GW-4G': ['子设备轮询超时 12 次', '网关 CPU 占用 98%', '存储空间不足 5%'],
};

const REMARKS: Record<ErrorType, string[]> = {
  offline_long: ['现场检查电源后恢复上线', '更换 NB 模组后恢复', '运营商基站故障，已恢复', '设备已拆除，待回收'],
  data_abnormal: ['现场校准传感器，读数恢复正常', '确认为现场施工影响，已恢复', '更换传感器探头', '远程下发校时与重启指令后恢复'],
  signal_weak: ['调整天线位置后信号恢复', '加装外置天线', '井盖遮挡，已改为侧装', '运营商扩容后信号恢复'],
  report_missing: ['远程重启后恢复上报', '上报周期配置错误，已重新下发', '电池电量低，已更换电池', '固件升级后恢复上报'],
};

function errorTypeOf(random: Random, device: FleetDevice): ErrorType {
  if (device.onlineState === 'offline' && random.next() < 0.6) return 'offline_long';
  if (device.signal !== null && device.signal < 12 && random.next() < 0.6) return 'signal_weak';
  const roll = random.next();
  return roll < 0.4 ? 'data_abnormal' : roll < 0.7 ? 'report_missing' : roll < 0.85 ? 'signal_weak' : 'offline_long';
}

function describe(random: Random, type: ErrorType, device: FleetDevice): string {
  switch (type) {
    case 'offline_long':
      return `设备已连续离线 ${random.int(25, 240)} 小时，超过离线告警阈值 24 小时`;
    case 'signal_weak':
      return `信号强度 ${random.int(2, 9)}（CSQ），连续 ${random.int(3, 12)} 次上报低于 10`;
    case 'report_missing':
      return `应每 60 分钟上报一次，最近 ${random.int(4, 36)} 小时缺失 ${random.int(3, 30)} 次上报`;
    case 'data_abnormal':
      return random.pick(ABNORMAL_READINGS[device.productCode] ?? ['读数超出合理范围']);
  }
}

/** Device errors over the last 90 days, mostly on troubled devices; old ones mostly handled. */
function deviceErrors(random: Random, now: number, devices: FleetDevice[], timeZone: string): Row[] {
  // Codes carry the business day (of `timeZone`).
  const day = (time: number) => businessDayStamp(new Date(time), timeZone);
  const live = devices.filter((d) => !d.deleted && d.onlineState !== 'inactive');
  const troubled = live.filter((d) => d.onlineState === 'offline' || d.healthScore < 80 || (d.signal !== null && d.signal < 12) || (d.battery !== null && d.battery < 20));
  const drafts: Array<{ device: FleetDevice; type: ErrorType; occurred: number; description: string }> = [];
  for (let n = 0; n < SEED_ERROR_COUNT; n += 1) {
    const device = random.next() < 0.7 ? random.pick(troubled) : random.pick(live);
    const type = errorTypeOf(random, device);
    // Recent days see more errors than old ones (the fleet grew).
    const ageMs = Math.floor(Math.pow(random.next(), 1.3) * 90 * DAY_MS);
    const occurred = Math.max(now - ageMs, device.createdAt + DAY_MS);
    if (occurred >= now) continue;
    drafts.push({ device, type, occurred, description: describe(random, type, device) });
  }
  drafts.sort((a, b) => a.occurred - b.occurred);
  const perDay = new Map<string, number>();
  const repairPerDay = new Map<string, number>();
  const next = (counter: Map<string, number>, key: string) => {
    const value = (counter.get(key) ?? 0) + 1;
    counter.set(key, value);
    return value;
  };
  return drafts.map((draft, index) => {
    const age = now - draft.occurred;
    const roll = random.next();
    const state = age > 7 * DAY_MS ? (roll < 0.8 ? 'handled' : roll < 0.92 ? 'repairing' : 'pending') : roll < 0.6 ? 'pending' : roll < 0.9 ? 'handled' : 'repairing';
    const handledAt = state === 'pending' ? null : Math.min(draft.occurred + random.int(1, 72) * HOUR_MS, now - 60_000);
    const code = `DE${day(draft.occurred)}${pad(next(perDay, day(draft.occurred)), 4)}`;
    return {
      id: index + 1,
      code,
      device_code: draft.device.code,
      organization_code: draft.device.organizationCode,
      tenant_code: draft.device.tenantCode,
      error_type: draft.type,
      description: draft.description,
      occurred_at: iso(draft.occurred),
      state,
      handled_by: handledAt === null ? null : random.pick(STAFF[draft.device.tenantCode]),
      handled_at: handledAt === null ? null : iso(handledAt),
      handle_remark: state === 'handled' ? random.pick(REMARKS[draft.type]) : state === 'repairing' ? '需现场维修，已转维修工单' : null,
      repair_order_code: state === 'repairing' && handledAt !== null ? `RO${day(handledAt)}${pad(next(repairPerDay, day(handledAt)), 5)}` : null,
      created_at: iso(draft.occurred),
    };
  });
}

/**
 * A daily health score for the last 30 days of the first live devices of each tenant: a random
 * walk that ends at today's score, so the trend meets the device's current state.
 */
function healthSamples(random: Random, now: number, devices: FleetDevice[], timeZone: string): Row[] {
  const rows: Row[] = [];
  for (const tenantCode of Object.keys(STAFF)) {
    const sampled = devices.filter((d) => d.tenantCode === tenantCode && !d.deleted && d.onlineState !== 'inactive').slice(0, HEALTH_SAMPLED_PER_TENANT);
    for (const device of sampled) {
      let score = device.healthScore;
      const scores: number[] = [];
      for (let back = 0; back < HEALTH_SAMPLE_DAYS; back += 1) {
        scores.push(score);
        const jump = random.next() < 0.05 ? random.int(-15, 15) : random.int(-4, 4);
        score = Math.min(100, Math.max(10, score + jump));
      }
      scores.forEach((value, back) => {
        if (now - back * DAY_MS < device.createdAt) return;
        rows.push({ device_code: device.code, sample_date: businessDay(new Date(now - back * DAY_MS), timeZone), health_score: value, health_state: healthStateOf(value) });
      });
    }
  }
  return rows;
}

/** Past wake-ups of battery-powered devices that are awake now. */
function wakeRecords(random: Random, now: number, devices: FleetDevice[]): Row[] {
  const candidates = devices.filter((d) => !d.deleted && !d.sleeping && d.battery !== null && d.onlineState !== 'inactive');
  const rows: Row[] = [];
  for (let n = 0; n < 160 && candidates.length; n += 1) {
    const device = random.pick(candidates);
    const wokenAt = now - random.int(1, 60) * DAY_MS - random.int(0, 86_399) * 1000;
    if (wokenAt <= device.createdAt + 2 * DAY_MS) continue;
    const sleptSince = Math.max(device.createdAt + DAY_MS, wokenAt - random.int(1, 30) * DAY_MS);
    rows.push({
      id: rows.length + 1,
      device_code: device.code,
      organization_code: device.organizationCode,
      tenant_code: device.tenantCode,
      slept_since: iso(sleptSince),
      woken_by: random.pick(STAFF[device.tenantCode]),
      woken_at: iso(wokenAt),
    });
  }
  return rows;
}

const CAMERA_MODELS: Record<string, string[]> = {
  hikvision: ['DS-2CD3T46WDV3-I3', 'DS-2DE4425IW-DE', 'DS-2CD2346FWD-IS'],
  dahua: ['DH-IPC-HFW2433M-I1', 'DH-SD49425XB-HNR', 'DH-IPC-HDBW2431E'],
  uniview: ['IPC2124LB-SF40KM', 'IPC6424SR-X25'],
  ezviz: ['C6CN', 'C3W Pro'],
  huawei: ['M2140-10-EI', 'D2150-10-SIU'],
};
const CAMERA_BRANDS = [
  { brand: 'hikvision', weight: 40 },
  { brand: 'dahua', weight: 28 },
  { brand: 'uniview', weight: 12 },
  { brand: 'ezviz', weight: 10 },
  { brand: 'huawei', weight: 10 },
];
const CAMERA_PLACES = ['大门入口', '泵房内部', '配电室', '围墙周界', '水池顶部', '值班室', '取水口', '停车场', '东侧通道', '监测井', '加药间', '中控室'];
const CAMERA_KINDS = ['枪机', '球机', '半球'];
const CITY_CENTRES: Record<string, [number, number]> = { T0001: [120.155, 30.274], T0002: [120.585, 31.299] };

/** The brand at `fraction` (0..1) of the weighted brand list. */
function pickBrand(fraction: number): string {
  let roll = fraction * CAMERA_BRANDS.reduce((sum, b) => sum + b.weight, 0);
  for (const { brand, weight } of CAMERA_BRANDS) {
    roll -= weight;
    if (roll < 0) return brand;
  }
  return CAMERA_BRANDS[0].brand;
}

function streamUrl(brand: string, code: string, host: string, channel: number): string {
  switch (brand) {
    case 'hikvision':
      return `rtsp://${host}:554/Streaming/Channels/${channel}01`;
    case 'dahua':
      return `rtsp://${host}:554/cam/realmonitor?channel=${channel}&subtype=0`;
    case 'uniview':
      return `rtsp://${host}:554/unicast/c${channel}/s0/live`;
    default:
      return `https://live.iot.example.com/hls/${code}/index.m3u8`;
  }
}

/** About sixty cameras at the tenants' projects and areas, half of them watching a device. */
function cameras(random: Random, now: number, devices: FleetDevice[]): Row[] {
  const organizations = flattenOrganizations();
  const rows: Row[] = [];
  for (const [tenantCode, count] of Object.entries(CAMERA_COUNTS)) {
    const sites = organizations.filter((o) => o.code.startsWith(tenantCode) && (o.type === ORGANIZATION_TYPE.project || o.type === ORGANIZATION_TYPE.area));
    const centre = CITY_CENTRES[tenantCode];
    for (let n = 1; n <= count; n += 1) {
      const site = sites[(n - 1) % sites.length];
      const brand = pickBrand(random.next());
      const code = `CAM${tenantCode.slice(-2)}${pad(n, 6)}`;
      const channel = random.int(1, 4);
      const host = `10.${Number(tenantCode.slice(-2))}.${random.int(1, 254)}.${random.int(2, 254)}`;
      const atSite = devices.filter((d) => d.organizationCode === site.code && !d.deleted);
      const watched = atSite.length && random.next() < 0.5 ? random.pick(atSite) : null;
      rows.push({
        id: rows.length + 1,
        code,
        name: `${site.name}-${random.pick(CAMERA_PLACES)}${random.pick(CAMERA_KINDS)}`,
        organization_code: site.code,
        tenant_code: tenantCode,
        brand,
        model: random.pick(CAMERA_MODELS[brand]),
        channel,
        stream_url: streamUrl(brand, code, host, channel),
        online_state: random.next() < 0.85 ? 'online' : 'offline',
        longitude: Math.round((centre[0] + (random.next() - 0.5) * 0.4) * 1e6) / 1e6,
        latitude: Math.round((centre[1] + (random.next() - 0.5) * 0.3) * 1e6) / 1e6,
        device_code: watched?.code ?? null,
        remark: '',
        created_by: STAFF[tenantCode][0],
        created_at: iso(now - random.int(30, 400) * DAY_MS),
        updated_at: iso(now - random.int(0, 29) * DAY_MS),
      });
    }
  }
  return rows;
}

/** The demo world's device errors, health samples, wake-ups and cameras (issue 5). */
export function maintenanceTables(random: Random, today: Date, fleet: DeviceTables, timeZone: string): SeedData {
  const now = today.getTime();
  const devices = fleetDevices(fleet);
  return [
    { table: 'device_error', rows: deviceErrors(random, now, devices, timeZone) },
    { table: 'device_health_sample', rows: healthSamples(random, now, devices, timeZone) },
    { table: 'device_wake_record', rows: wakeRecords(random, now, devices) },
    { table: 'camera', rows: cameras(random, now, devices) },
  ];
}
