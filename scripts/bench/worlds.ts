// The bench's grown worlds, built once and kept under .bench/: the 100,000-device world on both
// engines (a PGlite data folder, a database of the bench cluster) and the 1,000,000-device world on
// PostgreSQL only. A world is rebuilt when its mark is missing, its sizes or its generator changed,
// or a migration it had applied was edited since (other than an index migration, below); a migration it has not applied yet is applied
// to the kept world (openDatabase migrates) and its statistics are taken again; an index migration
// edited since is synced (schemaSync.ts) instead of growing the world again.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseTooNew, listMigrations } from '../../server/db/migrate';
import { openDatabase } from '../../server/openDatabase';
import type { BenchCluster } from './cluster';
import { CLUSTER_DIR } from './cluster';
import { benchDir, root } from './common';
import { GENERATOR, GENERATOR_FILE, grow, type WorldSizes } from './growth';
import { indexOnly, syncIndexes } from './schemaSync';

export type { WorldSizes } from './growth';

export type WorldKey = 'pglite-100k' | 'postgres-100k' | 'postgres-1m';
export const WORLD_KEYS: readonly WorldKey[] = ['postgres-100k', 'pglite-100k', 'postgres-1m'];

export interface World {
  key: WorldKey;
  engine: 'pglite' | 'postgresql';
  sizes: WorldSizes;
  /** The PGlite data folder. */
  dataDir?: string;
  /** The database of the bench cluster. */
  database?: string;
  /** p99 budget of the device page (and the alarm, work-order, card and login-log pages) at 50 connections. */
  pageBudgetMs: number;
  /** p99 budget of auth/web/_init at 50 connections; undefined: measured without one; null: not measured. */
  initBudgetMs?: number | null;
}

/**
 * The totals of a world: the devices and alarms it is named by, the work orders, cards and login
 * records the issue names (the same in both worlds), and the other tables that grow with the fleet
 * (tests/support/growWorld.ts) at the fleet's scale, so that every menu list reads a grown table.
 */
function worldSizes(devices: number, alarms: number): WorldSizes {
  const scale = devices / 100_000;
  return {
    device: devices,
    alarm_record: alarms,
    work_order: 200_000,
    sim_card: 500_000,
    login_log: 1_000_000,
    device_error: 20_000 * scale,
    device_telemetry: 200_000 * scale,
    device_health_sample: 100_000 * scale,
    upgrade_task_device: 50_000 * scale,
    repair_report: 20_000,
    repair_batch: 5_000,
    patrol_task: 20_000,
    patrol_record: 100_000,
    card_order: 20_000,
    card_delivery: 20_000,
    card_alter: 10_000,
    card_recharge: 20_000,
    card_renew: 200_000,
    card_renew_order: 20_000,
    usage_message: 500_000,
    notification: 20_000,
    notification_recipient: 200_000,
    mall_order: 40_000,
    invoice: 15_000,
  };
}

export const WORLDS: Record<WorldKey, World> = {
  'postgres-100k': { key: 'postgres-100k', engine: 'postgresql', database: 'bench_100k', sizes: worldSizes(100_000, 1_000_000), pageBudgetMs: 100, initBudgetMs: 30 },
  'pglite-100k': { key: 'pglite-100k', engine: 'pglite', dataDir: join(benchDir, 'pglite-100k'), sizes: worldSizes(100_000, 1_000_000), pageBudgetMs: 400 },
  'postgres-1m': { key: 'postgres-1m', engine: 'postgresql', database: 'bench_1m', sizes: worldSizes(1_000_000, 10_000_000), pageBudgetMs: 200, initBudgetMs: null },
};

/** What a kept world's mark file holds. */
export interface WorldMark {
  sizes: WorldSizes;
  generator: string;
  /** The generator's code without its comments: a world is built again when it changes. */
  generatorHash: string;
  builtAt: string;
  /** Seeding and migrating, growing, and VACUUM ANALYZE, in seconds. */
  seconds: { seed: number; grow: number; analyze: number; total: number };
  /** pg_database_size, or the data folder's bytes. */
  sizeBytes: number;
  /** The migrations the world has applied (a newer file of one of them means it was edited: rebuild). */
  migrations: string[];
  /** When pending migrations were last applied to the kept world. */
  migratedAt?: string;
}

const markFile = (world: World) => (world.engine === 'pglite' ? join(benchDir, `${world.key}.world.json`) : join(CLUSTER_DIR, `${world.key}.world.json`));

export function readMark(world: World): WorldMark | null {
  try {
    return JSON.parse(readFileSync(markFile(world), 'utf8')) as WorldMark;
  } catch {
    return null;
  }
}

const migrationsDir = join(root, 'server/db/migrations');

/** A hash of the generator's code, comment lines and blank lines left out. */
export function generatorHash(): string {
  const code = readFileSync(GENERATOR_FILE, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*\*|\*)/.test(line) && line.trim() !== '')
    .join('\n');
  return createHash('sha256').update(code).digest('hex').slice(0, 16);
}

/** What a kept world needs: to be built again (and why), or pending migrations applied, or its indexes synced with edited index migrations. */
interface Staleness {
  rebuild?: string;
  migrate: boolean;
  syncIndexes: string[];
}

const rebuild = (why: string): Staleness => ({ rebuild: why, migrate: false, syncIndexes: [] });

function staleness(world: World, mark: WorldMark | null): Staleness {
  if (!mark) return rebuild('没有标记文件');
  if (JSON.stringify(mark.sizes) !== JSON.stringify(world.sizes)) return rebuild('规模改变');
  if (mark.generator !== GENERATOR) return rebuild(`生成器改为 ${GENERATOR}`);
  if (mark.generatorHash !== generatorHash()) return rebuild(`${GENERATOR} 改变`);
  const markedAt = statSync(markFile(world)).mtimeMs;
  const applied = new Set(mark.migrations);
  const edited: string[] = [];
  for (const file of readdirSync(migrationsDir).filter((name) => name.endsWith('.sql'))) {
    if (statSync(join(migrationsDir, file)).mtimeMs <= markedAt || !applied.has(file.replace(/\.sql$/, ''))) continue;
    // An applied migration edited since: an index migration being tuned is synced, anything else rebuilds.
    if (!indexOnly(readFileSync(join(migrationsDir, file), 'utf8'))) return rebuild(`已应用的迁移 ${file} 在生成后被修改`);
    edited.push(file);
  }
  return { migrate: listMigrations().some((migration) => !applied.has(migration.name)), syncIndexes: edited };
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : entry.isFile() ? statSync(path).size : 0;
  }
  return total;
}

const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

/** The server's pool settings for building: no statement timeout (a slice of ten million rows runs for minutes). */
const BUILD_POOL = { poolMax: 2, statementTimeoutMs: 0, log: (message: string) => console.warn(message) };

async function openWorld(world: World, cluster: BenchCluster | null) {
  if (world.engine === 'pglite') return openDatabase({ dataDir: world.dataDir });
  if (!cluster) throw new Error('no cluster');
  return openDatabase({ databaseUrl: cluster.appUrl(world.database!), postgres: BUILD_POOL });
}

async function analyze(world: World, cluster: BenchCluster | null): Promise<void> {
  if (world.engine === 'postgresql') {
    // As the superuser: the application role would be warned about every TOAST table.
    await cluster!.admin(world.database!, 'VACUUM (ANALYZE)');
    return;
  }
  const { db } = await openWorld(world, cluster);
  try {
    await db.exec('VACUUM ANALYZE');
  } finally {
    await db.close();
  }
}

async function sizeOf(world: World, cluster: BenchCluster | null): Promise<number> {
  if (world.engine === 'pglite') return folderBytes(world.dataDir!);
  const [row] = await cluster!.admin<{ bytes: string }>('postgres', 'SELECT pg_database_size($1)::text AS bytes', [world.database]);
  return Number(row.bytes);
}

async function build(world: World, cluster: BenchCluster | null, log: (line: string) => void): Promise<WorldMark> {
  rmSync(markFile(world), { force: true });
  const started = Date.now();
  if (world.engine === 'pglite') {
    rmSync(world.dataDir!, { recursive: true, force: true });
    mkdirSync(benchDir, { recursive: true });
  } else {
    await cluster!.dropDatabase(world.database!);
    await cluster!.ensureDatabase(world.database!);
  }
  const { db } = await openWorld(world, cluster);
  const seeded = Date.now();
  try {
    await grow(db, world.sizes, log, world.engine);
  } finally {
    await db.close();
  }
  const grown = Date.now();
  // growWorld vacuumed and analysed the tables it grew; on PostgreSQL the rest too (the visibility
  // map of the seeded tables), as autovacuum would have by now. PGlite analyses on every start.
  if (world.engine === 'postgresql') {
    log('  VACUUM ANALYZE…');
    await analyze(world, cluster);
  }
  const mark: WorldMark = {
    sizes: world.sizes,
    generator: GENERATOR,
    generatorHash: generatorHash(),
    builtAt: new Date().toISOString(),
    seconds: { seed: Math.round((seeded - started) / 100) / 10, grow: Math.round((grown - seeded) / 100) / 10, analyze: seconds(grown), total: seconds(started) },
    sizeBytes: await sizeOf(world, cluster),
    migrations: listMigrations().map((migration) => migration.name),
  };
  writeFileSync(markFile(world), JSON.stringify(mark, null, 2));
  return mark;
}

/** Makes the world ready (building, or migrating the kept one) and answers its mark. */
export async function prepareWorld(world: World, cluster: BenchCluster | null, log: (line: string) => void): Promise<WorldMark> {
  const mark = readMark(world);
  const state = staleness(world, mark);
  let reason = state.rebuild;
  if (!reason && world.engine === 'postgresql' && !(await cluster!.databaseExists(world.database!))) reason = '数据库不存在';
  if (!reason && world.engine === 'pglite' && !existsSync(world.dataDir!)) reason = '数据目录不存在';
  if (!reason && !state.migrate && !state.syncIndexes.length) return mark!;
  if (!reason && mark) {
    const edited = state.syncIndexes;
    log(`${world.key}：${state.migrate ? '应用新的迁移' : ''}${state.migrate && edited.length ? '，' : ''}${edited.length ? `按修改过的 ${edited.join('、')} 同步索引` : ''}…`);
    try {
      const { db } = await openWorld(world, cluster);
      let changes: string[] | null = [];
      try {
        if (edited.length) changes = await syncIndexes(db, world.engine, cluster, log);
      } finally {
        await db.close();
      }
      if (changes === null) reason = '表结构与迁移不一致';
      else {
        if (changes.length) log(`  ${changes.join('，')}`);
        await analyze(world, cluster);
        const migrated: WorldMark = { ...mark, migrations: listMigrations().map((migration) => migration.name), migratedAt: new Date().toISOString(), sizeBytes: await sizeOf(world, cluster) };
        writeFileSync(markFile(world), JSON.stringify(migrated, null, 2));
        return migrated;
      }
    } catch (error) {
      if (!(error instanceof DatabaseTooNew)) throw error;
      reason = '数据库的迁移比代码新';
    }
  }
  const { sizes } = world;
  log(`${world.key}：生成世界（${reason}）：设备 ${sizes.device}、告警 ${sizes.alarm_record}、工单 ${sizes.work_order}、物联网卡 ${sizes.sim_card}、登录日志 ${sizes.login_log} 及其他 ${Object.keys(sizes).length - 5} 张表…`);
  const built = await build(world, cluster, log);
  log(`${world.key}：生成用时 ${built.seconds.total} 秒（种子 ${built.seconds.seed}、增长 ${built.seconds.grow}、VACUUM ANALYZE ${built.seconds.analyze}），${(built.sizeBytes / 2 ** 30).toFixed(2)} GiB`);
  return built;
}
