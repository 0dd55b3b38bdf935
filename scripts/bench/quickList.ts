// Developer aid (not part of `npm run bench`): the list rows only, quickly, with per-repetition ratios.
// `npx tsx scripts/bench/quickList.ts [runs] [cases]` after `npx vite build --config scripts/bench/vite.config.ts`.
import { join } from 'node:path';
import { launchChromium } from './bundle';
import { benchDir, median, serveBenchApp } from './common';

const APP_DIR = join(benchDir, 'app');
const runs = Number(process.argv[2] ?? 5);
const cases = (process.argv[3] ?? '100,whole').split(',');
const heaps: Record<string, number[]> = {};

const { server, url } = await serveBenchApp(APP_DIR);
const browser = await launchChromium();
const PAGES: Record<string, Record<string, string>> = {
  '100': { schema: 'impl=schema&size=100', antd: 'impl=antd&size=100' },
  whole: { schema: 'impl=schema&size=1000&virtual=0&settle=1', antd: 'impl=antd&size=1000&settle=1' },
};
for (const name of cases) {
  const pages = PAGES[name];
  const times: Record<string, number[]> = { schema: [], antd: [] };
  for (let run = 0; run < runs; run += 1) {
    const order = Object.keys(pages);
    for (const key of run % 2 ? order.reverse() : order) {
      const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1600, height: 900 } });
      await context.addInitScript('window.__name = (fn) => fn;');
      const page = await context.newPage();
      await page.goto(`${url}/?case=list&${pages[key]}`);
      await page.waitForFunction(() => (window as unknown as { bench: { done: boolean } }).bench.done, undefined, { timeout: 120_000 });
      const state = await page.evaluate(() => (window as unknown as { bench: { renderMs: number; settledMs?: number } }).bench);
      times[key].push(state.settledMs ?? state.renderMs);
      // The page's JS heap after a forced collection, in MiB.
      const cdp = await context.newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      (heaps[`${name} ${key}`] ??= []).push(usedSize / 2 ** 20);
      await context.close();
    }
  }
  const ratios = times.schema.map((t, i) => t / times.antd[i]);
  console.log(name, 'schema', times.schema.map(Math.round).join(' '), '| antd', times.antd.map(Math.round).join(' '));
  console.log(name, 'heap MiB', Object.entries(heaps).filter(([label]) => label.startsWith(`${name} `)).map(([label, values]) => `${label} ${median(values).toFixed(1)}`).join(', '));
  console.log(name, 'ratios', ratios.map((r) => r.toFixed(2)).join(' '), 'median', median(ratios).toFixed(3));
}
await browser.close();
server.close();
