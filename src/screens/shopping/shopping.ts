import { FORMATS } from '../../format/formats';
import { findMenuByUrl } from '../../session/menu';
import type { MenuResource } from '../../session/types';

/** The mall's routes (schemas/menus.json). */
export const SHOPPING_PATHS = {
  list: '/shopping/list',
  item: '/shopping/item',
  confirm: '/shopping/confirm',
  orderDetail: '/shopping/order/detail',
  address: '/shopping/address',
} as const;

/** A goods as mall.goods.page lists it. */
export interface GoodsSummary {
  code: string;
  name: string;
  category: string;
  model: string;
  spec: string;
  unit: string;
  price: number;
  marketPrice: number | null;
  stock: number;
  sales: number;
  freight: number;
  coverImage: string;
  cardCustomName: string;
  cardsPerUnit: number;
  state: string;
  discountTags: string[];
}

/** A goods as mall.goods.detail answers it. */
export interface GoodsDetail extends GoodsSummary {
  images: string[];
  description: string;
  discounts: Array<{ code: string; name: string; ruleText: string; saving: number | null }>;
}

export interface OrderLine {
  goodsCode: string;
  quantity: number;
}

export const MAX_LINE_QUANTITY = 9999;
const LINE = /^(GD\d{5}):(\d{1,4})$/;

/** The order lines of a confirm-order link: `items=GD00001:3,GD00005:1` (bad parts are dropped, a goods once). */
export function parseOrderLines(text: string | null): OrderLine[] {
  const lines: OrderLine[] = [];
  for (const part of (text ?? '').split(',')) {
    const match = LINE.exec(part.trim());
    if (!match) continue;
    const quantity = Math.min(Number(match[2]), MAX_LINE_QUANTITY);
    if (quantity < 1 || lines.some((line) => line.goodsCode === match[1])) continue;
    lines.push({ goodsCode: match[1], quantity });
  }
  return lines;
}

/** The link that confirms an order of these lines. */
export function confirmOrderPath(lines: readonly OrderLine[]): string {
  return `${SHOPPING_PATHS.confirm}?items=${encodeURIComponent(lines.map((line) => `${line.goodsCode}:${line.quantity}`).join(','))}`;
}

/** ¥1,234.00 */
export const money = (value: number | null | undefined): string => FORMATS.money(value ?? 0);

/** Whether the signed-in user may open a route of the menu (buying needs /shopping/confirm). */
export function mayOpen(menus: readonly MenuResource[] | undefined, path: string): boolean {
  return Boolean(menus && findMenuByUrl(menus, path));
}
