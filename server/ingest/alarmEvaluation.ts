import type { Queryable } from '../db/database';
import { ALARM_METRICS, ALARM_TYPE_LABELS, conditionText, withUnit, type AlarmOperator, type AlarmType } from '../domain/alarms';
import { businessDayStamp } from '../domain/businessTime';
import type { DeviceReport } from './deviceReports';

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

interface EpisodeRow {
  breached_since: Date;
  alarm_record_id: number | null;
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

export type AlarmNotify = (tx: Queryable, rule: { channels: readonly string[]; tenantCode: string }, text: { title: string; content: string }) => Promise<void>;

/**
 * Raises the alarm of a rule's episode that has lasted (its row taken and still without an alarm):
 * the record (告警记录, 待处理), the episode pointing at it, and the rule's channels told.
 */
export async function raiseAlarm(
  tx: Queryable,
  rule: RuleRow,
  device: EvaluatedDevice,
  value: number,
  triggeredAt: Date,
  now: Date,
  timeZone: string,
  notify: AlarmNotify,
  /** Its code, when the caller took codes for several alarms at once (nextAlarmCodes). */
  code?: string,
): Promise<AlarmChange> {
  code ??= (await nextAlarmCodes(tx, now, timeZone, 1))[0];
  const text = alarmText(rule, device, value);
  const [raised] = await tx.query<{ id: number }>(
    `INSERT INTO alarm_record (code, rule_id, device_code, organization_code, tenant_code, alarm_type, level, state, title, content, metric_value, triggered_at, source, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9, $10, $11, 'device', $12) RETURNING id`,
    [code, rule.id, device.code, device.organization_code, device.tenant_code, rule.alarm_type, rule.level, text.title, text.content, Math.round(value * 100) / 100, triggeredAt, now],
  );
  await tx.query('UPDATE alarm_rule_episode SET alarm_record_id = $3 WHERE rule_id = $1 AND device_id = $2', [rule.id, device.id, raised.id]);
  await notify(tx, { channels: rule.notify_channels, tenantCode: device.tenant_code }, text);
  return { ruleId: rule.id, change: 'raised', alarmCode: code };
}

/** An episode that has lasted, to be raised (raiseAlarms). */
export interface DueAlarm {
  rule: RuleRow;
  device: EvaluatedDevice;
  value: number;
  triggeredAt: Date;
  now: Date;
  notify: AlarmNotify;
}

let provisional = 0;

/**
 * Raises several alarms in one transaction as raiseAlarm does each, with their codes taken last:
 * the records are written under provisional codes, their channels told, and only then the day's
 * code lock is taken (nextAlarmCodes) and the codes set in one statement. The lock is held from
 * there to the commit, so transactions that raise alarms wait for each other for a statement or
 * two, not for each other's notices.
 */
export async function raiseAlarms(tx: Queryable, due: readonly DueAlarm[], timeZone: string): Promise<AlarmChange[]> {
  if (due.length === 0) return [];
  const ids: number[] = [];
  for (const alarm of due) {
    const text = alarmText(alarm.rule, alarm.device, alarm.value);
    provisional += 1;
    const [raised] = await tx.query<{ id: number }>(
      `INSERT INTO alarm_record (code, rule_id, device_code, organization_code, tenant_code, alarm_type, level, state, title, content, metric_value, triggered_at, source, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9, $10, $11, 'device', $12) RETURNING id`,
      [
        `~${process.pid}-${provisional}-${Math.random().toString(36).slice(2)}`,
        alarm.rule.id,
        alarm.device.code,
        alarm.device.organization_code,
        alarm.device.tenant_code,
        alarm.rule.alarm_type,
        alarm.rule.level,
        text.title,
        text.content,
        Math.round(alarm.value * 100) / 100,
        alarm.triggeredAt,
        alarm.now,
      ],
    );
    await tx.query('UPDATE alarm_rule_episode SET alarm_record_id = $3 WHERE rule_id = $1 AND device_id = $2', [alarm.rule.id, alarm.device.id, raised.id]);
    await alarm.notify(tx, { channels: alarm.rule.notify_channels, tenantCode: alarm.device.tenant_code }, text);
    ids.push(raised.id);
  }
  const codes = await nextAlarmCodes(tx, due[0].now, timeZone, due.length);
  await tx.query('UPDATE alarm_record a SET code = v.code FROM jsonb_to_recordset($1::jsonb) AS v(id int, code text) WHERE a.id = v.id', [
    JSON.stringify(ids.map((id, index) => ({ id, code: codes[index] }))),
  ]);
  return due.map((alarm, index) => ({ ruleId: alarm.rule.id, change: 'raised', alarmCode: codes[index] }));
}

/** Marks an ended episode's alarm 已恢复 when the rule says so and nobody has handled it yet. */
export async function recoverAlarm(tx: Queryable, ruleId: number, alarmRecordId: number | null, recoverAutomatically: boolean, at: Date): Promise<AlarmChange | null> {
  if (!alarmRecordId || !recoverAutomatically) return null;
  // Only an alarm nobody has handled yet: 已处理 and 已忽略 stay as staff left them.
  const [recovered] = await tx.query<{ code: string }>(
    "UPDATE alarm_record SET state = 'recovered', recovered_at = $2 WHERE id = $1 AND state IN ('pending', 'processing') RETURNING code",
    [alarmRecordId, at],
  );
  return recovered ? { ruleId, change: 'recovered', alarmCode: recovered.code } : null;
}

/**
 * A device that reports again is no longer offline: the episodes of its offline rules end, and
 * their alarms recover (when the rule says so). Runs in the transaction that stored the report.
 */
export async function endOfflineEpisodes(tx: Queryable, deviceId: number, at: Date): Promise<AlarmChange[]> {
  const ended = await tx.query<{ rule_id: number; alarm_record_id: number | null; recover_automatically: boolean }>(
    `DELETE FROM alarm_rule_episode e USING alarm_rule r
      WHERE e.device_id = $1 AND r.id = e.rule_id AND r.alarm_type = 'offline'
      RETURNING e.rule_id, e.alarm_record_id, r.recover_automatically`,
    [deviceId],
  );
  const changes: AlarmChange[] = [];
  for (const episode of ended) {
    const change = await recoverAlarm(tx, episode.rule_id, episode.alarm_record_id, episode.recover_automatically, at);
    if (change) changes.push(change);
  }
  return changes;
}

/**
 * Evaluates every enabled rule of the device's tenant that watches a metric this reading carries.
 * Runs in the transaction that stored the reading; `readAt` is when it was taken.
 */
export async function evaluateRules(
  tx: Queryable,
  device: EvaluatedDevice,
  report: DeviceReport,
  readAt: Date,
  now: Date,
  timeZone: string,
  notify: AlarmNotify,
): Promise<AlarmChange[]> {
  const rules = await tx.query<RuleRow>(
    `SELECT id, name, alarm_type, level, metric, operator, threshold, duration_minutes, notify_channels, recover_automatically
       FROM alarm_rule
      WHERE tenant_code = $1 AND enabled AND alarm_type IN ('threshold', 'battery', 'fault') AND (product_code IS NULL OR product_code = $2)
      ORDER BY id`,
    [device.tenant_code, device.product_code],
  );
  const changes: AlarmChange[] = [];
  for (const rule of rules) {
    const reading = ruleReading(report, rule);
    if (reading === undefined) continue;
    if (reading.breached) {
      // The episode's row is taken first: of two readings of one device at once, one decides.
      await tx.query('INSERT INTO alarm_rule_episode (rule_id, device_id, breached_since) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [rule.id, device.id, readAt]);
      const [episode] = await tx.query<EpisodeRow>('SELECT breached_since, alarm_record_id FROM alarm_rule_episode WHERE rule_id = $1 AND device_id = $2 FOR UPDATE', [
        rule.id,
        device.id,
      ]);
      if (!episode || episode.alarm_record_id !== null) continue;
      if (readAt.getTime() - new Date(episode.breached_since).getTime() < rule.duration_minutes * 60_000) continue;
      changes.push(await raiseAlarm(tx, rule, device, reading.value, readAt, now, timeZone, notify));
    } else {
      const [ended] = await tx.query<EpisodeRow>('DELETE FROM alarm_rule_episode WHERE rule_id = $1 AND device_id = $2 RETURNING breached_since, alarm_record_id', [rule.id, device.id]);
      const change = ended ? await recoverAlarm(tx, rule.id, ended.alarm_record_id, rule.recover_automatically, readAt) : null;
      if (change) changes.push(change);
    }
  }
  return changes;
}
