/** The strip of opened pages (SPEC §2 "Content area"). */
export interface PageTab {
  /** pathname + search: one tab per page and query. */
  key: string;
  pathname: string;
  search: string;
  title: string;
  /** The menu resource is cached: the page stays mounted (filters, page, scroll) while hidden. */
  cached: boolean;
}

export const HOME_PATH = '/dashboard';
export const HOME_TITLE = '工作台';
export const CLOSE_LAST_HOME_REFUSED = '工作台标签不能关闭';

export function homeTab(): PageTab {
  return { key: HOME_PATH, pathname: HOME_PATH, search: '', title: HOME_TITLE, cached: true };
}

/** Adds the tab if it is not open yet (keeping its place), or refreshes its title. */
export function openTab(tabs: readonly PageTab[], tab: PageTab): PageTab[] {
  const index = tabs.findIndex((t) => t.key === tab.key);
  if (index < 0) return [...tabs, tab];
  const next = [...tabs];
  next[index] = { ...next[index], title: tab.title, cached: tab.cached };
  return next;
}

export type CloseResult = { refused: true } | { refused: false; tabs: PageTab[]; navigateTo: string | null };

/** Closes a tab; the last dashboard tab cannot be closed. Closing the active tab opens a neighbour. */
export function closeTab(tabs: readonly PageTab[], key: string, activeKey: string): CloseResult {
  const tab = tabs.find((t) => t.key === key);
  if (!tab) return { refused: false, tabs: [...tabs], navigateTo: null };
  if (tab.pathname === HOME_PATH && tabs.filter((t) => t.pathname === HOME_PATH).length === 1) return { refused: true };
  const index = tabs.indexOf(tab);
  const rest = tabs.filter((t) => t.key !== key);
  if (key !== activeKey) return { refused: false, tabs: rest, navigateTo: null };
  const neighbour = rest[Math.min(index, rest.length - 1)] ?? homeTab();
  return { refused: false, tabs: rest.length ? rest : [homeTab()], navigateTo: neighbour.key };
}

/** Close all: only the dashboard stays, and the console returns to it. */
export function closeAll(): { tabs: PageTab[]; navigateTo: string } {
  return { tabs: [homeTab()], navigateTo: HOME_PATH };
}

/** Close the others: the dashboard and the given tab stay. */
export function closeOthers(tabs: readonly PageTab[], key: string): PageTab[] {
  return tabs.filter((t) => t.key === key || t.pathname === HOME_PATH);
}
