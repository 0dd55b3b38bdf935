import type { Queryable } from '../../db/database';
import { businessDayStamp } from '../../domain/businessTime';
import { ALARM_LEVEL_LABELS, ALARM_STATE_LABELS, ALARM_STATES, ALARM_TYPE_LABELS, conditionText, OPEN_ALARM_STATES, type AlarmState, type AlarmType } from '../../domain/alarms';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation, type OperationDefinition } from '../../core/operation';
import { enumOf, objectOf, text, optionalPlainText, plainText } from '../../core/params';
import { Conditions } from '../../core/listQuery';
import { column, derived, listing, textColumn, timeColumn, type Column, type ItemOf } from '../../core/listing';
import { deviceScope, type DeviceScope } from '../../core/deviceScope';
import { ALARM_FILTERS, alarmNarrowFrom, alarmScope, type AlarmSource } from '../../core/alarmRecords';
import { rangeOf, rangeProperties } from './tenancy';
import { timeCell } from './workScope';

/**
 * Alarm records (告警记录, raised by devices under a tenant's rules) and monitoring alarms (监控告警,
 * raised by the platform's own monitoring): lists, details, exports and handling. Both live in
 * alarm_record, told apart by `source`; each list and handle operation sees only its own source.
 * Everything is limited to the device scope through the record's organisation.
 */

/** When the alarm stopped being open: recovered, or handled to an end (the row's times as the driver read them). */
function closedAt(row: Readonly<Record<string, unknown>>): Date | null {
  if (row.recoveredAt) return row.recoveredAt as Date;
  if (row.state === 'resolved' || row.state === 'ignored') return row.handledAt as Date | null;
  return null;
}

/** Who handled the alarm: the user's name, or the login when no user has it any more. */
const handlerName: Column<string> = {
  sql: '(SELECT user_name FROM app_user WHERE login_name = a.handled_by)',
  read: (name: string | null, row) => name ?? (row.handledBy as string | null) ?? '',
};

/**
 * The alarms of one source: counted and paged over alarm_record alone (every alarm has its device,
 * a foreign key: the device is joined only when a filter reads it); the device, product,
 * organisation, rule and handler are joined for the page's rows. The product, organisation, rule
 * and handler are looked up one by one rather than joined: each table joined costs PostgreSQL
 * planning time on every page (1.4 ms for this six-table join against 0.7 ms to run it,
 * 100,000-device world), a lookup a few microseconds (issue 19). The scope and filters are
 * core/alarmRecords.ts's, which the alarm figures of 工作台 and 设备看板 count under too.
 */
const ALARM_LIST = {
  from: 'alarm_record a JOIN device d ON d.code = a.device_code',
  narrowFrom: alarmNarrowFrom,
  key: 'a.id',
  columns: {
    id: column<number>('a.id'),
    code: column<string>('a.code'),
    ruleCode: textColumn('(SELECT code FROM alarm_rule WHERE id = a.rule_id)'),
    ruleName: textColumn('(SELECT name FROM alarm_rule WHERE id = a.rule_id)'),
    deviceCode: column<string>('a.device_code'),
    deviceName: column<string>('d.name'),
    productCode: column<string>('d.product_code'),
    productName: column<string>('(SELECT name FROM product WHERE code = d.product_code)'),
    organizationCode: column<string>('a.organization_code'),
    organizationName: column<string>('(SELECT name FROM organization WHERE code = a.organization_code)'),
    alarmType: column<string>('a.alarm_type'),
    level: column('a.level', (level: number) => String(level)),
    state: column<AlarmState>('a.state'),
    open: derived((row) => OPEN_ALARM_STATES.includes(row.state as AlarmState)),
    title: column<string>('a.title'),
    content: column<string>('a.content'),
    metricValue: column('a.metric_value::text', (value: string | null) => (value === null ? null : Number(value))),
    triggeredAt: timeColumn('a.triggered_at'),
    recoveredAt: timeColumn('a.recovered_at'),
    durationSeconds: derived((row, context) => Math.max(0, Math.round(((closedAt(row) ?? context.now).getTime() - (row.triggeredAt as Date).getTime()) / 1000))),
    handledBy: textColumn('a.handled_by'),
    handledByName: handlerName,
    handledAt: timeColumn('a.handled_at'),
    handleRemark: textColumn('a.handle_remark'),
    repairOrderCode: textColumn('a.repair_order_code'),
    source: column<AlarmSource>('a.source'),
  },
  sorts: { code: 'a.code', triggeredAt: 'a.triggered_at', level: 'a.level', state: 'a.state', deviceCode: 'a.device_code', handledAt: 'a.handled_at', recoveredAt: 'a.recovered_at' },
  fallback: 'a.triggered_at DESC, a.id DESC',
};
/** An alarm as a detail or a change reads it (neither scope nor filters). */
const ALARMS = listing({ ...ALARM_LIST, filters: {} });
/** The list of each source, as it pages and exports. */
const ALARM_LISTS = {
  device: listing({ ...ALARM_LIST, scope: alarmScope('device'), filters: ALARM_FILTERS }),
  monitoring: listing({ ...ALARM_LIST, scope: alarmScope('monitoring'), filters: ALARM_FILTERS }),
};

type AlarmRecord = ItemOf<typeof ALARMS>;


/**
 * The record `code` of `source` within scope ("404" otherwise: another tenant's alarm does not
 * exist). The scope is settled beforehand: inside a transaction only `db` may be queried.
 */
async function findRecord(context: OperationContext<unknown>, scope: DeviceScope, source: AlarmSource, code: string, db: Queryable = context.db): Promise<AlarmRecord> {
  const where = new Conditions().scope(scope, 'a', { tenant: 'tenant_code' }).add('a.source = $?', source).add('a.code = $?', code);
  const row = await ALARMS.find(context, where, '', db);
  if (!row) throw fail.notFound(source === 'device' ? '告警记录不存在' : '监控告警不存在');
  return row;
}

/**
 * A record with its rule's condition and its device's current state. Flat on purpose: the handle
 * forms load it (the device's other alarms are a list of their own, filtered by deviceCode).
 */
async function detailOf(context: OperationContext<{ code: string }>, source: AlarmSource) {
  const row = await findRecord(context, await deviceScope(context), source, context.param.code);
  const [history] = await context.db.query<{ count: number }>('SELECT count(*)::int AS count FROM alarm_record WHERE device_code = $1 AND source = $2', [row.deviceCode, source]);
  const [device] = await context.db.query<{
    online_state: string;
    health_state: string;
    battery_level: number | null;
    signal_strength: number | null;
    temperature: string | null;
    address: string;
    last_seen_at: Date | null;
  }>('SELECT online_state, health_state, battery_level, signal_strength, temperature::text AS temperature, address, last_seen_at FROM device WHERE code = $1', [row.deviceCode]);
  const [rule] = row.ruleCode
    ? await context.db.query<{ metric: string; operator: string; threshold: string; duration_minutes: number }>(
        'SELECT metric, operator, threshold::text AS threshold, duration_minutes FROM alarm_rule WHERE code = $1',
        [row.ruleCode],
      )
    : [];
  return {
    ...row,
    condition: rule ? conditionText(rule.metric, rule.operator, Number(rule.threshold), rule.duration_minutes) : '',
    deviceOnlineState: device?.online_state ?? '',
    deviceHealthState: device?.health_state ?? '',
    deviceBatteryLevel: device?.battery_level ?? null,
    deviceSignalStrength: device?.signal_strength ?? null,
    deviceTemperature: device?.temperature === null || device?.temperature === undefined ? null : Number(device.temperature),
    deviceAddress: device?.address ?? '',
    deviceLastSeenAt: device?.last_seen_at?.toISOString() ?? '',
    deviceAlarmCount: history.count,
  };
}

async function exportRecords(context: OperationContext<Parameters<typeof ALARM_LISTS.device.rows>[0]['param']>, source: AlarmSource) {
  const rows = await ALARM_LISTS[source].rows(context);
  return exportFile(
    context,
    source === 'device' ? '告警记录' : '监控告警',
    [
      { title: '告警编号', value: (r: AlarmRecord) => r.code, width: 20 },
      { title: '告警标题', value: (r) => r.title, width: 20 },
      { title: '告警类型', value: (r) => ALARM_TYPE_LABELS[r.alarmType as AlarmType] ?? r.alarmType },
      { title: '告警等级', value: (r) => ALARM_LEVEL_LABELS[Number(r.level)] ?? r.level, width: 10 },
      { title: '状态', value: (r) => ALARM_STATE_LABELS[r.state] ?? r.state, width: 10 },
      { title: '设备编码', value: (r) => r.deviceCode },
      { title: '设备名称', value: (r) => r.deviceName },
      { title: '产品', value: (r) => r.productName, width: 20 },
      { title: '所属组织', value: (r) => r.organizationName, width: 20 },
      { title: '告警内容', value: (r) => r.content, width: 60 },
      { title: '触发时间', value: (r) => timeCell(r.triggeredAt), width: 20 },
      { title: '恢复时间', value: (r) => timeCell(r.recoveredAt), width: 20 },
      { title: '处理人', value: (r) => r.handledByName },
      { title: '处理时间', value: (r) => timeCell(r.handledAt), width: 20 },
      { title: '处理说明', value: (r) => r.handleRemark, width: 30 },
      { title: '维修工单', value: (r) => r.repairOrderCode },
    ],
    rows,
  );
}

type HandleResult = 'resolved' | 'ignored';
const handleFields = {
  state: enumOf(['resolved', 'ignored']),
  remark: plainText(200),
};

/** Closes open alarms (pending or processing) as resolved or ignored; answers how many it closed. */
async function closeAlarms(db: Queryable, ids: number[], state: HandleResult, remark: string, by: string, now: Date): Promise<number> {
  const closed = await db.query<{ id: number }>(
    `UPDATE alarm_record SET state = $2, handle_remark = $3, handled_by = $4, handled_at = $5
      WHERE id = ANY($1::int[]) AND state = ANY($6::text[]) RETURNING id`,
    [ids, state, remark, by, now, [...OPEN_ALARM_STATES]],
  );
  return closed.length;
}

function handleOperation(name: string, source: AlarmSource): OperationDefinition {
  return defineOperation(name, {
    paramSchema: objectOf({ code: text(32, 1), ...handleFields }, ['code', 'state', 'remark']),
    handler: async (context) => {
      const { code, state, remark } = context.param;
      const scope = await deviceScope(context);
      return context.db.transaction(async (tx) => {
        const row = await findRecord(context, scope, source, code, tx);
        if (!OPEN_ALARM_STATES.includes(row.state)) throw fail.conflict('该告警已处理');
        // Conditional on the alarm being open still: of two handlings at once only one closes it.
        const closed = await closeAlarms(tx, [row.id], state, remark, callerOf(context).loginName, context.now);
        if (closed === 0) throw fail.conflict('该告警已处理');
        return { code, state };
      });
    },
  });
}

/** The next repair order number of a business day: WO + yyyymmdd + a serial (WO202611220048). */
async function nextRepairOrderCode(db: Queryable, now: Date, timeZone: string): Promise<string> {
  const prefix = `WO${businessDayStamp(now, timeZone)}`;
  const [row] = await db.query<{ serial: number }>(
    `SELECT COALESCE(max(substring(repair_order_code FROM 11)::int), 0) + 1 AS serial FROM alarm_record WHERE repair_order_code ~ ('^' || $1 || '[0-9]+$')`,
    [prefix],
  );
  return `${prefix}${String(row.serial).padStart(4, '0')}`;
}

interface Statistics {
  startTime?: string;
  endTime?: string;
  source?: AlarmSource;
}

/** Alarm counts by level and state within the scope and a time range (the last 30 days by default). */
async function statistics(context: OperationContext<Statistics>) {
  const [start, end] = rangeOf(context.param, context.now, 30, context.config.timeZone);
  const where = new Conditions().scope(await deviceScope(context), 'a', { tenant: 'tenant_code' }).add('a.triggered_at >= $?', start).add('a.triggered_at <= $?', end);
  if (context.param.source) where.add('a.source = $?', context.param.source);
  const rows = await context.db.query<{ level: number; state: AlarmState; count: number }>(
    `SELECT a.level, a.state, count(*)::int AS count FROM alarm_record a WHERE ${where.sql} GROUP BY 1, 2`,
    where.params,
  );
  const byLevel = [1, 2, 3, 4].map((level) => ({ level: String(level), name: ALARM_LEVEL_LABELS[level], count: rows.filter((r) => r.level === level).reduce((s, r) => s + r.count, 0) }));
  const byState = ALARM_STATES.map((state) => ({ state, name: ALARM_STATE_LABELS[state], count: rows.filter((r) => r.state === state).reduce((s, r) => s + r.count, 0) }));
  const total = rows.reduce((sum, row) => sum + row.count, 0);
  const stateCount = (state: AlarmState) => byState.find((s) => s.state === state)!.count;
  const closed = stateCount('resolved') + stateCount('recovered') + stateCount('ignored');
  return {
    startTime: start.toISOString(),
    endTime: end.toISOString(),
    total,
    level1: byLevel[0].count,
    level2: byLevel[1].count,
    level3: byLevel[2].count,
    level4: byLevel[3].count,
    pending: stateCount('pending'),
    processing: stateCount('processing'),
    resolved: stateCount('resolved'),
    recovered: stateCount('recovered'),
    ignored: stateCount('ignored'),
    open: stateCount('pending') + stateCount('processing'),
    closedRate: total ? Math.round((closed / total) * 1000) / 10 : 0,
    byLevel,
    byState,
  };
}

/** page, detail, export and handle of one source of alarms. */
function sourceOperations(source: AlarmSource, names: { page: string; detail: string; export: string; handle: string }): OperationDefinition[] {
  return [
    defineOperation(names.page, {
      paramSchema: ALARM_LISTS[source].paramSchema,
      handler: (context) => ALARM_LISTS[source].page(context),
    }),
    defineOperation(names.detail, {
      paramSchema: objectOf({ code: text(32, 1) }, ['code']),
      handler: (context) => detailOf(context, source),
    }),
    defineOperation(names.export, {
      paramSchema: ALARM_LISTS[source].paramSchema,
      handler: (context) => exportRecords(context, source),
    }),
    handleOperation(names.handle, source),
  ];
}

export const alarmRecordOperations: OperationDefinition[] = [
  ...sourceOperations('device', { page: 'alarm.record.page', detail: 'alarm.record.detail', export: 'alarm.record.export', handle: 'alarm.record.handle' }),
  ...sourceOperations('monitoring', { page: 'monitoring.alarm.page', detail: 'monitoring.alarm.detail', export: 'monitoring.alarm.export', handle: 'monitoring.alarm.handle' }),

  defineOperation('alarm.record.batchHandle', {
    paramSchema: objectOf({ codes: { type: 'array', minItems: 1, maxItems: 200, uniqueItems: true, items: text(32, 1) }, ...handleFields }, ['codes', 'state', 'remark']),
    handler: async (context) => {
      const { codes, state, remark } = context.param;
      const scope = await deviceScope(context);
      return context.db.transaction(async (tx) => {
        const rows: AlarmRecord[] = [];
        for (const code of codes) rows.push(await findRecord(context, scope, 'device', code, tx));
        const open = rows.filter((row) => OPEN_ALARM_STATES.includes(row.state));
        if (open.length === 0) throw fail.conflict('所选告警均已处理');
        // What was really closed counts (RETURNING), not what was read open: a concurrent handling may have closed some.
        const handled = await closeAlarms(tx, open.map((row) => row.id), state, remark, callerOf(context).loginName, context.now);
        if (handled === 0) throw fail.conflict('所选告警均已处理');
        return { handled, skipped: codes.length - handled };
      });
    },
  }),

  defineOperation('alarm.record.toRepair', {
    paramSchema: objectOf({ code: text(32, 1), remark: optionalPlainText(200) }, ['code']),
    handler: async (context) => {
      const { code, remark } = context.param;
      const scope = await deviceScope(context);
      return context.db.transaction(async (tx) => {
        const row = await findRecord(context, scope, 'device', code, tx);
        if (row.repairOrderCode) throw fail.conflict('该告警已转维修工单');
        if (!OPEN_ALARM_STATES.includes(row.state)) throw fail.conflict('该告警已处理');
        const repairOrderCode = await nextRepairOrderCode(tx, context.now, context.config.timeZone);
        // Only an open alarm not yet sent to repair moves: of two at once only one gets a repair order.
        const moved = await tx.query<{ id: number }>(
          `UPDATE alarm_record SET state = 'processing', repair_order_code = $2, handled_by = $3, handled_at = $4, handle_remark = $5
            WHERE id = $1 AND state = ANY($6::text[]) AND repair_order_code IS NULL RETURNING id`,
          [row.id, repairOrderCode, callerOf(context).loginName, context.now, remark || '已转维修工单，等待现场处理', [...OPEN_ALARM_STATES]],
        );
        if (moved.length === 0) throw fail.conflict('该告警已转维修工单');
        return { code, repairOrderCode, state: 'processing' };
      });
    },
  }),

  defineOperation('alarm.statistics', {
    paramSchema: objectOf({ ...rangeProperties, source: enumOf(['device', 'monitoring']) }),
    handler: statistics,
  }),
];
