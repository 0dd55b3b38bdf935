// Developer aid (not part of `npm run bench`): the frames of select-all and scrolling on the
// 1,000-row virtual list, and what the main thread did in the longest one (trace events of 2 ms or more).
// `npx tsx scripts/bench/traceSelect.ts [runs] [impl=schema|antd]` on the built .bench/app.
import { join } from 'node:path';
import { launchChromium } from './bundle';
import { benchDir, serveBenchApp } from './common';

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; tid: number; pid: number; args?: { name?: string; data?: { functionName?: string; url?: string } } }
const APP_DIR = join(benchDir, 'app');
const runs = Number(process.argv[2] ?? 2);
const impls = (process.argv[3] ?? 'schema,antd').split(',');
const { server, url } = await serveBenchApp(APP_DIR);
const browser = await launchChromium();
const WATCHED = ['FunctionCall', 'EventDispatch', 'TimerFire', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'MinorGC', 'MajorGC', 'HitTest'];

async function frames(page: import('@playwright/test').Page, work: () => Promise<void>): Promise<number[]> {
  await page.evaluate(() => {
    const list: number[] = [];
    let last = performance.now();
    let running = true;
    const tick = (now: number) => {
      list.push(now - last);
      last = now;
      if (running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    (window as unknown as { stopFrames: () => number[] }).stopFrames = () => ((running = false), list);
  });
  await work();
  return page.evaluate(() => (window as unknown as { stopFrames: () => number[] }).stopFrames());
}

for (let run = 0; run < runs; run += 1) {
  for (const impl of impls) {
    const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1600, height: 900 } });
    await context.addInitScript('window.__name = (fn) => fn;');
    const page = await context.newPage();
    await page.goto(`${url}/?case=list&impl=${impl}&size=1000&virtual=1`);
    await page.waitForFunction(() => (window as unknown as { bench: { done: boolean } }).bench.done, undefined, { timeout: 120_000 });
    await page.waitForTimeout(500);
    for (const action of ['select', 'scroll'] as const) {
      await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel'] });
      const times = await frames(page, async () => {
        if (action === 'select') {
          await page.locator('.ant-table-thead .ant-checkbox-input').first().click();
          await page.waitForTimeout(500);
        } else {
          await page.locator('.ant-table-tbody-virtual-holder, .ant-table-body').first().hover();
          for (let i = 0; i < 30; i += 1) {
            await page.mouse.wheel(0, 400);
            await page.waitForTimeout(16);
          }
          await page.waitForTimeout(300);
        }
      });
      const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
      // The renderer main thread that ran the page's script (several renderers may be traced).
      const mains = trace.traceEvents.filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
      const busy = (thread: TraceEvent) => trace.traceEvents.filter((event) => event.pid === thread.pid && event.tid === thread.tid && event.name === 'FunctionCall').length;
      const main = mains.sort((a, b) => busy(b) - busy(a))[0];
      if (process.env.DEBUG) {
        const counts = new Map<string, number>();
        for (const event of trace.traceEvents) if (main && event.pid === main.pid && event.tid === main.tid) counts.set(`${event.name}/${event.ph}`, (counts.get(`${event.name}/${event.ph}`) ?? 0) + 1);
        console.log(mains.length, [...counts].sort((a, b) => b[1] - a[1]).slice(0, 25));
      }
      const onMain = trace.traceEvents.filter((event) => event.ph === 'X' && main && event.tid === main.tid && event.pid === main.pid && WATCHED.includes(event.name));
      const tasks = trace.traceEvents.filter((event) => event.ph === 'X' && main && event.tid === main.tid && event.pid === main.pid && (event.name === 'RunTask' || event.name === 'ThreadControllerImpl::RunTask')).sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0));
      const longest = tasks[0];
      const inside = longest ? onMain.filter((event) => event.ts >= longest.ts && event.ts <= longest.ts + (longest.dur ?? 0) && (event.dur ?? 0) >= 2000) : [];
      const sorted = [...times].sort((a, b) => a - b);
      console.log(`${impl} ${action}: longest frame ${Math.max(...times).toFixed(1)} ms, p95 ${sorted[Math.floor(sorted.length * 0.95)].toFixed(1)}, ${times.length} frames; longest task ${((longest?.dur ?? 0) / 1000).toFixed(1)} ms: ${inside.map((event) => `${event.name}${event.args?.data?.functionName ? `(${event.args.data.functionName})` : ''}:${((event.dur ?? 0) / 1000).toFixed(1)}`).join(' ')}`);
      console.log(`   tasks over 16 ms: ${tasks.filter((t) => (t.dur ?? 0) > 16000).map((t) => ((t.dur ?? 0) / 1000).toFixed(0)).join(' ')}`);
    }
    await context.close();
  }
}
await browser.close();
server.close();
