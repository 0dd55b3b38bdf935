import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/openDatabase';
import { keepSeedSnapshot } from '../../server/seed/seed';
import { adminQuery, startPostgresCluster } from '../support/postgresCluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The engine the server files run on in this project. */
    databaseEngine: 'pglite' | 'postgres';
    /** With PostgreSQL: the port of the throw-away cluster (tests/support/postgresCluster.ts). */
    postgresPort: number;
    /** With PostgreSQL: the migrated, seeded database that each test server's database is copied from. */
    postgresTemplate: string;
  }
}

export const SEEDED_TEMPLATE = 'iot_seeded';

/**
 * The server suite on a real PostgreSQL: starts a throw-away cluster (loopback, a non-superuser
 * application role, a cluster time zone that is neither UTC nor the platform's), migrates and
 * seeds one database through the server's own start-up path, and hands its name to the harness,
 * which copies it for each test server (CREATE DATABASE … TEMPLATE).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgresCluster();
  try {
    await adminQuery(cluster, `CREATE DATABASE ${SEEDED_TEMPLATE} OWNER iot_app`);
    const { db, seed } = await openDatabase({ databaseUrl: cluster.appUrl(SEEDED_TEMPLATE) });
    try {
      if (!seed) throw new Error('the template database was not seeded');
      await keepSeedSnapshot(db, seed);
      await db.exec('ANALYZE');
    } finally {
      await db.close();
    }
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  project.provide('databaseEngine', 'postgres');
  project.provide('postgresPort', cluster.port);
  project.provide('postgresTemplate', SEEDED_TEMPLATE);
  return () => cluster.stop();
}
