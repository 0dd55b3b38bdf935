import type { Queryable } from '../../db/database';
import { CODE_PREFIX, FAULT_TYPES, PRIORITIES, workCode } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, text, plainText, optionalTime, enumOf, optionalEnumOf, optionalUserId, parseRange, phoneOrEmpty, workCodeSchema, deviceCode } from '../../core/params';
import { Conditions } from '../../core/listQuery';
import { between, column, contains, custom, derived, equals, listing, textColumn, timeColumn, type ItemOf } from '../../core/listing';
import { createRepairOrder } from './repair';
import { findWorkDevice, manages, managesWork, organizationFilter, placeOrder, workScope, workScopeClause, type WorkScope } from '../../core/workScope';
import { nextId } from './workOrders';
import { dictLabel } from '../../core/values';

/**
 * Fault reports (故障上报): anyone on the work side reports a faulty device; an administrator turns
 * a report into a repair order (source report) or deletes it. Repair and patrol staff see the
 * reports they made; managers see their organisations'.
 */

/**
 * The reports a request sees (the work scope: managers their organisations', the others those they
 * reported), newest first: counted and paged over repair_report (and the device, when the keyword
 * reads its name).
 */
const REPORTS = listing({
  from: `repair_report r
  JOIN organization org ON org.code = r.organization_code
  LEFT JOIN device d ON d.code = r.device_code
  LEFT JOIN app_user u ON u.id = r.reporter_id
  LEFT JOIN work_order o ON o.id = r.order_id`,
  narrowFrom: (needed) => (/\bd\./.test(needed) ? 'repair_report r LEFT JOIN device d ON d.code = r.device_code' : 'repair_report r'),
  key: 'r.id',
  scope: async (where, context) => where.add(workScopeClause(await workScope(context), where.params, 'r', 'reporter_id')),
  filters: {
    keyword: contains(['r.code', 'r.device_code', 'r.description', "coalesce(d.name, '')"], text(64)),
    state: equals('r.state', optionalEnumOf(['pending', 'converted'])),
    faultType: equals('r.fault_type', optionalEnumOf(FAULT_TYPES)),
    organizationCode: custom(text(64), async (where, code, context) => {
      where.add('r.organization_code = ANY($?::text[])', await organizationFilter(context.db, await workScope(context), code));
    }),
    createTime: between('r.created_at', parseRange),
  },
  columns: {
    id: column<number>('r.id'),
    code: column<string>('r.code'),
    deviceCode: column<string>('r.device_code'),
    deviceName: textColumn('d.name'),
    faultType: column<string>('r.fault_type'),
    description: column<string>('r.description'),
    contactPhone: column<string>('r.contact_phone'),
    reporterName: textColumn('u.user_name'),
    organizationCode: column<string>('r.organization_code'),
    organizationName: column<string>('org.name'),
    state: column<string>('r.state'),
    orderCode: textColumn('o.code'),
    orderState: textColumn('o.state'),
    convertTime: timeColumn('r.converted_at'),
    createTime: timeColumn('r.created_at'),
    // A manager converts or deletes a report still pending.
    canConvert: derived((row, context) => managesWork(context) && row.state === 'pending'),
    canDelete: derived((row, context) => managesWork(context) && row.state === 'pending'),
  },
  sorts: ['code', 'createTime', 'convertTime'],
  fallback: 'r.created_at DESC, r.id DESC',
});
type ReportRecord = ItemOf<typeof REPORTS>;

/** The report `code` within the work scope ("404" 故障上报不存在 otherwise), locked first when asked (in a transaction, `db`). */
async function findReport(context: OperationContext<unknown>, scope: WorkScope, code: string, db: Queryable = context.db, lock = false): Promise<ReportRecord> {
  const where = new Conditions().add('r.code = $?', code);
  where.add(workScopeClause(scope, where.params, 'r', 'reporter_id'));
  if (lock) await db.query(`SELECT 1 FROM repair_report r WHERE ${where.sql} FOR UPDATE`, where.params);
  const report = await REPORTS.find(context, where, '', db);
  if (!report) throw fail.notFound('故障上报不存在');
  return report;
}

export const repairReportOperations = [
  defineOperation('repair.report.page', {
    paramSchema: REPORTS.paramSchema,
    handler: (context) => REPORTS.page(context),
  }),

  defineOperation('repair.report.detail', {
    paramSchema: objectOf({ code: workCodeSchema }, ['code']),
    handler: async (context) => findReport(context, await workScope(context), context.param.code),
  }),

  defineOperation('repair.report.insert', {
    paramSchema: objectOf(
      { report: objectOf({ deviceCode: deviceCode, faultType: enumOf(FAULT_TYPES), description: plainText(1000), contactPhone: phoneOrEmpty }, ['deviceCode', 'faultType', 'description']) },
      ['report'],
    ),
    handler: async (context) => {
      const scope = await workScope(context);
      const { report } = context.param;
      return context.db.transaction(async (tx) => {
        const device = await findWorkDevice(tx, scope, report.deviceCode);
        const place = await placeOrder(tx, scope, device.organization_code);
        const id = await nextId(tx, 'repair_report');
        const code = workCode(CODE_PREFIX.report, id, context.now, context.config.timeZone);
        await tx.query(
          `INSERT INTO repair_report (id, code, tenant_code, organization_code, device_code, fault_type, description, contact_phone, reporter_id, state, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10)`,
          [id, code, place.tenantCode, place.organizationCode, device.code, report.faultType, report.description, report.contactPhone ?? '', callerOf(context).userId, context.now],
        );
        return { code };
      });
    },
  }),

  defineOperation('repair.report.delete', {
    paramSchema: objectOf({ code: workCodeSchema }, ['code']),
    handler: async (context) => {
      const scope = await workScope(context);
      if (!manages(scope)) throw fail.forbidden();
      await context.db.transaction(async (tx) => {
        const row = await findReport(context, scope, context.param.code, tx, true);
        if (row.state !== 'pending') throw fail.conflict('已转工单的故障上报不能删除');
        const deleted = await tx.query<{ id: number }>("DELETE FROM repair_report WHERE id = $1 AND state = 'pending' RETURNING id", [row.id]);
        if (deleted.length === 0) throw fail.conflict('已转工单的故障上报不能删除');
      });
      return null;
    },
  }),

  defineOperation('repair.report.toOrder', {
    paramSchema: objectOf({ code: workCodeSchema, assigneeId: optionalUserId, priority: optionalEnumOf(PRIORITIES), deadline: optionalTime }, ['code']),
    handler: async (context) => {
      const scope = await workScope(context);
      if (!manages(scope)) throw fail.forbidden();
      return context.db.transaction(async (tx) => {
        const report = await findReport(context, scope, context.param.code, tx, true);
        if (report.state !== 'pending') throw fail.conflict('该故障上报已转工单');
        const order = await createRepairOrder(tx, context, scope, {
          title: `${dictLabel('repair_fault_type', report.faultType)}·${report.deviceName || report.deviceCode}`,
          deviceCode: report.deviceCode,
          faultType: report.faultType,
          priority: context.param.priority,
          description: report.description,
          contactName: report.reporterName,
          contactPhone: report.contactPhone,
          deadline: context.param.deadline,
          assigneeId: context.param.assigneeId,
          source: 'report',
          sourceCode: report.code,
        });
        const converted = await tx.query<{ id: number }>("UPDATE repair_report SET state = 'converted', order_id = $2, converted_at = $3 WHERE id = $1 AND state = 'pending' RETURNING id", [
          report.id,
          order.id,
          context.now,
        ]);
        if (converted.length === 0) throw fail.conflict('该故障上报已转工单');
        return { orderCode: order.code };
      });
    },
  }),
];
