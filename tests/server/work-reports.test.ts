// Fault reports, repair batches and the repair summary (issue 6). Reports are seen by their
// reporter (repair and patrol staff) or by organisation (managers); an administrator turns one
// into a repair order or deletes it. A batch creates one repair order per device; implementers
// see only the batches, and the orders in them, assigned to them. Another tenant's report or
// batch answers "404".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { deviceOf, download, later, pageOf, userId } from './work-helpers';

interface Report {
  code: string;
  state: string;
  deviceCode: string;
  reporterName: string;
  organizationCode: string;
  orderCode: string;
  canConvert: boolean;
  canDelete: boolean;
}
interface Batch {
  code: string;
  name: string;
  deviceCount: number;
  doneCount: number;
  pendingCount: number;
  progress: number;
  organizationCode: string;
}
interface Order {
  code: string;
  state: string;
  assigneeId: number | null;
  batchCode: string;
  source: string;
  sourceCode: string;
  deviceCode: string;
}
interface Summary {
  key: string;
  name: string;
  total: number;
  completed: number;
  completionRate: number;
  totalCost: number;
}

let server: TestServer;
let tadmin: string;
let badmin: string;
let tuser: string;
let repair: string;
let patrol: string;
let implement: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin, tuser, repair, patrol, implement] = await Promise.all(['tadmin', 'badmin', 'tuser', 'repair', 'patrol', 'implement'].map((name) => server.login(name)));
});
afterAll(() => server.close());

const call = <T = unknown>(name: string, param: unknown, token: string) => server.call<T>(name, param, { token });

async function reportCode(state: string, reporter?: string, tenant = 'T0001', skip = 0): Promise<string> {
  const rows = await server.db.query<{ code: string }>(
    `SELECT code FROM repair_report WHERE state = $1 AND tenant_code = $2 ${reporter ? 'AND reporter_id = (SELECT id FROM app_user WHERE login_name = $3)' : ''} ORDER BY id LIMIT 1 OFFSET ${skip}`,
    reporter ? [state, tenant, reporter] : [state, tenant],
  );
  return rows[0].code;
}

async function batchCode(tenant: string, assignee?: string): Promise<string> {
  const rows = await server.db.query<{ code: string }>(
    `SELECT code FROM repair_batch WHERE tenant_code = $1 ${assignee ? 'AND assignee_id = (SELECT id FROM app_user WHERE login_name = $2)' : ''} ORDER BY id LIMIT 1`,
    assignee ? [tenant, assignee] : [tenant],
  );
  return rows[0].code;
}

describe('repair.report.page and repair.report.detail', () => {
  it('shows managers their organisations’ reports and reporters their own', async () => {
    const all = await pageOf<Report>(server, 'repair.report.page', tadmin, {}, { pageSize: 500 });
    expect(all.data!.total).toBe(300);
    expect(new Set(all.data!.records.map((report) => report.state))).toEqual(new Set(['pending', 'converted']));
    expect(all.data!.records.filter((report) => report.state === 'pending').every((report) => report.canConvert && report.canDelete)).toBe(true);
    const mine = await pageOf<Report>(server, 'repair.report.page', patrol, {}, { pageSize: 500 });
    expect(mine.data!.total).toBeGreaterThan(0);
    expect(mine.data!.records.every((report) => report.reporterName === '赵磊' && !report.canConvert)).toBe(true);
    const ordinary = await pageOf<Report>(server, 'repair.report.page', tuser, { state: 'converted' }, { pageSize: 500 });
    expect(ordinary.data!.records.every((report) => report.organizationCode.startsWith('T0001P01') && report.orderCode !== '')).toBe(true);
    const second = await pageOf<Report>(server, 'repair.report.page', badmin, {}, { pageSize: 500 });
    expect(second.data!.total).toBe(120);
  });

  it('reads one report with its repair order; "400" for bad input; "404" for another tenant’s or another reporter’s', async () => {
    const converted = await reportCode('converted');
    const reply = await call<Report & { orderState: string }>('repair.report.detail', { code: converted }, tadmin);
    expect(reply.code).toBe('200');
    expect(reply.data!.orderCode).toMatch(/^WX/);
    expect(reply.data!.orderState).not.toBe('');
    expect((await call('repair.report.detail', { code: '' }, tadmin)).code).toBe('400');
    expect(await call('repair.report.detail', { code: converted }, badmin)).toMatchObject({ code: '404', message: '故障上报不存在' });
    const othersReport = await reportCode('pending', 'hz05');
    expect((await call('repair.report.detail', { code: othersReport }, patrol)).code).toBe('404');
    expect((await pageOf(server, 'repair.report.page', tadmin, { state: 'lost' })).code).toBe('400');
  });
});

describe('repair.report.insert, repair.report.toOrder, repair.report.delete', () => {
  it('lets repair staff report a fault on a device of their tenant, and an administrator turn it into a repair order', async () => {
    const device = await deviceOf(server, 'T0001', 7);
    const reported = await call<{ code: string }>('repair.report.insert', { report: { deviceCode: device.code, faultType: 'leakage', description: '表井有积水渗漏', contactPhone: '13800000003' } }, repair);
    expect(reported.code).toBe('200');
    expect(reported.data!.code).toMatch(/^GZ\d{13}$/);
    const turned = await call<{ orderCode: string }>('repair.report.toOrder', { code: reported.data!.code, assigneeId: await userId(server, 'repair'), priority: 'high', deadline: later(2) }, tadmin);
    expect(turned.code).toBe('200');
    const order = await call<Order & { state: string; assigneeName: string }>('repair.order.detail', { code: turned.data!.orderCode }, tadmin);
    expect(order.data).toMatchObject({ state: 'assigned', source: 'report', sourceCode: reported.data!.code, deviceCode: device.code, assigneeName: '王强' });
    const after = await call<Report>('repair.report.detail', { code: reported.data!.code }, repair);
    expect(after.data).toMatchObject({ state: 'converted', orderCode: turned.data!.orderCode });
    // Once converted, it is not converted again nor deleted.
    expect(await call('repair.report.toOrder', { code: reported.data!.code }, tadmin)).toMatchObject({ code: '409', message: '该故障上报已转工单' });
    expect(await call('repair.report.delete', { code: reported.data!.code }, tadmin)).toMatchObject({ code: '409', message: '已转工单的故障上报不能删除' });
  });

  it('refuses bad reports with "400" and another tenant’s device with "404"', async () => {
    const device = await deviceOf(server, 'T0001');
    expect((await call('repair.report.insert', { report: { deviceCode: device.code, faultType: 'leakage' } }, repair)).code).toBe('400');
    expect((await call('repair.report.insert', { report: { deviceCode: device.code, faultType: 'rain', description: '漏水' } }, repair)).code).toBe('400');
    expect((await call('repair.report.insert', { report: { deviceCode: device.code, faultType: 'leakage', description: '<img>' } }, repair)).code).toBe('400');
    const foreign = await deviceOf(server, 'T0002');
    expect(await call('repair.report.insert', { report: { deviceCode: foreign.code, faultType: 'leakage', description: '漏水' } }, repair)).toMatchObject({ code: '404', message: '设备不存在' });
    expect((await call('repair.report.insert', { report: { deviceCode: device.code, faultType: 'leakage', description: '漏水' } }, implement)).code).toBe('403');
  });

  it('deletes a pending report; converting or deleting is an administrator’s, within the tenant', async () => {
    const pending = await reportCode('pending', undefined, 'T0001', 3);
    expect((await call('repair.report.delete', { code: pending }, badmin)).code).toBe('404');
    expect((await call('repair.report.toOrder', { code: pending }, badmin)).code).toBe('404');
    expect((await call('repair.report.delete', { code: pending }, repair)).code).toBe('403');
    expect((await call('repair.report.toOrder', { code: pending, priority: 'someday' }, tadmin)).code).toBe('400');
    expect((await call('repair.report.toOrder', { code: pending, assigneeId: await userId(server, 'sz01') }, tadmin)).code).toBe('400');
    expect((await call('repair.report.delete', { code: 'GZ' }, tadmin)).code).toBe('400');
    expect((await call('repair.report.delete', { code: pending }, tadmin)).code).toBe('200');
    expect((await call('repair.report.detail', { code: pending }, tadmin)).code).toBe('404');
  });
});

describe('repair batches', () => {
  it('lists batches with their progress; implementers see only batches holding their orders', async () => {
    const all = await pageOf<Batch>(server, 'repair.batch.page', tadmin, {}, { pageSize: 100 });
    expect(all.data!.total).toBe(16);
    expect(all.data!.records.every((batch) => batch.deviceCount >= 6 && batch.progress >= 0 && batch.progress <= 1)).toBe(true);
    const id = await userId(server, 'implement');
    const mine = await pageOf<Batch>(server, 'repair.batch.page', implement, {}, { pageSize: 100 });
    expect(mine.data!.total).toBeGreaterThan(0);
    expect(mine.data!.total).toBeLessThan(16);
    for (const batch of mine.data!.records) {
      const orders = await pageOf<Order>(server, 'repair.batch.device.page', implement, { batchCode: batch.code }, { pageSize: 100 });
      expect(orders.data!.total).toBe(batch.deviceCount);
      expect(orders.data!.records.every((order) => order.assigneeId === id && order.batchCode === batch.code)).toBe(true);
    }
    expect((await pageOf<Batch>(server, 'repair.batch.page', badmin, {}, { pageSize: 100 })).data!.total).toBe(6);
    expect((await pageOf(server, 'repair.batch.page', tadmin, { faultType: 'bad' })).code).toBe('400');
  });

  it('reads a batch with its state counts; "404" for another tenant’s batch or one without the implementer’s orders', async () => {
    const code = await batchCode('T0001', 'implement');
    const reply = await call<Batch & { stateCounts: Array<{ state: string; count: number }> }>('repair.batch.detail', { code }, tadmin);
    expect(reply.code).toBe('200');
    expect(reply.data!.stateCounts.reduce((sum, row) => sum + row.count, 0)).toBe(reply.data!.deviceCount);
    expect((await call('repair.batch.detail', { code }, implement)).code).toBe('200');
    expect(await call('repair.batch.detail', { code }, badmin)).toMatchObject({ code: '404', message: '维修批次不存在' });
    const [{ code: others }] = await server.db.query<{ code: string }>(
      `SELECT code FROM repair_batch b WHERE tenant_code = 'T0001'
          AND NOT EXISTS (SELECT 1 FROM work_order o WHERE o.batch_id = b.id AND o.assignee_id = (SELECT id FROM app_user WHERE login_name = 'implement')) LIMIT 1`,
    );
    expect((await call('repair.batch.detail', { code: others }, implement)).code).toBe('404');
    expect((await pageOf(server, 'repair.batch.device.page', badmin, { batchCode: code })).code).toBe('404');
    expect((await call('repair.batch.detail', { code: 'x' }, tadmin)).code).toBe('400');
    expect((await pageOf(server, 'repair.batch.device.page', tadmin, {})).code).toBe('400');
  });

  it('creates a batch with one assigned repair order per device', async () => {
    const devices = await server.db.query<{ code: string }>("SELECT code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL AND product_code = 'PRD-WM-NB' ORDER BY id LIMIT 5");
    const created = await call<{ code: string; orderCount: number }>(
      'repair.batch.insert',
      { batch: { name: '灵隐片区水表电池更换', faultType: 'battery', priority: 'high', deviceCodes: devices.map((d) => d.code), assigneeId: await userId(server, 'implement'), deadline: later(10), description: '电池到期' } },
      tadmin,
    );
    expect(created.code).toBe('200');
    expect(created.data).toMatchObject({ orderCount: 5 });
    const orders = await pageOf<Order>(server, 'repair.batch.device.page', implement, { batchCode: created.data!.code });
    expect(orders.data!.records.map((order) => order.deviceCode).sort()).toEqual(devices.map((d) => d.code).sort());
    expect(orders.data!.records.every((order) => order.state === 'assigned')).toBe(true);
    const batch = await call<Batch>('repair.batch.detail', { code: created.data!.code }, tadmin);
    expect(batch.data).toMatchObject({ deviceCount: 5, pendingCount: 5, doneCount: 0, progress: 0 });
  });

  it('refuses bad batches with "400", another tenant’s devices with "404" and implementers with "403"', async () => {
    const device = await deviceOf(server, 'T0001');
    const base = { name: '批次', faultType: 'battery', deviceCodes: [device.code] };
    expect((await call('repair.batch.insert', { batch: { ...base, deviceCodes: [] } }, tadmin)).code).toBe('400');
    expect((await call('repair.batch.insert', { batch: { ...base, deviceCodes: [device.code, device.code] } }, tadmin)).code).toBe('400');
    expect((await call('repair.batch.insert', { batch: { ...base, deviceCodes: ['BAD'] } }, tadmin)).code).toBe('400');
    expect((await call('repair.batch.insert', { batch: { ...base, name: '' } }, tadmin)).code).toBe('400');
    const foreign = await deviceOf(server, 'T0002');
    expect(await call('repair.batch.insert', { batch: { ...base, deviceCodes: [device.code, foreign.code] } }, tadmin)).toMatchObject({ code: '404', message: '设备不存在' });
    expect((await call('repair.batch.insert', { batch: base }, implement)).code).toBe('403');
  });

  it('exports batches as a spreadsheet of the tenant’s batches', async () => {
    const file = await download(server, 'repair.batch.export', tadmin, {});
    if (!('rows' in file)) throw new Error(JSON.stringify(file.envelope));
    expect(file.header[0]).toBe('批次编号');
    expect(file.rows.length).toBeGreaterThanOrEqual(16);
    const second = await download(server, 'repair.batch.export', badmin, {});
    if (!('rows' in second)) throw new Error('no file');
    expect(second.rows).toHaveLength(6);
    const bad = await download(server, 'repair.batch.export', tadmin, { createTime: ['2026-01-01', 'soon'] });
    expect('envelope' in bad && bad.envelope.code).toBe('400');
  });
});

describe('repair.collect.page and repair.collect.export', () => {
  it('sums the tenant’s repair orders by organisation, staff, fault type or month', async () => {
    const [{ count }] = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM work_order WHERE type = 'repair' AND tenant_code = 'T0001'");
    for (const dimension of ['organization', 'assignee', 'faultType', 'month']) {
      const reply = await pageOf<Summary>(server, 'repair.collect.page', tadmin, { dimension }, { pageSize: 100 });
      expect(reply.code, dimension).toBe('200');
      expect(reply.data!.records.reduce((sum, row) => sum + row.total, 0), dimension).toBe(count);
      expect(reply.data!.records.every((row) => row.completionRate >= 0 && row.completionRate <= 1)).toBe(true);
    }
    const byFault = await pageOf<Summary>(server, 'repair.collect.page', tadmin, { dimension: 'faultType' }, { pageSize: 100 });
    expect(byFault.data!.records.map((row) => row.name)).toContain('电池故障');
    const byPerson = await pageOf<Summary>(server, 'repair.collect.page', tadmin, { dimension: 'assignee' }, { pageSize: 100, sort: [{ field: 'totalCost', order: 'desc' }] });
    expect(byPerson.data!.records.map((row) => row.name)).toEqual(expect.arrayContaining(['王强', '孙浩', '未指派']));
  });

  it('sums only the repair staff’s own orders, and each tenant its own', async () => {
    const [{ count }] = await server.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM work_order WHERE type = 'repair' AND assignee_id = (SELECT id FROM app_user WHERE login_name = 'repair')",
    );
    const mine = await pageOf<Summary>(server, 'repair.collect.page', repair, { dimension: 'month' }, { pageSize: 100 });
    expect(mine.data!.records.reduce((sum, row) => sum + row.total, 0)).toBe(count);
    const second = await pageOf<Summary>(server, 'repair.collect.page', badmin, { dimension: 'organization' }, { pageSize: 100 });
    expect(second.data!.records.every((row) => row.key.startsWith('T0002'))).toBe(true);
    expect((await pageOf(server, 'repair.collect.page', tadmin, { dimension: 'weather' })).code).toBe('400');
  });

  it('reads the same groups from repair_order_tally as from the orders, through changes, deletes and a recount', async () => {
    // A creation-time filter over every instant groups the orders themselves: the tally's answer must equal it.
    const everything = { createTime: ['2000-01-01 00:00:00', '2099-12-31 23:59:59'] };
    const sums = async (who: string, param: Record<string, unknown>) => {
      const reply = await pageOf<Summary>(server, 'repair.collect.page', who, param, { pageSize: 500 });
      expect(reply.code).toBe('200');
      return [...reply.data!.records].sort((a, b) => a.key.localeCompare(b.key));
    };
    const agree = async () => {
      for (const dimension of ['organization', 'assignee', 'faultType', 'month']) {
        for (const who of [tadmin, repair]) {
          expect(await sums(who, { dimension }), `${dimension}`).toEqual(await sums(who, { dimension, ...everything }));
        }
        expect(await sums(tadmin, { dimension, faultType: 'battery' })).toEqual(await sums(tadmin, { dimension, faultType: 'battery', ...everything }));
      }
    };
    await agree();
    // Orders change in single and multi-row statements: state, assignee, cost, completion, fault type, deletion.
    await server.db.exec(`UPDATE work_order SET state = 'completed', completed_at = created_at + interval '5 hours', cost = coalesce(cost, 0) + 12.5
                           WHERE id IN (SELECT id FROM work_order WHERE type = 'repair' AND tenant_code = 'T0001' AND state <> 'completed' ORDER BY id LIMIT 3)`);
    await server.db.exec(`UPDATE work_order SET assignee_id = NULL, fault_type = NULL
                           WHERE id IN (SELECT id FROM work_order WHERE type = 'repair' AND tenant_code = 'T0001' ORDER BY id DESC LIMIT 2)`);
    await server.db.exec(`UPDATE work_order SET deadline_at = now() - interval '1 day', state = 'assigned', completed_at = NULL
                           WHERE id IN (SELECT id FROM work_order WHERE type = 'repair' AND tenant_code = 'T0001' ORDER BY id LIMIT 1 OFFSET 5)`);
    await server.db.exec(`DELETE FROM work_order WHERE id IN (SELECT id FROM work_order WHERE type = 'repair' AND tenant_code = 'T0001' AND batch_id IS NULL
                           AND NOT EXISTS (SELECT 1 FROM repair_report r WHERE r.order_id = work_order.id) ORDER BY id DESC LIMIT 1)`);
    await agree();
    // Emptied from outside a trigger (the seed reset's DELETE), it is counted again from the orders.
    await server.db.exec('DELETE FROM repair_order_tally');
    expect((await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM repair_order_tally'))[0].n).toBeGreaterThan(0);
    await agree();
  });

  it('exports the summary', async () => {
    const file = await download(server, 'repair.collect.export', tadmin, { dimension: 'faultType' });
    if (!('rows' in file)) throw new Error(JSON.stringify(file.envelope));
    expect(file.header.slice(0, 2)).toEqual(['故障类型', '工单总数']);
    expect(file.rows.length).toBeGreaterThan(3);
    const bad = await download(server, 'repair.collect.export', tadmin, { dimension: 'x' });
    expect('envelope' in bad && bad.envelope.code).toBe('400');
    const refused = await download(server, 'repair.collect.export', patrol, {});
    expect('envelope' in refused && refused.envelope.code).toBe('403');
  });
});
