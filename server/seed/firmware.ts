import type { JsonObject, Row, SeedData } from '../db/bulk';
import { dateStamp, upgradeTables, type DeviceRow } from './firmwareHistory';
import type { DeviceTables } from './devices';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';
import { HOUR_MS, DAY_MS, iso, pad } from './clock';
import { readFixture } from './fixtures/fixture';

/** apps.json: the app's releases, the feedback and its replies, and the configurations (scada screens). */
interface AppsFixture {
  APP_RELEASES: ReadonlyArray<{ version: string; notes: string; ageDays: number }>;
  HOT_FIXES: readonly string[];
  /** One character each. */
  SURNAMES: string;
  GIVEN: string[];
  APP_FEEDBACK: readonly string[];
  OTHER_FEEDBACK: readonly string[];
  REPLIES: readonly string[];
  PHONE_MODELS: Record<'android' | 'ios', readonly string[]>;
  CHANNELS: readonly string[];
  /** Which product measures a metric, and its unit. */
  METRIC_SOURCES: Record<string, { product: string; unit: string; widget: string; label: string }>;
  CONFIGURATIONS: ReadonlyArray<{ organizationCode: string; name: string; metrics: string[]; published: boolean; description: string }>;
}
const { APP_RELEASES, HOT_FIXES, SURNAMES, GIVEN, APP_FEEDBACK, OTHER_FEEDBACK, REPLIES, PHONE_MODELS, CHANNELS, METRIC_SOURCES, CONFIGURATIONS } = readFixture<AppsFixture>('apps');

function appVersionRows(random: Random, now: number): Row[] {
  const rows: Row[] = [];
  for (const platform of ['android', 'ios'] as const) {
    APP_RELEASES.forEach((release, index) => {
      const createdAt = now - release.ageDays * DAY_MS - random.int(1, 6) * HOUR_MS;
      const published = index < APP_RELEASES.length - 1;
      rows.push({
        id: rows.length + 1,
        platform,
        update_type: 'forced',
        version: release.version,
        build_number: 300 + index * 10,
        download_url: platform === 'android' ? `https://download.yunlian-iot.com/app/android/yunlian-iot-${release.version}.apk` : 'https://apps.apple.com/cn/app/id1588866001',
        package_size: platform === 'android' ? random.int(38, 52) * 1_048_576 : null,
        release_notes: release.notes,
        min_supported_version: index === 0 ? '2.6.0' : APP_RELEASES[Math.max(0, index - 2)].version,
        published,
        published_at: published ? iso(createdAt + random.int(2, 48) * HOUR_MS) : null,
        published_by: published ? 'admin' : null,
        created_by: 'admin',
        created_at: iso(createdAt),
        updated_at: iso(createdAt),
      });
    });
    HOT_FIXES.forEach((fix, index) => {
      const base = APP_RELEASES[3 + Math.floor(index / 5)];
      const patch = (index % 5) + 1;
      const version = `${base.version.slice(0, base.version.lastIndexOf('.'))}.${patch}`;
      const createdAt = now - base.ageDays * DAY_MS + (patch * 4 + random.int(0, 3)) * DAY_MS;
      const published = index < HOT_FIXES.length - 1;
      rows.push({
        id: rows.length + 1,
        platform,
        update_type: 'hot',
        version,
        build_number: 300 + (3 + Math.floor(index / 5)) * 10 + patch,
        download_url: `https://download.yunlian-iot.com/app/hot/${platform}/yunlian-iot-${version}.wgt`,
        package_size: random.int(600, 2_400) * 1_024,
        release_notes: fix,
        min_supported_version: base.version,
        published,
        published_at: published ? iso(Math.min(now, createdAt + random.int(1, 24) * HOUR_MS)) : null,
        published_by: published ? random.pick(['admin', 'operator']) : null,
        created_by: 'admin',
        created_at: iso(Math.min(now, createdAt)),
        updated_at: iso(Math.min(now, createdAt)),
      });
    });
  }
  return rows;
}

function feedbackRows(random: Random, now: number, timeZone: string): Row[] {
  const rows: Row[] = [];
  const organizations = flattenOrganizations();
  for (const [tenantCode, count] of [['T0001', 180], ['T0002', 120]] as const) {
    const sites = organizations.filter((org) => org.code.startsWith(tenantCode)).map((org) => org.code);
    for (let n = 0; n < count; n += 1) {
      const app = random.next() < 0.62;
      const platform = random.next() < 0.7 ? 'android' : 'ios';
      const createdAt = now - Math.floor(random.next() ** 1.6 * 180 * DAY_MS);
      const ageDays = (now - createdAt) / DAY_MS;
      const replied = random.next() < (ageDays > 3 ? 0.85 : 0.3);
      const repliedAt = replied ? Math.min(now, createdAt + random.int(1, 72) * HOUR_MS) : null;
      const name = `${SURNAMES[random.int(0, SURNAMES.length - 1)]}${random.pick(GIVEN)}`;
      rows.push({
        id: rows.length + 1,
        code: `FB${dateStamp(createdAt, timeZone)}${pad(rows.length + 1, 4)}`,
        feedback_type: app ? 'app' : 'other',
        tenant_code: tenantCode,
        organization_code: random.pick(sites),
        user_name: name,
        contact: `1${random.pick(['38', '39', '58', '59', '86', '88', '77'])}${pad(random.int(0, 99_999_999), 8)}`,
        app_version: app ? random.pick(['3.2.0', '3.3.0', '3.3.2', '3.4.0', '3.4.1', '3.4.2']) : '',
        phone_model: app ? random.pick(PHONE_MODELS[platform]) : '',
        channel: app ? (platform === 'android' ? 'Android' : 'iOS') : random.pick(CHANNELS),
        content: random.pick(app ? APP_FEEDBACK : OTHER_FEEDBACK),
        images: [],
        state: replied ? 'replied' : 'pending',
        reply: replied ? random.pick(REPLIES) : null,
        replied_by: replied ? (random.next() < 0.8 ? (tenantCode === 'T0001' ? 'tadmin' : 'badmin') : 'operator') : null,
        replied_at: repliedAt === null ? null : iso(repliedAt),
        created_at: iso(createdAt),
      });
    }
  }
  return rows;
}

/** A widget of a configuration canvas, as stored in `canvas.widgets`. */
interface SeedWidget {
  id: string;
  type: string;
  title: string;
  deviceCode: string | null;
  metric: string | null;
  unit: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

function configurationRows(random: Random, now: number, fleet: DeviceTables): Row[] {
  const devices = fleet.devices as unknown as DeviceRow[];
  return CONFIGURATIONS.map((spec, index) => {
    const tenantCode = spec.organizationCode.slice(0, 5);
    const used = new Set<string>();
    const widgets: SeedWidget[] = [{ id: 'w1', type: 'text', title: spec.name, deviceCode: null, metric: null, unit: '', x: 40, y: 24, width: 800, height: 64 }];
    spec.metrics.forEach((metric, n) => {
      const source = METRIC_SOURCES[metric];
      const near = devices.filter((d) => d.product_code === source.product && d.tenant_code === tenantCode && d.deleted_at === null && !used.has(d.code));
      const inSite = near.filter((d) => d.organization_code.startsWith(spec.organizationCode));
      const device = (inSite.length ? inSite : near)[random.int(0, Math.min(20, (inSite.length ? inSite : near).length) - 1)];
      if (!device) return;
      used.add(device.code);
      widgets.push({
        id: `w${widgets.length + 1}`,
        type: source.widget,
        title: `${source.label} ${n + 1}`,
        deviceCode: device.code,
        metric,
        unit: source.unit,
        x: 40 + (n % 3) * 600,
        y: 120 + Math.floor(n / 3) * 440,
        width: 560,
        height: 400,
      });
    });
    const createdAt = now - random.int(10, 200) * DAY_MS;
    const updatedAt = Math.min(now, createdAt + random.int(0, 9) * DAY_MS);
    const author = tenantCode === 'T0001' ? 'tadmin' : 'badmin';
    // jsonb: the canvas is an object whose widgets are a list of plain objects.
    const canvas = { width: 1920, height: 1080, background: random.pick(['#0b1d33', '#101820', '#0f2a44']), widgets } as unknown as JsonObject;
    return {
      id: index + 1,
      code: `ZT${pad(index + 1, 5)}`,
      name: spec.name,
      tenant_code: tenantCode,
      organization_code: spec.organizationCode,
      description: spec.description,
      canvas,
      published: spec.published,
      created_by: author,
      created_at: iso(createdAt),
      updated_by: author,
      updated_at: iso(updatedAt),
    };
  });
}

/** The demo world's upgrade packages, tasks, app versions, feedback and online configurations (issue 5). */
export function firmwareTables(random: Random, today: Date, fleet: DeviceTables, timeZone: string): SeedData {
  const now = today.getTime();
  const { packages, tasks, taskDevices } = upgradeTables(random, now, fleet, timeZone);
  return [
    { table: 'upgrade_package', rows: packages },
    { table: 'upgrade_task', rows: tasks },
    { table: 'upgrade_task_device', rows: taskDevices },
    { table: 'app_version', rows: appVersionRows(random, now) },
    { table: 'feedback', rows: feedbackRows(random, now, timeZone) },
    { table: 'online_configuration', rows: configurationRows(random, now, fleet) },
  ];
}
