import type { Queryable } from '../../db/database';
import { ORGANIZATION_TYPE, subtreeOf, tenantOf } from '../../domain/organizations';
import { isoOrNull } from '../../core/values';
import { fail } from '../../http/envelope';
import { enumOf, keywordParam, referenceCode, schemaOf, deviceCode } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { Conditions } from '../../core/listQuery';
import { column, contains, custom, derived, equals, textColumn, timeColumn } from '../../core/listing';
import { readDictionaries } from '../../domain/schemaFiles';
import { deviceScope, type DeviceScope } from '../../core/deviceScope';

/**
 * What the maintenance views (health, recycle bin, sleep, errors, gateways) share: the device
 * columns they answer, the common filters and the FROM they list devices over (each view declares
 * its list with listing()).
 */

/** The devices a row or batch action works on. */
export const deviceCodes = schemaOf<string[]>({ type: 'array', minItems: 1, maxItems: 200, uniqueItems: true, items: deviceCode });
export const onlineStateSchema = enumOf(['online', 'offline', 'inactive']);
export const healthStateSchema = enumOf(['healthy', 'subhealthy', 'faulty']);

/** The filters every device list of the maintenance views understands, over the device `d`. */
export const deviceFilters = {
  keyword: contains(['d.code', 'd.name', 'd.imei'], keywordParam, { trim: true }),
  productCode: equals('d.product_code', referenceCode),
  organizationCode: custom(referenceCode, async (where, code, context) => void where.add('d.organization_code = ANY($?::text[])', await subtreeOf(context.db, code))),
  onlineState: equals('d.online_state', onlineStateSchema),
};

/** Seconds from `since` to `now` (durations are shown from seconds). */
export const secondsSince = (since: Date | null, now: Date): number | null => (since ? Math.max(0, Math.floor((now.getTime() - since.getTime()) / 1000)) : null);

/** A device as every maintenance view answers it: its own columns with its product's and organisation's. */
export const deviceColumns = {
  id: column<number>('d.id'),
  code: column<string>('d.code'),
  name: column<string>('d.name'),
  productCode: column<string>('d.product_code'),
  productName: column<string>('p.name'),
  productModel: column<string>('p.model'),
  nodeType: column<string>('p.node_type'),
  protocol: column<string>('p.protocol'),
  organizationCode: column<string>('d.organization_code'),
  organizationName: column<string>('o.name'),
  tenantCode: column<string>('d.tenant_code'),
  imei: column<string>('d.imei'),
  firmwareVersion: column<string>('d.firmware_version'),
  onlineState: column<string>('d.online_state'),
  healthState: column<string>('d.health_state'),
  healthScore: column<number>('d.health_score'),
  batteryLevel: column<number | null>('d.battery_level'),
  /** 0–1, for the percent display. */
  batteryRatio: derived((row) => (row.batteryLevel === null ? null : (row.batteryLevel as number) / 100)),
  signalStrength: column<number | null>('d.signal_strength'),
  temperature: column('d.temperature', (temperature: string | null) => (temperature === null ? null : Number(temperature))),
  longitude: column<number | null>('d.longitude'),
  latitude: column<number | null>('d.latitude'),
  address: column<string>('d.address'),
  gatewayCode: textColumn('d.gateway_code'),
  iccid: textColumn('d.iccid'),
  sleeping: column<boolean>('d.sleeping'),
  sleepSince: column('d.sleep_since', isoOrNull),
  lastSeenTime: column('d.last_seen_at', isoOrNull),
  activatedTime: column('d.activated_at', isoOrNull),
  deletedTime: column('d.deleted_at', isoOrNull),
  deletedBy: textColumn('d.deleted_by'),
  recycleReason: textColumn('d.recycle_reason'),
  remark: column<string>('d.remark'),
  createTime: timeColumn('d.created_at'),
};

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
 * What a device list of the maintenance views reads: the count and the page's choice of rows read
 * the device alone (every device has its product and organisation, so the joins drop no row) and
 * join product and organisation only when the WHERE or the sort names them; the page's rows get them.
 */
export const DEVICE_LIST = {
  from: 'device d JOIN product p ON p.code = d.product_code JOIN organization o ON o.code = d.organization_code',
  narrowFrom: narrowDeviceFrom,
  key: 'd.id',
};

/** The live device `code` of the scope as `list` answers it, or "404" 设备不存在. */
export async function scopedLiveDevice<Item>(context: OperationContext<unknown>, list: { find: (context: OperationContext<unknown>, where: Conditions) => Promise<Item | undefined> }, code: string): Promise<Item> {
  const where = new Conditions().scope(await deviceScope(context), 'd', { tenant: 'tenant_code' }).add('d.deleted_at IS NULL').add('d.code = $?', code);
  const device = await list.find(context, where);
  if (!device) throw fail.notFound('设备不存在');
  return device;
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
