import { normalisePath } from '../session/menu';

import seedMenus from '../../schemas/menus.json';

interface MenuPathEntry {
  url?: string;
  children?: readonly MenuPathEntry[];
}

/**
 * Every page path of the platform's menu tree (schemas/menus.json, the seed every role's menu is
 * cut from; the production build keeps only its urls, scripts/consoleCataloguePlugin.ts). A path
 * here that the role's own menu lacks is a page the role may not open: the frame answers 403 for
 * it, inside the frame, where a made-up path goes to /404. A screen added to the menus is known
 * here with no edit.
 */
export const KNOWN_MENU_PATHS: readonly string[] = (() => {
  const urls: string[] = [];
  const walk = (entries: readonly MenuPathEntry[]) =>
    entries.forEach((entry) => {
      if (entry.url) urls.push(entry.url);
      walk(entry.children ?? []);
    });
  walk((seedMenus as { menus: readonly MenuPathEntry[] }).menus);
  return urls;
})();

const KNOWN = new Set(KNOWN_MENU_PATHS);

/** Whether the path names a page of the platform (whoever may open it). */
export function isKnownMenuPath(pathname: string): boolean {
  return KNOWN.has(normalisePath(pathname));
}
