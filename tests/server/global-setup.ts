import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../server/db/migrate';
import { openPglite } from '../../server/db/pglite';
import { buildSeed, seedIfEmpty } from '../../server/seed/seed';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of the migrated, seeded in-memory PGlite (PGlite dumpDataDir). */
    seededDatabaseDump: string;
  }
}

/** Builds the migrated, seeded database once per run (~3 s); each test file starts from its dump. */
export default async function setup(project: TestProject): Promise<() => void> {
  const db = await openPglite();
  await migrate(db);
  await seedIfEmpty(db, () => buildSeed());
  const dump = await db.dump();
  await db.close();
  const dir = mkdtempSync(join(tmpdir(), 'iot-server-tests-'));
  const file = join(dir, 'seeded.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('seededDatabaseDump', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
