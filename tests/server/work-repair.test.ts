// Repair orders (issue 6): the list, detail, creation and export, and every step of the state
// machine (assign, accept, start, complete, audit, reject/refuse, close). Tenant admins work on
// their tenant's orders; repair staff and implementers see and act on their own orders only;
// another tenant's order, or another implementer's, answers "404"; a state that does not allow
// the step answers "409" 当前状态不允许该操作. Also the seeded world the rest relies on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSIGNEE_ROLES } from '../../server/domain/workOrders';
import { startServer, type TestServer } from './harness';
import { deviceOf, download, later, orderCode, pageOf, stateOf, userId } from './work-helpers';

interface Order {
  code: string;
  state: string;
  title: string;
  organizationCode: string;
  tenantCode: string;
  assigneeId: number | null;
  assigneeName: string;
  priority: string;
  overdue: boolean;
  canAssign: boolean;
  canAccept: boolean;
  canStart: boolean;
  canComplete: boolean;
  canAudit: boolean;
  canReject: boolean;
  canRefuse: boolean;
  canClose: boolean;
}
type OrderDetail = Order & { history: Array<{ action: string; fromState: string; toState: string; operatorName: string; remark: string }>; deviceOnlineState: string; result: string; cost: number | null; auditState: string };

const REFUSED = '当前状态不允许该操作';
let server: TestServer;
let tadmin: string;
let badmin: string;
let tuser: string;
let implement: string;
let repair: string;
let patrol: string;
let sz01: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin, tuser, implement, repair, patrol, sz01] = await Promise.all(['tadmin', 'badmin', 'tuser', 'implement', 'repair', 'patrol', 'sz01'].map((name) => server.login(name)));
});
afterAll(() => server.close());

const call = <T = unknown>(name: string, param: unknown, token: string) => server.call<T>(name, param, { token });
const detail = (code: string, token = tadmin) => call<OrderDetail>('repair.order.detail', { code }, token);

describe('the seeded work', () => {
  it('assigns every order, task and batch to someone holding a role for that work, in the order’s tenant', async () => {
    const rows = await server.db.query<{ kind: string; code: string; role_codes: string[]; in_tenant: boolean }>(
      `SELECT w.kind, w.code, array(SELECT role_code FROM user_role ur WHERE ur.user_id = w.assignee_id) AS role_codes,
              EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = w.assignee_id AND uo.organization_code LIKE w.tenant_code || '%') AS in_tenant
         FROM (SELECT type AS kind, code, assignee_id, tenant_code FROM work_order
               UNION ALL SELECT 'patrol', code, assignee_id, tenant_code FROM patrol_task
               UNION ALL SELECT 'repair', code, assignee_id, tenant_code FROM repair_batch) w
        WHERE w.assignee_id IS NOT NULL`,
    );
    expect(rows.length).toBeGreaterThan(1000);
    const wrong = rows.filter((row) => !row.in_tenant || !row.role_codes.some((role) => ASSIGNEE_ROLES[row.kind as keyof typeof ASSIGNEE_ROLES].includes(role)));
    expect(wrong.map((row) => `${row.kind} ${row.code} ${row.role_codes.join(',')}`)).toEqual([]);
  });

  it('gives the demo repairer and implementer repair orders of their own in every state an assignee can hold, beside other implementers’ orders', async () => {
    for (const loginName of ['repair', 'implement']) {
      const rows = await server.db.query<{ state: string }>(
        'SELECT DISTINCT state FROM work_order WHERE type = $1 AND assignee_id = (SELECT id FROM app_user WHERE login_name = $2) ORDER BY state',
        ['repair', loginName],
      );
      expect(rows.map((row) => row.state), loginName).toEqual(['accepted', 'assigned', 'audited', 'closed', 'completed', 'in_progress', 'rejected']);
    }
    const [others] = await server.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM work_order WHERE type = 'repair' AND tenant_code = 'T0001'
          AND assignee_id IN (SELECT id FROM app_user WHERE login_name IN ('hz02', 'hz03', 'hz05'))`,
    );
    expect(others.count).toBeGreaterThan(50);
  });

  it('records each order’s history from its creation to its present state, and hundreds of orders in every state', async () => {
    const states = await server.db.query<{ state: string; count: number }>("SELECT state, count(*)::int AS count FROM work_order WHERE type = 'repair' GROUP BY state");
    expect(states).toHaveLength(8);
    for (const row of states) expect(row.count, row.state).toBeGreaterThan(30);
    const [mismatch] = await server.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM work_order o
        WHERE o.state <> (SELECT h.to_state FROM work_order_history h WHERE h.order_id = o.id ORDER BY h.created_at DESC, h.id DESC LIMIT 1)
           OR (SELECT h.action FROM work_order_history h WHERE h.order_id = o.id ORDER BY h.created_at, h.id LIMIT 1) <> 'create'`,
    );
    expect(mismatch.count).toBe(0);
  });
});

describe('repair.order.page', () => {
  it('shows a tenant admin the own tenant’s orders of every state, with the actions allowed now', async () => {
    const reply = await pageOf<Order>(server, 'repair.order.page', tadmin, {}, { pageSize: 200 });
    expect(reply.code).toBe('200');
    expect(reply.data!.total).toBeGreaterThan(800);
    expect(reply.data!.records.every((order) => order.tenantCode === 'T0001')).toBe(true);
    const created = (await pageOf<Order>(server, 'repair.order.page', tadmin, { state: 'created' })).data!.records;
    expect(created.length).toBeGreaterThan(0);
    expect(created.every((order) => order.state === 'created' && order.canAssign && order.canClose && !order.canAccept)).toBe(true);
    const completed = (await pageOf<Order>(server, 'repair.order.page', tadmin, { state: 'completed' })).data!.records;
    expect(completed.every((order) => order.canAudit && order.canReject && !order.canComplete)).toBe(true);
  });

  it('shows an implementer only the orders assigned to him, in every state, and what he may do with each', async () => {
    const id = await userId(server, 'implement');
    const reply = await pageOf<Order>(server, 'repair.order.page', implement, {}, { pageSize: 1000 });
    expect(reply.code).toBe('200');
    const [{ count }] = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM work_order WHERE type = 'repair' AND assignee_id = $1", [id]);
    expect(reply.data!.total).toBe(count);
    expect(reply.data!.records.every((order) => order.assigneeId === id)).toBe(true);
    expect(new Set(reply.data!.records.map((order) => order.state)).size).toBe(7);
    const assigned = reply.data!.records.filter((order) => order.state === 'assigned');
    expect(assigned.every((order) => order.canAccept && order.canRefuse && !order.canAssign && !order.canClose)).toBe(true);
    // The repair staff's own list holds none of the implementer's orders.
    const theirs = await pageOf<Order>(server, 'repair.order.page', repair, {}, { pageSize: 1000 });
    expect(theirs.data!.records.some((order) => order.assigneeId === id)).toBe(false);
  });

  it('keeps each tenant to its own orders and an ordinary user to the own project', async () => {
    const second = await pageOf<Order>(server, 'repair.order.page', badmin, {}, { pageSize: 500 });
    expect(second.data!.total).toBeGreaterThan(300);
    expect(second.data!.records.every((order) => order.tenantCode === 'T0002')).toBe(true);
    const ordinary = await pageOf<Order>(server, 'repair.order.page', tuser, {}, { pageSize: 500 });
    expect(ordinary.data!.records.length).toBeGreaterThan(0);
    expect(ordinary.data!.records.every((order) => order.organizationCode.startsWith('T0001P01'))).toBe(true);
    const narrowed = await pageOf<Order>(server, 'repair.order.page', tadmin, {}, { orgCode: 'T0001P02', pageSize: 500 });
    expect(narrowed.data!.records.every((order) => order.organizationCode.startsWith('T0001P02'))).toBe(true);
  });

  it('filters, sorts and pages', async () => {
    const overdue = await pageOf<Order>(server, 'repair.order.page', tadmin, { overdue: '1' }, { pageSize: 100 });
    expect(overdue.data!.total).toBeGreaterThan(0);
    expect(overdue.data!.records.every((order) => order.overdue)).toBe(true);
    const code = await orderCode(server, 'repair', 'audited');
    const byCode = await pageOf<Order>(server, 'repair.order.page', tadmin, { keyword: code });
    expect(byCode.data!.records.map((order) => order.code)).toEqual([code]);
    const urgent = await pageOf<Order>(server, 'repair.order.page', tadmin, { faultType: 'battery' }, { sort: [{ field: 'priority', order: 'asc' }], pageSize: 5 });
    expect(urgent.data!.records[0].priority).toBe('urgent');
    const second = await pageOf<Order>(server, 'repair.order.page', tadmin, { state: 'closed' }, { pageNumber: 2, pageSize: 10 });
    expect(second.data).toMatchObject({ pageNumber: 2, pageSize: 10 });
    expect(second.data!.records).toHaveLength(10);
  });

  it('refuses bad filters with "400"', async () => {
    expect((await pageOf(server, 'repair.order.page', tadmin, { state: 'flying' })).code).toBe('400');
    expect((await pageOf(server, 'repair.order.page', tadmin, { createTime: ['2026-11-01 00:00:00', '2026-11-01 00:00:00'] })).message).toBe('请输入不同的时间');
    expect((await pageOf(server, 'repair.order.page', tadmin, { createTime: ['2026-02-31', '2026-03-05'] })).message).toBe('参数错误：createTime');
    expect((await pageOf(server, 'repair.order.page', tadmin, { keyword: 'x'.repeat(65) })).code).toBe('400');
  });
});

describe('repair.order.detail', () => {
  it('answers the order with its device and its whole history', async () => {
    const code = await orderCode(server, 'repair', 'audited', { assignee: 'implement' });
    const reply = await detail(code);
    expect(reply.code).toBe('200');
    expect(reply.data).toMatchObject({ code, state: 'audited', assigneeName: '孙浩', auditState: 'approved' });
    expect(reply.data!.deviceOnlineState).toMatch(/online|offline|inactive/);
    expect(reply.data!.history.map((step) => step.action)).toEqual(['create', 'assign', 'accept', 'start', 'complete', 'audit']);
    expect(reply.data!.history.at(-1)).toMatchObject({ fromState: 'completed', toState: 'audited', operatorName: '张明' });
    // The implementer reads his own order.
    expect((await detail(code, implement)).code).toBe('200');
  });

  it('refuses bad input, another tenant’s order and another implementer’s order', async () => {
    expect((await detail('bad')).code).toBe('400');
    const code = await orderCode(server, 'repair', 'assigned', { assignee: 'hz02' });
    expect(await detail(code, badmin)).toMatchObject({ code: '404', message: '工单不存在' });
    expect(await detail(code, implement)).toMatchObject({ code: '404', message: '工单不存在' });
    expect((await detail(code, repair)).code).toBe('404');
  });
});

describe('repair.order.insert', () => {
  it('creates an order at the device’s organisation, assigned when an assignee is named, and records both steps', async () => {
    const device = await deviceOf(server, 'T0001', 3);
    const plain = await call<{ code: string }>('repair.order.insert', { order: { title: '灵隐路水表不上报', deviceCode: device.code, faultType: 'no_data' } }, tadmin);
    expect(plain.code).toBe('200');
    expect(plain.data!.code).toMatch(/^WX\d{13}$/);
    expect(await detail(plain.data!.code)).toMatchObject({ data: { state: 'created', priority: 'normal', organizationCode: device.organization_code, creatorName: '张明' } });
    const assigned = await call<{ code: string }>(
      'repair.order.insert',
      { order: { title: '湖滨路流量计计量异常', deviceCode: device.code, faultType: 'metering', priority: 'urgent', deadline: later(2), assigneeId: await userId(server, 'implement'), contactPhone: '13912345678', description: '读数偏大' } },
      tadmin,
    );
    const read = await detail(assigned.data!.code);
    expect(read.data).toMatchObject({ state: 'assigned', assigneeName: '孙浩', priority: 'urgent' });
    expect(read.data!.history.map((step) => step.action)).toEqual(['create', 'assign']);
    // An ordinary user raises an order by organisation alone.
    const byPlace = await call<{ code: string }>('repair.order.insert', { order: { title: '泵站现场检查', organizationCode: 'T0001P01A0101', faultType: 'other' } }, tuser);
    expect(byPlace.code).toBe('200');
  });

  it('refuses bad input with "400"', async () => {
    const device = await deviceOf(server, 'T0001');
    const base = { title: '水表不上报', deviceCode: device.code, faultType: 'no_data' };
    expect((await call('repair.order.insert', { order: { ...base, faultType: undefined } }, tadmin)).code).toBe('400');
    expect((await call('repair.order.insert', { order: { ...base, deviceCode: 'ABC' } }, tadmin)).message).toMatch(/^参数错误：order.deviceCode/);
    expect((await call('repair.order.insert', { order: { ...base, title: '<script>' } }, tadmin)).code).toBe('400');
    expect((await call('repair.order.insert', { order: { ...base, extra: 1 } }, tadmin)).code).toBe('400');
    expect(await call('repair.order.insert', { order: { ...base, deadline: '2020-01-01 00:00:00' } }, tadmin)).toMatchObject({ code: '400', message: '截止时间须晚于当前时间' });
    expect(await call('repair.order.insert', { order: { title: '无处可去', faultType: 'other' } }, tadmin)).toMatchObject({ code: '400', message: '请填写设备编码或选择组织' });
    expect((await call('repair.order.insert', { order: { ...base, assigneeId: await userId(server, 'tuser') } }, tadmin)).message).toMatch(/^指派人员无效/);
  });

  it('refuses another tenant’s device, organisation and staff, and callers without the button', async () => {
    const foreign = await deviceOf(server, 'T0002');
    expect(await call('repair.order.insert', { order: { title: '越权', deviceCode: foreign.code, faultType: 'other' } }, tadmin)).toMatchObject({ code: '404', message: '设备不存在' });
    expect(await call('repair.order.insert', { order: { title: '越权', organizationCode: 'T0001P01', faultType: 'other' } }, badmin)).toMatchObject({ code: '404', message: '组织不存在' });
    const device = await deviceOf(server, 'T0001');
    expect((await call('repair.order.insert', { order: { title: '派给外人', deviceCode: device.code, faultType: 'other', assigneeId: await userId(server, 'sz01') } }, tadmin)).code).toBe('400');
    expect((await call('repair.order.insert', { order: { title: '自己建', deviceCode: device.code, faultType: 'other' } }, implement)).code).toBe('403');
  });
});

describe('repair.order.export', () => {
  it('exports the filtered orders as a spreadsheet', async () => {
    const file = await download(server, 'repair.order.export', tadmin, { state: 'rejected' });
    if (!('rows' in file)) throw new Error(JSON.stringify(file.envelope));
    expect(file.fileName).toMatch(/^维修工单-\d{8}\.xlsx$/);
    expect(file.header.slice(0, 3)).toEqual(['工单编号', '标题', '状态']);
    const [{ count }] = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM work_order WHERE type = 'repair' AND state = 'rejected' AND tenant_code = 'T0001'");
    expect(file.rows).toHaveLength(count);
    expect(file.rows.every((row) => row[2] === '已驳回')).toBe(true);
  });

  it('refuses bad filters, keeps to the tenant, and is an administrator’s button', async () => {
    const bad = await download(server, 'repair.order.export', tadmin, { priority: 'whenever' });
    expect('envelope' in bad && bad.envelope.code).toBe('400');
    const second = await download(server, 'repair.order.export', badmin, {});
    if (!('rows' in second)) throw new Error('no file');
    const codes = new Set((await server.db.query<{ code: string }>("SELECT code FROM work_order WHERE tenant_code = 'T0001'")).map((row) => row.code));
    expect(second.rows.some((row) => codes.has(String(row[0])))).toBe(false);
    const refused = await download(server, 'repair.order.export', implement, {});
    expect('envelope' in refused && refused.envelope.code).toBe('403');
  });
});

describe('the steps of a repair order', () => {
  it('goes assigned → accepted → in progress → completed → audited → closed, each step by the right person and recorded', async () => {
    const code = await orderCode(server, 'repair', 'created');
    const implementId = await userId(server, 'implement');
    expect((await call('repair.order.assign', { code, assigneeId: implementId, deadline: later(3), remark: '请今天到场' }, tadmin)).code).toBe('200');
    expect((await call('repair.order.accept', { code }, implement)).code).toBe('200');
    expect((await call('repair.order.start', { code }, implement)).code).toBe('200');
    expect((await call('repair.order.complete', { code, result: '更换电池，恢复上报', faultCause: '电池到期', cost: 86.5 }, implement)).code).toBe('200');
    expect((await detail(code)).data).toMatchObject({ state: 'completed', result: '更换电池，恢复上报', cost: 86.5, auditState: 'pending', canAudit: true });
    expect((await call('repair.order.audit', { code, opinion: '处理及时' }, tadmin)).code).toBe('200');
    expect((await call('repair.order.close', { code, reason: '已回访' }, tadmin)).code).toBe('200');
    const read = await detail(code);
    expect(read.data!.state).toBe('closed');
    expect(read.data!.history[0].action).toBe('create');
    expect(read.data!.history.slice(1).map((step) => `${step.action}:${step.operatorName}`)).toEqual([
      'assign:张明', 'accept:孙浩', 'start:孙浩', 'complete:孙浩', 'audit:张明', 'close:张明',
    ]);
    expect(read.data!.history[1].remark).toBe('指派给孙浩：请今天到场');
  });

  it('assign: re-dispatches a rejected order; "409" once work has started; "400" for a bad assignee; "404" across tenants; "403" for implementers', async () => {
    const rejected = await orderCode(server, 'repair', 'rejected', { assignee: 'repair' });
    expect((await call('repair.order.assign', { code: rejected, assigneeId: await userId(server, 'hz03') }, tadmin)).code).toBe('200');
    expect(await stateOf(server, rejected)).toBe('assigned');
    const started = await orderCode(server, 'repair', 'in_progress', { assignee: 'hz05' });
    expect(await call('repair.order.assign', { code: started, assigneeId: await userId(server, 'implement') }, tadmin)).toMatchObject({ code: '409', message: REFUSED });
    expect((await call('repair.order.assign', { code: rejected }, tadmin)).code).toBe('400');
    expect((await call('repair.order.assign', { code: rejected, assigneeId: await userId(server, 'sz01') }, tadmin)).code).toBe('400');
    expect((await call('repair.order.assign', { code: rejected, assigneeId: await userId(server, 'sz01') }, badmin)).code).toBe('404');
    expect((await call('repair.order.assign', { code: rejected, assigneeId: await userId(server, 'implement') }, implement)).code).toBe('403');
  });

  it('accept and start: only the assignee, only from the right state', async () => {
    const own = await orderCode(server, 'repair', 'assigned', { assignee: 'repair' });
    const others = await orderCode(server, 'repair', 'assigned', { assignee: 'hz02' });
    expect(await call('repair.order.start', { code: own }, repair)).toMatchObject({ code: '409', message: REFUSED });
    expect((await call('repair.order.accept', { code: own }, repair)).code).toBe('200');
    expect(await call('repair.order.accept', { code: own }, repair)).toMatchObject({ code: '409', message: REFUSED });
    expect((await call('repair.order.start', { code: own }, repair)).code).toBe('200');
    expect(await stateOf(server, own)).toBe('in_progress');
    // Another implementer's order, another tenant's implementer, a bad code, no button.
    expect(await call('repair.order.accept', { code: others }, implement)).toMatchObject({ code: '404', message: '工单不存在' });
    expect(await call('repair.order.start', { code: others }, implement)).toMatchObject({ code: '404' });
    expect((await call('repair.order.accept', { code: others }, sz01)).code).toBe('404');
    expect((await call('repair.order.accept', { code: 'WX1' }, implement)).code).toBe('400');
    expect((await call('repair.order.accept', { code: others }, tadmin)).code).toBe('403');
    expect(await stateOf(server, others)).toBe('assigned');
  });

  it('complete: the assignee’s result closes the work; "400" without a result; "409" before the work started', async () => {
    const working = await orderCode(server, 'repair', 'in_progress', { assignee: 'implement' });
    const accepted = await orderCode(server, 'repair', 'accepted', { assignee: 'implement' });
    expect((await call('repair.order.complete', { code: working }, implement)).code).toBe('400');
    expect((await call('repair.order.complete', { code: working, result: '完成', cost: -1 }, implement)).code).toBe('400');
    expect(await call('repair.order.complete', { code: accepted, result: '完成' }, implement)).toMatchObject({ code: '409', message: REFUSED });
    expect((await call('repair.order.complete', { code: working, result: '更换通信模组' }, implement)).code).toBe('200');
    const others = await orderCode(server, 'repair', 'in_progress', { assignee: 'hz03' });
    expect((await call('repair.order.complete', { code: others, result: '越权' }, implement)).code).toBe('404');
    expect((await call('repair.order.complete', { code: others, result: '越权' }, sz01)).code).toBe('404');
  });

  it('audit: an administrator approves completed work; "409" otherwise; "404" across tenants; "403" for implementers', async () => {
    const done = await orderCode(server, 'repair', 'completed', { assignee: 'hz02' });
    const open = await orderCode(server, 'repair', 'accepted', { assignee: 'hz02' });
    expect((await call('repair.order.audit', { code: done, opinion: '<b>' }, tadmin)).code).toBe('400');
    expect((await call('repair.order.audit', { code: done }, badmin)).code).toBe('404');
    expect((await call('repair.order.audit', { code: done }, implement)).code).toBe('403');
    expect(await call('repair.order.audit', { code: open }, tadmin)).toMatchObject({ code: '409', message: REFUSED });
    expect((await call('repair.order.audit', { code: done, opinion: '同意' }, tadmin)).code).toBe('200');
    expect((await detail(done)).data).toMatchObject({ state: 'audited', auditState: 'approved' });
  });

  it('reject: an administrator sends completed work back; the assignee refuses work not yet started; other states answer "409"', async () => {
    const done = await orderCode(server, 'repair', 'completed', { assignee: 'hz02', skip: 1 });
    expect((await call('repair.order.reject', { code: done }, tadmin)).code).toBe('400');
    expect((await call('repair.order.reject', { code: done, reason: '照片缺失' }, badmin)).code).toBe('404');
    expect((await call('repair.order.reject', { code: done, reason: '照片缺失' }, tadmin)).code).toBe('200');
    expect((await detail(done)).data).toMatchObject({ state: 'rejected', auditState: 'rejected', canAssign: true });
    const assigned = await orderCode(server, 'repair', 'assigned', { assignee: 'hz02' });
    expect(await call('repair.order.reject', { code: assigned, reason: '不是完工的工单' }, tadmin)).toMatchObject({ code: '409', message: REFUSED });
    const mine = await orderCode(server, 'repair', 'assigned', { assignee: 'implement' });
    expect((await call('repair.order.reject', { code: mine, reason: '不在我负责的片区' }, implement)).code).toBe('200');
    const refused = await detail(mine);
    expect(refused.data).toMatchObject({ state: 'rejected' });
    expect(refused.data!.history.at(-1)).toMatchObject({ action: 'refuse', remark: '不在我负责的片区' });
    const working = await orderCode(server, 'repair', 'in_progress', { assignee: 'implement' });
    expect(await call('repair.order.reject', { code: working, reason: '太难' }, implement)).toMatchObject({ code: '409', message: REFUSED });
    expect((await call('repair.order.reject', { code: assigned, reason: '越权' }, implement)).code).toBe('404');
  });

  it('close: an administrator closes audited or undispatched orders; "409" for work under way or already closed', async () => {
    const audited = await orderCode(server, 'repair', 'audited', { assignee: 'hz05' });
    expect((await call('repair.order.close', { code: audited }, tadmin)).code).toBe('400');
    expect((await call('repair.order.close', { code: audited, reason: '越权' }, badmin)).code).toBe('404');
    expect((await call('repair.order.close', { code: audited, reason: '越权' }, implement)).code).toBe('403');
    expect((await call('repair.order.close', { code: audited, reason: '已回访' }, tadmin)).code).toBe('200');
    expect(await call('repair.order.close', { code: audited, reason: '再关一次' }, tadmin)).toMatchObject({ code: '409', message: REFUSED });
    const working = await orderCode(server, 'repair', 'in_progress', { assignee: 'hz05' });
    expect(await call('repair.order.close', { code: working, reason: '不做了' }, tadmin)).toMatchObject({ code: '409', message: REFUSED });
  });
});

describe('work.staff.list', () => {
  it('lists the own tenant’s active staff who may take each kind of work', async () => {
    const repairers = await call<Array<{ id: number; userName: string; roleName: string }>>('work.staff.list', { kind: 'repair' }, tadmin);
    const names = repairers.data!.map((person) => person.userName);
    expect(names).toEqual(expect.arrayContaining(['王强', '孙浩']));
    expect(names).not.toContain('赵磊');
    expect(repairers.data!.map((person) => person.id)).not.toContain(await userId(server, 'sz01'));
    const patrollers = await call<Array<{ userName: string }>>('work.staff.list', { kind: 'patrol' }, tadmin);
    expect(patrollers.data!.map((person) => person.userName)).toContain('赵磊');
    const second = await call<Array<{ id: number }>>('work.staff.list', { kind: 'repair' }, badmin);
    expect(second.data!.map((person) => person.id)).not.toContain(await userId(server, 'implement'));
    expect((await call('work.staff.list', { kind: 'cooking' }, tadmin)).code).toBe('400');
    expect((await call('work.staff.list', {}, patrol)).code).toBe('200');
  });
});
