// Card orders and their deliveries (issue 7): the order book, the sales-system import, picking
// cards from stock, shipping, revoking and cancelling, and the tenant's confirmation of receipt.
// Every operation: its answer, invalid input ("400"), a state that refuses the action ("409"),
// and another tenant's record ("404") or a role without the right ("403").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderRecord } from '../../server/operations/cards/orders';
import { startServer, type TestServer } from './harness';
import { codeOf, download, ok, one, page, sheetRows, signIn, type Tokens } from './cards-helpers';

let server: TestServer;
let t: Tokens;

beforeAll(async () => {
  server = await startServer();
  t = await signIn(server);
});
afterAll(() => server.close());

const orderOf = (state: string, tenant: string) =>
  one<{ code: string; card_count: number; custom_code: string }>(server, 'SELECT code, card_count, custom_code FROM card_order WHERE state = $1 AND tenant_code = $2 ORDER BY id LIMIT 1', [state, tenant]);

interface Delivery {
  code: string;
  orderCode: string;
  state: string;
  cardCount: number;
  receiver: string;
  expressNo: string;
  orderState: string;
  remark: string;
}

describe('card.order.page and card.order.user.page', () => {
  it('shows a tenant its own orders only, platform staff every tenant’s', async () => {
    const mine = await page<OrderRecord>(server, 'card.order.page', t.tadmin, {}, { pageSize: 100 });
    expect(mine.code).toBe('200');
    expect(mine.data.total).toBeGreaterThan(50);
    expect(new Set(mine.data.records.map((r) => r.tenantCode))).toEqual(new Set(['T0001']));
    const all = await page<OrderRecord>(server, 'card.order.page', t.admin, {}, { pageSize: 500 });
    expect(new Set(all.data.records.map((r) => r.tenantCode))).toEqual(new Set(['T0001', 'T0002']));
    expect(all.data.total).toBeGreaterThan(mine.data.total);
  });

  it('filters by state and sorts on the server', async () => {
    const cancelled = await page<OrderRecord>(server, 'card.order.page', t.admin, { state: 'cancelled' });
    expect(cancelled.data.total).toBe(3);
    expect(cancelled.data.records.every((r) => r.state === 'cancelled' && r.cancelReason !== '')).toBe(true);
    const byAmount = await page<OrderRecord>(server, 'card.order.page', t.admin, {}, { sort: [{ field: 'amount', order: 'asc' }] });
    const amounts = byAmount.data.records.map((r) => r.amount ?? 0);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
  });

  it('refuses a state outside the dictionary and staff without the card menu', async () => {
    expect((await page(server, 'card.order.page', t.tadmin, { state: 'lost' })).code).toBe('400');
    expect((await page(server, 'card.order.page', t.tadmin, { keyword: 'x'.repeat(65) })).code).toBe('400');
    expect((await page(server, 'card.order.page', t.tuser)).code).toBe('403');
  });

  it('lists the orders awaiting the tenant’s confirmation, with who may confirm', async () => {
    const admin = await page<OrderRecord & { canConfirm: boolean }>(server, 'card.order.user.page', t.tadmin);
    expect(admin.data.records).toHaveLength(1);
    expect(admin.data.records[0]).toMatchObject({ state: 'pending_confirm', tenantCode: 'T0001', cardCount: 200, canConfirm: true });
    const ordinary = await page<OrderRecord & { canConfirm: boolean }>(server, 'card.order.user.page', t.tuser);
    expect(ordinary.data.records.map((r) => [r.code, r.canConfirm])).toEqual([[admin.data.records[0].code, false]]);
    expect((await page<OrderRecord>(server, 'card.order.user.page', t.badmin)).data.total).toBe(0);
  });
});

describe('card.order.detail, confirm, cancel and sync', () => {
  it('details an order with its deliveries and where its cards stand; another tenant’s is not found', async () => {
    const { code } = await orderOf('pending_confirm', 'T0001');
    const detail = await ok<OrderRecord & { deliveries: Delivery[]; cardStates: Array<{ state: string; cardCount: number }> }>(server, 'card.order.detail', { code }, t.tadmin);
    expect(detail.deliveries).toHaveLength(1);
    expect(detail.deliveries[0]).toMatchObject({ state: 'shipped', cardCount: 200 });
    expect(detail.cardStates).toEqual([{ state: 'testing', cardCount: 200 }]);
    expect(await codeOf(server, 'card.order.detail', { code }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'card.order.detail', { code: 'CO 1' }, t.tadmin)).toBe('400');
    expect(await codeOf(server, 'card.order.detail', {}, t.tadmin)).toBe('400');
  });

  it('lets the tenant admin confirm receipt once; the delivery is received and the start-up notice ends', async () => {
    const { code } = await orderOf('pending_confirm', 'T0001');
    expect(await codeOf(server, 'card.order.confirm', { code }, t.tuser)).toBe('403');
    expect(await codeOf(server, 'card.order.confirm', { code }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'card.order.confirm', { code, extra: 1 }, t.tadmin)).toBe('400');
    const confirmed = await ok<OrderRecord>(server, 'card.order.confirm', { code }, t.tadmin);
    expect(confirmed).toMatchObject({ state: 'confirmed', confirmedBy: 'tadmin' });
    expect(await one(server, 'SELECT state FROM card_delivery WHERE order_code = $1', [code])).toEqual({ state: 'received' });
    const again = await server.call('card.order.confirm', { code }, { token: t.tadmin });
    expect(again).toMatchObject({ code: '409', message: '当前状态（已确认）不允许确认' });
    expect((await server.call('card.order.isBulletBox', {}, { token: t.tadmin })).data).toBe('0');
  });

  it('cancels an order not yet delivered, and nothing else', async () => {
    const waiting = await orderOf('pending_delivery', 'T0001');
    expect(await codeOf(server, 'card.order.cancel', { code: waiting.code, reason: '<b>改期</b>' }, t.tadmin)).toBe('400');
    expect(await codeOf(server, 'card.order.cancel', { code: waiting.code }, t.badmin)).toBe('404');
    const cancelled = await ok<OrderRecord>(server, 'card.order.cancel', { code: waiting.code, reason: '项目推迟到明年' }, t.tadmin);
    expect(cancelled).toMatchObject({ state: 'cancelled', cancelReason: '项目推迟到明年' });
    expect(await codeOf(server, 'card.order.cancel', { code: waiting.code }, t.tadmin)).toBe('409');
    const delivering = await orderOf('delivering', 'T0001');
    expect((await server.call('card.order.cancel', { code: delivering.code }, { token: t.tadmin })).message).toBe('当前状态（发货中）不允许取消');
  });

  it('completes a confirmed order once none of its cards is in its test period (platform staff only)', async () => {
    const done = await one<{ code: string }>(
      server,
      `SELECT o.code FROM card_order o WHERE o.state = 'confirmed' AND NOT EXISTS (SELECT 1 FROM sim_card s WHERE s.order_code = o.code AND s.state = 'testing') ORDER BY o.id LIMIT 1`,
    );
    expect(await codeOf(server, 'card.order.sync', { code: done.code }, t.tadmin)).toBe('403');
    const synced = await ok<OrderRecord>(server, 'card.order.sync', { code: done.code }, t.operator);
    expect(synced.state).toBe('completed');
    expect(synced.completeTime).not.toBeNull();
    const testing = await one<{ code: string }>(
      server,
      `SELECT o.code FROM card_order o WHERE o.state = 'confirmed' AND EXISTS (SELECT 1 FROM sim_card s WHERE s.order_code = o.code AND s.state = 'testing' AND s.test_until > now() + interval '1 day') LIMIT 1`,
    );
    expect((await ok<OrderRecord>(server, 'card.order.sync', { code: testing.code }, t.operator)).state).toBe('confirmed');
    const cancelled = await orderOf('cancelled', 'T0002');
    expect(await codeOf(server, 'card.order.sync', { code: cancelled.code }, t.operator)).toBe('409');
    expect((await ok<{ orderSyncTime: string }>(server, 'card.syncTime.get', {}, t.tadmin)).orderSyncTime).not.toBeNull();
  });

  it('exports the tenant’s orders as a real workbook', async () => {
    const file = await download(server, 'card.order.export', { state: 'completed' }, t.badmin);
    expect(file.status).toBe(200);
    expect(file.fileName).toMatch(/^卡订单-\d{8}\.xlsx$/);
    const rows = await sheetRows(file.body);
    expect(rows[0].slice(0, 3)).toEqual(['订单编号', '销售订单号', '租户']);
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.slice(1).every((row) => row[2] === '苏州智水环境科技有限公司' && row[11] === '已完成')).toBe(true);
    expect((await download(server, 'card.order.export', { state: 'nope' }, t.badmin)).envelope?.code).toBe('400');
  });
});

describe('card.saleOrder.sync, card.syncTime.get and card.supplier.list', () => {
  it('imports the signed sale orders once, as orders awaiting delivery', async () => {
    expect(await codeOf(server, 'card.saleOrder.sync', {}, t.tadmin)).toBe('403');
    expect(await codeOf(server, 'card.saleOrder.sync', { all: true }, t.operator)).toBe('400');
    const first = await ok<{ imported: number; codes: string[] }>(server, 'card.saleOrder.sync', {}, t.operator);
    expect(first.imported).toBe(4);
    const imported = await server.db.query<{ state: string; tenant_code: string; sale_order_code: string }>('SELECT state, tenant_code, sale_order_code FROM card_order WHERE code = ANY($1::text[])', [first.codes]);
    expect(imported.every((o) => o.state === 'pending_delivery' && o.sale_order_code)).toBe(true);
    expect(imported.map((o) => o.tenant_code).sort()).toEqual(['T0001', 'T0001', 'T0002', 'T0002']);
    expect((await ok<{ imported: number }>(server, 'card.saleOrder.sync', {}, t.operator)).imported).toBe(0);
    const times = await ok<{ saleOrderSyncTime: string; records: Array<{ kind: string; syncedBy: string }> }>(server, 'card.syncTime.get', {}, t.admin);
    expect(Date.now() - new Date(times.saleOrderSyncTime).getTime()).toBeLessThan(60_000);
    expect(times.records.find((r) => r.kind === 'sale_order')?.syncedBy).toBe('operator');
    expect(await codeOf(server, 'card.syncTime.get', { kind: 'sim' }, t.admin)).toBe('400');
  });

  it('lists the card suppliers to card staff', async () => {
    const suppliers = await ok<Array<{ code: string; operatorName: string }>>(server, 'card.supplier.list', {}, t.tadmin);
    expect(suppliers.map((s) => s.code)).toContain('SUP-CMIOT');
    expect(suppliers.find((s) => s.code === 'SUP-CMIOT')?.operatorName).toBe('中国移动');
    expect(await codeOf(server, 'card.supplier.list', {}, t.tuser)).toBe('403');
    expect(await codeOf(server, 'card.supplier.list', { operator: 'cmcc' }, t.tadmin)).toBe('400');
  });
});

describe('deliveries: generate, ship, revoke, cancel and the tenant’s confirmation', () => {
  const freeStock = async (custom: string) =>
    (await one<{ n: number }>(server, "SELECT count(*)::int AS n FROM sim_card WHERE custom_code = $1 AND state = 'in_stock' AND delivery_code IS NULL AND alter_code IS NULL", [custom])).n;

  it('offers the orders awaiting delivery and their customer, to platform staff only', async () => {
    const sales = await ok<Array<{ orderCode: string; label: string; availableStock: number }>>(server, 'card.delivery.salesList', {}, t.operator);
    const waiting = await orderOf('pending_delivery', 'T0002');
    expect(sales.map((s) => s.orderCode)).toContain(waiting.code);
    expect(sales.find((s) => s.orderCode === waiting.code)?.label).toContain('苏州智水环境科技有限公司');
    const info = await ok<{ tenantName: string; receiver: string; availableStock: number }>(server, 'card.delivery.customInfo', { orderCode: waiting.code }, t.operator);
    expect(info).toMatchObject({ tenantName: '苏州智水环境科技有限公司', receiver: '陈静' });
    expect(info.availableStock).toBe(await freeStock(waiting.custom_code));
    expect(await codeOf(server, 'card.delivery.salesList', {}, t.tadmin)).toBe('403');
    expect(await codeOf(server, 'card.delivery.customInfo', { orderCode: waiting.code }, t.badmin)).toBe('403');
    expect(await codeOf(server, 'card.delivery.customInfo', { orderCode: 'CO2099010100001' }, t.operator)).toBe('404');
  });

  it('walks an order from its delivery to the tenant’s confirmation, through a revoked shipment', async () => {
    const order = await orderOf('pending_delivery', 'T0002');
    const before = await freeStock(order.custom_code);
    expect(await codeOf(server, 'card.delivery.generate', { orderCode: order.code, receiverPhone: '123' }, t.operator)).toBe('400');
    expect(await codeOf(server, 'card.delivery.generate', { orderCode: order.code }, t.badmin)).toBe('403');

    const created = await ok<Delivery>(server, 'card.delivery.generate', { orderCode: order.code, remark: '加急' }, t.operator);
    expect(created).toMatchObject({ state: 'created', orderCode: order.code, cardCount: order.card_count, receiver: '陈静', orderState: 'delivering' });
    expect(await freeStock(order.custom_code)).toBe(before - order.card_count);
    expect(await codeOf(server, 'card.delivery.generate', { orderCode: order.code }, t.operator)).toBe('409');

    expect(await codeOf(server, 'card.delivery.update', { code: created.code, receiver: '李工', receiverPhone: '13912345678', address: '苏州市吴中区', expressNo: 'SF 123' }, t.operator)).toBe('400');
    const updated = await ok<Delivery>(server, 'card.delivery.update', { code: created.code, receiver: '李工', receiverPhone: '13912345678', address: '苏州市吴中区东山大道 8 号' }, t.operator);
    expect(updated.receiver).toBe('李工');

    expect(await codeOf(server, 'card.delivery.revoke', { code: created.code, reason: '发错' }, t.operator)).toBe('409');
    const shipped = await ok<Delivery>(server, 'card.delivery.confirm', { code: created.code, expressCompany: 'sf', expressNo: 'SF1234567890' }, t.operator);
    expect(shipped).toMatchObject({ state: 'shipped', expressNo: 'SF1234567890', orderState: 'pending_confirm' });
    const cards = await server.db.query<{ state: string; tenant_code: string }>('SELECT DISTINCT state, tenant_code FROM sim_card WHERE delivery_code = $1', [created.code]);
    expect(cards).toEqual([{ state: 'testing', tenant_code: 'T0002' }]);
    expect((await server.call('card.order.isBulletBox', {}, { token: t.badmin })).data).toBe('1');
    expect(await codeOf(server, 'card.delivery.update', { code: created.code, receiver: '李工', receiverPhone: '13912345678', address: '苏州' }, t.operator)).toBe('409');

    // Wrong cards went out: recalled before the tenant confirmed; the order waits again.
    const revoked = await ok<Delivery>(server, 'card.delivery.revoke', { code: created.code, reason: '卡型错误，召回重发' }, t.operator);
    expect(revoked).toMatchObject({ state: 'revoked', orderState: 'pending_delivery' });
    expect(await freeStock(order.custom_code)).toBe(before);
    expect((await server.call('card.order.isBulletBox', {}, { token: t.badmin })).data).toBe('0');

    const second = await ok<Delivery>(server, 'card.delivery.generate', { orderCode: order.code }, t.operator);
    await ok(server, 'card.delivery.confirm', { code: second.code, expressCompany: 'jd', expressNo: 'JDVA0012345678' }, t.operator);
    await ok(server, 'card.order.confirm', { code: order.code }, t.badmin);
    const received = await ok<Delivery>(server, 'card.delivery.detail', { code: second.code }, t.operator);
    expect(received).toMatchObject({ state: 'received', orderState: 'confirmed' });
    expect((await server.call('card.delivery.revoke', { code: second.code, reason: '再撤回' }, { token: t.operator })).message).toBe('当前状态（已签收）不允许撤回');
  });

  it('cancels a delivery not yet shipped: its cards go back to stock', async () => {
    const order = await orderOf('pending_delivery', 'T0001');
    const before = await freeStock(order.custom_code);
    const created = await ok<Delivery>(server, 'card.delivery.generate', { orderCode: order.code }, t.admin);
    expect(await codeOf(server, 'card.delivery.cancel', { code: created.code }, t.tadmin)).toBe('403');
    const cancelled = await ok<Delivery>(server, 'card.delivery.cancel', { code: created.code }, t.admin);
    expect(cancelled).toMatchObject({ state: 'cancelled', orderState: 'pending_delivery' });
    expect(await freeStock(order.custom_code)).toBe(before);
    expect(await codeOf(server, 'card.delivery.cancel', { code: created.code }, t.admin)).toBe('409');
    expect(await codeOf(server, 'card.delivery.cancel', { code: 'FH2099010100001' }, t.admin)).toBe('404');
  });

  it('refuses a delivery when the stock is short', async () => {
    const order = await orderOf('pending_delivery', 'T0001');
    await server.db.query("UPDATE sim_card SET delivery_code = 'HOLD' WHERE custom_code = $1 AND state = 'in_stock' AND delivery_code IS NULL", [order.custom_code]);
    const reply = await server.call('card.delivery.generate', { orderCode: order.code }, { token: t.admin });
    expect(reply).toMatchObject({ code: '409', message: `库存不足：需要 ${order.card_count} 张，可用 0 张` });
    await server.db.query("UPDATE sim_card SET delivery_code = NULL WHERE delivery_code = 'HOLD'");
  });

  it('keeps a remark, details a delivery with its cards and trace, and exports its cards', async () => {
    const { code } = await one<{ code: string }>(server, "SELECT code FROM card_delivery WHERE state = 'received' ORDER BY id LIMIT 1");
    expect(await codeOf(server, 'card.delivery.remark', { code, remark: '<script>' }, t.operator)).toBe('400');
    expect((await ok<Delivery>(server, 'card.delivery.remark', { code, remark: '客户已签收，回单已归档' }, t.operator)).remark).toBe('客户已签收，回单已归档');
    const detail = await ok<Delivery & { items: Array<{ iccid: string }> }>(server, 'card.delivery.detail', { code }, t.operator);
    expect(detail.items.length).toBe(Math.min(detail.cardCount, 500));
    const fusion = await ok<{ order: OrderRecord; trace: Array<{ event: string }> }>(server, 'card.delivery.fusionDetail', { code }, t.operator);
    expect(fusion.order.code).toBe(detail.orderCode);
    expect(fusion.trace.map((e) => e.event).join(' ')).toContain('已签收');
    const file = await download(server, 'card.delivery.batchExport', { codes: [code] }, t.operator);
    const rows = await sheetRows(file.body);
    expect(rows[0].slice(0, 4)).toEqual(['发货单号', '订单编号', '租户', 'ICCID']);
    expect(rows.length - 1).toBe(detail.cardCount);
    expect(new Set(rows.slice(1).map((r) => r[0]))).toEqual(new Set([code]));
    expect((await download(server, 'card.delivery.batchExport', { codes: ['x'] }, t.operator)).envelope?.code).toBe('400');
    expect((await download(server, 'card.delivery.batchExport', {}, t.tadmin)).envelope?.code).toBe('403');
  });

  it('lists deliveries with filters, to platform staff', async () => {
    const shipped = await page<Delivery>(server, 'card.delivery.page', t.operator, { state: 'received' }, { sort: [{ field: 'cardCount', order: 'desc' }] });
    expect(shipped.data.total).toBeGreaterThan(100);
    const counts = shipped.data.records.map((d) => d.cardCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect((await page(server, 'card.delivery.page', t.tadmin)).code).toBe('403');
    expect((await page(server, 'card.delivery.page', t.operator, { state: 'lost' })).code).toBe('400');
  });
});
