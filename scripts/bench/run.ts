// `npm run bench`: builds the production console and the benchmark pages, starts the reference
// server, drives Debian's Chromium and prints one table (also .bench/results.json). Figures, not
// tests: nothing here fails a build. `npm run bench -- --only bundle,client` runs some groups;
// `--worlds postgres-100k,pglite-100k` and `--lists postgres-1m` (or `--lists none`) narrow the
// server group (scripts/bench/worlds.ts). `--only ingest` drives simulated MQTT devices
// (scripts/bench/ingest.ts: --ingest-seconds, --ingest-rate, --ingest-devices, --ingest-pglite-rate,
// --ingest-pglite-devices, --ingest-engines).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureBundles } from './bundle';
import { INGEST_DEFAULTS, measureIngest, type IngestEngine } from './ingest';
import { measureClient } from './client';
import { benchDir, bin, root, startServer, type BenchRow } from './common';
import { measureServer } from './server';
import { measureStart } from './start';
import { WORLD_KEYS, type WorldKey } from './worlds';

const GROUPS = ['bundle', 'client', 'server', 'start', 'ingest'] as const;
const onlyArg = process.argv.indexOf('--only');
const only = new Set(onlyArg >= 0 ? (process.argv[onlyArg + 1] ?? '').split(',') : GROUPS);
/** `--name a,b`: the listed world keys, or undefined when the flag is absent. */
function worldsArg(name: string): WorldKey[] | undefined {
  const index = process.argv.indexOf(name);
  if (index < 0) return undefined;
  const keys = (process.argv[index + 1] ?? '').split(',').filter((key) => key && key !== 'none');
  const unknown = keys.filter((key) => !(WORLD_KEYS as readonly string[]).includes(key));
  if (unknown.length) throw new Error(`${name}: unknown world ${unknown.join(', ')} (known: ${WORLD_KEYS.join(', ')})`);
  return keys as WorldKey[];
}
const log = (line: string) => console.log(`· ${line}`);
/** `--name N`: a positive number, or the fallback when the flag is absent. */
function numberArg(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}: a positive number, got ${process.argv[index + 1]}`);
  return value;
}
/** `--ingest-engines postgres,pglite`. */
function enginesArg(): IngestEngine[] {
  const index = process.argv.indexOf('--ingest-engines');
  if (index < 0) return [...INGEST_DEFAULTS.engines];
  const engines = (process.argv[index + 1] ?? '').split(',').filter(Boolean);
  const unknown = engines.filter((engine) => engine !== 'postgres' && engine !== 'pglite');
  if (unknown.length) throw new Error(`--ingest-engines: unknown engine ${unknown.join(', ')} (known: postgres, pglite)`);
  return engines as IngestEngine[];
}

function build(): string {
  const distDir = join(benchDir, 'dist');
  log('构建控制台（生产模式）…');
  execFileSync(bin('vite'), ['build', '--outDir', distDir, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  log('构建基准页…');
  execFileSync(bin('vite'), ['build', '--config', 'scripts/bench/vite.config.ts'], { cwd: root, stdio: 'inherit' });
  return distDir;
}

function format(rows: readonly BenchRow[]): string {
  const cells = rows.map((row) => [
    row.group,
    row.name,
    Number.isNaN(row.value) ? '—' : `${row.value} ${row.unit}`,
    row.baseline === undefined ? '' : `${row.baseline} ${row.unit}`,
    row.budget,
    row.withinBudget === null ? '' : row.withinBudget ? '达标' : '未达标',
    row.note ?? '',
  ]);
  const header = ['分组', '项目', '结果', '手写基线', '预算', '', '说明'];
  const lines = [header, header.map(() => '---'), ...cells].map((line) => `| ${line.join(' | ')} |`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  mkdirSync(benchDir, { recursive: true });
  const rows: BenchRow[] = [];
  const started = Date.now();
  // The console and the benchmark pages are built for the groups that load them.
  const distDir = only.has('bundle') || only.has('client') ? build() : '';
  if (only.has('bundle')) {
    log('包体积：启动参考服务器（内存数据库）…');
    const server = await startServer(['--memory', '--dev', '--static', distDir, '--port', '0', '--host', '127.0.0.1']);
    try {
      rows.push(...(await measureBundles(server.url, distDir)));
    } finally {
      await server.stop();
    }
  }
  if (only.has('client')) {
    log('列表、表单与组织树：与手写 antd 页面交替测量…');
    rows.push(...(await measureClient()));
  }
  if (only.has('server')) {
    log('服务端：10 万台设备的世界（PostgreSQL 与 PGlite）、100 万台设备的世界（PostgreSQL），autocannon 50 连接；菜单列表单连接…');
    rows.push(...(await measureServer(log, { worlds: worldsArg('--worlds'), lists: worldsArg('--lists') })));
  }
  if (only.has('start')) {
    log('启动时间：npm start 到 READY…');
    rows.push(...(await measureStart()));
  }
  if (only.has('ingest')) {
    log('设备接入：模拟设备经 MQTT 上报（PostgreSQL 与 PGlite），入库计数、告警到控制台实时流的时延、服务器内存…');
    rows.push(
      ...(await measureIngest(log, {
        seconds: numberArg('--ingest-seconds', INGEST_DEFAULTS.seconds),
        engines: enginesArg(),
        postgres: { rate: numberArg('--ingest-rate', INGEST_DEFAULTS.postgres.rate), devices: numberArg('--ingest-devices', INGEST_DEFAULTS.postgres.devices) },
        pglite: { rate: numberArg('--ingest-pglite-rate', INGEST_DEFAULTS.pglite.rate), devices: numberArg('--ingest-pglite-devices', INGEST_DEFAULTS.pglite.devices) },
      })),
    );
  }
  const table = format(rows);
  console.log(`\n${table}\n`);
  writeFileSync(join(benchDir, 'results.json'), JSON.stringify({ measuredAt: new Date().toISOString(), seconds: Math.round((Date.now() - started) / 1000), rows }, null, 2));
  writeFileSync(join(benchDir, 'results.md'), `${table}\n`);
  console.log(`结果已写入 .bench/results.json 与 .bench/results.md（用时 ${Math.round((Date.now() - started) / 1000)} 秒）`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
