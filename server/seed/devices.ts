import type { Row } from '../db/bulk';
import { ORGANIZATION_TYPE } from '../domain/organizations';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';
import { HOUR_MS, DAY_MS, iso, pad } from './clock';

/** A device model of the demo catalogue; `prefix` starts each of its device codes. */
interface SeedProduct {
  code: string;
  name: string;
  model: string;
  category: string;
  protocol: 'mqtt' | 'coap' | 'http' | 'modbus';
  nodeType: 'direct' | 'gateway' | 'sub';
  batteryPowered: boolean;
  manufacturer: string;
  prefix: string;
  /** The firmware versions in the field, newest last. */
  firmware: string[];
  /** Relative share of the fleet. */
  weight: number;
  /** The device name stem ("智能水表" → 智能水表-0001). */
  stem: string;
}

export const SEED_CATEGORIES = [
  { code: 'C01', name: '计量仪表', parent: null },
  { code: 'C0101', name: '水表', parent: 'C01' },
  { code: 'C0102', name: '流量计', parent: 'C01' },
  { code: 'C02', name: '环境监测', parent: null },
  { code: 'C0201', name: '水质监测', parent: 'C02' },
  { code: 'C0202', name: '温湿度监测', parent: 'C02' },
  { code: 'C03', name: '安防消防', parent: null },
  { code: 'C0301', name: '烟感报警', parent: 'C03' },
  { code: 'C04', name: '通信网关', parent: null },
  { code: 'C05', name: '压力液位', parent: null },
] as const;

export const SEED_PRODUCTS: readonly SeedProduct[] = [
  { code: 'PRD-WM-NB', name: 'NB-IoT 智能水表', model: 'YL-WM200', category: 'C0101', protocol: 'coap', nodeType: 'direct', batteryPowered: true, manufacturer: '云联智能', prefix: 'WMNB', firmware: ['1.2.0', '1.3.2', '1.4.0'], weight: 34, stem: '智能水表' },
  { code: 'PRD-FM-4G', name: '4G 电磁流量计', model: 'YL-FM310', category: 'C0102', protocol: 'mqtt', nodeType: 'direct', batteryPowered: false, manufacturer: '云联智能', prefix: 'FM4G', firmware: ['2.0.1', '2.1.0'], weight: 8, stem: '流量计' },
  { code: 'PRD-PG-NB', name: 'NB-IoT 压力计', model: 'YL-PG100', category: 'C05', protocol: 'coap', nodeType: 'direct', batteryPowered: true, manufacturer: '华测传感', prefix: 'PGNB', firmware: ['3.0.0', '3.1.5'], weight: 14, stem: '压力计' },
  { code: 'PRD-LV-LR', name: '超声波液位计', model: 'HC-LV50', category: 'C05', protocol: 'mqtt', nodeType: 'direct', batteryPowered: true, manufacturer: '华测传感', prefix: 'LVLR', firmware: ['1.0.4', '1.1.0'], weight: 7, stem: '液位计' },
  { code: 'PRD-WQ-MB', name: '多参数水质传感器', model: 'ZS-WQ6', category: 'C0201', protocol: 'modbus', nodeType: 'sub', batteryPowered: false, manufacturer: '智水环境', prefix: 'WQMB', firmware: ['4.2.0', '4.3.1'], weight: 10, stem: '水质传感器' },
  { code: 'PRD-TH-LR', name: '温湿度传感器', model: 'YL-TH20', category: 'C0202', protocol: 'mqtt', nodeType: 'direct', batteryPowered: true, manufacturer: '云联智能', prefix: 'THLR', firmware: ['1.1.0', '1.2.3'], weight: 12, stem: '温湿度传感器' },
  { code: 'PRD-SD-NB', name: 'NB-IoT 独立烟感', model: 'AF-SD01', category: 'C0301', protocol: 'coap', nodeType: 'direct', batteryPowered: true, manufacturer: '安防科技', prefix: 'SDNB', firmware: ['2.3.0', '2.4.1'], weight: 12, stem: '烟感' },
  { code: 'PRD-GW-4G', name: '边缘计算网关', model: 'YL-GW800', category: 'C04', protocol: 'mqtt', nodeType: 'gateway', batteryPowered: false, manufacturer: '云联智能', prefix: 'GW4G', firmware: ['5.0.2', '5.1.0'], weight: 1, stem: '边缘网关' },
];

/** Where each tenant's devices stand: a city centre and the street names around it. */
const CITIES: Record<string, { longitude: number; latitude: number; city: string; streets: string[] }> = {
  T0001: { longitude: 120.155, latitude: 30.274, city: '浙江省杭州市', streets: ['西湖区灵隐路', '西湖区龙井路', '上城区湖滨路', '钱塘区下沙路', '钱塘区江东大道', '拱墅区莫干山路', '滨江区江南大道'] },
  T0002: { longitude: 120.585, latitude: 31.299, city: '江苏省苏州市', streets: ['吴中区东山大道', '吴中区光福镇', '相城区阳澄湖大道', '工业园区星海街', '工业园区金鸡湖大道', '姑苏区人民路'] },
};

/** How many devices each tenant runs (about 10,000 together). */
export const SEED_DEVICE_COUNTS: Record<string, number> = { T0001: 6400, T0002: 3800 };

/** The organisations devices are installed under: every project and area of a tenant. */
function installationSites(tenantCode: string): string[] {
  return flattenOrganizations()
    .filter((org) => org.code.startsWith(tenantCode) && (org.type === ORGANIZATION_TYPE.project || org.type === ORGANIZATION_TYPE.area))
    .map((org) => org.code);
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

export interface DeviceTables {
  categories: Row[];
  products: Row[];
  devices: Row[];
  care: Row[];
}

/**
 * The device fleet of the demo world: a shared catalogue of categories and products and about ten
 * thousand devices across the tenants' projects and areas, with believable codes, firmware,
 * battery levels, signal, last-seen times, locations, health and sleep states, a few hundred in
 * the recycle bin, gateways with their sub-devices, and some devices followed by the tenant admins.
 */
export function deviceTables(random: Random, today: Date, followers: ReadonlyArray<{ userId: number; tenantCode: string }>): DeviceTables {
  const now = today.getTime();
  const categories: Row[] = SEED_CATEGORIES.map((category, index) => ({
    id: index + 1,
    code: category.code,
    name: category.name,
    parent_code: category.parent,
    tenant_code: null,
    sort: index + 1,
    remark: '',
    created_at: iso(now - 400 * DAY_MS),
  }));
  const products: Row[] = SEED_PRODUCTS.map((product, index) => ({
    id: index + 1,
    code: product.code,
    name: product.name,
    model: product.model,
    category_code: product.category,
    tenant_code: null,
    protocol: product.protocol,
    node_type: product.nodeType,
    battery_powered: product.batteryPowered,
    manufacturer: product.manufacturer,
    description: `${product.manufacturer} ${product.model}，${product.batteryPowered ? '电池供电' : '外接电源'}。`,
    settings: { reportIntervalMinutes: product.batteryPowered ? 60 : 5, heartbeatMinutes: product.batteryPowered ? 240 : 10, lowBatteryPercent: 20, temperatureHigh: 60, temperatureLow: -10 },
    published: true,
    created_at: iso(now - (380 - index * 10) * DAY_MS),
  }));

  const devices: Row[] = [];
  const serials: Record<string, number> = {};
  for (const [tenantCode, count] of Object.entries(SEED_DEVICE_COUNTS)) {
    const sites = installationSites(tenantCode);
    const city = CITIES[tenantCode];
    const gateways: Array<{ code: string; site: string }> = [];
    for (let n = 0; n < count; n += 1) {
      // A gateway every 80 devices, so sub-devices always find one at their site's tenant.
      const product = n % 80 === 0 ? SEED_PRODUCTS.find((p) => p.nodeType === 'gateway')! : weightedPick(random, SEED_PRODUCTS.filter((p) => p.nodeType !== 'gateway'));
      serials[product.prefix] = (serials[product.prefix] ?? 0) + 1;
      const serial = serials[product.prefix];
      const code = `${product.prefix}${tenantCode.slice(-2)}${pad(serial, 6)}`;
      const site = n % 80 === 0 ? sites[gateways.length % sites.length] : random.pick(sites);
      if (product.nodeType === 'gateway') gateways.push({ code, site });
      const createdAt = now - random.int(20, 720) * DAY_MS - random.int(0, 86_399) * 1000;
      const roll = random.next();
      const onlineState = roll < 0.04 ? 'inactive' : roll < 0.2 ? 'offline' : 'online';
      const active = onlineState !== 'inactive';
      const lastSeen = !active ? null : onlineState === 'online' ? now - random.int(0, 55) * 60_000 : now - random.int(2, 60 * 24) * HOUR_MS;
      const battery = product.batteryPowered ? (random.next() < 0.08 ? random.int(0, 19) : random.int(20, 100)) : null;
      const healthRoll = random.next();
      const healthState = onlineState === 'offline' && healthRoll < 0.4 ? 'faulty' : healthRoll < 0.1 ? 'subhealthy' : healthRoll < 0.13 ? 'faulty' : 'healthy';
      const healthScore = healthState === 'healthy' ? random.int(80, 100) : healthState === 'subhealthy' ? random.int(60, 79) : random.int(15, 59);
      const sleeping = active && product.batteryPowered && random.next() < 0.06;
      const deleted = random.next() < 0.03;
      const street = random.pick(city.streets);
      devices.push({
        id: devices.length + 1,
        code,
        name: `${product.stem}-${pad(serial, 4)}`,
        product_code: product.code,
        organization_code: site,
        tenant_code: tenantCode,
        imei: `86${pad(random.int(0, 99_999_999), 8)}${pad(random.int(0, 99_999), 5)}`,
        firmware_version: active ? product.firmware[random.next() < 0.6 ? product.firmware.length - 1 : random.int(0, product.firmware.length - 1)] : product.firmware[0],
        online_state: onlineState,
        health_state: healthState,
        health_score: healthScore,
        battery_level: battery,
        signal_strength: active ? random.int(5, 31) : null,
        temperature: active ? Math.round((12 + random.next() * 22) * 10) / 10 : null,
        longitude: Math.round((city.longitude + (random.next() - 0.5) * 0.4) * 1e6) / 1e6,
        latitude: Math.round((city.latitude + (random.next() - 0.5) * 0.3) * 1e6) / 1e6,
        address: `${city.city}${street}${random.int(1, 999)}号`,
        gateway_code: product.nodeType === 'sub' && gateways.length ? gateways[random.int(0, gateways.length - 1)].code : null,
        iccid: active && product.protocol !== 'modbus' && random.next() < 0.7 ? `898604${pad(tenantCode === 'T0001' ? 1 : 2, 2)}${pad(devices.length + 1, 12)}` : null,
        sleeping,
        sleep_since: sleeping ? iso(now - random.int(1, 40) * DAY_MS) : null,
        last_seen_at: lastSeen === null ? null : iso(lastSeen),
        activated_at: active ? iso(createdAt + random.int(1, 10) * DAY_MS) : null,
        deleted_at: deleted ? iso(now - random.int(1, 60) * DAY_MS) : null,
        deleted_by: deleted ? (tenantCode === 'T0001' ? 'tadmin' : 'badmin') : null,
        recycle_reason: deleted ? random.pick(['removed', 'replaced', 'scrapped', 'deleted']) : null,
        remark: '',
        created_at: iso(createdAt),
      });
    }
  }

  // Each follower follows a dozen of its tenant's live devices.
  const care: Row[] = [];
  followers.forEach(({ userId, tenantCode }, index) => {
    devices
      .filter((device) => device.tenant_code === tenantCode && device.deleted_at === null)
      .slice(index * 3, index * 3 + 12)
      .forEach((device) => care.push({ user_id: userId, device_id: device.id, created_at: iso(now - random.int(1, 30) * DAY_MS) }));
  });
  return { categories, products, devices, care };
}
