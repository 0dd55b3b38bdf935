import type { Row } from '../db/bulk';
import { documentCode } from '../domain/cards';
import { MALL_ORDER_STATE, PAY_TIMEOUT_HOURS, ruleText, settle, transactionNo, type DiscountRule, type MallOrderState } from '../domain/mall';
import { BUYER_CANCELS, BUYER_REFUNDS, GOODS, REMARKS, type TenantBook } from './fixtures/mall';
import { seedGoodsPicture } from './goodsPictures';
import type { Random } from './prng';
import { HOUR_MS, DAY_MS, iso } from './clock';

/**
 * The mall's orders of the demo world, one at a time: when each was paid, shipped, received or
 * cancelled, its lines and the cards of the devices it brought, and its invoices.
 */

export const PLATFORM_STAFF = 'operator';
export const goodsCode = (index: number) => `GD${String(index + 1).padStart(5, '0')}`;

const EXPRESS: ReadonlyArray<{ company: string; number: (random: Random) => string }> = [
  { company: 'sf', number: (random) => `SF${random.int(1_000_000, 9_999_999)}${random.int(100_000, 999_999)}` },
  { company: 'jd', number: (random) => `JDVA${random.int(10_000_000, 99_999_999)}${random.int(100, 999)}` },
  { company: 'zto', number: (random) => `7531${random.int(10_000_000, 99_999_999)}` },
  { company: 'ems', number: (random) => `1178${random.int(100_000_000, 999_999_999)}` },
];

const SOLD_STATES: ReadonlySet<MallOrderState> = new Set([MALL_ORDER_STATE.paid, MALL_ORDER_STATE.shipped, MALL_ORDER_STATE.completed]);

export interface DraftOrder {
  tenant: TenantBook;
  createdAt: number;
  state: MallOrderState;
  lines: Array<{ goods: number; quantity: number }>;
}

/** What the orders share as they are written one after another. */
export interface MallBook {
  random: Random;
  now: number;
  timeZone: string;
  /** The discount rules running at a moment. */
  runningAt(time: number): DiscountRule[];
  titlesOf: Map<string, Row[]>;
  /** The tenants' installed devices of each product ("tenant product"), oldest first, with their cards. */
  installed: Map<string, Array<{ code: string; createdAt: number; iccid: string }>>;
  usedCards: Set<string>;
  /** Quantities sold and held by pending orders, by goods index. */
  sold: Map<number, number>;
  reserved: Map<number, number>;
  orders: Row[];
  items: Row[];
  invoices: Row[];
  cards: Row[];
}

/** The moments of an order's life after it was placed, and who cancelled it why. */
function orderTimes(book: MallBook, draft: DraftOrder) {
  const { random, now } = book;
  const created = draft.createdAt;
  const paid = draft.state !== MALL_ORDER_STATE.pendingPayment && !(draft.state === MALL_ORDER_STATE.cancelled);
  const paidAt = paid ? created + random.int(3, 90) * 60_000 : null;
  const method = random.next() < 0.62 ? 'wechat' : 'alipay';
  const shipping = draft.state === MALL_ORDER_STATE.shipped || draft.state === MALL_ORDER_STATE.completed;
  const shippedAt = shipping && paidAt !== null ? Math.min(paidAt + random.int(4, 40) * HOUR_MS, now - 2 * HOUR_MS) : null;
  const receivedAt = draft.state === MALL_ORDER_STATE.completed && shippedAt !== null ? shippedAt + random.int(30, 90) * HOUR_MS : null;
  const express = random.pick(EXPRESS);
  const timeout = random.next() < 0.5;
  const cancelledAt =
    draft.state === MALL_ORDER_STATE.cancelled
      ? timeout
        ? created + PAY_TIMEOUT_HOURS * HOUR_MS
        : created + random.int(5, 300) * 60_000
      : draft.state === MALL_ORDER_STATE.refunded && paidAt !== null
        ? paidAt + random.int(1, 20) * HOUR_MS
        : null;
  const cancel =
    draft.state === MALL_ORDER_STATE.cancelled
      ? timeout
        ? { by: '系统', reason: '超时未支付，系统自动取消' }
        : { by: draft.tenant.buyer, reason: random.pick(BUYER_CANCELS) }
      : draft.state === MALL_ORDER_STATE.refunded
        ? random.next() < 0.5
          ? { by: draft.tenant.buyer, reason: random.pick(BUYER_REFUNDS) }
          : { by: PLATFORM_STAFF, reason: '缺货，与客户协商后退款' }
        : null;
  return { paidAt, method, shippedAt, receivedAt, express, cancelledAt, cancel };
}

/** The order's lines, what they sold or hold, and the cards of the devices the order brought (installed since it shipped). */
function orderLines(book: MallBook, draft: DraftOrder, code: string, shippedAt: number | null): void {
  for (const line of draft.lines) {
    const goods = GOODS[line.goods];
    book.items.push({
      order_code: code,
      goods_code: goodsCode(line.goods),
      goods_name: goods.name,
      category: goods.category,
      spec: goods.spec,
      image: seedGoodsPicture(goods.name, goods.model || goods.name.slice(0, 8), goods.color),
      unit: goods.unit,
      unit_price: goods.price,
      quantity: line.quantity,
      amount: goods.price * line.quantity,
    });
    if (SOLD_STATES.has(draft.state)) book.sold.set(line.goods, (book.sold.get(line.goods) ?? 0) + line.quantity);
    if (draft.state === MALL_ORDER_STATE.pendingPayment) book.reserved.set(line.goods, (book.reserved.get(line.goods) ?? 0) + line.quantity);
    if (shippedAt === null || !goods.product) continue;
    let taken = 0;
    for (const device of book.installed.get(`${draft.tenant.tenant} ${goods.product}`) ?? []) {
      if (taken >= line.quantity) break;
      if (device.createdAt < shippedAt || book.usedCards.has(device.iccid)) continue;
      book.usedCards.add(device.iccid);
      book.cards.push({ order_code: code, iccid: device.iccid, goods_code: goodsCode(line.goods), assigned_at: iso(shippedAt) });
      taken += 1;
    }
  }
}

interface InvoiceOrder {
  draft: DraftOrder;
  code: string;
  organization: string;
  payFen: number;
  paidAt: number | null;
  receivedAt: number | null;
}

/** Invoices: most completed orders older than ten days have theirs; recent ones are waiting; a few were rejected and applied for again. */
function orderInvoices(book: MallBook, order: InvoiceOrder): void {
  const { random, now, timeZone } = book;
  const { draft, code, organization } = order;
  const tenant = draft.tenant;
  const titles = book.titlesOf.get(tenant.tenant) ?? [];
  const invoiceable = order.paidAt !== null && draft.state !== MALL_ORDER_STATE.refunded && order.payFen > 0;
  const roll = random.next();
  if (!invoiceable || !titles.length || !(draft.state === MALL_ORDER_STATE.completed ? roll < 0.78 : roll < 0.3)) return;
  const title = titles[random.next() < 0.8 ? 0 : titles.length - 1];
  const special = title === titles[0] && random.next() < 0.55;
  const appliedAt = (order.receivedAt ?? order.paidAt ?? draft.createdAt) + random.int(2, 72) * HOUR_MS;
  if (appliedAt >= now - HOUR_MS) return;
  const old = now - appliedAt > 6 * DAY_MS;
  const rejected = old && random.next() < 0.08;
  const addInvoice = (state: 'applied' | 'issued' | 'rejected', at: number) => {
    const id = book.invoices.length + 1;
    const issuedAt = state === 'issued' ? Math.min(at + random.int(24, 120) * HOUR_MS, now - HOUR_MS) : null;
    book.invoices.push({
      id,
      code: documentCode('FP', new Date(at), id, timeZone),
      tenant_code: tenant.tenant,
      organization_code: organization,
      order_code: code,
      title_id: Number(title.id),
      invoice_type: special ? 'special' : 'normal',
      title_name: String(title.name),
      tax_no: String(title.tax_no),
      bank_name: String(title.bank_name),
      bank_account: String(title.bank_account),
      title_address: String(title.address),
      title_phone: String(title.phone),
      amount: order.payFen / 100,
      content: '物联网设备及服务费',
      email: random.next() < 0.6 ? `finance@${tenant.tenant === 'T0001' ? 'yunlian-iot' : 'zhishui-env'}.com` : '',
      remark: '',
      state,
      invoice_no: issuedAt === null ? null : `${random.int(10_000_000, 99_999_999)}`,
      issued_at: issuedAt === null ? null : iso(issuedAt),
      reject_reason: state === 'rejected' ? '专票开户行信息与税务登记不一致，请核对后重新申请' : null,
      applied_by: tenant.buyer,
      created_at: iso(at),
      updated_at: iso(issuedAt ?? at),
    });
  };
  if (rejected) {
    addInvoice('rejected', appliedAt);
    const again = appliedAt + random.int(24, 96) * HOUR_MS;
    if (again < now - HOUR_MS) addInvoice(now - again > 6 * DAY_MS ? 'issued' : 'applied', again);
  } else {
    addInvoice(old ? 'issued' : 'applied', appliedAt);
  }
}

/** Writes order number `id` with its lines, cards and invoices into the book. */
export function mallOrder(book: MallBook, draft: DraftOrder, id: number): void {
  const { random, timeZone } = book;
  const tenant = draft.tenant;
  const created = draft.createdAt;
  const code = documentCode('MO', new Date(created), id, timeZone);
  const lines = draft.lines.map((line) => ({
    goodsCode: goodsCode(line.goods),
    unitPriceFen: GOODS[line.goods].price * 100,
    quantity: line.quantity,
    freightFen: GOODS[line.goods].freight * 100,
  }));
  const settlement = settle(lines, book.runningAt(created), undefined);
  const address = random.pick(tenant.addresses);
  const organization = random.next() < 0.7 ? tenant.tenant : random.pick(tenant.projects);
  const { paidAt, method, shippedAt, receivedAt, express, cancelledAt, cancel } = orderTimes(book, draft);
  book.orders.push({
    id,
    code,
    tenant_code: tenant.tenant,
    organization_code: organization,
    state: draft.state,
    goods_amount: settlement.goodsFen / 100,
    discount_amount: settlement.discountFen / 100,
    freight_amount: settlement.freightFen / 100,
    pay_amount: settlement.payFen / 100,
    discount_code: settlement.applied?.rule.code ?? null,
    discount_name: settlement.applied ? `${settlement.applied.rule.name}（${ruleText(settlement.applied.rule)}）` : '',
    receiver: address.receiver,
    receiver_phone: address.phone,
    address: `${address.region} ${address.detail}`,
    remark: random.pick(REMARKS),
    buyer: tenant.buyer,
    created_at: iso(created),
    pay_deadline: iso(created + PAY_TIMEOUT_HOURS * HOUR_MS),
    pay_method: paidAt === null ? null : method,
    pay_no: paidAt === null ? null : transactionNo(method, new Date(paidAt), id, timeZone),
    paid_at: paidAt === null ? null : iso(paidAt),
    express_company: shippedAt === null ? null : express.company,
    express_no: shippedAt === null ? null : express.number(random),
    shipped_at: shippedAt === null ? null : iso(shippedAt),
    shipped_by: shippedAt === null ? null : PLATFORM_STAFF,
    received_at: receivedAt === null ? null : iso(receivedAt),
    cancelled_at: cancelledAt === null ? null : iso(cancelledAt),
    cancelled_by: cancel?.by ?? null,
    cancel_reason: cancel?.reason ?? null,
    refunded_at: draft.state === MALL_ORDER_STATE.refunded && cancelledAt !== null ? iso(cancelledAt) : null,
    updated_at: iso(Math.max(created, paidAt ?? 0, shippedAt ?? 0, receivedAt ?? 0, cancelledAt ?? 0)),
  });
  orderLines(book, draft, code, shippedAt);
  orderInvoices(book, { draft, code, organization, payFen: settlement.payFen, paidAt, receivedAt });
}
