import seedMenuText from '../../schemas/menus.json?raw';
import { GENERIC_MENU_ICON, MENU_ICONS, ownMenuIcon } from './menuIconSet';

interface SeedIconEntry {
  code?: string;
  icon?: string;
  children?: readonly SeedIconEntry[];
}

/**
 * The icon schemas/menus.json gives each resource code (read as text: the production build keeps
 * only the codes and icons of the file in it, scripts/consoleCataloguePlugin.ts), in a chunk of its
 * own that only a menu with such a row loads. A menu row that names no icon
 * of its own, or one this console cannot draw, shows its code's icon from here: the catalogue sync
 * (server/seed/catalogueSync.ts) adds new rows but never rewrites a present one, so a database
 * seeded before its entries were given icons keeps empty ones, and the console still tells its
 * entries apart.
 */
export const SEED_ICON_BY_CODE: ReadonlyMap<string, string> = (() => {
  const byCode = new Map<string, string>();
  const walk = (entries: readonly SeedIconEntry[]) =>
    entries.forEach((entry) => {
      if (entry.code && entry.icon) byCode.set(entry.code, entry.icon);
      walk(entry.children ?? []);
    });
  walk((JSON.parse(seedMenuText) as { menus: readonly SeedIconEntry[] }).menus);
  return byCode;
})();

/** The icon's name a menu resource shows: its own when the console can draw it, else its code's seed icon, else the generic one. */
export function menuIconName(name: string | null | undefined, code: string | null | undefined): string {
  const own = ownMenuIcon(name);
  if (own) return own;
  const seeded = code ? SEED_ICON_BY_CODE.get(code) : undefined;
  if (seeded && MENU_ICONS[seeded]) return seeded;
  return GENERIC_MENU_ICON;
}
