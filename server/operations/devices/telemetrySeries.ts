import type { Queryable } from '../../db/database';
import { parseBusinessTime, zoneOffsetMs } from '../../domain/businessTime';
import { TELEMETRY_METRICS } from '../../domain/deviceTelemetry';
import { fail } from '../../http/envelope';
import { defineOperation, type OperationDefinition } from '../../core/operation';
import { integerIn, objectOf, textMatching, TIME_PATTERN, type ParamOf, deviceCode } from '../../core/params';
import { deviceScope, findScopedDevice } from '../../core/deviceScope';

/**
 * A device's readings over a time range as curves (设备详情 → 数据趋势, issue 22): one series per
 * metric, each reading averaged into time buckets (with the bucket's least and greatest reading),
 * so that a month of reports every five seconds answers a few hundred points per metric, never the
 * rows. The range is either the last N minutes up to now (a key that stays the same while the
 * console refreshes it live) or a start and an end, at most 31 days apart. Reads device_telemetry
 * by its device and a reported_at range only (the table is partitioned by time).
 */

/** The longest range one call covers. */
export const SERIES_MAX_DAYS = 31;
export const SERIES_RANGE_MESSAGE = `时间范围不能超过${SERIES_MAX_DAYS}天`;
const MAX_MINUTES = SERIES_MAX_DAYS * 24 * 60;
/** Points per metric unless the caller asks for fewer or more (within the schema's bounds). */
export const DEFAULT_SERIES_POINTS = 240;
export const SERIES_POINTS = { min: 20, max: 500 } as const;

const seriesSchema = objectOf(
  {
    code: deviceCode,
    /** The last N minutes up to the request's time (1 … 44,640). */
    lastMinutes: integerIn(1, MAX_MINUTES),
    startTime: textMatching(32, TIME_PATTERN),
    endTime: textMatching(32, TIME_PATTERN),
    /** The most points a metric is answered with. */
    points: integerIn(SERIES_POINTS.min, SERIES_POINTS.max),
  },
  ['code'],
);
export type SeriesParam = ParamOf<typeof seriesSchema>;

/** Bucket widths (seconds) a range is cut into: the narrowest that keeps the points within bounds. */
const BUCKET_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 14400, 21600, 43200, 86400, 172800] as const;

/** The common readings every device reports besides its product's metrics (device_telemetry's columns). */
const COMMON_READINGS: Readonly<Record<string, { label: string; unit: string }>> = {
  temperature: { label: '设备温度', unit: '℃' },
  batteryLevel: { label: '电量', unit: '%' },
  signalStrength: { label: '信号强度', unit: '' },
};


/** One time bucket of a metric: the mean of its readings, the least and greatest, how many. */
export interface SeriesPoint {
  /** The bucket's start (ISO 8601). */
  time: string;
  avg: number;
  min: number;
  max: number;
  count: number;
}

export interface MetricSeries {
  /** The metric's name in the reports (`turbidity`, `batteryLevel`…). */
  key: string;
  /** Its Chinese name (浊度), or the key for a metric the platform does not know. */
  title: string;
  /** Its unit (NTU), empty when it has none. */
  unit: string;
  points: SeriesPoint[];
  /** The newest reading in the range. */
  latest: { time: string; value: number };
}

export interface TelemetrySeries {
  deviceCode: string;
  startTime: string;
  endTime: string;
  /** The width of a bucket, in seconds. */
  bucketSeconds: number;
  series: MetricSeries[];
}

/** The narrowest bucket width that cuts `spanSeconds` into at most `points` buckets, however they fall. */
export function bucketSecondsFor(spanSeconds: number, points: number): number {
  // A range cut into buckets aligned to the clock touches one more bucket than it spans.
  for (const step of BUCKET_STEPS) if (Math.ceil(spanSeconds / step) + 1 <= points) return step;
  return Math.ceil(spanSeconds / (points - 1));
}

/** The range asked for: the last minutes up to now, or a start and an end (at most 31 days apart). */
export function seriesRange(param: SeriesParam, now: Date, timeZone: string): [Date, Date] {
  const { lastMinutes, startTime, endTime } = param;
  if (lastMinutes !== undefined) {
    if (startTime !== undefined || endTime !== undefined) throw fail.badField('lastMinutes（不能与 startTime、endTime 同时使用）');
    return [new Date(now.getTime() - lastMinutes * 60_000), now];
  }
  if (startTime === undefined) throw fail.badField('startTime（不能为空）');
  if (endTime === undefined) throw fail.badField('endTime（不能为空）');
  const start = parseBusinessTime(startTime, timeZone);
  const end = parseBusinessTime(endTime, timeZone);
  if (Number.isNaN(start.getTime())) throw fail.badField('startTime（时间不正确）');
  if (Number.isNaN(end.getTime())) throw fail.badField('endTime（时间不正确）');
  if (end <= start) throw fail.badField('endTime（须晚于开始时间）');
  if (end.getTime() - start.getTime() > MAX_MINUTES * 60_000) throw fail.badRequest(SERIES_RANGE_MESSAGE);
  return [start, end];
}

/** Metrics the platform knows in their set order, then the others by name, then the common readings. */
function seriesOrder(key: string): [number, string] {
  const known = Object.keys(TELEMETRY_METRICS).indexOf(key);
  if (known >= 0) return [known, key];
  const common = Object.keys(COMMON_READINGS).indexOf(key);
  return common >= 0 ? [10_000 + common, key] : [1_000, key];
}

const rounded = (value: number) => Math.round(value * 1000) / 1000;

interface BucketRow {
  key: string;
  bucket: number;
  avg: number;
  min: number;
  max: number;
  count: number;
  last_value: number;
  last_at: Date;
}

/** Every metric of a device's readings in [start, end], bucketed `stepSeconds` wide on the business clock. */
export async function telemetrySeries(db: Queryable, deviceId: number, start: Date, end: Date, stepSeconds: number, timeZone: string): Promise<MetricSeries[]> {
  // Buckets begin on the business clock's round times (a day's at its midnight), the same on every
  // call: a live refresh of the last hour moves the buckets' contents, not their edges.
  const offsetSeconds = zoneOffsetMs(start, timeZone) / 1000;
  const rows = await db.query<BucketRow>(
    `WITH readings AS (
       SELECT reported_at, metrics, battery_level, signal_strength, temperature
         FROM device_telemetry
        WHERE device_id = $1 AND reported_at >= $2 AND reported_at <= $3
     ), points AS (
       SELECT r.reported_at, m.key, CASE WHEN jsonb_typeof(m.value) = 'number' THEN (m.value)::float8 END AS value
         FROM readings r CROSS JOIN LATERAL jsonb_each(r.metrics) m
        WHERE m.key NOT IN ('temperature', 'batteryLevel', 'signalStrength')
       UNION ALL SELECT reported_at, 'temperature', temperature::float8 FROM readings
       UNION ALL SELECT reported_at, 'batteryLevel', battery_level::float8 FROM readings
       UNION ALL SELECT reported_at, 'signalStrength', signal_strength::float8 FROM readings
     )
     SELECT key, floor((extract(epoch FROM reported_at)::float8 + $4::float8) / $5::float8) AS bucket,
            avg(value) AS avg, min(value) AS min, max(value) AS max, count(*)::int AS count,
            (array_agg(value ORDER BY reported_at DESC))[1] AS last_value, max(reported_at) AS last_at
       FROM points
      WHERE value IS NOT NULL
      GROUP BY key, bucket
      ORDER BY key, bucket`,
    [deviceId, start, end, offsetSeconds, stepSeconds],
  );
  const byKey = new Map<string, BucketRow[]>();
  for (const row of rows) {
    const list = byKey.get(row.key) ?? [];
    list.push(row);
    byKey.set(row.key, list);
  }
  const series: MetricSeries[] = [];
  for (const [key, buckets] of byKey) {
    const known = TELEMETRY_METRICS[key] ?? COMMON_READINGS[key];
    const last = buckets[buckets.length - 1];
    series.push({
      key,
      title: known?.label ?? key,
      unit: known?.unit ?? '',
      points: buckets.map((bucket) => ({
        time: new Date((Number(bucket.bucket) * stepSeconds - offsetSeconds) * 1000).toISOString(),
        avg: rounded(Number(bucket.avg)),
        min: rounded(Number(bucket.min)),
        max: rounded(Number(bucket.max)),
        count: Number(bucket.count),
      })),
      latest: { time: new Date(last.last_at).toISOString(), value: rounded(Number(last.last_value)) },
    });
  }
  return series.sort((a, b) => {
    const [rankA, nameA] = seriesOrder(a.key);
    const [rankB, nameB] = seriesOrder(b.key);
    return rankA - rankB || nameA.localeCompare(nameB);
  });
}

const series = defineOperation('device.telemetry.series', {
  paramSchema: seriesSchema,
  handler: async (context): Promise<TelemetrySeries> => {
    const device = await findScopedDevice(context.db, await deviceScope(context), context.param.code);
    const [start, end] = seriesRange(context.param, context.now, context.config.timeZone);
    const stepSeconds = bucketSecondsFor((end.getTime() - start.getTime()) / 1000, context.param.points ?? DEFAULT_SERIES_POINTS);
    return {
      deviceCode: device.code,
      startTime: start.toISOString(),
      endTime: end.toISOString(),
      bucketSeconds: stepSeconds,
      series: await telemetrySeries(context.db, device.id, start, end, stepSeconds, context.config.timeZone),
    };
  },
});

export const telemetrySeriesOperations: OperationDefinition[] = [series];
