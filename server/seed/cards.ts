import type { Row, SeedData } from '../db/bulk';
import { businessDay } from '../domain/businessTime';
import { CARD_ORDER_STATE } from '../domain/cardOrders';
import { addYears, ALTER_STATE, CARD_STATE, DELIVERY_STATE, documentCode, fenOf, RECHARGE_STATE, RENEW_ORDER_STATE, RENEW_STATE, TEST_PERIOD_DAYS, yuan } from '../domain/cards';
import { ORGANIZATION_TYPE, PLATFORM_CODE } from '../domain/organizations';
import type { DeviceTables } from './devices';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';

/**
 * The demo world's IoT SIM cards and their paper trail (issue 7). Every card a device of the fleet
 * carries (`device.iccid`) is a card of that device's tenant; around them are cards still in the
 * platform's stock, cards in their test period, suspended, closed and replaced ones — thousands in
 * every state — and the documents that put each card where it is: warehousing batches, sale
 * orders, card orders with their deliveries (through every order state), replacements, renewals
 * and recharges. Deterministic for a given generator and clock.
 */

const DAY_MS = 86_400_000;
const iso = (time: Date | number) => new Date(time).toISOString();
const pad = (value: number, width: number) => String(value).padStart(width, '0');

interface SeedStandard {
  code: string;
  name: string;
  operator: string;
  network: string;
  flowMb: number;
  unitPrice: number;
  years: number[];
  tenant: string | null;
}

export const SEED_STANDARDS: readonly SeedStandard[] = [
  { code: 'FS-CMCC-NB-30', name: '移动 NB-IoT 30MB/月', operator: 'cmcc', network: 'nb', flowMb: 30, unitPrice: 12, years: [1, 2, 3, 5], tenant: null },
  { code: 'FS-CMCC-CAT1-100', name: '移动 Cat.1 100MB/月', operator: 'cmcc', network: 'cat1', flowMb: 100, unitPrice: 36, years: [1, 2, 3], tenant: null },
  { code: 'FS-CMCC-4G-500', name: '移动 4G 500MB/月', operator: 'cmcc', network: '4g', flowMb: 500, unitPrice: 96, years: [1, 2, 3], tenant: null },
  { code: 'FS-CUCC-NB-50', name: '联通 NB-IoT 50MB/月', operator: 'cucc', network: 'nb', flowMb: 50, unitPrice: 15, years: [1, 2, 3, 5], tenant: null },
  { code: 'FS-CUCC-4G-1024', name: '联通 4G 1GB/月', operator: 'cucc', network: '4g', flowMb: 1024, unitPrice: 120, years: [1, 2, 3], tenant: null },
  { code: 'FS-CTCC-NB-30', name: '电信 NB-IoT 30MB/月', operator: 'ctcc', network: 'nb', flowMb: 30, unitPrice: 10.8, years: [1, 2, 3, 5], tenant: null },
  { code: 'FS-CTCC-CAT1-200', name: '电信 Cat.1 200MB/月', operator: 'ctcc', network: 'cat1', flowMb: 200, unitPrice: 48, years: [1, 2, 3], tenant: null },
  { code: 'FS-CBN-5G-2048', name: '广电 5G 2GB/月', operator: 'cbn', network: '5g', flowMb: 2048, unitPrice: 180, years: [1, 2], tenant: null },
  { code: 'FS-CMCC-NB-30-T0001', name: '移动 NB-IoT 30MB/月（杭州云联协议价）', operator: 'cmcc', network: 'nb', flowMb: 30, unitPrice: 10, years: [1, 2, 3, 5], tenant: 'T0001' },
  { code: 'FS-CMCC-4G-500-T0002', name: '移动 4G 500MB/月（苏州智水协议价）', operator: 'cmcc', network: '4g', flowMb: 500, unitPrice: 88, years: [1, 2, 3], tenant: 'T0002' },
];

const SUPPLIERS = [
  { code: 'SUP-CMIOT', name: '中移物联网有限公司', operator: 'cmcc', contact_name: '黄志强', contact_phone: '13983000101' },
  { code: 'SUP-CUIOT', name: '联通物联网有限责任公司', operator: 'cucc', contact_name: '吴晓燕', contact_phone: '13601000202' },
  { code: 'SUP-CTIOT', name: '天翼物联科技有限公司', operator: 'ctcc', contact_name: '郑海涛', contact_phone: '13316000303' },
  { code: 'SUP-CBNIOT', name: '中国广电物联网有限公司', operator: 'cbn', contact_name: '何佳', contact_phone: '13701000404' },
];

interface SeedCustom {
  code: string;
  name: string;
  operator: string;
  formFactor: string;
  grade: string;
  supplier: string;
  standard: string;
  unitCost: number;
  /** ICCID and MSISDN prefixes of the cards of this specification. */
  iccidPrefix: string;
  msisdnPrefix: string;
  imsiPrefix: string;
  /** Cards of this specification in the platform's stock. */
  stock: number;
}

const CUSTOMS: readonly SeedCustom[] = [
  { code: 'DZ-CMCC-NB-MP1', name: '移动 NB-IoT 工业级贴片卡', operator: 'cmcc', formFactor: 'mp1', grade: 'industrial', supplier: 'SUP-CMIOT', standard: 'FS-CMCC-NB-30', unitCost: 3.5, iccidPrefix: '89860425', msisdnPrefix: '1440', imsiPrefix: '46004', stock: 1000 },
  { code: 'DZ-CMCC-CAT1-MP2', name: '移动 Cat.1 车规级贴片卡', operator: 'cmcc', formFactor: 'mp2', grade: 'automotive', supplier: 'SUP-CMIOT', standard: 'FS-CMCC-CAT1-100', unitCost: 6, iccidPrefix: '89860426', msisdnPrefix: '1441', imsiPrefix: '46004', stock: 300 },
  { code: 'DZ-CMCC-4G-PLUG', name: '移动 4G 三切插拔卡', operator: 'cmcc', formFactor: 'plug', grade: 'consumer', supplier: 'SUP-CMIOT', standard: 'FS-CMCC-4G-500', unitCost: 2, iccidPrefix: '89860427', msisdnPrefix: '1442', imsiPrefix: '46004', stock: 300 },
  { code: 'DZ-CUCC-NB-PLUG', name: '联通 NB-IoT 工业级插拔卡', operator: 'cucc', formFactor: 'plug', grade: 'industrial', supplier: 'SUP-CUIOT', standard: 'FS-CUCC-NB-50', unitCost: 2.5, iccidPrefix: '89860125', msisdnPrefix: '1460', imsiPrefix: '46006', stock: 450 },
  { code: 'DZ-CUCC-4G-PLUG', name: '联通 4G 三切插拔卡', operator: 'cucc', formFactor: 'plug', grade: 'consumer', supplier: 'SUP-CUIOT', standard: 'FS-CUCC-4G-1024', unitCost: 2, iccidPrefix: '89860126', msisdnPrefix: '1461', imsiPrefix: '46006', stock: 200 },
  { code: 'DZ-CTCC-NB-MP1', name: '电信 NB-IoT 工业级贴片卡', operator: 'ctcc', formFactor: 'mp1', grade: 'industrial', supplier: 'SUP-CTIOT', standard: 'FS-CTCC-NB-30', unitCost: 3.2, iccidPrefix: '89861125', msisdnPrefix: '1410', imsiPrefix: '46011', stock: 250 },
  { code: 'DZ-CTCC-CAT1-PLUG', name: '电信 Cat.1 插拔卡', operator: 'ctcc', formFactor: 'plug', grade: 'consumer', supplier: 'SUP-CTIOT', standard: 'FS-CTCC-CAT1-200', unitCost: 2.2, iccidPrefix: '89861126', msisdnPrefix: '1411', imsiPrefix: '46011', stock: 150 },
  { code: 'DZ-CBN-5G-ESIM', name: '广电 5G eSIM', operator: 'cbn', formFactor: 'esim', grade: 'automotive', supplier: 'SUP-CBNIOT', standard: 'FS-CBN-5G-2048', unitCost: 9, iccidPrefix: '89861525', msisdnPrefix: '1920', imsiPrefix: '46015', stock: 0 },
];
const customOf = (code: string): SeedCustom => CUSTOMS.find((custom) => custom.code === code)!;
const standardOf = (code: string): SeedStandard => SEED_STANDARDS.find((standard) => standard.code === code)!;

/** The yearly price a tenant pays for a package: its own negotiated standard, else the list price. */
function priceFor(tenant: string, standardCode: string): number {
  const list = standardOf(standardCode);
  const own = SEED_STANDARDS.find((s) => s.tenant === tenant && s.operator === list.operator && s.network === list.network && s.flowMb === list.flowMb);
  return (own ?? list).unitPrice;
}

/** The custom card a device's card is: by the device's radio (NB-IoT, 4G, Cat.1). */
const DEVICE_CUSTOM: Record<string, string> = {
  'PRD-WM-NB': 'DZ-CMCC-NB-MP1',
  'PRD-PG-NB': 'DZ-CMCC-NB-MP1',
  'PRD-SD-NB': 'DZ-CMCC-NB-MP1',
  'PRD-FM-4G': 'DZ-CMCC-4G-PLUG',
  'PRD-GW-4G': 'DZ-CMCC-4G-PLUG',
  'PRD-LV-LR': 'DZ-CMCC-CAT1-MP2',
  'PRD-TH-LR': 'DZ-CMCC-CAT1-MP2',
};

/** Extra cards (not in a device) the tenants hold, by what became of them. */
const EXTRA_CARDS: Record<string, Record<'testing' | 'suspended' | 'deactivated' | 'replaced', number>> = {
  T0001: { testing: 550, suspended: 420, deactivated: 600, replaced: 600 },
  T0002: { testing: 350, suspended: 300, deactivated: 400, replaced: 400 },
};
const EXTRA_CUSTOMS = ['DZ-CMCC-NB-MP1', 'DZ-CMCC-NB-MP1', 'DZ-CUCC-NB-PLUG', 'DZ-CUCC-4G-PLUG', 'DZ-CTCC-NB-MP1', 'DZ-CTCC-CAT1-PLUG', 'DZ-CMCC-CAT1-MP2'];

const TENANT_CONTACTS: Record<string, { name: string; phone: string; address: string }> = {
  T0001: { name: '张明', phone: '13800000001', address: '浙江省杭州市西湖区文三路 90 号东部软件园 3 号楼' },
  T0002: { name: '陈静', phone: '13900000002', address: '江苏省苏州市工业园区星湖街 328 号创意产业园 12 幢' },
};
const SALESPEOPLE = ['王磊', '陈思远', '刘婷', '周杰'];
const CEASE_REASONS = ['customer_request', 'abnormal_usage', 'machine_card_separation', 'arrears'];
const ALTER_REASONS = ['卡片损坏，无法识别', '设备进水，卡座氧化', '信号异常，频繁掉线', '卡片丢失', '机卡分离告警后更换'];

function projectsOf(tenant: string): string[] {
  return flattenOrganizations()
    .filter((org) => org.code.startsWith(tenant) && org.type === ORGANIZATION_TYPE.project)
    .map((org) => org.code);
}

/** A card being built: its row plus what the seed needs to know about it. */
interface SeedCard {
  row: Row;
  custom: SeedCustom;
  tenant: string | null;
  project: string | null;
  /** When the tenant put it to use (devices) or received it (extras). */
  since: number;
  fate: 'normal' | 'suspended' | 'deactivated' | 'replaced' | 'pending_confirm' | 'stock';
  device: Row | null;
}

export function cardsTables(random: Random, today: Date, fleet: DeviceTables, timeZone: string): SeedData {
  const now = today.getTime();
  const day = (offsetDays: number) => now + offsetDays * DAY_MS;

  // ── supply: suppliers, fee standards, custom cards ────────────────────────────────────────────
  const created = iso(day(-800));
  const suppliers: Row[] = SUPPLIERS.map((supplier) => ({ ...supplier, created_at: created }));
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

  // ── the cards: the fleet's, extras of each tenant, and the stock ──────────────────────────────
  const cards: SeedCard[] = [];
  const serial: Record<string, number> = {};
  const nextNumbers = (custom: SeedCustom) => {
    serial[custom.code] = (serial[custom.code] ?? 0) + 1;
    const n = serial[custom.code];
    return { iccid: `${custom.iccidPrefix}${pad(n, 12)}`, n };
  };
  const msisdnOf = (custom: SeedCustom, n: number, tenantDigit: number) => `${custom.msisdnPrefix}${tenantDigit}${pad(n, 8)}`;
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
        const { iccid, n } = nextNumbers(custom);
        const row = baseRow(custom, iccid, msisdnOf(custom, n, tenantDigit), `${custom.imsiPrefix}${pad(n, 10)}`);
        const project = random.pick(projects);
        row.organization_code = project;
        row.tenant_code = tenant;
        const since = fate === 'testing' ? day(-random.int(8, 75)) : fate === 'deactivated' ? day(-random.int(520, 820)) : day(-random.int(160, 700));
        cards.push({ row, custom, tenant, project, since, fate: fate === 'testing' ? 'normal' : fate, device: null });
      }
    }
  }

  // The order awaiting 杭州云联's confirmation: 200 NB-IoT cards shipped two days ago.
  const awaitingCards: SeedCard[] = [];
  for (let i = 0; i < 200; i += 1) {
    const custom = customOf('DZ-CMCC-NB-MP1');
    const { iccid, n } = nextNumbers(custom);
    const row = baseRow(custom, iccid, msisdnOf(custom, n, 1), `${custom.imsiPrefix}${pad(n, 10)}`);
    row.organization_code = 'T0001P01';
    row.tenant_code = 'T0001';
    const card: SeedCard = { row, custom, tenant: 'T0001', project: 'T0001P01', since: day(-2), fate: 'pending_confirm', device: null };
    awaitingCards.push(card);
    cards.push(card);
  }

  const stock: SeedCard[] = [];
  for (const custom of CUSTOMS) {
    for (let i = 0; i < custom.stock; i += 1) {
      const { iccid, n } = nextNumbers(custom);
      const card: SeedCard = { row: baseRow(custom, iccid, msisdnOf(custom, n, 0), `${custom.imsiPrefix}${pad(n, 10)}`), custom, tenant: null, project: null, since: day(-random.int(5, 120)), fate: 'stock', device: null };
      stock.push(card);
      cards.push(card);
    }
  }

  // ── the order book: each tenant's cards grouped by project and card, in windows of time ──────
  const saleOrders: Row[] = [];
  const orders: Row[] = [];
  const deliveries: Row[] = [];
  const deliveryItems: Row[] = [];
  let orderId = 0;
  let deliveryId = 0;
  const salesperson = () => random.pick(SALESPEOPLE);

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
  const addOrder = (spec: OrderSpec): Row => {
    orderId += 1;
    const contact = TENANT_CONTACTS[spec.tenant];
    const unitPrice = priceFor(spec.tenant, spec.custom.standard);
    const amount = yuan(fenOf(unitPrice) * spec.years * spec.count);
    const signedAt = spec.createdAt - random.int(1, 4) * DAY_MS;
    const saleCode = documentCode('SO', new Date(signedAt), orderId, timeZone);
    const seller = salesperson();
    saleOrders.push({
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
    orders.push(order);
    return order;
  };
  const addDelivery = (order: Row, state: string, shippedAt: number | null, items: SeedCard[], createdAt: number): Row => {
    deliveryId += 1;
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
    deliveries.push(row);
    for (const card of items) deliveryItems.push({ delivery_code: row.code, iccid: card.row.iccid });
    return row;
  };

  // Group the tenants' cards (not the one awaiting confirmation) into orders.
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
  chunks.sort((a, b) => a[0].since - b[0].since);
  // A revoked delivery in the history: the first big order was shipped with the wrong cards once.
  let revokedOne = false;
  for (const chunk of chunks) {
    const first = chunk[0];
    const shippedAt = first.since - random.int(3, 12) * DAY_MS;
    const createdAt = shippedAt - random.int(2, 8) * DAY_MS;
    const years = random.pick([1, 1, 2, 3]);
    const order = addOrder({ tenant: first.tenant!, project: first.project!, custom: first.custom, count: chunk.length, years, createdAt, state: CARD_ORDER_STATE.confirmed });
    if (!revokedOne && chunk.length >= 100) {
      revokedOne = true;
      const revoked = addDelivery(order, DELIVERY_STATE.revoked, shippedAt - 6 * DAY_MS, [], createdAt);
      revoked.card_count = chunk.length;
      revoked.revoke_reason = '发错卡型（应为工业级贴片卡），已召回重发';
      revoked.revoked_at = iso(shippedAt - 4 * DAY_MS);
      revoked.remark = '召回后重新出库';
    }
    const delivery = addDelivery(order, DELIVERY_STATE.received, shippedAt, chunk, shippedAt - DAY_MS);
    order.confirmed_at = delivery.received_at;
    order.confirmed_by = first.tenant === 'T0001' ? 'tadmin' : 'badmin';
    order.updated_at = delivery.received_at;
    let anyTesting = false;
    for (const card of chunk) {
      const row = card.row;
      row.order_code = order.code;
      row.delivery_code = delivery.code;
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
        continue;
      }
      if (testUntil > now && card.fate === 'normal') {
        row.state = CARD_STATE.testing;
        row.month_used_mb = Math.round(Number(row.flow_mb) * random.next() * 0.3 * 100) / 100;
        row.total_used_mb = row.month_used_mb;
        row.last_session_at = card.device ? (card.device.last_seen_at ?? null) : iso(now - random.int(1, 72) * 3_600_000);
        anyTesting = true;
        continue;
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
    }
    if (!anyTesting && (order.received_amount === order.amount || random.next() < 0.5)) {
      order.state = CARD_ORDER_STATE.completed;
      order.completed_at = iso(shippedAt + (TEST_PERIOD_DAYS + random.int(1, 5)) * DAY_MS);
    }
  }

  // Awaiting confirmation: shipped two days ago (SPEC §4: the start-up notice asks T0001's staff).
  {
    const createdAt = day(-9);
    const order = addOrder({ tenant: 'T0001', project: 'T0001P01', custom: customOf('DZ-CMCC-NB-MP1'), count: awaitingCards.length, years: 3, createdAt, state: CARD_ORDER_STATE.awaitingConfirmation, remark: '西湖智慧水务项目二期 NB-IoT 卡 200 张' });
    const shippedAt = day(-2);
    const delivery = addDelivery(order, DELIVERY_STATE.shipped, shippedAt, awaitingCards, day(-3));
    order.updated_at = iso(shippedAt);
    for (const card of awaitingCards) {
      Object.assign(card.row, { state: CARD_STATE.testing, order_code: order.code, delivery_code: delivery.code, test_until: iso(shippedAt + TEST_PERIOD_DAYS * DAY_MS), created_at: iso(day(-30)) });
    }
  }

  // Orders not yet shipped, taking stock cards: waiting for a delivery, being delivered, cancelled.
  const stockFor = (customCode: string, count: number): SeedCard[] => {
    const picked = stock.filter((card) => card.custom.code === customCode && card.row.delivery_code === null && card.row.alter_code === null).slice(0, count);
    return picked;
  };
  const pendingSpecs: Array<[string, string, string, number, number, string]> = [
    ['T0001', 'T0001P02', 'DZ-CMCC-NB-MP1', 300, 2, '钱塘园区烟感扩容'],
    ['T0001', 'T0001P01', 'DZ-CUCC-NB-PLUG', 120, 1, '上城区管网压力监测补点'],
    ['T0002', 'T0002P01', 'DZ-CTCC-NB-MP1', 80, 3, '太湖水质监测点新增'],
    ['T0002', 'T0002P02', 'DZ-CMCC-4G-PLUG', 60, 2, '星海泵站流量计 4G 改造'],
  ];
  for (const [tenant, project, custom, count, years, remark] of pendingSpecs) {
    addOrder({ tenant, project, custom: customOf(custom), count, years, createdAt: day(-random.int(1, 6)), state: CARD_ORDER_STATE.pendingDelivery, remark });
  }
  const deliveringSpecs: Array<[string, string, string, number, string]> = [
    ['T0001', 'T0001P02', 'DZ-CMCC-CAT1-MP2', 150, '下沙园区温湿度监测'],
    ['T0002', 'T0002P01', 'DZ-CUCC-NB-PLUG', 100, '吴中区液位监测'],
  ];
  for (const [tenant, project, custom, count, remark] of deliveringSpecs) {
    const createdAt = day(-random.int(4, 8));
    const order = addOrder({ tenant, project, custom: customOf(custom), count, years: 2, createdAt, state: CARD_ORDER_STATE.delivering, remark });
    const picked = stockFor(custom, count);
    const delivery = addDelivery(order, DELIVERY_STATE.created, null, picked, createdAt + DAY_MS);
    delivery.remark = '待仓库拣货';
    for (const card of picked) card.row.delivery_code = delivery.code;
  }
  const cancelledSpecs: Array<[string, string, string, number, string, boolean]> = [
    ['T0001', 'T0001P01', 'DZ-CMCC-4G-PLUG', 50, '客户改用有线传输，订单取消', false],
    ['T0002', 'T0002P02', 'DZ-CTCC-CAT1-PLUG', 40, '项目延期，客户申请取消', true],
    ['T0001', 'T0001P02', 'DZ-CUCC-4G-PLUG', 30, '重复下单', false],
  ];
  for (const [tenant, project, custom, count, reason, withDelivery] of cancelledSpecs) {
    const createdAt = day(-random.int(20, 200));
    const order = addOrder({ tenant, project, custom: customOf(custom), count, years: 1, createdAt, state: CARD_ORDER_STATE.cancelled });
    order.cancelled_at = iso(createdAt + 3 * DAY_MS);
    order.cancel_reason = reason;
    order.updated_at = order.cancelled_at;
    if (withDelivery) {
      const delivery = addDelivery(order, DELIVERY_STATE.cancelled, null, [], createdAt + DAY_MS);
      delivery.card_count = count;
      delivery.cancelled_at = iso(createdAt + 2 * DAY_MS);
    }
  }
  // Sale orders signed but not yet imported (card.saleOrder.sync brings them in).
  const unimported: Array<[string, string, string, number, number]> = [
    ['T0001', 'T0001P01', 'DZ-CMCC-NB-MP1', 500, 3],
    ['T0001', 'T0001P02', 'DZ-CTCC-NB-MP1', 60, 1],
    ['T0002', 'T0002P01', 'DZ-CMCC-NB-MP1', 200, 2],
    ['T0002', 'T0002P02', 'DZ-CUCC-4G-PLUG', 20, 1],
  ];
  unimported.forEach(([tenant, project, customCode, count, years], index) => {
    const custom = customOf(customCode);
    const contact = TENANT_CONTACTS[tenant];
    const unitPrice = priceFor(tenant, custom.standard);
    const signedAt = day(-index - 1);
    saleOrders.push({
      code: documentCode('SO', new Date(signedAt), 90_000 + index, timeZone),
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
    });
  });

  // ── warehousing: every card came in a batch of its specification ─────────────────────────────
  const batches: Row[] = [];
  const bySpec = new Map<string, SeedCard[]>();
  for (const card of cards) {
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

  // ── replacements: replaced cards and their successors, plus open applications ────────────────
  const alters: Row[] = [];
  const alterItems: Row[] = [];
  let alterId = 0;
  const addAlter = (tenant: string, kind: string, state: string, at: number, organization: string): Row => {
    alterId += 1;
    const contact = TENANT_CONTACTS[tenant];
    const row: Row = {
      id: alterId,
      code: documentCode('HK', new Date(at), alterId, timeZone),
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
      applicant: tenant === 'T0001' ? 'tadmin' : 'badmin',
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
  const ship = (alter: Row, at: number) => {
    alter.express_company = 'jd';
    alter.express_no = `JDVA${pad(random.int(10_000_000, 99_999_999), 10)}`;
    alter.waybill_at = iso(at - DAY_MS);
    alter.shipped_at = iso(at);
    alter.updated_at = iso(at);
  };
  let itemId = 0;
  for (const tenant of Object.keys(EXTRA_CARDS)) {
    const replaced = cards.filter((card) => card.tenant === tenant && card.row.state === CARD_STATE.replaced);
    const successors = cards.filter((card) => card.tenant === tenant && card.row.state === CARD_STATE.active && card.device !== null);
    let next = 0;
    for (let start = 0; start < replaced.length; ) {
      const size = Math.min(random.int(1, 30), replaced.length - start);
      const part = replaced.slice(start, start + size);
      start += size;
      const at = now - random.int(10, 150) * DAY_MS;
      const noCard = random.next() < 0.15;
      const recovered = !noCard && random.next() < 0.6;
      const alter = addAlter(tenant, noCard ? 'no_card' : 'with_card', recovered ? ALTER_STATE.recovered : ALTER_STATE.shipped, at - 5 * DAY_MS, String(part[0].project));
      ship(alter, at);
      if (recovered) alter.recovered_at = iso(at + random.int(5, 9) * DAY_MS);
      for (const old of part) {
        const successor = successors[next % successors.length];
        next += 1;
        itemId += 1;
        const partlyBack = !noCard && !recovered && random.next() < 0.4;
        alterItems.push({ id: itemId, alter_code: alter.code, old_iccid: old.row.iccid, new_iccid: successor.row.iccid, recovered: recovered || partlyBack, recovered_at: recovered || partlyBack ? iso(at + random.int(3, 9) * DAY_MS) : null });
        old.row.replaced_by = successor.row.iccid;
        old.row.alter_code = alter.code;
        old.row.updated_at = iso(at);
        successor.row.alter_code = alter.code;
      }
    }
    // Open applications of the tenant: waiting for the platform, waybill created, cancelled ones.
    const candidates = cards.filter((card) => card.tenant === tenant && card.device !== null && card.row.alter_code === null && (card.row.state === CARD_STATE.active || card.row.state === CARD_STATE.suspended));
    let pick = 0;
    const plan: Array<[string, string, number]> = [
      [ALTER_STATE.applied, 'with_card', 3],
      [ALTER_STATE.applied, 'no_card', 1],
      [ALTER_STATE.applied, 'with_card', 2],
      [ALTER_STATE.created, 'with_card', 4],
      [ALTER_STATE.created, 'no_card', 2],
      [ALTER_STATE.cancelled, 'with_card', 2],
      [ALTER_STATE.cancelled, 'with_card', 1],
    ];
    for (const [state, kind, size] of plan) {
      const part = candidates.slice(pick * 17, pick * 17 + size);
      pick += 1;
      const at = state === ALTER_STATE.cancelled ? now - random.int(20, 90) * DAY_MS : now - random.int(1, 6) * DAY_MS;
      const alter = addAlter(tenant, kind, state, at, String(part[0].project));
      if (state === ALTER_STATE.cancelled) alter.cancelled_at = iso(at + 2 * DAY_MS);
      const fresh = state === ALTER_STATE.created ? stockFor(part[0].custom.code, part.length) : [];
      if (state === ALTER_STATE.created) {
        alter.express_company = 'jd';
        alter.express_no = `JDVA${pad(random.int(10_000_000, 99_999_999), 10)}`;
        alter.waybill_at = iso(at + DAY_MS);
      }
      part.forEach((old, index) => {
        itemId += 1;
        const successor = fresh[index];
        if (successor) successor.row.alter_code = alter.code;
        alterItems.push({ id: itemId, alter_code: alter.code, old_iccid: old.row.iccid, new_iccid: successor ? successor.row.iccid : null, recovered: false, recovered_at: null });
        if (state !== ALTER_STATE.cancelled) old.row.alter_code = alter.code;
      });
    }
  }

  // ── renewals: cards whose service ends soon, and the renewals already settled ────────────────
  const renewOrders: Row[] = [];
  const renews: Row[] = [];
  let renewId = 0;
  let renewOrderId = 0;
  const addRenewOrder = (tenant: string, state: string, at: number, rows: Row[]): Row => {
    renewOrderId += 1;
    const order: Row = {
      id: renewOrderId,
      code: documentCode('XF', new Date(at), renewOrderId, timeZone),
      tenant_code: tenant,
      organization_code: tenant,
      state,
      card_count: rows.length,
      amount: yuan(rows.reduce((sum, row) => sum + fenOf(Number(row.amount)), 0)),
      created_by: tenant === 'T0001' ? 'tadmin' : 'badmin',
      created_at: iso(at),
      confirmed_by: state === RENEW_ORDER_STATE.confirmed ? 'operator' : null,
      confirmed_at: state === RENEW_ORDER_STATE.confirmed ? iso(at + random.int(1, 4) * DAY_MS) : null,
    };
    for (const row of rows) row.order_code = order.code;
    renewOrders.push(order);
    return order;
  };
  const rechargeable = (card: SeedCard) => card.row.expires_at !== null && (card.row.state === CARD_STATE.active || (card.row.state === CARD_STATE.suspended && card.row.cease_reason === 'expired'));
  for (const tenant of Object.keys(EXTRA_CARDS)) {
    const own = cards.filter((card) => card.tenant === tenant && rechargeable(card) && card.row.alter_code === null);
    const open: Row[] = [];
    const settled: Row[] = [];
    for (const card of own) {
      const expires = new Date(String(card.row.expires_at)).getTime();
      const standard = card.custom.standard;
      const unitPrice = priceFor(tenant, standard);
      if (expires < now + 60 * DAY_MS && expires > now - 45 * DAY_MS) {
        const roll = random.next();
        const state = roll < 0.4 ? RENEW_STATE.unregistered : roll < 0.7 ? RENEW_STATE.registered : roll < 0.9 ? RENEW_STATE.confirmed : RENEW_STATE.locked;
        const years = state === RENEW_STATE.unregistered || state === RENEW_STATE.locked ? null : random.pick(standardOf(standard).years.slice(0, 3));
        renewId += 1;
        const row: Row = {
          id: renewId,
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
          confirmed_by: state === RENEW_STATE.confirmed ? (tenant === 'T0001' ? 'tadmin' : 'badmin') : null,
          confirmed_at: state === RENEW_STATE.confirmed ? iso(now - random.int(0, 2) * DAY_MS) : null,
          locked_by: state === RENEW_STATE.locked ? 'operator' : null,
          locked_at: state === RENEW_STATE.locked ? iso(now - random.int(1, 10) * DAY_MS) : null,
          lock_reason: state === RENEW_STATE.locked ? random.pick(['客户书面告知不再续费', '设备已拆除，到期停用', '项目结束']) : null,
          created_at: iso(expires - 60 * DAY_MS),
          updated_at: iso(now - DAY_MS),
        };
        renews.push(row);
        if (state === RENEW_STATE.confirmed) open.push(row);
      } else if (card.row.activated_at !== null && expires - now > 250 * DAY_MS && random.next() < 0.35) {
        // Renewed within the last months: the period just ended and its settled renewal.
        const years = 1;
        const previous = addYears(new Date(expires), -years).getTime();
        if (previous <= new Date(String(card.row.activated_at)).getTime() || previous > now) continue;
        renewId += 1;
        const row: Row = {
          id: renewId,
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
          confirmed_by: tenant === 'T0001' ? 'tadmin' : 'badmin',
          confirmed_at: iso(previous - 25 * DAY_MS),
          locked_by: null,
          locked_at: null,
          lock_reason: null,
          created_at: iso(previous - 60 * DAY_MS),
          updated_at: iso(previous - 20 * DAY_MS),
        };
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

  // ── recharges: service years bought online or by transfer ─────────────────────────────────────
  const recharges: Row[] = [];
  const rechargeItems: Row[] = [];
  const renewed = new Set(renews.map((row) => String(row.iccid)));
  let rechargeId = 0;
  for (const tenant of Object.keys(EXTRA_CARDS)) {
    const pool = cards.filter((card) => card.tenant === tenant && rechargeable(card) && card.row.alter_code === null && !renewed.has(String(card.row.iccid)));
    const creator = tenant === 'T0001' ? 'tadmin' : 'badmin';
    const plan: string[] = [
      ...Array.from({ length: tenant === 'T0001' ? 34 : 20 }, () => RECHARGE_STATE.confirmed),
      RECHARGE_STATE.paid,
      RECHARGE_STATE.paid,
      RECHARGE_STATE.pendingPayment,
      RECHARGE_STATE.pendingPayment,
      RECHARGE_STATE.cancelled,
      RECHARGE_STATE.cancelled,
      RECHARGE_STATE.cancelled,
    ];
    let cursor = 0;
    for (const state of plan) {
      const size = random.int(3, 60);
      const part = pool.slice(cursor, cursor + size);
      cursor += size;
      if (part.length === 0) break;
      rechargeId += 1;
      const years = random.pick([1, 1, 2, 3]);
      const method = state === RECHARGE_STATE.confirmed ? random.pick(['wechat', 'alipay', 'corporate', 'corporate']) : state === RECHARGE_STATE.cancelled ? random.pick(['wechat', 'corporate']) : 'corporate';
      const open = state === RECHARGE_STATE.pendingPayment || state === RECHARGE_STATE.paid;
      const at = open ? now - random.int(1, 10) * DAY_MS : state === RECHARGE_STATE.cancelled ? now - random.int(20, 200) * DAY_MS : now - random.int(15, 300) * DAY_MS;
      const code = documentCode('CZ', new Date(at), rechargeId, timeZone);
      let total = 0;
      for (const card of part) {
        const unitPrice = priceFor(tenant, card.custom.standard);
        const amount = yuan(fenOf(unitPrice) * years);
        total += fenOf(amount);
        const expires = new Date(String(card.row.expires_at)).getTime();
        // A confirmed recharge is what gave the card its present service end.
        const before = state === RECHARGE_STATE.confirmed ? addYears(new Date(expires), -years).getTime() : expires;
        rechargeItems.push({ recharge_code: code, iccid: card.row.iccid, unit_price: unitPrice, amount, expires_before: iso(before), expires_after: state === RECHARGE_STATE.confirmed ? iso(expires) : null });
      }
      const paidAt = state === RECHARGE_STATE.confirmed || state === RECHARGE_STATE.paid ? at + (method === 'corporate' ? random.int(1, 3) * DAY_MS : 60_000) : null;
      recharges.push({
        id: rechargeId,
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
        cancel_reason: state === RECHARGE_STATE.cancelled ? random.pick(['选错卡片，重新下单', '改为续费登记', '付款超时自动取消']) : null,
        updated_at: iso(paidAt ?? at),
      });
    }
  }

  // ── data used per day, for the flow monitor ──────────────────────────────────────────────────
  const flowDaily: Row[] = [];
  const usage = new Map<string, { mbPerDay: number; cards: number }>();
  for (const card of cards) {
    if (card.row.state !== CARD_STATE.active && card.row.state !== CARD_STATE.testing) continue;
    const key = `${card.tenant}|${card.row.operator}`;
    const entry = usage.get(key) ?? { mbPerDay: 0, cards: 0 };
    entry.mbPerDay += (Number(card.row.flow_mb) / 30) * 0.45;
    entry.cards += 1;
    usage.set(key, entry);
  }
  for (let offset = 179; offset >= 1; offset -= 1) {
    // Business days (of `timeZone`), as the flow monitor reads them.
    const date = businessDay(new Date(day(-offset)), timeZone);
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

  const sync: Row[] = [
    { kind: 'sim', synced_at: iso(day(-0.1)), synced_by: 'operator', summary: '同步 OneLink、CMP、DCP 卡状态与用量' },
    { kind: 'order', synced_at: iso(day(-1)), synced_by: 'operator', summary: '同步订单回款与完成状态' },
    { kind: 'sale_order', synced_at: iso(day(-6)), synced_by: 'operator', summary: '自 CRM 导入已签约销售订单' },
  ];

  const simRows = cards.map((card, index) => {
    const createdAt = card.row.created_at ?? iso(card.since);
    return { id: index + 1, ...card.row, created_at: createdAt, updated_at: card.row.updated_at ?? createdAt };
  });
  return [
    { table: 'card_supplier', rows: suppliers },
    { table: 'card_charge_standard', rows: standards },
    { table: 'card_custom', rows: customs },
    { table: 'card_stock_batch', rows: batches },
    { table: 'card_sale_order', rows: saleOrders },
    { table: 'card_order', rows: orders },
    { table: 'sim_card', rows: simRows },
    { table: 'card_delivery', rows: deliveries },
    { table: 'card_delivery_item', rows: deliveryItems },
    { table: 'card_alter', rows: alters },
    { table: 'card_alter_item', rows: alterItems },
    { table: 'card_renew_order', rows: renewOrders },
    { table: 'card_renew', rows: renews },
    { table: 'card_recharge', rows: recharges },
    { table: 'card_recharge_item', rows: rechargeItems },
    { table: 'card_flow_daily', rows: flowDaily },
    { table: 'card_sync', rows: sync },
  ];
}
