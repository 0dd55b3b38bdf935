import { readFileSync } from 'node:fs';
import { loadCatalogue, type Catalogue } from '../../catalogue';
import type { DatabaseEngine, PoolStatistics } from '../../db/database';
import { fail } from '../../http/envelope';
import type { OperationTiming } from '../../http/operationDurations';
import { isPlatformStaff, requireView } from '../../core/access';
import { defineOperation } from '../../core/operation';

/** The system status page (schemas/pages/system/status.json): platform staff only. */
export const SYSTEM_STATUS_VIEW = 'system/status';
const HOUR_MS = 3_600_000;
const MIB = 1024 * 1024;

/** One of the slowest operations of the last hour, with its catalogue title. */
export interface SlowOperation extends OperationTiming {
  title: string;
}

/** What system.status answers: this instance, its database and its last hour (issue 24). */
export interface SystemStatus {
  /** The build's version (package.json). */
  version: string;
  engine: DatabaseEngine;
  /** The database server and its version: "PostgreSQL 15.14 (Debian 15.14-0+deb12u1)", "PostgreSQL 18.6 (PGlite 0.5.16)". */
  databaseVersion: string;
  /** When this instance started (ISO 8601) and how long ago, in whole seconds. */
  startedAt: string;
  uptimeSeconds: number;
  /** pg_database_size of the current database, and the same in MiB to one decimal. */
  databaseBytes: number;
  databaseMiB: number;
  /** The connection pool's use (PostgreSQL); null on the embedded engine, which has none. */
  pool: PoolStatistics | null;
  /** The ten slowest operations of the last hour on this instance, by 95th percentile, then longest time. */
  slowestOperations: SlowOperation[];
  /**
   * Messages written to the outbox in the last hour (verification codes, notification channels):
   * the figure that moves with the traffic. The channel messages are sent within seconds by the
   * delivery loop (server/ingest/outboxDelivery.ts); their retries are in its log.
   */
  outboxLastHour: number;
}

let version: string | undefined;
/** package.json's version, read once. */
function buildVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return version;
}

let titles: Catalogue | undefined;
/** The catalogue title of an operation (the name itself when it has none). */
function titleOf(operation: string): string {
  titles ??= loadCatalogue();
  return titles[operation]?.title ?? operation;
}

export const systemStatus = defineOperation('system.status', {
  handler: async (context): Promise<SystemStatus> => {
    await requireView(context, SYSTEM_STATUS_VIEW);
    // The figures are the whole platform's: never a tenant's, whatever its menus were given.
    if (!isPlatformStaff(context)) throw fail.forbidden();
    const { db, instance, now } = context;
    const [[database], [outbox]] = await Promise.all([
      db.query<{ bytes: string; version: string }>('SELECT pg_database_size(current_database())::text AS bytes, version() AS version'),
      db.query<{ count: number }>('SELECT count(*)::int AS count FROM outbox WHERE created_at > $1', [new Date(now.getTime() - HOUR_MS)]),
    ]);
    const bytes = Number(database?.bytes ?? 0);
    return {
      version: buildVersion(),
      engine: db.engine,
      // version() goes on with the platform and the compiler: " on x86_64-pc-linux-gnu, compiled by …".
      databaseVersion: (database?.version ?? '').split(' on ')[0] ?? '',
      startedAt: instance.startedAt.toISOString(),
      uptimeSeconds: Math.max(0, Math.floor((now.getTime() - instance.startedAt.getTime()) / 1000)),
      databaseBytes: bytes,
      databaseMiB: Math.round((bytes / MIB) * 10) / 10,
      pool: db.poolStatistics?.() ?? null,
      slowestOperations: instance.durations.slowest(now, 10).map((timing) => ({ ...timing, title: titleOf(timing.operation) })),
      outboxLastHour: outbox?.count ?? 0,
    };
  },
});

export const statusOperations = [systemStatus];
