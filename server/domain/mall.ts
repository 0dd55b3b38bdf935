import { fail } from '../http/envelope';
import { businessDayStamp } from './businessTime';
import { EXPRESS_COMPANY_LABEL, fenOf, yuan } from './cards';

/**
 * The online mall (SPEC §1, §7; issue 7). An order's life cycle (dictionary mall_order_state):
 *
 *   pending_payment ──pay──▶ paid ──ship (express company, tracking number)──▶ shipped ──confirmReceipt──▶ completed
 *        │                    │
 *        │                    └──cancel (the payment is refunded, the stock comes back)──▶ refunded
 *        └──cancel, or unpaid past its deadline (the stock comes back)──▶ cancelled
 *
 * Submitting an order takes its quantities from the goods' stock; paying counts them as sold.
 * An invoice may be applied for once an order is paid and until it is refunded, once per order
 * (a rejected application may be made again).
 */
export const MALL_ORDER_STATE = {
  pendingPayment: 'pending_payment',
  paid: 'paid',
  shipped: 'shipped',
  completed: 'completed',
  cancelled: 'cancelled',
  refunded: 'refunded',
} as const;
export type MallOrderState = (typeof MALL_ORDER_STATE)[keyof typeof MALL_ORDER_STATE];

export const MALL_ORDER_STATE_LABEL: Readonly<Record<MallOrderState, string>> = {
  pending_payment: '待付款',
  paid: '已付款',
  shipped: '已发货',
  completed: '已完成',
  cancelled: '已取消',
  refunded: '已退款',
};

/** The states each order action may start from. */
export const MALL_ORDER_ACTIONS = {
  pay: [MALL_ORDER_STATE.pendingPayment],
  cancel: [MALL_ORDER_STATE.pendingPayment, MALL_ORDER_STATE.paid],
  ship: [MALL_ORDER_STATE.paid],
  confirmReceipt: [MALL_ORDER_STATE.shipped],
  applyInvoice: [MALL_ORDER_STATE.paid, MALL_ORDER_STATE.shipped, MALL_ORDER_STATE.completed],
} as const satisfies Record<string, readonly MallOrderState[]>;

/** Whether `state` allows `action`. */
export function orderAllows(state: string, action: keyof typeof MALL_ORDER_ACTIONS): boolean {
  return (MALL_ORDER_ACTIONS[action] as readonly string[]).includes(state);
}

/** How long an unpaid order keeps its stock before the platform closes it. */
export const PAY_TIMEOUT_HOURS = 24;
/** Orders whose goods come to this much after the discount ship free. */
export const FREE_FREIGHT_THRESHOLD_FEN = 200_000;
/** The lines one order may hold, and the quantity of one line. */
export const MAX_ORDER_LINES = 20;
export const MAX_LINE_QUANTITY = 9999;
/** A tenant's addresses and titles. */
export const MAX_ADDRESSES = 20;
export const MAX_INVOICE_TITLES = 20;

export const PAY_METHODS = ['wechat', 'alipay'] as const;
export const PAY_METHOD_LABEL: Readonly<Record<string, string>> = { wechat: '微信支付', alipay: '支付宝' };

export const GOODS_CATEGORIES = ['device', 'card', 'service'] as const;
export const GOODS_STATE = { onShelf: 'on_shelf', offShelf: 'off_shelf' } as const;
export const GOODS_STATE_LABEL: Readonly<Record<string, string>> = { on_shelf: '已上架', off_shelf: '已下架' };

export const DISCOUNT_TYPES = ['amount', 'rate'] as const;
export const DISCOUNT_SCOPES = ['goods', 'order'] as const;
export const DISCOUNT_STATES = ['not_started', 'active', 'ended'] as const;
export type DiscountState = (typeof DISCOUNT_STATES)[number];
export const DISCOUNT_STATE_LABEL: Readonly<Record<DiscountState, string>> = { not_started: '未开始', active: '进行中', ended: '已结束' };

export const INVOICE_STATE = { applied: 'applied', issued: 'issued', rejected: 'rejected' } as const;
export const INVOICE_TYPES = ['normal', 'special'] as const;

/** Where, in a discount's validity, `now` lies. */
export function discountState(startAt: Date, endAt: Date, now: Date): DiscountState {
  if (now.getTime() < startAt.getTime()) return 'not_started';
  return now.getTime() < endAt.getTime() ? 'active' : 'ended';
}

/** ¥ amounts as people write them in a rule: 2000, 199.5. */
function plainYuan(fen: number): string {
  return fen % 100 === 0 ? String(fen / 100) : (fen / 100).toFixed(2).replace(/0$/, '');
}

export interface DiscountRule {
  code: string;
  name: string;
  type: 'amount' | 'rate';
  scope: 'goods' | 'order';
  goodsCodes: readonly string[];
  thresholdFen: number;
  /** 满减: the amount taken off. */
  reduceFen: number | null;
  /** 折扣: what is paid of the base (0.85 = 八五折). */
  rate: number | null;
}

/** 满2000减200 · 立减50 · 8.5折 · 9折（满1000可用）, with 指定商品 for a goods discount. */
export function ruleText(rule: Pick<DiscountRule, 'type' | 'scope' | 'thresholdFen' | 'reduceFen' | 'rate'>): string {
  const body =
    rule.type === 'amount'
      ? rule.thresholdFen > 0
        ? `满${plainYuan(rule.thresholdFen)}减${plainYuan(rule.reduceFen ?? 0)}`
        : `立减${plainYuan(rule.reduceFen ?? 0)}`
      : `${Number(((rule.rate ?? 1) * 10).toFixed(1))}折${rule.thresholdFen > 0 ? `（满${plainYuan(rule.thresholdFen)}可用）` : ''}`;
  return rule.scope === 'goods' ? `指定商品${body}` : `全场${body}`;
}

export interface PricedLine {
  goodsCode: string;
  unitPriceFen: number;
  quantity: number;
  freightFen: number;
}

/** What a discount takes off these lines, or null when it does not apply to them. */
export function discountFen(rule: DiscountRule, lines: readonly PricedLine[]): number | null {
  const covered = rule.scope === 'order' ? lines : lines.filter((line) => rule.goodsCodes.includes(line.goodsCode));
  const base = covered.reduce((sum, line) => sum + line.unitPriceFen * line.quantity, 0);
  if (base <= 0 || base < rule.thresholdFen) return null;
  if (rule.type === 'amount') return Math.min(rule.reduceFen ?? 0, base);
  return base - Math.round(base * (rule.rate ?? 1));
}

export interface Settlement {
  goodsFen: number;
  discountFen: number;
  freightFen: number;
  payFen: number;
  /** The discount applied, if any. */
  applied: { rule: DiscountRule; amountFen: number } | null;
  /** Every discount these lines qualify for, the largest saving first. */
  options: Array<{ rule: DiscountRule; amountFen: number }>;
}

/**
 * The amounts of an order: goods, the discount chosen (undefined: the largest saving; '': none;
 * a code: that one, "409" when it does not apply), and the freight (the dearest line's, nothing
 * once the goods come to FREE_FREIGHT_THRESHOLD_FEN after the discount).
 */
export function settle(lines: readonly PricedLine[], rules: readonly DiscountRule[], chosen: string | undefined): Settlement {
  const goodsFen = lines.reduce((sum, line) => sum + line.unitPriceFen * line.quantity, 0);
  const options = rules
    .map((rule) => ({ rule, amountFen: discountFen(rule, lines) }))
    .filter((option): option is { rule: DiscountRule; amountFen: number } => option.amountFen !== null && option.amountFen > 0)
    .sort((a, b) => b.amountFen - a.amountFen || a.rule.code.localeCompare(b.rule.code));
  let applied: Settlement['applied'] = null;
  if (chosen === undefined) applied = options[0] ?? null;
  else if (chosen !== '') {
    applied = options.find((option) => option.rule.code === chosen) ?? null;
    if (!applied) throw fail.conflict('所选优惠不适用于当前订单，请重新选择');
  }
  const discount = applied?.amountFen ?? 0;
  const afterDiscount = goodsFen - discount;
  const freightFen = afterDiscount >= FREE_FREIGHT_THRESHOLD_FEN ? 0 : lines.reduce((max, line) => Math.max(max, line.freightFen), 0);
  return { goodsFen, discountFen: discount, freightFen, payFen: afterDiscount + freightFen, applied, options };
}

export { fenOf, yuan };

/** A payment's transaction number as the channel gives it: 28 digits (WeChat Pay 4200…, Alipay day + 22001…). */
export function transactionNo(method: string, paidAt: Date, orderId: number, timeZone: string): string {
  const day = businessDayStamp(paidAt, timeZone);
  return method === 'wechat' ? `4200${day}${String(orderId).padStart(16, '0')}` : `${day}22001${String(orderId).padStart(15, '0')}`;
}

// ── believable tracking history ─────────────────────────────────────────────────────────────────

export interface ExpressTrace {
  time: string;
  /** 已揽收 · 运输中 · 派送中 · 已签收 */
  status: string;
  description: string;
}

const HOUR_MS = 3_600_000;
const COURIERS = ['王师傅', '李师傅', '张师傅', '陈师傅', '刘师傅', '赵师傅'];

function hashOf(text: string): number {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash;
}

/** The city and district of an address's region ("浙江省 杭州市 西湖区" → 杭州市, 西湖区). */
export function placeOf(region: string): { city: string; district: string } {
  const parts = region.split(/\s+/).filter(Boolean);
  const city = parts.find((part) => /市$/.test(part) && !/省$/.test(part)) ?? parts[1] ?? parts[0] ?? '';
  const district = parts.find((part) => /(区|县)$/.test(part)) ?? parts[parts.length - 1] ?? '';
  return { city: city.replace(/市$/, ''), district };
}

/**
 * The tracking history of a parcel shipped at `shippedAt` from the platform's Hangzhou warehouse
 * to `region`, as the carrier would report it at `now`: newest first, ending in 已签收 once the
 * order was received.
 */
export function expressTraces(input: {
  orderCode: string;
  expressCompany: string;
  region: string;
  receiver: string;
  shippedAt: Date;
  receivedAt: Date | null;
  now: Date;
}): ExpressTrace[] {
  const company = EXPRESS_COMPANY_LABEL[input.expressCompany] ?? '快递';
  const { city, district } = placeOf(input.region);
  const destination = city || '目的地';
  const local = destination === '杭州';
  const seed = hashOf(input.orderCode);
  const courier = COURIERS[seed % COURIERS.length];
  const courierPhone = `1${3 + (seed % 7)}${String(seed % 1_000_000_000).padStart(9, '0')}`.slice(0, 11);
  const at = (hours: number) => new Date(input.shippedAt.getTime() + hours * HOUR_MS);
  const steps: Array<{ at: Date; status: string; description: string }> = [
    { at: at(0), status: '已揽收', description: `【杭州市】${company} 已揽收，揽收网点：杭州余杭仓储中心` },
    { at: at(2.5), status: '运输中', description: '【杭州市】快件已到达【杭州转运中心】' },
  ];
  if (local) {
    steps.push({ at: at(6), status: '运输中', description: `【杭州市】快件已从【杭州转运中心】发出，下一站【${district || '杭州'}营业部】` });
    steps.push({ at: at(11), status: '运输中', description: `【杭州市】快件已到达【${district || '杭州'}营业部】` });
    steps.push({ at: at(13), status: '派送中', description: `【杭州市】快件正在派送中，派送员：${courier}，电话：${courierPhone}` });
  } else {
    steps.push({ at: at(4), status: '运输中', description: `【杭州市】快件已从【杭州转运中心】发出，下一站【${destination}转运中心】` });
    steps.push({ at: at(19), status: '运输中', description: `【${destination}市】快件已到达【${destination}转运中心】` });
    steps.push({ at: at(23), status: '运输中', description: `【${destination}市】快件已从【${destination}转运中心】发出，下一站【${district || destination}营业部】` });
    steps.push({ at: at(27), status: '运输中', description: `【${destination}市】快件已到达【${district || destination}营业部】` });
    steps.push({ at: at(29), status: '派送中', description: `【${destination}市】快件正在派送中，派送员：${courier}，电话：${courierPhone}` });
  }
  const until = input.receivedAt ?? input.now;
  const shown = steps.filter((step) => step.at.getTime() <= until.getTime());
  if (input.receivedAt) {
    const signer = seed % 3 === 0 ? '前台代收' : `${input.receiver}本人`;
    shown.push({ at: input.receivedAt, status: '已签收', description: `【${destination}市】快件已签收，签收人：${signer}，感谢使用${company}` });
  }
  return shown.reverse().map((step) => ({ time: step.at.toISOString(), status: step.status, description: step.description }));
}

// ── built-in goods pictures ─────────────────────────────────────────────────────────────────────

const GLYPHS: Readonly<Record<string, string>> = {
  // a meter or sensor: a rounded body with a dial
  device:
    '<rect x="120" y="90" width="160" height="200" rx="28" fill="#ffffff" fill-opacity="0.92"/><circle cx="200" cy="165" r="48" fill="none" stroke="{c}" stroke-width="10"/><path d="M200 165 L228 140" stroke="{c}" stroke-width="8" stroke-linecap="round"/><rect x="160" y="240" width="80" height="16" rx="8" fill="{c}" fill-opacity="0.6"/>',
  // a SIM card with its chip
  card: '<path d="M140 90 H250 L290 130 V300 a14 14 0 0 1 -14 14 H140 a14 14 0 0 1 -14 -14 V104 a14 14 0 0 1 14 -14 Z" fill="#ffffff" fill-opacity="0.92"/><rect x="160" y="170" width="90" height="80" rx="10" fill="{c}" fill-opacity="0.75"/><path d="M160 197 H250 M160 223 H250 M190 170 V250 M220 170 V250" stroke="#ffffff" stroke-width="4"/>',
  // a shield with a check: a service
  service:
    '<path d="M200 80 L290 115 V185 C290 245 250 285 200 305 C150 285 110 245 110 185 V115 Z" fill="#ffffff" fill-opacity="0.92"/><path d="M160 190 L192 222 L246 162" fill="none" stroke="{c}" stroke-width="14" stroke-linecap="round" stroke-linejoin="round"/>',
};

/** A built-in picture of a goods (an inline SVG data url): its category's glyph on `color`, with a caption. */
export function goodsPicture(category: string, caption: string, color: string): string {
  const glyph = (GLYPHS[category] ?? GLYPHS.device).replace(/\{c\}/g, color);
  const text = caption.replace(/[<>&"']/g, '');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="${color}" stop-opacity="0.55"/></linearGradient></defs><rect width="400" height="400" fill="url(#g)"/>${glyph}<text x="200" y="360" font-size="26" font-family="sans-serif" text-anchor="middle" fill="#ffffff">${text}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

/** Whether a url is one of the built-in pictures. */
export const isBuiltInPicture = (url: string): boolean => url.startsWith('data:image/svg+xml;base64,');

/** Money of a numeric column as a number of yuan (numeric arrives as text). */
export const moneyOf = (value: string | number | null | undefined): number => yuan(fenOf(value ?? 0));
