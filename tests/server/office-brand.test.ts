// 品牌专区 (issue 6): the sub-brand pages over the existing work orders, patrol tasks, users and
// devices of the caller's scope. The backlog is what waits for the caller — orders to assign and
// work to audit for the tenant admin, his own open work for repair, patrol and implementer staff
// — and brand.backlog.handle takes one step by the work side's state machines. Another tenant's
// or another implementer's item is not acknowledged ("404"); a step that is not the caller's is
// "403", one the state does not allow "409"; a role without the button gets "403".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIAL_PASSWORD } from '../../server/domain/users';
import { startServer, type TestServer } from './harness';
import { column, exportSheet, pageCall } from './devices-maintenance-helpers';
import { orderCode, stateOf, userId } from './work-helpers';

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

interface BacklogRecord {
  key: string;
  kind: string;
  code: string;
  state: string;
  step: string;
  assigneeName: string;
  actions: string[];
  assignKind: string;
  canAccept: boolean;
  canStart: boolean;
  canComplete: boolean;
  canAudit: boolean;
  canPatrol: boolean;
  fillKind: string;
  detailUrl: string;
  overdue: boolean;
  dueTime: string;
}

const handle = (token: string, param: Record<string, unknown>) => server.call<{ kind: string; code: string; state: string }>('brand.backlog.handle', param, { token });

async function lastHistory(code: string): Promise<{ action: string; to_state: string; remark: string }> {
  const [row] = await server.db.query<{ action: string; to_state: string; remark: string }>(
    'SELECT h.action, h.to_state, h.remark FROM work_order_history h JOIN work_order o ON o.id = h.order_id WHERE o.code = $1 ORDER BY h.id DESC LIMIT 1',
    [code],
  );
  return row;
}

describe('brand.backlog.page', () => {
  it('shows the tenant admin the orders to assign and the work to audit', async () => {
    const reply = await pageCall<BacklogRecord>(server, 'brand.backlog.page', tadmin, {}, { pageSize: 1000 });
    expect(reply.code).toBe('200');
    const [expected] = await column<number>(
      server,
      `SELECT count(*)::int AS value FROM work_order o WHERE o.tenant_code = 'T0001'
          AND (o.state = 'created' OR (o.type = 'repair' AND o.state = 'rejected') OR (o.state = 'completed' AND o.audit_state = 'pending' AND o.type IN ('repair', 'construction', 'exploration')))`,
    );
    const [unassignedPatrol] = await column<number>(server, "SELECT count(*)::int AS value FROM patrol_task WHERE tenant_code = 'T0001' AND state = 'pending' AND assignee_id IS NULL");
    expect(reply.data.total).toBe(expected + unassignedPatrol);
    expect(new Set(reply.data.records.map((r) => r.step))).toEqual(new Set(['assign', 'audit']));
    for (const record of reply.data.records) {
      if (record.step === 'audit') expect(record.actions).toEqual(['approve', 'reject']);
      else expect(record.assignKind).not.toBe('');
    }
    const audit = reply.data.records.find((r) => r.step === 'audit')!;
    expect(audit.detailUrl).toBe(`/${audit.kind}/detail?code=${audit.code}`);
    // Soonest deadline first.
    const due = reply.data.records.filter((r) => r.dueTime).map((r) => r.dueTime);
    expect(due).toEqual([...due].sort());
    const theirs = await pageCall<BacklogRecord>(server, 'brand.backlog.page', badmin, {}, { pageSize: 1000 });
    expect(theirs.data.records.some((r) => reply.data.records.some((mine) => mine.code === r.code))).toBe(false);
    expect(theirs.data.total).toBeGreaterThan(0);
  });

  it('shows an implementer his own open work only, with the step each waits for', async () => {
    const reply = await pageCall<BacklogRecord>(server, 'brand.backlog.page', implement, {}, { pageSize: 1000 });
    const me = await userId(server, 'implement');
    const [expected] = await column<number>(
      server,
      "SELECT count(*)::int AS value FROM work_order WHERE assignee_id = $1 AND (state IN ('assigned', 'accepted', 'in_progress') OR (type IN ('construction', 'exploration') AND state = 'rejected'))",
      [me],
    );
    expect(reply.data.total).toBe(expected);
    expect(reply.data.records.every((r) => r.assigneeName === '孙浩')).toBe(true);
    const steps = new Set(reply.data.records.map((r) => r.step));
    for (const step of ['accept', 'start', 'complete']) expect(steps.has(step), step).toBe(true);
    expect(reply.data.records.filter((r) => r.kind === 'repair' && r.state === 'assigned').every((r) => r.step === 'accept' && r.canAccept)).toBe(true);
    // Maintenance is completed from here, or on its own screen when it carries a dynamic form.
    expect(reply.data.records.filter((r) => r.kind === 'maintenance').every((r) => r.step === 'complete' && (r.canComplete || r.fillKind === 'maintenance'))).toBe(true);
    expect(reply.data.records.every((r) => r.assignKind === '' && !r.canAudit)).toBe(true);
    const repairs = await pageCall<BacklogRecord>(server, 'brand.backlog.page', implement, { kind: 'repair', overdue: '1' }, { pageSize: 1000 });
    expect(repairs.data.records.every((r) => r.kind === 'repair' && r.overdue)).toBe(true);
  });

  it('shows a patroller his open patrol tasks', async () => {
    const reply = await pageCall<BacklogRecord>(server, 'brand.backlog.page', patrol, {}, { pageSize: 1000 });
    const [expected] = await column<number>(server, "SELECT count(*)::int AS value FROM patrol_task WHERE assignee_id = $1 AND state IN ('pending', 'in_progress')", [await userId(server, 'patrol')]);
    expect(reply.data.total).toBe(expected);
    expect(reply.data.records.every((r) => r.kind === 'patrol' && r.step === 'patrol' && r.canPatrol)).toBe(true);
    expect(reply.data.records.some((r) => r.canStart)).toBe(true);
  });

  it('refuses a bad filter', async () => {
    expect((await pageCall(server, 'brand.backlog.page', tadmin, { kind: 'cleaning' })).code).toBe('400');
    expect((await pageCall(server, 'brand.backlog.page', tadmin, { step: 'assign' })).code).toBe('400');
  });
});

describe('brand.backlog.handle', () => {
  it('takes a repair order through accept, start and complete, and the admin approves it', async () => {
    const code = await orderCode(server, 'repair', 'assigned', { assignee: 'implement' });
    expect((await handle(implement, { kind: 'repair', code, action: 'accept' })).data).toMatchObject({ state: 'accepted' });
    expect(await lastHistory(code)).toMatchObject({ action: 'accept', to_state: 'accepted' });
    expect(await handle(implement, { kind: 'repair', code, action: 'accept' })).toMatchObject({ code: '409', message: '当前状态不允许该操作' });
    expect((await handle(implement, { kind: 'repair', code, action: 'start' })).data).toMatchObject({ state: 'in_progress' });
    expect(await handle(implement, { kind: 'repair', code, action: 'complete' })).toMatchObject({ code: '400', message: '请填写处理结果' });
    expect((await handle(implement, { kind: 'repair', code, action: 'complete', remark: '更换通信模组，设备恢复上报。' })).data).toMatchObject({ state: 'completed' });
    const [done] = await server.db.query<{ audit_state: string; result: string }>('SELECT audit_state, result FROM work_order WHERE code = $1', [code]);
    expect(done).toEqual({ audit_state: 'pending', result: '更换通信模组，设备恢复上报。' });
    // Now it waits for the admin.
    const backlog = await pageCall<BacklogRecord>(server, 'brand.backlog.page', tadmin, { keyword: code });
    expect(backlog.data.records[0]).toMatchObject({ step: 'audit', canAudit: true });
    expect(await handle(implement, { kind: 'repair', code, action: 'approve' })).toMatchObject({ code: '403', message: '只有管理人员可以执行该操作' });
    expect((await handle(tadmin, { kind: 'repair', code, action: 'approve', remark: '处理及时。' })).data).toMatchObject({ state: 'audited' });
    expect(await lastHistory(code)).toMatchObject({ action: 'audit', remark: '处理及时。' });
  });

  it('lets the admin assign a new order and send back submitted construction, which the constructor reworks', async () => {
    const created = await orderCode(server, 'repair', 'created');
    expect(await handle(tadmin, { kind: 'repair', code: created, action: 'assign' })).toMatchObject({ code: '400', message: '请选择处理人' });
    expect((await handle(tadmin, { kind: 'repair', code: created, action: 'assign', assigneeId: await userId(server, 'patrol') })).code).toBe('400');
    expect((await handle(tadmin, { kind: 'repair', code: created, action: 'assign', assigneeId: await userId(server, 'repair'), remark: '今日内到场' })).data).toMatchObject({ state: 'assigned' });
    expect(await lastHistory(created)).toMatchObject({ action: 'assign', remark: '指派给王强：今日内到场' });
    expect((await pageCall<BacklogRecord>(server, 'brand.backlog.page', repair, { keyword: created })).data.records[0]).toMatchObject({ step: 'accept' });

    // One without a dynamic form: an order with one is finished where its form is filled.
    const submitted = await orderCode(server, 'construction', 'completed', { extra: " AND o.audit_state = 'pending' AND o.form_template_id IS NULL" });
    expect(await handle(tadmin, { kind: 'construction', code: submitted, action: 'reject' })).toMatchObject({ code: '400', message: '请填写驳回原因' });
    expect((await handle(tadmin, { kind: 'construction', code: submitted, action: 'reject', remark: '缺少完工照片。' })).data).toMatchObject({ state: 'rejected' });
    const [assignee] = await column<string>(server, 'SELECT u.login_name AS value FROM work_order o JOIN app_user u ON u.id = o.assignee_id WHERE o.code = $1', [submitted]);
    const constructor = await server.login(assignee);
    const rework = await pageCall<BacklogRecord>(server, 'brand.backlog.page', constructor, { keyword: submitted });
    expect(rework.data.records[0]).toMatchObject({ step: 'rework', canStart: true });
    expect((await handle(constructor, { kind: 'construction', code: submitted, action: 'start' })).data).toMatchObject({ state: 'in_progress' });
    expect((await handle(constructor, { kind: 'construction', code: submitted, action: 'complete', remark: '已补拍完工照片。' })).data).toMatchObject({ state: 'completed' });
    expect(await lastHistory(submitted)).toMatchObject({ action: 'submit', to_state: 'completed' });
  });

  it('starts a patrol task for its patroller and lets the admin assign an unassigned one', async () => {
    const [pending] = await column<string>(
      server,
      "SELECT t.code AS value FROM patrol_task t JOIN app_user u ON u.id = t.assignee_id WHERE u.login_name = 'patrol' AND t.state = 'pending' AND t.plan_end_at > now() ORDER BY t.id LIMIT 1",
    );
    expect((await handle(tadmin, { kind: 'patrol', code: pending, action: 'start' })).code).toBe('403');
    expect((await handle(patrol, { kind: 'patrol', code: pending, action: 'start' })).data).toMatchObject({ state: 'in_progress' });
    expect((await handle(patrol, { kind: 'patrol', code: pending, action: 'start' })).code).toBe('409');
    const [loose] = await column<string>(server, "SELECT code AS value FROM patrol_task WHERE tenant_code = 'T0001' AND state = 'pending' ORDER BY id DESC LIMIT 1");
    await server.db.query('UPDATE patrol_task SET assignee_id = NULL WHERE code = $1', [loose]);
    expect((await pageCall<BacklogRecord>(server, 'brand.backlog.page', tadmin, { keyword: loose })).data.records[0]).toMatchObject({ step: 'assign', assignKind: 'patrol' });
    expect((await handle(tadmin, { kind: 'patrol', code: loose, action: 'assign', assigneeId: await userId(server, 'repair') })).code).toBe('400');
    expect((await handle(tadmin, { kind: 'patrol', code: loose, action: 'assign', assigneeId: await userId(server, 'patrol') })).code).toBe('200');
    const [assignee] = await column<number>(server, 'SELECT assignee_id AS value FROM patrol_task WHERE code = $1', [loose]);
    expect(assignee).toBe(await userId(server, 'patrol'));
  });

  it('refuses another implementer\'s or tenant\'s item, a step that is not the caller\'s, bad input and a role without the button', async () => {
    const theirs = await orderCode(server, 'repair', 'assigned', { assignee: 'repair' });
    expect(await handle(implement, { kind: 'repair', code: theirs, action: 'accept' })).toMatchObject({ code: '404', message: '工单不存在' });
    expect((await handle(badmin, { kind: 'repair', code: theirs, action: 'assign', assigneeId: 1 })).code).toBe('404');
    expect(await handle(tadmin, { kind: 'repair', code: theirs, action: 'accept' })).toMatchObject({ code: '403', message: '只能处理指派给自己的工作' });
    // A maintenance order is completed, never accepted.
    const upkeep = await orderCode(server, 'maintenance', 'assigned', { assignee: 'implement', extra: ' AND o.form_template_id IS NULL' });
    expect((await handle(implement, { kind: 'maintenance', code: upkeep, action: 'accept' })).code).toBe('409');
    expect((await handle(implement, { kind: 'maintenance', code: upkeep, action: 'complete', remark: '清洗除垢，读数正常。' })).data).toMatchObject({ state: 'completed' });
    expect(await stateOf(server, upkeep)).toBe('completed');
    expect((await handle(implement, { kind: 'repair', code: theirs, action: 'fly' })).code).toBe('400');
    expect((await handle(implement, { code: theirs, action: 'accept' })).code).toBe('400');
    expect((await handle(implement, { kind: 'repair', code: theirs, action: 'accept', remark: '<b>好</b>' })).code).toBe('400');
    expect(await handle(tuser, { kind: 'repair', code: theirs, action: 'assign', assigneeId: 1 })).toMatchObject({ code: '403', message: '无权限访问' });
  });
});

describe('brand.backlog.handle and dynamic forms', () => {
  it('leaves finishing a field order with a dynamic form to its own screen, where the form is filled', async () => {
    const [row] = await server.db.query<{ code: string; type: string; login_name: string }>(
      `SELECT o.code, o.type, u.login_name FROM work_order o JOIN app_user u ON u.id = o.assignee_id
        WHERE o.type IN ('construction', 'exploration') AND o.state = 'in_progress' AND o.form_template_id IS NOT NULL ORDER BY o.id LIMIT 1`,
    );
    expect(row, 'a seeded field order in progress with a form').toBeDefined();
    const token = await server.login(row.login_name);
    const listed = await pageCall<BacklogRecord>(server, 'brand.backlog.page', token, { keyword: row.code });
    expect(listed.data.records[0]).toMatchObject({ step: 'complete', canComplete: false, fillKind: row.type });
    expect(await handle(token, { kind: row.type, code: row.code, action: 'complete', remark: '已完成' })).toMatchObject({ code: '409', message: '该工单需填写表单，请在详情页填写后提交' });
    expect(await stateOf(server, row.code)).toBe('in_progress');
  });
});

describe('brand.patrol.page', () => {
  it('is the patrol task list of the caller\'s scope', async () => {
    const brand = await pageCall<{ code: string; assigneeName: string }>(server, 'brand.patrol.page', tadmin, { state: 'completed' });
    const main = await pageCall<{ code: string }>(server, 'patrol.task.page', tadmin, { state: 'completed' });
    expect(brand.data.total).toBe(main.data.total);
    expect(brand.data.total).toBeGreaterThan(0);
    const own = await pageCall<{ assigneeName: string }>(server, 'brand.patrol.page', patrol, {}, { pageSize: 100 });
    expect(own.data.records.every((r) => r.assigneeName === '赵磊')).toBe(true);
    const theirs = await pageCall<{ code: string }>(server, 'brand.patrol.page', badmin, {}, { pageSize: 100 });
    expect(theirs.data.records.every((r) => r.code.startsWith('XJ'))).toBe(true);
    expect(theirs.data.records.some((r) => brand.data.records.some((mine) => mine.code === r.code))).toBe(false);
    expect((await pageCall(server, 'brand.patrol.page', tadmin, { state: 'lost' })).code).toBe('400');
  });
});

describe('brand.statistics.overview', () => {
  it('sums up the scope\'s devices, work and patrol', async () => {
    const summary = await server.call<Record<string, number>>('brand.statistics.overview', { metric: 'summary' }, { token: tadmin });
    const [devices] = await column<number>(server, "SELECT count(*)::int AS value FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL");
    expect(summary.data!.deviceCount).toBe(devices);
    const [open] = await column<number>(
      server,
      "SELECT ((SELECT count(*) FROM work_order WHERE tenant_code = 'T0001' AND state NOT IN ('completed', 'audited', 'closed')) + (SELECT count(*) FROM patrol_task WHERE tenant_code = 'T0001' AND state IN ('pending', 'in_progress')))::int AS value",
    );
    expect(summary.data!.openWorkCount).toBe(open);
    expect(summary.data!.onlineRate).toBeGreaterThan(0);
    expect(summary.data!.onlineRate).toBeLessThanOrEqual(1);
    const theirs = await server.call<Record<string, number>>('brand.statistics.overview', { metric: 'summary' }, { token: badmin });
    const [theirDevices] = await column<number>(server, "SELECT count(*)::int AS value FROM device WHERE tenant_code = 'T0002' AND deleted_at IS NULL");
    expect(theirs.data!.deviceCount).toBe(theirDevices);
  });

  it('answers the charts: work by type, by day, device states and the busiest people', async () => {
    const end = new Date();
    const start = new Date(end.getTime() - 6 * 86_400_000);
    const range = { startTime: start.toISOString(), endTime: end.toISOString() };
    const types = await server.call<Array<{ type: string; name: string; created: number }>>('brand.statistics.overview', { metric: 'workType', ...range }, { token: tadmin });
    expect(types.data!.map((t) => t.name)).toEqual(['维修', '维保', '施工', '勘察', '巡检']);
    const daily = await server.call<Array<{ day: string; created: number; completed: number }>>('brand.statistics.overview', { metric: 'daily', ...range }, { token: tadmin });
    expect(daily.data!.length).toBeGreaterThanOrEqual(7);
    expect(daily.data!.every((d) => /^\d{2}-\d{2}$/.test(d.day))).toBe(true);
    const [created] = await column<number>(server, "SELECT count(*)::int AS value FROM work_order WHERE tenant_code = 'T0001' AND created_at BETWEEN $1 AND $2", [start, end]);
    expect(daily.data!.reduce((sum, d) => sum + d.created, 0)).toBe(created);
    const states = await server.call<Array<{ name: string; count: number }>>('brand.statistics.overview', { metric: 'deviceState' }, { token: tadmin });
    expect(states.data!.map((s) => s.name)).toEqual(['在线', '离线', '未激活']);
    const people = await server.call<Array<{ name: string; total: number }>>('brand.statistics.overview', { metric: 'assignee' }, { token: tadmin });
    expect(people.data!.length).toBeLessThanOrEqual(10);
    expect(people.data!.length).toBeGreaterThan(0);
  });

  it('refuses a bad metric or range', async () => {
    expect((await server.call('brand.statistics.overview', { metric: 'weather' }, { token: tadmin })).code).toBe('400');
    expect(await server.call('brand.statistics.overview', { startTime: '2026-03-01 00:00:00', endTime: '2026-03-01 00:00:00' }, { token: tadmin })).toMatchObject({ code: '400', message: '请输入不同的时间' });
    expect((await server.call('brand.statistics.overview', { startTime: '2026-02-31' }, { token: tadmin })).code).toBe('400');
  });
});

interface StaffRecord {
  id: number;
  loginName: string;
  userName: string;
  roleCode: string;
  organizationCode: string;
  status: string;
  openWorkCount: number;
}

const staff = (overrides: Record<string, unknown> = {}) => ({
  loginName: 'hz_fitter01',
  userName: '钱立新',
  phoneNumber: '15900001111',
  mail: '',
  organizationCode: 'T0001D0101',
  roleCode: 'ROLE_TENANT_REPAIR',
  status: '1',
  ...overrides,
});

describe('brand.user.page / insert / modify / delete', () => {
  it('lists the scope\'s field staff with their open work, never an admin', async () => {
    const reply = await pageCall<StaffRecord>(server, 'brand.user.page', tadmin, {}, { pageSize: 100 });
    expect(reply.data.records.some((r) => r.loginName === 'tadmin')).toBe(false);
    expect(reply.data.records.every((r) => ['ROLE_TENANT_ORDINARY', 'ROLE_TENANT_REPAIR', 'ROLE_TENANT_PATROL', 'ROLE_REPAIR_IMPLEMENT'].includes(r.roleCode))).toBe(true);
    expect(reply.data.records.find((r) => r.loginName === 'implement')!.openWorkCount).toBeGreaterThan(0);
    const patrollers = await pageCall<StaffRecord>(server, 'brand.user.page', tadmin, { roleCode: 'ROLE_TENANT_PATROL' }, { pageSize: 100 });
    expect(patrollers.data.records.map((r) => r.loginName)).toContain('patrol');
    expect(patrollers.data.records.every((r) => r.roleCode === 'ROLE_TENANT_PATROL')).toBe(true);
    const theirs = await pageCall<StaffRecord>(server, 'brand.user.page', badmin, {}, { pageSize: 100 });
    expect(theirs.data.records.every((r) => r.organizationCode.startsWith('T0002'))).toBe(true);
    expect((await pageCall(server, 'brand.user.page', tadmin, { roleCode: 'TENANT_ADMIN' })).code).toBe('400');
  });

  it('adds a field staff member who signs in with the initial password', async () => {
    const reply = await server.call<{ id: number }>('brand.user.insert', { user: staff() }, { token: tadmin });
    expect(reply.code).toBe('200');
    const pair = await server.call<{ accessToken: string }>('auth.login', { loginName: 'hz_fitter01', password: INITIAL_PASSWORD });
    expect(pair.code).toBe('200');
    expect(await server.call('brand.user.insert', { user: staff({ phoneNumber: '' }) }, { token: tadmin })).toMatchObject({ code: '409', message: '账号已存在' });
  });

  it('refuses an admin role, another tenant\'s organisation, bad input and a role without the button', async () => {
    expect((await server.call('brand.user.insert', { user: staff({ loginName: 'hz_boss', roleCode: 'TENANT_ADMIN' }) }, { token: tadmin })).message).toMatch(/^参数错误：user\.roleCode/);
    expect((await server.call('brand.user.insert', { user: staff({ loginName: 'hz_far', phoneNumber: '15900002222', organizationCode: 'T0002D01' }) }, { token: tadmin })).code).toBe('403');
    expect((await server.call('brand.user.insert', { user: staff({ loginName: 'hz_bad', phoneNumber: '123' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('brand.user.insert', { user: staff({ loginName: 'hz_tuser', phoneNumber: '15900003333' }) }, { token: tuser })).code).toBe('403');
  });

  it('changes a staff member, never an admin or another tenant\'s, and keeps someone with open work active', async () => {
    const hz01 = await userId(server, 'hz01');
    const [role] = await column<string>(server, 'SELECT role_code AS value FROM user_role WHERE user_id = $1', [hz01]);
    const [org] = await column<string>(server, 'SELECT organization_code AS value FROM user_organization WHERE user_id = $1', [hz01]);
    expect((await server.call('brand.user.modify', { id: hz01, user: staff({ loginName: 'hz01', userName: '周建国', phoneNumber: '', organizationCode: org, roleCode: role }) }, { token: tadmin })).code).toBe('200');
    expect(await column(server, 'SELECT user_name AS value FROM app_user WHERE id = $1', [hz01])).toEqual(['周建国']);
    expect(await server.call('brand.user.modify', { id: await userId(server, 'tadmin'), user: staff({ loginName: 'tadmin' }) }, { token: tadmin })).toMatchObject({ code: '404', message: '用户不存在' });
    expect((await server.call('brand.user.modify', { id: hz01, user: staff({ loginName: 'hz01' }) }, { token: badmin })).code).toBe('404');
    const me = await userId(server, 'implement');
    expect(await server.call('brand.user.modify', { id: me, user: staff({ loginName: 'implement', phoneNumber: '13800000005', organizationCode: 'T0001D01', roleCode: 'ROLE_REPAIR_IMPLEMENT', status: '0' }) }, { token: tadmin })).toMatchObject({
      code: '409',
      message: '该人员还有未完成的工作，请先转派后再停用',
    });
    expect((await server.call('brand.user.modify', { id: hz01, user: staff({ loginName: 'hz01', status: '2' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('brand.user.modify', { id: hz01, user: staff({ loginName: 'hz01' }) }, { token: tuser })).code).toBe('403');
  });

  it('deletes a staff member without open work only', async () => {
    const created = await server.call<{ id: number }>('brand.user.insert', { user: staff({ loginName: 'hz_temp', phoneNumber: '15900004444' }) }, { token: tadmin });
    const id = created.data!.id;
    expect((await server.call('brand.user.delete', { id }, { token: badmin })).code).toBe('404');
    expect((await server.call('brand.user.delete', { id }, { token: tuser })).code).toBe('403');
    expect(await server.call('brand.user.delete', { id: await userId(server, 'implement') }, { token: tadmin })).toMatchObject({ code: '409', message: '该人员还有未完成的工作，请先转派后再删除' });
    expect((await server.call('brand.user.delete', { id: await userId(server, 'tadmin') }, { token: tadmin })).code).toBe('404');
    expect((await server.call('brand.user.delete', { ids: [id] }, { token: tadmin })).code).toBe('400');
    expect((await server.call('brand.user.delete', { id }, { token: tadmin })).code).toBe('200');
    expect(await column(server, 'SELECT id AS value FROM app_user WHERE id = $1', [id])).toEqual([]);
  });
});

describe('brand.device.page / export', () => {
  it('is the device list of the caller\'s scope', async () => {
    const brand = await pageCall<{ code: string }>(server, 'brand.device.page', tadmin, { onlineState: 'offline' });
    const main = await pageCall<{ code: string }>(server, 'device.page', tadmin, { onlineState: 'offline' });
    expect(brand.data.total).toBe(main.data.total);
    expect(brand.data.records.map((r) => r.code)).toEqual(main.data.records.map((r) => r.code));
    const theirs = await pageCall<{ code: string; organizationCode: string }>(server, 'brand.device.page', badmin, {}, { pageSize: 100 });
    expect(theirs.data.records.length).toBeGreaterThan(0);
    expect(theirs.data.records.every((r) => r.organizationCode.startsWith('T0002'))).toBe(true);
    expect((await pageCall(server, 'brand.device.page', tadmin, { onlineState: 'sleepy' })).code).toBe('400');
  });

  it('exports them for the roles holding the button', async () => {
    const sheet = await exportSheet(server, 'brand.device.export', tuser, { onlineState: 'offline' });
    expect(sheet.rows[0][0]).toBe('设备编码');
    const [offline] = await column<number>(
      server,
      "SELECT count(*)::int AS value FROM device WHERE organization_code LIKE 'T0001P01%' AND online_state = 'offline' AND deleted_at IS NULL",
    );
    expect(sheet.rows).toHaveLength(offline + 1);
    expect((await server.call('brand.device.export', {}, { token: repair })).code).toBe('403');
    expect((await server.call('brand.device.export', { onlineState: 1 }, { token: tadmin })).code).toBe('400');
  });
});
