import type { Database, Queryable } from '../db/database';
import type { ServerServices } from '../core/context';
import { endOfflineEpisodes, raiseAlarms, recoverAlarms, ruleReading, type AlarmChange, type EndedEpisode, type EvaluatedDevice, type RuleRow } from './alarmEvaluation';
import { recordLiveEvents } from '../live/liveEvents';
import { storeFirmwareReports } from './firmwareReports';
import type { DeviceReport } from './reportChecks';

/**
 * Device reports (issue 22), whatever carries them (HTTP, MQTT): whether the message is one the
 * platform takes, and what a taken one changes (who is reporting: deviceCredentials.ts). A refused
 * message changes nothing and is only counted (by its outcome); nothing a device sends can fail the server.
 */

// Whether a message is a report the platform takes (reportChecks.ts), for every transport.
export { FUTURE_SKEW_SECONDS, MAX_REPORT_AGE_DAYS, parseReport, REPORT_BODY_LIMIT, REPORT_MESSAGES, REPORT_SCHEMA, ReportRefused } from './reportChecks';
export type { DeviceReport, ReportOutcome } from './reportChecks';

/** The device a message came from, as the alarm rules need it. */
export type ReportingDevice = EvaluatedDevice;

/** A taken report on its way to the database: the device, its readings and when they arrived. */
export interface ReportToStore {
  device: ReportingDevice;
  report: DeviceReport & { readAt: Date };
  /** When the platform received it (the device was seen then). */
  now: Date;
}

export interface StoredReport {
  /** Whether the readings became the device's latest. */
  latest: boolean;
  alarms: AlarmChange[];
}

/** What a rule is evaluated on, and the tenants and products it applies to. */
type TenantRule = RuleRow & { tenant_code: string; product_code: string | null };

/**
 * Stores taken reports in one transaction (issue 22: a batch of the readings that arrived within a
 * few milliseconds, see ReportBatcher), with what each one alone would do: its readings join the
 * device's telemetry history (a second report of the same instant is the same reading and is kept
 * once); the device was seen now and is online; its latest readings become these unless a later
 * reading is already stored (buffered readings that arrive late go to the history only); the
 * latest are evaluated against the tenant's alarm rules (alarmEvaluation.ts). Answers, for each
 * report in the order given, whether its readings became the latest and which alarms they raised
 * or recovered.
 *
 * The statements are per batch, not per reading: the devices' rows are locked (in id order), the
 * history insert, the "is it the newest" test and the device update are one statement over a JSON
 * array of the readings, the rules of the batch's tenants are read once, and the episodes of every
 * (rule, device) pair a reading touches are taken or ended in one statement each. Only what is
 * rare (an alarm raised or recovered, a device coming online) is written reading by reading.
 *
 * Several readings of one device are stored in turn (the first of each device, then the second…),
 * each seeing the one before. The transaction runs at READ COMMITTED: the device rows, locked
 * first, order the readings of a device (another instance storing the same device waits for the
 * lock, then its statements see what this one committed); an episode row is taken with ON
 * CONFLICT, so one reading of a breach raises its alarm; a serializable transaction over hundreds
 * of readings would only be refused for the index pages it shares with the batch beside it.
 */
export async function storeReports(db: Database, items: readonly ReportToStore[], timeZone: string, log: (line: string) => void): Promise<StoredReport[]> {
  if (items.length === 0) return [];
  // Round k holds the k-th reading of each device, in the order given.
  const rounds: number[][] = [];
  const seen = new Map<number, number>();
  items.forEach((item, index) => {
    const k = seen.get(item.device.id) ?? 0;
    seen.set(item.device.id, k + 1);
    (rounds[k] ??= []).push(index);
  });
  return db.transaction(async (tx) => {
    await tx.exec('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
    const tenants = [...new Set(items.map((item) => item.device.tenant_code))].sort();
    const rules = await tx.query<TenantRule>(
      `SELECT id, name, alarm_type, level, metric, operator, threshold, duration_minutes, notify_channels, recover_automatically, tenant_code, product_code
         FROM alarm_rule
        WHERE tenant_code = ANY($1::text[]) AND enabled AND alarm_type IN ('threshold', 'battery', 'fault')
        ORDER BY id`,
      [tenants],
    );
    const results: StoredReport[] = new Array<StoredReport>(items.length);
    for (const round of rounds) {
      const stored = await storeRound(
        tx,
        round.map((index) => items[index]),
        rules,
        timeZone,
        log,
      );
      round.forEach((index, position) => (results[index] = stored[position]));
    }
    return results;
  });
}

/**
 * The readings stored, one statement with the devices' rows locked first in id order (two batches
 * lock in the same order): answers each device's online state before, and whether each reading is
 * its device's newest.
 */
async function storeReadings(tx: Queryable, items: readonly ReportToStore[]): Promise<{ before: Map<number, string>; latest: boolean[] }> {
  const ids = items.map((item) => item.device.id);
  // The devices' rows first, in id order (two batches lock in the same order): what they were before.
  const before = new Map(
    (await tx.query<{ id: number; online_state: string }>('SELECT id, online_state FROM device WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE', [ids])).map((row) => [
      row.id,
      row.online_state,
    ]),
  );
  const readings = items.map((item, i) => ({
    i,
    device_id: item.device.id,
    reported_at: item.report.readAt.toISOString(),
    seen_at: item.now.toISOString(),
    metrics: item.report.metrics ?? {},
    battery_level: item.report.batteryLevel ?? null,
    signal_strength: item.report.signalStrength ?? null,
    temperature: item.report.temperature === undefined ? null : Math.round(item.report.temperature * 10) / 10,
  }));
  // One statement: the history (kept once per instant), whether each reading is its device's newest
  // (no stored reading is later: the statement's snapshot does not hold its own inserts, and a
  // reading is never later than itself), and the devices seen, online and, for the newest, their
  // latest readings. last_reported_at marks the device as one that reports: the offline sweep watches only those.
  const newest = await tx.query<{ i: number; newest: boolean }>(
    `WITH v AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(i int, device_id int, reported_at timestamptz, seen_at timestamptz, metrics jsonb,
                                                          battery_level smallint, signal_strength smallint, temperature numeric)
     ), stored AS (
       INSERT INTO device_telemetry (device_id, reported_at, metrics, battery_level, signal_strength, temperature)
       SELECT device_id, reported_at, metrics, battery_level, signal_strength, temperature FROM v
       ON CONFLICT (device_id, reported_at) DO NOTHING
     ), n AS (
       SELECT v.*, NOT EXISTS (SELECT 1 FROM device_telemetry t WHERE t.device_id = v.device_id AND t.reported_at > v.reported_at) AS newest FROM v
     ), seen AS (
       UPDATE device d SET last_seen_at = GREATEST(COALESCE(d.last_seen_at, n.seen_at), n.seen_at), last_reported_at = GREATEST(COALESCE(d.last_reported_at, n.seen_at), n.seen_at),
              online_state = 'online', activated_at = COALESCE(d.activated_at, n.seen_at), sleeping = false, sleep_since = NULL,
              battery_level = CASE WHEN n.newest AND n.battery_level IS NOT NULL THEN n.battery_level ELSE d.battery_level END,
              signal_strength = CASE WHEN n.newest AND n.signal_strength IS NOT NULL THEN n.signal_strength ELSE d.signal_strength END,
              temperature = CASE WHEN n.newest AND n.temperature IS NOT NULL THEN n.temperature ELSE d.temperature END
         FROM n WHERE d.id = n.device_id AND d.deleted_at IS NULL
     )
     SELECT i, newest FROM n`,
    [JSON.stringify(readings)],
  );
  const latest = new Array<boolean>(items.length).fill(false);
  for (const row of newest) latest[row.i] = row.newest;
  return { before, latest };
}

/** One reading of each of some distinct devices (storeReports). */
async function storeRound(tx: Queryable, items: readonly ReportToStore[], rules: readonly TenantRule[], timeZone: string, log: (line: string) => void): Promise<StoredReport[]> {
  const { before, latest } = await storeReadings(tx, items);
  // What the readings say of firmware (issue 31): the version the device runs, its upgrade's progress.
  await storeFirmwareReports(tx, items.map((item, index) => ({ deviceCode: item.device.code, report: item.report, newest: latest[index], now: item.now })));

  // The rules each newest reading is evaluated on, and what it reads for each.
  interface Touch {
    item: number;
    rule: TenantRule;
    value: number;
    breached: boolean;
  }
  const touches: Touch[] = [];
  items.forEach((item, index) => {
    if (!latest[index]) return;
    for (const rule of rules) {
      if (rule.tenant_code !== item.device.tenant_code || (rule.product_code !== null && rule.product_code !== item.device.product_code)) continue;
      const reading = ruleReading(item.report, rule);
      if (reading) touches.push({ item: index, rule, ...reading });
    }
  });
  const pair = (ruleId: number, deviceId: number) => `${ruleId}:${deviceId}`;
  // A breach takes its episode's row (begun by the first breaching reading; a no-op update answers
  // and locks the row that is there), a reading within bounds ends it.
  const breaching = touches.filter((touch) => touch.breached);
  const episodes = new Map<string, { breached_since: Date; alarm_record_id: number | null }>();
  if (breaching.length > 0) {
    const rows = await tx.query<{ rule_id: number; device_id: number; breached_since: Date; alarm_record_id: number | null }>(
      `INSERT INTO alarm_rule_episode AS e (rule_id, device_id, breached_since)
       SELECT rule_id, device_id, since FROM jsonb_to_recordset($1::jsonb) AS v(rule_id int, device_id int, since timestamptz)
       ON CONFLICT (rule_id, device_id) DO UPDATE SET breached_since = e.breached_since
       RETURNING e.rule_id, e.device_id, e.breached_since, e.alarm_record_id`,
      [JSON.stringify(breaching.map((touch) => ({ rule_id: touch.rule.id, device_id: items[touch.item].device.id, since: items[touch.item].report.readAt.toISOString() })))],
    );
    for (const row of rows) episodes.set(pair(row.rule_id, row.device_id), row);
  }
  const within = touches.filter((touch) => !touch.breached);
  const ended = new Map<string, { alarm_record_id: number | null }>();
  if (within.length > 0) {
    const rows = await tx.query<{ rule_id: number; device_id: number; alarm_record_id: number | null }>(
      `DELETE FROM alarm_rule_episode e USING jsonb_to_recordset($1::jsonb) AS v(rule_id int, device_id int)
        WHERE e.rule_id = v.rule_id AND e.device_id = v.device_id
        RETURNING e.rule_id, e.device_id, e.alarm_record_id`,
      [JSON.stringify(within.map((touch) => ({ rule_id: touch.rule.id, device_id: items[touch.item].device.id })))],
    );
    for (const row of rows) ended.set(pair(row.rule_id, row.device_id), row);
  }

  // What is rare, for the whole round at once: the alarms of ended episodes recovered, the offline
  // episodes of devices back online ended, then the alarms due raised.
  const recoveries: Array<{ item: number; episode: EndedEpisode }> = [];
  const due: Touch[] = [];
  for (const touch of touches) {
    const { device, report } = items[touch.item];
    const key = pair(touch.rule.id, device.id);
    if (touch.breached) {
      const episode = episodes.get(key);
      if (!episode || episode.alarm_record_id !== null) continue;
      if (report.readAt.getTime() - new Date(episode.breached_since).getTime() < touch.rule.duration_minutes * 60_000) continue;
      due.push(touch);
    } else {
      const episode = ended.get(key);
      if (episode) {
        recoveries.push({
          item: touch.item,
          episode: { ruleId: touch.rule.id, alarmRecordId: episode.alarm_record_id, recoverAutomatically: touch.rule.recover_automatically, at: report.readAt },
        });
      }
    }
  }
  const alarms: AlarmChange[][] = items.map(() => []);
  (await recoverAlarms(
    tx,
    recoveries.map((recovery) => recovery.episode),
  )).forEach((change, index) => change && alarms[recoveries[index].item].push(change));
  // Back from offline (the sweep's doing, offlineSweep.ts): their offline alarms recover.
  const back = items.flatMap((item, index) => (before.get(item.device.id) === 'offline' ? [index] : []));
  const backAgain = await endOfflineEpisodes(
    tx,
    back.map((index) => items[index].device.id),
    new Map(back.map((index) => [items[index].device.id, items[index].now])),
  );
  for (const index of back) alarms[index].push(...(backAgain.get(items[index].device.id) ?? []));
  // The live console: the devices that came online, and each alarm recovered.
  const where = ({ device }: ReportToStore) => ({ tenantCode: device.tenant_code, organizationCode: device.organization_code });
  await recordLiveEvents(
    tx,
    items.flatMap((item, index) => {
      const state = before.get(item.device.id);
      return [
        ...(state !== undefined && state !== 'online' ? [{ kind: 'device.online' as const, ...where(item), payload: { deviceCode: item.device.code } }] : []),
        ...alarms[index].map((alarm) => ({ kind: 'alarm.recovered' as const, ...where(item), payload: { deviceCode: item.device.code, alarmCode: alarm.alarmCode } })),
      ];
    }),
    items[0].now,
  );
  // Last, their codes taken at the very end (raiseAlarms): the day's code lock is held from there
  // to the commit, so the batches that raise alarms wait for each other as briefly as they can.
  const raised = await raiseAlarms(
    tx,
    due.map((touch) => {
      const { device, report, now } = items[touch.item];
      return { rule: touch.rule, device, value: touch.value, triggeredAt: report.readAt, now };
    }),
    timeZone,
    log,
  );
  raised.forEach((alarm, position) => alarms[due[position].item].push(alarm));
  await recordLiveEvents(
    tx,
    raised.map((alarm, position) => {
      const item = items[due[position].item];
      return { kind: 'alarm.raised' as const, ...where(item), payload: { deviceCode: item.device.code, alarmCode: alarm.alarmCode } };
    }),
    items[0].now,
  );
  return items.map((_, index) => ({ latest: latest[index], alarms: alarms[index] }));
}

/** Stores one taken report in a transaction of its own (storeReports of one). */
export async function storeReport(
  db: Database,
  device: ReportingDevice,
  report: DeviceReport & { readAt: Date },
  now: Date,
  timeZone: string,
  log: (line: string) => void,
): Promise<StoredReport> {
  const [stored] = await storeReports(db, [{ device, report, now }], timeZone, log);
  return stored;
}

export interface BatchOptions {
  /** Readings stored in one transaction at most (config.ingestBatchSize). */
  size: number;
  /** How long the first reading of a batch waits for others (config.ingestBatchDelayMs; 0: none). */
  delayMs: number;
  /** Transactions at once (config.ingestConcurrency). */
  concurrency: number;
  timeZone: string;
  log: (line: string) => void;
}

interface Waiting {
  item: ReportToStore;
  resolve: (stored: StoredReport) => void;
  reject: (error: unknown) => void;
}

/**
 * Groups the readings that arrive within a few milliseconds into one transaction (storeReports):
 * a batch goes once it holds `size` readings or its first has waited `delayMs`, at most
 * `concurrency` batches at once; while they are all busy, readings gather for the next (up to
 * `size` each), so a burst makes bigger batches rather than a longer queue of transactions. Each
 * reading is answered on its own. A batch that fails is stored again reading by reading, each in a
 * transaction of its own: a reading that cannot be stored fails alone, the others are stored.
 */
export class ReportBatcher {
  private waiting: Waiting[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = 0;

  constructor(
    private readonly db: Database,
    private readonly options: BatchOptions,
  ) {}

  /** Stores a reading with those arriving with it; `wait: false` sends it (and whatever waits) without waiting for more. */
  store(item: ReportToStore, { wait = true }: { wait?: boolean } = {}): Promise<StoredReport> {
    return new Promise<StoredReport>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!wait || this.waiting.length >= this.options.size || this.options.delayMs <= 0) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.options.delayMs);
    });
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.running < this.options.concurrency && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.size);
      this.running += 1;
      void this.run(batch).finally(() => {
        this.running -= 1;
        if (this.waiting.length > 0) this.flush();
      });
    }
  }

  private async run(batch: Waiting[]): Promise<void> {
    const { timeZone, log } = this.options;
    try {
      const stored = await storeReports(
        this.db,
        batch.map((entry) => entry.item),
        timeZone,
        log,
      );
      batch.forEach((entry, index) => entry.resolve(stored[index]));
      return;
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
      log(`ingest: a batch of ${batch.length} readings failed (${error instanceof Error ? error.message : String(error)}); storing them one by one`);
    }
    for (const entry of batch) {
      try {
        entry.resolve((await storeReports(this.db, [entry.item], timeZone, log))[0]);
      } catch (error) {
        entry.reject(error);
      }
    }
  }
}

interface Admission {
  batcher: ReportBatcher;
  /** The last reading of each device on its way: the next one of the device waits for it. */
  queued: Map<number, Promise<unknown>>;
}

const admissions = new WeakMap<ServerServices, Admission>();

/**
 * Stores a taken report through the server's ReportBatcher (every transport shares it): readings
 * arriving together share a transaction, at most config.ingestConcurrency transactions at once,
 * so a burst waits here for its turn instead of taking every pooled connection and failing on the
 * pool's wait (a failed MQTT store closes the device's connection, which sends everything again),
 * and the console's calls keep connections. One device's readings are stored one after another,
 * in the order they came: the next one joins a batch once the one before is stored (or failed).
 * `wait: false` for a caller that sends one reading at a time (the external broker's bridge takes
 * the next message once this one is stored): nothing would join it, so it does not wait for company.
 */
export function storeAdmitted(
  services: ServerServices,
  device: ReportingDevice,
  report: DeviceReport & { readAt: Date },
  now: Date,
  { wait = true }: { wait?: boolean } = {},
): Promise<StoredReport> {
  let admission = admissions.get(services);
  if (!admission) {
    const { config } = services;
    admission = {
      batcher: new ReportBatcher(services.db, {
        size: config.ingestBatchSize,
        delayMs: config.ingestBatchDelayMs,
        concurrency: config.ingestConcurrency,
        timeZone: config.timeZone,
        log: services.log,
      }),
      queued: new Map(),
    };
    admissions.set(services, admission);
  }
  const { batcher, queued } = admission;
  const store = () => batcher.store({ device, report, now }, { wait });
  // After the device's previous reading, whether that one was stored or failed.
  const stored = (queued.get(device.id) ?? Promise.resolve()).then(store, store);
  queued.set(device.id, stored);
  const forget = () => {
    if (queued.get(device.id) === stored) queued.delete(device.id);
  };
  stored.then(forget, forget);
  return stored;
}
