import type { Row, SeedData } from '../db/bulk';
import { addDays, businessDay, startOfDay } from '../domain/businessTime';
import { sanitizeHtml } from '../domain/html';
import { discountState, MALL_ORDER_STATE, type DiscountRule, type MallOrderState } from '../domain/mall';
import type { DeviceTables } from './devices';
import { DISCOUNTS, GOODS, TENANTS, type SeedGoods } from './fixtures/mall';
import { seedGoodsPicture } from './goodsPictures';
import { goodsCode, mallOrder, PLATFORM_STAFF, type DraftOrder, type MallBook } from './mallOrders';
import { weightedPick, type Random } from './prng';
import { HOUR_MS, DAY_MS, iso } from './clock';

/**
 * The online mall of the demo world (issue 7): the platform's goods — devices with their
 * built-in IoT card, card packages and services, two of them off the shelf — with running, coming
 * and ended discounts; each tenant's addresses and invoice titles; eighteen months of orders in
 * every state, priced by the discounts of their day; the IoT cards of the devices those orders
 * brought (the tenant's installed devices of the goods' product); and invoices issued, waiting
 * and rejected. Pending orders are a few hours old, so they are still payable. The goods,
 * discounts and tenants' books are ./fixtures/mall.ts; each order is written by ./mallOrders.ts.
 */

export { GOODS };

function descriptionOf(goods: SeedGoods): string {
  const items = goods.features.map((feature) => `<li>${feature}</li>`).join('');
  const spec = goods.model ? `<p><strong>型号：</strong>${goods.model} <strong>规格：</strong>${goods.spec}</p>` : `<p><strong>服务内容：</strong>${goods.spec}</p>`;
  return sanitizeHtml(`<h3>${goods.name}</h3>${spec}<ul>${items}</ul><p>开具增值税普通发票或专用发票，下单后在“我的发票”中申请。</p>`);
}

/** The orders' times and states, oldest first, then what each bought (the goods drawn by their weight). */
function draftOrders(random: Random, today: Date, timeZone: string): DraftOrder[] {
  const now = today.getTime();
  /** Midnight (of `timeZone`) of the business day `offset` days from today. */
  const midnight = (offset: number) => startOfDay(addDays(businessDay(today, timeZone), offset), timeZone).getTime();
  const onShelf = GOODS.map((goods, index) => ({ goods, index, weight: goods.weight })).filter(({ goods }) => goods.onShelf || goods.name.includes('旧款'));
  const pickGoods = (): number => weightedPick(random, onShelf).index;
  const drafts: DraftOrder[] = [];
  for (const tenant of TENANTS) {
    const recentStates: Array<[MallOrderState, number, [number, number]]> = [
      [MALL_ORDER_STATE.pendingPayment, tenant.pending, [1, 10]],
      [MALL_ORDER_STATE.paid, tenant.paid, [14, 60]],
      [MALL_ORDER_STATE.shipped, tenant.shipped, [60, 130]],
    ];
    for (const [state, count, hours] of recentStates) {
      for (let i = 0; i < count; i += 1) drafts.push({ tenant, state, createdAt: now - random.int(hours[0], hours[1]) * HOUR_MS - random.int(0, 59) * 60_000, lines: [] });
    }
    const older = tenant.orders - tenant.pending - tenant.paid - tenant.shipped;
    for (let i = 0; i < older; i += 1) {
      const roll = random.next();
      const state = roll < 0.1 ? MALL_ORDER_STATE.cancelled : roll < 0.14 ? MALL_ORDER_STATE.refunded : MALL_ORDER_STATE.completed;
      // Older orders thin out: the mall grew over the eighteen months.
      const age = Math.floor(6 + 540 * random.next() ** 1.4);
      drafts.push({ tenant, state, createdAt: midnight(-age) + random.int(8 * 60, 19 * 60) * 60_000, lines: [] });
    }
  }
  drafts.sort((a, b) => a.createdAt - b.createdAt);
  for (const draft of drafts) {
    const count = random.next() < 0.55 ? 1 : random.next() < 0.7 ? 2 : 3;
    const chosen = new Set<number>();
    while (chosen.size < count) chosen.add(pickGoods());
    draft.lines = [...chosen].map((goods) => {
      const [low, high] = GOODS[goods].quantity;
      return { goods, quantity: random.int(low, high) };
    });
    // The old water meter left the shelf a year ago: only older orders bought it.
    if (draft.createdAt > now - 360 * DAY_MS) draft.lines = draft.lines.filter((line) => !GOODS[line.goods].name.includes('旧款'));
    if (draft.lines.length === 0) draft.lines = [{ goods: 0, quantity: random.int(20, 60) }];
  }
  return drafts;
}

/** Each tenant's delivery addresses and invoice titles. */
function tenantBooks(day: (offset: number) => number): { addresses: Row[]; titles: Row[]; titlesOf: Map<string, Row[]> } {
  const addresses: Row[] = [];
  const titleRows: Row[] = [];
  const titlesOf = new Map<string, Row[]>();
  for (const tenant of TENANTS) {
    tenant.addresses.forEach((address, index) => {
      const created = iso(day(-400 + index * 37));
      addresses.push({
        id: addresses.length + 1,
        tenant_code: tenant.tenant,
        receiver: address.receiver,
        phone: address.phone,
        region: address.region,
        detail: address.detail,
        postcode: address.postcode,
        is_default: index === 0,
        created_by: tenant.buyer,
        created_at: created,
        updated_at: created,
      });
    });
    const titles: Row[] = tenant.titles.map((title, index) => {
      const created = iso(day(-420 + index * 60));
      return {
        id: titleRows.length + index + 1,
        tenant_code: tenant.tenant,
        name: title.name,
        tax_no: title.taxNo,
        bank_name: title.bankName,
        bank_account: title.bankAccount,
        address: title.address,
        phone: title.phone,
        created_by: tenant.buyer,
        created_at: created,
        updated_at: created,
      };
    });
    titleRows.push(...titles);
    titlesOf.set(tenant.tenant, titles);
  }
  return { addresses, titles: titleRows, titlesOf };
}

/** The tenants' installed devices of each product, oldest first, with their cards. */
function installedDevices(fleet: DeviceTables, sims: readonly Row[]): MallBook['installed'] {
  const cardOfDevice = new Map<string, string>();
  for (const sim of sims) if (typeof sim.device_code === 'string' && typeof sim.iccid === 'string') cardOfDevice.set(sim.device_code, sim.iccid);
  const installed: MallBook['installed'] = new Map();
  for (const device of fleet.devices) {
    const iccid = cardOfDevice.get(String(device.code));
    if (!iccid || device.deleted_at !== null) continue;
    const key = `${String(device.tenant_code)} ${String(device.product_code)}`;
    const list = installed.get(key) ?? [];
    list.push({ code: String(device.code), createdAt: new Date(String(device.created_at)).getTime(), iccid });
    installed.set(key, list);
  }
  for (const list of installed.values()) list.sort((a, b) => a.createdAt - b.createdAt || a.code.localeCompare(b.code));
  return installed;
}

function goodsRows(random: Random, day: (offset: number) => number, book: MallBook): Row[] {
  const rows: Row[] = GOODS.map((goods, index) => {
    const created = day(-560 + index * 7);
    const caption = goods.model || goods.name.slice(0, 8);
    return {
      id: index + 1,
      code: goodsCode(index),
      name: goods.name,
      category: goods.category,
      model: goods.model,
      spec: goods.spec,
      unit: goods.unit,
      price: goods.price,
      market_price: goods.marketPrice,
      stock: goods.stock,
      // the mall's sales before these orders, and theirs
      sales: (book.sold.get(index) ?? 0) + Math.round(goods.weight * random.int(8, 40)),
      freight: goods.freight,
      images: [
        seedGoodsPicture(goods.name, caption, goods.color),
        seedGoodsPicture(goods.name, goods.category === 'service' ? '服务说明' : '产品细节', goods.color),
        seedGoodsPicture(goods.name, goods.category === 'service' ? '服务流程' : '包装清单', goods.color),
      ],
      description: descriptionOf(goods),
      card_custom_code: goods.custom,
      cards_per_unit: goods.cardsPerUnit,
      state: goods.onShelf ? 'on_shelf' : 'off_shelf',
      sort: index + 1,
      created_by: PLATFORM_STAFF,
      created_at: iso(created),
      updated_at: iso(goods.onShelf ? created : day(-random.int(200, 360))),
      shelved_at: goods.onShelf ? iso(created + DAY_MS) : null,
      deleted_at: null,
    };
  });
  // What the pending orders hold is out of the stock already.
  for (const [index, quantity] of book.reserved) rows[index].stock = Math.max(0, Number(rows[index].stock) - quantity);
  return rows;
}

/** The mall's tables; `fleet` and the sim_card rows give the installed devices' cards. */
export function mallTables(random: Random, today: Date, fleet: DeviceTables, sims: readonly Row[], timeZone: string): SeedData {
  const now = today.getTime();
  const day = (offset: number) => now + offset * DAY_MS;
  // Discounts, as rules with their validity.
  const discounts = DISCOUNTS.map((discount, index) => ({
    ...discount,
    code: `YH${String(index + 1).padStart(5, '0')}`,
    startAt: Math.floor(day(discount.start) / HOUR_MS) * HOUR_MS,
    endAt: Math.floor(day(discount.end) / HOUR_MS) * HOUR_MS,
  }));
  const ruleOf = (discount: (typeof discounts)[number]): DiscountRule => ({
    code: discount.code,
    name: discount.name,
    type: discount.type,
    scope: discount.scope,
    goodsCodes: discount.goods.map(goodsCode),
    thresholdFen: discount.threshold * 100,
    reduceFen: discount.reduce === null ? null : discount.reduce * 100,
    rate: discount.rate,
  });
  const drafts = draftOrders(random, today, timeZone);
  const { addresses, titles, titlesOf } = tenantBooks(day);
  const book: MallBook = {
    random,
    now,
    timeZone,
    runningAt: (time) => discounts.filter((d) => discountState(new Date(d.startAt), new Date(d.endAt), new Date(time)) === 'active').map(ruleOf),
    titlesOf,
    installed: installedDevices(fleet, sims),
    usedCards: new Set(),
    sold: new Map(),
    reserved: new Map(),
    orders: [],
    items: [],
    invoices: [],
    cards: [],
  };
  drafts.forEach((draft, index) => mallOrder(book, draft, index + 1));
  const goods = goodsRows(random, day, book);
  const discountRows: Row[] = discounts.map((discount, index) => ({
    id: index + 1,
    code: discount.code,
    name: discount.name,
    type: discount.type,
    scope: discount.scope,
    goods_codes: discount.goods.map(goodsCode),
    threshold: discount.threshold,
    reduce_amount: discount.reduce,
    rate: discount.rate,
    start_at: iso(discount.startAt),
    end_at: iso(discount.endAt),
    remark: discount.remark,
    created_by: PLATFORM_STAFF,
    created_at: iso(discount.startAt - 7 * DAY_MS),
    updated_at: iso(discount.startAt - 7 * DAY_MS),
  }));
  return [
    { table: 'mall_goods', rows: goods },
    { table: 'mall_discount', rows: discountRows },
    { table: 'mall_address', rows: addresses },
    { table: 'mall_order', rows: book.orders },
    { table: 'mall_order_item', rows: book.items.map((row, index) => ({ id: index + 1, ...row })) },
    { table: 'mall_order_card', rows: book.cards },
    { table: 'invoice_title', rows: titles },
    { table: 'invoice', rows: book.invoices },
  ];
}
