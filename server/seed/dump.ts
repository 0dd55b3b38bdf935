import { renameSync, writeFileSync } from 'node:fs';
import { migrate } from '../db/migrate';
import { ensureEntityTables } from '../entities/tables';
import { openPglite } from '../db/pglite';
import { buildSeed, keepSeedSnapshot, seedIfEmpty } from './seed';

/**
 * Writes a tarball of a migrated, seeded in-memory PGlite (PGlite `dumpDataDir`) to `file`: the
 * test suites build the demo world once per run and every server of the run starts from a copy.
 * The dump carries the planner's statistics and the kept copy that `dev.reset` restores from, so
 * a server loaded from it resets cheaply from its first reset on.
 */
export async function writeSeededDump(file: string): Promise<void> {
  const db = await openPglite();
  try {
    await migrate(db);
    await db.transaction((tx) => ensureEntityTables(tx, new Date()));
    const data = await buildSeed();
    await seedIfEmpty(db, async () => data);
    await keepSeedSnapshot(db, data);
    await db.exec('ANALYZE');
    const dump = await db.dump();
    // Whole or not at all: a reader that finds the file may load it.
    writeFileSync(`${file}.part`, Buffer.from(await dump.arrayBuffer()));
    renameSync(`${file}.part`, file);
  } finally {
    await db.close();
  }
}
