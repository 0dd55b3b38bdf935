import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { callerOf } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, schemaOf, deviceCode } from '../../core/params';
import { Conditions } from '../../core/listQuery';
import { between, custom, derived, listing, orderedRange, type ItemOf } from '../../core/listing';
import { DEVICE_LIST, deviceCodes, deviceColumns, deviceFilters, dictLabel, scopedLiveDevice, secondsSince } from './maintenanceShared';
import { timeCell } from './workScope';
import { deviceScope } from '../../core/deviceScope';

/**
 * 休眠设备: battery-powered devices put to sleep (they report rarely to save power). Waking one
 * clears the sleep and records who woke it and when (device_wake_record), so the device's
 * detail shows its sleep history.
 */

/** The sleeping live devices of the scope, longest asleep first, with how long each has slept. */
const SLEEP = listing({
  ...DEVICE_LIST,
  scope: async (where, context) => where.scope(await deviceScope(context), 'd', { tenant: 'tenant_code' }).add('d.deleted_at IS NULL').add('d.sleeping'),
  filters: {
    ...deviceFilters,
    sleepSinceRange: between('d.sleep_since', orderedRange),
    /** Asleep at least this many days. */
    sleepDaysMin: custom(schemaOf<number>({ type: 'integer', minimum: 0, maximum: 3650 }), (where, days, context) => void where.add(`d.sleep_since <= $?::timestamptz`, new Date(context.now.getTime() - days * 86_400_000))),
  },
  columns: { ...deviceColumns, sleepSeconds: derived((row, context) => secondsSince(row.sleepSince as Date | null, context.now)) },
  sorts: { sleepSince: 'd.sleep_since', code: 'd.code', name: 'd.name', batteryLevel: 'd.battery_level', lastSeenTime: 'd.last_seen_at' },
  fallback: 'd.sleep_since, d.code',
});

type SleepingDevice = ItemOf<typeof SLEEP>;

export const sleepOperations = [
  defineOperation('device.sleep.page', {
    paramSchema: SLEEP.paramSchema,
    handler: (context) => SLEEP.page(context),
  }),

  defineOperation('device.sleep.detail', {
    paramSchema: objectOf({ code: deviceCode }, ['code']),
    handler: async (context) => {
      const row = await scopedLiveDevice(context, SLEEP, context.param.code);
      const wakes = await context.db.query<{ id: number; slept_since: Date | null; woken_by: string; woken_at: Date }>(
        'SELECT id, slept_since, woken_by, woken_at FROM device_wake_record WHERE device_code = $1 ORDER BY woken_at DESC LIMIT 20',
        [row.code],
      );
      return {
        ...row,
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
    paramSchema: SLEEP.paramSchema,
    handler: async (context) =>
      exportFile(
        context,
        '休眠设备',
        [
          { title: '设备编码', value: (r: SleepingDevice) => r.code },
          { title: '设备名称', value: (r) => r.name },
          { title: '产品', value: (r) => r.productName, width: 22 },
          { title: '组织', value: (r) => r.organizationName, width: 22 },
          { title: '在线状态', value: (r) => dictLabel('device_online_state', r.onlineState) },
          { title: '电池电量(%)', value: (r) => r.batteryLevel },
          { title: '休眠开始', value: (r) => timeCell(r.sleepSince) },
          { title: '休眠天数', value: (r) => Math.floor((r.sleepSeconds ?? 0) / 86_400) },
          { title: '最后上报', value: (r) => timeCell(r.lastSeenTime) },
        ],
        await SLEEP.rows(context),
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
