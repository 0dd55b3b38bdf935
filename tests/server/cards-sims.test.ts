// The cards themselves (issue 7): list and filters, detail, operator and session information,
// suspend and resume, the sync with the operators, handing stock to a tenant, data use, and the
// replacement of faulty cards (alter delivery) from application to recovery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE } from '../../server/db/database';
import { businessMonth } from '../../server/domain/businessTime';
import type { CardRecord } from '../../server/operations/cards/sims';
import { startServer, type TestServer } from './harness';
import { codeOf, download, ok, one, page, sheetRows, signIn, type Tokens } from './cards-helpers';

let server: TestServer;
let t: Tokens;

beforeAll(async () => {
  server = await startServer();
  t = await signIn(server);
});
afterAll(() => server.close());

/** A card of the tenant in the given state, not in a replacement. */
const cardOf = (tenant: string, state: string, extra = 'TRUE') =>
  one<{ iccid: string; device_code: string | null; expires_at: Date | null }>(
    server,
    `SELECT iccid, device_code, expires_at FROM sim_card WHERE tenant_code = $1 AND state = $2 AND alter_code IS NULL AND ${extra} ORDER BY id LIMIT 1`,
    [tenant, state],
  );

describe('card.sim.page and card.sim.export', () => {
  it('shows a tenant its own cards, platform staff every card with the stock', async () => {
    const mine = await page<CardRecord>(server, 'card.sim.page', t.tadmin, {}, { pageSize: 200 });
    expect(mine.data.total).toBeGreaterThan(5000);
    expect(new Set(mine.data.records.map((c) => c.tenantCode))).toEqual(new Set(['T0001']));
    const stock = await page<CardRecord>(server, 'card.sim.page', t.admin, { state: 'in_stock' });
    expect(stock.data.total).toBeGreaterThan(1000);
    expect((await page<CardRecord>(server, 'card.sim.page', t.tadmin, { state: 'in_stock' })).data.total).toBe(0);
  });

  it('holds thousands of cards in every state', async () => {
    const counts = await server.db.query<{ state: string; n: number }>('SELECT state, count(*)::int AS n FROM sim_card GROUP BY state ORDER BY state');
    expect(counts.map((c) => c.state)).toEqual(['active', 'deactivated', 'in_stock', 'replaced', 'suspended', 'testing']);
    for (const { state, n } of counts) expect(n, state).toBeGreaterThanOrEqual(1000);
  });

  it('filters by state, operator, expiry window, binding, organisation and keyword', async () => {
    const expiring = await page<CardRecord>(server, 'card.sim.page', t.tadmin, { expiry: 'expiring30', state: 'active' }, { sort: [{ field: 'expireTime', order: 'asc' }] });
    expect(expiring.data.total).toBeGreaterThan(0);
    for (const card of expiring.data.records) {
      expect(card.daysLeft).toBeGreaterThanOrEqual(0);
      expect(card.daysLeft).toBeLessThanOrEqual(30);
    }
    const unicom = await page<CardRecord>(server, 'card.sim.page', t.badmin, { operator: 'cucc' });
    expect(unicom.data.records.every((c) => c.operator === 'cucc' && c.tenantCode === 'T0002')).toBe(true);
    const bound = await page<CardRecord>(server, 'card.sim.page', t.tadmin, { bound: 'yes', organizationCode: 'T0001P01' });
    expect(bound.data.records.every((c) => c.deviceCode !== '' && c.organizationCode.startsWith('T0001P01'))).toBe(true);
    const { iccid } = await cardOf('T0001', 'active');
    const found = await page<CardRecord>(server, 'card.sim.page', t.tadmin, { keyword: iccid });
    expect(found.data.records.map((c) => c.iccid)).toEqual([iccid]);
    expect((await page<CardRecord>(server, 'card.sim.page', t.badmin, { keyword: iccid })).data.total).toBe(0);
    expect((await page(server, 'card.sim.page', t.tadmin, { expiry: 'soon' })).code).toBe('400');
    expect((await page(server, 'card.sim.page', t.tuser)).code).toBe('403');
  });

  it('exports the filtered cards', async () => {
    const file = await download(server, 'card.sim.export', { state: 'suspended', operator: 'ctcc' }, t.tadmin);
    const rows = await sheetRows(file.body);
    expect(rows[0].slice(0, 5)).toEqual(['ICCID', 'MSISDN', '运营商', '资费套餐', '状态']);
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.slice(1).every((r) => r[2] === '中国电信' && r[4] === '已停机' && r[5] === '杭州云联科技有限公司')).toBe(true);
    expect((await download(server, 'card.sim.export', { state: 'x' }, t.tadmin)).envelope?.code).toBe('400');
  });
});

describe('card.sim.detail, operDetail, runInfo and the data-use checks', () => {
  it('details a card with its history; another tenant’s card is not found', async () => {
    const { iccid, device_code } = await cardOf('T0001', 'active', 'device_code IS NOT NULL');
    const detail = await ok<CardRecord & { history: Array<{ kind: string }>; stateName: string }>(server, 'card.sim.detail', { iccid }, t.tadmin);
    expect(detail).toMatchObject({ iccid, deviceCode: device_code, stateName: '已激活', tenantCode: 'T0001' });
    expect(detail.history.map((h) => h.kind)).toContain('发货');
    expect(await codeOf(server, 'card.sim.detail', { iccid }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'card.sim.detail', { iccid: '12345' }, t.tadmin)).toBe('400');
  });

  it('answers the operator’s view and the session of a card', async () => {
    const { iccid } = await cardOf('T0002', 'active', 'device_code IS NOT NULL');
    const oper = await ok<{ operatorName: string; platformName: string; operatorStatus: string; imeiLocked: boolean }>(server, 'card.sim.operDetail', { iccid }, t.badmin);
    expect(oper).toMatchObject({ operatorName: '中国移动', platformName: '中国移动 OneLink', operatorStatus: '正使用', imeiLocked: true });
    const run = await ok<{ online: boolean; flowMb: number; usagePercent: number; rat: string }>(server, 'card.sim.runInfo', { iccid }, t.badmin);
    expect(run.flowMb).toBeGreaterThan(0);
    expect(['nb', '4g', 'cat1']).toContain(run.rat);
    expect(await codeOf(server, 'card.sim.operDetail', { iccid }, t.tadmin)).toBe('404');
    expect(await codeOf(server, 'card.sim.runInfo', { iccid }, t.tadmin)).toBe('404');
    expect(await codeOf(server, 'card.sim.runInfo', { iccid: 7 }, t.badmin)).toBe('400');
  });

  it('gives six months of data use and checks this month against the package', async () => {
    const { iccid } = await cardOf('T0001', 'active');
    const months = await ok<Array<{ month: string; usedMb: number; flowMb: number }>>(server, 'card.flowPackage.usedList', { iccid }, t.tadmin);
    expect(months).toHaveLength(6);
    // This business month (Asia/Shanghai, the database session's zone).
    expect(months[5].month).toBe(businessMonth(new Date(), DEFAULT_TIME_ZONE));
    const [card] = await server.db.query<{ month_used_mb: string }>('SELECT month_used_mb FROM sim_card WHERE iccid = $1', [iccid]);
    expect(months[5].usedMb).toBe(Number(card.month_used_mb));
    await server.db.query('UPDATE sim_card SET month_used_mb = flow_mb * 1.2 WHERE iccid = $1', [iccid]);
    const check = await ok<{ level: string; remainingMb: number }>(server, 'card.flowPackage.check', { iccid }, t.tadmin);
    expect(check).toMatchObject({ level: 'exceeded', remainingMb: 0 });
    expect(await codeOf(server, 'card.flowPackage.check', { iccid }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'card.flowPackage.usedList', {}, t.tadmin)).toBe('400');
  });

  it('lists the cease reasons from the dictionary', async () => {
    const reasons = await ok<Array<{ value: string; label: string }>>(server, 'card.ceaseReason.list', {}, t.tadmin);
    expect(reasons.map((r) => r.value)).toEqual(['customer_request', 'abnormal_usage', 'machine_card_separation', 'arrears', 'expired']);
    expect(await codeOf(server, 'card.ceaseReason.list', { all: 1 }, t.tadmin)).toBe('400');
  });
});

describe('card.sim.deactivate, resumption and sync', () => {
  it('suspends an active card with a reason and resumes it; each only from its state', async () => {
    const { iccid } = await cardOf('T0001', 'active');
    expect(await codeOf(server, 'card.sim.deactivate', { iccid, reason: 'because' }, t.tadmin)).toBe('400');
    expect(await codeOf(server, 'card.sim.deactivate', { iccid, reason: 'abnormal_usage' }, t.badmin)).toBe('404');
    expect(await codeOf(server, 'card.sim.deactivate', { iccid, reason: 'abnormal_usage' }, t.operator)).toBe('403');
    const suspended = await ok<CardRecord>(server, 'card.sim.deactivate', { iccid, reason: 'abnormal_usage', remark: '夜间流量突增' }, t.tadmin);
    expect(suspended).toMatchObject({ state: 'suspended', ceaseReason: 'abnormal_usage' });
    expect((await server.call('card.sim.deactivate', { iccid, reason: 'arrears' }, { token: t.tadmin })).message).toBe('当前状态（已停机）不允许停机');
    const resumed = await ok<CardRecord>(server, 'card.sim.resumption', { iccid }, t.tadmin);
    expect(resumed).toMatchObject({ state: 'active', ceaseReason: '' });
    expect(await codeOf(server, 'card.sim.resumption', { iccid }, t.tadmin)).toBe('409');
  });

  it('will not resume a card whose service has ended', async () => {
    const { iccid } = await cardOf('T0002', 'suspended', "cease_reason = 'expired' AND expires_at < now()");
    expect((await server.call('card.sim.resumption', { iccid }, { token: t.badmin })).message).toBe('卡片服务已到期，请先续费或充值');
  });

  it('syncs with the operators: ended test periods start, ended services stop, renewals come up', async () => {
    const testing = await cardOf('T0001', 'testing');
    const ending = await cardOf('T0001', 'active');
    await server.db.query("UPDATE sim_card SET test_until = now() - interval '1 day' WHERE iccid = $1", [testing.iccid]);
    await server.db.query("UPDATE sim_card SET expires_at = now() - interval '1 hour' WHERE iccid = $1", [ending.iccid]);
    expect(await codeOf(server, 'card.sim.sync', { iccids: [testing.iccid] }, t.tadmin)).toBe('403');
    expect(await codeOf(server, 'card.sim.sync', { iccids: ['x'] }, t.operator)).toBe('400');
    const result = await ok<{ synced: number; started: number; suspended: number }>(server, 'card.sim.sync', { iccids: [testing.iccid, ending.iccid] }, t.operator);
    expect(result).toMatchObject({ synced: 2, started: 1, suspended: 1 });
    const after = await server.db.query<{ iccid: string; state: string; cease_reason: string | null; expires_at: Date | null }>(
      'SELECT iccid, state, cease_reason, expires_at FROM sim_card WHERE iccid = ANY($1::text[]) ORDER BY iccid',
      [[testing.iccid, ending.iccid]],
    );
    const started = after.find((c) => c.iccid === testing.iccid)!;
    expect(started.state).toBe('active');
    expect(started.expires_at!.getTime()).toBeGreaterThan(Date.now());
    expect(after.find((c) => c.iccid === ending.iccid)).toMatchObject({ state: 'suspended', cease_reason: 'expired' });
    expect(await one(server, 'SELECT state FROM card_renew WHERE iccid = $1 ORDER BY id DESC LIMIT 1', [ending.iccid])).toEqual({ state: 'unregistered' });
  });
});

describe('card.tenantCard.save', () => {
  it('hands stock cards to a tenant in their test period; not twice, not to a non-tenant', async () => {
    const stock = await server.db.query<{ iccid: string }>("SELECT iccid FROM sim_card WHERE state = 'in_stock' AND delivery_code IS NULL AND alter_code IS NULL ORDER BY id LIMIT 3");
    const iccids = stock.map((s) => s.iccid);
    expect(await codeOf(server, 'card.tenantCard.save', { iccids, tenantCode: 'T0002' }, t.tadmin)).toBe('403');
    expect(await codeOf(server, 'card.tenantCard.save', { iccids, tenantCode: 'T0001P01' }, t.admin)).toBe('404');
    expect(await codeOf(server, 'card.tenantCard.save', { iccids, tenantCode: 'T0002', organizationCode: 'T0001P01' }, t.admin)).toBe('400');
    expect(await codeOf(server, 'card.tenantCard.save', { iccids: [], tenantCode: 'T0002' }, t.admin)).toBe('400');
    expect(await ok(server, 'card.tenantCard.save', { iccids, tenantCode: 'T0002', organizationCode: 'T0002P01' }, t.operator)).toEqual({ assigned: 3, tenantCode: 'T0002', organizationCode: 'T0002P01' });
    const cards = await page<CardRecord>(server, 'card.sim.page', t.badmin, { keyword: iccids[0] });
    expect(cards.data.records[0]).toMatchObject({ state: 'testing', organizationCode: 'T0002P01' });
    expect((await server.call('card.tenantCard.save', { iccids, tenantCode: 'T0001' }, { token: t.admin })).code).toBe('409');
  });
});

describe('card replacement (card.alterDelivery.*)', () => {
  interface Alter {
    code: string;
    state: string;
    kind: string;
    cardCount: number;
    assignedCount: number;
    recoveredCount: number;
    expressNo: string;
    receiver: string;
  }

  it('walks a replacement: application, more cards, JD waybill, shipment moving the device, recovery', async () => {
    const cards = await server.db.query<{ iccid: string; device_code: string; expires_at: Date; custom_code: string }>(
      "SELECT iccid, device_code, expires_at, custom_code FROM sim_card WHERE tenant_code = 'T0001' AND state = 'active' AND device_code IS NOT NULL AND alter_code IS NULL ORDER BY id DESC LIMIT 3",
    );
    const [first, second, third] = cards;
    expect(await codeOf(server, 'card.alterDelivery.changeCard', { iccids: [first.iccid], reason: '' }, t.tadmin)).toBe('400');
    expect(await codeOf(server, 'card.alterDelivery.changeCard', { iccids: [first.iccid], reason: '卡座氧化' }, t.badmin)).toBe('404');
    const applied = await ok<Alter>(server, 'card.alterDelivery.changeCard', { iccids: [first.iccid, second.iccid], reason: '卡座氧化，信号时断时续' }, t.tadmin);
    expect(applied).toMatchObject({ state: 'applied', kind: 'with_card', cardCount: 2, receiver: '张明' });
    expect((await server.call('card.alterDelivery.changeCard', { iccids: [first.iccid], reason: '重复申请' }, { token: t.tadmin })).code).toBe('409');
    expect((await ok<Alter>(server, 'card.alterDelivery.nextChangeCard', { code: applied.code, iccids: [third.iccid] }, t.tadmin)).cardCount).toBe(3);
    expect(await codeOf(server, 'card.alterDelivery.nextChangeCard', { code: applied.code, iccids: [third.iccid] }, t.badmin)).toBe('404');

    expect(await codeOf(server, 'card.alterDelivery.confirm', { code: applied.code }, t.operator)).toBe('409');
    expect(await codeOf(server, 'card.alterDelivery.jdCreate', { code: applied.code }, t.tadmin)).toBe('403');
    expect(await codeOf(server, 'card.alterDelivery.jdCreate', { code: applied.code, expressNo: 'JD 1' }, t.operator)).toBe('400');
    const waybill = await ok<Alter>(server, 'card.alterDelivery.jdCreate', { code: applied.code }, t.operator);
    expect(waybill).toMatchObject({ state: 'created', assignedCount: 3 });
    expect(waybill.expressNo).toMatch(/^JDVA\d+$/);
    expect(await codeOf(server, 'card.alterDelivery.nextChangeCard', { code: applied.code, iccids: [first.iccid] }, t.tadmin)).toBe('409');

    await ok(server, 'card.alterDelivery.confirm', { code: applied.code }, t.operator);
    const detail = await ok<Alter & { items: Array<{ oldIccid: string; newIccid: string; deviceCode: string; recovered: boolean }> }>(server, 'card.alterDelivery.detail', { code: applied.code }, t.tadmin);
    expect(detail.state).toBe('shipped');
    const item = detail.items.find((i) => i.oldIccid === first.iccid)!;
    const [moved] = await server.db.query<{ iccid: string }>('SELECT iccid FROM device WHERE code = $1', [first.device_code]);
    expect(moved.iccid).toBe(item.newIccid);
    const replacement = await one<{ state: string; tenant_code: string; device_code: string; expires_at: Date; custom_code: string }>(server, 'SELECT state, tenant_code, device_code, expires_at, custom_code FROM sim_card WHERE iccid = $1', [item.newIccid]);
    expect(replacement).toMatchObject({ state: 'active', tenant_code: 'T0001', device_code: first.device_code, custom_code: first.custom_code });
    expect(replacement.expires_at.getTime()).toBe(first.expires_at.getTime());
    expect(await one(server, 'SELECT state, replaced_by, device_code FROM sim_card WHERE iccid = $1', [first.iccid])).toEqual({ state: 'replaced', replaced_by: item.newIccid, device_code: null });

    expect(await codeOf(server, 'card.alterDelivery.recovery', { code: applied.code, iccids: ['89860000000000000000'] }, t.operator)).toBe('404');
    const partly = await ok<{ recovered: number; remaining: number; alter: Alter }>(server, 'card.alterDelivery.recovery', { code: applied.code, iccids: [first.iccid] }, t.operator);
    expect(partly).toMatchObject({ recovered: 1, remaining: 2, alter: { state: 'shipped', recoveredCount: 1 } });
    const all = await ok<{ recovered: number; alter: Alter }>(server, 'card.alterDelivery.recoveryAll', { code: applied.code }, t.operator);
    expect(all).toMatchObject({ recovered: 2, alter: { state: 'recovered', recoveredCount: 3 } });
    expect(await codeOf(server, 'card.alterDelivery.recoveryAll', { code: applied.code }, t.operator)).toBe('409');
  });

  it('replaces without the old card, and has nothing to recover', async () => {
    const { iccid } = await cardOf('T0002', 'active', 'device_code IS NOT NULL');
    const alter = await ok<Alter>(server, 'card.alterDelivery.noCardChangeCard', { iccids: [iccid], reason: '设备丢失，卡片无法寄回', receiverPhone: '13912345678' }, t.badmin);
    expect(alter).toMatchObject({ kind: 'no_card', state: 'applied' });
    await ok(server, 'card.alterDelivery.jdCreate', { code: alter.code, expressNo: 'JDVA00998877' }, t.admin);
    await ok(server, 'card.alterDelivery.confirm', { code: alter.code }, t.admin);
    expect((await server.call('card.alterDelivery.recoveryAll', { code: alter.code }, { token: t.admin })).message).toBe('无卡换卡无需回收旧卡');
  });

  it('cancels an application with its reserved new cards, only before shipment', async () => {
    const { iccid } = await cardOf('T0001', 'active', 'device_code IS NOT NULL');
    const alter = await ok<Alter>(server, 'card.alterDelivery.changeCard', { iccids: [iccid], reason: '信号异常' }, t.tadmin);
    await ok(server, 'card.alterDelivery.jdCreate', { code: alter.code }, t.operator);
    const [reserved] = await server.db.query<{ new_iccid: string }>('SELECT new_iccid FROM card_alter_item WHERE alter_code = $1', [alter.code]);
    expect(await codeOf(server, 'card.alterDelivery.cancel', { code: alter.code }, t.tadmin)).toBe('403');
    expect((await ok<Alter>(server, 'card.alterDelivery.cancel', { code: alter.code, reason: '客户撤销' }, t.operator)).state).toBe('cancelled');
    expect(await one(server, 'SELECT state, alter_code FROM sim_card WHERE iccid = $1', [reserved.new_iccid])).toEqual({ state: 'in_stock', alter_code: null });
    expect(await one(server, 'SELECT alter_code FROM sim_card WHERE iccid = $1', [iccid])).toEqual({ alter_code: null });
    expect(await codeOf(server, 'card.alterDelivery.cancel', { code: alter.code }, t.operator)).toBe('409');
  });

  it('lists replacements by state and kind; a tenant sees its own', async () => {
    const mine = await page<Alter & { tenantCode: string }>(server, 'card.alterDelivery.page', t.badmin, {}, { pageSize: 100 });
    expect(mine.data.total).toBeGreaterThan(5);
    expect(mine.data.records.every((a) => a.tenantCode === 'T0002')).toBe(true);
    const noCard = await page<Alter>(server, 'card.alterDelivery.page', t.admin, { kind: 'no_card', state: 'shipped' });
    expect(noCard.data.records.every((a) => a.kind === 'no_card' && a.state === 'shipped')).toBe(true);
    const { code } = await one<{ code: string }>(server, "SELECT code FROM card_alter WHERE tenant_code = 'T0001' LIMIT 1");
    expect(await codeOf(server, 'card.alterDelivery.detail', { code }, t.badmin)).toBe('404');
    expect((await page(server, 'card.alterDelivery.page', t.admin, { kind: 'both' })).code).toBe('400');
  });
});
