import type { Queryable } from '../../db/database';
import { businessDayStamp } from '../../domain/businessTime';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, keywordParam, objectOf, optionalPlainText, plainText, referenceCode, userIdSchema } from '../../core/params';
import { Conditions } from '../../core/listQuery';
import { between, column, contains, custom, equals, listing, orderedRange, textColumn, timeColumn, type ItemOf } from '../../core/listing';
import { dictLabel } from './maintenanceShared';
import { timeCell } from './workScope';
import { isoOrNull } from '../../core/values';
import { subtreeOf } from '../../domain/organizations';
import { deviceScope, type DeviceScope } from '../../core/deviceScope';

/**
 * 异常设备: the errors the platform detects on live devices (long offline, abnormal data, weak
 * signal, missing reports). Staff handle one with a remark, or send it to repair: work orders
 * arrive in issue 6, so toRepair records a generated repair order code (RO + date + number) and
 * the error waits in state repairing.
 */

const ERROR_TYPES = ['offline_long', 'data_abnormal', 'signal_weak', 'report_missing'];
const ERROR_STATES = ['pending', 'handled', 'repairing'];

/**
 * Errors of devices in the recycle bin are out of sight until the device comes back: the error's
 * device is not among the recycled ones (device_recycled_code_idx, migration 093, holds just
 * those). Every error has its device (a foreign key), so this is the old `d.deleted_at IS NULL` of
 * the join without reading the device of every error before the page (4,000 at page 200).
 */
const LIVE_DEVICE = 'NOT EXISTS (SELECT 1 FROM device r WHERE r.code = e.device_code AND r.deleted_at IS NOT NULL)';

/**
 * The error list: the count and the page's choice of rows read the error alone, with its device
 * only when a filter names it (keyword, product); device, product and organisation are joined
 * for the page's rows.
 */
const ERRORS = listing({
  from: `device_error e JOIN device d ON d.code = e.device_code JOIN product p ON p.code = d.product_code
  JOIN organization o ON o.code = e.organization_code`,
  narrowFrom: (needed) => (/\bd\./.test(needed) ? 'device_error e JOIN device d ON d.code = e.device_code' : 'device_error e'),
  key: 'e.id',
  scope: async (where, context) => where.scope(await deviceScope(context), 'e', { tenant: 'tenant_code' }).add(LIVE_DEVICE),
  filters: {
    keyword: contains(['e.code', 'e.device_code', 'd.name'], keywordParam, { trim: true }),
    errorType: equals('e.error_type', enumOf(ERROR_TYPES)),
    state: equals('e.state', enumOf(ERROR_STATES)),
    productCode: equals('d.product_code', referenceCode),
    organizationCode: custom(referenceCode, async (where, code, context) => void where.add('e.organization_code = ANY($?::text[])', await subtreeOf(context.db, code))),
    timeRange: between('e.occurred_at', orderedRange),
  },
  columns: {
    id: column<number>('e.id'),
    code: column<string>('e.code'),
    deviceCode: column<string>('e.device_code'),
    deviceName: column<string>('d.name'),
    productCode: column<string>('d.product_code'),
    productName: column<string>('p.name'),
    organizationCode: column<string>('e.organization_code'),
    organizationName: column<string>('o.name'),
    onlineState: column<string>('d.online_state'),
    healthState: column<string>('d.health_state'),
    healthScore: column<number>('d.health_score'),
    errorType: column<string>('e.error_type'),
    description: column<string>('e.description'),
    occurredTime: timeColumn('e.occurred_at'),
    state: column<string>('e.state'),
    handledBy: textColumn('e.handled_by'),
    handledTime: column('e.handled_at', isoOrNull),
    handleRemark: textColumn('e.handle_remark'),
    repairOrderCode: textColumn('e.repair_order_code'),
  },
  sorts: { occurredTime: 'e.occurred_at', code: 'e.code', deviceCode: 'e.device_code', state: 'e.state', handledTime: 'e.handled_at' },
  fallback: 'e.occurred_at DESC, e.id DESC',
});

type DeviceError = ItemOf<typeof ERRORS>;

/** The error `id` of a live device in scope (locked for update in the transaction `db`, if given), or "404". */
async function scopedError(context: OperationContext<unknown>, scope: DeviceScope, id: number, db?: Queryable): Promise<DeviceError> {
  const where = new Conditions().scope(scope, 'e', { tenant: 'tenant_code' }).add('d.deleted_at IS NULL').add('e.id = $?', id);
  const row = await ERRORS.find(context, where, db ? ' FOR UPDATE OF e' : '', db);
  if (!row) throw fail.notFound('异常记录不存在');
  return row;
}

function checkPending(row: DeviceError): void {
  if (row.state === 'handled') throw fail.conflict('该异常已处理');
  if (row.state === 'repairing') throw fail.conflict(`该异常已转维修（${row.repairOrderCode}）`);
}

/** The next repair order code of the business day: RO + yyyymmdd + five digits. */
async function nextRepairOrderCode(db: Queryable, now: Date, timeZone: string): Promise<string> {
  const prefix = `RO${businessDayStamp(now, timeZone)}`;
  const [{ last }] = await db.query<{ last: number | null }>(
    `SELECT max(substring(repair_order_code FROM 11)::int) AS last FROM device_error WHERE repair_order_code ~ $1`,
    [`^${prefix}\\d{5}$`],
  );
  return `${prefix}${String((last ?? 0) + 1).padStart(5, '0')}`;
}

const idParam = userIdSchema;

export const errorOperations = [
  defineOperation('device.error.page', {
    paramSchema: ERRORS.paramSchema,
    handler: (context) => ERRORS.page(context),
  }),

  defineOperation('device.error.detail', {
    paramSchema: objectOf({ id: idParam }, ['id']),
    handler: async (context) => {
      const row = await scopedError(context, await deviceScope(context), context.param.id);
      // Flat values only: the handle form loads this record (the device's error list is on its health detail).
      const [history] = await context.db.query<{ count: number; previous: Date | null }>(
        `SELECT count(*)::int AS count, max(occurred_at) FILTER (WHERE occurred_at < $2) AS previous FROM device_error WHERE device_code = $1`,
        [row.deviceCode, new Date(row.occurredTime)],
      );
      return { ...row, deviceErrorCount: history.count, previousOccurredTime: isoOrNull(history.previous) };
    },
  }),

  defineOperation('device.error.export', {
    paramSchema: ERRORS.paramSchema,
    handler: async (context) =>
      exportFile(
        context,
        '异常设备',
        [
          { title: '异常编号', value: (r: DeviceError) => r.code },
          { title: '设备编码', value: (r) => r.deviceCode },
          { title: '设备名称', value: (r) => r.deviceName },
          { title: '产品', value: (r) => r.productName, width: 22 },
          { title: '组织', value: (r) => r.organizationName, width: 22 },
          { title: '异常类型', value: (r) => dictLabel('device_error_type', r.errorType) },
          { title: '异常描述', value: (r) => r.description, width: 40 },
          { title: '发生时间', value: (r) => timeCell(r.occurredTime) },
          { title: '状态', value: (r) => dictLabel('device_error_state', r.state) },
          { title: '处理人', value: (r) => r.handledBy },
          { title: '处理时间', value: (r) => timeCell(r.handledTime) },
          { title: '处理说明', value: (r) => r.handleRemark, width: 30 },
          { title: '维修工单', value: (r) => r.repairOrderCode },
        ],
        await ERRORS.rows(context),
      ),
  }),

  defineOperation('device.error.handle', {
    paramSchema: objectOf({ id: idParam, remark: plainText(200) }, ['id', 'remark']),
    handler: async (context) => {
      const scope = await deviceScope(context);
      const caller = callerOf(context);
      return context.db.transaction(async (tx) => {
        const row = await scopedError(context, scope, context.param.id, tx);
        checkPending(row);
        const handled = await tx.query<{ id: number }>(
          `UPDATE device_error SET state = 'handled', handled_by = $2, handled_at = $3, handle_remark = $4 WHERE id = $1 AND state = $5 RETURNING id`,
          [row.id, caller.loginName, context.now, context.param.remark.trim(), row.state],
        );
        if (handled.length === 0) throw fail.conflict('该异常已处理');
        return { id: row.id, state: 'handled' };
      });
    },
  }),

  defineOperation('device.error.toRepair', {
    paramSchema: objectOf({ id: idParam, remark: optionalPlainText(200) }, ['id']),
    handler: async (context) => {
      const scope = await deviceScope(context);
      const caller = callerOf(context);
      return context.db.transaction(async (tx) => {
        const row = await scopedError(context, scope, context.param.id, tx);
        checkPending(row);
        const repairOrderCode = await nextRepairOrderCode(tx, context.now, context.config.timeZone);
        const moved = await tx.query<{ id: number }>(
          `UPDATE device_error SET state = 'repairing', handled_by = $2, handled_at = $3, handle_remark = $4, repair_order_code = $5 WHERE id = $1 AND state = $6 RETURNING id`,
          [row.id, caller.loginName, context.now, context.param.remark?.trim() || '已转维修工单', repairOrderCode, row.state],
        );
        if (moved.length === 0) throw fail.conflict('该异常已处理');
        return { id: row.id, state: 'repairing', repairOrderCode };
      });
    },
  }),
];
