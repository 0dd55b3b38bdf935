import type { Row, SeedData } from '../db/bulk';
import { businessDay, businessDayStamp } from '../domain/businessTime';
import type { DeviceTables } from './devices';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';
import { ORGANIZATION_TYPE } from '../domain/organizations';
import { HOUR_MS, DAY_MS, counter, iso, pad } from './clock';
import { readFixture } from './fixtures/fixture';

/** How many device errors the demo world holds over the last 90 days. */
export const SEED_ERROR_COUNT = 3200;
/** How many devices of each tenant have a sampled health trend (the first live ones). */
export const HEALTH_SAMPLED_PER_TENANT = 150;
/** Days of health samples per sampled device, today included. */
export const HEALTH_SAMPLE_DAYS = 30;

/** maintenance.json: the words and numbers of device errors, health and cameras. */
interface MaintenanceFixture {
  /** Cameras per tenant. */
  CAMERA_COUNTS: Record<string, number>;
  /** Who handles things in each tenant (seeded accounts). */
  STAFF: Record<string, string[]>;
  /** What a reading looks like when it goes wrong, per product. */
  ABNORMAL_READINGS: Record<string, string[]>;
  REMARKS: Record<ErrorType, string[]>;
  CAMERA_MODELS: Record<string, string[]>;
  CAMERA_BRANDS: Array<{ brand: string; weight: number }>;
  CAMERA_PLACES: string[];
  CAMERA_KINDS: string[];
  CITY_CENTRES: Record<string, [number, number]>;
}
const { CAMERA_COUNTS, STAFF, ABNORMAL_READINGS, REMARKS, CAMERA_MODELS, CAMERA_BRANDS, CAMERA_PLACES, CAMERA_KINDS, CITY_CENTRES } = readFixture<MaintenanceFixture>('maintenance');

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
  const perDay = counter();
  const repairPerDay = counter();
  return drafts.map((draft, index) => {
    const age = now - draft.occurred;
    const roll = random.next();
    const state = age > 7 * DAY_MS ? (roll < 0.8 ? 'handled' : roll < 0.92 ? 'repairing' : 'pending') : roll < 0.6 ? 'pending' : roll < 0.9 ? 'handled' : 'repairing';
    const handledAt = state === 'pending' ? null : Math.min(draft.occurred + random.int(1, 72) * HOUR_MS, now - 60_000);
    const code = `DE${day(draft.occurred)}${pad(perDay(day(draft.occurred)), 4)}`;
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
      repair_order_code: state === 'repairing' && handledAt !== null ? `RO${day(handledAt)}${pad(repairPerDay(day(handledAt)), 5)}` : null,
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
