// The concurrency suite, work and device side (issue 17): for each state-changing operation, ten
// identical calls sent at once. Exactly one wins ("200"); the others are refused as a second call
// one after another would be ("409" with the domain's own message), none answers a server error,
// and the database shows the step taken once. Runs on PGlite and on PostgreSQL (server-pg).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { burst, oneWinner, scalar } from './concurrency-burst';
import { deviceOf, later, userId } from './work-helpers';

const REFUSED = '当前状态不允许该操作';

let server: TestServer;
let tadmin: string;
let repair: string;
let implement: string;
let patrol: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, repair, implement, patrol] = await Promise.all([
    server.login('tadmin'),
    server.login('repair'),
    server.login('implement'),
    server.login('patrol'),
  ]);
});
afterAll(() => server.close());

/** Codes of seeded alarms of T0001 in `state` (device or monitoring), the newest first. */
async function alarmCodes(source: 'device' | 'monitoring', state: string, count: number): Promise<string[]> {
  const rows = await server.db.query<{ code: string }>(
    `SELECT code FROM alarm_record WHERE tenant_code = 'T0001' AND source = $1 AND state = $2 AND repair_order_code IS NULL ORDER BY triggered_at DESC, id DESC LIMIT ${count}`,
    [source, state],
  );
  if (rows.length < count) throw new Error(`fewer than ${count} ${state} ${source} alarms`);
  return rows.map((row) => row.code);
}

describe('alarms', () => {
  it('alarm.record.handle: ten handlings of one alarm close it once, with the winner’s remark', async () => {
    const [code] = await alarmCodes('device', 'pending', 1);
    const answers = await burst(server, 'alarm.record.handle', (i) => ({ code, state: 'resolved', remark: `现场处理 ${i}` }), tadmin);
    const { index } = oneWinner(answers, { message: '该告警已处理' });
    const [row] = await server.db.query<{ state: string; handle_remark: string; handled_by: string }>('SELECT state, handle_remark, handled_by FROM alarm_record WHERE code = $1', [code]);
    expect(row).toEqual({ state: 'resolved', handle_remark: `现场处理 ${index}`, handled_by: 'tadmin' });
  });

  it('monitoring.alarm.handle: the same for a monitoring alarm', async () => {
    const [code] = await alarmCodes('monitoring', 'pending', 1);
    const answers = await burst(server, 'monitoring.alarm.handle', (i) => ({ code, state: 'ignored', remark: `误报 ${i}` }), tadmin);
    const { index } = oneWinner(answers, { message: '该告警已处理' });
    expect(await scalar(server, 'SELECT handle_remark AS value FROM alarm_record WHERE code = $1', [code])).toBe(`误报 ${index}`);
  });

  it('alarm.record.batchHandle: ten handlings of one selection close each alarm once and count it once', async () => {
    const codes = await alarmCodes('device', 'pending', 3);
    const answers = await burst<{ handled: number; skipped: number }>(server, 'alarm.record.batchHandle', (i) => ({ codes, state: 'ignored', remark: `批量处理 ${i}` }), tadmin);
    const { index, data } = oneWinner(answers, { message: '所选告警均已处理' });
    expect(data).toEqual({ handled: 3, skipped: 0 });
    expect(await scalar(server, "SELECT count(*)::int AS value FROM alarm_record WHERE code = ANY($1::text[]) AND state = 'ignored' AND handle_remark = $2", [codes, `批量处理 ${index}`])).toBe(3);
  });

  it('alarm.record.toRepair: ten requests give one repair order', async () => {
    const [code] = await alarmCodes('device', 'pending', 1);
    const answers = await burst<{ repairOrderCode: string }>(server, 'alarm.record.toRepair', (i) => ({ code, remark: `请到场 ${i}` }), repair);
    const { index, data } = oneWinner(answers, { message: '该告警已转维修工单' });
    const [row] = await server.db.query<{ state: string; repair_order_code: string; handle_remark: string }>('SELECT state, repair_order_code, handle_remark FROM alarm_record WHERE code = $1', [code]);
    expect(row).toEqual({ state: 'processing', repair_order_code: data.repairOrderCode, handle_remark: `请到场 ${index}` });
  });
});

describe('repair orders', () => {
  it('accept, start, complete, audit, close: each step taken once of ten at a time, and recorded once', async () => {
    const device = await deviceOf(server, 'T0001', 11);
    const created = await server.call<{ code: string }>(
      'repair.order.insert',
      { order: { title: '并发测试：水表不上报', deviceCode: device.code, faultType: 'no_data', assigneeId: await userId(server, 'implement'), deadline: later(3) } },
      { token: tadmin },
    );
    expect(created.code).toBe('200');
    const code = created.data!.code;
    oneWinner(await burst(server, 'repair.order.accept', () => ({ code }), implement), { message: REFUSED });
    oneWinner(await burst(server, 'repair.order.start', () => ({ code }), implement), { message: REFUSED });
    const completed = oneWinner(await burst(server, 'repair.order.complete', (i) => ({ code, result: `更换电池 ${i}`, cost: 10 + i }), implement), { message: REFUSED });
    oneWinner(await burst(server, 'repair.order.audit', (i) => ({ code, opinion: `通过 ${i}` }), tadmin), { message: REFUSED });
    oneWinner(await burst(server, 'repair.order.close', (i) => ({ code, reason: `已回访 ${i}` }), tadmin), { message: REFUSED });
    const [order] = await server.db.query<{ id: number; state: string; result: string; cost: string }>('SELECT id, state, result, cost::text AS cost FROM work_order WHERE code = $1', [code]);
    expect(order).toMatchObject({ state: 'closed', result: `更换电池 ${completed.index}`, cost: `${10 + completed.index}.00` });
    const history = await server.db.query<{ action: string }>('SELECT action FROM work_order_history WHERE order_id = $1 ORDER BY created_at, id', [order.id]);
    expect(history.map((step) => step.action)).toEqual(['create', 'assign', 'accept', 'start', 'complete', 'audit', 'close']);
  });

  it('repair.report.toOrder: ten conversions of one fault report raise one repair order', async () => {
    const device = await deviceOf(server, 'T0001', 12);
    const reported = await server.call<{ code: string }>('repair.report.insert', { report: { deviceCode: device.code, faultType: 'leakage', description: '并发测试：表井渗漏' } }, { token: repair });
    expect(reported.code).toBe('200');
    const code = reported.data!.code;
    const answers = await burst<{ orderCode: string }>(server, 'repair.report.toOrder', () => ({ code }), tadmin);
    const { data } = oneWinner(answers, { message: '该故障上报已转工单' });
    expect(await scalar(server, "SELECT count(*)::int AS value FROM work_order WHERE source = 'report' AND source_code = $1", [code])).toBe(1);
    expect(await scalar(server, 'SELECT o.code AS value FROM repair_report r JOIN work_order o ON o.id = r.order_id WHERE r.code = $1', [code])).toBe(data.orderCode);
  });
});

describe('patrol', () => {
  it('patrol.task.execute: ten submissions of one check record it once and raise one repair order', async () => {
    const [task] = await server.db.query<{ id: number; code: string; device_code: string }>(
      `SELECT t.id, t.code, td.device_code FROM patrol_task t JOIN patrol_task_device td ON td.task_id = t.id
        WHERE t.tenant_code = 'T0001' AND t.state IN ('pending', 'in_progress') AND t.plan_end_at > now()
          AND t.assignee_id = (SELECT id FROM app_user WHERE login_name = 'patrol')
          AND NOT EXISTS (SELECT 1 FROM patrol_record r WHERE r.task_id = t.id AND r.device_code = td.device_code)
        ORDER BY t.id, td.sort LIMIT 1`,
    );
    const answers = await burst<{ repairOrderCodes: string[] }>(
      server,
      'patrol.task.execute',
      (i) => ({ code: task.code, checks: [{ deviceCode: task.device_code, result: 'abnormal', description: `外壳破裂 ${i}` }] }),
      patrol,
    );
    const { index, data } = oneWinner(answers, { message: `设备 ${task.device_code} 已巡检` });
    expect(await scalar(server, 'SELECT count(*)::int AS value FROM patrol_record WHERE task_id = $1 AND device_code = $2', [task.id, task.device_code])).toBe(1);
    expect(await scalar(server, 'SELECT description AS value FROM patrol_record WHERE task_id = $1 AND device_code = $2', [task.id, task.device_code])).toBe(`外壳破裂 ${index}`);
    expect(data.repairOrderCodes).toHaveLength(1);
    expect(await scalar(server, "SELECT count(*)::int AS value FROM work_order WHERE source = 'patrol' AND source_code = $1 AND device_code = $2", [task.code, task.device_code])).toBe(1);
  });
});

describe('device maintenance and feedback', () => {
  const pendingErrors = async (count: number) =>
    (
      await server.db.query<{ id: number }>(
        `SELECT e.id FROM device_error e JOIN device d ON d.code = e.device_code WHERE e.tenant_code = 'T0001' AND e.state = 'pending' AND d.deleted_at IS NULL ORDER BY e.id DESC LIMIT ${count}`,
      )
    ).map((row) => row.id);

  it('device.error.handle and device.error.toRepair: one of ten moves the error', async () => {
    const [handled, sent] = await pendingErrors(2);
    const handling = oneWinner(await burst(server, 'device.error.handle', (i) => ({ id: handled, remark: `已更换电池 ${i}` }), tadmin), { message: '该异常已处理' });
    expect(await scalar(server, 'SELECT handle_remark AS value FROM device_error WHERE id = $1', [handled])).toBe(`已更换电池 ${handling.index}`);
    const sending = oneWinner(await burst<{ repairOrderCode: string }>(server, 'device.error.toRepair', () => ({ id: sent }), tadmin), { message: /^该异常已转维修（RO\d+）$/ });
    expect(await scalar(server, 'SELECT repair_order_code AS value FROM device_error WHERE id = $1', [sent])).toBe(sending.data.repairOrderCode);
  });

  it('device.delete: one of ten moves the device to the recycle bin, the others find it gone', async () => {
    const device = await server.db
      .query<{ code: string }>(
        `SELECT d.code FROM device d JOIN product p ON p.code = d.product_code
          WHERE d.tenant_code = 'T0001' AND d.deleted_at IS NULL AND p.node_type = 'direct' AND NOT EXISTS (SELECT 1 FROM device s WHERE s.gateway_code = d.code)
          ORDER BY d.id DESC LIMIT 1`,
      )
      .then(([row]) => row);
    const { data } = oneWinner(await burst<{ deleted: number }>(server, 'device.delete', () => ({ code: device.code }), tadmin), { code: '404', message: '设备不存在' });
    expect(data).toEqual({ deleted: 1 });
    expect(await scalar(server, 'SELECT deleted_by AS value FROM device WHERE code = $1', [device.code])).toBe('tadmin');
  });

  it('device.feedback.reply and batchReply: one of ten replies', async () => {
    const pending = await server.db.query<{ id: number; code: string }>("SELECT id, code FROM feedback WHERE organization_code LIKE 'T0001%' AND state = 'pending' ORDER BY id LIMIT 4");
    expect(pending).toHaveLength(4);
    const [one, ...three] = pending;
    const single = oneWinner(await burst(server, 'device.feedback.reply', (i) => ({ id: one.id, reply: `已收到 ${i}` }), tadmin), { message: '该反馈已回复' });
    expect(await scalar(server, 'SELECT reply AS value FROM feedback WHERE id = $1', [one.id])).toBe(`已收到 ${single.index}`);
    const batch = oneWinner(
      await burst<{ replied: number; skipped: number }>(server, 'device.feedback.batchReply', (i) => ({ codes: three.map((f) => f.code), reply: `统一回复 ${i}` }), tadmin),
      { message: '所选反馈均已回复' },
    );
    expect(batch.data).toEqual({ replied: 3, skipped: 0 });
    expect(await scalar(server, 'SELECT count(*)::int AS value FROM feedback WHERE id = ANY($1::int[]) AND reply = $2', [three.map((f) => f.id), `统一回复 ${batch.index}`])).toBe(3);
  });
});

describe('firmware upgrade tasks', () => {
  const taskId = async (name: string) => scalar<number>(server, 'SELECT id AS value FROM upgrade_task WHERE name = $1', [name]);

  it('upgrade.task.cancel: ten cancellations of one task cancel its devices once', async () => {
    const id = await taskId('水表 1.5.0 差分升级（第一批）');
    const answers = await burst<{ cancelled: number }>(server, 'upgrade.task.cancel', () => ({ id }), tadmin);
    const { data } = oneWinner(answers, { message: '升级任务已结束，不能取消' });
    expect(data.cancelled).toBeGreaterThan(0);
    expect(await scalar(server, "SELECT count(*)::int AS value FROM upgrade_task_device WHERE task_id = $1 AND state = 'cancelled'", [id])).toBe(data.cancelled);
    expect(await scalar(server, 'SELECT state AS value FROM upgrade_task WHERE id = $1', [id])).toBe('cancelled');
  });

  it('upgrade.task.retry: ten retries of one task start one new attempt per failed device', async () => {
    const id = await taskId('压力计 3.1.5 批量升级');
    const before = await server.db.query<{ device_code: string; attempts: number }>("SELECT device_code, attempts FROM upgrade_task_device WHERE task_id = $1 AND state = 'failed' ORDER BY device_code", [id]);
    expect(before.length).toBeGreaterThan(0);
    const answers = await burst<{ retried: number }>(server, 'upgrade.task.retry', () => ({ id }), tadmin);
    const { data } = oneWinner(answers, { message: '没有可重试的失败设备' });
    expect(data.retried).toBe(before.length);
    const after = await server.db.query<{ device_code: string; attempts: number }>('SELECT device_code, attempts FROM upgrade_task_device WHERE task_id = $1 AND device_code = ANY($2::text[]) ORDER BY device_code', [
      id,
      before.map((row) => row.device_code),
    ]);
    expect(after).toEqual(before.map((row) => ({ device_code: row.device_code, attempts: row.attempts + 1 })));
  });
});

describe('office', () => {
  const requestOf = (applicant: string, state: string) =>
    scalar<string>(server, 'SELECT code AS value FROM office_request WHERE applicant_id = (SELECT id FROM app_user WHERE login_name = $1) AND state = $2 ORDER BY id LIMIT 1', [applicant, state]);

  it('office.corporate.submit and office.audit.approve: one of ten each, recorded once', async () => {
    const steps = (code: string, action: string) =>
      scalar<number>(server, 'SELECT count(*)::int AS value FROM office_request_history h JOIN office_request r ON r.id = h.request_id WHERE r.code = $1 AND h.action = $2', [code, action]);
    const draft = await requestOf('implement', 'draft');
    const submits = await steps(draft, 'submit');
    oneWinner(await burst(server, 'office.corporate.submit', () => ({ code: draft }), implement), { message: '申请已提交或已审核，不能提交' });
    expect(await steps(draft, 'submit')).toBe(submits + 1);
    const submitted = await requestOf('tuser', 'submitted');
    const { index } = oneWinner(await burst(server, 'office.audit.approve', (i) => ({ code: submitted, opinion: `同意 ${i}` }), tadmin), { message: REFUSED });
    expect(await scalar(server, 'SELECT audit_opinion AS value FROM office_request WHERE code = $1', [submitted])).toBe(`同意 ${index}`);
    expect(await steps(submitted, 'approve')).toBe(1);
  });

  it('brand.backlog.handle: one of ten starts a patrol task', async () => {
    const code = await scalar<string>(
      server,
      `SELECT code AS value FROM patrol_task WHERE tenant_code = 'T0001' AND state = 'pending' AND plan_end_at > now()
          AND assignee_id = (SELECT id FROM app_user WHERE login_name = 'patrol') ORDER BY id LIMIT 1`,
    );
    oneWinner(await burst(server, 'brand.backlog.handle', () => ({ kind: 'patrol', code, action: 'start' }), patrol), { message: REFUSED });
    expect(await scalar(server, 'SELECT state AS value FROM patrol_task WHERE code = $1', [code])).toBe('in_progress');
  });
});

describe('notifications and forms', () => {
  it('notification.maintenance.publish: one of ten publishes, and the recipients get the notification once', async () => {
    const title = '并发测试：停水检修通知';
    const inserted = await server.call<{ code: string }>(
      'notification.maintenance.insert',
      { notification: { title, tabType: 1, audienceType: 'organization', organizationCodes: ['T0001P01'], body: '<p>本周六停水检修。</p>' } },
      { token: tadmin },
    );
    expect(inserted.code).toBe('200');
    const { data } = oneWinner(await burst<{ recipientCount: number }>(server, 'notification.maintenance.publish', () => ({ code: inserted.data!.code }), tadmin), {
      message: '消息已发布，不能重复发布',
    });
    expect(data.recipientCount).toBeGreaterThan(0);
    expect(await scalar(server, 'SELECT count(*)::int AS value FROM notification WHERE title = $1', [title])).toBe(1);
  });

  it('activeForm.template.publish: one of ten publishes the draft', async () => {
    const [draft] = await server.db.query<{ id: number }>(
      `SELECT t.id FROM form_template t WHERE t.tenant_code = 'T0001'
          AND EXISTS (SELECT 1 FROM form_template_version v WHERE v.template_id = t.id AND v.state = 'draft' AND jsonb_array_length(v.fields) > 0)
        ORDER BY t.id LIMIT 1`,
    );
    oneWinner(await burst(server, 'activeForm.template.publish', () => ({ id: draft.id }), tadmin), { message: '没有待发布的草稿：请先编辑模板' });
    expect(await scalar(server, "SELECT count(*)::int AS value FROM form_template_version WHERE template_id = $1 AND state = 'published'", [draft.id])).toBe(1);
  });
});
