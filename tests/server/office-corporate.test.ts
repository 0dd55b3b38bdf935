// 我的办公 (issue 6): corporate office requests move draft → submitted → approved | rejected, and a
// rejected one is edited and submitted again. The applicant edits, deletes and submits only
// drafts and rejected requests of his own; the tenant admin audits the submitted requests of his
// organisations (never his own), approving or rejecting with a required opinion. Another user's
// or tenant's request is not acknowledged ("404"); a role without the button gets "403".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { column, pageCall } from './devices-maintenance-helpers';

let server: TestServer;
let tadmin: string;
let badmin: string;
let tuser: string;
let repair: string;
let implement: string;
let operator: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin, tuser, repair, implement, operator] = await Promise.all(['tadmin', 'badmin', 'tuser', 'repair', 'implement', 'operator'].map((name) => server.login(name)));
});
afterAll(() => server.close());

interface RequestRecord {
  code: string;
  type: string;
  title: string;
  state: string;
  amount: number | null;
  sealType: string;
  destination: string;
  period: [string, string] | null;
  applicantName: string;
  auditorName: string;
  auditOpinion: string;
  canModify: boolean;
  canSubmit: boolean;
  canAudit: boolean;
  history: Array<{ action: string; fromState: string; toState: string; operatorName: string; remark: string }>;
}

/** A seeded request of `loginName` in `state` (`skip` passes over earlier ones). */
async function requestOf(loginName: string, state: string, skip = 0): Promise<string> {
  const [code] = await column<string>(
    server,
    `SELECT r.code AS value FROM office_request r JOIN app_user u ON u.id = r.applicant_id WHERE u.login_name = $1 AND r.state = $2 ORDER BY r.id LIMIT 1 OFFSET ${skip}`,
    [loginName, state],
  );
  if (!code) throw new Error(`no seeded request of ${loginName} in ${state}`);
  return code;
}

const expense = (overrides: Record<string, unknown> = {}) => ({ type: 'expense', title: '现场维修材料费报销', content: '密封圈、生料带发票两张。', amount: 268.4, ...overrides });

describe('seeded requests', () => {
  it('cover every state in both tenants, audited by the tenant admins', async () => {
    for (const tenant of ['T0001', 'T0002']) {
      const states = await column<string>(server, 'SELECT DISTINCT state AS value FROM office_request WHERE tenant_code = $1 ORDER BY 1', [tenant]);
      expect(states, tenant).toEqual(['approved', 'draft', 'rejected', 'submitted']);
    }
    const auditors = await column<string>(server, 'SELECT DISTINCT u.login_name AS value FROM office_request r JOIN app_user u ON u.id = r.auditor_id ORDER BY 1');
    expect(auditors).toEqual(['badmin', 'tadmin']);
    const [total] = await column<number>(server, 'SELECT count(*)::int AS value FROM office_request');
    expect(total).toBeGreaterThan(150);
  });
});

describe('office.corporate.page / detail', () => {
  it('lists the caller\'s own requests only', async () => {
    const reply = await pageCall<RequestRecord>(server, 'office.corporate.page', repair, {}, { pageSize: 100 });
    const [count] = await column<number>(server, "SELECT count(*)::int AS value FROM office_request r JOIN app_user u ON u.id = r.applicant_id WHERE u.login_name = 'repair'");
    expect(reply.data.total).toBe(count);
    expect(reply.data.records.every((r) => r.applicantName === '王强')).toBe(true);
    const rejected = await pageCall<RequestRecord>(server, 'office.corporate.page', repair, { state: 'rejected' });
    expect(rejected.data.records.length).toBeGreaterThan(0);
    expect(rejected.data.records.every((r) => r.state === 'rejected' && r.canModify && r.canSubmit && !r.canAudit)).toBe(true);
    const approved = await pageCall<RequestRecord>(server, 'office.corporate.page', repair, { state: 'approved' });
    expect(approved.data.records.every((r) => !r.canModify && r.auditorName === '张明' && r.auditOpinion !== '')).toBe(true);
    expect((await pageCall(server, 'office.corporate.page', repair, { state: 'lost' })).code).toBe('400');
    expect((await pageCall(server, 'office.corporate.page', repair, { createTime: ['2026-01-01', '2026-01-01'] })).message).toBe('请输入不同的时间');
  });

  it('details the own request with its history, or one an auditor may see; nothing else', async () => {
    const code = await requestOf('repair', 'approved');
    const own = await server.call<RequestRecord>('office.corporate.detail', { code }, { token: repair });
    expect(own.data).toMatchObject({ code, state: 'approved', canAudit: false });
    expect(own.data!.history.map((h) => h.action)).toContain('approve');
    expect(own.data!.history[0]).toMatchObject({ action: 'create', toState: 'draft', operatorName: '王强' });
    // The tenant admin audits it: he sees it; another implementer and the other tenant do not.
    expect((await server.call<RequestRecord>('office.corporate.detail', { code }, { token: tadmin })).data).toMatchObject({ code, applicantName: '王强' });
    expect(await server.call('office.corporate.detail', { code }, { token: implement })).toMatchObject({ code: '404', message: '申请不存在' });
    expect((await server.call('office.corporate.detail', { code }, { token: badmin })).code).toBe('404');
    // A draft is nobody's business but the applicant's.
    expect((await server.call('office.corporate.detail', { code: await requestOf('repair', 'draft') }, { token: tadmin })).code).toBe('404');
    expect((await server.call('office.corporate.detail', { code: 'bg-1' }, { token: repair })).code).toBe('400');
  });
});

describe('office.corporate.insert / modify / delete / submit', () => {
  it('files a draft of each kind with what the kind needs', async () => {
    const reply = await server.call<{ code: string }>('office.corporate.insert', { request: expense() }, { token: implement });
    expect(reply.code).toBe('200');
    expect(reply.data!.code).toMatch(/^BG\d{13}$/);
    const detail = await server.call<RequestRecord>('office.corporate.detail', { code: reply.data!.code }, { token: implement });
    expect(detail.data).toMatchObject({ state: 'draft', type: 'expense', amount: 268.4, applicantName: '孙浩', canModify: true, canSubmit: true });
    const travel = await server.call<{ code: string }>(
      'office.corporate.insert',
      { request: { type: 'travel', title: '赴苏州项目现场调试', destination: '江苏省苏州市', period: ['2030-05-06 08:00:00', '2030-05-07 18:00:00'], amount: 999 } },
      { token: implement },
    );
    const trip = await server.call<RequestRecord>('office.corporate.detail', { code: travel.data!.code }, { token: implement });
    // What the kind does not use is dropped.
    expect(trip.data).toMatchObject({ destination: '江苏省苏州市', amount: null });
    expect(trip.data!.period).toHaveLength(2);
    expect((await server.call('office.corporate.insert', { request: { type: 'seal', title: '合同盖章', sealType: 'contract' } }, { token: implement })).code).toBe('200');
  });

  it('refuses a request missing what its kind needs, bad input and a role without the menu', async () => {
    expect(await server.call('office.corporate.insert', { request: expense({ amount: null }) }, { token: implement })).toMatchObject({ code: '400', message: '请填写金额' });
    expect(await server.call('office.corporate.insert', { request: { type: 'seal', title: '盖章' } }, { token: implement })).toMatchObject({ code: '400', message: '请选择印章类型' });
    expect(await server.call('office.corporate.insert', { request: { type: 'vehicle', title: '用车', destination: '龙井水厂' } }, { token: implement })).toMatchObject({
      code: '400',
      message: '请选择起止时间',
    });
    expect(await server.call('office.corporate.insert', { request: { type: 'vehicle', title: '用车', period: ['2030-05-06 08:00:00', '2030-05-06 12:00:00'] } }, { token: implement })).toMatchObject({
      code: '400',
      message: '请填写目的地',
    });
    expect(await server.call('office.corporate.insert', { request: { type: 'travel', title: '出差', destination: '上海', period: ['2030-05-06 08:00:00', '2030-05-06 08:00:00'] } }, { token: implement })).toMatchObject({
      code: '400',
      message: '请输入不同的时间',
    });
    expect((await server.call('office.corporate.insert', { request: expense({ amount: -5 }) }, { token: implement })).message).toMatch(/^参数错误：request\.amount/);
    expect((await server.call('office.corporate.insert', { request: expense({ type: 'leave' }) }, { token: implement })).code).toBe('400');
    expect((await server.call('office.corporate.insert', { request: expense({ title: '<img src=x onerror=alert(1)>' }) }, { token: implement })).code).toBe('400');
    expect((await server.call('office.corporate.insert', { request: { ...expense(), approver: 'tadmin' } }, { token: implement })).code).toBe('400');
    // 平台运营 has no 我的办公.
    expect(await server.call('office.corporate.insert', { request: expense() }, { token: operator })).toMatchObject({ code: '403', message: '无权限访问' });
  });

  it('edits an own draft or rejected request, nothing submitted or audited, nobody else\'s', async () => {
    const draft = await requestOf('repair', 'draft');
    expect((await server.call('office.corporate.modify', { code: draft, request: expense({ title: '现场材料费报销（补）' }) }, { token: repair })).code).toBe('200');
    const detail = await server.call<RequestRecord>('office.corporate.detail', { code: draft }, { token: repair });
    expect(detail.data).toMatchObject({ title: '现场材料费报销（补）', type: 'expense', state: 'draft' });
    expect(detail.data!.history.at(-1)).toMatchObject({ action: 'modify', toState: 'draft' });
    const rejected = await requestOf('repair', 'rejected');
    expect((await server.call('office.corporate.modify', { code: rejected, request: expense() }, { token: repair })).code).toBe('200');
    const submitted = await requestOf('repair', 'submitted');
    expect(await server.call('office.corporate.modify', { code: submitted, request: expense() }, { token: repair })).toMatchObject({ code: '409', message: '申请已提交或已审核，不能修改' });
    expect((await server.call('office.corporate.modify', { code: draft, request: expense() }, { token: implement })).code).toBe('404');
    expect((await server.call('office.corporate.modify', { code: draft, request: expense() }, { token: badmin })).code).toBe('404');
    expect((await server.call('office.corporate.modify', { code: draft, request: expense({ amount: 'many' }) }, { token: repair })).code).toBe('400');
    expect((await server.call('office.corporate.modify', { code: draft, request: expense() }, { token: operator })).code).toBe('403');
  });

  it('deletes an own draft, never a submitted or approved request', async () => {
    const approved = await requestOf('tuser', 'approved');
    expect(await server.call('office.corporate.delete', { code: approved }, { token: tuser })).toMatchObject({ code: '409', message: '申请已提交或已审核，不能删除' });
    const draft = await requestOf('tuser', 'draft');
    expect((await server.call('office.corporate.delete', { code: draft }, { token: tadmin })).code).toBe('404');
    expect((await server.call('office.corporate.delete', { code: draft }, { token: badmin })).code).toBe('404');
    expect((await server.call('office.corporate.delete', { code: draft }, { token: operator })).code).toBe('403');
    expect((await server.call('office.corporate.delete', {}, { token: tuser })).code).toBe('400');
    expect((await server.call('office.corporate.delete', { code: draft }, { token: tuser })).code).toBe('200');
    expect(await column(server, 'SELECT code AS value FROM office_request WHERE code = $1', [draft])).toEqual([]);
  });

  it('submits an own draft or rejected request for audit, once', async () => {
    const draft = await requestOf('implement', 'draft');
    expect((await server.call('office.corporate.submit', { code: draft }, { token: repair })).code).toBe('404');
    expect((await server.call('office.corporate.submit', { code: draft }, { token: badmin })).code).toBe('404');
    expect((await server.call('office.corporate.submit', { code: draft }, { token: operator })).code).toBe('403');
    expect((await server.call('office.corporate.submit', { code: draft, now: true }, { token: implement })).code).toBe('400');
    expect((await server.call('office.corporate.submit', { code: draft }, { token: implement })).code).toBe('200');
    const detail = await server.call<RequestRecord>('office.corporate.detail', { code: draft }, { token: implement });
    expect(detail.data).toMatchObject({ state: 'submitted', canModify: false });
    expect(detail.data!.history.at(-1)).toMatchObject({ action: 'submit', fromState: 'draft', toState: 'submitted' });
    expect(await server.call('office.corporate.submit', { code: draft }, { token: implement })).toMatchObject({ code: '409', message: '申请已提交或已审核，不能提交' });
    // A rejected request goes back for audit; its old opinion is cleared.
    const rejected = await requestOf('implement', 'rejected');
    expect((await server.call('office.corporate.submit', { code: rejected }, { token: implement })).code).toBe('200');
    expect((await server.call<RequestRecord>('office.corporate.detail', { code: rejected }, { token: implement })).data).toMatchObject({ state: 'submitted', auditOpinion: '' });
  });
});

describe('office.audit.page / approve / reject', () => {
  it('lists the organisations\' requests in audit, awaiting ones first, to auditors only', async () => {
    const reply = await pageCall<RequestRecord & { organizationCode: string }>(server, 'office.audit.page', tadmin, {}, { pageSize: 100 });
    expect(reply.code).toBe('200');
    const [count] = await column<number>(server, "SELECT count(*)::int AS value FROM office_request WHERE tenant_code = 'T0001' AND state <> 'draft'");
    expect(reply.data.total).toBe(count);
    const states = reply.data.records.map((r) => r.state);
    expect(states.indexOf('submitted')).toBe(0);
    expect(states.lastIndexOf('submitted')).toBeLessThan(states.findIndex((s) => s !== 'submitted'));
    expect(states).not.toContain('draft');
    // His own submitted requests wait for someone else.
    expect(reply.data.records.filter((r) => r.applicantName === '张明').every((r) => !r.canAudit)).toBe(true);
    expect(reply.data.records.filter((r) => r.state === 'submitted' && r.applicantName !== '张明').every((r) => r.canAudit)).toBe(true);
    const theirs = await pageCall<RequestRecord & { organizationCode: string }>(server, 'office.audit.page', badmin, {}, { pageSize: 100 });
    expect(theirs.data.records.every((r) => r.organizationCode.startsWith('T0002'))).toBe(true);
    expect((await pageCall(server, 'office.audit.page', tadmin, { type: 'gift' })).code).toBe('400');
    expect((await pageCall(server, 'office.audit.page', tuser)).code).toBe('403');
  });

  it('approves a submitted request with an opinion', async () => {
    const code = await requestOf('tuser', 'submitted');
    expect((await server.call('office.audit.approve', { code, opinion: '同意，请按制度报销。' }, { token: tuser })).code).toBe('403');
    expect((await server.call('office.audit.approve', { code, opinion: '同意' }, { token: badmin })).code).toBe('404');
    expect((await server.call('office.audit.approve', { code }, { token: tadmin })).message).toMatch(/^参数错误：opinion/);
    expect((await server.call('office.audit.approve', { code, opinion: '   ' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('office.audit.approve', { code, opinion: '同意，请按制度报销。' }, { token: tadmin })).code).toBe('200');
    const detail = await server.call<RequestRecord>('office.corporate.detail', { code }, { token: tuser });
    expect(detail.data).toMatchObject({ state: 'approved', auditorName: '张明', auditOpinion: '同意，请按制度报销。' });
    expect(detail.data!.history.at(-1)).toMatchObject({ action: 'approve', fromState: 'submitted', toState: 'approved', operatorName: '张明' });
    expect(await server.call('office.audit.approve', { code, opinion: '同意' }, { token: tadmin })).toMatchObject({ code: '409', message: '当前状态不允许该操作' });
    expect((await server.call('office.audit.approve', { code: await requestOf('patrol', 'draft'), opinion: '同意' }, { token: tadmin })).code).toBe('404');
  });

  it('rejects a submitted request with a reason; the applicant edits and submits it again', async () => {
    const code = await requestOf('repair', 'submitted');
    expect((await server.call('office.audit.reject', { code, reason: '' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('office.audit.reject', { code, reason: '请补充发票' }, { token: repair })).code).toBe('403');
    expect((await server.call('office.audit.reject', { code, reason: '请补充发票' }, { token: badmin })).code).toBe('404');
    expect((await server.call('office.audit.reject', { code, reason: '请补充发票后重新提交。' }, { token: tadmin })).code).toBe('200');
    expect((await server.call<RequestRecord>('office.corporate.detail', { code }, { token: repair })).data).toMatchObject({ state: 'rejected', auditOpinion: '请补充发票后重新提交。', canModify: true });
    expect(await server.call('office.audit.reject', { code, reason: '再驳回' }, { token: tadmin })).toMatchObject({ code: '409' });
    expect((await server.call('office.corporate.modify', { code, request: expense({ content: '已补充发票三张。' }) }, { token: repair })).code).toBe('200');
    expect((await server.call('office.corporate.submit', { code }, { token: repair })).code).toBe('200');
    expect((await server.call('office.audit.approve', { code, opinion: '同意。' }, { token: tadmin })).code).toBe('200');
    const history = (await server.call<RequestRecord>('office.corporate.detail', { code }, { token: repair })).data!.history.map((h) => h.action);
    expect(history.slice(-4)).toEqual(['reject', 'modify', 'submit', 'approve']);
  });

  it('never lets an auditor decide his own request', async () => {
    const own = await requestOf('tadmin', 'submitted');
    expect(await server.call('office.audit.approve', { code: own, opinion: '同意' }, { token: tadmin })).toMatchObject({ code: '403', message: '不能审核自己提交的申请' });
    expect(await server.call('office.audit.reject', { code: own, reason: '不同意' }, { token: tadmin })).toMatchObject({ code: '403', message: '不能审核自己提交的申请' });
  });
});
