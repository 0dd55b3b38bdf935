import type { Queryable } from '../../db/database';
import { ORGANIZATION_TYPE, subtreeOf, tenantOf } from '../../domain/organizations';
import { isoOrNull } from '../../core/values';
import { fail } from '../../http/envelope';
import { enumOf, keywordParam, referenceCode, schemaOf, deviceCode } from '../../core/params';
import { containing, type Conditions, type Listing } from '../../core/listQuery';
import { readDictionaries } from '../../domain/schemaFiles';
import type { DeviceScope } from '../../core/deviceScope';
import type { DeviceTableRow } from './fleetRecords';

/**
 * What the maintenance views (health, recycle bin, sleep, errors, gateways) share: the device
 * row as they read it, its record shape, the common filters and the device listing they page
 * through the list-query module.
 */

/** The devices a row or batch action works on. */
export const deviceCodes = schemaOf<string[]>({ type: 'array', minItems: 1, maxItems: 200, uniqueItems: true, items: deviceCode });
export const onlineStateSchema = enumOf(['online', 'offline', 'inactive']);
export const healthStateSchema = enumOf(['healthy', 'subhealthy', 'faulty']);

/** The filters every device list of the maintenance views understands. */
export interface DeviceFilter {
  keyword?: string;
  productCode?: string;
  organizationCode?: string;
  onlineState?: 'online' | 'offline' | 'inactive';
}

export const deviceFilterSchema = {
  keyword: keywordParam,
  productCode: referenceCode,
  organizationCode: referenceCode,
  onlineState: onlineStateSchema,
};

/** The device columns the maintenance views read, with product and organisation names. */
export const DEVICE_COLUMNS = `
  d.id, d.code, d.name, d.product_code, p.name AS product_name, p.model AS product_model, p.node_type, p.protocol,
  d.organization_code, o.name AS organization_name, d.tenant_code, d.imei, d.firmware_version, d.online_state,
  d.health_state, d.health_score, d.battery_level, d.signal_strength, d.temperature, d.longitude, d.latitude, d.address,
  d.gateway_code, d.iccid, d.sleeping, d.sleep_since, d.last_seen_at, d.activated_at, d.deleted_at, d.deleted_by,
  d.recycle_reason, d.remark, d.created_at`;
export const DEVICE_FROM = 'device d JOIN product p ON p.code = d.product_code JOIN organization o ON o.code = d.organization_code';

export interface DeviceRow extends DeviceTableRow {
  product_model: string;
  protocol: string;
  deleted_at: Date | null;
  deleted_by: string | null;
  recycle_reason: string | null;
}

/** Seconds from `since` to `now` (durations are shown from seconds). */
export const secondsSince = (since: Date | null, now: Date): number | null => (since ? Math.max(0, Math.floor((now.getTime() - since.getTime()) / 1000)) : null);

/** The record of a device as every maintenance view answers it. */
export function deviceRecord(row: DeviceRow) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    productCode: row.product_code,
    productName: row.product_name,
    productModel: row.product_model,
    nodeType: row.node_type,
    protocol: row.protocol,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    tenantCode: row.tenant_code,
    imei: row.imei,
    firmwareVersion: row.firmware_version,
    onlineState: row.online_state,
    healthState: row.health_state,
    healthScore: row.health_score,
    batteryLevel: row.battery_level,
    /** 0–1, for the percent display. */
    batteryRatio: row.battery_level === null ? null : row.battery_level / 100,
    signalStrength: row.signal_strength,
    temperature: row.temperature === null ? null : Number(row.temperature),
    longitude: row.longitude,
    latitude: row.latitude,
    address: row.address,
    gatewayCode: row.gateway_code ?? '',
    iccid: row.iccid ?? '',
    sleeping: row.sleeping,
    sleepSince: isoOrNull(row.sleep_since),
    lastSeenTime: isoOrNull(row.last_seen_at),
    activatedTime: isoOrNull(row.activated_at),
    deletedTime: isoOrNull(row.deleted_at),
    deletedBy: row.deleted_by ?? '',
    recycleReason: row.recycle_reason ?? '',
    remark: row.remark,
    createTime: row.created_at.toISOString(),
  };
}

export type DeviceRecord = ReturnType<typeof deviceRecord>;

/** Adds the common device filters over the device alias `d`. */
export async function addDeviceFilters(db: Queryable, clause: Conditions, filter: DeviceFilter): Promise<void> {
  if (filter.keyword?.trim()) clause.add('(d.code ILIKE $? OR d.name ILIKE $? OR d.imei ILIKE $?)', containing(filter.keyword.trim()));
  if (filter.productCode) clause.add('d.product_code = $?', filter.productCode);
  if (filter.organizationCode) clause.add('d.organization_code = ANY($?::text[])', await subtreeOf(db, filter.organizationCode));
  if (filter.onlineState) clause.add('d.online_state = $?', filter.onlineState);
}


/** A device table `d` with product `p` and organisation `o`: only the joins that `needed` (a WHERE, an ORDER BY) names. */
export function narrowDeviceFrom(needed: string): string {
  return [
    'device d',
    /\bp\./.test(needed) ? 'JOIN product p ON p.code = d.product_code' : '',
    /\bo\./.test(needed) ? 'JOIN organization o ON o.code = d.organization_code' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * A device list of the maintenance views: the count and the page's choice of rows read the
 * device alone (every device has its product and organisation, so the joins drop no row) and join
 * product and organisation only when the WHERE or the sort names them; the page's rows get them.
 */
export function deviceListing<Row extends DeviceRow, Item>(
  record: (row: Row) => Item,
  order: { sorts: Readonly<Record<string, string>>; fallback: string; columns?: string },
): Listing<Row, Item> {
  return {
    from: DEVICE_FROM,
    narrowFrom: narrowDeviceFrom,
    key: 'd.id',
    columns: order.columns ?? DEVICE_COLUMNS,
    sorts: order.sorts,
    fallback: order.fallback,
    record,
  };
}

/**
 * Where a device or camera may be placed: a project or an area within the caller's scope ("403"
 * 无权访问该组织 outside it — another tenant's organisation and one that exists nowhere alike —,
 * "400" for another kind of organisation). Answers the tenant it belongs to.
 */
export async function placementOf(db: Queryable, scope: DeviceScope, organizationCode: string): Promise<{ tenantCode: string }> {
  if (!scope.organizationCodes.includes(organizationCode)) throw fail.forbidden('无权访问该组织');
  const [organization] = await db.query<{ type: number }>('SELECT type FROM organization WHERE code = $1', [organizationCode]);
  if (!organization) throw fail.forbidden('无权访问该组织');
  if (organization.type !== ORGANIZATION_TYPE.project && organization.type !== ORGANIZATION_TYPE.area) {
    throw fail.badRequest('参数错误：organizationCode（请选择项目或区域）');
  }
  const tenantCode = await tenantOf(db, organizationCode);
  if (!tenantCode) throw fail.badRequest('参数错误：organizationCode（请选择租户下的项目或区域）');
  return { tenantCode };
}

const SHIPPED_DICTIONARIES = readDictionaries();

/** The label of a shipped dictionary's value, for exports (the console shows the same via dict.tree); 未知 otherwise. */
export function dictLabel(dictType: string, value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  return SHIPPED_DICTIONARIES.find((d) => d.dictType === dictType)?.items.find((item) => item.value === value)?.label ?? '未知';
}
