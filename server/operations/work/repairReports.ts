import type { Queryable, SqlParam } from '../../db/database';
import { CODE_PREFIX, FAULT_TYPES, PRIORITIES, workCode } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import { callerOf } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, text, plainText, optionalTime, timeRange, enumOf, optionalEnumOf, optionalUserId, parseRange, phoneOrEmpty, workCodeSchema, deviceCode } from '../../core/params';
import { Conditions, containing, pageOf, type Listing } from '../../core/listQuery';
import { createRepairOrder } from './repair';
import { findWorkDevice, manages, organizationFilter, placeOrder, workScope, workScopeClause, type WorkScope } from '../../core/workScope';
import { nextId } from './workOrders';
import { dictLabel } from '../../core/values';

/**
 * Fault reports (故障上报): anyone on the work side reports a faulty device; an administrator turns
 * a report into a repair order (source report) or deletes it. Repair and patrol staff see the
 * reports they made; managers see their organisations'.
 */

interface ReportRow {
  id: number;
  code: string;
  tenant_code: string;
  organization_code: string;
  organization_name: string;
  device_code: string;
  device_name: string | null;
  fault_type: string;
  description: string;
  contact_phone: string;
  reporter_id: number | null;
  reporter_name: string | null;
  state: string;
  order_code: string | null;
  order_state: string | null;
  converted_at: Date | null;
  created_at: Date;
}

const REPORT_FROM = `repair_report r
  JOIN organization org ON org.code = r.organization_code
  LEFT JOIN device d ON d.code = r.device_code
  LEFT JOIN app_user u ON u.id = r.reporter_id
  LEFT JOIN work_order o ON o.id = r.order_id`;
const REPORT_COLUMNS = `r.id, r.code, r.tenant_code, r.organization_code, org.name AS organization_name, r.device_code, d.name AS device_name, r.fault_type,
         r.description, r.contact_phone, r.reporter_id, u.user_name AS reporter_name, r.state, o.code AS order_code, o.state AS order_state,
         r.converted_at, r.created_at`;
const REPORT_SELECT = `
  SELECT ${REPORT_COLUMNS}
    FROM ${REPORT_FROM}`;

function reportRecord(row: ReportRow, scope: WorkScope) {
  const pending = row.state === 'pending';
  return {
    id: row.id,
    code: row.code,
    deviceCode: row.device_code,
    deviceName: row.device_name ?? '',
    faultType: row.fault_type,
    description: row.description,
    contactPhone: row.contact_phone,
    reporterName: row.reporter_name ?? '',
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    state: row.state,
    orderCode: row.order_code ?? '',
    orderState: row.order_state ?? '',
    convertTime: row.converted_at ? row.converted_at.toISOString() : '',
    createTime: row.created_at.toISOString(),
    canConvert: manages(scope) && pending,
    canDelete: manages(scope) && pending,
  };
}

async function findReport(db: Queryable, scope: WorkScope, code: string, lock = false): Promise<ReportRow> {
  const params: SqlParam[] = [code];
  const clause = workScopeClause(scope, params, 'r', 'reporter_id');
  if (lock) await db.query(`SELECT 1 FROM repair_report r WHERE r.code = $1 AND ${clause} FOR UPDATE`, params);
  const [row] = await db.query<ReportRow>(`${REPORT_SELECT} WHERE r.code = $1 AND ${clause}`, params);
  if (!row) throw fail.notFound('故障上报不存在');
  return row;
}

/** The report list: counted and paged over repair_report (and the device, when the keyword reads its name). */
const REPORTS: Listing<ReportRow, ReportRow> = {
  from: REPORT_FROM,
  narrowFrom: (needed) => (/\bd\./.test(needed) ? 'repair_report r LEFT JOIN device d ON d.code = r.device_code' : 'repair_report r'),
  key: 'r.id',
  columns: REPORT_COLUMNS,
  sorts: { code: 'r.code', createTime: 'r.created_at', convertTime: 'r.converted_at' },
  fallback: 'r.created_at DESC, r.id DESC',
  record: (row) => row,
};

export const repairReportOperations = [
  defineOperation('repair.report.page', {
    paramSchema: objectOf({
      keyword: text(64),
      state: optionalEnumOf(['pending', 'converted']),
      faultType: optionalEnumOf(FAULT_TYPES),
      organizationCode: text(64),
      createTime: timeRange,
    }),
    handler: async (context) => {
      const scope = await workScope(context);
      const filter = context.param;
      const where = new Conditions();
      where
        .add(workScopeClause(scope, where.params, 'r', 'reporter_id'))
        .when(filter.keyword, "(r.code ILIKE $? OR r.device_code ILIKE $? OR r.description ILIKE $? OR coalesce(d.name, '') ILIKE $?)", (v) => containing(String(v)))
        .when(filter.state, 'r.state = $?')
        .when(filter.faultType, 'r.fault_type = $?');
      if (filter.organizationCode) where.add('r.organization_code = ANY($?::text[])', await organizationFilter(context.db, scope, filter.organizationCode));
      if (filter.createTime) {
        const [start, end] = parseRange(filter.createTime, 'createTime', context.config.timeZone);
        where.add('r.created_at >= $?', start).add('r.created_at <= $?', end);
      }
      const page = await pageOf(context, REPORTS, where);
      return { ...page, records: page.records.map((row) => reportRecord(row, scope)) };
    },
  }),

  defineOperation('repair.report.detail', {
    paramSchema: objectOf({ code: workCodeSchema }, ['code']),
    handler: async (context) => {
      const scope = await workScope(context);
      return reportRecord(await findReport(context.db, scope, context.param.code), scope);
    },
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
        const row = await findReport(tx, scope, context.param.code, true);
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
        const report = await findReport(tx, scope, context.param.code, true);
        if (report.state !== 'pending') throw fail.conflict('该故障上报已转工单');
        const order = await createRepairOrder(tx, context, scope, {
          title: `${dictLabel('repair_fault_type', report.fault_type)}·${report.device_name ?? report.device_code}`,
          deviceCode: report.device_code,
          faultType: report.fault_type,
          priority: context.param.priority,
          description: report.description,
          contactName: report.reporter_name ?? '',
          contactPhone: report.contact_phone,
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
