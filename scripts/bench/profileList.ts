// Developer aid (not part of `npm run bench`): where one list render's JavaScript time goes.
// `npx tsx scripts/bench/profileList.ts [page query] [runs]`, e.g. `impl=schema&size=100`: builds the
// benchmark pages unminified with source maps into .bench/app-profile, records a CPU profile from
// the data to the painted rows (`&profile=1`, console.profile in scripts/bench/app/main.tsx) and
// prints the self time by package or source file and the heaviest functions, mapped to the source.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { launchChromium } from './bundle';
import { benchDir, serveBenchApp } from './common';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; }
interface Profile { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[]; startTime: number; endTime: number }

const root = join(benchDir, '..');
const APP_DIR = join(benchDir, 'app-profile');
const pageQuery = process.argv[2] ?? 'impl=schema&size=100';
const runs = Number(process.argv[3] ?? 3);
if (!process.env.NO_BUILD) {
  execFileSync(join(root, 'node_modules/.bin/vite'), ['build', '--config', 'scripts/bench/vite.config.ts', '--outDir', APP_DIR, '--sourcemap', '--minify', 'false'], { cwd: root, stdio: 'inherit' });
}
const maps = new Map<string, TraceMap>();
for (const file of readdirSync(join(APP_DIR, 'assets'))) {
  if (file.endsWith('.js.map')) maps.set(file.replace(/\.map$/, ''), new TraceMap(readFileSync(join(APP_DIR, 'assets', file), 'utf8')));
}
const { server, url } = await serveBenchApp(APP_DIR);

/** The package (node_modules/<name>) or the repository file a frame's code came from. */
function origin(frame: ProfileNode['callFrame']): { where: string; name: string } {
  const file = frame.url.split('/').pop() ?? '';
  const map = maps.get(file);
  if (!map) return { where: frame.url ? file : frame.functionName, name: frame.functionName };
  const position = originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber });
  const source = position.source ?? '?';
  const nm = source.lastIndexOf('node_modules/');
  const where = nm >= 0 ? source.slice(nm + 13).split('/').slice(0, source.slice(nm + 13).startsWith('@') ? 2 : 1).join('/') : source.replace(/^(\.\.\/)+/, '');
  return { where, name: `${frame.functionName || '(anonymous)'} ${source.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '')}:${position.line}` };
}

const byWhere = new Map<string, number>();
const byName = new Map<string, number>();
let total = 0;
const browser = await launchChromium();
for (let run = 0; run < runs; run += 1) {
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1600, height: 900 } });
  await context.addInitScript('window.__name = (fn) => fn;');
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  const finished = new Promise<Profile>((resolve) => cdp.on('Profiler.consoleProfileFinished', (event: { profile: Profile }) => resolve(event.profile)));
  await page.goto(`${url}/?case=list&${pageQuery}&profile=1`);
  const profile = await finished;
  const renderMs = await page.evaluate(async () => {
    const w = window as unknown as { bench: { done: boolean; renderMs?: number } };
    while (!w.bench.done) await new Promise((r) => setTimeout(r, 50));
    return w.bench.renderMs;
  });
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  (profile.samples ?? []).forEach((id, index) => {
    const delta = (profile.timeDeltas?.[index + 1] ?? 0) / 1000;
    const node = nodes.get(id);
    if (!node) return;
    const { where, name } = origin(node.callFrame);
    byWhere.set(where, (byWhere.get(where) ?? 0) + delta);
    byName.set(name, (byName.get(name) ?? 0) + delta);
    total += delta;
  });
  console.log(`run ${run + 1}: rendered in ${Math.round(renderMs ?? 0)} ms, profile ${Math.round((profile.endTime - profile.startTime) / 1000)} ms`);
  await context.close();
}
await browser.close();
server.close();
const top = (map: Map<string, number>, count: number) =>
  [...map].sort((a, b) => b[1] - a[1]).slice(0, count).map(([key, ms]) => `${(ms / runs).toFixed(1).padStart(8)} ms  ${key}`).join('\n');
console.log(`\nself time a run (${(total / runs).toFixed(1)} ms sampled):\n${top(byWhere, 25)}\n\nfunctions:\n${top(byName, 45)}`);
