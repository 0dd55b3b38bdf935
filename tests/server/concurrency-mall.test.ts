// The concurrency suite, mall (issue 17): orders paid, shipped, received and cancelled, invoices
// applied for and goods put on the shelf. Ten identical calls at once: exactly one wins ("200"),
// the others are refused as a second call one after another would be ("409" with the order's or
// goods' message), none answers a server error, and stock, sales and cards move once. Runs on
// PGlite and on PostgreSQL (server-pg).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { ok, one, signIn, type Tokens } from './cards-helpers';
import { burst, oneWinner, scalar } from './concurrency-burst';

let server: TestServer;
let t: Tokens;

beforeAll(async () => {
  server = await startServer();
  t = await signIn(server);
});
afterAll(() => server.close());

const stockOf = (code: string) => one<{ stock: number; sales: number }>(server, 'SELECT stock, sales FROM mall_goods WHERE code = $1', [code]);

/** A fresh order of tadmin's tenant, awaiting payment. */
async function placeOrder(items: Array<{ goodsCode: string; quantity: number }>): Promise<string> {
  const address = await one<{ id: number }>(server, "SELECT id FROM mall_address WHERE tenant_code = 'T0001' AND is_default");
  return (await ok<{ code: string }>(server, 'mall.order.submit', { items, addressId: address.id, discountCode: '' }, t.tadmin)).code;
}

describe('mall orders', () => {
  it('mall.order.pay: one of ten payments, the sales counted once', async () => {
    const code = await placeOrder([{ goodsCode: 'GD00009', quantity: 2 }]);
    const before = await stockOf('GD00009');
    const { index } = oneWinner(await burst(server, 'mall.order.pay', (i) => ({ code, payMethod: i % 2 ? 'alipay' : 'wechat' }), t.tadmin), {
      message: '当前状态（已付款）不允许支付',
    });
    expect(await one(server, 'SELECT state, pay_method FROM mall_order WHERE code = $1', [code])).toEqual({ state: 'paid', pay_method: index % 2 ? 'alipay' : 'wechat' });
    expect(await stockOf('GD00009')).toEqual({ stock: before.stock, sales: before.sales + 2 });
  });

  it('mall.order.ship and confirmReceipt: one of ten each; the cards leave the stock once', async () => {
    const code = await placeOrder([{ goodsCode: 'GD00010', quantity: 2 }]);
    await ok(server, 'mall.order.pay', { code, payMethod: 'wechat' }, t.tadmin);
    const inStock = () => scalar<number>(server, "SELECT count(*)::int AS value FROM sim_card WHERE custom_code = 'DZ-CUCC-4G-PLUG' AND state = 'in_stock'");
    const before = await inStock();
    const shipped = oneWinner(await burst(server, 'mall.order.ship', (i) => ({ code, expressCompany: 'sf', expressNo: `SF140293847561${i}` }), t.operator), {
      message: '当前状态（已发货）不允许发货',
    });
    expect(await scalar(server, 'SELECT express_no AS value FROM mall_order WHERE code = $1', [code])).toBe(`SF140293847561${shipped.index}`);
    expect(await scalar(server, 'SELECT count(*)::int AS value FROM mall_order_card WHERE order_code = $1', [code])).toBe(2);
    expect(await inStock()).toBe(before - 2);
    oneWinner(await burst(server, 'mall.order.confirmReceipt', () => ({ code }), t.tadmin), { message: '当前状态（已完成）不允许确认收货' });
    expect(await scalar(server, 'SELECT state AS value FROM mall_order WHERE code = $1', [code])).toBe('completed');
  });

  it('mall.order.cancel: one of ten refunds a paid order; its stock and sales come back once', async () => {
    const code = await placeOrder([{ goodsCode: 'GD00008', quantity: 5 }]);
    await ok(server, 'mall.order.pay', { code, payMethod: 'alipay' }, t.tadmin);
    const before = await stockOf('GD00008');
    oneWinner(await burst(server, 'mall.order.cancel', (i) => ({ code, reason: `下错规格 ${i}` }), t.tadmin), { message: '当前状态（已退款）不允许取消' });
    expect(await scalar(server, 'SELECT state AS value FROM mall_order WHERE code = $1', [code])).toBe('refunded');
    expect(await stockOf('GD00008')).toEqual({ stock: before.stock + 5, sales: before.sales - 5 });
  });

  it('mall.order.cancel of an unpaid order: one of ten closes it; the stock comes back once', async () => {
    const code = await placeOrder([{ goodsCode: 'GD00009', quantity: 3 }]);
    const before = await stockOf('GD00009');
    oneWinner(await burst(server, 'mall.order.cancel', () => ({ code }), t.tadmin), { message: '当前状态（已取消）不允许取消' });
    expect(await stockOf('GD00009')).toEqual({ stock: before.stock + 3, sales: before.sales });
  });
});

describe('invoices', () => {
  it('invoice.apply: one application of ten for one order', async () => {
    const order = await one<{ code: string }>(
      server,
      "SELECT code FROM mall_order o WHERE tenant_code = 'T0001' AND state = 'completed' AND pay_amount > 0 AND NOT EXISTS (SELECT 1 FROM invoice v WHERE v.order_code = o.code) ORDER BY id DESC LIMIT 1",
    );
    const title = await one<{ id: number }>(server, "SELECT id FROM invoice_title WHERE tenant_code = 'T0001' AND bank_name <> '' ORDER BY id LIMIT 1");
    const { data } = oneWinner(await burst<{ code: string }>(server, 'invoice.apply', () => ({ orderCode: order.code, titleId: title.id, invoiceType: 'normal' }), t.tadmin), {
      message: /^该订单已申请开票(（FP\d+）)?，不能重复申请$/,
    });
    expect(await scalar(server, 'SELECT code AS value FROM invoice WHERE order_code = $1', [order.code])).toBe(data.code);
  });

  it('an application and a cancellation at once: never a cancelled order with an invoice waiting', async () => {
    const code = await placeOrder([{ goodsCode: 'GD00009', quantity: 1 }]);
    await ok(server, 'mall.order.pay', { code, payMethod: 'wechat' }, t.tadmin);
    const title = await one<{ id: number }>(server, "SELECT id FROM invoice_title WHERE tenant_code = 'T0001' ORDER BY id LIMIT 1");
    const [applied, cancelled] = await Promise.all([
      burst(server, 'invoice.apply', () => ({ orderCode: code, titleId: title.id, invoiceType: 'normal' }), t.tadmin, 5),
      burst(server, 'mall.order.cancel', () => ({ code }), t.tadmin, 5),
    ]);
    const answers = [...applied, ...cancelled];
    expect(answers.filter((answer) => answer.body.code.startsWith('5'))).toEqual([]);
    expect(answers.filter((answer) => answer.body.code === '200')).toHaveLength(1);
    const state = await scalar<string>(server, 'SELECT state AS value FROM mall_order WHERE code = $1', [code]);
    const invoices = await scalar<number>(server, "SELECT count(*)::int AS value FROM invoice WHERE order_code = $1 AND state <> 'rejected'", [code]);
    expect([state, invoices]).toEqual(applied.some((answer) => answer.body.code === '200') ? ['paid', 1] : ['refunded', 0]);
  });
});

describe('addresses', () => {
  it('mall.address.setDefault: one of ten makes the address the default; the tenant keeps one default', async () => {
    const address = await one<{ id: number }>(server, "SELECT id FROM mall_address WHERE tenant_code = 'T0001' AND NOT is_default ORDER BY id LIMIT 1");
    oneWinner(await burst(server, 'mall.address.setDefault', () => ({ id: address.id }), t.tadmin), { message: '该地址已是默认地址' });
    expect(await server.db.query("SELECT id FROM mall_address WHERE tenant_code = 'T0001' AND is_default")).toEqual([{ id: address.id }]);
  });
});

describe('goods', () => {
  it('mall.goods.shelf: one of ten puts the goods on the shelf', async () => {
    const goods = await one<{ code: string }>(server, "SELECT code FROM mall_goods WHERE state = 'off_shelf' AND stock > 0 AND deleted_at IS NULL ORDER BY code LIMIT 1");
    oneWinner(await burst(server, 'mall.goods.shelf', () => ({ code: goods.code, onShelf: true }), t.operator), { message: '当前状态（已上架）不允许上架' });
    expect(await scalar(server, 'SELECT state AS value FROM mall_goods WHERE code = $1', [goods.code])).toBe('on_shelf');
  });
});
