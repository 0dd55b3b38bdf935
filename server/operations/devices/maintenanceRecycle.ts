import type { Queryable } from '../../db/database';
import { fail } from '../../http/envelope';
import { announceRevokedDevices } from '../../ingest/deviceSessions';
import { noteBrokerDevices } from '../../ingest/mosquittoAccounts';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, deviceCode } from '../../core/params';
import { Conditions } from '../../core/listQuery';
import { between, equals, listing, orderedRange, type ItemOf } from '../../core/listing';
import { conflictOnClash } from '../../core/conflicts';
import { DEVICE_LIST, deviceCodes, deviceColumns, deviceFilters } from './maintenanceShared';
import { deviceScope, type DeviceScope } from '../../core/deviceScope';

/**
 * 设备回收站: deleted devices keep their row (deleted_at set) until restored or purged for good.
 * A restore is refused when the device's identity has meanwhile been taken by a live device (its
 * code, or its IMEI re-registered under another code); a purge takes the device's own history
 * (errors, health samples, alarms, followers) with it and is refused for a gateway that still
 * has live sub-devices.
 */

/** The recycle bin: the deleted devices of the scope, last deleted first. */
const RECYCLE = listing({
  ...DEVICE_LIST,
  scope: async (where, context) => where.scope(await deviceScope(context), 'd', { tenant: 'tenant_code' }).add('d.deleted_at IS NOT NULL'),
  filters: {
    ...deviceFilters,
    recycleReason: equals('d.recycle_reason', enumOf(['removed', 'replaced', 'scrapped', 'deleted'])),
    deletedTimeRange: between('d.deleted_at', orderedRange),
  },
  columns: deviceColumns,
  sorts: { deletedTime: 'd.deleted_at', code: 'd.code', name: 'd.name', createTime: 'd.created_at' },
  fallback: 'd.deleted_at DESC, d.code',
});

type RecycledDevice = ItemOf<typeof RECYCLE>;

/** The devices `codes` in the recycle bin of the scope, all of them (locked in the transaction `db`), or "404" 回收设备不存在. */
async function recycledDevices(context: OperationContext<unknown>, scope: DeviceScope, codes: readonly string[], db: Queryable = context.db): Promise<RecycledDevice[]> {
  const where = new Conditions().scope(scope, 'd', { tenant: 'tenant_code' }).add('d.deleted_at IS NOT NULL').add('d.code = ANY($?::text[])', [...codes]);
  const rows = await RECYCLE.findAll(context, where, ' FOR UPDATE OF d', db);
  if (rows.length !== codes.length) throw fail.notFound('回收设备不存在');
  return rows;
}

/** Why `row` cannot come back, or null: a live device meanwhile holds its code or its IMEI. */
async function restoreBlocker(db: Queryable, row: RecycledDevice): Promise<string | null> {
  const [sameCode] = await db.query<{ code: string }>('SELECT code FROM device WHERE code = $1 AND id <> $2 AND deleted_at IS NULL', [row.code, row.id]);
  if (sameCode) return `设备编码 ${row.code} 已被其他设备使用`;
  if (row.imei) {
    const [sameImei] = await db.query<{ code: string }>('SELECT code FROM device WHERE imei = $1 AND id <> $2 AND deleted_at IS NULL ORDER BY code LIMIT 1', [row.imei, row.id]);
    if (sameImei) return `设备 ${row.code} 的 IMEI 已被设备 ${sameImei.code} 使用`;
  }
  return null;
}

const codesParam = objectOf({ codes: deviceCodes }, ['codes']);

export const recycleOperations = [
  defineOperation('device.recycle.page', {
    paramSchema: RECYCLE.paramSchema,
    handler: (context) => RECYCLE.page(context),
  }),

  defineOperation('device.recycle.detail', {
    paramSchema: objectOf({ code: deviceCode }, ['code']),
    handler: async (context) => {
      const [row] = await recycledDevices(context, await deviceScope(context), [context.param.code]);
      const [counts] = await context.db.query<{ errors: number; sub_devices: number; cameras: number }>(
        `SELECT (SELECT count(*)::int FROM device_error WHERE device_code = $1) AS errors,
                (SELECT count(*)::int FROM device WHERE gateway_code = $1 AND deleted_at IS NULL) AS sub_devices,
                (SELECT count(*)::int FROM camera WHERE device_code = $1) AS cameras`,
        [row.code],
      );
      const blocker = await restoreBlocker(context.db, row);
      return {
        ...row,
        recycledDays: row.deletedTime ? Math.floor((context.now.getTime() - new Date(row.deletedTime).getTime()) / 86_400_000) : 0,
        errorCount: counts.errors,
        subDeviceCount: counts.sub_devices,
        cameraCount: counts.cameras,
        restorable: blocker === null,
        restoreBlocker: blocker ?? '',
      };
    },
  }),

  defineOperation('device.recycle.restore', {
    paramSchema: codesParam,
    handler: async (context) => {
      const scope = await deviceScope(context);
      return context.db.transaction(async (tx) => {
        const rows = await recycledDevices(context, scope, context.param.codes, tx);
        for (const row of rows) {
          const blocker = await restoreBlocker(tx, row);
          if (blocker) throw fail.conflict(`${blocker}，无法恢复`);
        }
        await conflictOnClash(
          () => tx.query('UPDATE device SET deleted_at = NULL, deleted_by = NULL, recycle_reason = NULL WHERE id = ANY($1::int[])', [rows.map((row) => row.id)]),
          { unique: '设备编码已被其他设备使用，无法恢复' },
        );
        await noteBrokerDevices(tx, context.config, rows.map((row) => row.code), 'enabled');
        return { restored: rows.length };
      });
    },
  }),

  defineOperation('device.recycle.delete', {
    paramSchema: codesParam,
    handler: async (context) => {
      const scope = await deviceScope(context);
      const caller = callerOf(context);
      return context.db.transaction(async (tx) => {
        const rows = await recycledDevices(context, scope, context.param.codes, tx);
        const codes = rows.map((row) => row.code);
        const [live] = await tx.query<{ gateway_code: string }>('SELECT gateway_code FROM device WHERE gateway_code = ANY($1::text[]) AND deleted_at IS NULL LIMIT 1', [codes]);
        if (live) throw fail.conflict(`网关 ${live.gateway_code} 下仍有子设备，无法彻底删除`);
        // Sub-devices that are themselves in the recycle bin stay there, no longer attached.
        await tx.query('UPDATE device SET gateway_code = NULL WHERE gateway_code = ANY($1::text[]) AND NOT (code = ANY($1::text[]))', [codes]);
        await tx.query('UPDATE device SET gateway_code = NULL WHERE code = ANY($1::text[])', [codes]);
        await noteBrokerDevices(tx, context.config, codes, 'deleted');
        await conflictOnClash(() => tx.query('DELETE FROM device WHERE id = ANY($1::int[])', [rows.map((row) => row.id)]), {
          reference: '该设备仍被其他记录引用，无法彻底删除',
        });
        await announceRevokedDevices(tx, rows.map((row) => row.id));
        context.log(`device.recycle.delete ${codes.length} device(s) purged by ${caller.loginName}`);
        return { deleted: rows.length };
      });
    },
  }),
];
