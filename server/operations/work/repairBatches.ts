import type { Queryable, SqlParam } from '../../db/database';
import { CODE_PREFIX, FAULT_TYPES, FINISHED_STATES, PRIORITIES, workCode } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, schemaOf, text, type ParamOf, optionalPlainText, plainText, optionalTime, timeRange, enumOf, optionalEnumOf, optionalUserId, parseRange, workCodeSchema, deviceCode } from '../../core/params';
import { Conditions, containing, exportOf, orderBy, pageOf, pageOfItems, type Listing } from '../../core/listQuery';
import { tenantOf } from '../../domain/organizations';
import { createRepairOrder, futureDeadline, repairRecord } from './repair';
import { findWorkDevices, manages, organizationFilter, workScope, workScopeClause, type WorkScope } from '../../core/workScope';
import { ORDER_FILTER_SCHEMA, nextId, orderPage } from './workOrders';
import { actorOf, checkAssignee, orderWhere, type OrderFilter } from '../../core/workOrders';
import { dictLabel } from '../../core/values';

/**
 * Repair batches (批量维修): one repair order per device, created and followed together, and the
 * repair summary (维修汇总) over all repair orders. An implementer sees the batches holding orders
 * assigned to them, and in them only those orders.
 */

interface BatchRow {
  id: number;
  code: string;
  name: string;
  tenant_code: string;
  organization_code: string;
  organization_name: string;
  fault_type: string;
  priority: string;
  description: string;
  creator_name: string | null;
  assignee_name: string | null;
  deadline_at: Date | null;
  created_at: Date;
  device_count: number;
  pending_count: number;
  processing_count: number;
  done_count: number;
}

const BATCH_SORTS = { code: 'b.code', createTime: 'b.created_at', deadline: 'b.deadline_at', deviceCount: 'c.device_count' };

/**
 * Batches visible in the scope (added to `where`: managers by the batch's tenant and organisation,
 * staff the batches of their tenant holding an order assigned to them), with the counts of the
 * orders the scope sees in each. The count and the page's choice of rows read repair_batch alone
 * (with the counts when the order is by them).
 */
function batchListing(scope: WorkScope, where: Conditions): Listing<BatchRow, BatchRow> {
  let mine = 'TRUE';
  if (scope.kind === 'own') {
    const tenant = where.ref(scope.tenantCode);
    mine = `o.assignee_id = ${where.ref(scope.userId)}`;
    where.add(`b.tenant_code = ${tenant} AND EXISTS (SELECT 1 FROM work_order o WHERE o.batch_id = b.id AND ${mine})`);
  } else {
    where.scope(scope, 'b', { tenant: 'tenant_code' });
  }
  const counts = `LEFT JOIN LATERAL (
      SELECT count(*)::int AS device_count,
             count(*) FILTER (WHERE o.state IN ('created', 'assigned', 'rejected'))::int AS pending_count,
             count(*) FILTER (WHERE o.state IN ('accepted', 'in_progress'))::int AS processing_count,
             count(*) FILTER (WHERE o.state IN ('completed', 'audited', 'closed'))::int AS done_count
        FROM work_order o WHERE o.batch_id = b.id AND ${mine}
    ) c ON TRUE`;
  return {
    from: `repair_batch b
    JOIN organization org ON org.code = b.organization_code
    LEFT JOIN app_user cu ON cu.id = b.creator_id
    LEFT JOIN app_user au ON au.id = b.assignee_id
    ${counts}`,
    narrowFrom: (needed) => (/\bc\./.test(needed) ? `repair_batch b ${counts}` : 'repair_batch b'),
    key: 'b.id',
    columns: `b.id, b.code, b.name, b.tenant_code, b.organization_code, org.name AS organization_name, b.fault_type, b.priority, b.description,
              cu.user_name AS creator_name, au.user_name AS assignee_name, b.deadline_at, b.created_at,
              c.device_count, c.pending_count, c.processing_count, c.done_count`,
    sorts: BATCH_SORTS,
    fallback: 'b.created_at DESC, b.id DESC',
    record: (row) => row,
  };
}

function batchRecord(row: BatchRow) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    faultType: row.fault_type,
    priority: row.priority,
    description: row.description,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    creatorName: row.creator_name ?? '',
    assigneeName: row.assignee_name ?? '',
    deadline: row.deadline_at ? row.deadline_at.toISOString() : '',
    createTime: row.created_at.toISOString(),
    deviceCount: row.device_count,
    pendingCount: row.pending_count,
    processingCount: row.processing_count,
    doneCount: row.done_count,
    progress: row.device_count === 0 ? 0 : Math.round((row.done_count / row.device_count) * 1000) / 1000,
  };
}

const batchFilterSchema = objectOf({
  keyword: text(64),
  faultType: optionalEnumOf(FAULT_TYPES),
  priority: optionalEnumOf(PRIORITIES),
  organizationCode: text(64),
  createTime: timeRange,
});
type BatchFilter = ParamOf<typeof batchFilterSchema>;

/** The batch list's listing and WHERE (scope, then each filter given). */
async function batchQuery(context: OperationContext<BatchFilter>, scope: WorkScope): Promise<{ listing: Listing<BatchRow, BatchRow>; where: Conditions }> {
  const where = new Conditions();
  const listing = batchListing(scope, where);
  const filter = context.param;
  where
    .when(filter.keyword, '(b.code ILIKE $? OR b.name ILIKE $?)', (v) => containing(String(v)))
    .when(filter.faultType, 'b.fault_type = $?')
    .when(filter.priority, 'b.priority = $?');
  if (filter.organizationCode) where.add('b.organization_code = ANY($?::text[])', await organizationFilter(context.db, scope, filter.organizationCode));
  if (filter.createTime) {
    const [start, end] = parseRange(filter.createTime, 'createTime', context.config.timeZone);
    where.add('b.created_at >= $?', start).add('b.created_at <= $?', end);
  }
  return { listing, where };
}

async function findBatch(db: Queryable, scope: WorkScope, code: string): Promise<BatchRow> {
  const where = new Conditions();
  const listing = batchListing(scope, where);
  where.add('b.code = $?', code);
  const [row] = await db.query<BatchRow>(`SELECT ${listing.columns} FROM ${listing.from} WHERE ${where.sql}`, where.params);
  if (!row) throw fail.notFound('维修批次不存在');
  return row;
}

/** How many devices one batch takes. */
export const BATCH_DEVICE_LIMIT = 200;

/**
 * The repair summary's groupings (months are business months: the database session is pinned to
 * the business zone): each one's group key over the orders `o`, and its name over the groups `g`
 * (with the join that names it).
 */
const DIMENSIONS = {
  organization: { key: 'o.organization_code', name: 'org.name', join: 'LEFT JOIN organization org ON org.code = g.key' },
  assignee: { key: "coalesce(o.assignee_id::text, '')", name: "coalesce(au.user_name, '未指派')", join: "LEFT JOIN app_user au ON au.id = nullif(g.key, '')::int" },
  faultType: { key: "coalesce(o.fault_type, '')", name: 'g.key', join: '' },
  month: { key: "to_char(o.created_at, 'YYYY-MM')", name: 'g.key', join: '' },
} as const;
type Dimension = keyof typeof DIMENSIONS;

type CollectFilter = ParamOf<typeof collectFilterSchema>;
/** The grouping asked for, by organisation when none is (the schema admits DIMENSIONS' keys only). */
const dimensionOf = (filter: CollectFilter): Dimension => (filter.dimension || 'organization') as Dimension;

interface CollectRow {
  key: string;
  name: string;
  total: number;
  pending: number;
  processing: number;
  completed: number;
  closed: number;
  overdue: number;
  avg_seconds: number | null;
  total_cost: string | null;
}

const COLLECT_SORTS = { total: 'total', completed: 'completed', overdue: 'overdue', totalCost: 'total_cost', completionRate: 'completion_rate', name: 'name' };

/**
 * The repair summary's groupings over repair_order_tally `t` (migration 111): the same keys as
 * DIMENSIONS gives over the orders (no assignee and no fault type are kept as 0 and '').
 */
const TALLY_KEYS: Record<Dimension, string> = {
  organization: 't.organization_code',
  assignee: "CASE WHEN t.assignee_id = 0 THEN '' ELSE t.assignee_id::text END",
  faultType: 't.fault_type',
  month: 't.month',
};

/** The open repair orders, written as repair_order_open_deadline_idx's predicate (a parameter would not match it). */
const OPEN_REPAIR_ORDER = `o.type = 'repair' AND o.state NOT IN (${FINISHED_STATES.map((state) => `'${state}'`).join(', ')})`;

/**
 * The repair summary as a listing: one row per group of the repair orders in scope, sorted among
 * the groups. Without a creation-time filter the groups come from repair_order_tally (migration
 * 111: a few rows per organisation, assignee, fault type, month and state, kept by triggers) and
 * 已超期 from the open orders past their deadline (repair_order_open_deadline_idx); with one, the
 * orders themselves are grouped (work_order_tenant_summary_idx, migration 093, holds every column
 * read: an index-only scan). The groups are named afterwards, a join per group instead of per order.
 */
async function collectQuery(context: OperationContext<CollectFilter>): Promise<{ listing: Listing<CollectRow, CollectRecord>; where: Conditions }> {
  const scope = await workScope(context);
  const dimensionName = dimensionOf(context.param);
  const dimension = DIMENSIONS[dimensionName];
  const grouped = context.param.createTime ? await groupedOrders(context, scope, dimension.key) : await groupedTally(context, scope, dimensionName);
  const listing: Listing<CollectRow, CollectRecord> = {
    from: `(SELECT g.*, ${dimension.name} AS name FROM (${grouped.sql}) g ${dimension.join}) s`,
    columns: '*',
    sorts: COLLECT_SORTS,
    fallback: 'total DESC, key',
    record: (row) => collectRecord(context, row),
  };
  return { listing, where: new Conditions(grouped.params) };
}

/** The groups counted from the orders (a creation-time filter narrows them to any instant). */
async function groupedOrders(context: OperationContext<CollectFilter>, scope: WorkScope, key: string): Promise<{ sql: string; params: SqlParam[] }> {
  const filter: OrderFilter = { organizationCode: context.param.organizationCode, faultType: context.param.faultType ?? undefined, createTime: context.param.createTime };
  const where = await orderWhere(context.db, scope, 'repair', filter, context.now, context.config.timeZone);
  const now = where.ref(context.now);
  const sql = `
    SELECT ${key} AS key,
           count(*)::int AS total,
           count(*) FILTER (WHERE o.state IN ('created', 'assigned', 'rejected'))::int AS pending,
           count(*) FILTER (WHERE o.state IN ('accepted', 'in_progress'))::int AS processing,
           count(*) FILTER (WHERE o.state IN ('completed', 'audited'))::int AS completed,
           count(*) FILTER (WHERE o.state = 'closed')::int AS closed,
           count(*) FILTER (WHERE o.deadline_at < ${now} AND o.state NOT IN ('completed', 'audited', 'closed'))::int AS overdue,
           avg(extract(epoch FROM o.completed_at - o.created_at)) FILTER (WHERE o.completed_at IS NOT NULL)::float8 AS avg_seconds,
           sum(o.cost)::numeric(12, 2)::text AS total_cost,
           (count(*) FILTER (WHERE o.state IN ('completed', 'audited')))::float8 / count(*) AS completion_rate
      FROM work_order o
     WHERE ${where.sql}
     GROUP BY 1`;
  return { sql, params: where.params };
}

/** The groups read from repair_order_tally, with 已超期 counted from the open orders past their deadline. */
async function groupedTally(context: OperationContext<CollectFilter>, scope: WorkScope, dimension: Dimension): Promise<{ sql: string; params: SqlParam[] }> {
  const params: SqlParam[] = [];
  const tally = new Conditions(params).add(workScopeClause(scope, params, 't'));
  const open = new Conditions(params).add(OPEN_REPAIR_ORDER).add(workScopeClause(scope, params, 'o'));
  if (context.param.organizationCode) {
    const organizations = await organizationFilter(context.db, scope, context.param.organizationCode);
    const codes = tally.ref(organizations);
    tally.add(`t.organization_code = ANY(${codes}::text[])`);
    open.add(`o.organization_code = ANY(${codes}::text[])`);
  }
  if (context.param.faultType) {
    const faultType = tally.ref(context.param.faultType);
    tally.add(`t.fault_type = ${faultType}`);
    open.add(`o.fault_type = ${faultType}`);
  }
  open.add('o.deadline_at < $?', context.now);
  const count = (states: string) => `coalesce(sum(t.orders) FILTER (WHERE t.state IN (${states})), 0)::int`;
  const sql = `
    SELECT k.*, coalesce(od.overdue, 0)::int AS overdue
      FROM (SELECT ${TALLY_KEYS[dimension]} AS key,
                   sum(t.orders)::int AS total,
                   ${count("'created', 'assigned', 'rejected'")} AS pending,
                   ${count("'accepted', 'in_progress'")} AS processing,
                   ${count("'completed', 'audited'")} AS completed,
                   ${count("'closed'")} AS closed,
                   (sum(t.done_seconds) / nullif(sum(t.done_orders), 0))::float8 AS avg_seconds,
                   sum(t.cost)::numeric(12, 2)::text AS total_cost,
                   ${count("'completed', 'audited'")}::float8 / sum(t.orders) AS completion_rate
              FROM repair_order_tally t
             WHERE ${tally.sql}
             GROUP BY 1) k
      LEFT JOIN (SELECT ${DIMENSIONS[dimension].key} AS key, count(*) AS overdue
                   FROM work_order o
                  WHERE ${open.sql}
                  GROUP BY 1) od ON od.key = k.key`;
  return { sql, params };
}

function collectRecord(context: OperationContext<CollectFilter>, row: CollectRow) {
  return {
    key: row.key,
    name: context.param.dimension === 'faultType' ? dictLabel('repair_fault_type', row.name) || '未分类' : row.name,
    total: row.total,
    pending: row.pending,
    processing: row.processing,
    completed: row.completed,
    closed: row.closed,
    overdue: row.overdue,
    completionRate: row.total === 0 ? 0 : Math.round((row.completed / row.total) * 1000) / 1000,
    avgDuration: row.avg_seconds === null ? null : Math.round(row.avg_seconds),
    avgHours: row.avg_seconds === null ? null : Math.round(row.avg_seconds / 360) / 10,
    totalCost: row.total_cost === null ? 0 : Number(row.total_cost),
  };
}
type CollectRecord = ReturnType<typeof collectRecord>;

const collectFilterSchema = objectOf({
  dimension: optionalEnumOf(Object.keys(DIMENSIONS)),
  organizationCode: text(64),
  faultType: optionalEnumOf(FAULT_TYPES),
  createTime: timeRange,
});

const DIMENSION_TITLES: Record<Dimension, string> = { organization: '组织', assignee: '维修人员', faultType: '故障类型', month: '月份' };

export const repairBatchOperations = [
  defineOperation('repair.batch.page', {
    paramSchema: batchFilterSchema,
    handler: async (context) => {
      const { listing, where } = await batchQuery(context, await workScope(context));
      const page = await pageOf(context, listing, where);
      return { ...page, records: page.records.map(batchRecord) };
    },
  }),

  defineOperation('repair.batch.export', {
    paramSchema: batchFilterSchema,
    handler: async (context) => {
      const { listing, where } = await batchQuery(context, await workScope(context));
      const rows = await exportOf(context, listing, where);
      return exportFile(
        context,
        '维修批次',
        [
          { title: '批次编号', value: (r: BatchRow) => r.code, width: 20 },
          { title: '批次名称', value: (r) => r.name, width: 28 },
          { title: '故障类型', value: (r) => dictLabel('repair_fault_type', r.fault_type) },
          { title: '优先级', value: (r) => dictLabel('work_order_priority', r.priority) },
          { title: '所属组织', value: (r) => r.organization_name, width: 22 },
          { title: '设备数', value: (r) => r.device_count },
          { title: '待处理', value: (r) => r.pending_count },
          { title: '处理中', value: (r) => r.processing_count },
          { title: '已完成', value: (r) => r.done_count },
          { title: '负责人', value: (r) => r.assignee_name ?? '' },
          { title: '截止时间', value: (r) => r.deadline_at },
          { title: '创建时间', value: (r) => r.created_at },
        ],
        rows,
      );
    },
  }),

  defineOperation('repair.batch.detail', {
    paramSchema: objectOf({ code: workCodeSchema }, ['code']),
    handler: async (context) => {
      const scope = await workScope(context);
      const row = await findBatch(context.db, scope, context.param.code);
      const params: SqlParam[] = [row.id];
      let mine = '';
      if (scope.kind === 'own') {
        params.push(scope.userId);
        mine = ' AND assignee_id = $2';
      }
      const states = await context.db.query<{ state: string; count: number }>(
        `SELECT state, count(*)::int AS count FROM work_order WHERE batch_id = $1${mine} GROUP BY state ORDER BY array_position(ARRAY['created','assigned','accepted','in_progress','completed','audited','closed','rejected'], state)`,
        params,
      );
      return { ...batchRecord(row), stateCounts: states };
    },
  }),

  defineOperation('repair.batch.insert', {
    paramSchema: objectOf(
      {
        batch: objectOf(
          {
            name: plainText(64),
            faultType: enumOf(FAULT_TYPES),
            priority: optionalEnumOf(PRIORITIES),
            deviceCodes: schemaOf<string[]>({ type: 'array', minItems: 1, maxItems: BATCH_DEVICE_LIMIT, uniqueItems: true, items: deviceCode }),
            assigneeId: optionalUserId,
            deadline: optionalTime,
            description: optionalPlainText(1000),
          },
          ['name', 'faultType', 'deviceCodes'],
        ),
      },
      ['batch'],
    ),
    handler: async (context) => {
      const scope = await workScope(context);
      if (!manages(scope)) throw fail.forbidden();
      const { batch } = context.param;
      const caller = callerOf(context);
      return context.db.transaction(async (tx) => {
        const devices = await findWorkDevices(tx, scope, batch.deviceCodes);
        const tenants = new Set(devices.map((device) => device.tenant_code));
        if (tenants.size !== 1) throw fail.badRequest('同一批次的设备须属于同一租户');
        const [tenantCode] = tenants;
        const deadline = futureDeadline(batch.deadline, context.now, context.config.timeZone);
        if (batch.assigneeId) await checkAssignee(tx, tenantCode, batch.assigneeId, 'repair');
        // The batch sits at the selected organisation when that lies in the devices' tenant.
        const root = context.organizationCode ?? caller.organizationCodes[0] ?? tenantCode;
        const organizationCode = (await tenantOf(tx, root)) === tenantCode ? root : tenantCode;
        const id = await nextId(tx, 'repair_batch');
        const code = workCode(CODE_PREFIX.batch, id, context.now, context.config.timeZone);
        await tx.query(
          `INSERT INTO repair_batch (id, code, name, tenant_code, organization_code, fault_type, priority, description, creator_id, assignee_id, deadline_at, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
          [id, code, batch.name, tenantCode, organizationCode, batch.faultType, batch.priority || 'normal', batch.description ?? '', caller.userId, batch.assigneeId ?? null, deadline, context.now],
        );
        const byCode = new Map(devices.map((device) => [device.code, device]));
        for (const deviceCode of batch.deviceCodes) {
          const device = byCode.get(deviceCode);
          await createRepairOrder(tx, context, scope, {
            title: `${batch.name}·${device?.name ?? deviceCode}`,
            deviceCode,
            faultType: batch.faultType,
            priority: batch.priority,
            description: batch.description ?? '',
            deadline: batch.deadline,
            assigneeId: batch.assigneeId,
            batchId: id,
          });
        }
        return { code, orderCount: batch.deviceCodes.length };
      });
    },
  }),

  defineOperation('repair.batch.device.page', {
    paramSchema: objectOf({ ...ORDER_FILTER_SCHEMA, batchCode: workCodeSchema }, ['batchCode']),
    handler: async (context) => {
      const scope = await workScope(context);
      await findBatch(context.db, scope, context.param.batchCode);
      const page = await orderPage(context, scope, 'repair', context.param);
      return { ...page, records: page.records.map((row) => repairRecord(row, actorOf(context, scope, row), context.now)) };
    },
  }),

  defineOperation('repair.collect.page', {
    paramSchema: collectFilterSchema,
    handler: async (context) => {
      // The groups are few (organisations, staff, fault types, months) and counting them costs the
      // whole grouping: it is read once, in order, and paged here.
      const { listing, where } = await collectQuery(context);
      const rows = await context.db.query<CollectRow>(`SELECT ${listing.columns} FROM ${listing.from} WHERE ${where.sql} ORDER BY ${orderBy(context, listing.sorts, listing.fallback)}`, where.params);
      return pageOfItems(context, rows.map((row) => listing.record(row, context)));
    },
  }),

  defineOperation('repair.collect.export', {
    paramSchema: collectFilterSchema,
    handler: async (context) => {
      const { listing, where } = await collectQuery(context);
      const records = await exportOf(context, listing, where);
      type Summary = (typeof records)[number];
      return exportFile(
        context,
        '维修汇总',
        [
          { title: DIMENSION_TITLES[dimensionOf(context.param)], value: (r: Summary) => r.name, width: 24 },
          { title: '工单总数', value: (r) => r.total },
          { title: '待处理', value: (r) => r.pending },
          { title: '处理中', value: (r) => r.processing },
          { title: '已完成', value: (r) => r.completed },
          { title: '已关闭', value: (r) => r.closed },
          { title: '已超期', value: (r) => r.overdue },
          { title: '完成率', value: (r) => `${(r.completionRate * 100).toFixed(1)}%` },
          { title: '平均处理时长（小时）', value: (r) => r.avgHours },
          { title: '维修费用（元）', value: (r) => r.totalCost },
        ],
        records,
      );
    },
  }),
];
