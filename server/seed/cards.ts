import type { Row, SeedData } from '../db/bulk';
import { CARD_STATE } from '../domain/cards';
import { ORGANIZATION_TYPE, PLATFORM_CODE } from '../domain/organizations';
import { cardOrderBook } from './cardOrderBook';
import { cardAlters, cardFlowDaily, cardRecharges, cardRenewals, stockBatches } from './cardServices';
import type { DeviceTables } from './devices';
import { customOf, standardOf, type CardWorld, type SeedCard } from './cardWorld';
import { CARD_SYNCS, CUSTOMS, DEVICE_CUSTOM, EXTRA_CARDS, EXTRA_CUSTOMS, SEED_STANDARDS, SUPPLIERS, type SeedCustom } from './fixtures/cards';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';
import { DAY_MS, iso, pad } from './clock';

/**
 * The demo world's IoT SIM cards and their paper trail (issue 7). Every card a device of the fleet
 * carries (`device.iccid`) is a card of that device's tenant; around them are cards still in the
 * platform's stock, cards in their test period, suspended, closed and replaced ones — thousands in
 * every state — and the documents that put each card where it is: warehousing batches, sale
 * orders, card orders with their deliveries (through every order state), replacements, renewals
 * and recharges. The tables it starts from are ./fixtures/cards.ts; the documents are written by
 * ./cardOrderBook.ts and ./cardServices.ts. Deterministic for a given generator and clock.
 */

function projectsOf(tenant: string): string[] {
  return flattenOrganizations()
    .filter((org) => org.code.startsWith(tenant) && org.type === ORGANIZATION_TYPE.project)
    .map((org) => org.code);
}

function supplyTables(created: string): SeedData {
  const standards: Row[] = SEED_STANDARDS.map((standard, index) => ({
    id: index + 1,
    code: standard.code,
    name: standard.name,
    operator: standard.operator,
    network: standard.network,
    flow_mb: standard.flowMb,
    unit_price: standard.unitPrice,
    years: standard.years.map(String),
    tenant_code: standard.tenant,
    enabled: true,
    remark: standard.tenant ? '年度框架协议价' : '',
    created_at: created,
    updated_at: created,
  }));
  const customs: Row[] = CUSTOMS.map((custom, index) => ({
    id: index + 1,
    code: custom.code,
    name: custom.name,
    operator: custom.operator,
    form_factor: custom.formFactor,
    grade: custom.grade,
    supplier_code: custom.supplier,
    package_code: custom.standard,
    unit_cost: custom.unitCost,
    min_order: custom.formFactor === 'plug' ? 100 : 500,
    lead_days: custom.grade === 'automotive' ? 21 : 7,
    enabled: true,
    remark: custom.grade === 'automotive' ? '-40℃～105℃，AEC-Q100' : '',
    created_at: created,
    updated_at: created,
  }));
  return [
    { table: 'card_supplier', rows: SUPPLIERS.map((supplier) => ({ ...supplier, created_at: created })) },
    { table: 'card_charge_standard', rows: standards },
    { table: 'card_custom', rows: customs },
  ];
}

/** A card of the platform's stock as it arrives, before anything happened to it. */
const baseRow = (custom: SeedCustom, iccid: string, msisdn: string, imsi: string): Row => ({
  iccid,
  msisdn,
  imsi,
  operator: custom.operator,
  supplier_code: custom.supplier,
  custom_code: custom.code,
  batch_code: null,
  package_code: custom.standard,
  flow_mb: standardOf(custom.standard).flowMb,
  state: CARD_STATE.inStock,
  organization_code: PLATFORM_CODE,
  tenant_code: null,
  order_code: null,
  delivery_code: null,
  alter_code: null,
  device_code: null,
  test_until: null,
  activated_at: null,
  expires_at: null,
  month_used_mb: 0,
  total_used_mb: 0,
  last_session_at: null,
  cease_reason: null,
  suspended_at: null,
  deactivated_at: null,
  replaced_by: null,
  synced_at: null,
  remark: '',
  created_at: null,
  updated_at: null,
});

/** The cards: the fleet's, extras of each tenant, the order awaiting confirmation, and the stock. */
function buildCards(world: CardWorld, fleet: DeviceTables): void {
  const { random, day, cards } = world;
  const serial: Record<string, number> = {};
  const numbered = (custom: SeedCustom, tenantDigit: number) => {
    serial[custom.code] = (serial[custom.code] ?? 0) + 1;
    const n = serial[custom.code];
    return baseRow(custom, `${custom.iccidPrefix}${pad(n, 12)}`, `${custom.msisdnPrefix}${tenantDigit}${pad(n, 8)}`, `${custom.imsiPrefix}${pad(n, 10)}`);
  };

  let deviceSerial = 0;
  for (const device of fleet.devices) {
    const iccid = device.iccid;
    if (typeof iccid !== 'string') continue;
    const custom = customOf(DEVICE_CUSTOM[String(device.product_code)] ?? 'DZ-CMCC-NB-MP1');
    deviceSerial += 1;
    const tenant = String(device.tenant_code);
    const row = baseRow(custom, iccid, `1448${tenant === 'T0001' ? 1 : 2}${pad(deviceSerial, 8)}`, `${custom.imsiPrefix}${pad(4_000_000_000 + deviceSerial, 10)}`);
    row.device_code = device.code;
    row.organization_code = device.organization_code;
    row.tenant_code = tenant;
    cards.push({
      row,
      custom,
      tenant,
      project: String(device.organization_code).slice(0, 8),
      since: new Date(String(device.created_at)).getTime(),
      fate: device.deleted_at ? (random.next() < 0.7 ? 'suspended' : 'deactivated') : device.online_state === 'offline' && random.next() < 0.25 ? 'suspended' : 'normal',
      device,
    });
  }

  for (const [tenant, counts] of Object.entries(EXTRA_CARDS)) {
    const projects = projectsOf(tenant);
    const tenantDigit = tenant === 'T0001' ? 1 : 2;
    for (const [fate, count] of Object.entries(counts) as Array<[keyof typeof counts, number]>) {
      for (let i = 0; i < count; i += 1) {
        const custom = customOf(random.pick(EXTRA_CUSTOMS));
        const row = numbered(custom, tenantDigit);
        const project = random.pick(projects);
        row.organization_code = project;
        row.tenant_code = tenant;
        const since = fate === 'testing' ? day(-random.int(8, 75)) : fate === 'deactivated' ? day(-random.int(520, 820)) : day(-random.int(160, 700));
        cards.push({ row, custom, tenant, project, since, fate: fate === 'testing' ? 'normal' : fate, device: null });
      }
    }
  }

  // The order awaiting 杭州云联's confirmation: 200 NB-IoT cards shipped two days ago.
  for (let i = 0; i < 200; i += 1) {
    const custom = customOf('DZ-CMCC-NB-MP1');
    const row = numbered(custom, 1);
    row.organization_code = 'T0001P01';
    row.tenant_code = 'T0001';
    const card: SeedCard = { row, custom, tenant: 'T0001', project: 'T0001P01', since: day(-2), fate: 'pending_confirm', device: null };
    world.awaiting.push(card);
    cards.push(card);
  }

  for (const custom of CUSTOMS) {
    for (let i = 0; i < custom.stock; i += 1) {
      const card: SeedCard = { row: numbered(custom, 0), custom, tenant: null, project: null, since: day(-random.int(5, 120)), fate: 'stock', device: null };
      world.stock.push(card);
      cards.push(card);
    }
  }
}

export function cardsTables(random: Random, today: Date, fleet: DeviceTables, timeZone: string): SeedData {
  const now = today.getTime();
  const world: CardWorld = { random, now, timeZone, day: (offsetDays) => now + offsetDays * DAY_MS, cards: [], awaiting: [], stock: [] };
  const supply = supplyTables(iso(world.day(-800)));
  buildCards(world, fleet);
  // Each step draws from the generator in turn: their order is the world's.
  const book = cardOrderBook(world);
  const batches = stockBatches(world);
  const alters = cardAlters(world);
  const renewals = cardRenewals(world);
  const recharges = cardRecharges(world, renewals.renews);
  const flowDaily = cardFlowDaily(world);
  const simRows = world.cards.map((card, index) => {
    const createdAt = card.row.created_at ?? iso(card.since);
    return { id: index + 1, ...card.row, created_at: createdAt, updated_at: card.row.updated_at ?? createdAt };
  });
  return [
    ...supply,
    { table: 'card_stock_batch', rows: batches },
    { table: 'card_sale_order', rows: book.saleOrders },
    { table: 'card_order', rows: book.orders },
    { table: 'sim_card', rows: simRows },
    { table: 'card_delivery', rows: book.deliveries },
    { table: 'card_delivery_item', rows: book.deliveryItems },
    { table: 'card_alter', rows: alters.alters },
    { table: 'card_alter_item', rows: alters.items },
    { table: 'card_renew_order', rows: renewals.orders },
    { table: 'card_renew', rows: renewals.renews },
    { table: 'card_recharge', rows: recharges.recharges },
    { table: 'card_recharge_item', rows: recharges.items },
    { table: 'card_flow_daily', rows: flowDaily },
    { table: 'card_sync', rows: CARD_SYNCS.map(([kind, daysAgo, summary]) => ({ kind, synced_at: iso(world.day(-daysAgo)), synced_by: 'operator', summary })) },
  ];
}
