// Every list a menu view calls (issue 19): each `page` operation of the catalogue that a screen
// reachable from the seed menu asks for when it opens, with the param and sort of that first
// request. Generated from `schemas/menus.json`, the page schemas under `schemas/pages` and
// `schemas/operations.json`, so a new menu or list page is covered by default. Used by the EXPLAIN
// test (tests/server/postgres-explain.test.ts) and the benchmark (scripts/bench).
//
// What a list page asks first (renderers/list/ListRenderer.tsx): page 1 with
// `{ ...resolveTemplate(page.param, { params }), ...filterDefaults(page.filters) }` and
// `defaultSort ? [defaultSort] : []`; a list section of a detail page renders its list page with the
// route's params plus `parent` (renderers/detail/DetailRenderer.tsx).
//
// Not here, because their first request needs a value from a route param that no menu fixes (a
// detail's sub-list, opened from a row of another list); see `skippedLists()`:
//   alarm/deviceAlarms   alarm.record.page           {deviceCode: params.parent.deviceCode}  (alarm/recordDetail, a drawer)
//   device/data          device.data.page            {code: params.code}                     (device/detail)
//   gateway/subDevices   gateway.subDevice.page      {gatewayCode: params.code}              (gateway/details)
//   patrol/records       patrol.record.page          {taskCode: params.code}                 (patrol/detail)
//   repair/batchDevices  repair.batch.device.page    {batchCode: params.code}                (repair/batchSee)
//   system/childDictionary dict.item.page           {dictType: params.dictType}             (from system/dictionary's rows)
//   upgrade/taskDevice   upgrade.task.device.page    {taskId: params.id | number}            (upgrade/taskDetail)
// Nor the list pages that only a fixed layout route shows, not a menu (src/router/layoutRoutes.tsx):
//   system/myOrder?buttons=none at /my/order (mall.myOrder.page; the menu's system/myOrder?buttons=menu asks the same), card/order/user
//   (card.order.user.page), system/notices?tab=daily (notification.daily.page), system/notices?tab=system
//   (notification.system.page).
// Nor notification.mobile.page, which no console screen calls (the mobile app's list).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveTemplate } from '../../renderers/schema/template';
import { composedPageMap } from '../../scripts/pageSources';

export interface MenuList {
  operation: string; // catalogue name, e.g. 'device.page'
  path: string; // its HTTP path from operations.json, e.g. '/device/_page'
  view: string; // page schema view, e.g. 'device/all'
  loginName: string; // a demo account whose roles have the view (see loginFor); password: passwordOf(loginName)
  param: Record<string, unknown>;
  sortParamList: Array<{ field: string; order: 'asc' | 'desc' }>;
}

/** A list left out of `menuLists()`, and why. */
export interface SkippedList {
  operation: string;
  view: string;
  reason: string;
}

type Json = Record<string, unknown>;

interface MenuEntry {
  code: string;
  url?: string;
  view?: string;
  roles?: string[];
  children?: MenuEntry[];
}

interface CatalogueEntry {
  path: string;
  kind: string;
}

const ROOT = new URL('../../schemas/', import.meta.url).pathname;

/** Every demo account's password (server/seed/accounts.ts) but the platform administrator's. */
export const DEMO_PASSWORD = 'Demo@2026';
const ADMIN_PASSWORD = 'Admin@2026';

/** The password of a login `menuLists()` names (only `admin`, for the one view no other demo account has, differs). */
export function passwordOf(loginName: string): string {
  return loginName === 'admin' ? ADMIN_PASSWORD : DEMO_PASSWORD;
}

/**
 * The demo account (server/seed/accounts.ts) that opens a view, from the roles the seed grants it
 * (server/seed/resources.ts: a menu entry's roles, inherited from its parent when omitted): a view
 * of tenant staff is opened by the tenant administrator `tadmin` (杭州云联 T0001, the tenant the
 * grown world fills), a view only platform staff have by the platform operator `operator`, a view
 * only field staff have by the first of repair, patrol, implement and tuser that has it, and the one
 * view only the platform administrator has (system/menu) by `admin`.
 */
const LOGINS: ReadonlyArray<[role: string, loginName: string]> = [
  ['TENANT_ADMIN', 'tadmin'],
  ['PLATFORM_OPERATOR', 'operator'],
  ['ROLE_TENANT_REPAIR', 'repair'],
  ['ROLE_TENANT_PATROL', 'patrol'],
  ['ROLE_REPAIR_IMPLEMENT', 'implement'],
  ['ROLE_TENANT_ORDINARY', 'tuser'],
  ['PLATFORM_ADMIN', 'admin'],
];

function loginFor(roles: ReadonlySet<string>): string | null {
  return LOGINS.find(([role]) => roles.has(role))?.[1] ?? null;
}

/**
 * The page operations that hand-written screens of menu views ask for when they open (they are
 * not page schemas): src/screens/shopping/ShoppingListPage.tsx (商品列表, its default order) and
 * src/screens/dynamicForm/TemplateList.tsx (勘察 / 施工 / 运维模板设置, the kind from the url).
 */
const HAND_WRITTEN: ReadonlyArray<{ url: string; operation: string; param: Json }> = [
  { url: '/shopping/list', operation: 'mall.goods.page', param: { state: 'on_shelf' } },
  { url: '/dynamic/form/1/config', operation: 'activeForm.template.page', param: { kind: 1 } },
  { url: '/dynamic/form/2/config', operation: 'activeForm.template.page', param: { kind: 2 } },
  { url: '/dynamic/form/3/config', operation: 'activeForm.template.page', param: { kind: 3 } },
];

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/**
 * Every page schema by view reference (`device/all`, `feedback/list?feedbackType=app`), composed as
 * the console does (fragments, parameters, column filters), as tests/server/isolation.test.ts reads them.
 */
function readPages(): Map<string, Json> {
  return composedPageMap() as Map<string, Json>;
}

let pagesRead: Map<string, Json> | undefined;
const pages = () => (pagesRead ??= readPages());

/** Menu entries with a view, in menu order, each with the roles the seed grants it. */
function readMenuViews(): Array<{ url: string; view: string; roles: Set<string> }> {
  const { menus } = readJson<{ menus: MenuEntry[] }>(join(ROOT, 'menus.json'));
  const found: Array<{ url: string; view: string; roles: Set<string> }> = [];
  const walk = (entries: readonly MenuEntry[], inherited: readonly string[]) => {
    for (const entry of entries) {
      const roles = entry.roles ?? inherited;
      if (entry.url && entry.view) found.push({ url: entry.url, view: entry.view, roles: new Set(roles) });
      walk(entry.children ?? [], roles);
    }
  };
  walk(menus, []);
  return found;
}

let menuViewsRead: ReturnType<typeof readMenuViews> | undefined;
const menuViews = () => (menuViewsRead ??= readMenuViews());

/** The values a filter form starts from: each field's non-empty `default` (renderers/list/FilterForm.tsx filterDefaults). */
function filterDefaults(filters: unknown): Json {
  const properties = ((filters as { properties?: Record<string, { default?: unknown }> } | undefined)?.properties ?? {}) as Record<string, { default?: unknown }>;
  return Object.fromEntries(
    Object.entries(properties)
      .map(([name, field]) => [name, field.default] as const)
      .filter(([, value]) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)),
  );
}

/** The template paths (`params.code`) a value refers to. */
function templatePaths(template: unknown): string[] {
  return [...JSON.stringify(template ?? {}).matchAll(/\{\{\s*([A-Za-z_$][\w$.]*)/g)].map((match) => match[1]);
}

interface Collected {
  lists: MenuList[];
  skipped: SkippedList[];
}

function collect(): Collected {
  const catalogue = readJson<Record<string, CatalogueEntry>>(join(ROOT, 'operations.json'));
  const byView = pages();
  const lists: Array<MenuList & { direct: boolean }> = [];
  const skipped: SkippedList[] = [];
  const isPageOperation = (name: unknown): name is string => typeof name === 'string' && catalogue[name]?.kind === 'page';

  // The roles of a view are those of every menu entry that shows it.
  const views = menuViews();
  const rolesOf = new Map<string, Set<string>>();
  for (const { view, roles } of views) rolesOf.set(view, new Set([...(rolesOf.get(view) ?? []), ...roles]));

  const add = (operation: string, view: string, menuView: string, param: Json, sort: MenuList['sortParamList'], direct: boolean) => {
    const loginName = loginFor(rolesOf.get(menuView) ?? new Set());
    if (!loginName) {
      skipped.push({ operation, view, reason: `no demo account has the menu view ${menuView}` });
      return;
    }
    lists.push({ operation, path: catalogue[operation].path, view, loginName, param, sortParamList: sort, direct });
  };

  /** A list page opened with `params`: its first request, or why it cannot be made without a route param. */
  const listPage = (view: string, menuView: string, params: Json, direct: boolean) => {
    const page = byView.get(view);
    if (!page || page.kind !== 'list' || !isPageOperation(page.operation)) return;
    const missing = templatePaths(page.param).filter((path) => {
      const value = resolveTemplate(`{{${path}}}`, { params });
      return value === undefined || value === null || value === '';
    });
    if (missing.length) {
      const where = view === menuView ? 'its route (no menu entry fixes it)' : `the route of ${menuView}, which embeds it`;
      skipped.push({ operation: page.operation, view, reason: `needs ${missing.join(', ')} from ${where}` });
      return;
    }
    const param = { ...((resolveTemplate(page.param ?? {}, { params }) ?? {}) as Json), ...filterDefaults(page.filters) };
    const sort = page.defaultSort ? [page.defaultSort as MenuList['sortParamList'][number]] : [];
    add(page.operation, view, menuView, param, sort, direct);
  };

  for (const { url, view } of views) {
    const page = byView.get(view);
    // A menu url fixes no query today; if one ever does, its values are the route's params.
    const params: Json = Object.fromEntries(new URL(url, 'http://console').searchParams);
    if (page?.kind === 'list') listPage(view, view, params, true);
    // Detail pages embed list pages as sections; their route params plus the loaded record as `parent`
    // (which only a detail opened from a row has, so a list reading parent.* is skipped).
    for (const section of (page?.sections as Json[] | undefined) ?? []) {
      if (section.type === 'list' && typeof section.page === 'string') listPage(section.page, view, params, false);
    }
    for (const screen of HAND_WRITTEN.filter((entry) => entry.url === url)) add(screen.operation, view, view, screen.param, [], true);
  }

  // Detail sub-lists that are reached only from a row (not from a menu view's own sections).
  const reached = new Set([...lists.map((list) => list.view), ...skipped.map((list) => list.view)]);
  for (const [view, page] of byView) {
    if (reached.has(view) || page.kind !== 'list' || !isPageOperation(page.operation)) continue;
    skipped.push({ operation: page.operation, view, reason: 'no menu view shows it (a section of a detail opened from a row, or a fixed layout route)' });
  }

  // One entry per (operation, param, sort): the first in menu order, named after a menu's own list
  // view where there is one (device/all rather than device/list's embedded device/listTable).
  const unique = new Map<string, MenuList & { direct: boolean }>();
  for (const list of lists) {
    const key = JSON.stringify([list.operation, sortedKeys(list.param), list.sortParamList]);
    const seen = unique.get(key);
    if (!seen) unique.set(key, list);
    else if (!seen.direct && list.direct) unique.set(key, { ...list });
  }
  return {
    lists: [...unique.values()].map(({ direct: _direct, ...list }) => list),
    skipped,
  };
}

function sortedKeys(value: Json): Json {
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));
}

let cached: Collected | undefined;

/** Every page operation a menu view calls when it opens, deduplicated by (operation, param, sort), in menu order. */
export function menuLists(): MenuList[] {
  cached ??= collect();
  return cached.lists.map((list) => ({ ...list, param: { ...list.param }, sortParamList: list.sortParamList.map((sort) => ({ ...sort })) }));
}

/** The roles the seed grants a view (every menu entry that shows it), e.g. to ask a list again as platform staff. */
export function rolesOfView(view: string): string[] {
  const roles = new Set<string>();
  for (const entry of menuViews()) if (entry.view === view) entry.roles.forEach((role) => roles.add(role));
  // A list embedded in a menu view's detail page has that view's roles.
  if (roles.size === 0) {
    const byView = pages();
    for (const entry of menuViews()) {
      const sections = (byView.get(entry.view)?.sections as Json[] | undefined) ?? [];
      if (sections.some((section) => section.page === view)) entry.roles.forEach((role) => roles.add(role));
    }
  }
  return [...roles].sort();
}

/** The list pages `menuLists()` leaves out, and why (see the head of this file). */
export function skippedLists(): SkippedList[] {
  cached ??= collect();
  return cached.skipped.map((list) => ({ ...list }));
}
