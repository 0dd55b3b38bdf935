// Developer aid (not part of `npm run bench`): what the main thread did from the data to the painted
// rows, by trace event (script, style, layout, paint …), for pages side by side.
// `npx tsx scripts/bench/traceList.ts runs query1 query2 …` on the built .bench/app, e.g.
// `3 impl=schema&size=100 impl=antd&size=100`.
import { join } from 'node:path';
import { launchChromium } from './bundle';
import { benchDir, median, serveBenchApp } from './common';

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; tid: number; pid: number; args?: { name?: string } }
const APP_DIR = join(benchDir, process.env.APP ?? 'app');
const runs = Number(process.argv[2] ?? 3);
const queries = process.argv.slice(3);
const NAMES = ['FunctionCall', 'EventDispatch', 'TimerFire', 'FireAnimationFrame', 'RunMicrotasks', 'V8.GC_SCAVENGER', 'MajorGC', 'MinorGC', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'ParseHTML', 'ScheduleStyleRecalculation'];

const { server, url } = await serveBenchApp(APP_DIR);
const browser = await launchChromium();
const results: Record<string, Record<string, number[]>> = {};
for (let run = 0; run < runs; run += 1) {
  for (const query of run % 2 ? [...queries].reverse() : queries) {
    const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1600, height: 900 } });
    await context.addInitScript('window.__name = (fn) => fn;');
    // `query||css`: a style added to the page (to try what a rule costs).
    const [pageQuery, css] = query.split('||');
    if (css) await context.addInitScript(`document.addEventListener('DOMContentLoaded', () => { const s = document.createElement('style'); s.textContent = ${JSON.stringify(css)}; document.head.append(s); });`);
    const page = await context.newPage();
    await browser.startTracing(page, { categories: ['devtools.timeline', 'blink.user_timing', 'v8'] });
    await page.goto(`${url}/?case=list&${pageQuery}`);
    await page.waitForFunction(() => (window as unknown as { bench: { done: boolean } }).bench.done, undefined, { timeout: 120_000 });
    const state = await page.evaluate(() => (window as unknown as { bench: { renderMs: number; settledMs?: number } }).bench);
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
    await context.close();
    const events = trace.traceEvents;
    const mark = events.find((event) => event.name === 'bench-data');
    const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain' && (!mark || event.pid === mark.pid));
    const from = mark?.ts ?? 0;
    const sums: Record<string, number> = { wall: state.settledMs ?? state.renderMs };
    for (const event of events) {
      if (event.ph !== 'X' || !main || event.tid !== main.tid || event.pid !== main.pid || event.ts < from || !NAMES.includes(event.name)) continue;
      sums[event.name] = (sums[event.name] ?? 0) + (event.dur ?? 0) / 1000;
    }
    // Each layout and style recalculation of 5 ms or more, with whether script forced it (inside a timer or call).
    if (process.env.DETAIL && main) {
      const onMain = events.filter((event) => event.ph === 'X' && event.tid === main.tid && event.pid === main.pid && event.ts >= from);
      const scripts = onMain.filter((event) => event.name === 'FunctionCall' || event.name === 'TimerFire' || event.name === 'RunMicrotasks');
      const heavy = onMain.filter((event) => (event.name === 'Layout' || event.name === 'UpdateLayoutTree' || event.name === 'Paint' || event.name === 'Layerize') && (event.dur ?? 0) >= Number(process.env.DETAIL) * 1000);
      console.log(query, heavy.map((event) => `${event.name}@${Math.round((event.ts - from) / 1000)}:${Math.round((event.dur ?? 0) / 1000)}${scripts.some((s) => s.ts <= event.ts && s.ts + (s.dur ?? 0) >= event.ts + (event.dur ?? 0)) ? '(forced)' : ''}`).join(' '));
    }
    const slot = (results[query] ??= {});
    for (const [name, ms] of Object.entries(sums)) (slot[name] ??= []).push(ms);
  }
}
await browser.close();
server.close();
const names = ['wall', ...NAMES].filter((name) => queries.some((query) => results[query][name]));
queries.forEach((query, index) => console.log(`#${index}: ${query}`));
console.log(['event'.padEnd(20), ...queries.map((_q, index) => `#${index}`.padStart(10))].join(''));
for (const name of names) console.log([name.padEnd(20), ...queries.map((q) => (results[q][name] ? median(results[q][name]).toFixed(1) : '-').padStart(10))].join(''));
