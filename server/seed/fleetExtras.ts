import type { JsonObject, Row, SeedData } from '../db/bulk';
import { wallClockOf } from '../domain/businessTime';
import { CONSOLE_COMMAND_TYPES, commandSupported, encodeCommand, type CommandType } from '../domain/deviceCommands';
import { demandAt } from '../domain/deviceTelemetry';
import type { DeviceTables } from './devices';
import type { Random } from './prng';
import { HOUR_MS, DAY_MS, iso } from './clock';

/** Hourly reports over the last seven days. */
const TELEMETRY_HOURS = 7 * 24;
/** The devices of each tenant that report telemetry: its newest live, activated ones. */
const REPORTING_DEVICES_PER_TENANT = 100;

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

interface SampleState {
  totalFlow: number;
  base: number;
}

/** One report's product readings at `time`, `hourOfDay` on the business zone's clock (it drives the daily rhythm). */
function readings(random: Random, productCode: string, time: number, hourOfDay: number, state: SampleState): JsonObject {
  const demand = demandAt(hourOfDay);
  const noise = () => random.next() - 0.5;
  switch (productCode) {
    case 'PRD-WM-NB': {
      const flowRate = round(clamp(state.base * demand + noise() * 0.02, 0, 5), 3);
      state.totalFlow = round(state.totalFlow + flowRate, 3);
      return { totalFlow: state.totalFlow, flowRate };
    }
    case 'PRD-FM-4G': {
      const flowRate = round(clamp(state.base * (0.4 + demand) + noise() * 6, 0, 400), 2);
      state.totalFlow = round(state.totalFlow + flowRate, 2);
      return { totalFlow: state.totalFlow, flowRate };
    }
    case 'PRD-PG-NB':
      return { pressure: round(clamp(state.base - 0.08 * demand + noise() * 0.01, 0.05, 1.2), 3) };
    case 'PRD-LV-LR':
      return { level: round(clamp(state.base + Math.sin((time / DAY_MS) * 2 * Math.PI) * 0.4 + noise() * 0.05, 0.2, 6), 2) };
    case 'PRD-WQ-MB':
      return { ph: round(7.2 + noise() * 0.4, 2), turbidity: round(clamp(0.35 + noise() * 0.3, 0.05, 2), 2), chlorine: round(clamp(0.5 + noise() * 0.2, 0.1, 1), 2) };
    case 'PRD-TH-LR':
      return { humidity: round(clamp(state.base - 12 * Math.sin(((hourOfDay - 8) / 24) * 2 * Math.PI) + noise() * 4, 20, 98), 1) };
    case 'PRD-SD-NB':
      return { smoke: round(clamp(0.01 + random.next() * 0.02, 0, 1), 3) };
    case 'PRD-GW-4G':
      return { cpu: round(clamp(18 + demand * 25 + noise() * 8, 1, 99), 1), memory: round(clamp(state.base + noise() * 3, 10, 95), 1), subDevices: random.int(8, 24) };
    default:
      return {};
  }
}

function startingState(random: Random, productCode: string): SampleState {
  switch (productCode) {
    case 'PRD-WM-NB':
      return { totalFlow: random.int(120, 4800) + random.next(), base: 0.05 + random.next() * 0.08 };
    case 'PRD-FM-4G':
      return { totalFlow: random.int(20_000, 900_000), base: 40 + random.next() * 60 };
    case 'PRD-PG-NB':
      return { totalFlow: 0, base: 0.3 + random.next() * 0.15 };
    case 'PRD-LV-LR':
      return { totalFlow: 0, base: 1.5 + random.next() * 3 };
    case 'PRD-TH-LR':
      return { totalFlow: 0, base: 55 + random.next() * 20 };
    case 'PRD-GW-4G':
      return { totalFlow: 0, base: 35 + random.next() * 25 };
    default:
      return { totalFlow: 0, base: 0 };
  }
}

/** The newest live, activated devices of each tenant: they carry the reports and command history. */
function reportingDevices(fleet: DeviceTables): Row[] {
  const byTenant = new Map<string, Row[]>();
  for (const device of fleet.devices) {
    if (device.deleted_at !== null || device.online_state === 'inactive') continue;
    const tenant = String(device.tenant_code);
    const devices = byTenant.get(tenant) ?? [];
    devices.push(device);
    byTenant.set(tenant, devices);
  }
  return [...byTenant.values()].flatMap((devices) =>
    devices
      .sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)) || Number(b.id) - Number(a.id))
      .slice(0, REPORTING_DEVICES_PER_TENANT),
  );
}

function telemetryRows(random: Random, now: number, devices: readonly Row[], timeZone: string): Row[] {
  const rows: Row[] = [];
  for (const device of devices) {
    const productCode = String(device.product_code);
    const state = startingState(random, productCode);
    // An offline device stopped reporting when it was last seen.
    const lastSeen = device.last_seen_at === null ? now : Date.parse(String(device.last_seen_at));
    const battery = device.battery_level === null ? null : Number(device.battery_level);
    const signal = device.signal_strength === null ? null : Number(device.signal_strength);
    const temperature = device.temperature === null ? null : Number(device.temperature);
    for (let hour = TELEMETRY_HOURS - 1; hour >= 0; hour -= 1) {
      // Reports come a few minutes after the hour.
      const time = now - hour * HOUR_MS + (Number(device.id) % 50) * 60_000 - HOUR_MS;
      const hourOfDay = wallClockOf(new Date(time), timeZone).hour;
      const metrics = readings(random, productCode, time, hourOfDay, state);
      if (time > lastSeen) continue;
      rows.push({
        device_id: Number(device.id),
        reported_at: iso(time),
        metrics,
        // The battery drained about one percent over the week.
        battery_level: battery === null ? null : clamp(battery + Math.floor(hour / 84), 0, 100),
        signal_strength: signal === null ? null : clamp(signal + random.int(-2, 2), 0, 31),
        temperature: temperature === null ? null : round(temperature - 3 + 6 * Math.sin(((hourOfDay - 9) / 24) * 2 * Math.PI) + (random.next() - 0.5), 1),
      });
    }
  }
  return rows;
}

function commandRows(random: Random, now: number, devices: readonly Row[], categories: ReadonlyMap<string, string>, timeZone: string): Row[] {
  const rows: Row[] = [];
  for (const device of devices) {
    const category = categories.get(String(device.product_code)) ?? '';
    const types = CONSOLE_COMMAND_TYPES.filter((type) => commandSupported(type, category));
    const count = random.int(0, 3);
    const times = Array.from({ length: count }, () => now - random.int(1, 30 * 24) * HOUR_MS - random.int(0, 3599) * 1000).sort((a, b) => a - b);
    times.forEach((time, index) => {
      const type: CommandType = random.pick(types);
      const id = rows.length + 1;
      const encoded = encodeCommand({ type, deviceCode: String(device.code), sequence: id, intervalMinutes: random.pick([15, 30, 60, 120, 240]), at: new Date(time), timeZone });
      const newest = index === times.length - 1 && now - time < 2 * DAY_MS;
      const roll = random.next();
      const state = newest && device.online_state === 'offline' ? 'pending' : roll < 0.08 ? 'failed' : roll < 0.14 ? 'sent' : 'acknowledged';
      rows.push({
        id,
        device_id: Number(device.id),
        command_type: type,
        parameters: encoded.parameters,
        command_text: encoded.text,
        command_hex: encoded.hex,
        state,
        created_by: String(device.tenant_code) === 'T0001' ? 'tadmin' : 'badmin',
        created_at: iso(time),
        sent_at: state === 'pending' ? null : iso(time + random.int(5, 3600) * 1000),
        replied_at: state === 'acknowledged' ? iso(time + random.int(3601, 7200) * 1000) : null,
      });
    });
  }
  return rows;
}

/** Two past imports per tenant: one clean, one with rows refused and why. */
function importRows(now: number): { imports: Row[]; errors: Row[] } {
  const imports: Row[] = [];
  const errors: Row[] = [];
  const tenants: Array<[string, string]> = [
    ['T0001', 'tadmin'],
    ['T0002', 'badmin'],
  ];
  tenants.forEach(([tenant, user], index) => {
    const clean = imports.length + 1;
    imports.push({ id: clean, organization_code: tenant, file_name: '设备导入-首批水表.xlsx', file_path: null, total: 48, inserted: 48, failed: 0, created_by: user, created_at: iso(now - (40 + index) * DAY_MS) });
    const partial = imports.length + 1;
    imports.push({ id: partial, organization_code: tenant, file_name: '设备导入-二期压力计.xlsx', file_path: null, total: 30, inserted: 27, failed: 3, created_by: user, created_at: iso(now - (12 + index) * DAY_MS) });
    errors.push(
      { import_id: partial, row_number: 5, message: '请输入正确的设备编码格式' },
      { import_id: partial, row_number: 12, message: '设备编码已存在' },
      { import_id: partial, row_number: 27, message: '产品不存在' },
    );
  });
  return { imports, errors };
}

/** The device telemetry of the last week, command history and past imports of the fleet (issue 5). */
export function fleetExtrasTables(random: Random, today: Date, fleet: DeviceTables, timeZone: string): SeedData {
  const now = today.getTime();
  const reporting = reportingDevices(fleet);
  const categories = new Map(fleet.products.map((product) => [String(product.code), String(product.category_code)]));
  const { imports, errors } = importRows(now);
  return [
    { table: 'device_telemetry', rows: telemetryRows(random, now, reporting, timeZone) },
    { table: 'device_command', rows: commandRows(random, now, reporting, categories, timeZone) },
    { table: 'device_import', rows: imports },
    { table: 'device_import_error', rows: errors },
  ];
}
