import type { Database } from '../db/database';
import { startPeriodicTask, type PeriodicTask } from '../periodicTask';
import { MAX_REPORT_AGE_DAYS } from './deviceReports';

/**
 * The telemetry history's monthly partitions (issue 22, migration 108): device_telemetry is
 * partitioned by reported_at, one partition per UTC month (device_telemetry_pYYYYMM). The server
 * creates the months a reading may fall in ahead of time — from MAX_REPORT_AGE_DAYS back (a device
 * sends what it buffered) to MONTHS_AHEAD months on — and moves any rows that had to wait in the
 * default partition into their month's new partition; and, with TELEMETRY_RETENTION_DAYS (365 by
 * default, 0 = keep everything), drops each month that ended before the retention began: a whole
 * table dropped, never a DELETE of billions of rows. Run at start and every hour by the server
 * process (server/main.ts); several instances take turns (an advisory lock in the SQL functions).
 */

/** Months created ahead of the current one. */
export const MONTHS_AHEAD = 2;
/** How often the partitions are looked after (seconds). */
export const PARTITION_MAINTENANCE_SECONDS = 3600;

export interface PartitionChanges {
  created: string[];
  dropped: string[];
}

/** The first instant (UTC) of the month `offset` months from the one holding `at`. */
function monthStart(at: Date, offset: number): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

/** Creates the months ahead (and those rows in the default partition wait for), drops the expired ones. */
export async function maintainTelemetryPartitions(db: Database, now: Date, retentionDays: number): Promise<PartitionChanges> {
  return db.transaction(async (tx) => {
    // DDL waits for the readings' transactions on the table; a long wait gives up until the next run.
    await tx.exec("SET LOCAL lock_timeout = '10s'");
    const months: Date[] = [];
    const oldest = new Date(now.getTime() - (MAX_REPORT_AGE_DAYS + 1) * 86_400_000);
    for (let month = monthStart(oldest, 0); month <= monthStart(now, MONTHS_AHEAD); month = monthStart(month, 1)) months.push(month);
    const waiting = await tx.query<{ month: Date }>(
      "SELECT DISTINCT date_trunc('month', reported_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month FROM device_telemetry_default",
    );
    const cutoff = retentionDays > 0 ? new Date(now.getTime() - retentionDays * 86_400_000) : null;
    for (const { month } of waiting) {
      // A month the retention drops anyway is not created for the rows waiting in the default partition.
      const at = new Date(month);
      if (!cutoff || monthStart(at, 1) > cutoff) months.push(at);
    }
    const created: string[] = [];
    for (const month of months) {
      const [row] = await tx.query<{ name: string | null }>('SELECT device_telemetry_ensure_month($1::timestamptz) AS name', [month]);
      if (row?.name) created.push(row.name);
    }
    const dropped = cutoff ? (await tx.query<{ name: string }>('SELECT device_telemetry_drop_before($1::timestamptz) AS name', [cutoff])).map((row) => row.name) : [];
    return { created, dropped };
  });
}

/** The partitions of device_telemetry with their bounds, oldest first (the default one last). */
export async function telemetryPartitions(db: Database): Promise<Array<{ name: string; bound: string }>> {
  return db.query<{ name: string; bound: string }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'device_telemetry'::regclass ORDER BY c.relname = 'device_telemetry_default', c.relname`,
  );
}

/** Looks after the partitions at start and every PARTITION_MAINTENANCE_SECONDS (server/periodicTask.ts). */
export function startTelemetryPartitions(db: Database, retentionDays: number, now: () => Date, log: (line: string) => void, warn: (line: string) => void): PeriodicTask {
  return startPeriodicTask({ name: 'telemetry partitions', seconds: PARTITION_MAINTENANCE_SECONDS, atStart: true, warn }, async () => {
    const changes = await maintainTelemetryPartitions(db, now(), retentionDays);
    if (changes.created.length > 0 || changes.dropped.length > 0) {
      log(`telemetry partitions: created ${changes.created.join(', ') || 'none'}; dropped (older than ${retentionDays} days) ${changes.dropped.join(', ') || 'none'}`);
    }
  });
}
