import type { Row } from '../db/bulk';
import { CARD_ORDER_STATE } from '../domain/cardOrders';
import { addYears, CARD_STATE, DELIVERY_STATE, documentCode, fenOf, TEST_PERIOD_DAYS, yuan } from '../domain/cards';
import { customOf, priceFor, stockFor, tenantAdmin, type CardWorld, type SeedCard } from './cardWorld';
import { CANCELLED_ORDERS, CEASE_REASONS, DELIVERING_ORDERS, PENDING_ORDERS, SALESPEOPLE, TENANT_CONTACTS, UNIMPORTED_SALE_ORDERS, type SeedCustom } from './fixtures/cards';
import { DAY_MS, iso, pad } from './clock';

/**
 * The card order book of the demo world: each tenant's cards grouped by project and card into
 * orders over windows of time, each with its sale order and delivery, the cards' life after they
 * arrived, and the open documents (awaiting confirmation, waiting for delivery, being delivered,
 * cancelled, sale orders not yet imported).
 */

interface OrderSpec {
  tenant: string;
  project: string;
  custom: SeedCustom;
  count: number;
  years: number;
  createdAt: number;
  state: string;
  remark?: string;
}

export interface CardOrderBook {
  saleOrders: Row[];
  orders: Row[];
  deliveries: Row[];
  deliveryItems: Row[];
}

/** Writes the documents into a book, numbering them in turn. */
class BookWriter implements CardOrderBook {
  saleOrders: Row[] = [];
  orders: Row[] = [];
  deliveries: Row[] = [];
  deliveryItems: Row[] = [];

  constructor(private readonly world: CardWorld) {}

  addOrder(spec: OrderSpec): Row {
    const { random, timeZone } = this.world;
    const orderId = this.orders.length + 1;
    const contact = TENANT_CONTACTS[spec.tenant];
    const unitPrice = priceFor(spec.tenant, spec.custom.standard);
    const amount = yuan(fenOf(unitPrice) * spec.years * spec.count);
    const signedAt = spec.createdAt - random.int(1, 4) * DAY_MS;
    const saleCode = documentCode('SO', new Date(signedAt), orderId, timeZone);
    const seller = random.pick(SALESPEOPLE);
    this.saleOrders.push({
      code: saleCode,
      tenant_code: spec.tenant,
      organization_code: spec.project,
      salesperson: seller,
      custom_code: spec.custom.code,
      package_code: spec.custom.standard,
      card_count: spec.count,
      years: spec.years,
      unit_price: unitPrice,
      amount,
      contact_name: contact.name,
      contact_phone: contact.phone,
      address: contact.address,
      signed_at: iso(signedAt),
      imported_at: iso(spec.createdAt),
    });
    const settled = spec.state === CARD_ORDER_STATE.completed || (spec.state === CARD_ORDER_STATE.confirmed && random.next() < 0.7);
    const order: Row = {
      id: orderId,
      code: documentCode('CO', new Date(spec.createdAt), orderId, timeZone),
      tenant_code: spec.tenant,
      state: spec.state,
      card_count: spec.count,
      remark: spec.remark ?? '',
      created_at: iso(spec.createdAt),
      updated_at: iso(spec.createdAt),
      organization_code: spec.project,
      sale_order_code: saleCode,
      salesperson: seller,
      custom_code: spec.custom.code,
      package_code: spec.custom.standard,
      years: spec.years,
      unit_price: unitPrice,
      amount,
      received_amount: settled ? amount : spec.state === CARD_ORDER_STATE.cancelled ? 0 : yuan(Math.round((fenOf(amount) * random.int(0, 6)) / 10)),
      contact_name: contact.name,
      contact_phone: contact.phone,
      address: contact.address,
      confirmed_at: null,
      confirmed_by: null,
      cancelled_at: null,
      cancel_reason: null,
      completed_at: null,
      synced_at: iso(spec.createdAt),
    };
    this.orders.push(order);
    return order;
  }

  addDelivery(order: Row, state: string, shippedAt: number | null, items: SeedCard[], createdAt: number): Row {
    const { random, timeZone } = this.world;
    const deliveryId = this.deliveries.length + 1;
    const contact = TENANT_CONTACTS[String(order.tenant_code)];
    const company = random.pick(['sf', 'jd', 'jd', 'zto', 'ems']);
    const row: Row = {
      id: deliveryId,
      code: documentCode('FH', new Date(createdAt), deliveryId, timeZone),
      order_code: order.code,
      tenant_code: order.tenant_code,
      organization_code: order.organization_code,
      state,
      card_count: items.length,
      express_company: shippedAt === null ? '' : company,
      express_no: shippedAt === null ? '' : `${company === 'sf' ? 'SF' : company === 'jd' ? 'JDVA' : company === 'ems' ? 'EMS' : 'ZTO'}${pad(random.int(10_000_000, 99_999_999), 10)}`,
      receiver: contact.name,
      receiver_phone: contact.phone,
      address: contact.address,
      remark: '',
      revoke_reason: null,
      created_by: 'operator',
      shipped_by: shippedAt === null ? null : 'operator',
      created_at: iso(createdAt),
      shipped_at: shippedAt === null ? null : iso(shippedAt),
      received_at: state === DELIVERY_STATE.received && shippedAt !== null ? iso(shippedAt + random.int(2, 5) * DAY_MS) : null,
      revoked_at: null,
      cancelled_at: null,
      updated_at: iso(shippedAt ?? createdAt),
    };
    this.deliveries.push(row);
    for (const card of items) this.deliveryItems.push({ delivery_code: row.code, iccid: card.row.iccid });
    return row;
  }
}

/** The tenants' delivered cards (not those awaiting confirmation) in orders: by tenant, project and card, at most 75 days and 600 cards each, oldest first. */
function orderChunks(cards: readonly SeedCard[]): SeedCard[][] {
  const groups = new Map<string, SeedCard[]>();
  for (const card of cards) {
    if (card.fate === 'stock' || card.fate === 'pending_confirm') continue;
    const key = `${card.tenant}|${card.project}|${card.custom.code}`;
    const group = groups.get(key);
    if (group) group.push(card);
    else groups.set(key, [card]);
  }
  const chunks: SeedCard[][] = [];
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key)!.sort((a, b) => a.since - b.since);
    let chunk: SeedCard[] = [];
    for (const card of group) {
      if (chunk.length && (card.since - chunk[0].since > 75 * DAY_MS || chunk.length >= 600)) {
        chunks.push(chunk);
        chunk = [];
      }
      chunk.push(card);
    }
    if (chunk.length) chunks.push(chunk);
  }
  return chunks.sort((a, b) => a[0].since - b[0].since);
}

/** A delivered card's life since: tested, closed, in service, suspended or replaced; answers whether it is still in its test period. */
function liveCard(world: CardWorld, card: SeedCard, shippedAt: number, years: number): boolean {
  const { random, now } = world;
  const row = card.row;
  const testUntil = shippedAt + TEST_PERIOD_DAYS * DAY_MS;
  row.test_until = iso(testUntil);
  row.created_at = iso(shippedAt - random.int(10, 40) * DAY_MS);
  if (card.fate === 'deactivated') {
    const activated = Math.min(testUntil, now - 500 * DAY_MS);
    const expires = addYears(new Date(activated), 1).getTime();
    row.state = CARD_STATE.deactivated;
    row.activated_at = iso(activated);
    row.expires_at = iso(expires);
    row.cease_reason = 'expired';
    row.suspended_at = iso(expires);
    row.deactivated_at = iso(Math.min(expires + 90 * DAY_MS, now - DAY_MS));
    row.device_code = null;
    row.total_used_mb = Math.round(Number(row.flow_mb) * 12 * (0.2 + random.next() * 0.4));
    return false;
  }
  if (testUntil > now && card.fate === 'normal') {
    row.state = CARD_STATE.testing;
    row.month_used_mb = Math.round(Number(row.flow_mb) * random.next() * 0.3 * 100) / 100;
    row.total_used_mb = row.month_used_mb;
    row.last_session_at = card.device ? (card.device.last_seen_at ?? null) : iso(now - random.int(1, 72) * 3_600_000);
    return true;
  }
  // Service starts at the first data session after installation, at the latest when the test period ends.
  const activated = Math.min(testUntil, Math.max(shippedAt, card.since) + random.int(1, 25) * DAY_MS, now - DAY_MS);
  let expires = addYears(new Date(activated), years).getTime();
  while (expires < now - random.int(0, 45) * DAY_MS) expires = addYears(new Date(expires), years).getTime();
  row.activated_at = iso(activated);
  row.expires_at = iso(expires);
  const monthsActive = Math.max(1, Math.round((now - activated) / (30 * DAY_MS)));
  const usage = 0.15 + random.next() * 0.6;
  row.month_used_mb = Math.round(Number(row.flow_mb) * usage * (random.next() < 0.03 ? 1.4 : 0.8) * 100) / 100;
  row.total_used_mb = Math.round(Number(row.flow_mb) * usage * monthsActive * 100) / 100;
  row.last_session_at = card.device ? (card.device.last_seen_at ?? null) : iso(now - random.int(1, 300) * 3_600_000);
  row.state = CARD_STATE.active;
  if (card.fate === 'replaced') {
    row.state = CARD_STATE.replaced;
    row.month_used_mb = 0;
  } else if (expires < now) {
    row.state = CARD_STATE.suspended;
    row.cease_reason = 'expired';
    row.suspended_at = iso(expires);
  } else if (card.fate === 'suspended') {
    row.state = CARD_STATE.suspended;
    row.cease_reason = random.pick(CEASE_REASONS);
    row.suspended_at = iso(now - random.int(2, 150) * DAY_MS);
    row.month_used_mb = 0;
  }
  row.synced_at = iso(now - random.int(1, 6) * 3_600_000);
  return false;
}

/** The confirmed orders that brought the tenants' cards, each with its delivery (and one revoked delivery). */
function deliveredOrders(world: CardWorld, book: BookWriter): void {
  const { random } = world;
  // A revoked delivery in the history: the first big order was shipped with the wrong cards once.
  let revokedOne = false;
  for (const chunk of orderChunks(world.cards)) {
    const first = chunk[0];
    const shippedAt = first.since - random.int(3, 12) * DAY_MS;
    const createdAt = shippedAt - random.int(2, 8) * DAY_MS;
    const years = random.pick([1, 1, 2, 3]);
    const order = book.addOrder({ tenant: first.tenant!, project: first.project!, custom: first.custom, count: chunk.length, years, createdAt, state: CARD_ORDER_STATE.confirmed });
    if (!revokedOne && chunk.length >= 100) {
      revokedOne = true;
      const revoked = book.addDelivery(order, DELIVERY_STATE.revoked, shippedAt - 6 * DAY_MS, [], createdAt);
      revoked.card_count = chunk.length;
      revoked.revoke_reason = '发错卡型（应为工业级贴片卡），已召回重发';
      revoked.revoked_at = iso(shippedAt - 4 * DAY_MS);
      revoked.remark = '召回后重新出库';
    }
    const delivery = book.addDelivery(order, DELIVERY_STATE.received, shippedAt, chunk, shippedAt - DAY_MS);
    order.confirmed_at = delivery.received_at;
    order.confirmed_by = tenantAdmin(String(first.tenant));
    order.updated_at = delivery.received_at;
    let anyTesting = false;
    for (const card of chunk) {
      card.row.order_code = order.code;
      card.row.delivery_code = delivery.code;
      if (liveCard(world, card, shippedAt, years)) anyTesting = true;
    }
    if (!anyTesting && (order.received_amount === order.amount || random.next() < 0.5)) {
      order.state = CARD_ORDER_STATE.completed;
      order.completed_at = iso(shippedAt + (TEST_PERIOD_DAYS + random.int(1, 5)) * DAY_MS);
    }
  }
}

/** The orders still open: awaiting confirmation, waiting for a delivery, being delivered, and the cancelled ones. */
function openOrders(world: CardWorld, book: BookWriter): void {
  const { random, day } = world;
  // Awaiting confirmation: shipped two days ago (SPEC §4: the start-up notice asks T0001's staff).
  const awaiting = book.addOrder({ tenant: 'T0001', project: 'T0001P01', custom: customOf('DZ-CMCC-NB-MP1'), count: world.awaiting.length, years: 3, createdAt: day(-9), state: CARD_ORDER_STATE.awaitingConfirmation, remark: '西湖智慧水务项目二期 NB-IoT 卡 200 张' });
  const shippedAt = day(-2);
  const shipped = book.addDelivery(awaiting, DELIVERY_STATE.shipped, shippedAt, world.awaiting, day(-3));
  awaiting.updated_at = iso(shippedAt);
  for (const card of world.awaiting) {
    Object.assign(card.row, { state: CARD_STATE.testing, order_code: awaiting.code, delivery_code: shipped.code, test_until: iso(shippedAt + TEST_PERIOD_DAYS * DAY_MS), created_at: iso(day(-30)) });
  }
  for (const [tenant, project, custom, count, years, remark] of PENDING_ORDERS) {
    book.addOrder({ tenant, project, custom: customOf(custom), count, years, createdAt: day(-random.int(1, 6)), state: CARD_ORDER_STATE.pendingDelivery, remark });
  }
  for (const [tenant, project, custom, count, remark] of DELIVERING_ORDERS) {
    const createdAt = day(-random.int(4, 8));
    const order = book.addOrder({ tenant, project, custom: customOf(custom), count, years: 2, createdAt, state: CARD_ORDER_STATE.delivering, remark });
    const picked = stockFor(world, custom, count);
    const delivery = book.addDelivery(order, DELIVERY_STATE.created, null, picked, createdAt + DAY_MS);
    delivery.remark = '待仓库拣货';
    for (const card of picked) card.row.delivery_code = delivery.code;
  }
  for (const [tenant, project, custom, count, reason, withDelivery] of CANCELLED_ORDERS) {
    const createdAt = day(-random.int(20, 200));
    const order = book.addOrder({ tenant, project, custom: customOf(custom), count, years: 1, createdAt, state: CARD_ORDER_STATE.cancelled });
    order.cancelled_at = iso(createdAt + 3 * DAY_MS);
    order.cancel_reason = reason;
    order.updated_at = order.cancelled_at;
    if (withDelivery) {
      const delivery = book.addDelivery(order, DELIVERY_STATE.cancelled, null, [], createdAt + DAY_MS);
      delivery.card_count = count;
      delivery.cancelled_at = iso(createdAt + 2 * DAY_MS);
    }
  }
}

/** Sale orders signed but not yet imported (card.saleOrder.sync brings them in). */
function unimportedSaleOrders(world: CardWorld): Row[] {
  return UNIMPORTED_SALE_ORDERS.map(([tenant, project, customCode, count, years], index) => {
    const custom = customOf(customCode);
    const contact = TENANT_CONTACTS[tenant];
    const unitPrice = priceFor(tenant, custom.standard);
    const signedAt = world.day(-index - 1);
    return {
      code: documentCode('SO', new Date(signedAt), 90_000 + index, world.timeZone),
      tenant_code: tenant,
      organization_code: project,
      salesperson: SALESPEOPLE[index % SALESPEOPLE.length],
      custom_code: custom.code,
      package_code: custom.standard,
      card_count: count,
      years,
      unit_price: unitPrice,
      amount: yuan(fenOf(unitPrice) * years * count),
      contact_name: contact.name,
      contact_phone: contact.phone,
      address: contact.address,
      signed_at: iso(signedAt),
      imported_at: null,
    };
  });
}

export function cardOrderBook(world: CardWorld): CardOrderBook {
  const book = new BookWriter(world);
  deliveredOrders(world, book);
  openOrders(world, book);
  book.saleOrders.push(...unimportedSaleOrders(world));
  return book;
}
