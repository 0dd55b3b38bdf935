// Patrol (issue 6): tasks planned by administrators, executed device by device by their patroller,
// abnormal findings raising repair orders, the records and the board. A patroller sees and
// executes only his own tasks; another tenant's task, or another patroller's, answers "404";
// a task already started cannot be changed or deleted ("409").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { download, later, pageOf, userId } from './work-helpers';

interface Task {
  code: string;
  name: string;
  state: string;
  assigneeId: number | null;
  organizationCode: string;
  deviceCount: number;
  checkedCount: number;
  canModify: boolean;
  canDelete: boolean;
  canExecute: boolean;
}
type TaskDetail = Task & {
  deviceCodes: string[];
  devices: Array<{ deviceCode: string; checked: boolean; result: string; repairOrderCode: string }>;
  checks: Array<{ deviceCode: string; deviceName: string; result: string }>;
};
interface PatrolRecord {
  taskCode: string;
  deviceCode: string;
  result: string;
  patrollerName: string;
  repairOrderCode: string;
}

let server: TestServer;
let tadmin: string;
let badmin: string;
let patrol: string;
let hz01: string;
let implement: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin, patrol, hz01, implement] = await Promise.all(['tadmin', 'badmin', 'patrol', 'hz01', 'implement'].map((name) => server.login(name)));
});
afterAll(() => server.close());

const call = <T = unknown>(name: string, param: unknown, token: string) => server.call<T>(name, param, { token });
const detail = (code: string, token = tadmin) => call<TaskDetail>('patrol.task.detail', { code }, token);

/** A seeded task by its state as read now, its patroller and whether it was touched. */
async function taskCode(state: 'pending' | 'in_progress' | 'completed' | 'overdue', patroller: string | null, skip = 0, tenant = 'T0001'): Promise<string> {
  const effective = `CASE WHEN t.state IN ('pending', 'in_progress') AND t.plan_end_at < now() THEN 'overdue' ELSE t.state END`;
  const rows = await server.db.query<{ code: string }>(
    `SELECT t.code FROM patrol_task t WHERE ${effective} = $1 AND t.tenant_code = $2
        AND ${patroller === null ? 't.assignee_id IS NULL' : 't.assignee_id = (SELECT id FROM app_user WHERE login_name = $3)'}
      ORDER BY t.id LIMIT 1 OFFSET ${skip}`,
    patroller === null ? [state, tenant] : [state, tenant, patroller],
  );
  if (!rows[0]) throw new Error(`no ${state} task of ${String(patroller)}`);
  return rows[0].code;
}

/** Devices of one site for a new task. */
async function siteDevices(site: string, count: number, tenant = 'T0001'): Promise<string[]> {
  const rows = await server.db.query<{ code: string }>(
    `SELECT code FROM device WHERE tenant_code = $1 AND organization_code LIKE $2 AND deleted_at IS NULL ORDER BY id LIMIT ${count}`,
    [tenant, `${site}%`],
  );
  return rows.map((row) => row.code);
}

describe('patrol.task.page and patrol.task.detail', () => {
  it('shows a tenant admin every task of the tenant in every state, and a patroller his own', async () => {
    const all = await pageOf<Task>(server, 'patrol.task.page', tadmin, {}, { pageSize: 500 });
    expect(all.data!.total).toBe(220);
    expect(new Set(all.data!.records.map((task) => task.state))).toEqual(new Set(['pending', 'in_progress', 'completed', 'overdue']));
    const id = await userId(server, 'patrol');
    const mine = await pageOf<Task>(server, 'patrol.task.page', patrol, {}, { pageSize: 500 });
    expect(mine.data!.records.every((task) => task.assigneeId === id)).toBe(true);
    expect(new Set(mine.data!.records.map((task) => task.state))).toEqual(new Set(['pending', 'in_progress', 'completed', 'overdue']));
    expect(mine.data!.records.filter((task) => task.state !== 'completed').every((task) => task.canExecute && !task.canModify)).toBe(true);
    const overdue = await pageOf<Task>(server, 'patrol.task.page', tadmin, { state: 'overdue' }, { pageSize: 500 });
    expect(overdue.data!.records.every((task) => task.state === 'overdue')).toBe(true);
    const second = await pageOf<Task>(server, 'patrol.task.page', badmin, {}, { pageSize: 500 });
    expect(second.data!.total).toBe(24);
    expect((await pageOf(server, 'patrol.task.page', tadmin, { state: 'sleeping' })).code).toBe('400');
    expect((await pageOf(server, 'patrol.task.page', tadmin, { planTime: ['2026-01-01', '2026-01-01'] })).code).toBe('400');
  });

  it('reads a task with its devices and what is left to check; "404" for another tenant’s or another patroller’s task', async () => {
    const code = await taskCode('in_progress', 'patrol');
    const reply = await detail(code, patrol);
    expect(reply.code).toBe('200');
    expect(reply.data!.devices).toHaveLength(reply.data!.deviceCount);
    expect(reply.data!.checks).toHaveLength(reply.data!.deviceCount - reply.data!.checkedCount);
    expect(reply.data!.checks.every((check) => check.result === 'normal')).toBe(true);
    expect(await detail(code, badmin)).toMatchObject({ code: '404', message: '巡检任务不存在' });
    expect((await detail(code, hz01)).code).toBe('404');
    expect((await detail('XJ', tadmin)).code).toBe('400');
  });
});

describe('patrol.task.insert, patrol.task.modify, patrol.task.delete', () => {
  it('plans a task for a patroller over devices of the site, edits it before it starts and deletes it', async () => {
    const devices = await siteDevices('T0001P02A01', 4);
    const task = { name: '下沙园区周巡检', organizationCode: 'T0001P02A01', assigneeId: await userId(server, 'patrol'), planTime: [later(1), later(2)], deviceCodes: devices, content: '检查外观与信号' };
    const created = await call<{ code: string }>('patrol.task.insert', { task }, tadmin);
    expect(created.code).toBe('200');
    expect(created.data!.code).toMatch(/^XJ\d{13}$/);
    expect((await detail(created.data!.code, patrol)).data).toMatchObject({ state: 'pending', deviceCount: 4, canExecute: true });
    expect((await detail(created.data!.code)).data).toMatchObject({ canModify: true, canDelete: true });
    const modified = await call('patrol.task.modify', { code: created.data!.code, task: { ...task, name: '下沙园区夜间巡检', deviceCodes: devices.slice(0, 2) } }, tadmin);
    expect(modified.code).toBe('200');
    expect((await detail(created.data!.code)).data).toMatchObject({ name: '下沙园区夜间巡检', deviceCount: 2 });
    expect((await call('patrol.task.delete', { code: created.data!.code }, tadmin)).code).toBe('200');
    expect((await detail(created.data!.code)).code).toBe('404');
  });

  it('refuses bad plans with "400"', async () => {
    const devices = await siteDevices('T0001P02A01', 2);
    const task = { name: '巡检', organizationCode: 'T0001P02A01', planTime: [later(1), later(2)], deviceCodes: devices };
    expect((await call('patrol.task.insert', { task: { ...task, deviceCodes: [] } }, tadmin)).code).toBe('400');
    expect((await call('patrol.task.insert', { task: { ...task, planTime: [later(1)] } }, tadmin)).code).toBe('400');
    expect(await call('patrol.task.insert', { task: { ...task, planTime: [later(-3), later(-2)] } }, tadmin)).toMatchObject({ code: '400', message: '计划结束时间须晚于当前时间' });
    expect(await call('patrol.task.insert', { task: { ...task, organizationCode: 'T0001P01' } }, tadmin)).toMatchObject({ code: '400', message: '巡检设备须位于所选组织内' });
    expect((await call('patrol.task.insert', { task: { ...task, assigneeId: await userId(server, 'repair') } }, tadmin)).message).toMatch(/^指派人员无效/);
    expect((await call('patrol.task.insert', { task: { ...task, name: '<b>巡检</b>' } }, tadmin)).code).toBe('400');
  });

  it('keeps tenants apart ("404") and leaves planning to administrators ("403")', async () => {
    const devices = await siteDevices('T0001P02A01', 2);
    const task = { name: '越权巡检', organizationCode: 'T0001P02A01', planTime: [later(1), later(2)], deviceCodes: devices };
    expect(await call('patrol.task.insert', { task }, badmin)).toMatchObject({ code: '404' });
    const foreign = await siteDevices('T0002P01', 1, 'T0002');
    expect(await call('patrol.task.insert', { task: { ...task, deviceCodes: foreign } }, tadmin)).toMatchObject({ code: '404', message: '设备不存在' });
    expect((await call('patrol.task.insert', { task }, patrol)).code).toBe('403');
    const pending = await taskCode('pending', 'hz04');
    expect((await call('patrol.task.modify', { code: pending, task }, badmin)).code).toBe('404');
    expect((await call('patrol.task.delete', { code: pending }, badmin)).code).toBe('404');
    expect((await call('patrol.task.delete', { code: pending }, patrol)).code).toBe('403');
    expect((await call('patrol.task.modify', { code: pending, task: { ...task, extra: true } }, tadmin)).code).toBe('400');
  });

  it('refuses to change or delete a task that has started ("409")', async () => {
    const started = await taskCode('in_progress', 'hz04').catch(() => taskCode('in_progress', 'patrol'));
    const done = await taskCode('completed', 'hz07');
    const devices = await siteDevices('T0001P02A01', 2);
    const task = { name: '改不了', organizationCode: 'T0001P02A01', planTime: [later(1), later(2)], deviceCodes: devices };
    expect(await call('patrol.task.modify', { code: started, task }, tadmin)).toMatchObject({ code: '409', message: '巡检任务已开始或已完成，不能修改' });
    expect(await call('patrol.task.delete', { code: done }, tadmin)).toMatchObject({ code: '409', message: '巡检任务已开始或已完成，不能删除' });
  });
});

describe('patrol.task.execute and patrol.record.page', () => {
  it('records each device’s result; an abnormal one raises a repair order; the last check completes the task', async () => {
    const code = await taskCode('in_progress', 'patrol');
    const before = await detail(code, patrol);
    const [first, ...rest] = before.data!.checks;
    const partial = await call<{ state: string; repairOrderCodes: string[] }>(
      'patrol.task.execute',
      { code, checks: [{ deviceCode: first.deviceCode, deviceName: first.deviceName, result: 'abnormal', description: '表井进水，设备外壳破裂' }] },
      patrol,
    );
    expect(partial.code).toBe('200');
    expect(partial.data!.repairOrderCodes).toHaveLength(1);
    const order = await call<{ source: string; sourceCode: string; state: string; deviceCode: string }>('repair.order.detail', { code: partial.data!.repairOrderCodes[0] }, tadmin);
    expect(order.data).toMatchObject({ source: 'patrol', sourceCode: code, state: 'created', deviceCode: first.deviceCode });
    expect(await call('patrol.task.execute', { code, checks: [{ deviceCode: first.deviceCode, result: 'normal' }] }, patrol)).toMatchObject({ code: '409', message: `设备 ${first.deviceCode} 已巡检` });
    if (rest.length) {
      const done = await call<{ state: string }>('patrol.task.execute', { code, checks: rest.map((check) => ({ deviceCode: check.deviceCode, result: 'normal', description: '' })) }, patrol);
      expect(done.data).toMatchObject({ state: 'completed' });
    }
    expect((await detail(code, patrol)).data).toMatchObject({ state: 'completed', canExecute: false, checks: [] });
    expect(await call('patrol.task.execute', { code, checks: [{ deviceCode: first.deviceCode, result: 'normal' }] }, patrol)).toMatchObject({ code: '409', message: '巡检任务已完成' });
    const records = await pageOf<PatrolRecord>(server, 'patrol.record.page', patrol, { taskCode: code }, { pageSize: 100 });
    expect(records.data!.total).toBe(before.data!.deviceCount);
    expect(records.data!.records.find((record) => record.deviceCode === first.deviceCode)).toMatchObject({ result: 'abnormal', repairOrderCode: partial.data!.repairOrderCodes[0], patrollerName: '赵磊' });
  });

  it('refuses bad checks ("400"), another patroller’s task ("404") and callers without the button ("403")', async () => {
    const code = await taskCode('overdue', 'patrol');
    const { data } = await detail(code, patrol);
    const device = data!.checks[0].deviceCode;
    expect((await call('patrol.task.execute', { code, checks: [] }, patrol)).code).toBe('400');
    expect((await call('patrol.task.execute', { code, checks: [{ deviceCode: device, result: 'fine' }] }, patrol)).code).toBe('400');
    expect(await call('patrol.task.execute', { code, checks: [{ deviceCode: device, result: 'abnormal' }] }, patrol)).toMatchObject({ code: '400', message: '请填写异常描述' });
    expect(await call('patrol.task.execute', { code, checks: [{ deviceCode: 'ZZZZ99999999', result: 'normal' }] }, patrol)).toMatchObject({ code: '400', message: '设备不在该巡检任务中' });
    expect((await call('patrol.task.execute', { code, checks: [{ deviceCode: device, result: 'normal' }] }, hz01)).code).toBe('404');
    expect((await call('patrol.task.execute', { code, checks: [{ deviceCode: device, result: 'normal' }] }, tadmin)).code).toBe('403');
    const unassigned = await taskCode('pending', null, 0, 'T0002').catch(() => taskCode('overdue', null, 0, 'T0002'));
    expect((await call('patrol.task.execute', { code: unassigned, checks: [{ deviceCode: device, result: 'normal' }] }, patrol)).code).toBe('404');
    // A late patrol still counts: the overdue task starts.
    expect((await call('patrol.task.execute', { code, checks: [{ deviceCode: device, result: 'normal' }] }, patrol)).code).toBe('200');
  });

  it('lists records by task, result and person; each tenant and patroller its own', async () => {
    const abnormal = await pageOf<PatrolRecord>(server, 'patrol.record.page', tadmin, { result: 'abnormal' }, { pageSize: 200 });
    expect(abnormal.data!.total).toBeGreaterThan(0);
    expect(abnormal.data!.records.every((record) => record.result === 'abnormal' && record.repairOrderCode.startsWith('WX'))).toBe(true);
    const mine = await pageOf<PatrolRecord>(server, 'patrol.record.page', patrol, {}, { pageSize: 500 });
    expect(mine.data!.records.every((record) => record.patrollerName === '赵磊')).toBe(true);
    const second = await pageOf<PatrolRecord>(server, 'patrol.record.page', badmin, {}, { pageSize: 10 });
    expect(second.data!.total).toBe(0);
    expect((await pageOf(server, 'patrol.record.page', tadmin, { result: 'meh' })).code).toBe('400');
  });
});

describe('patrol.task.export and patrol.board.statistics', () => {
  it('exports the tasks in view: all of the tenant’s for an admin, his own for a patroller', async () => {
    const file = await download(server, 'patrol.task.export', tadmin, { state: 'completed' });
    if (!('rows' in file)) throw new Error(JSON.stringify(file.envelope));
    expect(file.header[0]).toBe('任务编号');
    expect(file.rows.length).toBeGreaterThan(50);
    expect(file.rows.every((row) => row[6] === '已完成')).toBe(true);
    const mine = await download(server, 'patrol.task.export', patrol, {});
    if (!('rows' in mine)) throw new Error('no file');
    expect(mine.rows.every((row) => row[3] === '赵磊')).toBe(true);
    const bad = await download(server, 'patrol.task.export', tadmin, { assigneeId: 'me' });
    expect('envelope' in bad && bad.envelope.code).toBe('400');
    const refused = await download(server, 'patrol.task.export', implement, {});
    expect('envelope' in refused && refused.envelope.code).toBe('403');
  });

  it('sums up tasks, checks and findings over a time range', async () => {
    const range = { startTime: '2026-01-01 00:00:00', endTime: '2027-01-01 00:00:00' };
    const summary = await call<{ taskCount: number; completedCount: number; overdueCount: number; checkedCount: number; abnormalCount: number; completionPercent: number }>(
      'patrol.board.statistics',
      { metric: 'summary', ...range },
      tadmin,
    );
    expect(summary.code).toBe('200');
    const [counts] = await server.db.query<{ tasks: number; records: number }>(
      "SELECT (SELECT count(*)::int FROM patrol_task WHERE tenant_code = 'T0001' AND plan_start_at BETWEEN '2026-01-01' AND '2027-01-01') AS tasks, (SELECT count(*)::int FROM patrol_record r JOIN patrol_task t ON t.id = r.task_id WHERE t.tenant_code = 'T0001') AS records",
    );
    expect(summary.data!.taskCount).toBe(counts.tasks);
    expect(summary.data!.checkedCount).toBe(counts.records);
    expect(summary.data!.completedCount).toBeGreaterThan(0);
    const daily = await call<Array<{ day: string; checked: number }>>('patrol.board.statistics', { metric: 'daily', startTime: '2026-11-01 00:00:00', endTime: '2026-11-30 23:59:59' }, tadmin);
    expect(daily.data).toHaveLength(30);
    const states = await call<Array<{ name: string; count: number }>>('patrol.board.statistics', { metric: 'state', ...range }, tadmin);
    expect(states.data!.map((row) => row.name)).toEqual(['待巡检', '巡检中', '已完成', '已逾期']);
    expect(states.data!.reduce((sum, row) => sum + row.count, 0)).toBe(counts.tasks);
    const people = await call<Array<{ name: string; total: number }>>('patrol.board.statistics', { metric: 'patroller', ...range }, patrol);
    expect(people.data!.map((row) => row.name)).toEqual(['赵磊']);
    const findings = await call<Array<{ repairOrderCode: string }>>('patrol.board.statistics', { metric: 'abnormal', ...range }, tadmin);
    expect(findings.data!.length).toBeGreaterThan(0);
    const second = await call<{ taskCount: number; checkedCount: number }>('patrol.board.statistics', { metric: 'summary', ...range }, badmin);
    expect(second.data).toMatchObject({ checkedCount: 0 });
    expect((await call('patrol.board.statistics', { metric: 'mood' }, tadmin)).code).toBe('400');
    expect(await call('patrol.board.statistics', { startTime: '2026-11-01 00:00:00', endTime: '2026-11-01 00:00:00' }, tadmin)).toMatchObject({ code: '400', message: '请输入不同的时间' });
  });
});
