import type { Row } from '../db/bulk';
import { businessDay } from '../domain/businessTime';
import { addYears, ALTER_STATE, CARD_STATE, documentCode, fenOf, RECHARGE_STATE, RENEW_ORDER_STATE, RENEW_STATE, yuan } from '../domain/cards';
import { priceFor, standardOf, stockFor, tenantAdmin, type CardWorld, type SeedCard } from './cardWorld';
import { ALTER_REASONS, CUSTOMS, EXTRA_CARDS, LOCK_REASONS, OPEN_ALTERS, RECHARGE_CANCEL_REASONS, TENANT_CONTACTS } from './fixtures/cards';
import { DAY_MS, iso, pad } from './clock';

/**
 * What happened to the demo world's cards after they were ordered: the warehousing batches they
 * came in, replacements, renewals, recharges and the data they use per day.
 */

const TENANTS = Object.keys(EXTRA_CARDS);

/** Warehousing: every card came in a batch of its specification (of at most 2,000 cards). */
export function stockBatches(world: CardWorld): Row[] {
  const { random, now, timeZone } = world;
  const batches: Row[] = [];
  const bySpec = new Map<string, SeedCard[]>();
  for (const card of world.cards) {
    const list = bySpec.get(card.custom.code);
    if (list) list.push(card);
    else bySpec.set(card.custom.code, [card]);
  }
  for (const custom of CUSTOMS) {
    // The tenants' cards came first, then what lies in stock now; in ICCID order within each.
    const list = (bySpec.get(custom.code) ?? []).sort((a, b) => (a.fate === 'stock' ? 1 : 0) - (b.fate === 'stock' ? 1 : 0) || String(a.row.iccid).localeCompare(String(b.row.iccid)));
    for (let start = 0; start < list.length; start += 2000) {
      const part = list.slice(start, start + 2000);
      const iccids = part.map((card) => String(card.row.iccid)).sort();
      const earliest = Math.min(...part.map((card) => (card.fate === 'stock' ? card.since : new Date(String(card.row.created_at ?? iso(card.since))).getTime())));
      const at = Math.min(earliest, now - 3 * DAY_MS) - random.int(1, 5) * DAY_MS;
      const id = batches.length + 1;
      const code = documentCode('RK', new Date(at), id, timeZone);
      batches.push({
        id,
        code,
        custom_code: custom.code,
        supplier_code: custom.supplier,
        operator: custom.operator,
        quantity: part.length,
        iccid_first: iccids[0],
        iccid_last: iccids[iccids.length - 1],
        created_by: random.pick(['operator', 'admin']),
        remark: `${custom.name} ${part.length} 张到货入库`,
        created_at: iso(at),
      });
      for (const card of part) {
        card.row.batch_code = code;
        if (card.fate === 'stock' || card.row.created_at === null) card.row.created_at = iso(at);
      }
    }
  }
  return batches;
}

/** Replacements: replaced cards and their successors, plus each tenant's open applications. */
export function cardAlters(world: CardWorld): { alters: Row[]; items: Row[] } {
  const { random, now, timeZone } = world;
  const alters: Row[] = [];
  const items: Row[] = [];
  const addAlter = (tenant: string, kind: string, state: string, at: number, organization: string): Row => {
    const id = alters.length + 1;
    const contact = TENANT_CONTACTS[tenant];
    const row: Row = {
      id,
      code: documentCode('HK', new Date(at), id, timeZone),
      tenant_code: tenant,
      organization_code: organization,
      kind,
      state,
      reason: random.pick(ALTER_REASONS),
      express_company: '',
      express_no: '',
      receiver: contact.name,
      receiver_phone: contact.phone,
      address: contact.address,
      applicant: tenantAdmin(tenant),
      created_at: iso(at),
      waybill_at: null,
      shipped_at: null,
      recovered_at: null,
      cancelled_at: null,
      updated_at: iso(at),
    };
    alters.push(row);
    return row;
  };
  const addItem = (item: Omit<Row, 'id'>) => items.push({ id: items.length + 1, ...item });
  for (const tenant of TENANTS) {
    const replaced = world.cards.filter((card) => card.tenant === tenant && card.row.state === CARD_STATE.replaced);
    const successors = world.cards.filter((card) => card.tenant === tenant && card.row.state === CARD_STATE.active && card.device !== null);
    let next = 0;
    for (let start = 0; start < replaced.length; ) {
      const size = Math.min(random.int(1, 30), replaced.length - start);
      const part = replaced.slice(start, start + size);
      start += size;
      const at = now - random.int(10, 150) * DAY_MS;
      const noCard = random.next() < 0.15;
      const recovered = !noCard && random.next() < 0.6;
      const alter = addAlter(tenant, noCard ? 'no_card' : 'with_card', recovered ? ALTER_STATE.recovered : ALTER_STATE.shipped, at - 5 * DAY_MS, String(part[0].project));
      alter.express_company = 'jd';
      alter.express_no = `JDVA${pad(random.int(10_000_000, 99_999_999), 10)}`;
      alter.waybill_at = iso(at - DAY_MS);
      alter.shipped_at = iso(at);
      alter.updated_at = iso(at);
      if (recovered) alter.recovered_at = iso(at + random.int(5, 9) * DAY_MS);
      for (const old of part) {
        const successor = successors[next % successors.length];
        next += 1;
        const partlyBack = !noCard && !recovered && random.next() < 0.4;
        addItem({ alter_code: alter.code, old_iccid: old.row.iccid, new_iccid: successor.row.iccid, recovered: recovered || partlyBack, recovered_at: recovered || partlyBack ? iso(at + random.int(3, 9) * DAY_MS) : null });
        old.row.replaced_by = successor.row.iccid;
        old.row.alter_code = alter.code;
        old.row.updated_at = iso(at);
        successor.row.alter_code = alter.code;
      }
    }
    // Open applications of the tenant: waiting for the platform, waybill created, cancelled ones.
    const candidates = world.cards.filter((card) => card.tenant === tenant && card.device !== null && card.row.alter_code === null && (card.row.state === CARD_STATE.active || card.row.state === CARD_STATE.suspended));
    OPEN_ALTERS.forEach(([state, kind, size], pick) => {
      const part = candidates.slice(pick * 17, pick * 17 + size);
      const at = state === ALTER_STATE.cancelled ? now - random.int(20, 90) * DAY_MS : now - random.int(1, 6) * DAY_MS;
      const alter = addAlter(tenant, kind, state, at, String(part[0].project));
      if (state === ALTER_STATE.cancelled) alter.cancelled_at = iso(at + 2 * DAY_MS);
      const fresh = state === ALTER_STATE.created ? stockFor(world, part[0].custom.code, part.length) : [];
      if (state === ALTER_STATE.created) {
        alter.express_company = 'jd';
        alter.express_no = `JDVA${pad(random.int(10_000_000, 99_999_999), 10)}`;
        alter.waybill_at = iso(at + DAY_MS);
      }
      part.forEach((old, index) => {
        const successor = fresh[index];
        if (successor) successor.row.alter_code = alter.code;
        addItem({ alter_code: alter.code, old_iccid: old.row.iccid, new_iccid: successor ? successor.row.iccid : null, recovered: false, recovered_at: null });
        if (state !== ALTER_STATE.cancelled) old.row.alter_code = alter.code;
      });
    });
  }
  return { alters, items };
}

/** A card whose service can be bought on: in service, or suspended because it ran out. */
const rechargeable = (card: SeedCard) => card.row.expires_at !== null && (card.row.state === CARD_STATE.active || (card.row.state === CARD_STATE.suspended && card.row.cease_reason === 'expired'));

/** A renewal of a card whose service ends soon (between 45 days ago and 60 days ahead), in one of its states. */
function comingRenewal(world: CardWorld, card: SeedCard, tenant: string, id: number): Row {
  const { random, now } = world;
  const expires = new Date(String(card.row.expires_at)).getTime();
  const unitPrice = priceFor(tenant, card.custom.standard);
  const roll = random.next();
  const state = roll < 0.4 ? RENEW_STATE.unregistered : roll < 0.7 ? RENEW_STATE.registered : roll < 0.9 ? RENEW_STATE.confirmed : RENEW_STATE.locked;
  const years = state === RENEW_STATE.unregistered || state === RENEW_STATE.locked ? null : random.pick(standardOf(card.custom.standard).years.slice(0, 3));
  return {
    id,
    iccid: card.row.iccid,
    tenant_code: tenant,
    state,
    expires_at: card.row.expires_at,
    years,
    unit_price: years === null ? null : unitPrice,
    amount: years === null ? null : yuan(fenOf(unitPrice) * years),
    order_code: null,
    registered_by: years === null ? null : 'operator',
    registered_at: years === null ? null : iso(now - random.int(2, 20) * DAY_MS),
    confirmed_by: state === RENEW_STATE.confirmed ? tenantAdmin(tenant) : null,
    confirmed_at: state === RENEW_STATE.confirmed ? iso(now - random.int(0, 2) * DAY_MS) : null,
    locked_by: state === RENEW_STATE.locked ? 'operator' : null,
    locked_at: state === RENEW_STATE.locked ? iso(now - random.int(1, 10) * DAY_MS) : null,
    lock_reason: state === RENEW_STATE.locked ? random.pick(LOCK_REASONS) : null,
    created_at: iso(expires - 60 * DAY_MS),
    updated_at: iso(now - DAY_MS),
  };
}

/** The settled renewal of a card renewed within the last months (for one year, ending at `previous`). */
function settledRenewal(card: SeedCard, tenant: string, id: number, previous: number): Row {
  const unitPrice = priceFor(tenant, card.custom.standard);
  const years = 1;
  return {
    id,
    iccid: card.row.iccid,
    tenant_code: tenant,
    state: RENEW_STATE.confirmed,
    expires_at: iso(previous),
    years,
    unit_price: unitPrice,
    amount: yuan(fenOf(unitPrice) * years),
    order_code: null,
    registered_by: 'operator',
    registered_at: iso(previous - 40 * DAY_MS),
    confirmed_by: tenantAdmin(tenant),
    confirmed_at: iso(previous - 25 * DAY_MS),
    locked_by: null,
    locked_at: null,
    lock_reason: null,
    created_at: iso(previous - 60 * DAY_MS),
    updated_at: iso(previous - 20 * DAY_MS),
  };
}

/** Renewals: cards whose service ends soon, the renewals already settled, and their orders. */
export function cardRenewals(world: CardWorld): { orders: Row[]; renews: Row[] } {
  const { random, now, timeZone } = world;
  const orders: Row[] = [];
  const renews: Row[] = [];
  const addRenewOrder = (tenant: string, state: string, at: number, rows: Row[]): void => {
    const id = orders.length + 1;
    const order: Row = {
      id,
      code: documentCode('XF', new Date(at), id, timeZone),
      tenant_code: tenant,
      organization_code: tenant,
      state,
      card_count: rows.length,
      amount: yuan(rows.reduce((sum, row) => sum + fenOf(Number(row.amount)), 0)),
      created_by: tenantAdmin(tenant),
      created_at: iso(at),
      confirmed_by: state === RENEW_ORDER_STATE.confirmed ? 'operator' : null,
      confirmed_at: state === RENEW_ORDER_STATE.confirmed ? iso(at + random.int(1, 4) * DAY_MS) : null,
    };
    for (const row of rows) row.order_code = order.code;
    orders.push(order);
  };
  for (const tenant of TENANTS) {
    const open: Row[] = [];
    const settled: Row[] = [];
    for (const card of world.cards.filter((c) => c.tenant === tenant && rechargeable(c) && c.row.alter_code === null)) {
      const expires = new Date(String(card.row.expires_at)).getTime();
      if (expires < now + 60 * DAY_MS && expires > now - 45 * DAY_MS) {
        const row = comingRenewal(world, card, tenant, renews.length + 1);
        renews.push(row);
        if (row.state === RENEW_STATE.confirmed) open.push(row);
      } else if (card.row.activated_at !== null && expires - now > 250 * DAY_MS && random.next() < 0.35) {
        // Renewed within the last months: the period just ended and its settled renewal.
        const previous = addYears(new Date(expires), -1).getTime();
        if (previous <= new Date(String(card.row.activated_at)).getTime() || previous > now) continue;
        const row = settledRenewal(card, tenant, renews.length + 1, previous);
        renews.push(row);
        settled.push(row);
      }
    }
    // Settled renewals go into monthly orders; the open confirmations into two pending orders.
    const byMonth = new Map<string, Row[]>();
    for (const row of settled) {
      const month = String(row.confirmed_at).slice(0, 7);
      byMonth.set(month, [...(byMonth.get(month) ?? []), row]);
    }
    for (const month of [...byMonth.keys()].sort()) {
      const rows = byMonth.get(month)!;
      addRenewOrder(tenant, RENEW_ORDER_STATE.confirmed, Math.max(...rows.map((row) => new Date(String(row.confirmed_at)).getTime())), rows);
    }
    const half = Math.ceil(open.length / 2);
    for (const rows of [open.slice(0, half), open.slice(half)]) if (rows.length) addRenewOrder(tenant, RENEW_ORDER_STATE.pendingConfirm, now - random.int(0, 2) * DAY_MS, rows);
  }
  return { orders, renews };
}

/** What each tenant's recharges are, in order: mostly confirmed, then two paid, two waiting for payment, three cancelled. */
const rechargePlan = (tenant: string): string[] => [
  ...Array.from({ length: tenant === 'T0001' ? 34 : 20 }, () => RECHARGE_STATE.confirmed),
  RECHARGE_STATE.paid,
  RECHARGE_STATE.paid,
  RECHARGE_STATE.pendingPayment,
  RECHARGE_STATE.pendingPayment,
  RECHARGE_STATE.cancelled,
  RECHARGE_STATE.cancelled,
  RECHARGE_STATE.cancelled,
];

/** Recharges: service years bought online or by transfer, for cards no renewal covers. */
export function cardRecharges(world: CardWorld, renews: readonly Row[]): { recharges: Row[]; items: Row[] } {
  const { random, now, timeZone } = world;
  const recharges: Row[] = [];
  const items: Row[] = [];
  const renewed = new Set(renews.map((row) => String(row.iccid)));
  for (const tenant of TENANTS) {
    const pool = world.cards.filter((card) => card.tenant === tenant && rechargeable(card) && card.row.alter_code === null && !renewed.has(String(card.row.iccid)));
    const creator = tenantAdmin(tenant);
    let cursor = 0;
    for (const state of rechargePlan(tenant)) {
      const size = random.int(3, 60);
      const part = pool.slice(cursor, cursor + size);
      cursor += size;
      if (part.length === 0) break;
      const id = recharges.length + 1;
      const years = random.pick([1, 1, 2, 3]);
      const method = state === RECHARGE_STATE.confirmed ? random.pick(['wechat', 'alipay', 'corporate', 'corporate']) : state === RECHARGE_STATE.cancelled ? random.pick(['wechat', 'corporate']) : 'corporate';
      const open = state === RECHARGE_STATE.pendingPayment || state === RECHARGE_STATE.paid;
      const at = open ? now - random.int(1, 10) * DAY_MS : state === RECHARGE_STATE.cancelled ? now - random.int(20, 200) * DAY_MS : now - random.int(15, 300) * DAY_MS;
      const code = documentCode('CZ', new Date(at), id, timeZone);
      let total = 0;
      for (const card of part) {
        const unitPrice = priceFor(tenant, card.custom.standard);
        const amount = yuan(fenOf(unitPrice) * years);
        total += fenOf(amount);
        const expires = new Date(String(card.row.expires_at)).getTime();
        // A confirmed recharge is what gave the card its present service end.
        const before = state === RECHARGE_STATE.confirmed ? addYears(new Date(expires), -years).getTime() : expires;
        items.push({ recharge_code: code, iccid: card.row.iccid, unit_price: unitPrice, amount, expires_before: iso(before), expires_after: state === RECHARGE_STATE.confirmed ? iso(expires) : null });
      }
      const paidAt = state === RECHARGE_STATE.confirmed || state === RECHARGE_STATE.paid ? at + (method === 'corporate' ? random.int(1, 3) * DAY_MS : 60_000) : null;
      recharges.push({
        id,
        code,
        tenant_code: tenant,
        organization_code: String(part[0].project),
        state,
        payment_method: method,
        years,
        card_count: part.length,
        amount: yuan(total),
        contract_url: null,
        created_by: creator,
        created_at: iso(at),
        paid_at: paidAt === null ? null : iso(paidAt),
        confirmed_by: state === RECHARGE_STATE.confirmed ? (method === 'corporate' ? 'operator' : creator) : null,
        confirmed_at: state === RECHARGE_STATE.confirmed && paidAt !== null ? iso(paidAt + (method === 'corporate' ? DAY_MS : 0)) : null,
        cancelled_at: state === RECHARGE_STATE.cancelled ? iso(at + DAY_MS) : null,
        cancel_reason: state === RECHARGE_STATE.cancelled ? random.pick(RECHARGE_CANCEL_REASONS) : null,
        updated_at: iso(paidAt ?? at),
      });
    }
  }
  return { recharges, items };
}

/** Data used per business day (of the world's time zone) over the last 179 days, by tenant and operator, for the flow monitor. */
export function cardFlowDaily(world: CardWorld): Row[] {
  const { random, timeZone } = world;
  const flowDaily: Row[] = [];
  const usage = new Map<string, { mbPerDay: number; cards: number }>();
  for (const card of world.cards) {
    if (card.row.state !== CARD_STATE.active && card.row.state !== CARD_STATE.testing) continue;
    const key = `${card.tenant}|${card.row.operator}`;
    const entry = usage.get(key) ?? { mbPerDay: 0, cards: 0 };
    entry.mbPerDay += (Number(card.row.flow_mb) / 30) * 0.45;
    entry.cards += 1;
    usage.set(key, entry);
  }
  for (let offset = 179; offset >= 1; offset -= 1) {
    const date = businessDay(new Date(world.day(-offset)), timeZone);
    for (const [key, entry] of [...usage.entries()].sort()) {
      const [tenant, operator] = key.split('|');
      const growth = 0.7 + (0.3 * (180 - offset)) / 180;
      const weekday = new Date(date).getUTCDay();
      const weekly = weekday === 0 || weekday === 6 ? 0.85 : 1;
      flowDaily.push({
        day: date,
        tenant_code: tenant,
        operator,
        used_mb: Math.round(entry.mbPerDay * growth * weekly * (0.9 + random.next() * 0.2) * 100) / 100,
        active_cards: Math.round(entry.cards * growth),
      });
    }
  }
  return flowDaily;
}
