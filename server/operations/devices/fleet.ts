import type { Queryable, SqlParam } from '../../db/database';
import { bind } from '../../db/parameters';
import { describeMetrics } from '../../domain/deviceTelemetry';
import { ORGANIZATION_TYPE, tenantOf } from '../../domain/organizations';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { announceMovedDevices, announceRevokedDevices, MOVED } from '../../ingest/deviceSessions';
import { noteBrokerDevices } from '../../ingest/mosquittoAccounts';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation, type OperationDefinition } from '../../core/operation';
import { objectOf, type ParamOf, optionalPlainText, plainText, schemaOf, text, orNull, matching, optionalLongitude, optionalLatitude, deviceCode } from '../../core/params';
import { conflictOnClash } from '../../core/conflicts';
import { deviceDisplayTags } from './dashboards';
import { fleetCommandOperations } from './fleetCommands';
import { fleetImportOperations } from './fleetImport';
import {
  DEVICE_COUNT_FROM,
  deviceSelect,
  deviceFilterSchema,
  deviceRecord,
  deviceWhere,
  devicePage,
  deviceExport,
  dictionaryLabels,
  LOW_BATTERY_PERCENT,
  type DeviceRow,
} from './fleetRecords';
import { fleetViewOperations } from './fleetViews';
import { deviceScope, findScopedDevice, findScopedDevices, scopeClause, type DeviceScope } from '../../core/deviceScope';

/**
 * The fleet (设备管理): the device lists, a device's detail, creating, editing, moving and deleting
 * devices (to the recycle bin), the state summary above the lists and the spreadsheet export.
 * Every query is limited to the device scope: another tenant's device is "404" 设备不存在.
 */

export const deviceCodesSchema = schemaOf<string[]>({ type: 'array', minItems: 1, maxItems: 500, uniqueItems: true, items: deviceCode });


const IMEI_PATTERN = '^(\\d{15})?$';
/** The counts device.statistics answers (its SQL's column names), besides onlineRate, in the order the contracts list them. */
interface FleetCounts {
  online: number;
  offline: number;
  total: number;
  inactive: number;
  healthy: number;
  subhealthy: number;
  faulty: number;
  lowBattery: number;
  exhaustedBattery: number;
  sleeping: number;
  followed: number;
}

const deviceFieldProperties = {
  code: deviceCode,
  name: plainText(64),
  productCode: text(32, 1),
  organizationCode: text(64, 1),
  imei: orNull(matching(IMEI_PATTERN)),
  longitude: optionalLongitude,
  latitude: optionalLatitude,
  address: orNull(optionalPlainText(128)),
  remark: orNull(optionalPlainText(256)),
};
const newDeviceFields = objectOf(deviceFieldProperties, ['code', 'name', 'productCode', 'organizationCode']);
const deviceFields = objectOf(deviceFieldProperties, ['name', 'productCode', 'organizationCode']);
export type DeviceFields = ParamOf<typeof deviceFields>;

export interface InstallationSite {
  code: string;
  tenantCode: string;
}

/**
 * Where a device may be installed: a project or an area within scope ("403" 无权访问该组织
 * outside it, "400" for a department or a tenant itself).
 */
export async function installationSite(db: Queryable, scope: DeviceScope, organizationCode: string): Promise<InstallationSite> {
  if (!scope.organizationCodes.includes(organizationCode)) throw fail.forbidden('无权访问该组织');
  const [org] = await db.query<{ type: number }>('SELECT type FROM organization WHERE code = $1', [organizationCode]);
  if (!org || (org.type !== ORGANIZATION_TYPE.project && org.type !== ORGANIZATION_TYPE.area)) throw fail.badRequest('设备只能安装在项目或区域下');
  const tenantCode = await tenantOf(db, organizationCode);
  if (!tenantCode) throw fail.badRequest('设备只能安装在项目或区域下');
  return { code: organizationCode, tenantCode };
}

export interface ProductRow {
  code: string;
  node_type: string;
  category_code: string;
}

/** A product the tenant may use: the platform's shared catalogue or its own ("400" 产品不存在). */
export async function usableProduct(db: Queryable, productCode: string, tenantCode: string): Promise<ProductRow> {
  const [product] = await db.query<ProductRow>(
    'SELECT code, node_type, category_code FROM product WHERE code = $1 AND (tenant_code IS NULL OR tenant_code = $2)',
    [productCode, tenantCode],
  );
  if (!product) throw fail.badRequest('产品不存在');
  return product;
}

/** "409" when the code is taken, whoever holds it (a deleted device keeps its code in the recycle bin). */
async function checkCodeFree(db: Queryable, code: string): Promise<void> {
  const [taken] = await db.query<{ deleted: boolean }>('SELECT deleted_at IS NOT NULL AS deleted FROM device WHERE upper(code) = $1', [code]);
  if (taken) throw fail.conflict(taken.deleted ? '设备编码已存在（设备在回收站中）' : '设备编码已存在');
}

/** A live device of the scope with everything the detail page shows. */
async function scopedDeviceRow(context: OperationContext<unknown>, code: string): Promise<DeviceRow> {
  const scope = await deviceScope(context);
  const params: SqlParam[] = [code];
  const where = `d.code = $1 AND d.deleted_at IS NULL AND ${scopeClause(scope, params)}`;
  const [row] = await context.db.query<DeviceRow>(`${deviceSelect(context, params)} WHERE ${where}`, params);
  if (!row) throw fail.notFound('设备不存在');
  return row;
}

/** Gateways still carrying live sub-devices that are not themselves being deleted. */
async function checkNoOrphans(db: Queryable, codes: readonly string[]): Promise<void> {
  const [orphan] = await db.query<{ gateway_code: string }>(
    `SELECT gateway_code FROM device WHERE gateway_code = ANY($1::text[]) AND deleted_at IS NULL AND NOT (code = ANY($1::text[])) ORDER BY array_position($1::text[], gateway_code), code LIMIT 1`,
    [codes],
  );
  if (orphan) throw fail.conflict(`网关 ${orphan.gateway_code} 下仍有子设备，请先删除或迁移子设备`);
}

async function moveToRecycleBin(context: OperationContext<unknown>, codes: readonly string[]): Promise<number> {
  const scope = await deviceScope(context);
  const devices = await findScopedDevices(context.db, scope, codes);
  return context.db.transaction(async (tx) => {
    await checkNoOrphans(tx, devices.map((device) => device.code));
    const rows = await tx.query<{ id: number }>(
      `UPDATE device SET deleted_at = $2, deleted_by = $3, recycle_reason = 'deleted' WHERE id = ANY($1::int[]) AND deleted_at IS NULL RETURNING id`,
      [devices.map((device) => device.id), context.now, callerOf(context).loginName],
    );
    // Deleted by a request at the same time: as one after the other, the second finds them gone.
    if (rows.length !== devices.length) throw fail.notFound('设备不存在');
    await announceRevokedDevices(tx, rows.map((row) => row.id));
    await noteBrokerDevices(tx, context.config, devices.map((device) => device.code), 'disabled');
    return rows.length;
  });
}

const filterParam = objectOf(deviceFilterSchema);

export const fleetOperations: OperationDefinition[] = [
  defineOperation('device.page', {
    paramSchema: filterParam,
    handler: async (context) => {
      const page = await devicePage(context);
      return { ...page, records: page.records.map(deviceRecord) };
    },
  }),

  defineOperation('device.statistics', {
    paramSchema: filterParam,
    handler: async (context) => {
      const params: SqlParam[] = [];
      const where = await deviceWhere(context.db, await deviceScope(context), context.param, params, context.config.timeZone);
      const low = bind(params, LOW_BATTERY_PERCENT);
      const caller = bind(params, callerOf(context).userId);
      const [counts] = await context.db.query<FleetCounts>(
        `SELECT count(*)::int AS total,
                count(*) FILTER (WHERE d.online_state = 'online')::int AS online,
                count(*) FILTER (WHERE d.online_state = 'offline')::int AS offline,
                count(*) FILTER (WHERE d.online_state = 'inactive')::int AS inactive,
                count(*) FILTER (WHERE d.health_state = 'healthy')::int AS healthy,
                count(*) FILTER (WHERE d.health_state = 'subhealthy')::int AS subhealthy,
                count(*) FILTER (WHERE d.health_state = 'faulty')::int AS faulty,
                count(*) FILTER (WHERE d.battery_level > 0 AND d.battery_level < ${low})::int AS "lowBattery",
                count(*) FILTER (WHERE d.battery_level = 0)::int AS "exhaustedBattery",
                count(*) FILTER (WHERE d.sleeping)::int AS sleeping,
                count(*) FILTER (WHERE EXISTS (SELECT 1 FROM device_care c WHERE c.device_id = d.id AND c.user_id = ${caller}))::int AS followed
           ${DEVICE_COUNT_FROM} WHERE ${where}`,
        params,
      );
      const active = counts.online + counts.offline;
      return { ...counts, onlineRate: active === 0 ? 0 : Math.round((counts.online / active) * 1000) / 1000 };
    },
  }),

  defineOperation('device.export', {
    paramSchema: filterParam,
    handler: async (context) => {
      const rows = await deviceExport(context);
      const label = await dictionaryLabels(context.db, ['device_online_state', 'device_health_state']);
      return exportFile(
        context,
        '设备列表',
        [
          { title: '设备编码', value: (r: DeviceRow) => r.code, width: 16 },
          { title: '设备名称', value: (r) => r.name },
          { title: '产品', value: (r) => r.product_name, width: 20 },
          { title: '型号', value: (r) => r.model, width: 12 },
          { title: '组织', value: (r) => r.organization_name, width: 20 },
          { title: '在线状态', value: (r) => label('device_online_state', r.online_state), width: 10 },
          { title: '健康状态', value: (r) => label('device_health_state', r.health_state), width: 10 },
          { title: '健康分', value: (r) => r.health_score, width: 8 },
          { title: '电量(%)', value: (r) => r.battery_level, width: 8 },
          { title: '信号强度', value: (r) => r.signal_strength, width: 8 },
          { title: '固件版本', value: (r) => r.firmware_version, width: 10 },
          { title: 'IMEI', value: (r) => r.imei, width: 18 },
          { title: 'ICCID', value: (r) => r.iccid ?? '', width: 22 },
          { title: '安装地址', value: (r) => r.address, width: 32 },
          { title: '最后上报时间', value: (r) => r.last_seen_at, width: 20 },
          { title: '创建时间', value: (r) => r.created_at, width: 20 },
        ],
        rows,
      );
    },
  }),

  defineOperation('device.detail', {
    paramSchema: objectOf({ code: deviceCode }, ['code']),
    handler: async (context) => {
      const row = await scopedDeviceRow(context, context.param.code);
      const [extra] = await context.db.query<{ category_name: string; protocol: string; manufacturer: string; gateway_name: string | null; sub_devices: number }>(
        `SELECT c.name AS category_name, p.protocol, p.manufacturer,
                (SELECT g.name FROM device g WHERE g.code = $2) AS gateway_name,
                (SELECT count(*)::int FROM device s WHERE s.gateway_code = $3 AND s.deleted_at IS NULL) AS sub_devices
           FROM product p JOIN device_category c ON c.code = p.category_code WHERE p.code = $1`,
        [row.product_code, row.gateway_code, row.code],
      );
      const [latest] = await context.db.query<{ reported_at: Date; metrics: Record<string, unknown> }>(
        'SELECT reported_at, metrics FROM device_telemetry WHERE device_id = $1 ORDER BY reported_at DESC LIMIT 1',
        [row.id],
      );
      const commands = await context.db.query<{ id: number; command_type: string; command_text: string; command_hex: string; state: string; created_by: string; created_at: Date }>(
        'SELECT id, command_type, command_text, command_hex, state, created_by, created_at FROM device_command WHERE device_id = $1 ORDER BY created_at DESC, id DESC LIMIT 10',
        [row.id],
      );
      const [alarms] = await context.db.query<{ open: number }>(
        "SELECT count(*)::int AS open FROM alarm_record WHERE device_code = $1 AND state IN ('pending', 'processing')",
        [row.code],
      );
      const record = deviceRecord(row);
      return {
        ...record,
        displayTags: await deviceDisplayTags(context.db, { ...record, tenantCode: row.tenant_code, openAlarmCount: alarms?.open ?? 0 }, context.config.timeZone),
        categoryName: extra?.category_name ?? '',
        protocol: extra?.protocol ?? '',
        manufacturer: extra?.manufacturer ?? '',
        gatewayName: extra?.gateway_name ?? '',
        subDeviceCount: extra?.sub_devices ?? 0,
        latestReport: latest ? describeMetrics(latest.metrics) : '',
        latestReportTime: latest ? latest.reported_at.toISOString() : null,
        recentCommands: commands.map((command) => ({
          id: command.id,
          commandType: command.command_type,
          commandText: command.command_text,
          commandHex: command.command_hex,
          state: command.state,
          createdBy: command.created_by,
          createTime: command.created_at.toISOString(),
        })),
      };
    },
  }),

  defineOperation('device.insert', {
    paramSchema: objectOf({ device: newDeviceFields }, ['device']),
    handler: async (context) => {
      const fields = context.param.device;
      const code = String(fields.code).toUpperCase();
      const scope = await deviceScope(context);
      const site = await installationSite(context.db, scope, fields.organizationCode);
      await usableProduct(context.db, fields.productCode, site.tenantCode);
      return context.db.transaction(async (tx) => {
        await checkCodeFree(tx, code);
        const [created] = await conflictOnClash(
          () =>
            tx.query<{ id: number }>(
              `INSERT INTO device (code, name, product_code, organization_code, tenant_code, imei, online_state, longitude, latitude, address, remark, created_at)
               VALUES ($1, $2, $3, $4, $5, $6, 'inactive', $7, $8, $9, $10, $11) RETURNING id`,
              [code, fields.name.trim(), fields.productCode, site.code, site.tenantCode, fields.imei ?? '', fields.longitude ?? null, fields.latitude ?? null, fields.address?.trim() ?? '', fields.remark?.trim() ?? '', context.now],
            ),
          { unique: '设备编码已存在' },
        );
        return { id: created.id, code };
      });
    },
  }),

  defineOperation('device.modify', {
    paramSchema: objectOf({ code: deviceCode, device: deviceFields }, ['code', 'device']),
    handler: async (context) => {
      const { code, device: fields } = context.param;
      const scope = await deviceScope(context);
      const device = await findScopedDevice(context.db, scope, code);
      if (fields.code !== undefined && fields.code.toUpperCase() !== device.code.toUpperCase()) throw fail.badRequest('设备编码不可修改');
      const site = await installationSite(context.db, scope, fields.organizationCode);
      if (site.tenantCode !== device.tenant_code) throw fail.badRequest('不能将设备移到其他租户');
      await usableProduct(context.db, fields.productCode, site.tenantCode);
      await context.db.transaction(async (tx) => {
        const rows = await tx.query<{ id: number; moved: boolean }>(
          `WITH before AS (SELECT id, organization_code, product_code FROM device WHERE id = $1 FOR UPDATE)
           UPDATE device d SET name = $2, product_code = $3, organization_code = $4, imei = $5, longitude = $6, latitude = $7, address = $8, remark = $9
             FROM before b WHERE d.id = b.id
           RETURNING d.id, ${MOVED}`,
          [device.id, fields.name.trim(), fields.productCode, site.code, fields.imei ?? '', fields.longitude ?? null, fields.latitude ?? null, fields.address?.trim() ?? '', fields.remark?.trim() ?? ''],
        );
        await announceMovedDevices(tx, rows);
      });
      return null;
    },
  }),

  defineOperation('device.delete', {
    paramSchema: objectOf({ code: deviceCode }, ['code']),
    handler: async (context) => ({ deleted: await moveToRecycleBin(context, [context.param.code]) }),
  }),

  defineOperation('device.batchDelete', {
    paramSchema: objectOf({ codes: deviceCodesSchema }, ['codes']),
    handler: async (context) => ({ deleted: await moveToRecycleBin(context, context.param.codes) }),
  }),

  defineOperation('device.transfer', {
    paramSchema: objectOf({ codes: deviceCodesSchema, organizationCode: text(64, 1) }, ['codes', 'organizationCode']),
    handler: async (context) => {
      const scope = await deviceScope(context);
      const devices = await findScopedDevices(context.db, scope, context.param.codes);
      const site = await installationSite(context.db, scope, context.param.organizationCode);
      if (devices.some((device) => device.tenant_code !== site.tenantCode)) throw fail.badRequest('不能将设备移到其他租户');
      const rows = await context.db.transaction(async (tx) => {
        const moved = await tx.query<{ id: number; moved: boolean }>(
          `WITH before AS (SELECT id, organization_code, product_code FROM device WHERE id = ANY($1::int[]) FOR UPDATE)
           UPDATE device d SET organization_code = $2 FROM before b WHERE d.id = b.id RETURNING d.id, ${MOVED}`,
          [devices.map((device) => device.id), site.code],
        );
        await announceMovedDevices(tx, moved);
        return moved;
      });
      return { transferred: rows.length };
    },
  }),

  ...fleetViewOperations,
  ...fleetCommandOperations,
  ...fleetImportOperations,
];
