import type { Row } from '../db/bulk';
import { ORGANIZATION_TYPE } from '../domain/organizations';
import { flattenOrganizations } from './organizations';
import { weightedPick, type Random } from './prng';
import { HOUR_MS, DAY_MS, iso, pad } from './clock';
import { readFixture } from './fixtures/fixture';

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

/** devices.json: the catalogue and where the devices stand. */
interface DevicesFixture {
  SEED_CATEGORIES: ReadonlyArray<{ code: string; name: string; parent: string | null }>;
  SEED_PRODUCTS: readonly SeedProduct[];
  /** Where each tenant's devices stand: a city centre and the street names around it. */
  CITIES: Record<string, { longitude: number; latitude: number; city: string; streets: string[] }>;
}
const fixture = readFixture<DevicesFixture>('devices');
export const { SEED_CATEGORIES, SEED_PRODUCTS } = fixture;
const { CITIES } = fixture;

/** How many devices each tenant runs (about 10,000 together). */
export const SEED_DEVICE_COUNTS: Record<string, number> = { T0001: 6400, T0002: 3800 };

/** The organisations devices are installed under: every project and area of a tenant. */
function installationSites(tenantCode: string): string[] {
  return flattenOrganizations()
    .filter((org) => org.code.startsWith(tenantCode) && (org.type === ORGANIZATION_TYPE.project || org.type === ORGANIZATION_TYPE.area))
    .map((org) => org.code);
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
