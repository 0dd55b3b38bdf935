import type { Queryable, SqlParam } from '../../db/database';
import { bind } from '../../db/parameters';
import { organizationsWithin } from '../../domain/organizations';
import { callerOf, type OperationContext } from '../../core/context';
import { enumOf, objectOf, text, timeRange, timeRangeOf, type ParamOf } from '../../core/params';
import { Conditions, exportOf, pageOf, type Listing, type Page, containing } from '../../core/listQuery';
import { deviceScope, scopeClause, type DeviceScope } from '../../core/deviceScope';
import { isoOrNull } from '../../core/values';

/**
 * What the fleet lists share (all devices, followed devices, batteries, cards, exports): the
 * filter every list takes, the row they read and the record the console gets.
 */

export const ONLINE_STATES = ['online', 'offline', 'inactive'] as const;
export const HEALTH_STATES = ['healthy', 'subhealthy', 'faulty'] as const;
export const BATTERY_STATES = ['normal', 'low', 'exhausted'] as const;
export type BatteryState = (typeof BATTERY_STATES)[number];

/** Below this battery level a device counts as low (device_battery_state: low); 0 is exhausted. */
export const LOW_BATTERY_PERCENT = 20;

export const deviceFilterSchema = {
  keyword: text(64),
  productCode: text(32),
  onlineState: enumOf(ONLINE_STATES),
  healthState: enumOf(HEALTH_STATES),
  organizationCode: text(64),
  timeRange,
};
export const deviceFilterParam = objectOf(deviceFilterSchema);
export type DeviceFilter = ParamOf<typeof deviceFilterParam>;

/**
 * A device as every device list reads it (the fleet's and the maintenance views'): its own columns
 * with its product's and organisation's names.
 */
export interface DeviceTableRow {
  id: number;
  code: string;
  name: string;
  product_code: string;
  product_name: string;
  node_type: string;
  organization_code: string;
  organization_name: string;
  tenant_code: string;
  imei: string;
  firmware_version: string;
  online_state: string;
  health_state: string;
  health_score: number;
  battery_level: number | null;
  signal_strength: number | null;
  temperature: string | null;
  longitude: number | null;
  latitude: number | null;
  address: string;
  gateway_code: string | null;
  iccid: string | null;
  sleeping: boolean;
  sleep_since: Date | null;
  last_seen_at: Date | null;
  activated_at: Date | null;
  created_at: Date;
  remark: string;
}

export interface DeviceRow extends DeviceTableRow {
  model: string;
  category_code: string;
  battery_powered: boolean;
  followed: boolean;
  followed_at: Date | null;
}

/**
 * The device columns with product and organisation, and whether the caller follows the device. The
 * organisation's name is looked up rather than joined: a table less to plan on every page (issue 19).
 */
const DEVICE_COLUMNS = `d.id, d.code, d.name, d.product_code, p.name AS product_name, p.model, p.category_code, p.node_type, p.battery_powered,
         d.organization_code, (SELECT name FROM organization WHERE code = d.organization_code) AS organization_name, d.tenant_code, d.imei, d.firmware_version, d.online_state,
         d.health_state, d.health_score, d.battery_level, d.signal_strength, d.temperature, d.longitude, d.latitude, d.address,
         d.gateway_code, d.iccid, d.sleeping, d.sleep_since, d.last_seen_at, d.activated_at, d.created_at, d.remark,
         c.created_at IS NOT NULL AS followed, c.created_at AS followed_at`;

/** The caller's follow mark of `d`; appends the caller's id to `params`. */
function careJoin(context: OperationContext<unknown>, params: SqlParam[]): string {
  return `LEFT JOIN device_care c ON c.device_id = d.id AND c.user_id = ${bind(params, callerOf(context).userId)}`;
}

/**
 * The device columns with product and organisation, and whether the caller follows the device;
 * appends the caller's id to `params` (call it after building the WHERE on the same params).
 */
export function deviceSelect(context: OperationContext<unknown>, params: SqlParam[]): string {
  return `SELECT ${DEVICE_COLUMNS} FROM device d JOIN product p ON p.code = d.product_code ${careJoin(context, params)}`;
}

/** The FROM of a count over the same rows (no care join needed). */
export const DEVICE_COUNT_FROM = 'FROM device d JOIN product p ON p.code = d.product_code';

/** device_battery_state of a battery level; null for a mains-powered device. */
export function batteryStateOf(level: number | null): BatteryState | null {
  if (level === null) return null;
  if (level <= 0) return 'exhausted';
  return level < LOW_BATTERY_PERCENT ? 'low' : 'normal';
}

/** ICCID issuer codes (digits 5–6) by operator (card_operator dictionary). */
const ICCID_OPERATORS: Readonly<Record<string, string>> = {
  '00': 'cmcc', '02': 'cmcc', '04': 'cmcc', '07': 'cmcc', '08': 'cmcc', '13': 'cmcc',
  '01': 'cucc', '06': 'cucc', '09': 'cucc', '10': 'cucc',
  '03': 'ctcc', '05': 'ctcc', '11': 'ctcc',
  '15': 'cbn',
};

/** The operator that issued a Chinese ICCID (89 86 xx …), or '' when it is not one. */
export function operatorOfIccid(iccid: string | null): string {
  if (!iccid || !iccid.startsWith('8986')) return '';
  return ICCID_OPERATORS[iccid.slice(4, 6)] ?? '';
}

/** A device as the lists and the detail page show it. */
export function deviceRecord(row: DeviceRow) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    productCode: row.product_code,
    productName: row.product_name,
    model: row.model,
    nodeType: row.node_type,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    imei: row.imei,
    firmwareVersion: row.firmware_version,
    onlineState: row.online_state,
    healthState: row.health_state,
    healthScore: row.health_score,
    batteryPowered: row.battery_powered,
    batteryLevel: row.battery_level,
    batteryRatio: row.battery_level === null ? null : row.battery_level / 100,
    batteryState: batteryStateOf(row.battery_level),
    signalStrength: row.signal_strength,
    temperature: row.temperature === null ? null : Number(row.temperature),
    longitude: row.longitude,
    latitude: row.latitude,
    address: row.address,
    gatewayCode: row.gateway_code ?? '',
    iccid: row.iccid ?? '',
    cardBinding: row.iccid ? 'bound' : 'unbound',
    cardOperator: operatorOfIccid(row.iccid),
    sleeping: row.sleeping,
    sleepSince: isoOrNull(row.sleep_since),
    lastSeenTime: isoOrNull(row.last_seen_at),
    activatedTime: isoOrNull(row.activated_at),
    createTime: row.created_at.toISOString(),
    remark: row.remark,
    followed: row.followed,
    followTime: isoOrNull(row.followed_at),
  };
}

export type DeviceRecord = ReturnType<typeof deviceRecord>;

/** The sortable columns of the device lists (whitelist for orderBy). */
export const DEVICE_SORTS: Readonly<Record<string, string>> = {
  code: 'd.code',
  name: 'd.name',
  productName: 'p.name',
  organizationName: 'o.name',
  onlineState: 'd.online_state',
  healthScore: 'd.health_score',
  batteryLevel: 'd.battery_level',
  batteryRatio: 'd.battery_level',
  signalStrength: 'd.signal_strength',
  temperature: 'd.temperature',
  firmwareVersion: 'd.firmware_version',
  lastSeenTime: 'd.last_seen_at',
  createTime: 'd.created_at',
  iccid: 'd.iccid',
  followTime: 'c.created_at',
};

/** The WHERE of a device list: live devices (not in the recycle bin) within scope, narrowed by the filter. */
export async function deviceWhere(db: Queryable, scope: DeviceScope, filter: DeviceFilter, params: SqlParam[], timeZone: string): Promise<string> {
  const where = new Conditions(params).add('d.deleted_at IS NULL').add(scopeClause(scope, params, 'd', { tenant: 'tenant_code' }));
  const keyword = filter.keyword?.trim();
  if (keyword) where.add('(d.code ILIKE $? OR d.name ILIKE $? OR d.imei ILIKE $?)', containing(keyword));
  where.when(filter.productCode, 'd.product_code = $?').when(filter.onlineState, 'd.online_state = $?').when(filter.healthState, 'd.health_state = $?');
  if (filter.organizationCode) {
    // The chosen organisation and everything below it (still within scope: both must hold).
    where.add('d.organization_code = ANY($?::text[])', (await organizationsWithin(db, [filter.organizationCode])).map((org) => org.code));
  }
  if (filter.timeRange) {
    const [start, end] = timeRangeOf(filter.timeRange, timeZone);
    where.add(`d.created_at BETWEEN ${where.ref(start)} AND ${where.ref(end)}`);
  }
  return where.sql;
}

/** Labels of the given dictionaries (as platform staff may have relabelled them), for spreadsheets. */
export async function dictionaryLabels(db: Queryable, types: readonly string[]): Promise<(type: string, value: string | null) => string> {
  const rows = await db.query<{ type: string; value: string; label: string }>('SELECT type, value, label FROM dict_item WHERE type = ANY($1::text[])', [types]);
  const labels = new Map(rows.map((row) => [`${row.type}\u0000${row.value}`, row.label]));
  return (type, value) => (value === null || value === '' ? '' : (labels.get(`${type}\u0000${value}`) ?? '未知'));
}

export interface ListOptions {
  /** More conditions over `d` and `p`, their values appended to `params`. */
  narrow?: (params: SqlParam[]) => string[];
  /** The order when the page asks for none (and the tie-breaker after it). */
  fallbackOrder?: string;
}

/**
 * A device list over the list-query module: the WHERE and the count need the device and its
 * product only; the organisation and the caller's follow mark are joined when the order names
 * them, and for the page's rows.
 */
export async function deviceListing<F extends DeviceFilter>(
  context: OperationContext<F>,
  options: ListOptions = {},
): Promise<{ listing: Listing<DeviceRow, DeviceRow>; where: Conditions }> {
  const params: SqlParam[] = [];
  const base = await deviceWhere(context.db, await deviceScope(context), context.param, params, context.config.timeZone);
  const where = new Conditions(params).add(base);
  for (const clause of options.narrow?.(params) ?? []) where.add(clause);
  const care = careJoin(context, params);
  const sortsByOrganization = (context.page?.sortParamList ?? []).some((sort) => Object.hasOwn(DEVICE_SORTS, sort.field) && /\bo\./.test(DEVICE_SORTS[sort.field]));
  const listing: Listing<DeviceRow, DeviceRow> = {
    // The organisation is joined for the page's rows only when they are ordered by its name.
    from: `device d JOIN product p ON p.code = d.product_code ${sortsByOrganization ? 'JOIN organization o ON o.code = d.organization_code' : ''} ${care}`,
    columns: DEVICE_COLUMNS,
    narrowFrom: (needed) =>
      [
        'device d',
        /\bp\./.test(needed) ? 'JOIN product p ON p.code = d.product_code' : '',
        /\bo\./.test(needed) ? 'JOIN organization o ON o.code = d.organization_code' : '',
        /\bc\./.test(needed) ? care : '',
      ]
        .filter(Boolean)
        .join(' '),
    key: 'd.id',
    sorts: DEVICE_SORTS,
    fallback: options.fallbackOrder ?? 'd.created_at DESC, d.id DESC',
    record: (row) => row,
  };
  return { listing, where };
}

/** One page of a device list and its count (listQuery's counting: an estimate past EXACT_COUNT_LIMIT). */
export async function devicePage<F extends DeviceFilter>(context: OperationContext<F>, options: ListOptions = {}): Promise<Page<DeviceRow>> {
  const { listing, where } = await deviceListing(context, options);
  return pageOf(context, listing, where);
}

/** The rows of a device list for an export, in the list's order. */
export async function deviceExport<F extends DeviceFilter>(context: OperationContext<F>, options: ListOptions = {}): Promise<DeviceRow[]> {
  const { listing, where } = await deviceListing(context, options);
  return exportOf(context, listing, where);
}
