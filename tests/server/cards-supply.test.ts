// Card supply and the card dashboards (issue 7): fee standards, custom card specifications and
// warehousing are the platform's (tenant staff get "403"); the dashboards answer for the working
// organisations, so a tenant sees its own figures only.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { codeOf, download, ok, one, page, sheetRows, signIn, uploaded, type Tokens } from './cards-helpers';

let server: TestServer;
let t: Tokens;

beforeAll(async () => {
  server = await startServer();
  t = await signIn(server);
});
afterAll(() => server.close());

interface Standard {
  code: string;
  name: string;
  unitPrice: number;
  years: number[];
  tenantCode: string;
  enabled: boolean;
  cardCount: number;
  label?: string;
}

const standard = (overrides: Record<string, unknown> = {}) => ({
  code: 'FS-CTCC-5G-1024',
  name: '电信 5G 1GB/月',
  operator: 'ctcc',
  network: '5g',
  flowMb: 1024,
  unitPrice: 150,
  years: [2, 1],
  remark: '',
  ...overrides,
});

describe('card.chargeStandard.*', () => {
  it('lists the fee standards to platform staff, with the cards on each', async () => {
    const list = await page<Standard>(server, 'card.chargeStandard.page', t.operator, {}, { pageSize: 50 });
    expect(list.data.total).toBe(10);
    expect(list.data.records.find((s) => s.code === 'FS-CMCC-NB-30')!.cardCount).toBeGreaterThan(1000);
    const negotiated = await page<Standard>(server, 'card.chargeStandard.page', t.operator, { tenantCode: 'T0001' });
    expect(negotiated.data.records.map((s) => s.code)).toEqual(['FS-CMCC-NB-30-T0001']);
    expect((await page(server, 'card.chargeStandard.page', t.tadmin)).code).toBe('403');
    expect((await page(server, 'card.chargeStandard.page', t.operator, { enabled: 'yes' })).code).toBe('400');
  });

  it('counts the cards on each standard as the cards come, move and go, and after the seed is put back (issue 19: a tally kept with the rows)', async () => {
    const counted = async () =>
      Object.fromEntries(
        (await server.db.query<{ code: string; cards: number }>('SELECT package_code AS code, count(*)::int AS cards FROM sim_card GROUP BY 1')).map((row) => [row.code, row.cards]),
      );
    const shown = async () =>
      Object.fromEntries((await page<Standard>(server, 'card.chargeStandard.page', t.operator, {}, { pageSize: 50 })).data.records.filter((s) => s.cardCount > 0).map((s) => [s.code, s.cardCount]));
    const before = await counted();
    expect(await shown()).toEqual(before);
    // Cards move between standards in one statement.
    await server.db.exec(
      "UPDATE sim_card SET package_code = 'FS-CMCC-4G-500-T0002' WHERE id IN (SELECT id FROM sim_card WHERE package_code = 'FS-CMCC-NB-30' ORDER BY id LIMIT 7)",
    );
    const moved = await counted();
    expect(moved['FS-CMCC-NB-30']).toBe(before['FS-CMCC-NB-30'] - 7);
    expect(await shown()).toEqual(moved);
    // The tally emptied from outside (as the seed reset does when it comes first) is counted again.
    await server.db.exec('DELETE FROM sim_card_package_tally');
    expect(await shown()).toEqual(moved);
    // dev.reset restores sim_card in replica mode: the tally follows.
    expect((await server.call('dev.reset')).code).toBe('200');
    t = await signIn(server); // the reset ended every session
    expect(await shown()).toEqual(before);
  });

  it('answers the standards in force for a tenant: its negotiated price replaces the list price', async () => {
    const mine = await ok<Standard[]>(server, 'card.chargeStandard.get', {}, t.tadmin);
    const codes = mine.map((s) => s.code);
    expect(codes).toContain('FS-CMCC-NB-30-T0001');
    expect(codes).not.toContain('FS-CMCC-NB-30');
    expect(codes).not.toContain('FS-CMCC-4G-500-T0002');
    expect(mine.find((s) => s.code === 'FS-CMCC-NB-30-T0001')?.label).toBe('移动 NB-IoT 30MB/月（杭州云联协议价）（¥10.00/年）');
    expect((await ok<Standard[]>(server, 'card.chargeStandard.get', { operator: 'cucc' }, t.badmin)).every((s) => s.code.startsWith('FS-CUCC'))).toBe(true);
    expect(await codeOf(server, 'card.chargeStandard.detail', { code: 'FS-CMCC-4G-500-T0002' }, t.tadmin)).toBe('404');
    expect((await ok<Standard>(server, 'card.chargeStandard.detail', { code: 'FS-CMCC-4G-500-T0002' }, t.badmin)).unitPrice).toBe(88);
    expect(await codeOf(server, 'card.chargeStandard.get', { operator: 'att' }, t.tadmin)).toBe('400');
  });

  it('adds, changes and deletes a fee standard (platform admin only)', async () => {
    expect(await codeOf(server, 'card.chargeStandard.insert', { standard: standard() }, t.operator)).toBe('403');
    expect(await codeOf(server, 'card.chargeStandard.insert', { standard: standard({ code: 'fs lower' }) }, t.admin)).toBe('400');
    expect(await codeOf(server, 'card.chargeStandard.insert', { standard: standard({ years: [] }) }, t.admin)).toBe('400');
    expect(await codeOf(server, 'card.chargeStandard.insert', { standard: standard({ name: '<i>5G</i>' }) }, t.admin)).toBe('400');
    const created = await ok<Standard>(server, 'card.chargeStandard.insert', { standard: standard() }, t.admin);
    expect(created).toMatchObject({ code: 'FS-CTCC-5G-1024', years: [1, 2], tenantName: '全部租户（标准价）', enabled: true });
    expect((await server.call('card.chargeStandard.insert', { standard: standard() }, { token: t.admin })).message).toBe('资费标准编码已存在');
    expect((await server.call('card.chargeStandard.insert', { standard: standard({ code: 'FS-CTCC-5G-1024-B' }) }, { token: t.admin })).message).toBe('已有相同运营商、网络与流量的资费标准');
    const changed = await ok<Standard>(server, 'card.chargeStandard.modify', { code: created.code, standard: standard({ unitPrice: 139.9, years: [1, 2, 3] }) }, t.admin);
    expect(changed).toMatchObject({ unitPrice: 139.9, years: [1, 2, 3] });
    expect(await codeOf(server, 'card.chargeStandard.modify', { code: created.code, standard: standard({ code: 'FS-OTHER' }) }, t.admin)).toBe('400');
    expect((await server.call('card.chargeStandard.modify', { code: 'FS-CMCC-NB-30', standard: standard({ code: 'FS-CMCC-NB-30', flowMb: 50 }) }, { token: t.admin })).message).toBe(
      '该资费标准已有物联网卡使用，不能修改运营商、网络或流量',
    );
    expect((await server.call('card.chargeStandard.delete', { code: 'FS-CMCC-NB-30' }, { token: t.admin })).code).toBe('409');
    await ok(server, 'card.chargeStandard.delete', { code: created.code }, t.admin);
    expect(await codeOf(server, 'card.chargeStandard.detail', { code: created.code }, t.admin)).toBe('404');
  });
});

interface Custom {
  code: string;
  name: string;
  supplierName: string;
  stockCount: number;
  cardCount: number;
  enabled: boolean;
  label?: string;
}

const custom = (overrides: Record<string, unknown> = {}) => ({
  code: 'DZ-CTCC-5G-MP2',
  name: '电信 5G 车规级贴片卡',
  operator: 'ctcc',
  formFactor: 'mp2',
  grade: 'automotive',
  supplierCode: 'SUP-CTIOT',
  packageCode: 'FS-CTCC-CAT1-200',
  unitCost: 8.5,
  ...overrides,
});

describe('card.customCard.*', () => {
  it('lists custom cards with their free stock; the list of enabled ones feeds the forms', async () => {
    const list = await page<Custom>(server, 'card.customCard.page', t.operator, { operator: 'cmcc' });
    expect(list.data.records.map((c) => c.code)).toEqual(['DZ-CMCC-NB-MP1', 'DZ-CMCC-CAT1-MP2', 'DZ-CMCC-4G-PLUG']);
    const free = await one<{ n: number }>(server, "SELECT count(*)::int AS n FROM sim_card WHERE custom_code = 'DZ-CMCC-NB-MP1' AND state = 'in_stock' AND delivery_code IS NULL AND alter_code IS NULL");
    expect(list.data.records[0].stockCount).toBe(free.n);
    const options = await ok<Custom[]>(server, 'card.customCard.list', {}, t.operator);
    expect(options[0].label).toBe(`移动 NB-IoT 工业级贴片卡（DZ-CMCC-NB-MP1，可用库存 ${free.n}）`);
    expect(await codeOf(server, 'card.customCard.list', {}, t.tadmin)).toBe('403');
    expect((await page(server, 'card.customCard.page', t.tadmin)).code).toBe('403');
  });

  it('adds, changes and deletes a custom card; the supplier and package must match the operator', async () => {
    expect(await codeOf(server, 'card.customCard.insert', { card: custom({ supplierCode: 'SUP-CMIOT' }) }, t.operator)).toBe('400');
    expect(await codeOf(server, 'card.customCard.insert', { card: custom({ packageCode: 'FS-CMCC-NB-30' }) }, t.operator)).toBe('400');
    expect(await codeOf(server, 'card.customCard.insert', { card: custom({ formFactor: 'nano' }) }, t.operator)).toBe('400');
    const created = await ok<Custom>(server, 'card.customCard.insert', { card: custom() }, t.operator);
    expect(created).toMatchObject({ code: 'DZ-CTCC-5G-MP2', supplierName: '天翼物联科技有限公司', stockCount: 0, enabled: true });
    expect(await codeOf(server, 'card.customCard.insert', { card: custom() }, t.operator)).toBe('409');
    expect((await ok<Custom>(server, 'card.customCard.modify', { code: created.code, card: custom({ name: '电信 Cat.1 车规级贴片卡', enabled: false }) }, t.operator)).enabled).toBe(false);
    expect((await server.call('card.customCard.delete', { code: 'DZ-CMCC-NB-MP1' }, { token: t.operator })).message).toBe('该定制卡已有入库或订单，请改为停用');
    await ok(server, 'card.customCard.delete', { code: created.code }, t.operator);
    expect(await codeOf(server, 'card.customCard.detail', { code: created.code }, t.operator)).toBe('404');
    expect(await codeOf(server, 'card.customCard.delete', { code: 'DZ-CMCC-NB-MP1' }, t.tadmin)).toBe('403');
  });
});

interface Batch {
  code: string;
  quantity: number;
  inStock: number;
  iccidFirst: string;
  iccidLast: string;
}

describe('card.warehousing.*', () => {
  it('takes a run of consecutive ICCIDs into stock as one batch; a known ICCID refuses the run', async () => {
    const param = { customCode: 'DZ-CUCC-NB-PLUG', iccidStart: '89860126990000000001', quantity: 50, msisdnStart: '1460990000001', remark: '联通 2026 年第 4 批' };
    expect(await codeOf(server, 'card.warehousing.insert', { ...param, quantity: 5001 }, t.operator)).toBe('400');
    expect(await codeOf(server, 'card.warehousing.insert', { ...param, iccidStart: '12345' }, t.operator)).toBe('400');
    expect(await codeOf(server, 'card.warehousing.insert', param, t.tadmin)).toBe('403');
    const batch = await ok<Batch>(server, 'card.warehousing.insert', param, t.operator);
    expect(batch).toMatchObject({ quantity: 50, inStock: 50, iccidFirst: '89860126990000000001', iccidLast: '89860126990000000050' });
    const card = await one(server, "SELECT msisdn, imsi, state, operator, package_code, organization_code FROM sim_card WHERE iccid = '89860126990000000050'");
    expect(card).toEqual({ msisdn: '1460990000050', imsi: '460060000000050', state: 'in_stock', operator: 'cucc', package_code: 'FS-CUCC-NB-50', organization_code: 'P0001' });
    expect((await server.call('card.warehousing.insert', { ...param, iccidStart: '89860126990000000040', msisdnStart: '1460990000100' }, { token: t.operator })).message).toBe('ICCID 89860126990000000040 已入库');
    expect(await codeOf(server, 'card.warehousing.insert', { ...param, customCode: 'DZ-NONE' }, t.operator)).toBe('404');
  });

  it('imports a pasted list and an uploaded workbook', async () => {
    const text = '89860427990000000001\n89860427990000000002,1064899990002\n\n89860427990000000003';
    const pasted = await ok<Batch>(server, 'card.warehousing.import', { customCode: 'DZ-CMCC-4G-PLUG', iccidText: text }, t.operator);
    expect(pasted.quantity).toBe(3);
    expect(await one(server, "SELECT msisdn FROM sim_card WHERE iccid = '89860427990000000002'")).toEqual({ msisdn: '1064899990002' });
    expect(await one(server, "SELECT msisdn FROM sim_card WHERE iccid = '89860427990000000001'")).toEqual({ msisdn: '1064000000001' });
    expect((await server.call('card.warehousing.import', { customCode: 'DZ-CMCC-4G-PLUG', iccidText: '89860427990000000009\n12345' }, { token: t.operator })).message).toBe('参数错误：第 2 行 ICCID 12345 格式不正确');
    expect(await codeOf(server, 'card.warehousing.import', { customCode: 'DZ-CMCC-4G-PLUG', iccidText: 'abc' }, t.operator)).toBe('400');
    expect(await codeOf(server, 'card.warehousing.import', { customCode: 'DZ-CMCC-4G-PLUG' }, t.operator)).toBe('400');

    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('卡清单');
    sheet.addRow(['ICCID', 'MSISDN']);
    for (let i = 1; i <= 20; i += 1) sheet.addRow([`898611269900000000${String(i).padStart(2, '0')}`, `14119900000${String(i).padStart(2, '0')}`]);
    const fileUrl = await uploaded(server, '入库清单.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()), t.operator);
    const imported = await ok<Batch>(server, 'card.warehousing.import', { customCode: 'DZ-CTCC-CAT1-PLUG', fileUrl, remark: '电信样卡' }, t.operator);
    expect(imported).toMatchObject({ quantity: 20, iccidFirst: '89861126990000000001', iccidLast: '89861126990000000020' });
    expect(await codeOf(server, 'card.warehousing.import', { customCode: 'DZ-CTCC-CAT1-PLUG', fileUrl }, t.operator)).toBe('409');
  });

  it('lists batches, finds the batch of an ICCID, and exports', async () => {
    const list = await page<Batch>(server, 'card.warehousing.page', t.operator, { customCode: 'DZ-CMCC-NB-MP1' });
    expect(list.data.total).toBeGreaterThan(0);
    const { iccid, batch_code } = await one<{ iccid: string; batch_code: string }>(server, "SELECT iccid, batch_code FROM sim_card WHERE state = 'active' LIMIT 1");
    const found = await page<Batch>(server, 'card.warehousing.page', t.operator, { keyword: iccid });
    expect(found.data.records.map((b) => b.code)).toEqual([batch_code]);
    const rows = await sheetRows((await download(server, 'card.warehousing.export', { operator: 'ctcc' }, t.operator)).body);
    expect(rows[0].slice(0, 4)).toEqual(['入库单号', '定制卡', '供应商', '运营商']);
    expect(rows.slice(1).every((r) => r[3] === '中国电信')).toBe(true);
    expect((await download(server, 'card.warehousing.export', {}, t.tadmin)).envelope?.code).toBe('403');
    expect((await page(server, 'card.warehousing.page', t.operator, { operator: 'att' })).code).toBe('400');
  });
});

describe('card.dashboard.*', () => {
  const range = { startTime: '2026-01-01 00:00:00', endTime: '2026-12-31 23:59:59' };

  it('counts the cards by state for the working organisations', async () => {
    const platform = await ok<Record<string, number>>(server, 'card.dashboard.statistics', {}, t.admin);
    const tenant = await ok<Record<string, number>>(server, 'card.dashboard.statistics', {}, t.tadmin);
    const counted = await one<{ n: number }>(server, "SELECT count(*)::int AS n FROM sim_card WHERE tenant_code = 'T0001'");
    expect(tenant.totalCards).toBe(counted.n);
    expect(tenant.inStock).toBe(0);
    expect(platform.totalCards).toBeGreaterThan(tenant.totalCards + platform.inStock - 1);
    expect(await codeOf(server, 'card.dashboard.statistics', { startTime: 'yesterday' }, t.admin)).toBe('400');
    expect(await codeOf(server, 'card.dashboard.statistics', {}, t.tuser)).toBe('403');
  });

  it('charts data use, deliveries, purchases and revenue over the range', async () => {
    const flow = await ok<Array<{ day: string; usedGb: number }>>(server, 'card.dashboard.flowMonitor', {}, t.tadmin);
    expect(flow.length).toBeGreaterThanOrEqual(28);
    expect(flow.every((d) => d.usedGb > 0)).toBe(true);
    const top = await ok<Array<{ rank: number; monthUsedMb: number; tenantName: string }>>(server, 'card.dashboard.flowTop', {}, t.badmin);
    expect(top).toHaveLength(10);
    expect(top.every((c) => c.tenantName === '苏州智水环境科技有限公司')).toBe(true);
    expect(top.map((c) => c.monthUsedMb)).toEqual([...top.map((c) => c.monthUsedMb)].sort((a, b) => b - a));
    const bars = await ok<Array<{ month: string; cards: number }>>(server, 'card.dashboard.deliveryBar', range, t.admin);
    expect(bars.length).toBeGreaterThan(6);
    const shipped = await ok<{ shippedCards: number; ordersAwaitingDelivery: number }>(server, 'card.dashboard.deliveryStatistics', range, t.admin);
    expect(shipped.ordersAwaitingDelivery).toBe(4);
    expect(shipped.shippedCards).toBeGreaterThan(0);
    const pie = await ok<Array<{ operatorName: string; cards: number }>>(server, 'card.dashboard.purchasePie', { startTime: '2020-01-01', endTime: '2030-01-01' }, t.admin);
    expect(pie.map((p) => p.operatorName).sort()).toEqual(['中国电信', '中国移动', '中国联通']);
    expect(await ok(server, 'card.dashboard.purchasePie', {}, t.tadmin)).toEqual([]);
    const suppliers = await ok<Array<{ supplierName: string; cost: number }>>(server, 'card.dashboard.purchaseList', { startTime: '2020-01-01', endTime: '2030-01-01' }, t.operator);
    expect(suppliers[0].cost).toBeGreaterThan(0);
    expect((await ok<Array<{ month: string }>>(server, 'card.dashboard.purchaseBar', { startTime: '2020-01-01', endTime: '2030-01-01' }, t.operator)).length).toBeGreaterThan(0);
    const revenue = await ok<Array<{ month: string; orderAmount: number; rechargeAmount: number; totalAmount: number }>>(server, 'card.dashboard.revenueStatistics', {}, t.tadmin);
    expect(revenue.length).toBeGreaterThanOrEqual(12);
    expect(revenue.some((m) => m.rechargeAmount > 0)).toBe(true);
    for (const m of revenue) expect(m.totalAmount).toBeCloseTo(m.orderAmount + m.rechargeAmount + (m as unknown as { renewAmount: number }).renewAmount, 2);
  });

  it('rates order completion, grades tenants and ranks unpaid sales', async () => {
    const rate = await ok<{ total: number; completed: number; rate: number }>(server, 'card.dashboard.completeRate', {}, t.admin);
    expect(rate.rate).toBeCloseTo((rate.completed / rate.total) * 100, 0);
    const levels = await ok<Array<{ tenantCode: string; level: string }>>(server, 'card.dashboard.tenantLevel', {}, t.admin);
    expect(levels.map((l) => l.tenantCode).sort()).toEqual(['T0001', 'T0002']);
    expect(levels.every((l) => ['A', 'B', 'C'].includes(l.level))).toBe(true);
    expect((await ok<Array<{ tenantCode: string }>>(server, 'card.dashboard.tenantLevel', {}, t.badmin)).map((l) => l.tenantCode)).toEqual(['T0002']);
    const rank = await ok<Array<{ rank: number; unreceivedAmount: number }>>(server, 'card.dashboard.unreceivedSalesRank', {}, t.admin);
    expect(rank.length).toBeGreaterThan(0);
    expect(rank.map((r) => r.unreceivedAmount)).toEqual([...rank.map((r) => r.unreceivedAmount)].sort((a, b) => b - a));
    expect(await codeOf(server, 'card.dashboard.unreceivedSalesRank', { top: 3 }, t.admin)).toBe('400');
  });
});
