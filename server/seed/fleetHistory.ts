import type { Row } from '../db/bulk';
import { addDays, businessDay, startOfDay } from '../domain/businessTime';

/**
 * The demo world's daily fleet states before today (device_state_day, migration 128): what the
 * platform would have recorded had it run through the seeded history. Today's rows are the tally's,
 * written when the devices are loaded. A device counts on a day from its creation to its deletion;
 * at the day's end it is inactive until activated, offline after it was last seen (the devices
 * offline now) or inside one of its offline alarms that later recovered, online otherwise. Like the
 * platform's own, a row is written for a product and organisation only on a day its figures moved:
 * a day without a row carries the last one forward.
 */

/** Days of history: as long as the seeded alarm history (server/seed/alarms.ts). */
export const FLEET_HISTORY_DAYS = 90;

type State = 'online' | 'offline' | 'inactive';

const time = (value: unknown): number | null => (typeof value === 'string' ? Date.parse(value) : null);

/** The offline alarms each device recovered from, as [from, to) spans, by device code. */
function outagesOf(alarms: readonly Row[]): Map<string, Array<[number, number]>> {
  const outages = new Map<string, Array<[number, number]>>();
  for (const alarm of alarms) {
    const from = time(alarm.triggered_at);
    const to = time(alarm.recovered_at);
    if (alarm.source !== 'device' || alarm.alarm_type !== 'offline' || from === null || to === null) continue;
    const spans = outages.get(String(alarm.device_code)) ?? [];
    spans.push([from, to]);
    outages.set(String(alarm.device_code), spans);
  }
  return outages;
}

/** What a device's state on a past day is read from: its times, parsed once. */
interface DeviceTimes {
  key: string;
  created: number;
  deleted: number | null;
  activated: number | null;
  /** When a device offline now was last seen: offline since. */
  offlineSince: number | null;
  outages: ReadonlyArray<[number, number]>;
}

function timesOf(device: Row, outages: Map<string, Array<[number, number]>>): DeviceTimes {
  const lastSeen = time(device.last_seen_at);
  return {
    key: `${String(device.tenant_code)}\u0000${String(device.organization_code)}\u0000${String(device.product_code)}`,
    created: time(device.created_at) ?? 0,
    deleted: time(device.deleted_at),
    activated: time(device.activated_at),
    offlineSince: device.online_state === 'offline' ? lastSeen : null,
    outages: outages.get(String(device.code)) ?? [],
  };
}

/** The device's state at `end`, or null when it did not exist then (not yet created, or deleted). */
function stateAt(device: DeviceTimes, end: number): State | null {
  if (device.created >= end || (device.deleted !== null && device.deleted < end)) return null;
  if (device.activated === null || device.activated >= end) return 'inactive';
  if (device.offlineSince !== null && device.offlineSince < end) return 'offline';
  return device.outages.some(([from, to]) => from < end && end < to) ? 'offline' : 'online';
}

/** The rows of device_state_day for the `FLEET_HISTORY_DAYS` business days before `today`'s. */
export function fleetHistoryRows(devices: readonly Row[], alarms: readonly Row[], today: Date, timeZone: string): Row[] {
  const outages = outagesOf(alarms);
  const fleet = devices.map((device) => timesOf(device, outages));
  const last = new Map<string, string>();
  const rows: Row[] = [];
  const todayKey = businessDay(today, timeZone);
  for (let back = FLEET_HISTORY_DAYS; back >= 1; back -= 1) {
    const day = addDays(todayKey, -back);
    const end = startOfDay(addDays(day, 1), timeZone).getTime();
    const counts = new Map<string, { devices: number; online: number; offline: number; inactive: number }>();
    for (const device of fleet) {
      const state = stateAt(device, end);
      if (state === null) continue;
      const key = device.key;
      const count = counts.get(key) ?? { devices: 0, online: 0, offline: 0, inactive: 0 };
      count.devices += 1;
      count[state] += 1;
      counts.set(key, count);
    }
    // Keys that had devices before and none now fall to zero that day.
    for (const key of last.keys()) if (!counts.has(key)) counts.set(key, { devices: 0, online: 0, offline: 0, inactive: 0 });
    for (const [key, count] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const figures = `${count.devices}/${count.online}/${count.offline}/${count.inactive}`;
      if ((last.get(key) ?? '0/0/0/0') === figures) continue;
      last.set(key, figures);
      const [tenantCode, organizationCode, productCode] = key.split('\u0000');
      rows.push({ tenant_code: tenantCode, organization_code: organizationCode, product_code: productCode, day, ...count });
    }
  }
  return rows;
}
