import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database';
import { ALARM_METRICS, ALARM_TYPE_LABELS, conditionText, withUnit, type AlarmOperator, type AlarmType } from '../domain/alarms';
import { businessDayStamp } from '../domain/businessTime';
import type { DeviceReport } from './reportChecks';
import { notifyAlarms } from './alarmNotices';

/**
 * The alarm rules (告警配置) evaluated on a device's latest reading (issue 22). A rule watches a
 * metric of the devices of its tenant (of one product, or all of them): a reading that crosses the
 * threshold begins an episode (alarm_rule_episode, migration 101); once the breach has lasted the
 * rule's duration one alarm record is raised (告警记录, 待处理), and the rule's channels are told
 * through the outbox; the first reading back within bounds ends the episode and, when the rule
 * recovers automatically, marks its alarm 已恢复 if nobody has handled it yet. Readings that arrive
 * late (not the device's latest) change no episode.
 *
 * A fault rule (故障告警, metric fault_code) is evaluated on a report that carries `faultCodes`: a
 * code that meets the rule's condition (= 12, ≥ 1 for any fault) is the breach, a report whose codes
 * do not (an empty list: the fault is gone) ends it; a report without `faultCodes` changes nothing.
 * Offline rules (离线告警, metric offline_minutes) are raised by the offline sweep
 * (offlineSweep.ts), which knows how long a device has been silent; the device's next report ends
 * their episodes here (endOfflineEpisodes).
 */

export interface EvaluatedDevice {
  id: number;
  code: string;
  name: string;
  tenant_code: string;
  organization_code: string;
  product_code: string;
}

export interface RuleRow {
  id: number;
  name: string;
  alarm_type: AlarmType;
  level: number;
  metric: string;
  operator: AlarmOperator;
  threshold: string;
  duration_minutes: number;
  notify_channels: string[];
  recover_automatically: boolean;
}

/** What a reading did to the rules it was evaluated against. */
export interface AlarmChange {
  ruleId: number;
  change: 'raised' | 'recovered';
  alarmCode: string;
}

/**
 * Where a rule's metric (the alarm_metric dictionary) is read in a report when the names differ:
 * 瞬时流量 is `flow` to the rules and `flowRate` to the devices (server/domain/deviceTelemetry.ts).
 */
const REPORTED_AS: Readonly<Record<string, string>> = { flow: 'flowRate' };

/** The value a rule's metric reads from a report, or undefined when the report does not carry it. */
export function metricValue(report: DeviceReport, metric: string): number | undefined {
  if (metric === 'fault_code') return undefined;
  if (metric === 'temperature') return report.temperature;
  if (metric === 'battery') return report.batteryLevel;
  if (metric === 'signal') return report.signalStrength;
  return report.metrics?.[REPORTED_AS[metric] ?? metric] ?? report.metrics?.[metric];
}

export function breaches(value: number, operator: AlarmOperator, threshold: number): boolean {
  switch (operator) {
    case 'gt':
      return value > threshold;
    case 'ge':
      return value >= threshold;
    case 'lt':
      return value < threshold;
    case 'le':
      return value <= threshold;
    case 'eq':
      return value === threshold;
  }
}

/**
 * What a rule reads of a report, and whether it breaches: a fault rule the first of the report's
 * fault codes that meets its condition (the value is the code; an empty list breaches nothing);
 * any other rule its metric. Undefined when the report does not carry what the rule watches.
 */
export function ruleReading(report: DeviceReport, rule: Pick<RuleRow, 'metric' | 'operator' | 'threshold'>): { value: number; breached: boolean } | undefined {
  const threshold = Number(rule.threshold);
  if (rule.metric === 'fault_code') {
    if (report.faultCodes === undefined) return undefined;
    const code = report.faultCodes.find((candidate) => breaches(candidate, rule.operator, threshold));
    return code === undefined ? { value: 0, breached: false } : { value: code, breached: true };
  }
  const value = metricValue(report, rule.metric);
  return value === undefined ? undefined : { value, breached: breaches(value, rule.operator, threshold) };
}

/** The alarm's title and content as 告警记录 shows them: 温度 41.2℃（阈值告警：温度 > 40℃ 持续 5 分钟）. */
export function alarmText(rule: RuleRow, device: EvaluatedDevice, value: number): { title: string; content: string } {
  const label = (ALARM_METRICS as Record<string, { label: string }>)[rule.metric]?.label ?? rule.metric;
  return {
    title: `${rule.name}：${device.name}`,
    content: `${label} ${withUnit(rule.metric, value)}（${ALARM_TYPE_LABELS[rule.alarm_type]}：${conditionText(rule.metric, rule.operator, Number(rule.threshold), rule.duration_minutes)}）`,
  };
}

/**
 * The next `count` alarm codes of a business day, AL + yyyymmdd + a serial (AL2026112700042), taken
 * under the day's advisory lock so that alarms raised at once by several devices get distinct codes.
 * The lock is held until the transaction ends: a transaction takes its codes once, as late as it can.
 */
export async function nextAlarmCodes(tx: Queryable, now: Date, timeZone: string, count: number): Promise<string[]> {
  const prefix = `AL${businessDayStamp(now, timeZone)}`;
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`alarm-code:${prefix}`]);
  const [row] = await tx.query<{ code: string | null }>(
    "SELECT max(code) AS code FROM alarm_record WHERE code >= $1 AND code < $2 AND code ~ '^AL[0-9]+$'",
    [prefix, `${prefix}~`],
  );
  const last = row?.code ? Number(row.code.slice(prefix.length)) : 0;
  return Array.from({ length: count }, (_, index) => `${prefix}${String(last + 1 + index).padStart(5, '0')}`);
}

/** An episode that has lasted, to be raised (raiseAlarms): its episode's row is taken and still without an alarm. */
export interface DueAlarm {
  rule: RuleRow;
  device: EvaluatedDevice;
  value: number;
  triggeredAt: Date;
  now: Date;
}

/**
 * Raises the alarms of episodes that have lasted, in one transaction and a few statements whatever
 * their number: the records (告警记录, 待处理) written under provisional codes, the episodes pointed
 * at them, the rules' channels told (alarmNotices.ts), and only then the day's code lock taken
 * (nextAlarmCodes) and the codes set in one statement. The lock is held from there to the commit,
 * so transactions that raise alarms wait for each other for a statement or two, not for each
 * other's notices.
 */
export async function raiseAlarms(tx: Queryable, due: readonly DueAlarm[], timeZone: string, log: (line: string) => void): Promise<AlarmChange[]> {
  if (due.length === 0) return [];
  const texts = due.map((alarm) => alarmText(alarm.rule, alarm.device, alarm.value));
  const provisional = due.map(() => `~${randomUUID()}`);
  const records = await tx.query<{ id: number; code: string }>(
    `INSERT INTO alarm_record (code, rule_id, device_code, organization_code, tenant_code, alarm_type, level, state, title, content, metric_value, triggered_at, source, created_at)
     SELECT code, rule_id, device_code, organization_code, tenant_code, alarm_type, level, 'pending', title, content, metric_value, triggered_at, 'device', created_at
       FROM jsonb_to_recordset($1::jsonb) AS v(k int, code text, rule_id int, device_code text, organization_code text, tenant_code text, alarm_type text, level int,
                                               title text, content text, metric_value numeric, triggered_at timestamptz, created_at timestamptz)
      ORDER BY k
     RETURNING id, code`,
    [
      JSON.stringify(
        due.map((alarm, k) => ({
          k,
          code: provisional[k],
          rule_id: alarm.rule.id,
          device_code: alarm.device.code,
          organization_code: alarm.device.organization_code,
          tenant_code: alarm.device.tenant_code,
          alarm_type: alarm.rule.alarm_type,
          level: alarm.rule.level,
          title: texts[k].title,
          content: texts[k].content,
          metric_value: Math.round(alarm.value * 100) / 100,
          triggered_at: alarm.triggeredAt.toISOString(),
          created_at: alarm.now.toISOString(),
        })),
      ),
    ],
  );
  const idOf = new Map(records.map((record) => [record.code, record.id]));
  const ids = provisional.map((code) => idOf.get(code)!);
  await tx.query(
    `UPDATE alarm_rule_episode e SET alarm_record_id = v.id FROM jsonb_to_recordset($1::jsonb) AS v(rule_id int, device_id int, id int)
      WHERE e.rule_id = v.rule_id AND e.device_id = v.device_id`,
    [JSON.stringify(due.map((alarm, k) => ({ rule_id: alarm.rule.id, device_id: alarm.device.id, id: ids[k] })))],
  );
  await notifyAlarms(
    tx,
    due.map((alarm, k) => ({ channels: alarm.rule.notify_channels, tenantCode: alarm.device.tenant_code, at: alarm.now, ...texts[k] })),
    timeZone,
    log,
  );
  const codes = await nextAlarmCodes(tx, due[0].now, timeZone, due.length);
  await tx.query('UPDATE alarm_record a SET code = v.code FROM jsonb_to_recordset($1::jsonb) AS v(id int, code text) WHERE a.id = v.id', [
    JSON.stringify(ids.map((id, index) => ({ id, code: codes[index] }))),
  ]);
  return due.map((alarm, index) => ({ ruleId: alarm.rule.id, change: 'raised', alarmCode: codes[index] }));
}

/** An ended episode whose alarm may recover (recoverAlarms). */
export interface EndedEpisode {
  ruleId: number;
  alarmRecordId: number | null;
  recoverAutomatically: boolean;
  /** When it ended: the reading back within bounds, or the report of a device back online. */
  at: Date;
}

/**
 * Marks the ended episodes' alarms 已恢复 where their rule says so and nobody has handled them yet
 * (已处理 and 已忽略 stay as staff left them), in one statement. Answers, for each episode in the
 * order given, its change or null.
 */
export async function recoverAlarms(tx: Queryable, episodes: readonly EndedEpisode[]): Promise<Array<AlarmChange | null>> {
  const recovering = episodes.filter((episode) => episode.alarmRecordId !== null && episode.recoverAutomatically);
  if (recovering.length === 0) return episodes.map(() => null);
  const recovered = await tx.query<{ id: number; code: string }>(
    `UPDATE alarm_record a SET state = 'recovered', recovered_at = v.at FROM jsonb_to_recordset($1::jsonb) AS v(id int, at timestamptz)
      WHERE a.id = v.id AND a.state IN ('pending', 'processing') RETURNING a.id, a.code`,
    [JSON.stringify(recovering.map((episode) => ({ id: episode.alarmRecordId, at: episode.at.toISOString() })))],
  );
  const codeOf = new Map(recovered.map((row) => [row.id, row.code]));
  return episodes.map((episode) => {
    const code = episode.alarmRecordId === null || !episode.recoverAutomatically ? undefined : codeOf.get(episode.alarmRecordId);
    return code === undefined ? null : { ruleId: episode.ruleId, change: 'recovered', alarmCode: code };
  });
}

/**
 * Devices that report again are no longer offline: the episodes of their offline rules end, and
 * their alarms recover (when the rule says so). Runs in the transaction that stored the reports;
 * answers each device's changes.
 */
export async function endOfflineEpisodes(tx: Queryable, deviceIds: readonly number[], at: ReadonlyMap<number, Date>): Promise<Map<number, AlarmChange[]>> {
  const changes = new Map<number, AlarmChange[]>();
  if (deviceIds.length === 0) return changes;
  const ended = await tx.query<{ device_id: number; rule_id: number; alarm_record_id: number | null; recover_automatically: boolean }>(
    `DELETE FROM alarm_rule_episode e USING alarm_rule r
      WHERE e.device_id = ANY($1::int[]) AND r.id = e.rule_id AND r.alarm_type = 'offline'
      RETURNING e.device_id, e.rule_id, e.alarm_record_id, r.recover_automatically`,
    [[...deviceIds]],
  );
  ended.sort((a, b) => a.device_id - b.device_id || a.rule_id - b.rule_id);
  const recovered = await recoverAlarms(
    tx,
    ended.map((episode) => ({ ruleId: episode.rule_id, alarmRecordId: episode.alarm_record_id, recoverAutomatically: episode.recover_automatically, at: at.get(episode.device_id)! })),
  );
  ended.forEach((episode, index) => {
    const change = recovered[index];
    if (change) changes.set(episode.device_id, [...(changes.get(episode.device_id) ?? []), change]);
  });
  return changes;
}
