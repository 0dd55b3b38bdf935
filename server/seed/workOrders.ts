import type { Row, SeedData } from '../db/bulk';
import { CODE_PREFIX, workCode } from '../domain/workOrders';
import type { DeviceTables } from './devices';
import { fieldWork } from './fieldWork';
import type { Random } from './prng';
import { faultReports, patrolTasks, repairBatches, repairsByHand, type SourceTables } from './workSources';
import { WorkWorld, type BatchDraft, type OrderDraft } from './workWorld';
import { iso } from './clock';

/**
 * The demo world's work (issue 6): repair orders in every state (by hand, from alarms, fault
 * reports, patrols and repair batches) with their full history, fault reports, repair batches,
 * patrol tasks with their checks, construction, survey and maintenance orders. The demo repair,
 * patrol and implementer accounts hold work of their own in every state, beside other
 * implementers' work they must not see. Everything happens before `today`, except plans ahead.
 * Who works where and how much is ./fixtures/work.ts; the sources of repair orders are
 * ./workSources.ts, the field work ./fieldWork.ts.
 */

function orderRow(order: OrderDraft, timeZone: string): Row {
  const last = order.steps[order.steps.length - 1];
  return {
    id: order.id,
    code: workCode(CODE_PREFIX[order.type], order.id, new Date(order.createdAt), timeZone),
    type: order.type,
    title: order.title,
    description: order.description,
    state: last.to,
    source: order.source,
    source_code: order.sourceCode,
    priority: order.priority,
    fault_type: order.faultType,
    maintenance_type: order.maintenanceType,
    tenant_code: order.tenantCode,
    organization_code: order.organizationCode,
    device_code: order.deviceCode,
    address: order.address,
    contact_name: order.contactName,
    contact_phone: order.contactPhone,
    batch_id: order.batch?.id ?? null,
    creator_id: order.creatorId,
    assignee_id: order.assigneeId,
    plan_start_at: order.planStart === null ? null : iso(order.planStart),
    deadline_at: order.deadline === null ? null : iso(order.deadline),
    assigned_at: null,
    accepted_at: null,
    started_at: null,
    completed_at: null,
    audited_at: null,
    closed_at: null,
    result: '',
    fault_cause: '',
    cost: null,
    audit_state: null,
    audit_opinion: '',
    reject_reason: '',
    close_reason: '',
    form_template_id: order.formTemplateId,
    form_data: order.formData,
    ...order.fields,
    created_at: iso(order.createdAt),
    updated_at: iso(last.at),
  };
}

const batchRow = (batch: BatchDraft): Row => ({
  id: batch.id,
  code: batch.code,
  name: batch.name,
  tenant_code: batch.tenantCode,
  organization_code: batch.organizationCode,
  fault_type: batch.faultType,
  priority: batch.priority,
  description: batch.description,
  creator_id: batch.creatorId,
  assignee_id: batch.assigneeId,
  deadline_at: iso(batch.deadline),
  created_at: iso(batch.createdAt),
});

/** Ids and codes follow creation time, as they would have been given; the reports and checks then name their orders. */
function numberOrders(orders: OrderDraft[], sources: SourceTables): void {
  orders.sort((a, b) => a.createdAt - b.createdAt);
  orders.forEach((order, index) => {
    order.id = index + 1;
  });
  for (const { row, order } of sources.reportDrafts) if (order) row.order_id = order.id;
  sources.patrolRecords.sort((a, b) => String(a.row.checked_at).localeCompare(String(b.row.checked_at)));
  sources.patrolRecords.forEach(({ row, order }, index) => {
    row.id = index + 1;
    row.repair_order_id = order ? order.id : null;
  });
}

export function workOrdersTables(random: Random, today: Date, fleet: DeviceTables, timeZone: string): SeedData {
  const world = new WorkWorld(random, today.getTime(), timeZone, fleet);
  repairsByHand(world);
  const reportDrafts = faultReports(world);
  const batches = repairBatches(world);
  const { tasks, devices, records } = patrolTasks(world);
  fieldWork(world);
  const sources: SourceTables = { reportDrafts, patrolRecords: records };
  numberOrders(world.orders, sources);
  const historyRows: Row[] = [];
  for (const order of world.orders)
    for (const step of order.steps)
      historyRows.push({
        id: historyRows.length + 1,
        order_id: order.id,
        action: step.action,
        from_state: step.from,
        to_state: step.to,
        operator_id: step.operatorId,
        remark: step.remark,
        created_at: iso(step.at),
      });
  return [
    { table: 'repair_batch', rows: batches.map(batchRow) },
    { table: 'work_order', rows: world.orders.map((order) => orderRow(order, timeZone)) },
    { table: 'work_order_history', rows: historyRows },
    { table: 'repair_report', rows: reportDrafts.map(({ row }) => row) },
    { table: 'patrol_task', rows: tasks },
    { table: 'patrol_task_device', rows: devices },
    { table: 'patrol_record', rows: records.map(({ row }) => row) },
  ];
}
