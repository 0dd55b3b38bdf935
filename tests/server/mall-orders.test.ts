// The mall's orders (issue 7): a tenant's addresses, the preview and submission of an order with
// its server-computed amounts, the simulated payment and pay.query, cancelling (closed or
// refunded, the stock given back), shipping with a tracking number (the IoT cards leave the card
// stock), receipt, the tracking history, the order's cards, the lists and the export.
// Every operation: its answer, invalid input ("400"), a state that refuses the action ("409"),
// another tenant's record ("404") and a role without the button ("403").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressRecord } from '../../server/operations/mall/addresses';
import type { MallOrderRecord } from '../../server/operations/mall/orders';
import { codeOf, download, ok, one, page, sheetRows, signIn, type Tokens } from './cards-helpers';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let t: Tokens;

beforeAll(async () => {
  server = await startServer();
  t = await signIn(server);
});
afterAll(() => server.close());

type Order = MallOrderRecord & {
  canPay: boolean;
  canCancel: boolean;
  canConfirmReceipt: boolean;
  canApplyInvoice: boolean;
  canShip: boolean;
  items: Array<{ goodsCode: string; quantity: number; unitPrice: number; amount: number }>;
};
interface Preview {
  items: Array<{ goodsCode: string; unitPrice: number; quantity: number; amount: number }>;
  goodsAmount: number;
  discountAmount: number;
  freightAmount: number;
  payAmount: number;
  discount: { code: string; amount: number } | null;
  discounts: Array<{ code: string; amount: number; ruleText: string }>;
  address: AddressRecord | null;
}
interface Payment {
  orderCode: string;
  payState: string;
  paid: boolean;
  payMethod: string;
  payNo: string;
  payAmount: number;
}

const WATER_METER = 'GD00001'; // ¥368, 智能水表限时 9 折 running, ¥30 freight
const defaultAddress = (tenant: string) => one<{ id: number }>(server, 'SELECT id FROM mall_address WHERE tenant_code = $1 AND is_default', [tenant]);
const stockOf = async (code: string) => (await one<{ stock: number; sales: number }>(server, 'SELECT stock, sales FROM mall_goods WHERE code = $1', [code]));
const orderOf = (state: string, tenant: string) =>
  one<{ code: string }>(server, `SELECT code FROM mall_order WHERE state = $1 AND tenant_code = $2 AND NOT EXISTS (SELECT 1 FROM invoice v WHERE v.order_code = mall_order.code) ORDER BY id LIMIT 1`, [state, tenant]);

/** Places a fresh order as tadmin and answers it. */
async function placeOrder(items: Array<{ goodsCode: string; quantity: number }>, extra: Record<string, unknown> = {}): Promise<Order> {
  const address = await defaultAddress('T0001');
  return ok<Order>(server, 'mall.order.submit', { items, addressId: address.id, discountCode: '', ...extra }, t.tadmin);
}

describe('mall.address.*: a tenant’s delivery addresses', () => {
  it('lists the tenant’s own addresses, the default first; platform staff and ordinary users have none to see', async () => {
    const list = await ok<AddressRecord[]>(server, 'mall.address.list', {}, t.tadmin);
    expect(list.length).toBe(5);
    expect(list[0]).toMatchObject({ isDefault: true, receiver: '张伟', phone: '13857112345' });
    expect(list.filter((a) => a.isDefault)).toHaveLength(1);
    expect(JSON.stringify(await ok(server, 'mall.address.list', {}, t.badmin))).not.toContain('张伟');
    expect(await codeOf(server, 'mall.address.list', {}, t.operator)).toBe('403');
    expect(await codeOf(server, 'mall.address.list', {}, t.tuser)).toBe('403');
    const paged = await page<AddressRecord>(server, 'mall.address.page', t.tadmin, { keyword: '泵站' });
    expect(paged.data.records.map((a) => a.receiver)).toEqual(['李强']);
    expect((await page(server, 'mall.address.page', t.tadmin, { keyword: 'x'.repeat(65) })).code).toBe('400');
  });

  it('adds an address (SPEC §5 phone rule), makes one default, and refuses another tenant’s', async () => {
    const bad = await server.call('mall.address.insert', { address: { receiver: '刘洋', phone: '12345678901', region: '浙江省 杭州市 滨江区', detail: '江南大道 3888 号' } }, { token: t.tadmin });
    expect(bad).toMatchObject({ code: '400', message: '参数错误：address.phone（格式不正确）' });
    expect(await codeOf(server, 'mall.address.insert', { address: { receiver: '<b>刘洋</b>', phone: '13700001111', region: '浙江省', detail: '江南大道' } }, t.tadmin)).toBe('400');
    expect(await codeOf(server, 'mall.address.insert', { address: { receiver: '刘洋', phone: '13700001111', region: '浙江省', detail: '江南大道' } }, t.tuser)).toBe('403');
    const added = await ok<AddressRecord>(
      server,
      'mall.address.insert',
      { address: { receiver: '刘洋', phone: '13700001111', region: '浙江省 杭州市 滨江区', detail: '江南大道 3888 号', postcode: '310051', isDefault: true } },
      t.tadmin,
    );
    expect(added).toMatchObject({ receiver: '刘洋', isDefault: true, fullAddress: '浙江省 杭州市 滨江区 江南大道 3888 号' });
    const list = await ok<AddressRecord[]>(server, 'mall.address.list', {}, t.tadmin);
    expect(list[0].id).toBe(added.id);
    expect(list.filter((a) => a.isDefault)).toHaveLength(1);
    expect(await codeOf(server, 'mall.address.detail', { id: added.id }, t.badmin)).toBe('404');
    expect((await ok<AddressRecord>(server, 'mall.address.detail', { id: added.id }, t.tadmin)).phone).toBe('13700001111');
    expect(await codeOf(server, 'mall.address.detail', { id: 'one' }, t.tadmin)).toBe('400');

    const modified = await ok<AddressRecord>(server, 'mall.address.modify', { id: added.id, address: { receiver: '刘洋', phone: '13700002222', region: '浙江省 杭州市 滨江区', detail: '江南大道 3900 号' } }, t.tadmin);
    expect(modified).toMatchObject({ phone: '13700002222', isDefault: true });
    expect(await codeOf(server, 'mall.address.modify', { id: added.id, address: { receiver: '刘洋', phone: '1370000', region: '浙江省', detail: '江南大道' } }, t.tadmin)).toBe('400');
    expect(await codeOf(server, 'mall.address.modify', { id: added.id, address: { receiver: '刘洋', phone: '13700002222', region: '江苏省', detail: '星湖街' } }, t.badmin)).toBe('404');

    // Already the default: nothing to move.
    expect(await server.call('mall.address.setDefault', { id: added.id }, { token: t.tadmin })).toMatchObject({ code: '409', message: '该地址已是默认地址' });
    const other = list.find((a) => !a.isDefault)!;
    expect(await codeOf(server, 'mall.address.setDefault', { id: other.id }, t.badmin)).toBe('404');
    expect((await ok<AddressRecord>(server, 'mall.address.setDefault', { id: other.id }, t.tadmin)).isDefault).toBe(true);
    expect(await codeOf(server, 'mall.address.setDefault', { id: other.id, extra: 1 }, t.tadmin)).toBe('400');

    // Deleting the default hands it on.
    expect(await codeOf(server, 'mall.address.delete', { id: other.id }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'mall.address.delete', { id: other.id }, t.tuser)).toBe('403');
    await ok(server, 'mall.address.delete', { id: other.id }, t.tadmin);
    const after = await ok<AddressRecord[]>(server, 'mall.address.list', {}, t.tadmin);
    expect(after.some((a) => a.id === other.id)).toBe(false);
    expect(after.filter((a) => a.isDefault)).toHaveLength(1);
    expect(await codeOf(server, 'mall.address.delete', { id: other.id }, t.tadmin)).toBe('404');
  });
});

describe('mall.order.preview and submit: the server prices the order', () => {
  it('applies the largest saving by default, the one chosen, or none; the freight goes once the order is large', async () => {
    const two = await ok<Preview>(server, 'mall.order.preview', { items: [{ goodsCode: WATER_METER, quantity: 2 }] }, t.tadmin);
    expect(two).toMatchObject({ goodsAmount: 736, discountAmount: 73.6, freightAmount: 30, payAmount: 692.4 });
    expect(two.discount?.code).toBe('YH00006');
    expect(two.discounts[0]).toMatchObject({ code: 'YH00006', ruleText: '指定商品9折' });
    expect(two.address).toMatchObject({ isDefault: true });
    const none = await ok<Preview>(server, 'mall.order.preview', { items: [{ goodsCode: WATER_METER, quantity: 2 }], discountCode: '' }, t.tadmin);
    expect(none).toMatchObject({ discountAmount: 0, payAmount: 766, discount: null });
    const large = await ok<Preview>(server, 'mall.order.preview', { items: [{ goodsCode: WATER_METER, quantity: 30 }] }, t.tadmin);
    // 30 × 368 = 11040: 满10000减1200 saves more than the 9 折 (1104), and the freight goes.
    expect(large).toMatchObject({ goodsAmount: 11040, discountAmount: 1200, freightAmount: 0, payAmount: 9840 });
    expect(large.discounts.map((d) => d.code)).toEqual(['YH00005', 'YH00006']);
  });

  it('refuses bad input, a discount that does not apply, goods off the shelf or short of stock, and platform staff', async () => {
    expect(await server.call('mall.order.preview', { items: [{ goodsCode: WATER_METER, quantity: 0 }] }, { token: t.tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：items.0.quantity（超出允许范围）',
    });
    expect(await codeOf(server, 'mall.order.preview', { items: [] }, t.tadmin)).toBe('400');
    expect(await codeOf(server, 'mall.order.preview', { items: [{ goodsCode: WATER_METER, quantity: 1 }, { goodsCode: WATER_METER, quantity: 2 }] }, t.tadmin)).toBe('400');
    expect(await server.call('mall.order.preview', { items: [{ goodsCode: WATER_METER, quantity: 1 }], discountCode: 'YH00005' }, { token: t.tadmin })).toMatchObject({
      code: '409',
      message: '所选优惠不适用于当前订单，请重新选择',
    });
    expect(await server.call('mall.order.preview', { items: [{ goodsCode: 'GD00016', quantity: 1 }] }, { token: t.tadmin })).toMatchObject({ code: '409', message: '商品「LoRa 室外网关」已下架' });
    expect(await server.call('mall.order.preview', { items: [{ goodsCode: 'GD00015', quantity: 5 }] }, { token: t.tadmin })).toMatchObject({
      code: '409',
      message: '商品「噪声扬尘监测仪」库存不足（剩余 3套）',
    });
    expect(await codeOf(server, 'mall.order.preview', { items: [{ goodsCode: WATER_METER, quantity: 1 }] }, t.operator)).toBe('403');
    expect(await codeOf(server, 'mall.order.preview', { items: [{ goodsCode: WATER_METER, quantity: 1 }] }, t.tuser)).toBe('403');
  });

  it('submits an order awaiting payment with its stock taken, the address copied in', async () => {
    const before = await stockOf(WATER_METER);
    const address = await defaultAddress('T0001');
    const order = await ok<Order>(server, 'mall.order.submit', { items: [{ goodsCode: WATER_METER, quantity: 3 }], addressId: address.id, remark: '请工作日送货', expectedPayAmount: 1023.6 }, t.tadmin);
    expect(order).toMatchObject({ state: 'pending_payment', tenantCode: 'T0001', payAmount: 1023.6, discountCode: 'YH00006', remark: '请工作日送货', buyer: 'tadmin', canPay: true, canCancel: true });
    expect(order.code).toMatch(/^MO\d{13}$/);
    expect(order.items).toEqual([expect.objectContaining({ goodsCode: WATER_METER, quantity: 3, unitPrice: 368, amount: 1104 })]);
    expect(new Date(order.payDeadline!).getTime() - new Date(order.createTime!).getTime()).toBe(24 * 3_600_000);
    expect((await stockOf(WATER_METER)).stock).toBe(before.stock - 3);
  });

  it('refuses a changed amount, another tenant’s address, a role without the button and bad input', async () => {
    const address = await defaultAddress('T0001');
    expect(await server.call('mall.order.submit', { items: [{ goodsCode: WATER_METER, quantity: 3 }], addressId: address.id, expectedPayAmount: 1000 }, { token: t.tadmin })).toMatchObject({
      code: '409',
      message: '订单金额已变化（应付 ¥1023.6），请重新确认订单',
    });
    expect(await server.call('mall.order.submit', { items: [{ goodsCode: WATER_METER, quantity: 1 }], addressId: address.id }, { token: t.badmin })).toMatchObject({ code: '404', message: '收货地址不存在' });
    expect(await codeOf(server, 'mall.order.submit', { items: [{ goodsCode: WATER_METER, quantity: 1 }], addressId: address.id }, t.tuser)).toBe('403');
    expect(await codeOf(server, 'mall.order.submit', { items: [{ goodsCode: WATER_METER, quantity: 1 }], addressId: address.id }, t.operator)).toBe('403');
    expect(await server.call('mall.order.submit', { items: [{ goodsCode: WATER_METER, quantity: 1 }] }, { token: t.tadmin })).toMatchObject({ code: '400', message: '参数错误：addressId（不能为空）' });
    expect(await codeOf(server, 'mall.order.submit', { items: [{ goodsCode: WATER_METER, quantity: 1 }], addressId: address.id, remark: '<script>' }, t.tadmin)).toBe('400');
  });
});

describe('mall.order.pay and pay.query: the simulated payment', () => {
  it('pays a pending order once; pay.query reports it; the goods count it as sold', async () => {
    const order = await placeOrder([{ goodsCode: WATER_METER, quantity: 2 }]);
    expect((await ok<Payment>(server, 'pay.query', { code: order.code }, t.tadmin))).toMatchObject({ payState: 'unpaid', paid: false, payNo: '' });
    const sales = (await stockOf(WATER_METER)).sales;
    expect(await server.call('mall.order.pay', { code: order.code, payMethod: 'cash' }, { token: t.tadmin })).toMatchObject({ code: '400', message: '参数错误：payMethod（取值不在允许范围内）' });
    expect(await codeOf(server, 'mall.order.pay', { code: order.code, payMethod: 'wechat' }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'mall.order.pay', { code: order.code, payMethod: 'wechat' }, t.tuser)).toBe('403');
    expect(await codeOf(server, 'mall.order.pay', { code: order.code, payMethod: 'wechat' }, t.operator)).toBe('403');
    const paid = await ok<Payment>(server, 'mall.order.pay', { code: order.code, payMethod: 'wechat' }, t.tadmin);
    expect(paid).toMatchObject({ orderCode: order.code, payState: 'paid', paid: true, payMethod: 'wechat', payAmount: 766 });
    expect(paid.payNo).toMatch(/^4200\d{24}$/);
    expect((await ok<Payment>(server, 'pay.query', { code: order.code }, t.tadmin)).payNo).toBe(paid.payNo);
    expect((await stockOf(WATER_METER)).sales).toBe(sales + 2);
    expect(await server.call('mall.order.pay', { code: order.code, payMethod: 'alipay' }, { token: t.tadmin })).toMatchObject({ code: '409', message: '当前状态（已付款）不允许支付' });
  });

  it('pay.query refuses bad input and another tenant’s order', async () => {
    const { code } = await orderOf('completed', 'T0001');
    expect((await ok<Payment>(server, 'pay.query', { code }, t.tadmin)).payState).toBe('paid');
    expect((await ok<Payment>(server, 'pay.query', { code }, t.operator)).paid).toBe(true);
    expect(await codeOf(server, 'pay.query', { code }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'pay.query', { code: 'MO1' }, t.tadmin)).toBe('400');
    expect(await codeOf(server, 'pay.query', { code }, t.tuser)).toBe('403');
    const refunded = await orderOf('refunded', 'T0002');
    expect((await ok<Payment>(server, 'pay.query', { code: refunded.code }, t.badmin)).payState).toBe('refunded');
  });
});

describe('mall.order.cancel: closed before payment, refunded after, never once shipped', () => {
  it('closes an unpaid order and gives its stock back', async () => {
    const order = await placeOrder([{ goodsCode: 'GD00009', quantity: 50 }]);
    const before = await stockOf('GD00009');
    expect(await codeOf(server, 'mall.order.cancel', { code: order.code }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'mall.order.cancel', { code: order.code }, t.tuser)).toBe('403');
    expect(await codeOf(server, 'mall.order.cancel', { code: order.code, reason: 'x'.repeat(201) }, t.tadmin)).toBe('400');
    const cancelled = await ok<Order>(server, 'mall.order.cancel', { code: order.code, reason: '下错规格，重新下单' }, t.tadmin);
    expect(cancelled).toMatchObject({ state: 'cancelled', cancelReason: '下错规格，重新下单', cancelledBy: 'tadmin', canCancel: false, canPay: false });
    expect((await stockOf('GD00009')).stock).toBe(before.stock + 50);
    expect(await server.call('mall.order.cancel', { code: order.code }, { token: t.tadmin })).toMatchObject({ code: '409', message: '当前状态（已取消）不允许取消' });
  });

  it('refunds a paid order (the platform may too); a shipped one stays', async () => {
    const order = await placeOrder([{ goodsCode: 'GD00008', quantity: 20 }]);
    await ok(server, 'mall.order.pay', { code: order.code, payMethod: 'alipay' }, t.tadmin);
    const before = await stockOf('GD00008');
    const refunded = await ok<Order>(server, 'mall.order.cancel', { code: order.code }, t.admin);
    expect(refunded).toMatchObject({ state: 'refunded', cancelReason: '平台取消' });
    expect(refunded.refundTime).not.toBeNull();
    expect(await stockOf('GD00008')).toEqual({ stock: before.stock + 20, sales: before.sales - 20 });
    expect((await ok<Payment>(server, 'pay.query', { code: order.code }, t.tadmin)).payState).toBe('refunded');

    const shipped = await orderOf('shipped', 'T0001');
    expect(await server.call('mall.order.cancel', { code: shipped.code }, { token: t.tadmin })).toMatchObject({ code: '409', message: '当前状态（已发货）不允许取消' });
  });
});

describe('mall.order.ship, confirmReceipt, expressInfo and device.orderCard.get', () => {
  it('ships a paid order with a tracking number; its devices’ cards leave the card stock for the tenant', async () => {
    const order = await placeOrder([{ goodsCode: 'GD00010', quantity: 2 }, { goodsCode: 'GD00023', quantity: 2 }]);
    expect(await server.call('mall.order.ship', { code: order.code, expressCompany: 'sf', expressNo: 'SF1402938475612' }, { token: t.operator })).toMatchObject({
      code: '409',
      message: '当前状态（待付款）不允许发货',
    });
    await ok(server, 'mall.order.pay', { code: order.code, payMethod: 'wechat' }, t.tadmin);
    // SPEC §5: letters, digits and commas only.
    expect(await server.call('mall.order.ship', { code: order.code, expressCompany: 'sf', expressNo: 'SF 1402938475612' }, { token: t.operator })).toMatchObject({
      code: '400',
      message: '参数错误：expressNo（格式不正确）',
    });
    expect(await codeOf(server, 'mall.order.ship', { code: order.code, expressCompany: 'ups', expressNo: 'SF1402938475612' }, t.operator)).toBe('400');
    expect(await codeOf(server, 'mall.order.ship', { code: order.code, expressCompany: 'sf', expressNo: 'SF1402938475612' }, t.tadmin)).toBe('403');
    const inStock = await one<{ n: number }>(server, `SELECT count(*)::int AS n FROM sim_card WHERE custom_code = 'DZ-CUCC-4G-PLUG' AND state = 'in_stock'`);
    const shipped = await ok<Order>(server, 'mall.order.ship', { code: order.code, expressCompany: 'sf', expressNo: 'SF1402938475612,SF1402938475613' }, t.operator);
    expect(shipped).toMatchObject({ state: 'shipped', expressCompany: 'sf', expressNo: 'SF1402938475612,SF1402938475613', shippedBy: 'operator', cardCount: 2 });
    expect((await one<{ n: number }>(server, `SELECT count(*)::int AS n FROM sim_card WHERE custom_code = 'DZ-CUCC-4G-PLUG' AND state = 'in_stock'`)).n).toBe(inStock.n - 2);
    expect(await server.call('mall.order.ship', { code: order.code, expressCompany: 'sf', expressNo: 'SF1402938475612' }, { token: t.operator })).toMatchObject({
      code: '409',
      message: '当前状态（已发货）不允许发货',
    });

    const cards = await ok<Array<{ iccid: string; state: string; goodsCode: string; operatorName: string }>>(server, 'device.orderCard.get', { orderCode: order.code }, t.tadmin);
    expect(cards).toHaveLength(2);
    expect(cards.every((card) => card.state === 'testing' && card.goodsCode === 'GD00010' && card.operatorName === '中国联通')).toBe(true);
    const card = await one<{ tenant_code: string; organization_code: string }>(server, 'SELECT tenant_code, organization_code FROM sim_card WHERE iccid = $1', [cards[0].iccid]);
    expect(card.tenant_code).toBe('T0001');
    expect(await codeOf(server, 'device.orderCard.get', { orderCode: order.code }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'device.orderCard.get', { orderCode: 'MO-1' }, t.tadmin)).toBe('400');

    // The carrier has picked it up: the history starts.
    const express = await ok<{ traces: Array<{ status: string; description: string }>; expressState: string; expressCompanyName: string }>(server, 'mall.order.expressInfo', { code: order.code }, t.tadmin);
    expect(express.expressCompanyName).toBe('顺丰速运');
    expect(express.traces.at(-1)?.status).toBe('已揽收');
    expect(express.expressState).toBe('已揽收');

    expect(await codeOf(server, 'mall.order.confirmReceipt', { code: order.code }, t.operator)).toBe('403');
    expect(await codeOf(server, 'mall.order.confirmReceipt', { code: order.code }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'mall.order.confirmReceipt', { code: order.code, now: true }, t.tadmin)).toBe('400');
    const received = await ok<Order>(server, 'mall.order.confirmReceipt', { code: order.code }, t.tadmin);
    expect(received).toMatchObject({ state: 'completed', canApplyInvoice: true });
    expect(await server.call('mall.order.confirmReceipt', { code: order.code }, { token: t.tadmin })).toMatchObject({ code: '409', message: '当前状态（已完成）不允许确认收货' });
    const signed = await ok<{ traces: Array<{ status: string }> }>(server, 'mall.order.expressInfo', { code: order.code }, t.tadmin);
    expect(signed.traces[0].status).toBe('已签收');
  });

  it('refuses to ship when the card stock cannot supply the order’s cards', async () => {
    await server.db.query(`UPDATE mall_goods SET cards_per_unit = 400 WHERE code = 'GD00020'`);
    const order = await placeOrder([{ goodsCode: 'GD00020', quantity: 1 }]);
    await ok(server, 'mall.order.pay', { code: order.code, payMethod: 'alipay' }, t.tadmin);
    const refused = await server.call('mall.order.ship', { code: order.code, expressCompany: 'jd', expressNo: 'JDVA20398475612' }, { token: t.admin });
    expect(refused.code).toBe('409');
    expect(refused.message).toMatch(/^物联网卡库存不足：.+ 需要 400 张，库存 \d+ 张，请先入库$/);
    expect((await ok<Order>(server, 'mall.order.detail', { code: order.code }, t.admin)).state).toBe('paid');
  });

  it('answers a seeded completed order’s tracking and cards; a pending order has no history yet', async () => {
    const done = await one<{ code: string }>(server, `SELECT o.code FROM mall_order o WHERE o.state = 'completed' AND o.tenant_code = 'T0002' AND EXISTS (SELECT 1 FROM mall_order_card c WHERE c.order_code = o.code) LIMIT 1`);
    const express = await ok<{ traces: Array<{ status: string; time: string }>; expressNo: string }>(server, 'mall.order.expressInfo', { code: done.code }, t.badmin);
    expect(express.traces.length).toBeGreaterThanOrEqual(5);
    expect(express.traces[0].status).toBe('已签收');
    const times = express.traces.map((trace) => trace.time);
    expect(times).toEqual([...times].sort().reverse());
    expect((await ok<unknown[]>(server, 'device.orderCard.get', { orderCode: done.code }, t.badmin)).length).toBeGreaterThan(0);
    expect(await codeOf(server, 'mall.order.expressInfo', { code: done.code }, t.tadmin)).toBe('404');
    expect(await codeOf(server, 'mall.order.expressInfo', { code: 'nope' }, t.badmin)).toBe('400');
    const pending = await orderOf('pending_payment', 'T0002');
    expect(await ok(server, 'mall.order.expressInfo', { code: pending.code }, t.badmin)).toMatchObject({ traces: [], expressState: '待付款' });
  });
});

describe('the order lists, the detail and the export', () => {
  it('shows a tenant its own orders with what it may do; platform staff every tenant’s in 订单管理', async () => {
    const mine = await page<Order>(server, 'mall.myOrder.page', t.tadmin, {}, { pageSize: 100 });
    expect(mine.code).toBe('200');
    expect(mine.data.total).toBeGreaterThan(140);
    expect(new Set(mine.data.records.map((r) => r.tenantCode))).toEqual(new Set(['T0001']));
    const pending = mine.data.records.find((r) => r.state === 'pending_payment')!;
    expect(pending).toMatchObject({ canPay: true, canCancel: true, canConfirmReceipt: false, canShip: false });
    const shipped = mine.data.records.find((r) => r.state === 'shipped')!;
    expect(shipped).toMatchObject({ canPay: false, canCancel: false, canConfirmReceipt: true });
    const states = await page<Order>(server, 'mall.myOrder.page', t.badmin, { state: 'shipped' });
    expect(states.data.records.every((r) => r.state === 'shipped' && r.tenantCode === 'T0002')).toBe(true);
    expect((await page(server, 'mall.myOrder.page', t.tadmin, { state: 'lost' })).code).toBe('400');
    expect((await page(server, 'mall.myOrder.page', t.tuser)).code).toBe('403');
    // Platform staff buy nothing themselves.
    expect((await page(server, 'mall.myOrder.page', t.operator)).data.total).toBe(0);

    const all = await page<Order>(server, 'mall.order.page', t.operator, { state: 'paid' }, { pageSize: 100 });
    expect(new Set(all.data.records.map((r) => r.tenantCode))).toEqual(new Set(['T0001', 'T0002']));
    expect(all.data.records.every((r) => r.canShip && !r.canPay)).toBe(true);
    const byTenant = await page<Order>(server, 'mall.order.page', t.admin, { tenantCode: 'T0002', keyword: '智能水表' }, { sort: [{ field: 'payAmount', order: 'asc' }] });
    const amounts = byTenant.data.records.map((r) => r.payAmount);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    expect(byTenant.data.records.every((r) => r.tenantName === '苏州智水环境科技有限公司' && r.goodsSummary.includes('智能水表'))).toBe(true);
    expect((await page(server, 'mall.order.page', t.tadmin)).code).toBe('403');
    expect((await page(server, 'mall.order.page', t.admin, { timeRange: ['2026-01-01', 'soon'] })).code).toBe('400');
  });

  it('details an order with its lines; another tenant’s is not found', async () => {
    const { code } = await orderOf('completed', 'T0001');
    const detail = await ok<Order>(server, 'mall.order.detail', { code }, t.tadmin);
    expect(detail.items.length).toBeGreaterThan(0);
    expect(detail.items.reduce((sum, item) => sum + item.amount, 0)).toBeCloseTo(detail.goodsAmount, 2);
    expect(detail.payAmount).toBeCloseTo(detail.goodsAmount - detail.discountAmount + detail.freightAmount, 2);
    expect(await codeOf(server, 'mall.order.detail', { code }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'mall.order.detail', { code }, t.tuser)).toBe('403');
    expect(await codeOf(server, 'mall.order.detail', {}, t.tadmin)).toBe('400');
  });

  it('exports the orders as a real workbook (platform staff)', async () => {
    const file = await download(server, 'mall.order.export', { tenantCode: 'T0002', state: 'completed' }, t.operator);
    expect(file.status).toBe(200);
    expect(file.fileName).toMatch(/^商城订单-\d{8}\.xlsx$/);
    const rows = await sheetRows(file.body);
    expect(rows[0].slice(0, 4)).toEqual(['订单编号', '租户', '下单组织', '商品']);
    expect(rows.length).toBeGreaterThan(40);
    expect(rows.slice(1).every((row) => row[1] === '苏州智水环境科技有限公司' && row[9] === '已完成')).toBe(true);
    expect((await download(server, 'mall.order.export', { state: 'nope' }, t.operator)).envelope?.code).toBe('400');
    expect((await download(server, 'mall.order.export', {}, t.tadmin)).envelope?.code).toBe('403');
  });
});

describe('an unpaid order past its deadline', () => {
  it('is closed by the platform, its stock given back, and can no longer be paid', async () => {
    const order = await placeOrder([{ goodsCode: 'GD00014', quantity: 10 }]);
    const held = await stockOf('GD00014');
    // Every unpaid order of the goods closes with it (the seed has some a few hours old).
    const unpaid = await one<{ quantity: number }>(
      server,
      `SELECT COALESCE(sum(i.quantity), 0)::int AS quantity FROM mall_order_item i JOIN mall_order o ON o.code = i.order_code WHERE o.state = 'pending_payment' AND i.goods_code = 'GD00014'`,
    );
    expect(unpaid.quantity).toBeGreaterThanOrEqual(10);
    server.advance(25 * 3600);
    // A day later the sign-in has expired too.
    const tadmin = await server.login('tadmin');
    expect(await server.call('mall.order.pay', { code: order.code, payMethod: 'wechat' }, { token: tadmin })).toMatchObject({ code: '409', message: '当前状态（已取消）不允许支付' });
    const closed = await ok<Order>(server, 'mall.order.detail', { code: order.code }, tadmin);
    expect(closed).toMatchObject({ state: 'cancelled', cancelReason: '超时未支付，系统自动取消' });
    expect((await stockOf('GD00014')).stock).toBe(held.stock + unpaid.quantity);
    expect((await ok<Payment>(server, 'pay.query', { code: order.code }, tadmin)).payState).toBe('closed');
  });
});
