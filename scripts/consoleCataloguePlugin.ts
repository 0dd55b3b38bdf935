import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

interface CatalogueEntry {
  path: string;
  kind: string;
  title: string;
  [other: string]: unknown;
}

/**
 * What the console reads of an operation: its path and kind, and for an export its title (the file
 * name when the server sends none). The rest of the catalogue (titles of other operations, access
 * and button flags) is the server's and the tests': left out of the browser bundle, it takes about
 * 3 KiB gzip off every first paint (issue 8).
 */
export function consoleCatalogue(json: string): string {
  const catalogue = JSON.parse(json) as Record<string, CatalogueEntry>;
  const slim = Object.fromEntries(
    Object.entries(catalogue).map(([name, { path, kind, title }]) => [name, kind === 'blob' ? { path, kind, title } : { path, kind }]),
  );
  return JSON.stringify(slim);
}

interface MenuTreeEntry {
  url?: string;
  children?: MenuTreeEntry[];
  [other: string]: unknown;
}

/**
 * What the console reads of the seed menu tree: the urls of its pages, in the tree's shape (the
 * frame tells a page the role may not open from a made-up path, src/router/knownPaths.ts). Names,
 * roles and buttons are the server's: a user's own menu comes from it.
 */
export function consoleMenuPaths(json: string): string {
  const slim = (entries: readonly MenuTreeEntry[]): MenuTreeEntry[] =>
    entries.map((entry) => ({ ...(entry.url ? { url: entry.url } : {}), ...(entry.children ? { children: slim(entry.children) } : {}) }));
  return JSON.stringify({ menus: slim((JSON.parse(json) as { menus: MenuTreeEntry[] }).menus) });
}

interface MenuIconEntry {
  code?: string;
  icon?: string;
  children?: MenuIconEntry[];
}

/**
 * What the frame's menu icons read of the seed menu tree (its text, `schemas/menus.json?raw`, in the
 * lazy icon chunk, src/frame/menuIconSet.tsx): each code's icon, in the tree's shape.
 */
export function consoleMenuIcons(json: string): string {
  const slim = (entries: readonly MenuIconEntry[]): MenuIconEntry[] =>
    entries.map((entry) => ({
      ...(entry.code && entry.icon ? { code: entry.code, icon: entry.icon } : {}),
      ...(entry.children ? { children: slim(entry.children) } : {}),
    }));
  return JSON.stringify({ menus: slim((JSON.parse(json) as { menus: MenuIconEntry[] }).menus) });
}

/**
 * Applies `consoleCatalogue` to `schemas/operations.json`, `consoleMenuPaths` to `schemas/menus.json`
 * and `consoleMenuIcons` to the text of `schemas/menus.json?raw` in the production build.
 */
export function consoleCataloguePlugin(): Plugin {
  return {
    name: 'console-catalogue',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      if (id.endsWith('/schemas/menus.json?raw')) return `export default ${JSON.stringify(consoleMenuIcons(readFileSync(id.slice(0, -'?raw'.length), 'utf8')))};`;
      return null;
    },
    transform(code, id) {
      if (id.endsWith('/schemas/operations.json')) return { code: consoleCatalogue(code), map: null };
      if (id.endsWith('/schemas/menus.json')) return { code: consoleMenuPaths(code), map: null };
      return null;
    },
  };
}
