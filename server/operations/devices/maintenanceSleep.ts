import { fail } from '../../http/envelope';
import { spreadsheet } from '../../http/spreadsheet';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, type ParamOf, schemaOf, timeRange, deviceCode } from '../../core/params';
import { Conditions, exportOf, pageOf, addTimeRange } from '../../core/listQuery';
import { scopedLiveDevice } from './maintenanceHealth';
import { addDeviceFilters, deviceCodes, deviceFilterSchema, deviceListing, deviceRecord, dictLabel, secondsSince, type DeviceRow } from './maintenanceShared';
import { deviceScope } from '../../core/deviceScope';

/**
 * 休眠设备: battery-powered devices put to sleep (they report rarely to save power). Waking one
 * clears the sleep and records who woke it and when (device_wake_record), so the device's
 * detail shows its sleep history.
 */

const filterParam = objectOf({
  ...deviceFilterSchema,
  sleepSinceRange: timeRange,
  /** Asleep at least this many days. */
  sleepDaysMin: schemaOf<number>({ type: 'integer', minimum: 0, maximum: 3650 }),
});
type SleepFilter = ParamOf<typeof filterParam>;

const SORTS = { sleepSince: 'd.sleep_since', code: 'd.code', name: 'd.name', batteryLevel: 'd.battery_level', lastSeenTime: 'd.last_seen_at' };

const FALLBACK = 'd.sleep_since, d.code';

async function sleepWhere(context: OperationContext<SleepFilter>): Promise<Conditions> {
  const where = new Conditions().scope(await deviceScope(context), 'd', { tenant: 'tenant_code' }).add('d.deleted_at IS NULL').add('d.sleeping');
  await addDeviceFilters(context.db, where, context.param);
  addTimeRange(where, 'd.sleep_since', context.param.sleepSinceRange, 'sleepSinceRange', context.config.timeZone);
  if (context.param.sleepDaysMin !== undefined) where.add(`d.sleep_since <= $?::timestamptz`, new Date(context.now.getTime() - context.param.sleepDaysMin * 86_400_000));
  return where;
}

const sleepRows = deviceListing((row: DeviceRow) => row, { sorts: SORTS, fallback: FALLBACK });

function sleepRecord(row: DeviceRow, now: Date) {
  return { ...deviceRecord(row), sleepSeconds: secondsSince(row.sleep_since, now) };
}

export const sleepOperations = [
  defineOperation('device.sleep.page', {
    paramSchema: filterParam,
    handler: async (context) => pageOf(context, deviceListing((row: DeviceRow) => sleepRecord(row, context.now), { sorts: SORTS, fallback: FALLBACK }), await sleepWhere(context)),
  }),

  defineOperation('device.sleep.detail', {
    paramSchema: objectOf({ code: deviceCode }, ['code']),
    handler: async (context) => {
      const row = await scopedLiveDevice(context, context.param.code);
      const wakes = await context.db.query<{ id: number; slept_since: Date | null; woken_by: string; woken_at: Date }>(
        'SELECT id, slept_since, woken_by, woken_at FROM device_wake_record WHERE device_code = $1 ORDER BY woken_at DESC LIMIT 20',
        [row.code],
      );
      return {
        ...sleepRecord(row, context.now),
        wakeRecords: wakes.map((wake) => ({
          id: wake.id,
          sleptSince: wake.slept_since?.toISOString() ?? null,
          wokenBy: wake.woken_by,
          wokenTime: wake.woken_at.toISOString(),
          sleptSeconds: wake.slept_since ? secondsSince(wake.slept_since, wake.woken_at) : null,
        })),
      };
    },
  }),

  defineOperation('device.sleep.export', {
    paramSchema: filterParam,
    handler: async (context) =>
      spreadsheet(
        '休眠设备',
        [
          { title: '设备编码', value: (r: DeviceRow) => r.code },
          { title: '设备名称', value: (r) => r.name },
          { title: '产品', value: (r) => r.product_name, width: 22 },
          { title: '组织', value: (r) => r.organization_name, width: 22 },
          { title: '在线状态', value: (r) => dictLabel('device_online_state', r.online_state) },
          { title: '电池电量(%)', value: (r) => r.battery_level },
          { title: '休眠开始', value: (r) => r.sleep_since },
          { title: '休眠天数', value: (r) => Math.floor((secondsSince(r.sleep_since, context.now) ?? 0) / 86_400) },
          { title: '最后上报', value: (r) => r.last_seen_at },
        ],
        await exportOf(context, sleepRows, await sleepWhere(context)),
        context.now,
        context.config.timeZone,
      ),
  }),

  defineOperation('device.sleep.wake', {
    paramSchema: objectOf({ codes: deviceCodes }, ['codes']),
    handler: async (context) => {
      const scope = await deviceScope(context);
      const caller = callerOf(context);
      const codes = context.param.codes;
      return context.db.transaction(async (tx) => {
        const clause = new Conditions().scope(scope, 'd', { tenant: 'tenant_code' }).add('d.deleted_at IS NULL').add('d.code = ANY($?::text[])', [...codes]);
        const rows = await tx.query<{ code: string; sleeping: boolean; sleep_since: Date | null; organization_code: string; tenant_code: string }>(
          `SELECT d.code, d.sleeping, d.sleep_since, d.organization_code, d.tenant_code FROM device d WHERE ${clause.sql} FOR UPDATE`,
          clause.params,
        );
        if (rows.length !== codes.length) throw fail.notFound('设备不存在');
        const awake = rows.find((row) => !row.sleeping);
        if (awake) throw fail.conflict(`设备 ${awake.code} 未处于休眠状态`);
        const woken = await tx.query<{ code: string }>('UPDATE device SET sleeping = false, sleep_since = NULL WHERE code = ANY($1::text[]) AND sleeping RETURNING code', [[...codes]]);
        const asleep = new Set(woken.map((row) => row.code));
        const missed = codes.find((code) => !asleep.has(code));
        if (missed) throw fail.conflict(`设备 ${missed} 未处于休眠状态`);
        for (const row of rows) {
          await tx.query(
            'INSERT INTO device_wake_record (device_code, organization_code, tenant_code, slept_since, woken_by, woken_at) VALUES ($1, $2, $3, $4, $5, $6)',
            [row.code, row.organization_code, row.tenant_code, row.sleep_since, caller.loginName, context.now],
          );
        }
        return { woken: rows.length, wokenBy: caller.loginName, wokenTime: context.now.toISOString() };
      });
    },
  }),
];
