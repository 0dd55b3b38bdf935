import { flattenMenu, normalisePath } from '../session/menu';
import type { MenuResource } from '../session/types';

/** The product name every browser title ends with. */
export const PRODUCT_NAME = '物联网设备平台';

/** The browser title of a page: `页面名 - 物联网设备平台` (the product name alone without a page name). */
export function documentTitleOf(pageName: string | null | undefined): string {
  const name = pageName?.trim();
  return name ? `${name} - ${PRODUCT_NAME}` : PRODUCT_NAME;
}

/** Chinese names for the buttons antd's Tabs draws itself (their defaults are "remove" and "expanded dropdown"). */
export const TABS_LOCALE = { removeAriaLabel: '关闭标签', dropdownAriaLabel: '更多标签', addAriaLabel: '新增标签' } as const;

/** The tab and browser title of a page of the platform that the role may not open (403 inside the frame). */
export const FORBIDDEN_TITLE = '无权访问';
export const FORBIDDEN_MESSAGE = '抱歉，您的角色无权访问此页面。如需使用，请联系管理员开通权限。';

/** The menu entries from the top of the tree down to the resource of this path (empty when none). */
export function menuTrail(menus: readonly MenuResource[], pathname: string): MenuResource[] {
  const wanted = normalisePath(pathname);
  const walk = (nodes: readonly MenuResource[], above: MenuResource[]): MenuResource[] | null => {
    for (const node of nodes) {
      const trail = [...above, node];
      if (node.resourceUrl && normalisePath(node.resourceUrl) === wanted) return trail;
      const below = walk(node.children ?? [], trail);
      if (below) return below;
    }
    return null;
  };
  return walk(menus, []) ?? [];
}

/** Where the location puts the frame: the group tab, the sider's selected entry and its open folders. */
export interface MenuPlace {
  /** The menu group (top-bar tab) of the page; null for a page outside the menu. */
  group: string | null;
  /** The sider entry to highlight: the page's own, or for a hidden page (a detail) the entry it was opened from. */
  selectedKeys: string[];
  /** The folders above the highlighted entry. */
  openKeys: string[];
}

/**
 * The frame's place for a location, from the location alone (menu click, page-tab click, Back and
 * Forward, a typed address all give the same answer). `storedKey` is the entry last clicked in the
 * sider (SPEC §2): a hidden page (a detail) highlights it when it sits in the same folder.
 */
export function menuPlace(menus: readonly MenuResource[], pathname: string, storedKey: string | null = null): MenuPlace {
  const trail = menuTrail(menus, pathname);
  const page = trail.at(-1);
  if (!page) return { group: null, selectedKeys: [], openKeys: [] };
  const folders = trail.slice(0, -1);
  let selected: MenuResource | undefined = page;
  if (page.isShown === false) {
    const stored = storedKey ? flattenMenu(menus).find((node) => node.resourceCode === storedKey) : undefined;
    selected = stored && stored.isShown !== false && stored.parentCode === page.parentCode ? stored : undefined;
  }
  return {
    group: trail[0].menuClassificationCode || null,
    selectedKeys: selected ? [selected.resourceCode] : [],
    openKeys: folders.map((node) => node.resourceCode),
  };
}

/** Whether any menu of the session holds a button that permits this operation. */
export function holdsButton(menus: readonly MenuResource[], operation: string): boolean {
  return flattenMenu(menus).some((node) => (node.buttonList ?? []).some((button) => button.resourceUrl === operation));
}
