import type { Queryable, SqlParam } from '../../db/database';
import { fail } from '../../http/envelope';
import { announceMovedDevices, announceRevokedDevices, MOVED } from '../../ingest/deviceSessions';
import { noteBrokerDevices } from '../../ingest/mosquittoAccounts';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, optionalPlainText, type ParamOf, plainText, referenceCode, schemaOf, optionalLongitude, optionalLatitude, deviceCode } from '../../core/params';
import { Conditions, pageOf, type Listing } from '../../core/listQuery';
import { custom, listing, recordsWhere, type ItemOf } from '../../core/listing';
import { scopeCondition } from '../../core/scope';
import { conflictOnClash } from '../../core/conflicts';
import { DEVICE_LIST, deviceColumns, deviceFilters, placementOf } from './maintenanceShared';
import { deviceScope, type DeviceScope } from '../../core/deviceScope';

/**
 * 网关管理: gateways are the devices whose product has node_type 'gateway'; their sub-devices
 * name them in gateway_code. A gateway is created and edited here like any device (12-character
 * code, a gateway product, a project or area of the scope); deleting one moves it to the recycle
 * bin and is refused while live sub-devices still hang on it.
 */

const GATEWAY = "p.node_type = 'gateway'";

/**
 * The gateways among devices `d`, named by their products' codes (read first: a handful) rather
 * than by a join to product: one product is an equality that device_product_live_idx (migration
 * 093) walks in code order, where the join left the planner walking every device of the tenant in
 * code order to find the few gateways (470 ms over 1,000,000 devices).
 */
async function gatewayProducts(db: Queryable, where: Conditions): Promise<Conditions> {
  const products = (await db.query<{ code: string }>("SELECT code FROM product WHERE node_type = 'gateway' ORDER BY code")).map((row) => row.code);
  return products.length === 1 ? where.add('d.product_code = $?', products[0]) : where.add('d.product_code = ANY($?::text[])', products);
}

/** How many live sub-devices of the gateway `d` lie within the scope (online ones only, if asked); its values appended to `params`. */
function subDeviceCount(scope: DeviceScope, params: SqlParam[], online = false): string {
  return `(SELECT count(*)::int FROM device s WHERE s.gateway_code = d.code AND s.deleted_at IS NULL${online ? " AND s.online_state = 'online'" : ''}
             AND ${scopeCondition(scope, params, 's', { tenant: 'tenant_code' })})`;
}

/** The gateways of the scope: counted and chosen over the device alone, their products named by code (gatewayProducts). */
const GATEWAYS = listing({
  ...DEVICE_LIST,
  scope: async (where, context) => void (await gatewayProducts(context.db, where.scope(await deviceScope(context), 'd', { tenant: 'tenant_code' }).add('d.deleted_at IS NULL'))),
  filters: deviceFilters,
  columns: deviceColumns,
  sorts: { code: 'd.code', name: 'd.name', createTime: 'd.created_at', lastSeenTime: 'd.last_seen_at' },
  fallback: 'd.code',
});

/** A gateway as its list answers it: the device's fields, then its sub-device counts (the contracts have named the counts first since the record was a spread). */
type Gateway = { subDeviceCount: number; onlineSubDeviceCount: number } & ItemOf<typeof GATEWAYS>;

/**
 * The gateway list with each gateway's sub-device counts within the scope, their values appended
 * to `where`'s: the counts are columns of the page's rows, and the sort by them names the same subquery.
 */
function withSubDeviceCounts(scope: DeviceScope, where: Conditions): Listing<Record<string, unknown>, Gateway> {
  const subDevices = subDeviceCount(scope, where.params);
  const onlineSubDevices = subDeviceCount(scope, where.params, true);
  const { listing: gateways } = GATEWAYS;
  return {
    ...gateways,
    columns: `${gateways.columns}, ${subDevices} AS "subDeviceCount", ${onlineSubDevices} AS "onlineSubDeviceCount"`,
    sorts: { ...gateways.sorts, subDeviceCount: subDevices },
    record: (row, context) => ({ ...gateways.record(row, context), subDeviceCount: row.subDeviceCount as number, onlineSubDeviceCount: row.onlineSubDeviceCount as number }),
  };
}

/** A live gateway of the scope with its sub-device counts, or "404" 网关不存在; `db` a transaction's connection. */
async function scopedGateway(context: OperationContext<unknown>, scope: DeviceScope, code: string, db: Queryable = context.db): Promise<Gateway> {
  const where = new Conditions().scope(scope, 'd', { tenant: 'tenant_code' }).add(GATEWAY).add('d.deleted_at IS NULL').add('d.code = $?', code);
  const [gateway] = await recordsWhere(context, withSubDeviceCounts(scope, where), where, '', db);
  if (!gateway) throw fail.notFound('网关不存在');
  return gateway;
}

/** The live sub-devices of a gateway of the scope ("404" 网关不存在 for another). */
const SUB_DEVICES = listing({
  ...DEVICE_LIST,
  scope: async (where, context) => where.scope(await deviceScope(context), 'd', { tenant: 'tenant_code' }).add('d.deleted_at IS NULL'),
  filters: {
    ...deviceFilters,
    gatewayCode: custom(deviceCode, async (where, code, context) => void where.add('d.gateway_code = $?', (await scopedGateway(context, await deviceScope(context), code)).code)),
  },
  required: ['gatewayCode'],
  columns: deviceColumns,
  sorts: { code: 'd.code', name: 'd.name', lastSeenTime: 'd.last_seen_at', createTime: 'd.created_at' },
  fallback: 'd.code',
});

const gatewayFields = objectOf(
  {
    code: deviceCode,
    name: plainText(64),
    productCode: referenceCode,
    organizationCode: referenceCode,
    imei: schemaOf<string>({ type: 'string', pattern: '^(\\d{15}|)$' }),
    longitude: optionalLongitude,
    latitude: optionalLatitude,
    address: optionalPlainText(128),
    remark: optionalPlainText(200),
  },
  ['code', 'name', 'productCode', 'organizationCode'],
);
type GatewayFields = ParamOf<typeof gatewayFields>;

/** The product and place of a gateway: a gateway product usable by the place's tenant. */
async function checkGatewayFields(db: Queryable, scope: DeviceScope, fields: GatewayFields): Promise<{ tenantCode: string }> {
  const { tenantCode } = await placementOf(db, scope, fields.organizationCode);
  const [product] = await db.query<{ node_type: string; tenant_code: string | null }>('SELECT node_type, tenant_code FROM product WHERE code = $1', [fields.productCode]);
  if (!product || (product.tenant_code !== null && product.tenant_code !== tenantCode)) throw fail.badRequest('参数错误：productCode（产品不存在）');
  if (product.node_type !== 'gateway') throw fail.badRequest('参数错误：productCode（请选择网关类产品）');
  return { tenantCode };
}

export const gatewayOperations = [
  defineOperation('gateway.page', {
    paramSchema: GATEWAYS.paramSchema,
    handler: async (context) => {
      const where = await GATEWAYS.where(context);
      return pageOf(context, withSubDeviceCounts(await deviceScope(context), where), where);
    },
  }),

  defineOperation('gateway.detail', {
    paramSchema: objectOf({ code: deviceCode }, ['code']),
    handler: async (context) => scopedGateway(context, await deviceScope(context), context.param.code),
  }),

  defineOperation('gateway.insert', {
    paramSchema: objectOf({ gateway: gatewayFields }, ['gateway']),
    handler: async (context) => {
      const scope = await deviceScope(context);
      const fields = context.param.gateway;
      return context.db.transaction(async (tx) => {
        const { tenantCode } = await checkGatewayFields(tx, scope, fields);
        const [taken] = await tx.query<{ deleted_at: Date | null }>('SELECT deleted_at FROM device WHERE code = $1', [fields.code]);
        if (taken) throw fail.conflict(taken.deleted_at ? '设备编码已存在（在回收站中）' : '设备编码已存在');
        await conflictOnClash(
          () =>
            tx.query(
              `INSERT INTO device (code, name, product_code, organization_code, tenant_code, imei, online_state, longitude, latitude, address, remark, created_at)
               VALUES ($1, $2, $3, $4, $5, $6, 'inactive', $7, $8, $9, $10, $11)`,
              [
                fields.code,
                fields.name.trim(),
                fields.productCode,
                fields.organizationCode,
                tenantCode,
                fields.imei ?? '',
                fields.longitude ?? null,
                fields.latitude ?? null,
                fields.address?.trim() ?? '',
                fields.remark?.trim() ?? '',
                context.now,
              ],
            ),
          { unique: '设备编码已存在' },
        );
        return { code: fields.code };
      });
    },
  }),

  defineOperation('gateway.modify', {
    paramSchema: objectOf({ code: deviceCode, gateway: gatewayFields }, ['code', 'gateway']),
    handler: async (context) => {
      const { code, gateway: fields } = context.param;
      const scope = await deviceScope(context);
      return context.db.transaction(async (tx) => {
        const current = await scopedGateway(context, scope, code, tx);
        if (fields.code !== code) throw fail.badRequest('参数错误：code（设备编码不能修改）');
        const { tenantCode } = await checkGatewayFields(tx, scope, fields);
        if (tenantCode !== current.tenantCode) throw fail.badRequest('参数错误：organizationCode（不能移到其他租户）');
        const rows = await tx.query<{ id: number; moved: boolean }>(
          `WITH before AS (SELECT id, organization_code, product_code FROM device WHERE code = $1 FOR UPDATE)
           UPDATE device d SET name = $2, product_code = $3, organization_code = $4, imei = $5, longitude = $6, latitude = $7, address = $8, remark = $9
             FROM before b WHERE d.id = b.id
           RETURNING d.id, ${MOVED}`,
          [code, fields.name.trim(), fields.productCode, fields.organizationCode, fields.imei ?? '', fields.longitude ?? null, fields.latitude ?? null, fields.address?.trim() ?? '', fields.remark?.trim() ?? ''],
        );
        await announceMovedDevices(tx, rows);
        return { code };
      });
    },
  }),

  defineOperation('gateway.delete', {
    paramSchema: objectOf({ code: deviceCode }, ['code']),
    handler: async (context) => {
      const scope = await deviceScope(context);
      const caller = callerOf(context);
      return context.db.transaction(async (tx) => {
        const gateway = await scopedGateway(context, scope, context.param.code, tx);
        // Every live sub-device counts, also those outside the caller's part of the tenant.
        const [sub] = await tx.query('SELECT 1 FROM device WHERE gateway_code = $1 AND deleted_at IS NULL LIMIT 1', [gateway.code]);
        if (sub) throw fail.conflict('该网关下仍有子设备');
        const deleted = await tx.query<{ id: number; code: string }>(
          `UPDATE device SET deleted_at = $2, deleted_by = $3, recycle_reason = 'deleted' WHERE code = $1 AND deleted_at IS NULL RETURNING id, code`,
          [gateway.code, context.now, caller.loginName],
        );
        if (deleted.length === 0) throw fail.notFound('网关不存在');
        await announceRevokedDevices(tx, deleted.map((row) => row.id));
        await noteBrokerDevices(tx, context.config, [gateway.code], 'disabled');
        return { code: gateway.code };
      });
    },
  }),

  defineOperation('gateway.subDevice.page', {
    paramSchema: SUB_DEVICES.paramSchema,
    handler: (context) => SUB_DEVICES.page(context),
  }),
];
