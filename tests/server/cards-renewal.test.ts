// Renewal and recharge (issue 7): cards coming to the end of their service are registered,
// confirmed or locked, confirmed renewals settle as renewal orders; recharges are priced from the
// fee standards (a tenant's negotiated price first), paid online or by corporate transfer, and
// extend the cards' service when confirmed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RechargeRecord } from '../../server/operations/cards/recharge';
import { startServer, type TestServer } from './harness';
import { PDF } from './frame-helpers';
import { codeOf, download, ok, one, page, sheetRows, signIn, uploaded, type Tokens } from './cards-helpers';

let server: TestServer;
let t: Tokens;

beforeAll(async () => {
  server = await startServer();
  t = await signIn(server);
});
afterAll(() => server.close());

interface Renew {
  id: number;
  iccid: string;
  tenantCode: string;
  state: string;
  years: number | null;
  unitPrice: number | null;
  amount: number | null;
  orderCode: string;
  daysLeft: number;
}

const renewOf = (tenant: string, state: string) => one<{ id: number; iccid: string; expires_at: Date }>(server, 'SELECT id, iccid, expires_at FROM card_renew WHERE tenant_code = $1 AND state = $2 ORDER BY id LIMIT 1', [tenant, state]);

describe('card.renew.*', () => {
  it('lists the renewals of the tenant by state and expiry', async () => {
    const mine = await page<Renew>(server, 'card.renew.page', t.tadmin, {}, { pageSize: 200 });
    expect(mine.data.total).toBeGreaterThan(50);
    expect(mine.data.records.every((r) => r.tenantCode === 'T0001')).toBe(true);
    const states = await server.db.query<{ state: string }>('SELECT DISTINCT state FROM card_renew ORDER BY state');
    expect(states.map((s) => s.state)).toEqual(['confirmed', 'locked', 'registered', 'unregistered']);
    const soon = await page<Renew>(server, 'card.renew.page', t.admin, { expiry: 'expiring30', state: 'unregistered' });
    expect(soon.data.records.every((r) => r.state === 'unregistered' && r.daysLeft >= 0 && r.daysLeft <= 30)).toBe(true);
    expect((await page(server, 'card.renew.page', t.tadmin, { state: 'paid' })).code).toBe('400');
    expect((await page(server, 'card.renew.page', t.tuser)).code).toBe('403');
  });

  it('registers a term at the tenant’s price (the negotiated one first); platform staff only', async () => {
    const renew = await one<{ id: number; package_code: string }>(
      server,
      "SELECT r.id, s.package_code FROM card_renew r JOIN sim_card s ON s.iccid = r.iccid WHERE r.tenant_code = 'T0001' AND r.state = 'unregistered' AND s.package_code = 'FS-CMCC-NB-30' LIMIT 1",
    );
    expect(await codeOf(server, 'card.renew.register', { id: renew.id, years: 2 }, t.tadmin)).toBe('403');
    expect(await codeOf(server, 'card.renew.register', { id: renew.id, years: 0 }, t.operator)).toBe('400');
    expect((await server.call('card.renew.register', { id: renew.id, years: 4 }, { token: t.operator })).message).toContain('可选年限为 1、2、3、5 年');
    await ok(server, 'card.renew.register', { id: renew.id, years: 2 }, t.operator);
    expect(await one(server, 'SELECT state, years, unit_price, amount FROM card_renew WHERE id = $1', [renew.id])).toEqual({ state: 'registered', years: 2, unit_price: '10.00', amount: '20.00' });
    expect(await codeOf(server, 'card.renew.register', { id: 99_999_999, years: 1 }, t.operator)).toBe('404');
  });

  it('confirms registered renewals into one renewal order per tenant; other states refuse', async () => {
    const registered = await server.db.query<{ id: number; amount: string }>("SELECT id, amount FROM card_renew WHERE tenant_code = 'T0002' AND state = 'registered' ORDER BY id LIMIT 3");
    const ids = registered.map((r) => r.id);
    expect(await codeOf(server, 'card.renew.batchConfirm', { ids }, t.tadmin)).toBe('404');
    expect(await codeOf(server, 'card.renew.batchConfirm', { ids: [] }, t.badmin)).toBe('400');
    const result = await ok<{ confirmed: number; orderCodes: string[] }>(server, 'card.renew.batchConfirm', { ids }, t.badmin);
    expect(result.confirmed).toBe(3);
    expect(result.orderCodes).toHaveLength(1);
    const order = await one<{ state: string; card_count: number; amount: string }>(server, 'SELECT state, card_count, amount FROM card_renew_order WHERE code = $1', [result.orderCodes[0]]);
    const total = registered.reduce((sum, r) => sum + Number(r.amount) * 100, 0) / 100;
    expect(order).toEqual({ state: 'pending_confirm', card_count: 3, amount: total.toFixed(2) });
    const unregistered = await renewOf('T0002', 'unregistered');
    expect((await server.call('card.renew.confirm', { id: unregistered.id }, { token: t.badmin })).message).toBe('当前状态（未登记）不允许确认续费（' + unregistered.iccid + '）');
  });

  it('locks a card out of renewal, not once confirmed', async () => {
    const unregistered = await renewOf('T0001', 'unregistered');
    expect(await codeOf(server, 'card.renew.onLock', { id: unregistered.id, reason: '' }, t.operator)).toBe('400');
    await ok(server, 'card.renew.onLock', { id: unregistered.id, reason: '客户书面告知设备拆除' }, t.operator);
    expect(await one(server, 'SELECT state, lock_reason FROM card_renew WHERE id = $1', [unregistered.id])).toEqual({ state: 'locked', lock_reason: '客户书面告知设备拆除' });
    const confirmed = await renewOf('T0001', 'confirmed');
    expect(await codeOf(server, 'card.renew.batchOnLock', { ids: [confirmed.id], reason: '不续了' }, t.operator)).toBe('409');
    const more = await server.db.query<{ id: number }>("SELECT id FROM card_renew WHERE tenant_code = 'T0002' AND state = 'unregistered' ORDER BY id LIMIT 2");
    expect(await ok(server, 'card.renew.batchOnLock', { ids: more.map((m) => m.id), reason: '项目结束' }, t.admin)).toEqual({ locked: 2 });
  });

  it('batch-registers and exports renewals', async () => {
    const rows = await server.db.query<{ id: number }>("SELECT id FROM card_renew WHERE tenant_code = 'T0001' AND state = 'unregistered' ORDER BY id LIMIT 4");
    expect(await ok(server, 'card.renew.batchRegister', { ids: rows.map((r) => r.id), years: 1 }, t.operator)).toEqual({ registered: 4 });
    expect(await codeOf(server, 'card.renew.batchRegister', { ids: rows.map((r) => r.id), years: 1 }, t.badmin)).toBe('403');
    const file = await download(server, 'card.renew.export', { state: 'registered' }, t.tadmin);
    const sheet = await sheetRows(file.body);
    expect(sheet[0]).toContain('续费状态');
    expect(sheet.slice(1).every((r) => r[7] === '已登记' && r[2] === '杭州云联科技有限公司')).toBe(true);
  });

  it('settles a renewal order: each card runs its years more from the end being renewed', async () => {
    const registered = await one<{ id: number; iccid: string; expires_at: Date }>(
      server,
      "SELECT r.id, r.iccid, r.expires_at FROM card_renew r JOIN sim_card s ON s.iccid = r.iccid AND s.expires_at = r.expires_at WHERE r.tenant_code = 'T0001' AND r.state = 'registered' AND s.state = 'active' ORDER BY r.id LIMIT 1",
    );
    const { orderCodes } = await ok<{ orderCodes: string[] }>(server, 'card.renew.confirm', { id: registered.id }, t.tadmin);
    const [years] = await server.db.query<{ years: number }>('SELECT years FROM card_renew WHERE id = $1', [registered.id]);
    const detail = await ok<{ state: string; items: Renew[] }>(server, 'card.renewOrder.detail', { code: orderCodes[0] }, t.tadmin);
    expect(detail.items.map((i) => i.iccid)).toEqual([registered.iccid]);
    expect(await codeOf(server, 'card.renewOrder.confirm', { code: orderCodes[0] }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'card.renewOrder.confirm', { code: orderCodes[0] }, t.operator)).toBe('403');
    const settled = await ok<{ state: string; extendedCards: number }>(server, 'card.renewOrder.confirm', { code: orderCodes[0] }, t.tadmin);
    expect(settled).toMatchObject({ state: 'confirmed', extendedCards: 1 });
    const [card] = await server.db.query<{ expires_at: Date }>('SELECT expires_at FROM sim_card WHERE iccid = $1', [registered.iccid]);
    const expected = new Date(registered.expires_at);
    expected.setUTCFullYear(expected.getUTCFullYear() + years.years);
    expect(card.expires_at.toISOString()).toBe(expected.toISOString());
    expect((await server.call('card.renewOrder.confirm', { code: orderCodes[0] }, { token: t.tadmin })).message).toBe('当前状态（已确认）不允许确认');
  });

  it('lists and exports renewal orders of the tenant', async () => {
    const mine = await page<{ tenantCode: string; state: string }>(server, 'card.renewOrder.page', t.tadmin, { state: 'confirmed' });
    expect(mine.data.total).toBeGreaterThan(0);
    expect(mine.data.records.every((o) => o.tenantCode === 'T0001' && o.state === 'confirmed')).toBe(true);
    expect((await page(server, 'card.renewOrder.page', t.tadmin, { state: 'x' })).code).toBe('400');
    const { code } = await one<{ code: string }>(server, "SELECT code FROM card_renew_order WHERE tenant_code = 'T0001' LIMIT 1");
    expect(await codeOf(server, 'card.renewOrder.detail', { code }, t.badmin)).toBe('404');
    const sheet = await sheetRows((await download(server, 'card.renewOrder.export', {}, t.badmin)).body);
    expect(sheet[0][0]).toBe('续费订单号');
    expect(sheet.slice(1).every((r) => r[1] === '苏州智水环境科技有限公司')).toBe(true);
  });
});

describe('recharge: prices, online payment, corporate transfer', () => {
  /** Active cards of a tenant on one package, in no unfinished recharge. */
  const freeCards = async (tenant: string, packageCode: string, count: number) =>
    (
      await server.db.query<{ iccid: string; expires_at: Date }>(
        `SELECT s.iccid, s.expires_at FROM sim_card s WHERE s.tenant_code = $1 AND s.package_code = $2 AND s.state = 'active' AND s.expires_at > now()
           AND NOT EXISTS (SELECT 1 FROM card_recharge_item i JOIN card_recharge c ON c.code = i.recharge_code WHERE i.iccid = s.iccid AND c.state IN ('pending_payment', 'paid'))
         ORDER BY s.id LIMIT $3`,
        [tenant, packageCode, count],
      )
    ).map((row) => row);

  it('calculates the amount from the fee standards: the negotiated price for its tenant, the list price otherwise', async () => {
    const nb = await freeCards('T0001', 'FS-CMCC-NB-30', 3);
    const fourG = await freeCards('T0001', 'FS-CMCC-4G-500', 2);
    const calculation = await ok<{ amount: number; lines: Array<{ packageCode: string; unitPrice: number; cardCount: number; amount: number }> }>(
      server,
      'card.recharge.calculateAmount',
      { iccids: [...nb, ...fourG].map((c) => c.iccid), years: 2 },
      t.tadmin,
    );
    expect(calculation.lines).toEqual(
      expect.arrayContaining([
        { packageCode: 'FS-CMCC-NB-30-T0001', packageName: '移动 NB-IoT 30MB/月（杭州云联协议价）', unitPrice: 10, cardCount: 3, amount: 60 },
        { packageCode: 'FS-CMCC-4G-500', packageName: '移动 4G 500MB/月', unitPrice: 96, cardCount: 2, amount: 384 },
      ]),
    );
    expect(calculation.amount).toBe(444);
    const other = await freeCards('T0002', 'FS-CMCC-NB-30', 1);
    expect((await ok<{ amount: number }>(server, 'card.recharge.calculateAmount', { iccids: other.map((c) => c.iccid), years: 1 }, t.badmin)).amount).toBe(12);
    expect(await codeOf(server, 'card.recharge.calculateAmount', { iccids: nb.map((c) => c.iccid), years: 1 }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'card.recharge.calculateAmount', { iccids: nb.map((c) => c.iccid), years: 4 }, t.tadmin)).toBe('400');
    expect(await codeOf(server, 'card.recharge.calculateAmount', { iccids: [], years: 1 }, t.tadmin)).toBe('400');
  });

  it('answers the terms on sale, a package’s terms and price, the projects and their cards', async () => {
    expect(await ok(server, 'card.recharge.yearList', {}, t.tadmin)).toEqual([
      { value: 1, label: '1 年' },
      { value: 2, label: '2 年' },
      { value: 3, label: '3 年' },
      { value: 5, label: '5 年' },
    ]);
    expect(await ok(server, 'card.recharge.standardYears', { packageCode: 'FS-CMCC-NB-30' }, t.tadmin)).toMatchObject({ standardCode: 'FS-CMCC-NB-30-T0001', unitPrice: 10, years: [1, 2, 3, 5] });
    expect(await ok(server, 'card.recharge.standardYears', { packageCode: 'FS-CMCC-NB-30' }, t.badmin)).toMatchObject({ standardCode: 'FS-CMCC-NB-30', unitPrice: 12 });
    expect(await codeOf(server, 'card.recharge.standardYears', { packageCode: 'FS-NONE' }, t.tadmin)).toBe('404');
    const projects = await ok<Array<{ organizationCode: string; cardCount: number }>>(server, 'card.recharge.projectList', {}, t.badmin);
    expect(projects.map((p) => p.organizationCode)).toEqual(['T0002P01', 'T0002P02']);
    const cards = await ok<Array<{ iccid: string; label: string }>>(server, 'card.recharge.projectCard', { organizationCode: 'T0002P02' }, t.badmin);
    expect(cards.length).toBeGreaterThan(10);
    expect(await ok<unknown[]>(server, 'card.recharge.projectCard', { organizationCode: 'T0002P02' }, t.tadmin)).toEqual([]);
    expect(await codeOf(server, 'card.recharge.projectCard', { organizationCode: 'T0002 P02' }, t.badmin)).toBe('400');
    const soon = await ok<Array<{ expireTime: string }>>(server, 'card.recharge.allCard', { expiry: 'expiring30' }, t.tadmin);
    expect(soon.every((c) => new Date(c.expireTime).getTime() < Date.now() + 31 * 86_400_000)).toBe(true);
  });

  it('pays online: the order is confirmed at once and each card runs its years more', async () => {
    const cards = await freeCards('T0001', 'FS-CMCC-NB-30', 2);
    const iccids = cards.map((c) => c.iccid);
    expect(await codeOf(server, 'card.customerRecharge.paymentAmount', { iccids, years: 1, paymentMethod: 'cash' }, t.tadmin)).toBe('400');
    expect(await codeOf(server, 'card.customerRecharge.paymentAmount', { iccids, years: 1 }, t.admin)).toBe('403');
    expect((await server.call('card.customerRecharge.paymentAmount', { iccids, years: 1, amount: 99 }, { token: t.tadmin })).message).toBe('充值金额已变化，请重新计算（应付 20.00 元）');
    const check = await ok<{ matched: boolean; amount: number }>(server, 'card.customerRecharge.checkAmount', { iccids, years: 1, amount: 20 }, t.tadmin);
    expect(check).toMatchObject({ matched: true, amount: 20 });
    const paid = await ok<RechargeRecord>(server, 'card.customerRecharge.paymentAmount', { iccids, years: 1, amount: 20, paymentMethod: 'alipay' }, t.tadmin);
    expect(paid).toMatchObject({ state: 'confirmed', paymentMethod: 'alipay', cardCount: 2, amount: 20, years: 1 });
    const after = await server.db.query<{ iccid: string; expires_at: Date }>('SELECT iccid, expires_at FROM sim_card WHERE iccid = ANY($1::text[])', [iccids]);
    for (const card of cards) {
      const expected = new Date(card.expires_at);
      expected.setUTCFullYear(expected.getUTCFullYear() + 1);
      expect(after.find((a) => a.iccid === card.iccid)!.expires_at.toISOString()).toBe(expected.toISOString());
    }
    const detail = await ok<{ items: Array<{ expireAfter: string }> }>(server, 'card.rechargeOrder.detail', { code: paid.code }, t.tadmin);
    expect(detail.items).toHaveLength(2);
    const history = await ok<{ recharges: Array<{ code: string }> }>(server, 'card.customerRecharge.detail', { iccid: iccids[0] }, t.tadmin);
    expect(history.recharges[0].code).toBe(paid.code);
    expect(await ok(server, 'card.customerRecharge.detailNum', { iccid: iccids[0] }, t.tadmin)).toMatchObject({ confirmedCount: 1, pendingCount: 0 });
    expect(await codeOf(server, 'card.customerRecharge.detailNum', { iccid: iccids[0] }, t.badmin)).toBe('404');
    const letter = await download(server, 'card.recharge.generateConfirmation', { code: paid.code }, t.tadmin);
    expect(letter.fileName).toBe(`充值确认函-${paid.code}.xlsx`);
    expect((await sheetRows(letter.body))[0][0]).toBe('物联网卡服务充值确认函');
  });

  it('pays by corporate transfer: pending until the voucher, paid until the platform sees the money', async () => {
    const cards = await freeCards('T0002', 'FS-CMCC-4G-500', 2);
    const iccids = cards.map((c) => c.iccid);
    const pending = await ok<RechargeRecord>(server, 'card.customerRecharge.corporatePaymentAmount', { iccids, years: 1 }, t.badmin);
    expect(pending).toMatchObject({ state: 'pending_payment', paymentMethod: 'corporate', amount: 176 });
    expect((await server.call('card.customerRecharge.corporatePaymentAmount', { iccids, years: 1 }, { token: t.badmin })).message).toBe(`卡片 ${iccids[0]} 已在未完成的充值订单 ${pending.code} 中`);
    expect(await ok(server, 'card.customerRecharge.isHaveOrder', {}, t.badmin)).toMatchObject({ haveOrder: true, state: 'pending_payment' });
    expect(await codeOf(server, 'card.recharge.refresh', { code: pending.code }, t.operator)).toBe('409');
    expect((await download(server, 'card.recharge.generateConfirmation', { code: pending.code }, t.badmin)).envelope?.code).toBe('409');

    const voucher = await uploaded(server, '转账回单.pdf', PDF, t.badmin);
    expect(await codeOf(server, 'card.recharge.contractUpload', { code: pending.code, contractUrl: 'upload/2026/11/../../etc.pdf' }, t.badmin)).toBe('400');
    expect(await codeOf(server, 'card.recharge.contractUpload', { code: pending.code, contractUrl: voucher }, t.tadmin)).toBe('404');
    const paid = await ok<RechargeRecord>(server, 'card.recharge.contractUpload', { code: pending.code, contractUrl: voucher }, t.badmin);
    expect(paid).toMatchObject({ state: 'paid', contractUrl: voucher });
    expect(await codeOf(server, 'card.rechargeOrder.cancel', { code: pending.code }, t.badmin)).toBe('409');
    expect(await codeOf(server, 'card.recharge.refresh', { code: pending.code }, t.badmin)).toBe('403');
    const confirmed = await ok<RechargeRecord>(server, 'card.recharge.refresh', { code: pending.code }, t.operator);
    expect(confirmed).toMatchObject({ state: 'confirmed', confirmedBy: 'operator' });
    const [card] = await server.db.query<{ expires_at: Date }>('SELECT expires_at FROM sim_card WHERE iccid = $1', [iccids[0]]);
    expect(card.expires_at.getTime()).toBeGreaterThan(cards[0].expires_at.getTime());
  });

  it('refuses an online order a contract and a card of another tenant or out of service', async () => {
    const online = await one<{ code: string }>(server, "SELECT code FROM card_recharge WHERE tenant_code = 'T0001' AND payment_method <> 'corporate' AND state = 'confirmed' LIMIT 1");
    const voucher = await uploaded(server, '合同.pdf', PDF, t.tadmin);
    expect((await server.call('card.recharge.contractUpload', { code: online.code, contractUrl: voucher }, { token: t.tadmin })).message).toBe('在线支付的订单无需上传合同');
    const stock = await one<{ iccid: string }>(server, "SELECT iccid FROM sim_card WHERE tenant_code = 'T0001' AND state = 'testing' LIMIT 1");
    expect((await server.call('card.customerRecharge.paymentAmount', { iccids: [stock.iccid], years: 1 }, { token: t.tadmin })).code).toBe('409');
    const theirs = await freeCards('T0002', 'FS-CMCC-NB-30', 1);
    expect(await codeOf(server, 'card.customerRecharge.paymentAmount', { iccids: [theirs[0].iccid], years: 1 }, t.tadmin)).toBe('404');
  });

  it('cancels a pending recharge (customer and order views), not a confirmed one', async () => {
    const pending = await one<{ code: string }>(server, "SELECT code FROM card_recharge WHERE tenant_code = 'T0001' AND state = 'pending_payment' ORDER BY id LIMIT 1");
    expect(await codeOf(server, 'card.customerRecharge.cancel', { code: pending.code }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'card.customerRecharge.cancel', { code: pending.code, reason: '<x>' }, t.tadmin)).toBe('400');
    expect((await ok<RechargeRecord>(server, 'card.customerRecharge.cancel', { code: pending.code, reason: '选错卡片' }, t.tadmin)).state).toBe('cancelled');
    const other = await one<{ code: string }>(server, "SELECT code FROM card_recharge WHERE tenant_code = 'T0001' AND state = 'pending_payment' ORDER BY id LIMIT 1");
    expect((await ok<RechargeRecord>(server, 'card.rechargeOrder.cancel', { code: other.code }, t.admin)).state).toBe('cancelled');
    const confirmed = await one<{ code: string }>(server, "SELECT code FROM card_recharge WHERE tenant_code = 'T0001' AND state = 'confirmed' LIMIT 1");
    expect((await server.call('card.rechargeOrder.cancel', { code: confirmed.code }, { token: t.tadmin })).message).toBe('当前状态（已确认）不允许取消');
  });

  it('lists, counts and exports recharges and rechargeable cards for the tenant', async () => {
    const orders = await page<RechargeRecord>(server, 'card.rechargeOrder.page', t.tadmin, { paymentMethod: 'corporate' });
    expect(orders.data.records.every((o) => o.tenantCode === 'T0001' && o.paymentMethod === 'corporate')).toBe(true);
    expect((await page(server, 'card.rechargeOrder.page', t.tadmin, { paymentMethod: 'cash' })).code).toBe('400');
    const cards = await page<{ expireTime: string; rechargeState: string; tenantCode: string }>(server, 'card.customerRecharge.page', t.badmin, { expiry: 'expiring60' }, { sort: [{ field: 'expireTime', order: 'asc' }] });
    expect(cards.data.total).toBeGreaterThan(0);
    expect(cards.data.records.every((c) => c.tenantCode === 'T0002')).toBe(true);
    const pendingCards = await page<{ rechargeState: string; pendingOrderCode: string }>(server, 'card.customerRecharge.page', t.admin, { rechargeState: 'pending' });
    expect(pendingCards.data.records.every((c) => ['pending_payment', 'paid'].includes(c.rechargeState) && c.pendingOrderCode !== '')).toBe(true);
    const stats = await ok<{ totalCards: number; expiring30: number; expiring60: number; expired: number; pendingPayment: number }>(server, 'card.customerRecharge.statisticsNum', {}, t.tadmin);
    expect(stats.totalCards).toBeGreaterThan(1000);
    expect(stats.expiring60).toBeGreaterThanOrEqual(stats.expiring30);
    expect(await codeOf(server, 'card.customerRecharge.statisticsNum', { x: 1 }, t.tadmin)).toBe('400');
    const sheet = await sheetRows((await download(server, 'card.customerRecharge.export', { expiry: 'expired' }, t.tadmin)).body);
    expect(sheet[0].slice(0, 3)).toEqual(['ICCID', 'MSISDN', '组织']);
    expect(sheet.slice(1).every((r) => Number(r[7]) < 0)).toBe(true);
    const orderSheet = await sheetRows((await download(server, 'card.rechargeOrder.export', { state: 'confirmed' }, t.tadmin)).body);
    expect(orderSheet.slice(1).every((r) => r[7] === '已确认')).toBe(true);
  });

  it('reminds a tenant of cards ending within 30 days, not platform staff', async () => {
    expect((await server.call('card.customerRecharge.isBulletBox', {}, { token: t.tadmin })).data).toBe('1');
    expect((await server.call('card.customerRecharge.isBulletBox', {}, { token: t.admin })).data).toBe('0');
    await server.db.query("UPDATE sim_card SET expires_at = now() + interval '400 days' WHERE tenant_code = 'T0002' AND state = 'active'");
    expect((await server.call('card.customerRecharge.isBulletBox', {}, { token: t.badmin })).data).toBe('0');
    expect(await codeOf(server, 'card.customerRecharge.isBulletBox', { now: 1 }, t.badmin)).toBe('400');
  });
});
