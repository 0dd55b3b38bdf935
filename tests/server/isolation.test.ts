// The tenant isolation matrix (#9), generated from the catalogue and the page schemas, so a new
// operation or screen is covered by default: a tenant admin of 苏州智水 (badmin, T0002) gets
// nothing of 杭州云联's (T0001) — not by orgCode header, not in any list, and not by the ids that
// 杭州云联's own screens pass to their detail, form and row operations.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTemplate } from '../../renderers/schema/template';
import { IMPLEMENTED_OPERATION_NAMES } from '../../server/operations';
import { catalogue, startServer, type TestServer } from './harness';

interface Envelope {
  code: string;
  data: unknown;
}
type Json = Record<string, unknown>;

const PAGES_DIR = new URL('../../schemas/pages', import.meta.url).pathname;
const MENUS = JSON.parse(readFileSync(new URL('../../schemas/menus.json', import.meta.url), 'utf8')) as { menus: MenuEntry[] };
interface MenuEntry {
  url?: string;
  view?: string;
  children?: MenuEntry[];
}

/** Every page schema by view name (`device/all`). */
function pages(dir = PAGES_DIR): Map<string, Json> {
  const found = new Map<string, Json>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [view, page] of pages(path)) found.set(view, page);
    else if (name.endsWith('.json')) found.set(relative(PAGES_DIR, path).replace(/\.json$/, ''), JSON.parse(readFileSync(path, 'utf8')) as Json);
  }
  return found;
}

/** Route path → view, from the menu and the fixed layout pages. */
function routes(): Map<string, string> {
  const found = new Map<string, string>([['/gateway/details', 'gateway/details']]);
  const walk = (entries: readonly MenuEntry[]) =>
    entries.forEach((entry) => {
      if (entry.url && entry.view) found.set(entry.url, entry.view);
      walk(entry.children ?? []);
    });
  walk(MENUS.menus);
  return found;
}

const TENANT_A = 'T0001';
/** What marks a record as 杭州云联's: its organisation codes and its name. */
const TENANT_A_MARK = new RegExp(`"${TENANT_A}[A-Z0-9]*"|杭州云联`);
const implemented = new Set(IMPLEMENTED_OPERATION_NAMES);

let server: TestServer;
let tadmin: string;
let badmin: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin] = await Promise.all([server.login('tadmin'), server.login('badmin')]);
});
afterAll(() => server.close());

/** Calls any operation with a plain param (a page operation asks for its first 100 records). */
async function call(name: string, param: unknown, token: string, orgCode?: string): Promise<Envelope> {
  const entry = catalogue[name];
  const body = entry.kind === 'page' ? { pageParam: { pageNumber: 1, pageSize: 100 }, param, sortParamList: [] } : { param };
  if (entry.kind === 'get') {
    const query = new URLSearchParams(Object.entries((param ?? {}) as Json).map(([key, value]) => [key, String(value)]));
    const response = await server.app.inject({ method: 'GET', url: `/api${entry.path}?${query}`, headers: { token, ...(orgCode ? { orgcode: orgCode } : {}) } });
    return response.json<Envelope>();
  }
  const response = await server.app.inject({ method: 'POST', url: `/api${entry.path}`, headers: { token, ...(orgCode ? { orgcode: orgCode } : {}) }, payload: body });
  const type = String(response.headers['content-type'] ?? '');
  // A file answer (an export) carries data: give it a success code so the caller can judge.
  return type.includes('json') ? response.json<Envelope>() : { code: '200', data: response.body };
}

const recordsOf = (answer: Envelope): Json[] => {
  const data = answer.data as { records?: Json[] } | Json[] | null;
  return Array.isArray(data) ? data : (data?.records ?? []);
};

describe('tenant isolation matrix', () => {
  it('every operation refuses the other tenant\'s organisation in the orgCode header with "403"', async () => {
    const refusedOrBroken: string[] = [];
    for (const [name, entry] of Object.entries(catalogue)) {
      if ((entry.access ?? 'token') !== 'token') continue;
      const answer = await call(name, {}, badmin, TENANT_A);
      if (answer.code !== '403') refusedOrBroken.push(`${name} → ${answer.code}`);
    }
    expect(refusedOrBroken).toEqual([]);
  });

  it('no list, export or list-like call of the other tenant shows a record of 杭州云联', async () => {
    const leaks: string[] = [];
    let checked = 0;
    for (const [name, entry] of Object.entries(catalogue)) {
      const listLike = entry.kind === 'page' || entry.kind === 'blob' || /\.(list|tree|statistics)$|Statistics|overview|Trend/.test(name);
      if (!listLike || !implemented.has(name) || (entry.access ?? 'token') !== 'token' || name.startsWith('dev.')) continue;
      const answer = await call(name, {}, badmin);
      if (answer.code !== '200') continue;
      checked += 1;
      // The shared catalogue (organisation types, dictionaries) names no tenant; a tenant's data does.
      if (TENANT_A_MARK.test(JSON.stringify(answer.data))) leaks.push(name);
    }
    expect(checked).toBeGreaterThan(10);
    expect(leaks).toEqual([]);
  });

  it('the ids 杭州云联\'s screens pass on (detail, form, row operations) answer nothing to 苏州智水', async () => {
    const byView = pages();
    const byRoute = routes();
    const leaks: string[] = [];
    let probes = 0;
    for (const [view, page] of byView) {
      if (page.kind !== 'list' || typeof page.operation !== 'string') continue;
      const own = await call(page.operation, {}, tadmin);
      const record = recordsOf(own)[0];
      if (own.code !== '200' || !record) continue;
      // A record 苏州智水 lists too is shared (the platform's catalogue), not 杭州云联's.
      const rowKey = String(page.rowKey ?? 'id');
      const theirs = await call(page.operation, {}, badmin);
      if (recordsOf(theirs).some((other) => other[rowKey] === record[rowKey])) continue;

      const targets: Array<{ operation: string; param: unknown; from: string }> = [];
      for (const action of (page.rowActions as Json[] | undefined) ?? []) {
        if (action.type === 'call' && typeof action.operation === 'string') {
          targets.push({ operation: action.operation, param: resolveTemplate(action.param ?? {}, { record, params: {} }), from: `${view} ${String(action.label)}` });
        }
        let targetView: string | undefined;
        let params: Json = {};
        if (action.type === 'openForm') {
          targetView = String(action.page);
          params = resolveTemplate(action.params ?? {}, { record, params: {} }) as Json;
        } else if (action.type === 'navigate') {
          const to = new URL(String(resolveTemplate(action.to, { record, params: {} })), 'http://console');
          targetView = byRoute.get(to.pathname);
          params = { ...Object.fromEntries(to.searchParams), ...((resolveTemplate(action.query ?? {}, { record, params: {} }) as Json) ?? {}) };
        }
        const target = targetView ? byView.get(targetView) : undefined;
        const load = target?.load as { operation: string; param?: unknown } | undefined;
        if (load && Object.keys(params).length) targets.push({ operation: load.operation, param: resolveTemplate(load.param ?? {}, { params }), from: `${view} ${String(action.label)} → ${targetView}` });
      }
      for (const target of targets) {
        if (!implemented.has(target.operation)) continue;
        probes += 1;
        const answer = await call(target.operation, target.param, badmin);
        if (answer.code === '200') leaks.push(`${target.from}: ${target.operation} ${JSON.stringify(target.param)}`);
      }
    }
    expect(probes).toBeGreaterThan(5);
    expect(leaks).toEqual([]);
  });
});
