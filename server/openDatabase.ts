import type { Database } from './db/database';
import { sealPlainChannels } from './domain/channelSecrets';
import { migrate } from './db/migrate';
import { openPglite } from './db/pglite';
import { openPostgres, type PostgresOptions } from './db/postgres';
import { catalogueChangesLine, syncCatalogue, type CatalogueChanges } from './seed/catalogueSync';
import { buildSeed, forgetSeedSnapshot, SEED, seedIfEmpty } from './seed/seed';
import type { SeedData } from './db/bulk';
import { changedShape, ensureEntityTables, entityTablesLine, type EntityTableChanges } from './entities/tables';

export interface OpenOptions {
  /** A PostgreSQL server; when absent the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data folder (ignored with `memory` or `databaseUrl`). */
  dataDir?: string;
  memory?: boolean;
  /** In memory, starting from this PGlite dump (`server/seed/dump.ts`) instead of an empty database. */
  dump?: Blob;
  /** The business time zone pinned on every connection (Asia/Shanghai unless given). */
  timeZone?: string;
  /** The PostgreSQL pool's settings (DATABASE_POOL_MAX, …), with `databaseUrl`. */
  postgres?: Omit<PostgresOptions, 'connectionString' | 'timeZone'>;
}

export interface OpenedDatabase {
  db: Database;
  /** Where the data lives, for the start-up line. */
  description: string;
  /** The seed rows when this start seeded an empty database (kept for dev.reset), else null. */
  seed: SeedData | null;
  /** What start-up added of the schema files' menus, buttons and dictionaries, as a log line (null: nothing; nothing is said after a seed). */
  catalogueLine: string | null;
  /** What start-up created of the managed entities' tables, columns and indexes (issue 25), as a log line (null: nothing; nothing is said after a seed). */
  entityLine: string | null;
}

/** Opens the database, applies pending migrations and seeds it when empty. */
export async function openDatabase(options: OpenOptions): Promise<OpenedDatabase> {
  let db: Database;
  let description: string;
  if (options.databaseUrl) {
    db = openPostgres({ ...options.postgres, connectionString: options.databaseUrl, timeZone: options.timeZone });
    description = `PostgreSQL ${new URL(options.databaseUrl).host}`;
  } else if (options.dump) {
    db = await openPglite({ dump: options.dump, timeZone: options.timeZone });
    description = 'PGlite（内存，载入种子数据快照）';
  } else if (options.memory) {
    db = await openPglite({ timeZone: options.timeZone });
    description = 'PGlite（内存）';
  } else {
    const dataDir = options.dataDir ?? '.data/pglite';
    db = await openPglite({ dataDir, timeZone: options.timeZone });
    description = `PGlite ${dataDir}`;
  }
  try {
    let seed: SeedData | null = null;
    // Instances started together on one empty database take turns: the first migrates and seeds,
    // the others then find both done.
    let catalogue: CatalogueChanges | null = null;
    let tables: EntityTableChanges | null = null;
    const seeded = await db.exclusively('iot-console:migrate', async () => {
      await migrate(db);
      // Channel secrets an earlier version kept in the clear, sealed once (migration 127).
      await sealPlainChannels(db);
      // The managed entities' tables (schemas/entities, issue 25): created or widened before the
      // seed, which fills them on an empty database; a table created on a seeded one gets its demo rows.
      const changes = await db.transaction((tx) => ensureEntityTables(tx, new Date()));
      tables = changes;
      // A kept copy of the seeded world (dev.reset) taken before the change no longer fits the tables.
      if (changedShape(changes)) await forgetSeedSnapshot(db);
      const fresh = await seedIfEmpty(db, async () => (seed = await buildSeed(SEED, new Date(), options.timeZone)));
      // Menus, buttons and dictionaries added to the schema files since the database was seeded.
      catalogue = await db.transaction((tx) => syncCatalogue(tx));
      return fresh;
    });
    // The planner's statistics: PGlite runs no autovacuum, so without this a data folder is
    // planned as if its tables were empty (an alarm page took 240 ms instead of 50). A server
    // gets them after a seed; PGlite on every start, as its tables grow between starts (a dump
    // carries the statistics of the world it holds).
    if (seeded || (!options.databaseUrl && !options.dump)) await db.exec('ANALYZE');
    const added: CatalogueChanges | null = catalogue;
    const created: EntityTableChanges | null = tables;
    return {
      db,
      description,
      seed,
      catalogueLine: !seeded && added ? catalogueChangesLine(added) : null,
      entityLine: !seeded && created ? entityTablesLine(created) : null,
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
