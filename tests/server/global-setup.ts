import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { writeSeededDump } from '../../server/seed/dump';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of the migrated, seeded in-memory PGlite (PGlite dumpDataDir). */
    seededDatabaseDump: string;
  }
}
// The engine and the PostgreSQL cluster's keys are declared in global-setup-pg.ts.

/**
 * Builds the migrated, seeded database once per run; each test file starts from its dump. `npm
 * test` names the file in SEEDED_DUMP and keeps it, so the browser suite's servers start from the
 * same dump instead of seeding again.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  project.provide('databaseEngine', 'pglite');
  const shared = process.env.SEEDED_DUMP;
  if (shared) {
    if (!existsSync(shared)) await writeSeededDump(shared);
    project.provide('seededDatabaseDump', shared);
    return () => undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'iot-server-tests-'));
  const file = join(dir, 'seeded.tar');
  await writeSeededDump(file);
  project.provide('seededDatabaseDump', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
