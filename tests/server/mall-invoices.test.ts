// 我的发票 (issue 7, SPEC §7 invoice apply, manage info, title page list): a tenant's invoice titles
// and the invoices it applies for on its paid mall orders — once per order, for the paid amount —
// with what has been invoiced and what still may be. Every operation: its answer, invalid input
// ("400"), a state that refuses the action ("409"), another tenant's record ("404") and a role
// without the button ("403").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvoiceRecord, InvoiceTitleRecord } from '../../server/operations/mall/invoices';
import { codeOf, ok, one, page, signIn, type Tokens } from './cards-helpers';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let t: Tokens;

beforeAll(async () => {
  server = await startServer();
  t = await signIn(server);
});
afterAll(() => server.close());

interface ManageInfo {
  invoicedAmount: number;
  invoicedCount: number;
  applyingAmount: number;
  applyingCount: number;
  invoiceableAmount: number;
  invoiceableCount: number;
  records: Array<{ code: string; payAmount: number; label: string }>;
}

const title = {
  name: '杭州云联科技有限公司滨江研发中心',
  taxNo: '91330108MA2J7L2Q4W',
  bankName: '中国工商银行杭州高新支行',
  bankAccount: '1202 0212 0990 0123 456',
  address: '杭州市滨江区江南大道 3888 号',
  phone: '0571-86661234',
};
const titleOf = (tenant: string, complete: boolean) =>
  one<{ id: number }>(server, `SELECT id FROM invoice_title WHERE tenant_code = $1 AND (bank_name <> '') = $2 ORDER BY id LIMIT 1`, [tenant, complete]);
/** A paid order of the tenant that holds no invoice. */
const invoiceable = (tenant: string, state = 'completed') =>
  one<{ code: string; pay_amount: string }>(
    server,
    `SELECT code, pay_amount FROM mall_order o WHERE tenant_code = $1 AND state = $2 AND NOT EXISTS (SELECT 1 FROM invoice v WHERE v.order_code = o.code) ORDER BY id DESC LIMIT 1`,
    [tenant, state],
  );

describe('invoice.title.*: a tenant’s invoice titles', () => {
  it('lists the tenant’s own titles; platform staff keep none; others have no access', async () => {
    const mine = await page<InvoiceTitleRecord>(server, 'invoice.title.page', t.tadmin);
    expect(mine.data.records.map((r) => r.name).sort()).toEqual(['杭州云联科技有限公司', '杭州云联科技有限公司钱塘分公司']);
    expect(mine.data.records.find((r) => r.name === '杭州云联科技有限公司')).toMatchObject({ complete: true, taxNo: '91330106MA2H3K5X7Q' });
    const theirs = await page<InvoiceTitleRecord>(server, 'invoice.title.page', t.badmin, { keyword: '智水' });
    expect(theirs.data.records.map((r) => r.name)).toEqual(['苏州智水环境科技有限公司']);
    expect((await page(server, 'invoice.title.page', t.operator)).data.total).toBe(0);
    expect((await page(server, 'invoice.title.page', t.tuser)).code).toBe('403');
    expect((await page(server, 'invoice.title.page', t.tadmin, { keyword: ['a'] })).code).toBe('400');
  });

  it('adds, changes and details a title; the tax number is checked and unique', async () => {
    expect(await server.call('invoice.title.insert', { title: { ...title, taxNo: '91330108-MA2J7L' } }, { token: t.tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：title.taxNo（格式不正确）',
    });
    expect(await codeOf(server, 'invoice.title.insert', { title }, t.tuser)).toBe('403');
    expect(await codeOf(server, 'invoice.title.insert', { title }, t.operator)).toBe('403');
    const added = await ok<InvoiceTitleRecord>(server, 'invoice.title.insert', { title }, t.tadmin);
    expect(added).toMatchObject({ name: title.name, complete: true, invoiceCount: 0 });
    expect(await server.call('invoice.title.insert', { title }, { token: t.tadmin })).toMatchObject({ code: '409', message: '该税号的抬头已存在' });
    expect((await ok<InvoiceTitleRecord>(server, 'invoice.title.detail', { id: added.id }, t.tadmin)).bankAccount).toBe(title.bankAccount);
    expect(await codeOf(server, 'invoice.title.detail', { id: added.id }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'invoice.title.detail', { id: 0 }, t.tadmin)).toBe('400');

    const changed = await ok<InvoiceTitleRecord>(server, 'invoice.title.modify', { id: added.id, title: { ...title, bankName: '', bankAccount: '' } }, t.tadmin);
    expect(changed).toMatchObject({ bankName: '', complete: false });
    expect(await codeOf(server, 'invoice.title.modify', { id: added.id, title }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'invoice.title.modify', { id: added.id, title: { ...title, phone: 'call me' } }, t.tadmin)).toBe('400');
    const other = await titleOf('T0001', true);
    expect(await server.call('invoice.title.modify', { id: other.id, title }, { token: t.tadmin })).toMatchObject({ code: '409', message: '该税号的抬头已存在' });
  });

  it('deletes a title, unless an application still waits on it', async () => {
    const [spare] = (await page<InvoiceTitleRecord>(server, 'invoice.title.page', t.tadmin, { keyword: '滨江' })).data.records;
    expect(await codeOf(server, 'invoice.title.delete', { id: spare.id }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'invoice.title.delete', { id: spare.id }, t.tuser)).toBe('403');
    expect(await codeOf(server, 'invoice.title.delete', { id: -1 }, t.tadmin)).toBe('400');
    await ok(server, 'invoice.title.delete', { id: spare.id }, t.tadmin);
    expect(await codeOf(server, 'invoice.title.detail', { id: spare.id }, t.tadmin)).toBe('404');
    // 苏州智水 applies for an invoice with its title: the title stays while the application waits.
    const theirs = await titleOf('T0002', true);
    await ok(server, 'invoice.apply', { orderCode: (await invoiceable('T0002')).code, titleId: theirs.id, invoiceType: 'normal' }, t.badmin);
    const refused = await server.call('invoice.title.delete', { id: theirs.id }, { token: t.badmin });
    expect(refused.code).toBe('409');
    expect(refused.message).toMatch(/^该抬头有 \d+ 张发票正在开具，不能删除$/);
  });
});

describe('invoice.manageInfo, apply, page and detail', () => {
  it('tells what has been invoiced, what is applied for and what may still be, with the orders that may', async () => {
    const info = await ok<ManageInfo>(server, 'invoice.manageInfo', {}, t.tadmin);
    expect(info.invoicedCount).toBeGreaterThan(50);
    expect(info.invoicedAmount).toBeGreaterThan(100_000);
    expect(info.invoiceableCount).toBe(info.records.length);
    expect(info.invoiceableAmount).toBeCloseTo(info.records.reduce((sum, r) => sum + r.payAmount, 0), 2);
    const expected = await one<{ n: number }>(
      server,
      `SELECT count(*)::int AS n FROM mall_order o WHERE tenant_code = 'T0001' AND state IN ('paid', 'shipped', 'completed') AND NOT EXISTS (SELECT 1 FROM invoice v WHERE v.order_code = o.code AND v.state <> 'rejected')`,
    );
    expect(info.invoiceableCount).toBe(expected.n);
    expect(JSON.stringify(await ok(server, 'invoice.manageInfo', {}, t.badmin))).not.toContain(info.records[0].code);
    expect(await codeOf(server, 'invoice.manageInfo', { all: true }, t.tadmin)).toBe('400');
    expect(await codeOf(server, 'invoice.manageInfo', {}, t.tuser)).toBe('403');
  });

  it('applies once per paid order for its paid amount, the title copied in', async () => {
    const order = await invoiceable('T0001');
    const complete = await titleOf('T0001', true);
    const partial = await titleOf('T0001', false);
    expect(await server.call('invoice.apply', { orderCode: order.code, titleId: partial.id, invoiceType: 'special' }, { token: t.tadmin })).toMatchObject({
      code: '409',
      message: '开具增值税专用发票需要抬头的开户行、银行账号、注册地址和电话，请先完善抬头',
    });
    expect(await server.call('invoice.apply', { orderCode: order.code, titleId: complete.id, invoiceType: 'special', email: 'not-a-mail' }, { token: t.tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：email（格式不正确）',
    });
    expect(await codeOf(server, 'invoice.apply', { orderCode: order.code, titleId: complete.id, invoiceType: 'special' }, t.tuser)).toBe('403');
    expect(await codeOf(server, 'invoice.apply', { orderCode: order.code, titleId: complete.id, invoiceType: 'special' }, t.badmin)).toBe('404');
    const theirTitle = await titleOf('T0002', true);
    expect(await server.call('invoice.apply', { orderCode: order.code, titleId: theirTitle.id, invoiceType: 'normal' }, { token: t.tadmin })).toMatchObject({ code: '404', message: '发票抬头不存在' });

    const invoice = await ok<InvoiceRecord>(server, 'invoice.apply', { orderCode: order.code, titleId: complete.id, invoiceType: 'special', email: 'finance@yunlian-iot.com', remark: '请与合同一并寄出' }, t.tadmin);
    expect(invoice).toMatchObject({ orderCode: order.code, state: 'applied', invoiceType: 'special', titleName: '杭州云联科技有限公司', amount: Number(order.pay_amount), appliedBy: 'tadmin' });
    expect(invoice.code).toMatch(/^FP\d{13}$/);
    expect(await server.call('invoice.apply', { orderCode: order.code, titleId: complete.id, invoiceType: 'normal' }, { token: t.tadmin })).toMatchObject({
      code: '409',
      message: `该订单已申请开票（${invoice.code}），不能重复申请`,
    });
    const info = await ok<ManageInfo>(server, 'invoice.manageInfo', {}, t.tadmin);
    expect(info.records.some((r) => r.code === order.code)).toBe(false);
    expect((await ok<{ canApplyInvoice: boolean; invoiceState: string }>(server, 'mall.order.detail', { code: order.code }, t.tadmin))).toMatchObject({ canApplyInvoice: false, invoiceState: 'applied' });
  });

  it('refuses orders not paid or refunded, and an order being invoiced cannot be cancelled', async () => {
    const complete = await titleOf('T0001', true);
    const pending = await one<{ code: string }>(server, `SELECT code FROM mall_order WHERE tenant_code = 'T0001' AND state = 'pending_payment' LIMIT 1`);
    expect(await server.call('invoice.apply', { orderCode: pending.code, titleId: complete.id, invoiceType: 'normal' }, { token: t.tadmin })).toMatchObject({
      code: '409',
      message: '当前状态（待付款）不允许申请开票',
    });
    const refunded = await one<{ code: string }>(server, `SELECT code FROM mall_order WHERE tenant_code = 'T0001' AND state = 'refunded' LIMIT 1`);
    expect((await server.call('invoice.apply', { orderCode: refunded.code, titleId: complete.id, invoiceType: 'normal' }, { token: t.tadmin })).message).toBe('当前状态（已退款）不允许申请开票');

    const paid = await invoiceable('T0001', 'paid');
    await ok(server, 'invoice.apply', { orderCode: paid.code, titleId: complete.id, invoiceType: 'normal' }, t.tadmin);
    expect(await server.call('mall.order.cancel', { code: paid.code }, { token: t.tadmin })).toMatchObject({ code: '409', message: '该订单已申请开票，不能取消' });
  });

  it('lists and details the tenant’s invoices; another tenant’s are not found', async () => {
    const mine = await page<InvoiceRecord>(server, 'invoice.page', t.tadmin, {}, { pageSize: 100 });
    expect(mine.data.total).toBeGreaterThan(60);
    expect(new Set(mine.data.records.map((r) => r.tenantCode))).toEqual(new Set(['T0001']));
    const issued = await page<InvoiceRecord>(server, 'invoice.page', t.tadmin, { state: 'issued', invoiceType: 'special' });
    expect(issued.data.records.every((r) => r.state === 'issued' && r.invoiceType === 'special' && /^\d{8}$/.test(r.invoiceNo) && r.issueTime)).toBe(true);
    const rejected = await page<InvoiceRecord>(server, 'invoice.page', t.operator, { state: 'rejected' });
    expect(rejected.data.records.length).toBeGreaterThan(0);
    expect(rejected.data.records.every((r) => r.rejectReason !== '' && r.invoiceNo === '')).toBe(true);
    expect((await page(server, 'invoice.page', t.tadmin, { state: 'lost' })).code).toBe('400');
    expect((await page(server, 'invoice.page', t.tuser)).code).toBe('403');

    const detail = await ok<InvoiceRecord>(server, 'invoice.detail', { code: mine.data.records[0].code }, t.tadmin);
    expect(detail.goodsSummary).not.toBe('');
    expect(await codeOf(server, 'invoice.detail', { code: mine.data.records[0].code }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'invoice.detail', { code: 'FP' }, t.tadmin)).toBe('400');
    // Platform staff see every tenant's.
    expect((await page<InvoiceRecord>(server, 'invoice.page', t.operator, { keyword: detail.code })).data.records.map((r) => r.code)).toEqual([detail.code]);
  });
});
