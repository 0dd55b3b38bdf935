import type { MenuResource } from './types';

/** Every resource of the tree, parents before children. */
export function flattenMenu(menus: readonly MenuResource[]): MenuResource[] {
  const out: MenuResource[] = [];
  const walk = (nodes: readonly MenuResource[]) => {
    for (const node of nodes) {
      out.push(node);
      if (node.children?.length) walk(node.children);
    }
  };
  walk(menus);
  return out;
}

/** The menu resource whose url is this route path (trailing slashes ignored). */
export function findMenuByUrl(menus: readonly MenuResource[], path: string): MenuResource | undefined {
  const wanted = normalisePath(path);
  return flattenMenu(menus).find((node) => node.resourceUrl && normalisePath(node.resourceUrl) === wanted);
}

export function normalisePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** The menu groups (SPEC §2 top bar) in their fixed order, keeping only those with entries. */
export const MENU_GROUPS = ['internet', 'project', 'platform', 'system', 'basics', 'mall'] as const;

export function groupsWithEntries(menus: readonly MenuResource[]): string[] {
  const present = new Set(menus.filter((m) => m.isShown !== false).map((m) => m.menuClassificationCode));
  return MENU_GROUPS.filter((group) => present.has(group));
}
