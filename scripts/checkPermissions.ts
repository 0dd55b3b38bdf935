// `npm run check`: a button's permission is one its own menu grants (issue 33). A button shows
// when the button list of the route it stands on holds its permission (SPEC §6): the route of the
// menu entry that opened the page, also for a form or a page opened from it in a drawer, a modal or
// a detail's list section. So a permission that some other menu grants (another screen's real
// button) hides the button from everyone here; check.ts already names one that no menu grants.
import { join } from 'node:path';
import { parseViewRef } from '../renderers/schema/compose';
import type { CheckContext, Problem } from './check';
import { readJsonFile } from './checkFiles';
import { composedPages } from './pageSources';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

interface MenuEntry {
  code?: string;
  name?: string;
  view?: string;
  buttons?: Array<{ url: string }>;
  children?: MenuEntry[];
}

interface Menu {
  code: string;
  name: string;
  view: string;
  buttons: Set<string>;
}

/** The pages a page opens in place (a drawer, a modal, a list section): every `page` it names. */
function openedPages(page: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!isObject(value)) return;
    if (typeof value.page === 'string') found.push(value.page);
    Object.values(value).forEach(walk);
  };
  walk(page);
  return found;
}

/** Every button permission of a composed page, with its pointer: actions at any depth and the export button. */
function permissions(page: unknown): Array<{ pointer: string; permission: string }> {
  const found: Array<{ pointer: string; permission: string }> = [];
  const walk = (value: unknown, pointer: string): void => {
    if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${pointer}/${i}`));
    if (!isObject(value)) return;
    if (typeof value.permission === 'string' && (typeof value.type === 'string' || pointer === '/export')) found.push({ pointer: `${pointer}/permission`, permission: value.permission });
    // A Formily form's fields hold no buttons.
    for (const [key, item] of Object.entries(value)) if (key !== 'schema' && key !== 'filters') walk(item, `${pointer}/${key}`);
  };
  walk(page, '');
  return found;
}

const allowed = (names: ReadonlySet<string>) => (names.size ? [...names].sort().join('、') : '无（该菜单没有按钮）');

/** Buttons whose permission no menu that opens their page grants. */
export function checkButtonPermissions(context: CheckContext): Problem[] {
  const tree = readJsonFile(context.root, 'schemas/menus.json');
  if (!tree.ok || !isObject(tree.value) || !Array.isArray(tree.value.menus)) return [];
  const menus: Menu[] = [];
  const walkMenus = (entries: MenuEntry[]) =>
    entries.forEach((entry) => {
      if (entry.view) menus.push({ code: String(entry.code ?? entry.view), name: String(entry.name ?? entry.code), view: entry.view, buttons: new Set((entry.buttons ?? []).map((b) => b.url)) });
      walkMenus(entry.children ?? []);
    });
  walkMenus(tree.value.menus as MenuEntry[]);

  const pages = composedPages(context.root, context.pagesDir);
  const byRef = new Map(pages.map((p) => [p.view, p]));
  const find = (ref: string) => byRef.get(ref) ?? byRef.get(parseViewRef(ref).view);
  /** The page refs a view shows: itself and what it opens in place, transitively. */
  const reach = (view: string): Set<string> => {
    const seen = new Set<string>();
    const queue = [view];
    while (queue.length) {
      const ref = queue.shift() as string;
      const page = find(ref);
      if (!page || seen.has(page.view)) continue;
      seen.add(page.view);
      queue.push(...openedPages(page.page));
    }
    return seen;
  };
  const openers = new Map<string, Menu[]>();
  for (const menu of menus) for (const ref of reach(menu.view)) openers.set(ref, [...(openers.get(ref) ?? []), menu]);
  // A page a layout route or a hand-written screen shows has a button list this check cannot see.
  const elsewhere = new Set([...context.views].filter((view) => !menus.some((menu) => menu.view === view)).flatMap((view) => [...reach(view)]));

  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const page of pages) {
    const menusOfPage = openers.get(page.view);
    if (!menusOfPage?.length || elsewhere.has(page.view)) continue;
    const granted = new Set(menusOfPage.flatMap((menu) => [...menu.buttons]));
    for (const { pointer, permission } of permissions(page.page)) {
      // One that no menu grants is told by check.ts.
      if (granted.has(permission) || !context.permissions.has(permission)) continue;
      const key = `${parseViewRef(page.view).view} ${pointer} ${permission}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const named = menusOfPage.map((menu) => `${menu.name}（${menu.code}）：${allowed(menu.buttons)}`).join('；');
      const variant = page.view.includes('?') ? `（${page.view.slice(page.view.indexOf('?') + 1)}）` : '';
      problems.push({
        file: join('schemas/pages', `${parseViewRef(page.view).view}.json`),
        pointer,
        message: `权限 ${permission} 不是打开本页的菜单授予的按钮，这个按钮在这里对所有人都不显示；可用的按钮权限为 ${named}${variant}`,
      });
    }
  }
  return problems;
}
