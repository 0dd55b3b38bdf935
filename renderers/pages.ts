import { formatViewRef, isPageVariants, paramsKey, parseViewRef } from './schema/viewRef';

/**
 * Page schemas are data under schemas/pages/<area>/<view>.json, each its own lazy chunk, composed
 * at build time (scripts/pageComposePlugin.ts: fragments resolved, column filters derived, a page
 * with parameters made into each combination's page). A view reference finds its schema: the
 * file name (`device/all`), with the page's parameters when it has some
 * (`feedback/list?feedbackType=app`, renderers/schema/compose.ts).
 */
const modules = import.meta.glob<{ default: unknown }>('../schemas/pages/**/*.json');

const PREFIX = '../schemas/pages/';

/**
 * View files that became parameters of one page (issue 20). Menus delivered to a database before
 * keep their view file (the catalogue sync changes nothing present), so the old names still open.
 */
export const FORMER_VIEWS: Readonly<Record<string, string>> = {
  'feedback/app': 'feedback/list?feedbackType=app',
  'feedback/other': 'feedback/list?feedbackType=other',
  'appVersion/forced': 'appVersion/list?updateType=forced',
  'appVersion/hot': 'appVersion/list?updateType=hot',
  'system/myOrder': 'system/myOrder?buttons=menu',
};

/** The view reference a view file names today (a former name gives its page and parameters). */
export function currentViewRef(ref: string): string {
  return Object.prototype.hasOwnProperty.call(FORMER_VIEWS, ref) ? FORMER_VIEWS[ref] : ref;
}

export function pageFile(ref: string): string {
  return `schemas/pages/${parseViewRef(currentViewRef(ref)).view}.json`;
}

export function pageViews(): string[] {
  return Object.keys(modules).map((key) => key.slice(PREFIX.length, -'.json'.length));
}

export function pageExists(ref: string): boolean {
  return Object.prototype.hasOwnProperty.call(modules, `${PREFIX}${parseViewRef(currentViewRef(ref)).view}.json`);
}

/** A view reference whose parameters its page does not have. */
export class PageComposeError extends Error {
  constructor(
    readonly file: string,
    readonly problems: ReadonlyArray<{ pointer: string; message: string }>,
  ) {
    super(`页面模式 ${file} 无法组合：${problems.map((p) => `${p.pointer} ${p.message}`).join('；')}`);
    this.name = 'PageComposeError';
  }
}

async function loadModule(view: string): Promise<unknown> {
  const load = modules[`${PREFIX}${view}.json`];
  if (!load) throw new Error(`没有页面模式 ${pageFile(view)}`);
  return (await load()).default;
}

/** The view references a page file answers: its name, or one per combination of its parameters. */
export async function pageRefs(view: string): Promise<string[]> {
  const loaded = await loadModule(view);
  return isPageVariants(loaded) ? Object.keys(loaded.$variants).map((key) => formatViewRef(view, Object.fromEntries(new URLSearchParams(key)))) : [view];
}

/**
 * Loads the page schema of a view reference (not yet validated); rejects when there is none, and
 * with a PageComposeError when the page has no such combination of parameters.
 */
export async function loadPageSchema(ref: string): Promise<unknown> {
  const { view, params } = parseViewRef(currentViewRef(ref));
  const loaded = await loadModule(view);
  const key = paramsKey(params);
  if (isPageVariants(loaded)) {
    if (Object.prototype.hasOwnProperty.call(loaded.$variants, key)) return loaded.$variants[key];
    const known = Object.keys(loaded.$variants).join('、');
    throw new PageComposeError(pageFile(view), [{ pointer: '/parameters', message: key ? `页面没有参数组合 ${key}（可用：${known}）` : `打开页面时缺少参数（可用：${known}）` }]);
  }
  if (key) throw new PageComposeError(pageFile(view), [{ pointer: '/parameters', message: `页面没有参数 ${Object.keys(params).join('、')}` }]);
  return loaded;
}

// Development: editing a page schema reloads the page showing it at once (the session lives in
// session storage, so the reload keeps the user signed in and on the same route). A changed schema
// file re-runs this module, which accepts itself; the second run reloads the page.
// (Vitest also defines import.meta.hot, without `data`.)
if (import.meta.hot?.data) {
  if (import.meta.hot.data.loaded) window.location.reload();
  import.meta.hot.data.loaded = true;
  import.meta.hot.accept();
}
