import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { benchDir, callApi, gzipBytes, kib, type BenchRow } from './common';

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

/** The demo accounts the rows sign in as (README, Demo accounts). */
export const BUNDLE_ACCOUNTS = {
  admin: { loginName: 'admin', password: 'Admin@2026' },
  tadmin: { loginName: 'tadmin', password: 'Demo@2026' },
} as const;
export type BundleAccount = keyof typeof BUNDLE_ACCOUNTS;

interface Fetched {
  js: number;
  css: number;
  files: string[];
}

/** Gzip bytes (level 9, as a server would send them) of the JS and CSS files among `files`. */
function weigh(distDir: string, files: Iterable<string>): Fetched {
  let js = 0;
  let css = 0;
  const list = [...files];
  for (const file of list) {
    const bytes = gzipBytes(join(distDir, file));
    if (file.endsWith('.css')) css += bytes;
    else js += bytes;
  }
  return { js, css, files: list };
}

/**
 * Installed before the page's own scripts: records when an element matching `selector` first
 * appears (a MutationObserver, in the page's own clock), so that what the browser asked for is
 * compared with the paint itself, not with when the test noticed it (Playwright polls).
 */
function markFirstPaint(selector: string): void {
  performance.setResourceTimingBufferSize(2000);
  const marked = window as unknown as { __firstPaintAt?: number };
  const look = () => {
    if (marked.__firstPaintAt === undefined && document.querySelector(selector)) marked.__firstPaintAt = performance.now();
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true, attributes: true });
}

/**
 * The JS and CSS files of the build the page asked for before its first paint and until now, in
 * the order asked. A file counts from its request, not its response: what the browser asked for
 * before the route painted was asked for that paint, whether or not it had arrived.
 */
async function requested(page: Page, distDir: string): Promise<{ beforePaint: string[]; all: string[] }> {
  const { paintedAt, entries } = await page.evaluate(() => ({
    paintedAt: (window as unknown as { __firstPaintAt?: number }).__firstPaintAt ?? Number.POSITIVE_INFINITY,
    entries: performance.getEntriesByType('resource').map((entry) => ({ name: entry.name, startTime: entry.startTime })),
  }));
  const ours = entries
    .map((entry) => ({ path: new URL(entry.name).pathname, startTime: entry.startTime }))
    .filter(({ path }) => /\.(js|css)$/.test(path) && existsSync(join(distDir, path)));
  const unique = (paths: string[]) => [...new Set(paths)];
  return { beforePaint: unique(ours.filter((entry) => entry.startTime <= paintedAt).map((entry) => entry.path)), all: unique(ours.map((entry) => entry.path)) };
}

// What only echarts / Formily code contains (as tests/contract/bundle.test.ts reads it).
const ECHARTS = '_echarts_instance_';
const FORMILY = 'formily-item';
const contains = (distDir: string, files: readonly string[], marker: string) => files.some((file) => readFileSync(join(distDir, file), 'utf8').includes(marker));

interface RouteCase {
  name: string;
  budgetKiB?: number;
  /** Who is signed in (sessionStorage holds the tokens before the first navigation); none for /login. */
  account: BundleAccount | null;
  /** Whether the route may fetch echarts / Formily before it paints. */
  charts: boolean;
  forms: boolean;
  /** What shows when the route has painted (the first table row, the form's first field …). */
  painted: string;
  /** Opens the route and resolves once `painted` shows. */
  open: (page: Page, baseUrl: string) => Promise<void>;
}

const LIST_ROW = '[data-testid="list-page"] .ant-table-row';
const LOGIN_BUTTON = 'form button[type="submit"]';
const FORM_FIELD = '.ant-drawer .ant-formily-item';

const CASES: readonly RouteCase[] = [
  {
    name: '/login',
    budgetKiB: 250,
    painted: LOGIN_BUTTON,
    account: null,
    charts: false,
    forms: false,
    open: async (page, baseUrl) => {
      await page.goto(`${baseUrl}/login`);
      await page.locator(LOGIN_BUTTON).waitFor();
    },
  },
  {
    name: '/dashboard',
    account: 'tadmin',
    painted: '[data-testid="dashboard"]',
    charts: true,
    forms: false,
    open: async (page, baseUrl) => {
      await page.goto(`${baseUrl}/dashboard`);
      await page.locator('[data-testid="dashboard"]').waitFor();
    },
  },
  {
    // Issue 35's goal: a fresh browser signed in as the platform admin opens 登录日志.
    name: '列表页 登录日志 /system/login/log（平台管理员 admin）',
    budgetKiB: 350,
    account: 'admin',
    painted: LIST_ROW,
    charts: false,
    forms: false,
    open: async (page, baseUrl) => {
      await page.goto(`${baseUrl}/system/login/log`);
      await page.locator(LIST_ROW).first().waitFor();
    },
  },
  {
    name: '列表页 登录日志 /system/login/log（租户管理员 tadmin）',
    budgetKiB: 350,
    account: 'tadmin',
    painted: LIST_ROW,
    charts: false,
    forms: false,
    open: async (page, baseUrl) => {
      await page.goto(`${baseUrl}/system/login/log`);
      await page.locator(LIST_ROW).first().waitFor();
    },
  },
  {
    name: '表单 /system/user → 新增用户（tadmin）',
    account: 'tadmin',
    painted: FORM_FIELD,
    charts: false,
    forms: true,
    open: async (page, baseUrl) => {
      await page.goto(`${baseUrl}/system/user`);
      await page.locator(LIST_ROW).first().waitFor();
      await page.getByRole('button', { name: /新增用户/ }).click();
      await page.locator(FORM_FIELD).first().waitFor();
    },
  },
];

async function signIn(baseUrl: string, account: BundleAccount): Promise<Record<string, string>> {
  const login = await callApi<{ accessToken: string; refreshToken: string }>(baseUrl, '/auth/web/_login', { param: BUNDLE_ACCOUNTS[account] });
  if (login.code !== '200') throw new Error(`login ${account} failed: ${login.message}`);
  return { accessToken: login.data.accessToken, refreshToken: login.data.refreshToken };
}

/**
 * Bundle rows: gzip bytes of the JS and CSS a fresh browser context (empty cache) asks for until
 * the route has painted (/login's button, the dashboard, a list's first row, a form's first
 * field), signed in where needed; the note adds what it has fetched once the network is idle.
 */
export async function measureBundles(baseUrl: string, distDir: string): Promise<BenchRow[]> {
  const browser = await launchChromium();
  const rows: BenchRow[] = [];
  // Which files each route fetched before it painted, largest first: where to look when a budget is missed.
  const fetchedFiles: Record<string, Array<{ file: string; gzipKiB: number }>> = {};
  try {
    for (const route of CASES) {
      const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
      if (route.account) {
        await context.addInitScript((stored: Record<string, string>) => {
          for (const [key, value] of Object.entries(stored)) window.sessionStorage.setItem(key, value);
        }, await signIn(baseUrl, route.account));
      }
      // tsx compiles this file with esbuild's keepNames, whose __name helper the page lacks.
      await context.addInitScript('window.__name = (fn) => fn;');
      await context.addInitScript(markFirstPaint, route.painted);
      const page = await context.newPage();
      await route.open(page, baseUrl);
      await page.waitForLoadState('networkidle');
      const files = await requested(page, distDir);
      const painted = weigh(distDir, files.beforePaint);
      const idle = weigh(distDir, files.all);
      const total = painted.js + painted.css;
      fetchedFiles[route.name] = painted.files
        .map((file) => ({ file, gzipKiB: kib(gzipBytes(join(distDir, file))) }))
        .sort((a, b) => b.gzipKiB - a.gzipKiB);
      const leaks = [
        !route.charts && contains(distDir, painted.files, ECHARTS) ? 'echarts' : null,
        !route.forms && contains(distDir, painted.files, FORMILY) ? 'Formily' : null,
      ].filter(Boolean);
      const within = leaks.length === 0 && (route.budgetKiB === undefined || kib(total) <= route.budgetKiB);
      rows.push({
        group: '包体积',
        name: `${route.name}，绘制前（JS ${kib(painted.js)} + CSS ${kib(painted.css)}）`,
        value: kib(total),
        unit: 'KiB gzip',
        budget: route.budgetKiB ? `≤ ${route.budgetKiB} KiB` : '',
        withinBudget: route.budgetKiB || leaks.length ? within : null,
        note: [
          `${painted.files.length} 个文件`,
          `网络空闲时共 ${kib(idle.js + idle.css)} KiB、${idle.files.length} 个文件`,
          leaks.length ? `不应加载：${leaks.join('、')}` : '',
        ]
          .filter(Boolean)
          .join('；'),
      });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  writeFileSync(join(benchDir, 'bundle-files.json'), JSON.stringify(fetchedFiles, null, 2));
  return rows;
}
