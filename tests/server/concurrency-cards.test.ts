// The concurrency suite, IoT cards (issue 17): card orders, deliveries, renewals, recharges,
// replacements and the cards' own states. Ten identical calls at once: exactly one wins ("200"),
// the others are refused as a second call one after another would be ("409" with the document's
// message), none answers a server error, and the cards, stock and amounts show the step taken
// once. Runs on PGlite and on PostgreSQL (server-pg).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { one, signIn, type Tokens } from './cards-helpers';
import { burst, oneWinner, scalar } from './concurrency-burst';

let server: TestServer;
let t: Tokens;

beforeAll(async () => {
  server = await startServer();
  t = await signIn(server);
});
afterAll(() => server.close());

const orderOf = (state: string, tenant: string, skip = 0) =>
  one<{ code: string; card_count: number; custom_code: string }>(
    server,
    `SELECT code, card_count, custom_code FROM card_order WHERE state = $1 AND tenant_code = $2 ORDER BY id LIMIT 1 OFFSET ${skip}`,
    [state, tenant],
  );

const freeStock = (custom: string) =>
  scalar<number>(server, "SELECT count(*)::int AS value FROM sim_card WHERE custom_code = $1 AND state = 'in_stock' AND delivery_code IS NULL AND alter_code IS NULL", [custom]);

describe('card orders', () => {
  it('card.order.confirm: one of ten confirmations receives the order and its delivery', async () => {
    const { code } = await orderOf('pending_confirm', 'T0001');
    const { data } = oneWinner(await burst<{ state: string }>(server, 'card.order.confirm', () => ({ code }), t.tadmin), { message: '当前状态（已确认）不允许确认' });
    expect(data.state).toBe('confirmed');
    expect(await scalar(server, "SELECT count(*)::int AS value FROM card_delivery WHERE order_code = $1 AND state = 'received'", [code])).toBe(1);
  });

  it('card.order.cancel: one of ten cancellations', async () => {
    const { code } = await orderOf('pending_delivery', 'T0001');
    oneWinner(await burst(server, 'card.order.cancel', (i) => ({ code, reason: `项目推迟 ${i}` }), t.tadmin), { message: '当前状态（已取消）不允许取消' });
    expect(await scalar(server, 'SELECT state AS value FROM card_order WHERE code = $1', [code])).toBe('cancelled');
  });
});

describe('deliveries', () => {
  it('generate, ship, revoke: each of ten at once happens once, and the stock moves once', async () => {
    const order = await orderOf('pending_delivery', 'T0002');
    const before = await freeStock(order.custom_code);

    const generated = oneWinner(await burst<{ code: string }>(server, 'card.delivery.generate', () => ({ orderCode: order.code }), t.operator), {
      message: '当前状态（发货中）不允许生成发货单',
    });
    const delivery = generated.data.code;
    expect(await scalar(server, 'SELECT count(*)::int AS value FROM card_delivery WHERE order_code = $1 AND state = $2', [order.code, 'created'])).toBe(1);
    expect(await scalar(server, 'SELECT count(*)::int AS value FROM sim_card WHERE delivery_code = $1', [delivery])).toBe(order.card_count);
    expect(await freeStock(order.custom_code)).toBe(before - order.card_count);

    oneWinner(await burst(server, 'card.delivery.confirm', (i) => ({ code: delivery, expressCompany: 'sf', expressNo: `SF10000000${i}` }), t.operator), {
      message: '当前状态（已发货）不允许确认发货',
    });
    expect(await scalar(server, "SELECT count(*)::int AS value FROM sim_card WHERE delivery_code = $1 AND state = 'testing' AND tenant_code = 'T0002'", [delivery])).toBe(order.card_count);
    expect(await scalar(server, 'SELECT state AS value FROM card_order WHERE code = $1', [order.code])).toBe('pending_confirm');

    oneWinner(await burst(server, 'card.delivery.revoke', (i) => ({ code: delivery, reason: `卡型错误 ${i}` }), t.operator), { message: '当前状态（已撤回）不允许撤回' });
    expect(await freeStock(order.custom_code)).toBe(before);
    expect(await scalar(server, 'SELECT state AS value FROM card_order WHERE code = $1', [order.code])).toBe('pending_delivery');
  });

  it('card.delivery.cancel: one of ten cancellations puts the cards back once', async () => {
    const order = await orderOf('pending_delivery', 'T0001');
    const before = await freeStock(order.custom_code);
    const created = await server.call<{ code: string }>('card.delivery.generate', { orderCode: order.code }, { token: t.admin });
    expect(created.code).toBe('200');
    oneWinner(await burst(server, 'card.delivery.cancel', () => ({ code: created.data!.code }), t.admin), { message: '当前状态（已取消）不允许取消' });
    expect(await freeStock(order.custom_code)).toBe(before);
    expect(await scalar(server, 'SELECT state AS value FROM card_order WHERE code = $1', [order.code])).toBe('pending_delivery');
  });
});

describe('renewals', () => {
  it('card.renew.confirm: one of ten confirmations makes one renewal order', async () => {
    const renew = await one<{ id: number; iccid: string }>(server, "SELECT id, iccid FROM card_renew WHERE tenant_code = 'T0001' AND state = 'registered' ORDER BY id LIMIT 1");
    const orders = await scalar<number>(server, 'SELECT count(*)::int AS value FROM card_renew_order');
    const { data } = oneWinner(await burst<{ orderCodes: string[] }>(server, 'card.renew.confirm', () => ({ id: renew.id }), t.tadmin), {
      message: `当前状态（已确认）不允许确认续费（${renew.iccid}）`,
    });
    expect(await scalar(server, 'SELECT count(*)::int AS value FROM card_renew_order')).toBe(orders + 1);
    expect(await scalar(server, 'SELECT order_code AS value FROM card_renew WHERE id = $1', [renew.id])).toBe(data.orderCodes[0]);
  });

  it('card.renew.onLock: one of ten locks', async () => {
    const renew = await one<{ id: number; iccid: string }>(server, "SELECT id, iccid FROM card_renew WHERE tenant_code = 'T0001' AND state = 'unregistered' ORDER BY id LIMIT 1");
    const { index } = oneWinner(await burst(server, 'card.renew.onLock', (i) => ({ id: renew.id, reason: `设备拆除 ${i}` }), t.operator), {
      message: `当前状态（已锁定）不允许锁定（${renew.iccid}）`,
    });
    expect(await one(server, 'SELECT state, lock_reason FROM card_renew WHERE id = $1', [renew.id])).toEqual({ state: 'locked', lock_reason: `设备拆除 ${index}` });
  });

  it('card.renewOrder.confirm: one of ten settlements extends each card once', async () => {
    const registered = await one<{ id: number; iccid: string; expires_at: Date; years: number }>(
      server,
      `SELECT r.id, r.iccid, r.expires_at, r.years FROM card_renew r JOIN sim_card s ON s.iccid = r.iccid AND s.expires_at = r.expires_at
        WHERE r.tenant_code = 'T0001' AND r.state = 'registered' AND s.state = 'active' ORDER BY r.id LIMIT 1`,
    );
    const confirmed = await server.call<{ orderCodes: string[] }>('card.renew.confirm', { id: registered.id }, { token: t.tadmin });
    expect(confirmed.code).toBe('200');
    const code = confirmed.data!.orderCodes[0];
    const { data } = oneWinner(await burst<{ extendedCards: number }>(server, 'card.renewOrder.confirm', () => ({ code }), t.tadmin), { message: '当前状态（已确认）不允许确认' });
    expect(data.extendedCards).toBe(1);
    const expected = new Date(registered.expires_at);
    expected.setUTCFullYear(expected.getUTCFullYear() + registered.years);
    expect((await scalar<Date>(server, 'SELECT expires_at AS value FROM sim_card WHERE iccid = $1', [registered.iccid])).toISOString()).toBe(expected.toISOString());
  });
});

describe('recharges', () => {
  it('a corporate recharge: ten orders for one card make one; ten cancellations cancel it once', async () => {
    const [card] = await server.db.query<{ iccid: string }>(
      `SELECT s.iccid FROM sim_card s WHERE s.tenant_code = 'T0002' AND s.state = 'active' AND s.expires_at > now()
          AND NOT EXISTS (SELECT 1 FROM card_recharge_item i JOIN card_recharge c ON c.code = i.recharge_code WHERE i.iccid = s.iccid AND c.state IN ('pending_payment', 'paid'))
        ORDER BY s.id LIMIT 1`,
    );
    const created = oneWinner(await burst<{ code: string }>(server, 'card.customerRecharge.corporatePaymentAmount', () => ({ iccids: [card.iccid], years: 1 }), t.badmin), {
      message: new RegExp(`^卡片 ${card.iccid} 已在未完成的充值订单 CZ\\d+ 中$`),
    });
    expect(
      await scalar(server, "SELECT count(*)::int AS value FROM card_recharge_item i JOIN card_recharge c ON c.code = i.recharge_code WHERE i.iccid = $1 AND c.state IN ('pending_payment', 'paid')", [card.iccid]),
    ).toBe(1);
    oneWinner(await burst(server, 'card.customerRecharge.cancel', () => ({ code: created.data.code }), t.badmin), { message: '当前状态（已取消）不允许取消' });
    expect(await scalar(server, 'SELECT state AS value FROM card_recharge WHERE code = $1', [created.data.code])).toBe('cancelled');
  });

  it('card.recharge.refresh: one of ten arrival checks extends the cards once', async () => {
    const recharge = await one<{ code: string; years: number }>(server, "SELECT code, years FROM card_recharge WHERE state = 'paid' ORDER BY id LIMIT 1");
    const cards = await server.db.query<{ iccid: string; expires_at: Date }>(
      `SELECT s.iccid, s.expires_at FROM card_recharge_item i JOIN sim_card s ON s.iccid = i.iccid WHERE i.recharge_code = $1 AND s.state IN ('active', 'suspended') ORDER BY s.iccid`,
      [recharge.code],
    );
    expect(cards.length).toBeGreaterThan(0);
    const started = Date.now();
    oneWinner(await burst(server, 'card.recharge.refresh', () => ({ code: recharge.code }), t.operator), { message: '当前状态（已确认）不允许到账确认' });
    const after = await server.db.query<{ iccid: string; expires_at: Date }>('SELECT iccid, expires_at FROM sim_card WHERE iccid = ANY($1::text[]) ORDER BY iccid', [cards.map((card) => card.iccid)]);
    for (const [index, card] of cards.entries()) {
      // Extended by the recharge's years once: from the old end, or from the check when it had passed.
      const from = new Date(Math.max(card.expires_at.getTime(), started));
      const once = new Date(from);
      once.setUTCFullYear(once.getUTCFullYear() + recharge.years);
      expect(Math.abs(after[index].expires_at.getTime() - once.getTime()), card.iccid).toBeLessThan(120_000);
    }
  });
});

describe('replacements', () => {
  it('apply, book the waybill, ship: each of ten at once happens once', async () => {
    const [card] = await server.db.query<{ iccid: string; state: string }>(
      "SELECT iccid, state FROM sim_card WHERE tenant_code = 'T0001' AND state = 'active' AND device_code IS NOT NULL AND alter_code IS NULL ORDER BY id DESC LIMIT 1",
    );
    const applied = oneWinner(await burst<{ code: string }>(server, 'card.alterDelivery.changeCard', (i) => ({ iccids: [card.iccid], reason: `卡座氧化 ${i}` }), t.tadmin), {
      message: new RegExp(`^卡片 ${card.iccid} 已在换卡申请 HK\\d+ 中$`),
    });
    const code = applied.data.code;
    expect(await scalar(server, 'SELECT count(*)::int AS value FROM card_alter_item WHERE old_iccid = $1', [card.iccid])).toBe(1);

    oneWinner(await burst(server, 'card.alterDelivery.jdCreate', () => ({ code }), t.operator), { message: '当前状态（已下单）不允许创建京东运单' });
    // One new card reserved, not one per call.
    expect(await scalar(server, "SELECT count(*)::int AS value FROM sim_card WHERE alter_code = $1 AND state = 'in_stock'", [code])).toBe(1);

    oneWinner(await burst(server, 'card.alterDelivery.confirm', () => ({ code }), t.operator), { message: '当前状态（已发货）不允许确认发货' });
    const newIccid = await scalar<string>(server, 'SELECT new_iccid AS value FROM card_alter_item WHERE alter_code = $1', [code]);
    expect(await one(server, 'SELECT state FROM sim_card WHERE iccid = $1', [newIccid])).toEqual({ state: card.state });
    expect(await one(server, 'SELECT state, replaced_by FROM sim_card WHERE iccid = $1', [card.iccid])).toEqual({ state: 'replaced', replaced_by: newIccid });
  });

  it('card.alterDelivery.cancel: one of ten cancellations frees the reserved card', async () => {
    const [card] = await server.db.query<{ iccid: string }>(
      "SELECT iccid FROM sim_card WHERE tenant_code = 'T0001' AND state = 'active' AND device_code IS NOT NULL AND alter_code IS NULL ORDER BY id DESC LIMIT 1",
    );
    const applied = await server.call<{ code: string }>('card.alterDelivery.changeCard', { iccids: [card.iccid], reason: '信号异常' }, { token: t.tadmin });
    expect(applied.code).toBe('200');
    const code = applied.data!.code;
    expect((await server.call('card.alterDelivery.jdCreate', { code }, { token: t.operator })).code).toBe('200');
    oneWinner(await burst(server, 'card.alterDelivery.cancel', (i) => ({ code, reason: `客户撤销 ${i}` }), t.operator), { message: '当前状态（已取消）不允许取消' });
    expect(await scalar(server, 'SELECT count(*)::int AS value FROM sim_card WHERE alter_code = $1', [code])).toBe(0);
  });
});

describe('cards', () => {
  it('card.sim.deactivate and resumption: one of ten each', async () => {
    const { iccid } = await one<{ iccid: string }>(server, "SELECT iccid FROM sim_card WHERE tenant_code = 'T0001' AND state = 'active' AND alter_code IS NULL AND expires_at > now() ORDER BY id LIMIT 1");
    const stopped = oneWinner(await burst(server, 'card.sim.deactivate', (i) => ({ iccid, reason: 'abnormal_usage', remark: `流量突增 ${i}` }), t.tadmin), {
      message: '当前状态（已停机）不允许停机',
    });
    expect(await one(server, 'SELECT state, remark FROM sim_card WHERE iccid = $1', [iccid])).toEqual({ state: 'suspended', remark: `流量突增 ${stopped.index}` });
    oneWinner(await burst(server, 'card.sim.resumption', () => ({ iccid }), t.tadmin), { message: '当前状态（已激活）不允许复机' });
    expect(await scalar(server, 'SELECT state AS value FROM sim_card WHERE iccid = $1', [iccid])).toBe('active');
  });

  it('card.tenantCard.save: one of ten hands the stock cards over', async () => {
    const stock = await server.db.query<{ iccid: string }>("SELECT iccid FROM sim_card WHERE state = 'in_stock' AND delivery_code IS NULL AND alter_code IS NULL ORDER BY id DESC LIMIT 3");
    const iccids = stock.map((card) => card.iccid);
    const { data } = oneWinner(await burst<{ assigned: number }>(server, 'card.tenantCard.save', () => ({ iccids, tenantCode: 'T0002' }), t.operator), {
      message: '当前状态（测试期）不允许分配租户',
    });
    expect(data.assigned).toBe(3);
    expect(await scalar(server, "SELECT count(*)::int AS value FROM sim_card WHERE iccid = ANY($1::text[]) AND state = 'testing' AND tenant_code = 'T0002'", [iccids])).toBe(3);
  });
});
