/**
 * Page schemas are data under schemas/pages/<area>/<view>.json, each its own lazy chunk; a view
 * file name (`device/all`) finds its schema.
 */
const modules = import.meta.glob<{ default: unknown }>('../schemas/pages/**/*.json');

const PREFIX = '../schemas/pages/';

export function pageFile(view: string): string {
  return `schemas/pages/${view}.json`;
}

export function pageViews(): string[] {
  return Object.keys(modules).map((key) => key.slice(PREFIX.length, -'.json'.length));
}

export function pageExists(view: string): boolean {
  return Object.prototype.hasOwnProperty.call(modules, `${PREFIX}${view}.json`);
}

/** Loads the raw page schema (not yet validated); rejects when there is none. */
export async function loadPageSchema(view: string): Promise<unknown> {
  const load = modules[`${PREFIX}${view}.json`];
  if (!load) throw new Error(`没有页面模式 ${pageFile(view)}`);
  return (await load()).default;
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
