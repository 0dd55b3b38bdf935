import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { FIRMWARE_REPORT_PROPERTIES, type FirmwareReport } from './firmwareReportFields';

/**
 * Whether a device's message is a report the platform takes (issue 22; limits, issue 30): its JSON,
 * its size, its depth and its ranges, whatever carried it (HTTP, the embedded broker, an external
 * one). A refused message is a ReportRefused with the outcome it is counted under.
 */

/** What a device reports: readings taken at `reportedAt` (the receipt time when it is left out), and its firmware (firmwareReportFields.ts). */
export interface DeviceReport extends FirmwareReport {
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
    // The firmware it runs and how an upgrade goes (issue 31).
    ...FIRMWARE_REPORT_PROPERTIES,
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

/** A report nests two levels at most (`{"metrics": {…}}`, `{"faultCodes": […]}`, `{"ota": {…}}`). */
const MAX_REPORT_DEPTH = 2;

/** Whether the JSON text opens more than `max` objects or arrays inside each other (a scan, nothing built; a command's reply is checked by it too). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === 0x5c) at += 1;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (char === 0x7d || char === 0x5d) depth -= 1;
  }
  return false;
}

/**
 * Parses and checks a report body: "too large" past REPORT_BODY_LIMIT (whatever carried it: an
 * external broker may take larger messages), "out of range" when it nests deeper than a report does
 * (refused before parsing: a deeply nested body costs the parser far more than its size says),
 * "bad json" or "out of range" (naming the first field at fault).
 */
export function parseReport(body: Buffer | string, now: Date): DeviceReport & { readAt: Date } {
  if (Buffer.byteLength(body) > REPORT_BODY_LIMIT) throw new ReportRefused('too large');
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (nestsDeeperThan(text, MAX_REPORT_DEPTH)) throw new ReportRefused('out of range', `/ 嵌套超过 ${MAX_REPORT_DEPTH} 层`);
  let value: unknown;
  try {
    value = JSON.parse(text);
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
