// Construction, engineering survey and maintenance orders (issue 6). Implementers register and
// carry out their own construction and surveys; administrators plan, assign and audit; repair
// staff and implementers complete the maintenance assigned to them. Each operation: the happy
// path, "400" for bad input, "404" for another tenant's order and for another implementer's,
// "409" where the state does not allow it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { deviceOf, download, later, orderCode, pageOf, stateOf, userId } from './work-helpers';

interface FieldOrder {
  code: string;
  state: string;
  title: string;
  tenantCode: string;
  assigneeId: number | null;
  assigneeName: string;
  auditState: string;
  result: string;
  formTemplateId: number | null;
  formData: Record<string, unknown> | null;
  canModify: boolean;
  canDelete: boolean;
  canAudit?: boolean;
  canComplete?: boolean;
  history: Array<{ action: string; toState: string; operatorName: string }>;
}

const REFUSED = '当前状态不允许该操作';
let server: TestServer;
let tadmin: string;
let badmin: string;
let tuser: string;
let implement: string;
let repair: string;
let hz02: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin, tuser, implement, repair, hz02] = await Promise.all(['tadmin', 'badmin', 'tuser', 'implement', 'repair', 'hz02'].map((name) => server.login(name)));
});
afterAll(() => server.close());

const call = <T = unknown>(name: string, param: unknown, token: string) => server.call<T>(name, param, { token });

describe('construction', () => {
  const read = (code: string, token = tadmin) => call<FieldOrder>('construction.detail', { code }, token);

  it('lists the tenant’s construction for an admin and his own for an implementer', async () => {
    const all = await pageOf<FieldOrder>(server, 'construction.page', tadmin, {}, { pageSize: 500 });
    expect(all.data!.total).toBe(120);
    expect(new Set(all.data!.records.map((order) => order.state))).toEqual(new Set(['created', 'assigned', 'in_progress', 'completed', 'audited', 'rejected']));
    const id = await userId(server, 'implement');
    const mine = await pageOf<FieldOrder>(server, 'construction.page', implement, {}, { pageSize: 500 });
    expect(mine.data!.records.every((order) => order.assigneeId === id)).toBe(true);
    expect(new Set(mine.data!.records.map((order) => order.state))).toEqual(new Set(['assigned', 'in_progress', 'completed', 'audited', 'rejected']));
    const pending = await pageOf<FieldOrder>(server, 'construction.page', tadmin, { auditState: 'pending' }, { pageSize: 500 });
    expect(pending.data!.records.every((order) => order.state === 'completed' && order.canAudit && !order.canModify)).toBe(true);
    expect((await pageOf<FieldOrder>(server, 'construction.page', badmin, {}, { pageSize: 500 })).data!.records.every((order) => order.tenantCode === 'T0002')).toBe(true);
    expect((await pageOf(server, 'construction.page', tadmin, { auditState: 'maybe' })).code).toBe('400');
  });

  it('reads an order with its history; "404" for another tenant’s or another implementer’s', async () => {
    const code = await orderCode(server, 'construction', 'audited', { assignee: 'implement' });
    const reply = await read(code, implement);
    expect(reply.data!.history.map((step) => step.action)).toEqual(['create', 'assign', 'start', 'submit', 'audit']);
    expect(await read(code, badmin)).toMatchObject({ code: '404', message: '施工单不存在' });
    expect((await read(code, hz02)).code).toBe('404');
    expect((await read('SG', tadmin)).code).toBe('400');
  });

  it('lets an implementer register his own work and submit it; an administrator plan and assign it', async () => {
    const device = await deviceOf(server, 'T0001', 11);
    const own = await call<{ code: string }>('construction.insert', { order: { title: '一号厂房烟感安装', deviceCode: device.code, description: '安装 6 台烟感', result: '已完成 3 台' } }, implement);
    expect(own.code).toBe('200');
    expect((await read(own.data!.code)).data).toMatchObject({ state: 'in_progress', assigneeName: '孙浩' });
    expect((await call('construction.modify', { code: own.data!.code, order: { title: '一号厂房烟感安装', deviceCode: device.code, result: '6 台全部安装调试完成', finished: true } }, implement)).code).toBe('200');
    const submitted = await read(own.data!.code);
    expect(submitted.data).toMatchObject({ state: 'completed', auditState: 'pending', result: '6 台全部安装调试完成', canAudit: true, canModify: false });
    expect(await call('construction.modify', { code: own.data!.code, order: { title: '再改', organizationCode: 'T0001P01' } }, implement)).toMatchObject({ code: '409' });
    const planned = await call<{ code: string }>(
      'construction.insert',
      {
        order: {
          title: '龙井水厂压力计安装',
          organizationCode: 'T0001P01A0102',
          planTime: [later(2), later(5)],
          assigneeId: await userId(server, 'implement'),
          formTemplateId: 2,
          formData: { installPosition: 'o2', pipeDiameter: 'o3', sealNumber: 'QF100234', finishDate: '2026-03-01', installPhotos: ['upload/2026/03/a.jpg'] },
        },
      },
      tadmin,
    );
    expect((await read(planned.data!.code)).data).toMatchObject({ state: 'assigned', formTemplateId: 2, formData: { pipeDiameter: 'o3', installPhotos: ['upload/2026/03/a.jpg'] } });
    // An edit without the dynamic form's values keeps them.
    expect((await call('construction.modify', { code: planned.data!.code, order: { title: '龙井水厂压力计安装（二期）', organizationCode: 'T0001P01A0102', assigneeId: await userId(server, 'implement') } }, tadmin)).code).toBe('200');
    expect((await read(planned.data!.code)).data).toMatchObject({ title: '龙井水厂压力计安装（二期）', formTemplateId: 2, formData: { pipeDiameter: 'o3' } });
    const unassigned = await call<{ code: string }>('construction.insert', { order: { title: '江东园区布线', organizationCode: 'T0001P02A02' } }, tadmin);
    expect((await read(unassigned.data!.code)).data).toMatchObject({ state: 'created', assigneeId: null });
  });

  it('refuses bad orders ("400"), another tenant’s places ("404") and users without the button ("403")', async () => {
    expect((await call('construction.insert', { order: { organizationCode: 'T0001P01' } }, tadmin)).code).toBe('400');
    expect((await call('construction.insert', { order: { title: '施工', organizationCode: 'T0001P01', planTime: ['2026-12-01 08:00:00', '2026-12-01 08:00:00'] } }, tadmin)).message).toBe('请输入不同的时间');
    expect((await call('construction.insert', { order: { title: '施工', organizationCode: 'T0001P01', formData: { 'bad key': 1 } } }, tadmin)).code).toBe('400');
    expect((await call('construction.insert', { order: { title: '施工', organizationCode: 'T0001P01', assigneeId: await userId(server, 'repair') } }, tadmin)).message).toMatch(/^指派人员无效/);
    expect((await call('construction.insert', { order: { title: '施工', organizationCode: 'T0002P01' } }, tadmin)).code).toBe('404');
    expect((await call('construction.insert', { order: { title: '施工', deviceCode: (await deviceOf(server, 'T0001')).code } }, badmin)).code).toBe('404');
    expect((await call('construction.insert', { order: { title: '施工', organizationCode: 'T0001P01' } }, tuser)).code).toBe('403');
  });

  it('modify and delete: only while not submitted; the implementer only his own; tenants apart', async () => {
    const othersWork = await orderCode(server, 'construction', 'in_progress', { assignee: 'hz02' }).catch(() => orderCode(server, 'construction', 'assigned', { assignee: 'hz03' }));
    const order = { title: '改名', organizationCode: 'T0001P01' };
    expect((await call('construction.modify', { code: othersWork, order }, implement)).code).toBe('404');
    expect((await call('construction.delete', { code: othersWork }, implement)).code).toBe('404');
    expect((await call('construction.modify', { code: othersWork, order }, badmin)).code).toBe('404');
    expect((await call('construction.delete', { code: othersWork }, badmin)).code).toBe('404');
    expect((await call('construction.modify', { code: othersWork, order: { title: '' } }, tadmin)).code).toBe('400');
    const audited = await orderCode(server, 'construction', 'audited');
    expect(await call('construction.delete', { code: audited }, tadmin)).toMatchObject({ code: '409', message: '施工单已提交审核或已审核，不能删除' });
    const mine = await orderCode(server, 'construction', 'assigned', { assignee: 'implement' });
    expect((await call('construction.delete', { code: mine }, implement)).code).toBe('200');
    expect((await call('construction.detail', { code: mine }, tadmin)).code).toBe('404');
  });

  it('audit: approve or send back completed work; "400" without a reason to send back; "409" otherwise', async () => {
    const first = await orderCode(server, 'construction', 'completed');
    const second = await orderCode(server, 'construction', 'completed', { skip: 1 });
    expect((await call('construction.audit', { code: first, approved: 'yes' }, tadmin)).code).toBe('400');
    expect(await call('construction.audit', { code: second, approved: false }, tadmin)).toMatchObject({ code: '400', message: '请填写驳回原因' });
    expect((await call('construction.audit', { code: first, approved: true }, badmin)).code).toBe('404');
    expect((await call('construction.audit', { code: first, approved: true }, implement)).code).toBe('403');
    expect((await call('construction.audit', { code: first, approved: true, opinion: '合格' }, tadmin)).code).toBe('200');
    expect((await read(first)).data).toMatchObject({ state: 'audited', auditState: 'approved' });
    expect(await call('construction.audit', { code: first, approved: true }, tadmin)).toMatchObject({ code: '409', message: REFUSED });
    expect((await call('construction.audit', { code: second, approved: false, opinion: '铅封缺失' }, tadmin)).code).toBe('200');
    expect((await read(second)).data).toMatchObject({ state: 'rejected', auditState: 'rejected', canModify: true });
  });

  it('exports the tenant’s construction', async () => {
    const file = await download(server, 'construction.export', tadmin, { auditState: 'approved' });
    if (!('rows' in file)) throw new Error(JSON.stringify(file.envelope));
    expect(file.fileName).toMatch(/^施工管理-/);
    expect(file.rows.every((row) => row[9] === '已通过')).toBe(true);
    const bad = await download(server, 'construction.export', tadmin, { state: 'x' });
    expect('envelope' in bad && bad.envelope.code).toBe('400');
  });
});

describe('exploration', () => {
  const read = (code: string, token = tadmin) => call<FieldOrder>('exploration.detail', { code }, token);

  it('lists surveys by tenant and implementer and reads one', async () => {
    const all = await pageOf<FieldOrder>(server, 'exploration.page', tadmin, {}, { pageSize: 500 });
    expect(all.data!.total).toBe(90);
    const mine = await pageOf<FieldOrder>(server, 'exploration.page', implement, {}, { pageSize: 500 });
    const id = await userId(server, 'implement');
    expect(mine.data!.records.every((order) => order.assigneeId === id)).toBe(true);
    expect(new Set(mine.data!.records.map((order) => order.state))).toEqual(new Set(['assigned', 'in_progress', 'completed']));
    const code = mine.data!.records[0].code;
    expect((await read(code, implement)).code).toBe('200');
    expect(await read(code, badmin)).toMatchObject({ code: '404', message: '勘察单不存在' });
    expect((await read(code, hz02)).code).toBe('404');
    expect((await pageOf(server, 'exploration.page', tadmin, { overdue: 'perhaps' })).code).toBe('400');
  });

  it('plans a survey, lets the surveyor conclude it, and keeps a concluded survey as it is', async () => {
    const planned = await call<{ code: string }>(
      'exploration.insert',
      { order: { title: '湖滨监测站新装点勘察', organizationCode: 'T0001P01A0201', planStartTime: later(1), deadline: later(4), assigneeId: await userId(server, 'implement'), description: '看供电与信号' } },
      tadmin,
    );
    expect(planned.code).toBe('200');
    expect(planned.data!.code).toMatch(/^KC/);
    const conclusion = {
      title: '湖滨监测站新装点勘察',
      organizationCode: 'T0001P01A0201',
      result: '信号 -88dBm，具备安装条件',
      finished: true,
      formTemplateId: 1,
      formData: { signalDbm: -88, network: 'o1', powerSupply: 'o1', surveyDate: '2026-03-02' },
    };
    expect((await call('exploration.modify', { code: planned.data!.code, order: conclusion }, implement)).code).toBe('200');
    const done = await read(planned.data!.code);
    expect(done.data).toMatchObject({ state: 'completed', result: '信号 -88dBm，具备安装条件', formData: { signalDbm: -88 }, canModify: false });
    expect(done.data!.history.map((step) => step.action)).toEqual(['create', 'assign', 'modify', 'start', 'complete']);
    expect(await call('exploration.modify', { code: planned.data!.code, order: conclusion }, tadmin)).toMatchObject({ code: '409', message: '勘察已完成，不能修改' });
    expect(await call('exploration.delete', { code: planned.data!.code }, tadmin)).toMatchObject({ code: '409', message: '勘察已完成，不能删除' });
    // The surveyor registers a survey himself.
    const own = await call<{ code: string }>('exploration.insert', { order: { title: '江东园区信号勘察', organizationCode: 'T0001P02A02' } }, implement);
    expect((await read(own.data!.code)).data).toMatchObject({ state: 'in_progress', assigneeName: '孙浩' });
    expect((await call('exploration.delete', { code: own.data!.code }, implement)).code).toBe('200');
  });

  it('refuses bad surveys ("400"), other tenants’ and implementers’ ("404"), users without the button ("403")', async () => {
    expect((await call('exploration.insert', { order: { title: '勘察' } }, tadmin)).message).toBe('请填写设备编码或选择组织');
    expect((await call('exploration.insert', { order: { title: '勘察', organizationCode: 'T0001P01', planStartTime: '明天' } }, tadmin)).code).toBe('400');
    expect((await call('exploration.insert', { order: { title: '勘察', organizationCode: 'T0001P01', planStartTime: later(5), deadline: later(2) } }, tadmin)).message).toBe('截止时间须晚于计划开始时间');
    expect((await call('exploration.insert', { order: { title: '勘察', organizationCode: 'T0001P01' } }, badmin)).code).toBe('404');
    expect((await call('exploration.insert', { order: { title: '勘察', organizationCode: 'T0001P01' } }, tuser)).code).toBe('403');
    const others = await orderCode(server, 'exploration', 'assigned', { assignee: 'hz03' }).catch(() => orderCode(server, 'exploration', 'assigned', { assignee: 'hz02' }));
    expect((await call('exploration.modify', { code: others, order: { title: '越权', organizationCode: 'T0001P01' } }, implement)).code).toBe('404');
    expect((await call('exploration.delete', { code: others }, implement)).code).toBe('404');
    expect((await call('exploration.delete', { code: others }, badmin)).code).toBe('404');
    expect((await call('exploration.delete', { code: 7 }, tadmin)).code).toBe('400');
  });

  it('exports the tenant’s surveys', async () => {
    const file = await download(server, 'exploration.export', tadmin, { state: 'completed' });
    if (!('rows' in file)) throw new Error(JSON.stringify(file.envelope));
    expect(file.rows.length).toBeGreaterThan(20);
    expect(file.rows.every((row) => row[2] === '已完成')).toBe(true);
    const second = await download(server, 'exploration.export', badmin, {});
    if (!('rows' in second)) throw new Error('no file');
    expect(second.rows).toHaveLength(40);
  });
});

describe('maintenance', () => {
  const read = (code: string, token = tadmin) => call<FieldOrder>('maintenance.detail', { code }, token);

  it('lists maintenance by tenant and assignee, with what each may do', async () => {
    const all = await pageOf<FieldOrder>(server, 'maintenance.page', tadmin, { state: 'assigned' }, { pageSize: 500 });
    expect(all.data!.records.every((order) => order.canModify && order.canDelete && !order.canComplete)).toBe(true);
    const mine = await pageOf<FieldOrder>(server, 'maintenance.page', repair, {}, { pageSize: 500 });
    const id = await userId(server, 'repair');
    expect(mine.data!.records.every((order) => order.assigneeId === id)).toBe(true);
    expect(mine.data!.records.filter((order) => order.state === 'assigned').every((order) => order.canComplete && !order.canModify)).toBe(true);
    expect(new Set(mine.data!.records.map((order) => order.state))).toEqual(new Set(['assigned', 'completed']));
    expect((await pageOf<FieldOrder>(server, 'maintenance.page', badmin, {}, { pageSize: 500 })).data!.total).toBe(90);
    expect((await pageOf(server, 'maintenance.page', tadmin, { maintenanceType: 'polish' })).code).toBe('400');
    const code = mine.data!.records[0].code;
    expect(await read(code, badmin)).toMatchObject({ code: '404', message: '维保单不存在' });
    expect((await read(code, implement)).code).toBe('404');
  });

  it('plans, edits and deletes maintenance; the assignee completes it', async () => {
    const device = await deviceOf(server, 'T0001', 21);
    const plan = { title: '压力计季度校准', maintenanceType: 'calibration', deviceCode: device.code, planStartTime: later(3), deadline: later(10), assigneeId: await userId(server, 'repair'), description: '零点与量程校准' };
    const created = await call<{ code: string }>('maintenance.insert', { order: plan }, tadmin);
    expect(created.code).toBe('200');
    expect(created.data!.code).toMatch(/^WB/);
    expect((await read(created.data!.code)).data).toMatchObject({ state: 'assigned', assigneeName: '王强' });
    expect((await call('maintenance.modify', { code: created.data!.code, order: { ...plan, assigneeId: await userId(server, 'implement') } }, tadmin)).code).toBe('200');
    expect((await read(created.data!.code)).data).toMatchObject({ assigneeName: '孙浩' });
    expect((await call('maintenance.complete', { code: created.data!.code, result: '越权完成' }, repair)).code).toBe('404');
    expect((await call('maintenance.complete', { code: created.data!.code, result: '已校准，误差 0.3%', cost: 120 }, implement)).code).toBe('200');
    expect((await read(created.data!.code)).data).toMatchObject({ state: 'completed', result: '已校准，误差 0.3%' });
    expect(await call('maintenance.complete', { code: created.data!.code, result: '再来一次' }, implement)).toMatchObject({ code: '409', message: REFUSED });
    expect(await call('maintenance.modify', { code: created.data!.code, order: plan }, tadmin)).toMatchObject({ code: '409', message: '维保已完成，不能修改' });
    expect(await call('maintenance.delete', { code: created.data!.code }, tadmin)).toMatchObject({ code: '409', message: '维保已完成，不能删除' });
    const another = await call<{ code: string }>('maintenance.insert', { order: plan }, tadmin);
    expect((await call('maintenance.delete', { code: another.data!.code }, tadmin)).code).toBe('200');
    expect(await stateOf(server, await orderCode(server, 'maintenance', 'completed'))).toBe('completed');
  });

  it('refuses bad plans ("400"), other tenants’ ("404") and the wrong roles ("403")', async () => {
    const device = await deviceOf(server, 'T0001');
    const plan = { title: '清洗', maintenanceType: 'cleaning', deviceCode: device.code, assigneeId: await userId(server, 'repair') };
    expect((await call('maintenance.insert', { order: { ...plan, assigneeId: undefined } }, tadmin)).code).toBe('400');
    expect((await call('maintenance.insert', { order: { ...plan, maintenanceType: 'polish' } }, tadmin)).code).toBe('400');
    expect((await call('maintenance.insert', { order: { ...plan, assigneeId: await userId(server, 'patrol') } }, tadmin)).message).toMatch(/^指派人员无效/);
    expect((await call('maintenance.insert', { order: plan }, badmin)).code).toBe('404');
    expect((await call('maintenance.insert', { order: plan }, implement)).code).toBe('403');
    const open = await orderCode(server, 'maintenance', 'assigned', { assignee: 'hz05' });
    expect((await call('maintenance.modify', { code: open, order: plan }, badmin)).code).toBe('404');
    expect((await call('maintenance.delete', { code: open }, badmin)).code).toBe('404');
    expect((await call('maintenance.complete', { code: open, result: '完成' }, badmin)).code).toBe('403');
    expect((await call('maintenance.complete', { code: open, result: '完成' }, repair)).code).toBe('404');
    expect((await call('maintenance.complete', { code: open }, repair)).code).toBe('400');
    expect((await call('maintenance.complete', { code: open, result: '完成' }, tadmin)).code).toBe('403');
  });
});
