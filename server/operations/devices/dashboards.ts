import type { Queryable, SqlParam } from '../../db/database';
import { bind } from '../../db/parameters';
import { businessMinute } from '../../domain/businessTime';
import { ALARM_TYPE_LABELS, ALARM_TYPES } from '../../domain/alarms';
import { ORGANIZATION_TYPE } from '../../domain/organizations';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, flag, integerIn, objectOf, schemaOf, text, type ParamOf } from '../../core/params';
import { Conditions, containing } from '../../core/listQuery';
import { alarmFigures } from '../../core/alarmFigures';
import { fleetFigures, fleetHistory, percentOf } from '../../core/fleetFigures';
import { deviceScope, scopeClause } from '../../core/deviceScope';
import { owningTenant, tenantInScope } from '../../core/access';
import { rangeOf, rangeProperties } from './tenancy';

/**
 * The device-side dashboards: the fleet overview the workbench and the big screen show, per-day
 * trends of devices and alarms, the device board (historical situation, temperatures) and the
 * alarm board (alarms by type), and which device tags a tenant's boards show. All figures stay
 * within the device scope.
 */

const DAY_MS = 86_400_000;

/** A per-day series: `days` (7–90, default 30) up to today, or the startTime/endTime range. */
const seriesSchema = objectOf({ days: integerIn(7, 90), ...rangeProperties });
type SeriesParam = ParamOf<typeof seriesSchema>;

function seriesRange(context: OperationContext<SeriesParam>): [Date, Date] {
  const { days, startTime, endTime } = context.param;
  if (startTime || endTime) return rangeOf({ startTime, endTime }, context.now, 30, context.config.timeZone);
  return [new Date(context.now.getTime() - ((days ?? 30) - 1) * DAY_MS), context.now];
}

/**
 * The days from `start` to `end` ($n, $n+1) as rows (day, day_end): business days, as date_trunc
 * cuts them in the session's zone (every connection is pinned to the business zone).
 */
const DAYS = (startParam: string, endParam: string) => `
  SELECT day, day + interval '1 day' AS day_end
    FROM generate_series(date_trunc('day', ${startParam}::timestamptz), date_trunc('day', ${endParam}::timestamptz), interval '1 day') AS day`;

/** Devices' effective settings: the tenant's own for a shared product, else the product's. */
const EFFECTIVE_SETTINGS = `COALESCE(s.settings, p.settings)`;
const SETTINGS_JOIN = `
    JOIN product p ON p.code = d.product_code
    LEFT JOIN product_tenant_setting s ON s.product_code = d.product_code AND s.tenant_code = d.tenant_code`;

/** The device tags a board may show, in display order. */
export const TAG_FIELDS: ReadonlyArray<{ value: string; label: string }> = [
  { value: 'productName', label: '产品' },
  { value: 'model', label: '型号' },
  { value: 'firmwareVersion', label: '固件版本' },
  { value: 'onlineState', label: '在线状态' },
  { value: 'healthState', label: '健康状态' },
  { value: 'batteryLevel', label: '电量' },
  { value: 'signalStrength', label: '信号强度' },
  { value: 'temperature', label: '温度' },
  { value: 'address', label: '安装地址' },
  { value: 'iccid', label: '物联网卡' },
  { value: 'lastSeenAt', label: '最近上报' },
  { value: 'gatewayCode', label: '所属网关' },
];
const DEFAULT_TAG_DISPLAY = { fields: ['productName', 'onlineState', 'batteryLevel', 'signalStrength', 'lastSeenAt'], showAlarmBadge: true };

interface TagDisplay {
  fields: string[];
  showAlarmBadge?: boolean;
}

/** What a device's tags are read from: its record as device.detail answers it. */
export interface TaggedDevice {
  tenantCode: string;
  openAlarmCount: number;
  [field: string]: unknown;
}

/** Where a chosen tag finds its value in the device record (the tag names follow the form). */
const TAG_SOURCE: Readonly<Record<string, string>> = { lastSeenAt: 'lastSeenTime' };
const TAG_DICTIONARIES: Readonly<Record<string, string>> = { onlineState: 'device_online_state', healthState: 'device_health_state' };
// The signal is the modem's 0-31 quality figure (CSQ), shown as 信号强度（0-31） elsewhere: no dBm.
const TAG_UNITS: Readonly<Record<string, string>> = { batteryLevel: '%', temperature: '℃', signalStrength: '/31' };

/**
 * The tags the device's tenant chose to show (device.tagDisplay), as 标签：值 texts in the order the
 * choice is kept (the options' order); empty values are left out, and open alarms are counted when
 * the badge is on. The last report is shown as "YYYY-MM-DD HH:mm" on the business zone's clock.
 */
export async function deviceDisplayTags(db: Queryable, device: TaggedDevice, timeZone: string): Promise<string[]> {
  const [row] = await db.query<{ config: TagDisplay }>('SELECT config FROM tag_display_config WHERE tenant_code = $1', [device.tenantCode]);
  const config = { ...DEFAULT_TAG_DISPLAY, ...(row?.config ?? {}) };
  const labels = await db.query<{ type: string; value: string; label: string }>('SELECT type, value, label FROM dict_item WHERE type = ANY($1::text[])', [
    Object.values(TAG_DICTIONARIES),
  ]);
  const labelOf = (type: string, value: string) => labels.find((item) => item.type === type && item.value === value)?.label ?? '未知';
  const tags: string[] = [];
  for (const field of config.fields) {
    const tag = TAG_FIELDS.find((option) => option.value === field);
    const value = device[TAG_SOURCE[field] ?? field];
    if (!tag || value === null || value === undefined || value === '') continue;
    const dictionary = TAG_DICTIONARIES[field];
    const shown = dictionary ? labelOf(dictionary, String(value)) : field === 'lastSeenAt' ? businessMinute(new Date(String(value)), timeZone) : `${String(value)}${TAG_UNITS[field] ?? ''}`;
    tags.push(`${tag.label}：${shown}`);
  }
  if (config.showAlarmBadge && device.openAlarmCount > 0) tags.push(`未处理告警：${device.openAlarmCount}`);
  return tags;
}

export const dashboardOperations = [
  /**
   * 设备看板's cards and the big screen: the fleet's figures and the alarms', each the one the home
   * page and the lists share (figures.ts, alarmFigures.ts). onlineRate is 在线率 as a percentage.
   */
  defineOperation('dashboard.overview', {
    handler: async (context) => {
      const scope = await deviceScope(context);
      const [fleet, alarms, [projects]] = await Promise.all([
        fleetFigures(context.db, scope),
        alarmFigures(context),
        context.db.query<{ count: number }>('SELECT count(*)::int AS count FROM organization WHERE code = ANY($1::text[]) AND type = $2', [scope.organizationCodes, ORGANIZATION_TYPE.project]),
      ]);
      return {
        deviceTotal: fleet.total,
        onlineCount: fleet.online,
        offlineCount: fleet.offline,
        inactiveCount: fleet.inactive,
        onlineRate: percentOf(fleet.onlineRate),
        faultyCount: fleet.faulty,
        lowBatteryCount: fleet.lowBattery,
        sleepingCount: fleet.sleeping,
        productCount: fleet.products,
        projectCount: projects.count,
        alarmToday: alarms.today.total,
        alarmPending: alarms.pending.total,
      };
    },
  }),

  defineOperation('dashboard.deviceTrend', {
    paramSchema: seriesSchema,
    handler: async (context) => {
      const [start, end] = seriesRange(context);
      const params: SqlParam[] = [];
      const inScope = scopeClause(await deviceScope(context), params, 'd');
      const rows = await context.db.query<{ day: string; new_devices: number; total_devices: number }>(
        `WITH days AS (${DAYS(bind(params, start), bind(params, end))}),
              fleet AS (SELECT d.created_at, d.deleted_at FROM device d WHERE ${inScope})
         SELECT to_char(days.day, 'YYYY-MM-DD') AS day,
                count(f.created_at) FILTER (WHERE f.created_at >= days.day)::int AS new_devices,
                count(f.created_at) FILTER (WHERE f.deleted_at IS NULL OR f.deleted_at >= days.day_end)::int AS total_devices
           FROM days LEFT JOIN fleet f ON f.created_at < days.day_end
          GROUP BY days.day ORDER BY days.day`,
        params,
      );
      return rows.map((row) => ({ day: row.day, newDevices: row.new_devices, totalDevices: row.total_devices }));
    },
  }),

  /**
   * The device alarms raised each day, by level: what 告警记录 lists (监控告警 have their own list),
   * so that today's total is 今日告警 of dashboard.overview and the big screen's figures agree.
   */
  defineOperation('dashboard.alarmTrend', {
    paramSchema: seriesSchema,
    handler: async (context) => {
      const [start, end] = seriesRange(context);
      const params: SqlParam[] = [];
      const inScope = scopeClause(await deviceScope(context), params, 'a');
      const rows = await context.db.query<{ day: string; total: number; l1: number; l2: number; l3: number; l4: number }>(
        `WITH days AS (${DAYS(bind(params, start), bind(params, end))})
         SELECT to_char(days.day, 'YYYY-MM-DD') AS day, count(a.id)::int AS total,
                count(a.id) FILTER (WHERE a.level = 1)::int AS l1, count(a.id) FILTER (WHERE a.level = 2)::int AS l2,
                count(a.id) FILTER (WHERE a.level = 3)::int AS l3, count(a.id) FILTER (WHERE a.level = 4)::int AS l4
           FROM days LEFT JOIN alarm_record a ON a.triggered_at >= days.day AND a.triggered_at < days.day_end AND a.source = 'device' AND ${inScope}
          GROUP BY days.day ORDER BY days.day`,
        params,
      );
      return rows.map((row) => ({ day: row.day, total: row.total, level1: row.l1, level2: row.l2, level3: row.l3, level4: row.l4 }));
    },
  }),

  /**
   * 历史态势: the fleet's online and offline devices at the end of each day (figures.ts: the day's
   * recorded states, today the live figures the cards show) and the alarms raised that day.
   */
  defineOperation('device.dashboard.historicalSituation', {
    paramSchema: objectOf(rangeProperties),
    handler: async (context) => {
      const [start, end] = rangeOf(context.param, context.now, 30, context.config.timeZone);
      const scope = await deviceScope(context);
      const params: SqlParam[] = [];
      const alarms = scopeClause(scope, params, 'a', { tenant: 'tenant_code' });
      const raised = await context.db.query<{ day: string; alarms: number }>(
        `SELECT to_char(date_trunc('day', a.triggered_at), 'YYYY-MM-DD') AS day, count(*)::int AS alarms
           FROM alarm_record a
          WHERE ${alarms} AND a.triggered_at >= date_trunc('day', ${bind(params, start)}::timestamptz) AND a.triggered_at < date_trunc('day', ${bind(params, end)}::timestamptz) + interval '1 day'
          GROUP BY 1`,
        params,
      );
      const days = await fleetHistory(context.db, scope, [start, end], context.now, context.config.timeZone, await fleetFigures(context.db, scope));
      return days.map((day) => ({ day: day.day, online: day.online, offline: day.offline, alarm: raised.find((row) => row.day === day.day)?.alarms ?? 0 }));
    },
  }),

  defineOperation('device.temperature.list', {
    paramSchema: objectOf({ ...rangeProperties, limit: integerIn(1, 200), productCode: text(32), keyword: text(64) }),
    handler: async (context) => {
      const { startTime, endTime, limit, productCode, keyword } = context.param;
      const where = new Conditions().scope(await deviceScope(context), 'd').add('d.deleted_at IS NULL').add('d.temperature IS NOT NULL');
      if (startTime || endTime) {
        // Devices that reported within the range.
        const [start, end] = rangeOf({ startTime, endTime }, context.now, 30, context.config.timeZone);
        where.add(`d.last_seen_at BETWEEN ${where.ref(start)} AND ${where.ref(end)}`);
      }
      where.when(productCode, 'd.product_code = $?');
      if (keyword) where.add('(d.code ILIKE $? OR d.name ILIKE $?)', containing(keyword));
      const rows = await context.db.query<{
        code: string;
        name: string;
        product_name: string;
        organization_name: string;
        temperature: string;
        high: string | null;
        low: string | null;
        online_state: string;
        last_seen_at: Date | null;
      }>(
        `SELECT d.code, d.name, p.name AS product_name, o.name AS organization_name, d.temperature::text AS temperature,
                ${EFFECTIVE_SETTINGS} ->> 'temperatureHigh' AS high, ${EFFECTIVE_SETTINGS} ->> 'temperatureLow' AS low,
                d.online_state, d.last_seen_at
           FROM device d ${SETTINGS_JOIN}
           JOIN organization o ON o.code = d.organization_code
          WHERE ${where.sql}
          ORDER BY d.temperature DESC, d.code LIMIT ${limit ?? 50}`,
        where.params,
      );
      return rows.map((row) => {
        const temperature = Number(row.temperature);
        const high = row.high === null ? 60 : Number(row.high);
        const low = row.low === null ? -10 : Number(row.low);
        const state = temperature > high ? 'high' : temperature < low ? 'low' : 'normal';
        return {
          deviceCode: row.code,
          deviceName: row.name,
          productName: row.product_name,
          organizationName: row.organization_name,
          temperature,
          temperatureHigh: high,
          temperatureLow: low,
          temperatureState: state,
          temperatureStateName: state === 'high' ? '过高' : state === 'low' ? '过低' : '正常',
          onlineState: row.online_state,
          lastSeenAt: row.last_seen_at?.toISOString() ?? '',
        };
      });
    },
  }),

  defineOperation('device.alarmBoard.typeStatistics', {
    paramSchema: objectOf({ ...rangeProperties, source: enumOf(['device', 'monitoring']) }),
    handler: async (context) => {
      const [start, end] = rangeOf(context.param, context.now, 30, context.config.timeZone);
      const where = new Conditions().scope(await deviceScope(context), 'a');
      where.add(`a.triggered_at BETWEEN ${where.ref(start)} AND ${where.ref(end)}`).when(context.param.source, 'a.source = $?');
      const rows = await context.db.query<{ alarm_type: string; count: number; open: number }>(
        `SELECT a.alarm_type, count(*)::int AS count, count(*) FILTER (WHERE a.state IN ('pending', 'processing'))::int AS open
           FROM alarm_record a WHERE ${where.sql} GROUP BY 1`,
        where.params,
      );
      return ALARM_TYPES.map((type) => {
        const row = rows.find((r) => r.alarm_type === type);
        return { alarmType: type, name: ALARM_TYPE_LABELS[type], count: row?.count ?? 0, open: row?.open ?? 0 };
      });
    },
  }),

  defineOperation('device.tagDisplay.get', {
    handler: async (context) => {
      const tenantCode = await tenantInScope(context);
      const [row] = tenantCode
        ? await context.db.query<{ config: TagDisplay; updated_by: string; updated_at: Date }>('SELECT config, updated_by, updated_at FROM tag_display_config WHERE tenant_code = $1', [tenantCode])
        : [];
      const config = { ...DEFAULT_TAG_DISPLAY, ...(row?.config ?? {}) };
      return {
        tenantCode: tenantCode ?? '',
        fields: config.fields.filter((field) => TAG_FIELDS.some((tag) => tag.value === field)),
        showAlarmBadge: config.showAlarmBadge,
        options: TAG_FIELDS,
        updatedBy: row?.updated_by ?? '',
        updateTime: row?.updated_at.toISOString() ?? '',
      };
    },
  }),

  defineOperation('device.tagDisplay.update', {
    paramSchema: objectOf(
      {
        fields: schemaOf<string[]>({ type: 'array', minItems: 1, maxItems: TAG_FIELDS.length, uniqueItems: true, items: { type: 'string', enum: TAG_FIELDS.map((tag) => tag.value) } }),
        showAlarmBadge: flag,
      },
      ['fields'],
    ),
    handler: async (context) => {
      const tenantCode = await owningTenant(context);
      // Kept in the display order of TAG_FIELDS, whatever order they were ticked in.
      const fields = TAG_FIELDS.map((tag) => tag.value).filter((value) => context.param.fields.includes(value));
      const config = JSON.stringify({ fields, showAlarmBadge: context.param.showAlarmBadge ?? true });
      await context.db.query(
        `INSERT INTO tag_display_config (tenant_code, config, updated_by, updated_at) VALUES ($1, $2::jsonb, $3, $4)
         ON CONFLICT (tenant_code) DO UPDATE SET config = EXCLUDED.config, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
        [tenantCode, config, callerOf(context).loginName, context.now],
      );
      return { fields, showAlarmBadge: context.param.showAlarmBadge ?? true };
    },
  }),
];
