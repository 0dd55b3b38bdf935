/**
 * How long each operation took over the last hour, on this instance (issue 24: the system status
 * page's 最慢的操作). Bounded: one slot per minute of the hour (60), in each the calls of every
 * operation called that minute with their count, total and longest time and a coarse histogram
 * (geometric buckets, each 1.5 times the last) from which the 95th percentile is read to within
 * its bucket. Fed by the onResponse hook of server/http/operability.ts with the Prometheus one.
 */

const MINUTE_MS = 60_000;
/** The minutes remembered: the current one and the 59 before it. */
export const WINDOW_MINUTES = 60;
const BUCKET_GROWTH = 1.5;
/** 1.5^30 ms is past 3 hours: every call finds a bucket. */
const BUCKETS = 31;
const BUCKET_BOUNDS_MS = Array.from({ length: BUCKETS }, (_, index) => BUCKET_GROWTH ** index);

interface MinuteOfOperation {
  count: number;
  totalMs: number;
  maxMs: number;
  buckets: Uint32Array;
}

interface MinuteSlot {
  /** Minutes since the epoch this slot holds; another minute empties it first. */
  minute: number;
  operations: Map<string, MinuteOfOperation>;
}

/** One operation's figures over the last hour. */
export interface OperationTiming {
  operation: string;
  count: number;
  averageMs: number;
  /** The 95th percentile, read from the histogram: the upper bound of its bucket (never above the longest). */
  p95Ms: number;
  maxMs: number;
}

function bucketOf(ms: number): number {
  if (ms <= 1) return 0;
  return Math.min(BUCKETS - 1, Math.ceil(Math.log(ms) / Math.log(BUCKET_GROWTH)));
}

const round1 = (value: number) => Math.round(value * 10) / 10;

export class OperationDurations {
  private readonly slots: Array<MinuteSlot | undefined> = new Array<MinuteSlot | undefined>(WINDOW_MINUTES);

  /** Notes one call of `operation` that took `ms`, finished at `at`. */
  record(operation: string, ms: number, at: Date): void {
    const minute = Math.floor(at.getTime() / MINUTE_MS);
    const index = minute % WINDOW_MINUTES;
    let slot = this.slots[index];
    if (!slot || slot.minute !== minute) this.slots[index] = slot = { minute, operations: new Map() };
    let figures = slot.operations.get(operation);
    if (!figures) slot.operations.set(operation, (figures = { count: 0, totalMs: 0, maxMs: 0, buckets: new Uint32Array(BUCKETS) }));
    figures.count += 1;
    figures.totalMs += ms;
    figures.maxMs = Math.max(figures.maxMs, ms);
    figures.buckets[bucketOf(ms)] += 1;
  }

  /** The `limit` slowest operations of the hour before `now`, by 95th percentile, then longest time. */
  slowest(now: Date, limit = 10): OperationTiming[] {
    const current = Math.floor(now.getTime() / MINUTE_MS);
    const merged = new Map<string, MinuteOfOperation>();
    for (const slot of this.slots) {
      if (!slot || slot.minute > current || slot.minute <= current - WINDOW_MINUTES) continue;
      for (const [operation, figures] of slot.operations) {
        const sum = merged.get(operation) ?? { count: 0, totalMs: 0, maxMs: 0, buckets: new Uint32Array(BUCKETS) };
        sum.count += figures.count;
        sum.totalMs += figures.totalMs;
        sum.maxMs = Math.max(sum.maxMs, figures.maxMs);
        for (let index = 0; index < BUCKETS; index += 1) sum.buckets[index] += figures.buckets[index];
        merged.set(operation, sum);
      }
    }
    return [...merged]
      .map(([operation, sum]) => ({
        operation,
        count: sum.count,
        averageMs: round1(sum.totalMs / sum.count),
        p95Ms: round1(Math.min(sum.maxMs, percentileBound(sum.buckets, sum.count, 0.95))),
        maxMs: round1(sum.maxMs),
      }))
      .sort((a, b) => b.p95Ms - a.p95Ms || b.maxMs - a.maxMs || a.operation.localeCompare(b.operation))
      .slice(0, limit);
  }
}

/** The upper bound of the bucket holding the `share` percentile of `count` calls. */
function percentileBound(buckets: Uint32Array, count: number, share: number): number {
  const rank = Math.ceil(count * share);
  let seen = 0;
  for (let index = 0; index < BUCKETS; index += 1) {
    seen += buckets[index];
    if (seen >= rank) return BUCKET_BOUNDS_MS[index];
  }
  return BUCKET_BOUNDS_MS[BUCKETS - 1];
}

/** What the status page tells of this instance (per instance: another one keeps its own). */
export interface InstanceRecord {
  /** When this instance's app was built (config.now() then). */
  startedAt: Date;
  durations: OperationDurations;
}
