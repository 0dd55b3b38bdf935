import { filterText } from '../../../renderers/list/listAddress';
import { flattenMenu } from '../../session/menu';
import type { MenuResource } from '../../session/types';

/**
 * Where a home figure leads: the list it counts, filtered as the figure was counted. The list is
 * found in the caller's menu by its view (`fileUrl`), so the link goes wherever the menu puts that
 * list; the filter goes in the address's fragment, where a list keeps its state (a reload, a pasted
 * link and Back restore it), each value written as the list writes it.
 */
export interface FigureLink {
  /** The route with its fragment: `/device/all#onlineState=offline`. */
  to: string;
  /** The menu entry, marked as the selected one when the link is followed. */
  menuCode: string;
}

export type ListFilter = Readonly<Record<string, string | number | readonly string[]>>;

/** The link to the list of `view` under `filter`; null when the caller's menu has no such list. */
export function listLink(menus: readonly MenuResource[], view: string, filter: ListFilter = {}): FigureLink | null {
  const entry = flattenMenu(menus).find((menu) => menu.fileUrl === view && menu.resourceUrl);
  if (!entry?.resourceUrl) return null;
  const state = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) state.set(name, filterText(value));
  const fragment = state.toString();
  return { to: fragment ? `${entry.resourceUrl}#${fragment}` : entry.resourceUrl, menuCode: entry.resourceCode };
}
