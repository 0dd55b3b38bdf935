// How a world grows past the seed: tests/support/growWorld.ts, the generator the EXPLAIN test
// uses too, asked for what each table lacks of the world's totals.
import { fileURLToPath } from 'node:url';
import type { Database } from '../../server/db/database';
import { growWorld, type GrowthSizes } from '../../tests/support/growWorld';

/** Rows a world's tables hold in all (the seed's rows count). */
export type WorldSizes = Partial<GrowthSizes>;

/** The generator's name and file: a world built by another generator, or before its file changed, is built again. */
export const GENERATOR = 'tests/support/growWorld.ts';
export const GENERATOR_FILE = fileURLToPath(new URL('../../tests/support/growWorld.ts', import.meta.url));

const TABLE = /^[a-z_]+$/;

/** Grows every table of `sizes` to its total; answers what was added. */
export async function grow(db: Database, sizes: WorldSizes, log: (line: string) => void, engine: 'pglite' | 'postgresql'): Promise<Partial<GrowthSizes>> {
  const added: Partial<GrowthSizes> = {};
  for (const [table, total] of Object.entries(sizes) as Array<[keyof GrowthSizes, number]>) {
    if (!TABLE.test(table)) throw new Error(`not a table: ${table}`);
    const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    if (total > n) added[table] = total - n;
  }
  const took = await growWorld(db, added, {
    // Slices small enough that no statement holds millions of rows in memory (PGlite keeps its heap in wasm).
    slice: engine === 'pglite' ? 200_000 : 1_000_000,
    log: (line) => log(`  ${line}`),
  });
  log(`  用时（秒）：${Object.entries(took)
    .map(([table, ms]) => `${table} ${Math.round(ms / 100) / 10}`)
    .join('，')}`);
  return added;
}
