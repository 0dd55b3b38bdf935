import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { benchDir, gzipBytes, kib, type BenchRow } from './common';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

interface Fetched {
  js: number;
  css: number;
  files: string[];
}

/** Sums the gzip size (level 9, as a server would send it) of every JS and CSS file the page fetched from the build. */
function collect(page: Page, distDir: string): () => Fetched {
  const files = new Set<string>();
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (/\.(js|css)$/.test(path) && existsSync(join(distDir, path))) files.add(path);
  });
  return () => {
    let js = 0;
    let css = 0;
    for (const file of files) {
      const bytes = gzipBytes(join(distDir, file));
      if (file.endsWith('.css')) css += bytes;
      else js += bytes;
    }
    return { js, css, files: [...files] };
  };
}

// What only echarts / Formily code contains (as tests/contract/bundle.test.ts reads it).
const ECHARTS = '_echarts_instance_';
const FORMILY = 'formily-item';
const contains = (distDir: string, files: readonly string[], marker: string) => files.some((file) => readFileSync(join(distDir, file), 'utf8').includes(marker));

interface RouteCase {
  name: string;
  budgetKiB?: number;
  /** Whether the route may fetch echarts / Formily at first paint. */
  charts: boolean;
  forms: boolean;
  open: (page: Page) => Promise<void>;
}

/**
 * Bundle rows: gzip bytes of JS and CSS fetched for the first paint of /login, /dashboard, a list
 * page and a form, each in a fresh browser context (empty cache), signed in where needed.
 */
export async function measureBundles(baseUrl: string, distDir: string, session: Record<string, string>): Promise<BenchRow[]> {
  const browser = await launchChromium();
  const cases: RouteCase[] = [
    {
      name: '/login',
      budgetKiB: 250,
      charts: false,
      forms: false,
      open: async (page) => {
        await page.goto(`${baseUrl}/login`);
        await page.getByRole('button', { name: /登\s*录/ }).waitFor();
      },
    },
    {
      name: '/dashboard',
      charts: false,
      forms: false,
      open: async (page) => {
        await page.goto(`${baseUrl}/dashboard`);
        await page.getByTestId('dashboard').waitFor();
      },
    },
    {
      name: '列表页 /system/login/log',
      budgetKiB: 400,
      charts: false,
      forms: false,
      open: async (page) => {
        await page.goto(`${baseUrl}/system/login/log`);
        await page.locator('[data-testid="list-page"] .ant-table-row').first().waitFor();
      },
    },
    {
      name: '表单 /system/user → 新增用户',
      charts: false,
      forms: true,
      open: async (page) => {
        await page.goto(`${baseUrl}/system/user`);
        await page.locator('[data-testid="list-page"] .ant-table-row').first().waitFor();
        await page.getByRole('button', { name: /新增用户/ }).click();
        await page.locator('.ant-drawer .ant-formily-item').first().waitFor();
      },
    },
  ];
  const rows: BenchRow[] = [];
  // Which files each route fetched, largest first: where to look when a budget is missed.
  const fetchedFiles: Record<string, Array<{ file: string; gzipKiB: number }>> = {};
  try {
    for (const route of cases) {
      const context = await browser.newContext({ locale: 'zh-CN' });
      if (route.name !== '/login') {
        await context.addInitScript((stored: Record<string, string>) => {
          for (const [key, value] of Object.entries(stored)) window.sessionStorage.setItem(key, value);
        }, session);
      }
      const page = await context.newPage();
      const fetched = collect(page, distDir);
      await route.open(page);
      await page.waitForLoadState('networkidle');
      const { js, css, files } = fetched();
      const total = js + css;
      fetchedFiles[route.name] = files
        .map((file) => ({ file, gzipKiB: kib(gzipBytes(join(distDir, file))) }))
        .sort((a, b) => b.gzipKiB - a.gzipKiB);
      const leaks = [
        !route.charts && contains(distDir, files, ECHARTS) ? 'echarts' : null,
        !route.forms && contains(distDir, files, FORMILY) ? 'Formily' : null,
      ].filter(Boolean);
      rows.push({
        group: '包体积',
        name: `${route.name}（JS ${kib(js)} + CSS ${kib(css)}）`,
        value: kib(total),
        unit: 'KiB gzip',
        budget: route.budgetKiB ? `≤ ${route.budgetKiB} KiB` : '',
        withinBudget: route.budgetKiB ? kib(total) <= route.budgetKiB && leaks.length === 0 : leaks.length === 0 ? null : false,
        note: leaks.length ? `不应加载：${leaks.join('、')}` : `${files.length} 个文件`,
      });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  writeFileSync(join(benchDir, 'bundle-files.json'), JSON.stringify(fetchedFiles, null, 2));
  return rows;
}
