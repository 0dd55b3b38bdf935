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

/** Applies `consoleCatalogue` to `schemas/operations.json` and `consoleMenuPaths` to `schemas/menus.json` in the production build. */
export function consoleCataloguePlugin(): Plugin {
  return {
    name: 'console-catalogue',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (id.endsWith('/schemas/operations.json')) return { code: consoleCatalogue(code), map: null };
      if (id.endsWith('/schemas/menus.json')) return { code: consoleMenuPaths(code), map: null };
      return null;
    },
  };
}
