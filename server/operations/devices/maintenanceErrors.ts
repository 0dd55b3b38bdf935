import type { Queryable } from '../../db/database';
import { businessDayStamp } from '../../domain/businessTime';
import { fail } from '../../http/envelope';
import { spreadsheet } from '../../http/spreadsheet';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, keywordParam, objectOf, optionalPlainText, type ParamOf, plainText, timeRange, referenceCode, userIdSchema } from '../../core/params';
import { Conditions, containing, exportOf, pageOf, type Listing, addTimeRange } from '../../core/listQuery';
import { dictLabel } from './maintenanceShared';
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

const filterParam = objectOf({
  keyword: keywordParam,
  errorType: enumOf(ERROR_TYPES),
  state: enumOf(ERROR_STATES),
  productCode: referenceCode,
  organizationCode: referenceCode,
  timeRange,
});
type ErrorFilter = ParamOf<typeof filterParam>;

interface ErrorRow {
  id: number;
  code: string;
  device_code: string;
  device_name: string;
  product_code: string;
  product_name: string;
  organization_code: string;
  organization_name: string;
  online_state: string;
  health_state: string;
  health_score: number;
  error_type: string;
  description: string;
  occurred_at: Date;
  state: string;
  handled_by: string | null;
  handled_at: Date | null;
  handle_remark: string | null;
  repair_order_code: string | null;
}

const SELECT = `e.id, e.code, e.device_code, d.name AS device_name, d.product_code, p.name AS product_name, e.organization_code,
  o.name AS organization_name, d.online_state, d.health_state, d.health_score, e.error_type, e.description, e.occurred_at,
  e.state, e.handled_by, e.handled_at, e.handle_remark, e.repair_order_code`;
const FROM = `device_error e JOIN device d ON d.code = e.device_code JOIN product p ON p.code = d.product_code
  JOIN organization o ON o.code = e.organization_code`;
const SORTS = { occurredTime: 'e.occurred_at', code: 'e.code', deviceCode: 'e.device_code', state: 'e.state', handledTime: 'e.handled_at' };

function errorRecord(row: ErrorRow) {
  return {
    id: row.id,
    code: row.code,
    deviceCode: row.device_code,
    deviceName: row.device_name,
    productCode: row.product_code,
    productName: row.product_name,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    onlineState: row.online_state,
    healthState: row.health_state,
    healthScore: row.health_score,
    errorType: row.error_type,
    description: row.description,
    occurredTime: row.occurred_at.toISOString(),
    state: row.state,
    handledBy: row.handled_by ?? '',
    handledTime: isoOrNull(row.handled_at),
    handleRemark: row.handle_remark ?? '',
    repairOrderCode: row.repair_order_code ?? '',
  };
}

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
function errorListing<Item>(record: (row: ErrorRow) => Item): Listing<ErrorRow, Item> {
  return {
    from: FROM,
    narrowFrom: (needed) => (/\bd\./.test(needed) ? 'device_error e JOIN device d ON d.code = e.device_code' : 'device_error e'),
    key: 'e.id',
    columns: SELECT,
    sorts: SORTS,
    fallback: 'e.occurred_at DESC, e.id DESC',
    record,
  };
}

async function errorWhere(context: OperationContext<ErrorFilter>): Promise<Conditions> {
  const filter = context.param;
  const where = new Conditions().scope(await deviceScope(context), 'e', { tenant: 'tenant_code' }).add(LIVE_DEVICE);
  if (filter.keyword?.trim()) where.add('(e.code ILIKE $? OR e.device_code ILIKE $? OR d.name ILIKE $?)', containing(filter.keyword.trim()));
  if (filter.errorType) where.add('e.error_type = $?', filter.errorType);
  if (filter.state) where.add('e.state = $?', filter.state);
  if (filter.productCode) where.add('d.product_code = $?', filter.productCode);
  if (filter.organizationCode) where.add('e.organization_code = ANY($?::text[])', await subtreeOf(context.db, filter.organizationCode));
  addTimeRange(where, 'e.occurred_at', filter.timeRange, 'timeRange', context.config.timeZone);
  return where;
}

/** The error `id` of a live device in scope (locked for update inside a transaction), or "404". */
async function scopedError(db: Queryable, scope: DeviceScope, id: number, lock = false): Promise<ErrorRow> {
  const clause = new Conditions().scope(scope, 'e', { tenant: 'tenant_code' }).add('d.deleted_at IS NULL').add('e.id = $?', id);
  const [row] = await db.query<ErrorRow>(`SELECT ${SELECT} FROM ${FROM} WHERE ${clause.sql}${lock ? ' FOR UPDATE OF e' : ''}`, clause.params);
  if (!row) throw fail.notFound('异常记录不存在');
  return row;
}

function checkPending(row: ErrorRow): void {
  if (row.state === 'handled') throw fail.conflict('该异常已处理');
  if (row.state === 'repairing') throw fail.conflict(`该异常已转维修（${row.repair_order_code ?? ''}）`);
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
    paramSchema: filterParam,
    handler: async (context) => pageOf(context, errorListing(errorRecord), await errorWhere(context)),
  }),

  defineOperation('device.error.detail', {
    paramSchema: objectOf({ id: idParam }, ['id']),
    handler: async (context) => {
      const row = await scopedError(context.db, await deviceScope(context), context.param.id);
      // Flat values only: the handle form loads this record (the device's error list is on its health detail).
      const [history] = await context.db.query<{ count: number; previous: Date | null }>(
        `SELECT count(*)::int AS count, max(occurred_at) FILTER (WHERE occurred_at < $2) AS previous FROM device_error WHERE device_code = $1`,
        [row.device_code, row.occurred_at],
      );
      return { ...errorRecord(row), deviceErrorCount: history.count, previousOccurredTime: isoOrNull(history.previous) };
    },
  }),

  defineOperation('device.error.export', {
    paramSchema: filterParam,
    handler: async (context) =>
      spreadsheet(
        '异常设备',
        [
          { title: '异常编号', value: (r: ErrorRow) => r.code },
          { title: '设备编码', value: (r) => r.device_code },
          { title: '设备名称', value: (r) => r.device_name },
          { title: '产品', value: (r) => r.product_name, width: 22 },
          { title: '组织', value: (r) => r.organization_name, width: 22 },
          { title: '异常类型', value: (r) => dictLabel('device_error_type', r.error_type) },
          { title: '异常描述', value: (r) => r.description, width: 40 },
          { title: '发生时间', value: (r) => r.occurred_at },
          { title: '状态', value: (r) => dictLabel('device_error_state', r.state) },
          { title: '处理人', value: (r) => r.handled_by ?? '' },
          { title: '处理时间', value: (r) => r.handled_at },
          { title: '处理说明', value: (r) => r.handle_remark ?? '', width: 30 },
          { title: '维修工单', value: (r) => r.repair_order_code ?? '' },
        ],
        await exportOf(context, errorListing((row) => row), await errorWhere(context)),
        context.now,
        context.config.timeZone,
      ),
  }),

  defineOperation('device.error.handle', {
    paramSchema: objectOf({ id: idParam, remark: plainText(200) }, ['id', 'remark']),
    handler: async (context) => {
      const scope = await deviceScope(context);
      const caller = callerOf(context);
      return context.db.transaction(async (tx) => {
        const row = await scopedError(tx, scope, context.param.id, true);
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
        const row = await scopedError(tx, scope, context.param.id, true);
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
