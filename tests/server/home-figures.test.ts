// 工作台 and the boards agree (issue 34): the fleet's figures have one definition each and one query
// (server/core/fleetFigures.ts). Every board's online figures — 设备看板 (dashboard.overview
// and its 历史态势), 品牌统计, the list's own summary (device.statistics) and the home pages — are
// compared with each other and with device.page's totals under the same scope and filter; the home
// pages' other figures with the totals of the lists they link to; and a device coming online moves
// all of them at once, while the days before keep what was recorded of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE } from '../../server/db/database';
import { businessDay } from '../../server/domain/businessTime';
import type { FieldHome } from '../../server/operations/home/fieldHome';
import type { PlatformHome } from '../../server/operations/home/platformHome';
import type { TenantHome } from '../../server/operations/home/tenantHome';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';

let server: TestServer;
let tadmin: string;
let tuser: string;
let repair: string;
let patrol: string;
let badmin: string;
let admin: string;
let operator: string;

async function signIn(): Promise<void> {
  [tadmin, tuser, repair, patrol, badmin, operator] = await Promise.all(['tadmin', 'tuser', 'repair', 'patrol', 'badmin', 'operator'].map((name) => server.login(name)));
  admin = await server.login('admin', ADMIN_PASSWORD);
}

beforeAll(async () => {
  server = await startServer();
  await signIn();
});
afterAll(() => server.close());

interface Caller {
  token: string;
  orgCode?: string;
}

async function data<T>(name: string, param: unknown, caller: Caller): Promise<T> {
  const answer = await server.call<T>(name, param, caller);
  expect(answer.code, `${name}: ${answer.message}`).toBe('200');
  return answer.data as T;
}

/** A list's total under a filter, as its pager shows it. */
async function total(name: string, param: Record<string, unknown>, caller: Caller): Promise<number> {
  const page = await data<{ total: number; totalAtLeast?: number }>(name, param, caller);
  expect(page.totalAtLeast, `${name} counted exactly`).toBeUndefined();
  return page.total;
}

interface Overview {
  deviceTotal: number;
  onlineCount: number;
  offlineCount: number;
  inactiveCount: number;
  onlineRate: number;
  faultyCount: number;
  lowBatteryCount: number;
  sleepingCount: number;
  alarmPending: number;
  alarmToday: number;
}
interface FleetStatistics {
  total: number;
  online: number;
  offline: number;
  inactive: number;
  onlineRate: number;
}
interface Situation {
  day: string;
  online: number | null;
  offline: number | null;
}

/** What every board says of the fleet within the caller's scope, and what the device list counts. */
async function boards(caller: Caller) {
  const [overview, statistics, situation, brand, brandStates, home, listed] = await Promise.all([
    data<Overview>('dashboard.overview', {}, caller),
    data<FleetStatistics>('device.statistics', {}, caller),
    data<Situation[]>('device.dashboard.historicalSituation', {}, caller),
    data<{ deviceCount: number; onlineCount: number; onlineRate: number; onlinePercent: number }>('brand.statistics.overview', { metric: 'summary' }, caller),
    data<Array<{ state: string; count: number }>>('brand.statistics.overview', { metric: 'deviceState' }, caller),
    data<TenantHome>('home.tenant.summary', {}, caller),
    Promise.all([total('device.page', {}, caller), ...['online', 'offline', 'inactive'].map((onlineState) => total('device.page', { onlineState }, caller))]),
  ]);
  return { overview, statistics, situation, brand, brandStates, home, listed: { total: listed[0], online: listed[1], offline: listed[2], inactive: listed[3] } };
}

function expectAgreement(seen: Awaited<ReturnType<typeof boards>>): void {
  const { overview, statistics, situation, brand, brandStates, home, listed } = seen;
  const rate = Math.round((listed.online / (listed.online + listed.offline)) * 1000) / 1000;
  expect(listed.online + listed.offline + listed.inactive).toBe(listed.total);
  expect({ total: overview.deviceTotal, online: overview.onlineCount, offline: overview.offlineCount, inactive: overview.inactiveCount }).toEqual(listed);
  expect({ total: statistics.total, online: statistics.online, offline: statistics.offline, inactive: statistics.inactive }).toEqual(listed);
  expect({ total: home.devices!.total, online: home.devices!.online, offline: home.devices!.offline, inactive: home.devices!.inactive }).toEqual(listed);
  expect({ total: brand.deviceCount, online: brand.onlineCount }).toEqual({ total: listed.total, online: listed.online });
  expect(Object.fromEntries(brandStates.map((state) => [state.state, state.count]))).toEqual({ online: listed.online, offline: listed.offline, inactive: listed.inactive });
  // 在线率: one definition (online over the devices that have connected), one value on every board.
  expect([statistics.onlineRate, brand.onlineRate, home.devices!.onlineRate]).toEqual([rate, rate, rate]);
  expect([overview.onlineRate, brand.onlinePercent, home.devices!.onlinePercent]).toEqual([Math.round(rate * 1000) / 10, Math.round(rate * 1000) / 10, Math.round(rate * 1000) / 10]);
  // The history ends where the cards stand.
  const today = situation.at(-1)!;
  expect(today.day).toBe(businessDay(server.now(), DEFAULT_TIME_ZONE));
  expect({ online: today.online, offline: today.offline }).toEqual({ online: listed.online, offline: listed.offline });
}

describe('the boards agree with each other and with the device list', () => {
  it.each([
    ['a tenant admin, the whole tenant', () => ({ token: tadmin })],
    ['a tenant admin, one project', () => ({ token: tadmin, orgCode: 'T0001P02' })],
    ['an ordinary user', () => ({ token: tuser })],
    ['the second tenant', () => ({ token: badmin })],
    ['platform staff at the platform root', () => ({ token: admin })],
    ['platform staff within a tenant', () => ({ token: admin, orgCode: 'T0002' })],
  ])('%s', async (_who, caller) => {
    expectAgreement(await boards(caller()));
  });

  it('device.statistics and device.page agree under the list’s filters; the board’s other cards are the lists’ totals', async () => {
    const caller = { token: tadmin };
    const [product] = await server.db.query<{ code: string }>("SELECT product_code AS code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1");
    for (const filter of [{ productCode: product.code }, { organizationCode: 'T0001P01' }, { productCode: product.code, organizationCode: 'T0001P02' }]) {
      const statistics = await data<FleetStatistics>('device.statistics', filter, caller);
      const counted = await Promise.all(['online', 'offline', 'inactive'].map((onlineState) => total('device.page', { ...filter, onlineState }, caller)));
      expect([statistics.online, statistics.offline, statistics.inactive]).toEqual(counted);
      expect(statistics.total).toBe(await total('device.page', filter, caller));
    }
    const overview = await data<Overview>('dashboard.overview', {}, caller);
    expect(overview.faultyCount).toBe(await total('device.page', { healthState: 'faulty' }, caller));
    expect(overview.lowBatteryCount).toBe(await total('device.battery.page', { batteryState: 'low' }, caller));
    expect(overview.sleepingCount).toBe(await total('device.sleep.page', {}, caller));
    expect(overview.alarmPending).toBe(await total('alarm.record.page', { state: 'pending' }, caller));
  });
});

describe('工作台 counts what its lists count', () => {
  it('a tenant admin: alarms by level, overdue work, cards about to expire', async () => {
    const caller = { token: tadmin };
    const home = await data<TenantHome>('home.tenant.summary', {}, caller);
    const alarms = home.alarms!;
    const today = businessDay(server.now(), DEFAULT_TIME_ZONE);
    expect(alarms.todayRange).toEqual([`${today} 00:00:00`, `${today} 23:59:59`]);
    expect(alarms.pending.total).toBeGreaterThan(0);
    for (const { level, count } of alarms.pending.levels) expect(count).toBe(await total('alarm.record.page', { state: 'pending', level }, caller));
    for (const { level, count } of alarms.today.levels) expect(count).toBe(await total('alarm.record.page', { timeRange: alarms.todayRange, level }, caller));
    expect(alarms.pending.total).toBe(await total('alarm.record.page', { state: 'pending' }, caller));
    expect(home.repair).toEqual({
      overdue: { count: await total('repair.order.page', { overdue: '1' }, caller), estimated: false },
      created: { count: await total('repair.order.page', { state: 'created' }, caller), estimated: false },
    });
    expect(home.repair!.overdue.count).toBeGreaterThan(0);
    expect(home.patrol).toEqual({ overdue: { count: await total('patrol.task.page', { state: 'overdue' }, caller), estimated: false } });
    expect(home.cards).toEqual({ expiring30: { count: await total('card.sim.page', { expiry: 'expiring30' }, caller), estimated: false } });
    expect(home.cards!.expiring30.count).toBeGreaterThan(0);
  });

  it('a section shows only to those whose menus hold its list; a role with none is refused', async () => {
    const ordinary = await data<TenantHome>('home.tenant.summary', {}, { token: tuser });
    // 物联网卡 is the tenant admin's menu only.
    expect(ordinary.cards).toBeNull();
    expect(ordinary.devices).not.toBeNull();
    const patroller = await data<FieldHome>('home.field.summary', {}, { token: patrol });
    expect(patroller.repair).toBeNull();
    expect(patroller.patrol).not.toBeNull();
    expect((await server.call('home.platform.summary', {}, { token: tadmin })).code).toBe('403');
    // The operator has no device menu: the platform home leaves the fleet out.
    const platform = await data<PlatformHome>('home.platform.summary', {}, { token: operator });
    expect(platform.devices).toBeNull();
    expect(platform.tenants).not.toBeNull();
    const [{ id }] = await server.db.query<{ id: number }>("SELECT id FROM app_user WHERE login_name = 'patrol'");
    await server.db.query("UPDATE user_role SET role_code = 'ROLE_REPAIR_IMPLEMENT' WHERE user_id = $1", [id]);
    // Implementers hold 维修工单 but not 巡检任务; a role holding neither list is refused.
    expect((await data<FieldHome>('home.field.summary', {}, { token: patrol })).patrol).toBeNull();
    await server.db.query("DELETE FROM role_resource g USING resource r WHERE g.resource_code = r.code AND g.role_code = 'ROLE_REPAIR_IMPLEMENT' AND r.view = 'repair/order'");
    expect((await server.call('home.field.summary', {}, { token: patrol })).code).toBe('403');
    expect((await server.call('dev.reset')).code).toBe('200');
    await signIn();
  });

  it('repair staff: their own orders by state and the overdue ones, as their list shows them', async () => {
    const caller = { token: repair };
    const home = await data<FieldHome>('home.field.summary', {}, caller);
    const counted = async (param: Record<string, unknown>) => ({ count: await total('repair.order.page', param, caller), estimated: false });
    expect(home.repair).toEqual({
      assigned: await counted({ state: 'assigned' }),
      accepted: await counted({ state: 'accepted' }),
      inProgress: await counted({ state: 'in_progress' }),
      overdue: await counted({ overdue: '1' }),
    });
    const [{ mine }] = await server.db.query<{ mine: number }>(
      "SELECT count(*)::int AS mine FROM work_order w JOIN app_user u ON u.id = w.assignee_id WHERE u.login_name = 'repair' AND w.type = 'repair' AND w.state IN ('assigned', 'accepted', 'in_progress')",
    );
    expect(home.repair!.assigned.count + home.repair!.accepted.count + home.repair!.inProgress.count).toBe(mine);
    expect(mine).toBeGreaterThan(0);
    const patroller = await data<FieldHome>('home.field.summary', {}, { token: patrol });
    for (const [key, state] of [['pending', 'pending'], ['inProgress', 'in_progress'], ['overdue', 'overdue']] as const) {
      expect(patroller.patrol![key].count).toBe(await total('patrol.task.page', { state }, { token: patrol }));
    }
  });

  it('platform staff: the tenants, the whole fleet and the failed deliveries, as their lists count them', async () => {
    const caller = { token: admin };
    const home = await data<PlatformHome>('home.platform.summary', {}, caller);
    expect(home.tenants!.total).toBe(await total('tenant.config.page', {}, caller));
    for (const tenant of home.tenants!.largest) {
      const within = { token: admin, orgCode: tenant.code };
      expect([tenant.devices, tenant.online, tenant.offline, tenant.inactive]).toEqual(
        await Promise.all([total('device.page', {}, within), ...['online', 'offline', 'inactive'].map((onlineState) => total('device.page', { onlineState }, within))]),
      );
    }
    expect(home.tenants!.largest.map((tenant) => tenant.code)).toEqual(['T0001', 'T0002']);
    expect(home.devices!.total).toBe(await total('device.page', {}, caller));
    expect(home.deliveries!.failed.count).toBe(await total('notification.delivery.page', { state: 'failed' }, caller));
    expect(home.deliveries!.pending.count).toBe(await total('notification.delivery.page', { state: 'pending' }, caller));
  });
});

describe('the figures follow the fleet', () => {
  const report = (code: string, secret: string, metrics: Record<string, number>) =>
    server.app.inject({
      method: 'POST',
      url: '/api/device/telemetry/_report',
      headers: { 'x-device-code': code, 'x-device-secret': secret, 'content-type': 'application/json' },
      payload: JSON.stringify({ metrics }),
    });

  it('a device coming online moves every board at once; the days before keep what was recorded', async () => {
    const caller = { token: tadmin };
    const before = await boards(caller);
    const [device] = await server.db.query<{ code: string }>("SELECT code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL AND online_state = 'offline' ORDER BY code LIMIT 1");
    const secret = (await data<{ secret: string }>('device.credential.reset', { code: device.code }, caller)).secret;
    for (let n = 0; n < 3; n += 1) expect((await report(device.code, secret, { temperature: 20 + n })).statusCode).toBe(200);
    const after = await boards(caller);
    expectAgreement(after);
    expect(after.listed).toEqual({ ...before.listed, online: before.listed.online + 1, offline: before.listed.offline - 1 });
    // Yesterday is what was recorded then; today moved.
    expect(after.situation.slice(0, -1)).toEqual(before.situation.slice(0, -1));
    expect(after.situation.at(-2)!.online).not.toBeNull();
    // Three readings stored within the window, none of the other tenant's.
    expect(after.home.devices!.readings).toBe(before.home.devices!.readings + 3);
    expect((await data<TenantHome>('home.tenant.summary', {}, { token: badmin })).devices!.readings).toBe(0);
    const platform = await data<PlatformHome>('home.platform.summary', {}, { token: admin });
    expect(platform.messages!.readings).toBe(after.home.devices!.readings);
    expect(platform.messages!.perSecond).toBeCloseTo(platform.messages!.readings / platform.messages!.windowSeconds, 2);
  });

  it('the tally follows every kind of change to the devices (moves, health, batteries, sleep, deletion)', async () => {
    const caller = { token: tadmin };
    const ids = (await server.db.query<{ id: number }>("SELECT id FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL ORDER BY id LIMIT 40")).map((row) => row.id);
    await server.db.query("UPDATE device SET organization_code = 'T0001P02', health_state = 'faulty' WHERE id = ANY($1::int[]) AND gateway_code IS NULL", [ids.slice(0, 10)]);
    await server.db.query('UPDATE device SET battery_level = 7, sleeping = true WHERE id = ANY($1::int[])', [ids.slice(10, 20)]);
    await server.db.query("UPDATE device SET online_state = 'inactive' WHERE id = ANY($1::int[])", [ids.slice(20, 30)]);
    await server.db.query('UPDATE device SET deleted_at = now() WHERE id = ANY($1::int[]) AND NOT EXISTS (SELECT 1 FROM device s WHERE s.gateway_code = device.code)', [ids.slice(30, 40)]);
    for (const scope of [caller, { token: tadmin, orgCode: 'T0001P02' }]) expectAgreement(await boards(scope));
    const overview = await data<Overview>('dashboard.overview', {}, caller);
    expect(overview.faultyCount).toBe(await total('device.page', { healthState: 'faulty' }, caller));
    expect(overview.lowBatteryCount).toBe(await total('device.battery.page', { batteryState: 'low' }, caller));
    expect(overview.sleepingCount).toBe(await total('device.sleep.page', {}, caller));
    expect((await server.call('dev.reset')).code).toBe('200');
    await signIn();
    expectAgreement(await boards({ token: tadmin }));
  });
});
