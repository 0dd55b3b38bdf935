import type { Database } from '../db/database';
import { recordLiveEvents } from '../live/liveEvents';
import { breaches, raiseAlarms, type AlarmChange, type EvaluatedDevice, type RuleRow } from './alarmEvaluation';
import { startPeriodicTask } from '../periodicTask';

/**
 * Devices go offline by themselves (issue 22). A device is offline once it has been silent for its
 * product's silence window: SILENCE_HEARTBEATS of the product's 心跳周期 (heartbeatMinutes of the
 * tenant's own device settings for the product, else the product's, else the catalogue's default:
 * 240 minutes for battery devices, 10 for mains-powered ones), so one late heartbeat is not an
 * outage. A periodic sweep marks the silent devices offline, tells the live console and the
 * webhooks (device.offline), and raises the offline rules (离线告警, 离线时长 > N 分钟) of devices
 * silent that long; the device's next report brings it online and recovers them
 * (deviceReports.ts, alarmEvaluation.ts endOfflineEpisodes).
 *
 * Only devices that have reported through ingestion (device.last_reported_at, set by every stored
 * report) are swept. The seeded demo fleet never reported: its online states are a picture taken
 * when the seed was written, and its last_seen_at grows old on a demo database opened days later,
 * so sweeping it would turn the whole fleet offline at `npm start`. A simulated device (npm run
 * simulate, npm start -- --simulate N) reports, so it goes offline once the simulator stops.
 *
 * Safe with several instances: each batch is one conditional UPDATE (online and still silent) in a
 * serializable transaction, so of two instances sweeping at once one marks a device and the other
 * finds it offline; an offline rule's episode row (alarm_rule_episode) is taken by one of them.
 */

/** Heartbeats a device may miss before it is offline. */
export const SILENCE_HEARTBEATS = 2;
/** The catalogue's default heartbeats (operations/devices/catalogue.ts defaultSettings), for products without the setting. */
export const DEFAULT_HEARTBEAT_MINUTES = { battery: 240, mains: 10 } as const;
/** Devices marked offline per transaction. */
const SWEEP_BATCH = 500;
/** Offline alarms raised per transaction. */
const RAISE_BATCH = 100;

export interface SweepResult {
  /** Codes of the devices marked offline. */
  offline: string[];
  /** The offline alarms raised. */
  alarms: AlarmChange[];
}

/** The silence window of the device `d` (its product `p`, the tenant's settings `s`), in minutes, as SQL. */
const SILENCE_MINUTES = `${SILENCE_HEARTBEATS} * COALESCE((s.settings ->> 'heartbeatMinutes')::int, (p.settings ->> 'heartbeatMinutes')::int,
  CASE WHEN p.battery_powered THEN ${DEFAULT_HEARTBEAT_MINUTES.battery} ELSE ${DEFAULT_HEARTBEAT_MINUTES.mains} END)`;

type SweptDevice = EvaluatedDevice & { last_reported_at: Date };

/** Marks the silent devices offline, a batch per transaction; answers their codes. */
async function markSilentDevices(db: Database, now: Date): Promise<string[]> {
  const codes: string[] = [];
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      // One conditional statement: a device that reported meanwhile is online and not silent any more.
      const swept = await tx.query<SweptDevice>(
        `UPDATE device d SET online_state = 'offline'
          WHERE d.id IN (
              SELECT d.id FROM device d JOIN product p ON p.code = d.product_code
                LEFT JOIN product_tenant_setting s ON s.product_code = d.product_code AND s.tenant_code = d.tenant_code
               WHERE d.online_state = 'online' AND d.last_reported_at IS NOT NULL AND d.deleted_at IS NULL
                 AND d.last_reported_at < $1::timestamptz - make_interval(mins => ${SILENCE_MINUTES})
               ORDER BY d.last_reported_at LIMIT ${SWEEP_BATCH})
            AND d.online_state = 'online'
          RETURNING d.id, d.code, d.name, d.tenant_code, d.organization_code, d.product_code, d.last_reported_at`,
        [now],
      );
      await recordLiveEvents(
        tx,
        swept.map((device) => ({ kind: 'device.offline' as const, tenantCode: device.tenant_code, organizationCode: device.organization_code, payload: { deviceCode: device.code } })),
        now,
      );
      return swept.map((device) => device.code);
    });
    codes.push(...batch);
    if (batch.length < SWEEP_BATCH) return codes;
  }
}

/** The whole minutes a device has been silent, less the rule's duration: what an offline rule compares. */
function offlineMinutes(device: SweptDevice, rule: RuleRow, now: Date): number {
  return Math.floor((now.getTime() - new Date(device.last_reported_at).getTime()) / 60_000) - rule.duration_minutes;
}

/** For a > or ≥ rule, the last report time from which a device is silent past the rule now; null otherwise. */
function silentBefore(rule: RuleRow, now: Date): Date | null {
  if (rule.operator !== 'gt' && rule.operator !== 'ge') return null;
  // offlineMinutes floors: > N needs N + 1 whole minutes, ≥ N needs N.
  const minutes = Math.ceil(Number(rule.threshold)) + rule.duration_minutes + (rule.operator === 'gt' && Number.isInteger(Number(rule.threshold)) ? 1 : 0);
  return new Date(now.getTime() - minutes * 60_000);
}

/**
 * Raises each enabled offline rule for the offline reporting devices silent past it, once per
 * episode. A rule for all products leaves alone the devices whose product has an offline rule of
 * its own in the tenant: that one says when they are offline (a gateway's 10 minutes), and a
 * device gets one offline alarm, not two.
 */
async function raiseOfflineRules(db: Database, now: Date, timeZone: string, log: (line: string) => void): Promise<AlarmChange[]> {
  const rules = await db.query<RuleRow & { tenant_code: string; product_code: string | null }>(
    `SELECT id, name, alarm_type, level, metric, operator, threshold, duration_minutes, notify_channels, recover_automatically, tenant_code, product_code
       FROM alarm_rule WHERE enabled AND alarm_type = 'offline' AND metric = 'offline_minutes' ORDER BY id`,
  );
  const changes: AlarmChange[] = [];
  for (const rule of rules) {
    for (;;) {
      const raised = await db.transaction(async (tx) => {
        // > N and ≥ N (the rules people write) hold from a moment on: only devices silent since
        // before it are read. Any other comparison reads every offline device of the rule.
        const silentSince = silentBefore(rule, now);
        const candidates = await tx.query<SweptDevice>(
          `SELECT d.id, d.code, d.name, d.tenant_code, d.organization_code, d.product_code, d.last_reported_at FROM device d
            WHERE d.tenant_code = $1 AND ($2::text IS NULL OR d.product_code = $2) AND d.online_state = 'offline'
              AND d.last_reported_at IS NOT NULL AND d.deleted_at IS NULL AND ($4::timestamptz IS NULL OR d.last_reported_at <= $4)
              AND NOT EXISTS (SELECT 1 FROM alarm_rule_episode e WHERE e.rule_id = $3 AND e.device_id = d.id)
              -- A product's own offline rule replaces the tenant's general one (a gateway: 网关离线告警, not 设备离线告警 too).
              AND ($2::text IS NOT NULL OR NOT EXISTS (
                    SELECT 1 FROM alarm_rule o WHERE o.tenant_code = d.tenant_code AND o.product_code = d.product_code
                       AND o.enabled AND o.alarm_type = 'offline' AND o.metric = 'offline_minutes'))
            ORDER BY d.last_reported_at, d.id ${silentSince ? `LIMIT ${RAISE_BATCH}` : ''}`,
          [rule.tenant_code, rule.product_code, rule.id, silentSince],
        );
        const due = candidates.filter((device) => breaches(offlineMinutes(device, rule, now), rule.operator, Number(rule.threshold))).slice(0, RAISE_BATCH);
        // The episodes' rows decide: of two instances sweeping at once, one raises each.
        const taken = await tx.query<{ device_id: number }>(
          `INSERT INTO alarm_rule_episode (rule_id, device_id, breached_since)
           SELECT $1, device_id, since FROM jsonb_to_recordset($2::jsonb) AS v(device_id int, since timestamptz)
           ON CONFLICT DO NOTHING RETURNING device_id`,
          [rule.id, JSON.stringify(due.map((device) => ({ device_id: device.id, since: new Date(device.last_reported_at).toISOString() })))],
        );
        const mine = new Set(taken.map((row) => row.device_id));
        const raising = due.filter((device) => mine.has(device.id));
        const batch = await raiseAlarms(
          tx,
          raising.map((device) => ({ rule, device, value: offlineMinutes(device, rule, now) + rule.duration_minutes, triggeredAt: now, now })),
          timeZone,
          log,
        );
        await recordLiveEvents(
          tx,
          batch.map((change, index) => ({
            kind: 'alarm.raised' as const,
            tenantCode: raising[index].tenant_code,
            organizationCode: raising[index].organization_code,
            payload: { deviceCode: raising[index].code, alarmCode: change.alarmCode },
          })),
          now,
        );
        return { batch, more: due.length === RAISE_BATCH };
      });
      changes.push(...raised.batch);
      if (!raised.more) break;
    }
  }
  return changes;
}

/** One sweep: silent devices offline, then the offline rules. */
export async function sweepOfflineDevices(db: Database, now: Date, timeZone: string, log: (line: string) => void): Promise<SweepResult> {
  const offline = await markSilentDevices(db, now);
  const alarms = await raiseOfflineRules(db, now, timeZone, log);
  return { offline, alarms };
}

export interface OfflineSweep {
  /** Stops the timer and waits for a sweep under way to finish. */
  stop(): Promise<void>;
}

/**
 * Sweeps every `seconds` (config.offlineSweepSeconds; 0 = never). One sweep at a time per instance;
 * a failed one is logged and the next tries again. Run by the server process (server/main.ts).
 */
export function startOfflineSweep(db: Database, seconds: number, now: () => Date, timeZone: string, log: (line: string) => void, warn: (line: string) => void): OfflineSweep {
  return startPeriodicTask({ name: 'offline sweep', seconds, warn }, async () => {
    const result = await sweepOfflineDevices(db, now(), timeZone, log);
    if (result.offline.length > 0 || result.alarms.length > 0) log(`offline sweep: ${result.offline.length} devices offline, ${result.alarms.length} offline alarms raised`);
  });
}
