// The server group of `npm run bench` (issue 19): the device page and auth/web/_init at 50
// connections over the 100,000-device world on both engines side by side (PGlite and PostgreSQL),
// the same page over 1,000,000 devices on PostgreSQL, and every list a menu view calls, one
// connection, page 1 and 200, with the plans of the slowest ten. Figures, never assertions: a
// failed call is a row with its code.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { menuLists, type MenuList } from '../../tests/support/menuLists';
import { startBenchCluster, type BenchCluster } from './cluster';
import { benchDir, callApi, residentMiB, startServer, type BenchRow, type RunningServer } from './common';
import { errorText, loadRow, type LoadCase } from './serverLoad';
import { LIST_BUDGET_MS, listName, Logins, logOffset, pageBody, planSummary, plansSince, slowest, summaryRow, timeLists, timingsTable, type ListTiming, type LoggedPlan } from './serverLists';
import { prepareWorld, readMark, WORLD_KEYS, WORLDS, type World, type WorldKey, type WorldMark } from './worlds';

/** A grown world's telemetry reaches back past a year (tests/support/growWorld.ts): the server keeps it all (no retention). */
const KEEP_WORLD_TELEMETRY = '0';

export interface ServerBenchOptions {
  /** The worlds to load (default: all three). */
  worlds?: readonly WorldKey[];
  /** The worlds on which every menu list is timed (default: all three; the slowest ten and their plans come from the largest PostgreSQL one). */
  lists?: readonly WorldKey[];
}

const DEVICE_PAGE: LoadCase = {
  name: 'device/_page（在线、按最近上报排序、第 200 页）',
  path: '/device/_page',
  body: { pageParam: { pageNumber: 200, pageSize: 20 }, param: { onlineState: 'online' }, sortParamList: [{ field: 'lastSeenTime', order: 'desc' }] },
};
const INIT: LoadCase = { name: 'auth/web/_init', path: '/auth/web/_init', body: { param: {} } };
/** The other big lists at page 200 with their menu's default param and sort: alarms, work orders, SIM cards, login records. */
const BIG_LISTS: ReadonlyArray<{ operation: string; title: string }> = [
  { operation: 'alarm.record.page', title: '告警记录' },
  { operation: 'repair.order.page', title: '维修工单' },
  { operation: 'card.sim.page', title: '物联网卡' },
  { operation: 'system.loginLog.page', title: '登录日志' },
];
const SLOWEST_COUNT = 10;

const wan = (count: number) => `${count / 10_000} 万`;

function worldLabel(world: World, postgresVersion: string): string {
  const engine = world.engine === 'pglite' ? 'PGlite' : `PostgreSQL ${postgresVersion}`;
  return `${engine} · ${wan(world.sizes.device ?? 0)}设备 / ${wan(world.sizes.alarm_record ?? 0)}告警`;
}

/** A row in its place in the table: measurements side by side by world within each kind of row. */
interface Placed {
  section: number;
  world: number;
  row: BenchRow;
}

/** The server process a world is measured on; killed if the bench itself ends meanwhile. */
let current: RunningServer | null = null;
const killCurrent = () => current?.process.kill('SIGKILL');

async function startWorldServer(world: World, cluster: BenchCluster | null): Promise<RunningServer> {
  const args = ['--port', '0', '--host', '127.0.0.1'];
  current =
    world.engine === 'pglite'
      ? await startServer(['--data-dir', world.dataDir!, ...args], 600_000, { DATABASE_URL: undefined, TELEMETRY_RETENTION_DAYS: KEEP_WORLD_TELEMETRY })
      : await startServer(args, 600_000, { DATABASE_URL: cluster!.appUrl(world.database!), FILES_DIR: join(benchDir, 'files'), TELEMETRY_RETENTION_DAYS: KEEP_WORLD_TELEMETRY });
  return current;
}

async function stopWorldServer(server: RunningServer): Promise<void> {
  await server.stop();
  if (current === server) current = null;
}

const AUTO_EXPLAIN = {
  session_preload_libraries: "'auto_explain'",
  'auto_explain.log_min_duration': '0',
  'auto_explain.log_analyze': 'on',
  'auto_explain.log_buffers': 'on',
  'auto_explain.log_timing': 'on',
  'auto_explain.log_format': 'text',
};

async function autoExplain(cluster: BenchCluster, database: string, on: boolean): Promise<void> {
  for (const [name, value] of Object.entries(AUTO_EXPLAIN)) {
    await cluster.admin('postgres', on ? `ALTER DATABASE ${database} SET ${name} = ${value}` : `ALTER DATABASE ${database} RESET ${name}`);
  }
}

function worldRow(world: World, label: string, mark: WorldMark): BenchRow {
  const { sizes, seconds } = mark;
  const minutes = seconds.total >= 120 ? `${Math.floor(seconds.total / 60)} 分 ${Math.round(seconds.total % 60)} 秒` : `${seconds.total} 秒`;
  return {
    group: '服务端',
    name: `世界 · ${label}（${world.engine === 'pglite' ? '数据目录' : 'pg_database_size'}）`,
    value: Math.round((mark.sizeBytes / 2 ** 30) * 100) / 100,
    unit: 'GiB',
    budget: '',
    withinBudget: null,
    note: `${mark.builtAt.slice(0, 10)} 生成，用时 ${minutes}（种子与迁移 ${seconds.seed} 秒、增长 ${seconds.grow} 秒、VACUUM ANALYZE ${seconds.analyze} 秒）；工单 ${wan(sizes.work_order ?? 0)}、物联网卡 ${wan(sizes.sim_card ?? 0)}、登录日志 ${wan(sizes.login_log ?? 0)}，另 ${Object.keys(sizes).length - 5} 张表按设备规模增长`,
  };
}

function loadCases(world: World, lists: readonly MenuList[]): Array<LoadCase & { loginName: string }> {
  const cases: Array<LoadCase & { loginName: string }> = [{ ...DEVICE_PAGE, budgetMs: world.pageBudgetMs, loginName: 'tadmin' }];
  if (world.initBudgetMs !== null) cases.push({ ...INIT, loginName: 'tadmin', ...(world.initBudgetMs === undefined ? {} : { budgetMs: world.initBudgetMs }) });
  for (const { operation, title } of BIG_LISTS) {
    const list = lists.find((entry) => entry.operation === operation);
    if (!list) continue;
    const sort = list.sortParamList.map((entry) => `${entry.field} ${entry.order}`).join('、') || '无排序';
    cases.push({ name: `${list.path.slice(1)}（${title}，默认条件，${sort}，第 200 页）`, path: list.path, body: pageBody(list, 200), budgetMs: world.pageBudgetMs, loginName: list.loginName });
  }
  return cases;
}

interface WorldResult {
  placed: Placed[];
  timings?: ListTiming[];
}

/** Load rows, resident memory and (when asked) the timed menu lists of one world, on one server. */
async function measureWorld(world: World, worldIndex: number, label: string, cluster: BenchCluster | null, timeAllLists: boolean, log: (line: string) => void): Promise<WorldResult> {
  const placed: Placed[] = [];
  const lists = menuLists();
  const cases = loadCases(world, lists);
  if (world.engine === 'postgresql') await autoExplain(cluster!, world.database!, false);
  log(`${label}：启动服务器…`);
  const server = await startWorldServer(world, cluster);
  try {
    const logins = new Logins(server.url);
    for (const [index, item] of cases.entries()) {
      log(`${label}：${item.name}，50 连接 10 秒…`);
      let token: string;
      try {
        token = await logins.token(item.loginName);
      } catch (error) {
        placed.push({ section: 10 + index, world: worldIndex, row: { group: '服务端', name: `${item.name} · ${label}`, value: NaN, unit: 'ms p99', budget: '', withinBudget: false, note: errorText(error) } });
        continue;
      }
      placed.push({ section: 10 + index, world: worldIndex, row: await loadRow(server.url, token, item, label) });
    }
    placed.push({
      section: 30,
      world: worldIndex,
      row: { group: '服务端', name: `常驻内存（压测后）· ${label}`, value: residentMiB(server.process.pid ?? 0), unit: 'MiB', budget: '', withinBudget: null, ...(world.engine === 'postgresql' ? { note: '服务器进程；PostgreSQL 进程另计' } : {}) },
    });
    if (!timeAllLists) return { placed };
    log(`${label}：${lists.length} 个菜单列表，第 1、200 页，单连接依次调用…`);
    const timings = await timeLists(server.url, lists, log);
    placed.push({ section: 40, world: worldIndex, row: summaryRow(timings, label, lists.length, world.engine === 'postgresql' ? LIST_BUDGET_MS : undefined) });
    return { placed, timings };
  } finally {
    await stopWorldServer(server);
  }
}

/**
 * The plans of the slowest calls: the database logs every statement's plan with its actual times
 * (auto_explain, switched on for this database only, on a server started afresh so that its
 * connections load it), each slow call is made once more and its statements are picked from the
 * log, slowest first.
 */
async function capturePlans(world: World, cluster: BenchCluster, slow: readonly ListTiming[], log: (line: string) => void): Promise<Map<ListTiming, LoggedPlan[]>> {
  const plans = new Map<ListTiming, LoggedPlan[]>();
  await autoExplain(cluster, world.database!, true);
  try {
    const server = await startWorldServer(world, cluster);
    try {
      const logins = new Logins(server.url);
      for (const timing of slow) {
        try {
          const token = await logins.token(timing.loginName);
          await callApi(server.url, timing.path, timing.body, token);
          const offset = logOffset(cluster.logFile);
          await callApi(server.url, timing.path, timing.body, token);
          await new Promise((resolve) => setTimeout(resolve, 500));
          plans.set(
            timing,
            plansSince(cluster.logFile, offset, world.database!).sort((a, b) => b.durationMs - a.durationMs),
          );
        } catch (error) {
          log(`  计划 ${listName(timing)}：${errorText(error)}`);
        }
      }
    } finally {
      await stopWorldServer(server);
    }
  } finally {
    await autoExplain(cluster, world.database!, false);
  }
  return plans;
}

/** The database time of one call: its statements' durations added up. */
const sqlMs = (plans: readonly LoggedPlan[]) => Math.round(plans.reduce((sum, plan) => sum + plan.durationMs, 0) * 10) / 10;

function plansMarkdown(label: string, slow: readonly ListTiming[], plans: Map<ListTiming, LoggedPlan[]>): string {
  const parts = [`# 最慢的 ${slow.length} 个菜单列表 · ${label}`, '', `${new Date().toISOString()}；auto_explain（log_analyze、log_buffers），每个调用再做一次时记录，按语句耗时排序，列出最慢的 3 条。`, ''];
  for (const [index, timing] of slow.entries()) {
    parts.push(`## ${index + 1}. ${listName(timing)} — p95 ${timing.p95} ms（p50 ${timing.p50} ms，${timing.reps} 次${timing.code === '200' ? '' : `，${timing.code} ${timing.message ?? ''}`}）`, '');
    parts.push(`\`POST /api${timing.path}\`（${timing.loginName}）\`${JSON.stringify(timing.body)}\``, '');
    const found = plans.get(timing) ?? [];
    if (!found.length) parts.push('（没有记录到计划）', '');
    else parts.push(`这次调用的 SQL：${found.length} 条语句，合计 ${sqlMs(found)} ms。`, '');
    for (const plan of found.slice(0, 3)) {
      parts.push(`### ${plan.durationMs} ms`, '', '```sql', plan.query, '```', '', '```text', plan.plan, '```', '');
    }
  }
  return parts.join('\n');
}

/** Server rows: every world's size, the loads side by side, memory, the menu lists and the slowest ten. */
export async function measureServer(log: (line: string) => void, options: ServerBenchOptions = {}): Promise<BenchRow[]> {
  const worldKeys = WORLD_KEYS.filter((key) => (options.worlds ?? WORLD_KEYS).includes(key));
  const listKeys = new Set(options.lists ?? WORLD_KEYS);
  // The slowest ten and their plans come from the largest PostgreSQL world whose lists are timed.
  const planWorld = (['postgres-1m', 'postgres-100k'] as const).find((key) => worldKeys.includes(key) && listKeys.has(key));
  const placed: Placed[] = [];
  const listTables: string[] = [];
  process.on('exit', killCurrent);
  let cluster: BenchCluster | null = null;
  let clusterProblem: string | null = null;
  let postgresVersion = '';
  try {
    if (worldKeys.some((key) => WORLDS[key].engine === 'postgresql')) {
      log('服务端：启动基准用的 PostgreSQL 集群（.bench/postgres）…');
      const started = await startBenchCluster().catch((error: unknown) => errorText(error));
      if (typeof started === 'string') clusterProblem = started;
      else {
        cluster = started;
        postgresVersion = (await cluster.admin<{ server_version: string }>('postgres', 'SHOW server_version'))[0].server_version.split(/[ .]/)[0];
      }
    }
    for (const [worldIndex, key] of worldKeys.entries()) {
      const world = WORLDS[key];
      const label = worldLabel(world, postgresVersion || '15');
      if (world.engine === 'postgresql' && !cluster) {
        placed.push({ section: 0, world: worldIndex, row: { group: '服务端', name: `世界 · ${label}`, value: NaN, unit: '', budget: '', withinBudget: false, note: `PostgreSQL 集群未启动：${clusterProblem}` } });
        continue;
      }
      let prepared = false;
      try {
        const mark = await prepareWorld(world, cluster, log);
        placed.push({ section: 0, world: worldIndex, row: worldRow(world, label, mark) });
        prepared = true;
        const result = await measureWorld(world, worldIndex, label, cluster, listKeys.has(key), log);
        placed.push(...result.placed);
        if (!result.timings) continue;
        listTables.push(timingsTable(label, result.timings));
        if (key !== planWorld || !cluster) continue;
        const slow = slowest(result.timings, SLOWEST_COUNT);
        log(`${label}：最慢的 ${slow.length} 个列表的执行计划（auto_explain）…`);
        const plans = await capturePlans(world, cluster, slow, log);
        writeFileSync(join(benchDir, 'slowest-plans.md'), plansMarkdown(label, slow, plans));
        for (const [index, timing] of slow.entries()) {
          const plan = plans.get(timing)?.[0];
          const failed = timing.code !== '200';
          placed.push({
            section: 50 + index,
            world: worldIndex,
            row: {
              group: '服务端',
              name: `最慢 ${index + 1}：${listName(timing)}，单连接 · ${label}`,
              value: failed ? NaN : timing.p95,
              unit: 'ms p95',
              budget: `≤ ${LIST_BUDGET_MS} ms`,
              withinBudget: !failed && timing.p95 <= LIST_BUDGET_MS,
              note: `${failed ? `${timing.code} ${timing.message ?? ''}；` : `p50 ${timing.p50} ms；`}${plan ? `SQL ${plans.get(timing)!.length} 条共 ${sqlMs(plans.get(timing)!)} ms，最慢一条 ${plan.durationMs} ms：${planSummary(plan.plan)}` : '没有计划'}`,
            },
          });
        }
      } catch (error) {
        log(`${label}：${errorText(error)}`);
        const mark = readMark(world);
        placed.push(
          prepared
            ? { section: 9, world: worldIndex, row: { group: '服务端', name: `服务器 · ${label}`, value: NaN, unit: '', budget: '', withinBudget: false, note: `失败：${errorText(error)}` } }
            : { section: 0, world: worldIndex, row: { group: '服务端', name: `世界 · ${label}`, value: mark ? Math.round((mark.sizeBytes / 2 ** 30) * 100) / 100 : NaN, unit: 'GiB', budget: '', withinBudget: false, note: `生成失败：${errorText(error)}` } },
        );
      }
    }
  } finally {
    killCurrent();
    process.off('exit', killCurrent);
    await cluster?.stop();
  }
  if (listTables.length) writeFileSync(join(benchDir, 'server-lists.md'), `# 菜单列表，单连接，第 1、200 页（每页 20 条）\n\n${new Date().toISOString()}\n\n${listTables.join('\n')}`);
  return placed.sort((a, b) => a.section - b.section || a.world - b.world).map((entry) => entry.row);
}
