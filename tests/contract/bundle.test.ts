import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

// The renderer registry loads each page kind lazily: this reads the production build's manifest
// and proves which libraries each route's chunks can reach (sizes are issue 8's budgets).
const root = new URL('../..', import.meta.url).pathname;
interface Chunk {
  file: string;
  imports?: string[];
  css?: string[];
}
let manifest: Record<string, Chunk>;
let outDir: string;

beforeAll(() => {
  outDir = mkdtempSync(join(tmpdir(), 'console-build-'));
  execFileSync(join(root, 'node_modules/.bin/vite'), ['build', '--outDir', outDir, '--logLevel', 'error', '--emptyOutDir'], {
    cwd: root,
    stdio: 'pipe',
    // Vitest runs with NODE_ENV=test, which Vite would carry into the bundle (React's development build).
    env: { ...process.env, NODE_ENV: 'production' },
  });
  manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
}, 120_000);

/** The code a chunk loads statically (itself and its static imports, recursively). */
function reachable(key: string, seen = new Set<string>()): string {
  if (seen.has(key)) return '';
  seen.add(key);
  const chunk = manifest[key];
  return readFileSync(join(outDir, chunk.file), 'utf8') + (chunk.imports ?? []).map((i) => reachable(i, seen)).join('');
}

function chunkOf(name: string): string {
  const key = Object.keys(manifest).find((k) => k.includes(name));
  if (!key) throw new Error(`no chunk for ${name}`);
  return key;
}

/** The files a chunk loads statically (itself, its CSS and its static imports, recursively). */
function filesOf(keys: readonly string[], seen = new Set<string>(), files = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    const chunk = manifest[key];
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    filesOf(chunk.imports ?? [], seen, files);
  }
  return files;
}

/** Gzip bytes (level 9, as a server would send them) of what a route fetches for its first paint, in KiB. */
function firstPaintKiB(...chunks: string[]): number {
  let bytes = 0;
  for (const file of filesOf(chunks)) bytes += gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length;
  return bytes / 1024;
}

const ECHARTS = '_echarts_instance_';
const TABLE = 'data-row-key';
const FORMILY = 'formily-item';

/** A chunk by its manifest key (a lazy import's module), else by part of one (a shared chunk). */
function chunkKey(name: string): string {
  return Object.hasOwn(manifest, name) ? name : chunkOf(name);
}

/**
 * What the frame asks for before any page in it paints (issue 35): the entry, the frame, the
 * menu's icon names, and the http client's axios and operation catalogue (the session's first
 * calls). The menu's icons, one small chunk each, depend on the menu and are left out.
 */
const FRAME_ROUTE = ['index.html', 'src/frame/MainFrame.tsx', 'src/frame/menuIconSet.tsx', 'node_modules/axios/index.js', 'src/api/catalogue.ts'];
/** 登录日志 (/system/login/log), the bench's list page: a menu view, the list renderer, its page schema. */
const LIST_ROUTE = [...FRAME_ROUTE, 'src/frame/MenuView.tsx', 'renderers/list/ListRenderer.tsx', 'schemas/pages/system/loginLog.json'];
/** 新增用户 opened from 用户管理 (/system/user): the list, the drawer host, the form renderer and its schema. */
const FORM_ROUTE = [...FRAME_ROUTE, 'src/frame/MenuView.tsx', 'renderers/list/ListRenderer.tsx', 'schemas/pages/system/user.json', 'renderers/runtime/PageHostBridge.tsx', 'renderers/form/FormRenderer.tsx', 'schemas/pages/system/userForm.json'];
/** The home page (/dashboard, a hand-written screen). */
const DASHBOARD_ROUTE = [...FRAME_ROUTE, 'src/screens/dashboard/DashboardPage.tsx'];

const routeKiB = (route: readonly string[]) => firstPaintKiB(...route.map(chunkKey));
const routeCode = (route: readonly string[]) => {
  const seen = new Set<string>();
  return route.map((name) => reachable(chunkKey(name), seen)).join('');
};

describe('lazy renderers in the production build', () => {
  it('the login screen loads none of echarts, the table or Formily', () => {
    const code = reachable('index.html') + reachable(chunkOf('LoginPage'));
    expect(code.includes(ECHARTS)).toBe(false);
    expect(code.includes(TABLE)).toBe(false);
    expect(code.includes(FORMILY)).toBe(false);
  });
  it('the console page has no inline script, and no chunk ships the ajv compiler (the page validator is generated at build)', () => {
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body.trim()).toBe('');
    }
    const everything = Object.keys(manifest).map((key) => readFileSync(join(outDir, manifest[key].file), 'utf8')).join('');
    expect(everything.includes('schema with key or id')).toBe(false);
    expect(everything.includes('缺少必填属性')).toBe(true);
  });
  it('the login screen fetches at most 250 KiB gzip for its first paint (issue 8)', () => {
    const kib = firstPaintKiB('index.html', chunkOf('LoginPage'));
    expect(kib).toBeGreaterThan(100);
    expect(kib).toBeLessThanOrEqual(250);
  });
  it('a list page in the frame stays within what issue 35 brought it to (403.4 KiB statically; the 350 KiB budget is missed, README says why)', () => {
    const kib = firstPaintKiB('index.html', chunkOf('src/frame/MainFrame'), chunkOf('ConsolePage'), chunkOf('renderers/list/ListRenderer'));
    // A ceiling, not the budget: it fails when a change makes the list page heavier again (issue 8 left it at 490).
    expect(kib).toBeLessThanOrEqual(404);
  });
  it('登录日志 fetches at most 436 KiB before its first row, what the bench measures (issue 35: 561.9 in 118 files before; the 350 KiB budget is missed, README says why)', () => {
    const kib = routeKiB(LIST_ROUTE);
    expect(kib).toBeGreaterThan(200);
    expect(kib).toBeLessThanOrEqual(436);
    expect(filesOf(LIST_ROUTE.map(chunkKey)).size).toBeLessThanOrEqual(45);
  });
  it('the dashboard keeps its budget: at most 425 KiB before it paints (issue 35)', () => {
    expect(routeKiB(DASHBOARD_ROUTE)).toBeLessThanOrEqual(425);
  });
  it('a form opened from a list keeps its budget: at most 550 KiB until its first field (issue 35)', () => {
    expect(routeKiB(FORM_ROUTE)).toBeLessThanOrEqual(550);
  });
  it('a list page fetches no dialog, drawer, popover content or text editor it does not draw (issue 35)', () => {
    const code = routeCode(LIST_ROUTE);
    // antd's Modal and Drawer (the form host, the confirm dialogs, the narrow menu), the bell's
    // popover, the organisation search, the 运维联系 card, antd Typography's copy-to-clipboard, and
    // antd's column filter dropdown, which no list's column uses (vite.config.ts, lazyTableFilter).
    for (const marker of ['-confirm-body', '-drawer-content', 'notification-panel', '搜索组织', '服务热线', 'Copy to clipboard', 'filterResetToDefaultFilteredValue']) expect(code.includes(marker), marker).toBe(false);
    expect(code.includes(TABLE)).toBe(true);
  });
  it('the login screen does not download axios before its first call, nor antd Modal', () => {
    const code = reachable('index.html') + reachable(chunkOf('LoginPage'));
    expect(code.includes('ERR_BAD_OPTION_VALUE')).toBe(false);
    expect(code.includes('-confirm-body')).toBe(false);
  });
  it('a page loads the page-schema validator only when it checks a schema it was not built with', () => {
    const marker = 'must be equal to one of the allowed values';
    for (const chunk of ['_ConsolePage', 'ListRenderer', 'DetailRenderer', 'FormRenderer']) expect(reachable(chunkOf(chunk)).includes(marker), chunk).toBe(false);
    expect(reachable(chunkOf('renderers/schema/validate')).includes(marker)).toBe(true);
  });
  it('a list page downloads neither echarts nor Formily (its filters are an antd form)', () => {
    const code = reachable(chunkOf('ListRenderer'));
    expect(code.includes(ECHARTS)).toBe(false);
    expect(code.includes(FORMILY)).toBe(false);
    expect(code.includes(TABLE)).toBe(true);
  });
  it('a detail page downloads echarts only for a series section (设备详情 → 数据趋势), lazily', () => {
    expect(reachable(chunkOf('renderers/detail/DetailRenderer')).includes(ECHARTS)).toBe(false);
    expect(reachable(chunkOf('renderers/detail/SeriesSection')).includes(ECHARTS)).toBe(true);
  });
  it('a form does not download the table or echarts', () => {
    const code = reachable(chunkOf('FormRenderer'));
    expect(code.includes(TABLE)).toBe(false);
    expect(code.includes(ECHARTS)).toBe(false);
    expect(code.includes(FORMILY)).toBe(true);
  });
  it('a dashboard does not download Formily, and is where echarts lives', () => {
    const code = reachable(chunkOf('DashboardRenderer'));
    expect(code.includes(FORMILY)).toBe(false);
    expect(code.includes(ECHARTS)).toBe(true);
  });
});
