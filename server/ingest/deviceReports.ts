import { timingSafeEqual } from 'node:crypto';
import { Ajv } from 'ajv';
import pLimit, { type LimitFunction } from 'p-limit';
import addFormats from 'ajv-formats';
import type { Database, Queryable } from '../db/database';
import type { ServerServices } from '../operations/define';
import { newToken, sha256 } from '../security/tokens';
import { endOfflineEpisodes, evaluateRules, type AlarmChange, type EvaluatedDevice } from './alarmEvaluation';
import { notifyAlarm } from './alarmNotices';
import { recordLiveEvent } from '../live/liveEvents';

/**
 * Device reports (issue 22), whatever carries them (HTTP now, MQTT next): who is reporting, whether
 * the message is one the platform takes, and what a taken one changes. A refused message changes
 * nothing and is only counted (by its outcome); nothing a device sends can fail the server.
 */

/** What a device reports: readings taken at `reportedAt` (the receipt time when it is left out). */
export interface DeviceReport {
  reportedAt?: string;
  /** Percent, 0-100. */
  batteryLevel?: number;
  /** The modem's 0-31 signal quality (as the device tag shows it, n/31). */
  signalStrength?: number;
  /** °C, one decimal kept. */
  temperature?: number;
  /** Other readings by name (a level, a pressure, a flow…), numbers only. */
  metrics?: Record<string, number>;
  /**
   * The fault codes the device has now (0-9999; an empty list: none). Evaluated against the fault
   * rules (故障告警), not kept in the history; a report without it leaves their episodes alone.
   */
  faultCodes?: number[];
}

/** The largest report body a device may send (bytes). */
export const REPORT_BODY_LIMIT = 16 * 1024;
/** A reading may be this far ahead of the platform's clock (a device's clock drifts). */
export const FUTURE_SKEW_SECONDS = 5 * 60;
/** A reading older than this is refused: a device's buffer replayed after weeks is not news. */
export const MAX_REPORT_AGE_DAYS = 30;

export const REPORT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    reportedAt: { type: 'string', format: 'date-time' },
    batteryLevel: { type: 'integer', minimum: 0, maximum: 100 },
    signalStrength: { type: 'integer', minimum: 0, maximum: 31 },
    temperature: { type: 'number', minimum: -60, maximum: 200 },
    metrics: {
      type: 'object',
      maxProperties: 32,
      propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]{0,31}$' },
      additionalProperties: { type: 'number', minimum: -1e9, maximum: 1e9 },
    },
    faultCodes: { type: 'array', maxItems: 16, uniqueItems: true, items: { type: 'integer', minimum: 0, maximum: 9999 } },
  },
} as const;

const ajv = new Ajv({ allErrors: false });
addFormats(ajv, ['date-time']);
const validReport = ajv.compile<DeviceReport>(REPORT_SCHEMA);

/** Why a message was refused, or that it was taken (the label of the ingestion counter). */
export type ReportOutcome = 'accepted' | 'unknown device' | 'bad credentials' | 'bad json' | 'out of range' | 'too large';

export const REPORT_MESSAGES: Record<Exclude<ReportOutcome, 'accepted'>, string> = {
  // One answer for an unknown device and a wrong secret: a guesser learns no device codes.
  'unknown device': '设备认证失败',
  'bad credentials': '设备认证失败',
  'bad json': '上报内容不是合法的 JSON',
  'out of range': '上报内容不符合要求',
  'too large': `上报内容超过 ${REPORT_BODY_LIMIT / 1024} KiB`,
};

export class ReportRefused extends Error {
  constructor(
    readonly outcome: Exclude<ReportOutcome, 'accepted'>,
    readonly detail = '',
  ) {
    super(detail ? `${REPORT_MESSAGES[outcome]}：${detail}` : REPORT_MESSAGES[outcome]);
    this.name = 'ReportRefused';
  }
}

/** The device a message came from, as the alarm rules need it. */
export type ReportingDevice = EvaluatedDevice;

/** The device whose code and secret these are; refused as unknown (or deleted) or for a wrong secret. */
export async function authenticateDevice(db: Queryable, code: string, secret: string): Promise<ReportingDevice> {
  if (!/^[A-Za-z0-9]{12}$/.test(code)) throw new ReportRefused('unknown device');
  const [row] = await db.query<ReportingDevice & { secret_hash: string | null }>(
    `SELECT d.id, d.code, d.name, d.tenant_code, d.organization_code, d.product_code, c.secret_hash
       FROM device d LEFT JOIN device_credential c ON c.device_id = d.id
      WHERE d.code = $1 AND d.deleted_at IS NULL`,
    [code],
  );
  if (!row) throw new ReportRefused('unknown device');
  const presented = Buffer.from(sha256(secret), 'hex');
  const expected = Buffer.from(row.secret_hash ?? '', 'hex');
  if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) throw new ReportRefused('bad credentials');
  return { id: row.id, code: row.code, name: row.name, tenant_code: row.tenant_code, organization_code: row.organization_code, product_code: row.product_code };
}

/** The live device of this code, for a broker that authenticated it already (mqttBridge.ts); "unknown device" otherwise. */
export async function findReportingDevice(db: Queryable, code: string): Promise<ReportingDevice> {
  const [row] = await db.query<ReportingDevice>(
    'SELECT id, code, name, tenant_code, organization_code, product_code FROM device WHERE code = $1 AND deleted_at IS NULL',
    [code],
  );
  if (!row) throw new ReportRefused('unknown device');
  return row;
}

/** Parses and checks a report body: "bad json" or "out of range" (naming the first field at fault). */
export function parseReport(body: Buffer | string, now: Date): DeviceReport & { readAt: Date } {
  let value: unknown;
  try {
    value = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    throw new ReportRefused('bad json');
  }
  if (!validReport(value)) {
    const [error] = validReport.errors ?? [];
    const where = error ? `${error.instancePath || '/'} ${error.message ?? ''}`.trim() : '';
    throw new ReportRefused('out of range', where);
  }
  const readAt = value.reportedAt ? new Date(value.reportedAt) : now;
  if (readAt.getTime() > now.getTime() + FUTURE_SKEW_SECONDS * 1000) throw new ReportRefused('out of range', '/reportedAt 晚于平台时间');
  if (readAt.getTime() < now.getTime() - MAX_REPORT_AGE_DAYS * 86_400_000) throw new ReportRefused('out of range', `/reportedAt 早于 ${MAX_REPORT_AGE_DAYS} 天前`);
  return { ...value, readAt };
}

/**
 * Stores a taken report: its readings join the device's telemetry history (a second report of the
 * same instant is the same reading and is kept once); the device was seen now and is online; and
 * its latest readings become these unless a later reading is already stored (buffered readings
 * that arrive late go to the history only); the latest are evaluated against the tenant's alarm
 * rules (alarmEvaluation.ts) in the same transaction. Answers whether the readings became the
 * latest and which alarms they raised or recovered.
 */
export async function storeReport(
  db: Database,
  device: ReportingDevice,
  report: DeviceReport & { readAt: Date },
  now: Date,
  timeZone: string,
  log: (line: string) => void,
): Promise<StoredReport> {
  const temperature = report.temperature === undefined ? null : Math.round(report.temperature * 10) / 10;
  return db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO device_telemetry (device_id, reported_at, metrics, battery_level, signal_strength, temperature)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (device_id, reported_at) DO NOTHING`,
      [device.id, report.readAt, JSON.stringify(report.metrics ?? {}), report.batteryLevel ?? null, report.signalStrength ?? null, temperature],
    );
    const [latest] = await tx.query<{ newest: boolean }>(
      `SELECT NOT EXISTS (SELECT 1 FROM device_telemetry WHERE device_id = $1 AND reported_at > $2) AS newest`,
      [device.id, report.readAt],
    );
    const newest = latest?.newest ?? false;
    const [before] = await tx.query<{ online_state: string }>('SELECT online_state FROM device WHERE id = $1 FOR UPDATE', [device.id]);
    // last_reported_at marks the device as one that reports: the offline sweep watches only those.
    await tx.query(
      `UPDATE device SET last_seen_at = GREATEST(COALESCE(last_seen_at, $2), $2), last_reported_at = GREATEST(COALESCE(last_reported_at, $2), $2), online_state = 'online',
              activated_at = COALESCE(activated_at, $2), sleeping = false, sleep_since = NULL,
              battery_level = CASE WHEN $3 AND $4::smallint IS NOT NULL THEN $4::smallint ELSE battery_level END,
              signal_strength = CASE WHEN $3 AND $5::smallint IS NOT NULL THEN $5::smallint ELSE signal_strength END,
              temperature = CASE WHEN $3 AND $6::numeric IS NOT NULL THEN $6::numeric ELSE temperature END
        WHERE id = $1 AND deleted_at IS NULL`,
      [device.id, now, newest, report.batteryLevel ?? null, report.signalStrength ?? null, temperature],
    );
    const alarms = newest
      ? await evaluateRules(tx, device, report, report.readAt, now, timeZone, (inner, rule, text) => notifyAlarm(inner, rule, text, now, timeZone, log).then(() => undefined))
      : [];
    // Back from offline (the sweep's doing, offlineSweep.ts): its offline alarms recover.
    if (before && before.online_state === 'offline') alarms.push(...(await endOfflineEpisodes(tx, device.id, now)));
    // The live console: a device that comes online, and each alarm raised or recovered.
    const where = { tenantCode: device.tenant_code, organizationCode: device.organization_code };
    if (before && before.online_state !== 'online') await recordLiveEvent(tx, { kind: 'device.online', ...where, payload: { deviceCode: device.code } }, now);
    for (const alarm of alarms) {
      await recordLiveEvent(tx, { kind: alarm.change === 'raised' ? 'alarm.raised' : 'alarm.recovered', ...where, payload: { deviceCode: device.code, alarmCode: alarm.alarmCode } }, now);
    }
    return { latest: newest, alarms };
  });
}

interface Admission {
  limit: LimitFunction;
  /** The last reading of each device on its way: the next one of the device waits for it. */
  queued: Map<number, Promise<unknown>>;
}

const admissions = new WeakMap<ServerServices, Admission>();

/**
 * Stores a taken report as storeReport does, at most config.ingestConcurrency at once per server
 * (every transport shares the limit): a burst of readings waits here for its turn instead of
 * taking every pooled connection and failing on the pool's wait (a failed MQTT store closes the
 * device's connection, which sends everything again), and the console's calls keep connections.
 * One device's readings are stored one after another, in the order they came: at once, their
 * transactions would only collide on the device's row and be run again (PostgreSQL) until one
 * gave up.
 */
export function storeAdmitted(services: ServerServices, device: ReportingDevice, report: DeviceReport & { readAt: Date }, now: Date): Promise<StoredReport> {
  let admission = admissions.get(services);
  if (!admission) {
    admission = { limit: pLimit(services.config.ingestConcurrency), queued: new Map() };
    admissions.set(services, admission);
  }
  const { limit, queued } = admission;
  const store = () => limit(() => storeReport(services.db, device, report, now, services.config.timeZone, services.log));
  // After the device's previous reading, whether that one was stored or failed.
  const stored = (queued.get(device.id) ?? Promise.resolve()).then(store, store);
  queued.set(device.id, stored);
  const forget = () => {
    if (queued.get(device.id) === stored) queued.delete(device.id);
  };
  stored.then(forget, forget);
  return stored;
}

export interface StoredReport {
  /** Whether the readings became the device's latest. */
  latest: boolean;
  alarms: AlarmChange[];
}

/** A new secret for the device; the old one stops at once. Answers the secret (shown once, kept as its hash). */
export async function issueDeviceSecret(db: Queryable, deviceId: number, issuedBy: number | null, now: Date): Promise<string> {
  const secret = newToken();
  await db.query(
    `INSERT INTO device_credential (device_id, secret_hash, issued_at, issued_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (device_id) DO UPDATE SET secret_hash = EXCLUDED.secret_hash, issued_at = EXCLUDED.issued_at, issued_by = EXCLUDED.issued_by`,
    [deviceId, sha256(secret), now, issuedBy],
  );
  return secret;
}
