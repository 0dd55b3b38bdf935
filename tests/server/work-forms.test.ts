// Dynamic form templates and the orders that fill them (issue 6). Every activeForm operation: the
// happy path, "400" for bad input (with its sentence), "404" for another tenant's template, "409"
// where a template's state refuses the action, "403" for a role without the button. Then the
// orders: a survey, construction or maintenance order takes a published template of its kind and
// tenant, keeps the version, and its filled values are checked against that version on the server.
import ExcelJS from 'exceljs';
import { checkFormData, type TemplateField } from '../../server/domain/formTemplates';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';
import { orderCode, pageOf, userId } from './work-helpers';

interface Field {
  key: string;
  label: string;
  type: string;
  required?: boolean;
  options?: Array<{ value: string; label: string }>;
  min?: number;
  max?: number;
  precision?: number;
  unit?: string;
  maxLength?: number;
  maxCount?: number;
}

interface Template {
  id: number;
  kind: number;
  tenantCode: string;
  name: string;
  state: string;
  publishedVersion: number | null;
  draftVersion: number | null;
  latestVersion: number;
  fieldCount: number;
  usedCount: number;
  canPublish: boolean;
  canDelete: boolean;
  version: number;
  versionState: string;
  fields: Field[];
  versions: Array<{ version: number; state: string; fieldCount: number }>;
}

interface Order {
  code: string;
  state: string;
  auditState: string;
  auditOpinion: string;
  formTemplateId: number | null;
  formTemplateVersion: number | null;
  formTemplateName: string;
  formData: Record<string, unknown> | null;
  filledForm: Array<{ key: string; label: string; text: string; value: unknown }>;
  canFill: boolean;
  canAudit: boolean;
  canModify: boolean;
  history: Array<{ action: string }>;
}

let server: TestServer;
let tadmin: string;
let badmin: string;
let implement: string;
let repair: string;
let tuser: string;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin, implement, repair, tuser] = await Promise.all(['tadmin', 'badmin', 'implement', 'repair', 'tuser'].map((name) => server.login(name)));
  admin = await server.login('admin', ADMIN_PASSWORD);
});
afterAll(() => server.close());

const call = <T = unknown>(name: string, param: unknown, token: string, orgCode?: string) => server.call<T>(name, param, { token, orgCode });
const get = (id: number, token = tadmin, extra: Record<string, unknown> = {}) => call<Template>('activeForm.template.get', { id, ...extra }, token);

/** The seeded template of a tenant and kind in a state. */
async function seeded(tenant: string, kind: number, state: 'draft' | 'published' | 'revising'): Promise<Template> {
  const token = tenant === 'T0001' ? tadmin : badmin;
  const page = await pageOf<Template>(server, 'activeForm.template.page', token, { kind, state }, { pageSize: 50 });
  const found = page.data!.records[0];
  if (!found) throw new Error(`no seeded ${state} template of kind ${kind} in ${tenant}`);
  return found;
}

const surveyFields: Field[] = [
  { key: 'signal', label: '信号强度', type: 'number', required: true, min: -140, max: -30, precision: 0, unit: 'dBm' },
  { key: 'power', label: '供电方式', type: 'select', required: true, options: [{ value: 'grid', label: '市电' }, { value: 'battery', label: '电池' }] },
  { key: 'risks', label: '现场风险', type: 'checkbox', options: [{ value: 'water', label: '积水' }, { value: 'traffic', label: '车辆碾压' }] },
  { key: 'visitDate', label: '勘察日期', type: 'date' },
  { key: 'photos', label: '现场照片', type: 'photo', maxCount: 2 },
  { key: 'note', label: '勘察说明', type: 'textarea', maxLength: 50 },
];

describe('activeForm.template.page / get / list', () => {
  it('lists a tenant’s templates of a kind with their versions and state', async () => {
    const page = await pageOf<Template>(server, 'activeForm.template.page', tadmin, { kind: 1 }, { pageSize: 50 });
    expect(page.code).toBe('200');
    expect(page.data!.records.every((t) => t.kind === 1 && t.tenantCode === 'T0001')).toBe(true);
    expect(new Set(page.data!.records.map((t) => t.state))).toEqual(new Set(['draft', 'published', 'revising']));
    const main = page.data!.records.find((t) => t.id === 1)!;
    expect(main).toMatchObject({ name: '新装监测点勘察表', state: 'published', publishedVersion: 2, draftVersion: null, latestVersion: 2, canPublish: false, canDelete: false });
    expect(main.usedCount).toBeGreaterThan(0);
    const theirs = await pageOf<Template>(server, 'activeForm.template.page', badmin, {}, { pageSize: 50 });
    expect(theirs.data!.records.length).toBeGreaterThan(2);
    expect(theirs.data!.records.every((t) => t.tenantCode === 'T0002')).toBe(true);
    const keyword = await pageOf<Template>(server, 'activeForm.template.page', tadmin, { keyword: '泵房' });
    expect(keyword.data!.records.map((t) => t.name)).toEqual(['二次供水泵房勘察表']);
    // Platform staff above the tenants see every tenant's.
    const all = await pageOf<Template>(server, 'activeForm.template.page', admin, { kind: 2 }, { pageSize: 50 });
    expect(new Set(all.data!.records.map((t) => t.tenantCode))).toEqual(new Set(['T0001', 'T0002']));
    expect(await pageOf(server, 'activeForm.template.page', tadmin, { kind: 4 })).toMatchObject({ code: '400', message: '参数错误：kind（取值不在允许范围内）' });
    expect((await pageOf(server, 'activeForm.template.page', tadmin, { state: 'gone' })).code).toBe('400');
  });

  it('reads a version: the draft by default, the published one or a named one on request', async () => {
    const revising = await seeded('T0001', 2, 'revising');
    const draft = await get(revising.id);
    expect(draft.data).toMatchObject({ version: 3, versionState: 'draft' });
    expect(draft.data!.versions.map((v) => [v.version, v.state])).toEqual([[3, 'draft'], [2, 'published'], [1, 'superseded']]);
    const published = await get(revising.id, tadmin, { published: true });
    expect(published.data).toMatchObject({ version: 2, versionState: 'published' });
    expect(published.data!.fields.length).toBeLessThan(draft.data!.fields.length);
    expect((await get(revising.id, tadmin, { version: 1 })).data).toMatchObject({ version: 1, versionState: 'superseded' });
    expect(await get(revising.id, tadmin, { version: 9 })).toMatchObject({ code: '404', message: '模板版本不存在' });
    const draftOnly = await seeded('T0001', 1, 'draft');
    expect(await get(draftOnly.id, tadmin, { published: true })).toMatchObject({ code: '404', message: '该模板尚未发布' });
    // The implementer who fills a form reads its template too; another tenant does not.
    expect((await get(1, implement)).code).toBe('200');
    expect(await get(1, badmin)).toMatchObject({ code: '404', message: '表单模板不存在' });
    expect((await call('activeForm.template.get', { id: 'one' }, tadmin)).code).toBe('400');
    expect((await call('activeForm.template.get', {}, tadmin)).message).toBe('参数错误：id（不能为空）');
  });

  it('lists the published templates an order may take', async () => {
    const list = await call<Array<{ id: number; kind: number; version: number; label: string; tenantCode: string }>>('activeForm.template.list', { kind: 1 }, tadmin);
    expect(list.code).toBe('200');
    expect(list.data!.map((t) => t.id)).toContain(1);
    expect(list.data!.every((t) => t.kind === 1 && t.tenantCode === 'T0001')).toBe(true);
    expect(list.data!.find((t) => t.id === 1)).toMatchObject({ version: 2, label: '新装监测点勘察表（v2）' });
    const draftOnly = await seeded('T0001', 1, 'draft');
    expect(list.data!.map((t) => t.id)).not.toContain(draftOnly.id);
    const theirs = await call<Array<{ tenantCode: string }>>('activeForm.template.list', {}, badmin);
    expect(theirs.data!.length).toBeGreaterThan(0);
    expect(theirs.data!.every((t) => t.tenantCode === 'T0002')).toBe(true);
    expect(await call('activeForm.template.list', { kind: '1' }, tadmin)).toMatchObject({ code: '400', message: '参数错误：kind（类型应为 integer）' });
  });
});

describe('activeForm.template.insert / modify / publish', () => {
  it('creates a draft, edits it in place, publishes it, and starts a new draft when the published one changes', async () => {
    const created = await call<{ id: number; version: number }>('activeForm.template.insert', { kind: 1, name: '屋顶水箱勘察表', description: '水箱液位计安装勘察', fields: surveyFields }, tadmin);
    expect(created).toMatchObject({ code: '200', data: { version: 1 } });
    const id = created.data!.id;
    const draft = await get(id);
    expect(draft.data).toMatchObject({ name: '屋顶水箱勘察表', state: 'draft', tenantCode: 'T0001', version: 1, versionState: 'draft', fieldCount: 6 });
    expect(draft.data!.fields[0]).toEqual(surveyFields[0]);
    // Settings left empty are not stored; `required` always is.
    expect(draft.data!.fields[2]).toEqual({ ...surveyFields[2], required: false });

    const edited = await call<{ version: number }>('activeForm.template.modify', { id, name: '屋顶水箱勘察表', fields: surveyFields.slice(0, 5) }, tadmin);
    expect(edited.data).toEqual({ id, version: 1 });
    expect((await get(id)).data).toMatchObject({ fieldCount: 5, versions: [{ version: 1, state: 'draft' }] });

    expect((await call('activeForm.template.publish', { id }, tadmin)).data).toEqual({ id, version: 1 });
    expect((await get(id)).data).toMatchObject({ state: 'published', publishedVersion: 1, draftVersion: null, canPublish: false, canDelete: false });
    expect(await call('activeForm.template.publish', { id }, tadmin)).toMatchObject({ code: '409', message: '没有待发布的草稿：请先编辑模板' });

    // A new name alone does not start a draft; changed fields do.
    expect((await call<{ version: number }>('activeForm.template.modify', { id, name: '屋顶水箱液位勘察表', fields: surveyFields.slice(0, 5) }, tadmin)).data).toEqual({ id, version: 1 });
    expect((await get(id)).data).toMatchObject({ name: '屋顶水箱液位勘察表', state: 'published', draftVersion: null });
    expect((await call<{ version: number }>('activeForm.template.modify', { id, name: '屋顶水箱液位勘察表', fields: surveyFields }, tadmin)).data).toEqual({ id, version: 2 });
    const revising = await get(id);
    expect(revising.data).toMatchObject({ state: 'revising', publishedVersion: 1, draftVersion: 2, version: 2, fieldCount: 6 });
    // The published version stayed as it was.
    expect((await get(id, tadmin, { published: true })).data!.fields).toHaveLength(5);
    expect((await call('activeForm.template.publish', { id }, tadmin)).data).toEqual({ id, version: 2 });
    expect((await get(id)).data!.versions.map((v) => [v.version, v.state])).toEqual([[2, 'published'], [1, 'superseded']]);
  });

  it('refuses a bad template with the designer’s sentence ("400")', async () => {
    const insert = (fields: unknown, extra: Record<string, unknown> = {}) => call('activeForm.template.insert', { kind: 2, name: '校验用模板', fields, ...extra }, tadmin);
    const field = (overrides: Record<string, unknown>) => [{ key: 'a', label: '字段A', type: 'text', ...overrides }];
    expect(await insert([{ key: 'a', label: '甲', type: 'text' }, { key: 'A', label: '乙', type: 'text' }])).toMatchObject({ code: '400', message: '字段标识 A 重复' });
    expect(await insert([{ key: 'a', label: '甲', type: 'text' }, { key: 'b', label: '甲', type: 'text' }])).toMatchObject({ code: '400', message: '字段名称“甲”重复' });
    expect(await insert(field({ type: 'select' }))).toMatchObject({ code: '400', message: '字段“字段A”至少需要一个选项' });
    expect(await insert(field({ type: 'select', options: [{ value: 'x', label: '一' }, { value: 'x', label: '二' }] }))).toMatchObject({ message: '字段“字段A”的选项值重复' });
    expect(await insert(field({ type: 'number', min: 10, max: 1 }))).toMatchObject({ message: '字段“字段A”的最小值不能大于最大值' });
    expect(await insert(field({ options: [{ value: 'x', label: '一' }] }))).toMatchObject({ message: '字段“字段A”（单行文本）不能设置 options' });
    expect(await insert(field({ maxLength: 500 }))).toMatchObject({ message: '字段“字段A”最多可设 200 个字' });
    expect(await insert(field({ key: 'constructor' }))).toMatchObject({ message: '字段标识 constructor 是保留字，请换一个' });
    expect(await insert(field({ type: 'signature' }))).toMatchObject({ code: '400', message: '参数错误：fields.0.type（取值不在允许范围内）' });
    expect(await insert(field({ key: '1a' }))).toMatchObject({ message: '参数错误：fields.0.key（格式不正确）' });
    expect(await insert(field({ label: '<b>x</b>' }))).toMatchObject({ message: '参数错误：fields.0.label（格式不正确）' });
    expect(await insert(field({ color: 'red' }))).toMatchObject({ message: '参数错误：fields.0.color（是不允许的字段）' });
    expect(await insert(field({}), { kind: 5 })).toMatchObject({ code: '400' });
    expect(await insert(field({}), { name: '' })).toMatchObject({ code: '400' });
    expect((await insert(Array.from({ length: 51 }, (_x, i) => ({ key: `f${i}`, label: `字段${i}`, type: 'text' })))).code).toBe('400');
    // A name is unique within a tenant's templates of a kind.
    expect(await call('activeForm.template.insert', { kind: 1, name: '新装监测点勘察表', fields: [] }, tadmin)).toMatchObject({ code: '409', message: '同类模板中已有同名模板' });
    expect((await call('activeForm.template.insert', { kind: 1, name: '新装监测点勘察表', fields: [] }, badmin)).code).toBe('200');
    // An empty draft is saved; it is not published.
    const empty = await call<{ id: number }>('activeForm.template.insert', { kind: 3, name: '空白运维表', fields: [] }, tadmin);
    expect(empty.code).toBe('200');
    expect(await call('activeForm.template.publish', { id: empty.data!.id }, tadmin)).toMatchObject({ code: '400', message: '模板至少需要一个字段才能发布' });
    expect(await call('activeForm.template.modify', { id: empty.data!.id, name: '空白运维表', fields: field({ type: 'number', min: 5, max: 1 }) }, tadmin)).toMatchObject({
      code: '400',
      message: '字段“字段A”的最小值不能大于最大值',
    });
  });

  it('keeps tenants and roles apart ("404", "403"); platform staff create only for a selected tenant', async () => {
    const theirs = await seeded('T0002', 2, 'revising');
    expect(await call('activeForm.template.modify', { id: theirs.id, name: '越权', fields: surveyFields }, tadmin)).toMatchObject({ code: '404', message: '表单模板不存在' });
    expect(await call('activeForm.template.publish', { id: theirs.id }, tadmin)).toMatchObject({ code: '404' });
    expect((await call('activeForm.template.modify', { id: theirs.id, name: '越权', fields: surveyFields }, badmin, 'T0001')).code).toBe('403');
    for (const token of [implement, tuser, repair]) {
      expect((await call('activeForm.template.insert', { kind: 1, name: '无权', fields: [] }, token)).code).toBe('403');
      expect((await call('activeForm.template.modify', { id: 1, name: '无权', fields: [] }, token)).code).toBe('403');
      expect((await call('activeForm.template.publish', { id: 1 }, token)).code).toBe('403');
    }
    expect(await call('activeForm.template.insert', { kind: 1, name: '平台模板', fields: [] }, admin)).toMatchObject({ code: '400', message: '请先在组织切换中选择一个租户' });
    const forTenant = await call<{ id: number }>('activeForm.template.insert', { kind: 1, name: '平台代建勘察表', fields: surveyFields }, admin, 'T0002');
    expect(forTenant.code).toBe('200');
    expect((await get(forTenant.data!.id, badmin)).data).toMatchObject({ tenantCode: 'T0002' });
    expect(await call('activeForm.template.publish', { id: 'x' }, tadmin)).toMatchObject({ code: '400', message: '参数错误：id（类型应为 integer）' });
    // Another template's name is taken for a rename too.
    expect(await call('activeForm.template.modify', { id: forTenant.data!.id, name: '排水管网监测点勘察表', fields: surveyFields }, badmin)).toMatchObject({ code: '409', message: '同类模板中已有同名模板' });
  });
});

describe('activeForm.template.duplicate / delete / demoDownload', () => {
  it('copies a version into a new draft template named as a copy', async () => {
    const first = await call<{ id: number; version: number; name: string }>('activeForm.template.duplicate', { id: 1 }, tadmin);
    expect(first.data).toMatchObject({ version: 1, name: '新装监测点勘察表（副本）' });
    const copy = await get(first.data!.id);
    const original = await get(1);
    expect(copy.data).toMatchObject({ state: 'draft', kind: 1, tenantCode: 'T0001', usedCount: 0 });
    expect(copy.data!.fields).toEqual(original.data!.fields);
    expect((await call<{ name: string }>('activeForm.template.duplicate', { id: 1 }, tadmin)).data!.name).toBe('新装监测点勘察表（副本2）');
    const old = await call<{ id: number }>('activeForm.template.duplicate', { id: 1, version: 1, name: '旧版勘察表' }, tadmin);
    expect((await get(old.data!.id)).data!.fields).toEqual((await get(1, tadmin, { version: 1 })).data!.fields);
    expect(await call('activeForm.template.duplicate', { id: 1, version: 7 }, tadmin)).toMatchObject({ code: '404', message: '模板版本不存在' });
    expect(await call('activeForm.template.duplicate', { id: 1, name: '新装监测点勘察表' }, tadmin)).toMatchObject({ code: '409', message: '同类模板中已有同名模板' });
    expect((await call('activeForm.template.duplicate', { id: 1 }, badmin)).code).toBe('404');
    expect((await call('activeForm.template.duplicate', { id: 1 }, implement)).code).toBe('403');
    expect(await call('activeForm.template.duplicate', { id: 0 }, tadmin)).toMatchObject({ code: '400', message: '参数错误：id（超出允许范围）' });
  });

  it('deletes only drafts: a never-published template goes, a revised one loses its draft, a published one stays', async () => {
    const draftOnly = await seeded('T0001', 3, 'draft');
    expect((await call('activeForm.template.delete', { id: draftOnly.id }, tadmin)).data).toEqual({ deleted: 'template' });
    expect((await get(draftOnly.id)).code).toBe('404');
    const revising = await seeded('T0001', 1, 'revising');
    expect((await call('activeForm.template.delete', { id: revising.id }, tadmin)).data).toEqual({ deleted: 'draft', version: revising.publishedVersion });
    expect((await get(revising.id)).data).toMatchObject({ state: 'published', draftVersion: null });
    expect(await call('activeForm.template.delete', { id: revising.id }, tadmin)).toMatchObject({ code: '409', message: '已发布的模板不能删除，只能删除草稿' });
    expect(await call('activeForm.template.delete', { id: 1 }, tadmin)).toMatchObject({ code: '409' });
    const theirs = await seeded('T0002', 1, 'draft');
    expect((await call('activeForm.template.delete', { id: theirs.id }, tadmin)).code).toBe('404');
    expect((await call('activeForm.template.delete', { id: theirs.id }, implement)).code).toBe('403');
    expect(await call('activeForm.template.delete', {}, tadmin)).toMatchObject({ code: '400', message: '参数错误：id（不能为空）' });
    expect((await get(theirs.id, badmin)).code).toBe('200');
  });

  type Download = { envelope: { code: string; message: string } } | { fileName: string; rows: string[][] };
  async function workbook(param: Record<string, unknown>, token = tadmin): Promise<Download> {
    const response = await server.app.inject({
      method: 'POST',
      url: `/api${catalogue['activeForm.template.demoDownload'].path}`,
      headers: { 'content-type': 'application/json', token },
      payload: { param },
    });
    if (!String(response.headers['content-type']).includes('spreadsheetml')) return { envelope: response.json<{ code: string; message: string }>() };
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const rows: string[][] = [];
    sheet.eachRow((row) => rows.push(((row.values as unknown[]) ?? []).slice(1).map((cell) => String(cell ?? ''))));
    return { fileName: decodeURIComponent(String(response.headers['content-disposition']).split("UTF-8''")[1] ?? ''), rows };
  }

  it('downloads the demo of a kind, or a template’s own fields, as a real .xlsx', async () => {
    const demo = await workbook({ kind: 2 });
    if (!('rows' in demo)) throw new Error(JSON.stringify(demo.envelope));
    expect(demo.fileName).toMatch(/^施工模板示例-\d{8}\.xlsx$/);
    expect(demo.rows[0]).toEqual(['序号', '字段标识', '字段名称', '字段类型', '必填', '选项', '取值限制', '填写提示']);
    expect(demo.rows[1]).toEqual(['1', 'installPosition', '安装位置', '单项选择', '是', '表井内、泵房墙面、管廊支架', '', '']);
    const own = await workbook({ id: 1, version: 1 });
    if (!('rows' in own)) throw new Error('no file');
    expect(own.fileName).toMatch(/^新装监测点勘察表-v1-\d{8}\.xlsx$/);
    expect(own.rows[1]).toEqual(['1', 'signalDbm', '信号强度', '数字', '是', '', '最小 -140，最大 -30，整数，单位 dBm', '在安装位置用测试终端实测 RSRP']);
    const theirs = await workbook({ id: 1 }, badmin);
    expect('envelope' in theirs && theirs.envelope).toMatchObject({ code: '404' });
    const bad = await workbook({ kind: 9 });
    expect('envelope' in bad && bad.envelope.code).toBe('400');
    // Anyone signed in may read the demo (it names no tenant).
    expect('rows' in (await workbook({}, implement))).toBe(true);
  });
});

describe('orders fill the published template of their kind', () => {
  const filled = { signalDbm: -86, network: 'o1', powerSupply: 'o2', risks: ['o1', 'o4'], surveyDate: '2026-03-02', suggestion: '表井内安装' };

  async function newSurvey(extra: Record<string, unknown> = {}) {
    const reply = await call<{ code: string }>(
      'exploration.insert',
      { order: { title: '西溪湿地监测点勘察', organizationCode: 'T0001P01A0201', assigneeId: await userId(server, 'implement'), formTemplateId: 1, ...extra } },
      tadmin,
    );
    expect(reply.code).toBe('200');
    return reply.data!.code;
  }
  const survey = (code: string, token = tadmin) => call<Order>('exploration.detail', { code }, token);

  it('the seed filled the forms of the work under way and done, each valid against its version', async () => {
    const rows = await server.db.query<{
      type: string;
      state: string;
      tenant_code: string;
      form_template_id: number | null;
      form_template_version: number | null;
      form_data: Record<string, unknown> | null;
      kind: number | null;
      template_tenant: string | null;
      fields: TemplateField[] | null;
    }>(
      `SELECT o.type, o.state, o.tenant_code, o.form_template_id, o.form_template_version, o.form_data, t.kind, t.tenant_code AS template_tenant, v.fields
         FROM work_order o LEFT JOIN form_template t ON t.id = o.form_template_id
         LEFT JOIN form_template_version v ON v.template_id = o.form_template_id AND v.version = o.form_template_version
        WHERE o.type IN ('exploration', 'construction', 'maintenance')`,
    );
    const withForm = rows.filter((row) => row.form_template_id !== null);
    expect(withForm.length).toBeGreaterThan(50);
    const invalid = withForm.filter((row) => row.form_data !== null && !checkFormData(row.fields ?? [], row.form_data).ok);
    expect(invalid).toEqual([]);
    expect(withForm.every((row) => row.template_tenant === row.tenant_code && row.kind === { exploration: 1, construction: 2, maintenance: 3 }[row.type])).toBe(true);
    expect(withForm.filter((row) => ['completed', 'audited'].includes(row.state)).every((row) => row.form_data !== null)).toBe(true);
    expect(withForm.filter((row) => ['created', 'assigned'].includes(row.state)).every((row) => row.form_data === null)).toBe(true);
    expect(new Set(withForm.map((row) => row.tenant_code))).toEqual(new Set(['T0001', 'T0002']));
    // Older orders kept the first version of the survey template.
    expect(new Set(withForm.filter((row) => row.form_template_id === 1).map((row) => row.form_template_version))).toEqual(new Set([1, 2]));
    // Surveys in every state of their workflow.
    const surveys = await pageOf<Order>(server, 'exploration.page', tadmin, {}, { pageSize: 500 });
    expect(new Set(surveys.data!.records.map((order) => order.state))).toEqual(new Set(['created', 'assigned', 'in_progress', 'completed', 'audited', 'rejected']));
    const pending = await pageOf<Order>(server, 'exploration.page', tadmin, { auditState: 'pending' }, { pageSize: 500 });
    expect(pending.data!.total).toBeGreaterThan(0);
    expect(pending.data!.records.every((order) => order.state === 'completed' && order.canAudit)).toBe(true);
  });

  it('a survey takes the published version of the chosen template; the admin cannot fill it, the surveyor can', async () => {
    const code = await newSurvey();
    const admins = await survey(code);
    expect(admins.data).toMatchObject({ state: 'assigned', formTemplateId: 1, formTemplateVersion: 2, formTemplateName: '新装监测点勘察表', formData: null, canFill: false });
    expect(admins.data!.filledForm.map((row) => row.label)).toEqual(['信号强度', '通信方式', '供电条件', '表井深度', '现场风险', '勘察日期', '现场照片', '安装建议']);
    expect((await survey(code, implement)).data).toMatchObject({ canFill: true, canAudit: false });
  });

  it('refuses a template of another tenant, a draft, or another kind ("400")', async () => {
    const order = { title: '勘察', organizationCode: 'T0001P01' };
    const theirs = await seeded('T0002', 1, 'published');
    expect(await call('exploration.insert', { order: { ...order, formTemplateId: theirs.id } }, tadmin)).toMatchObject({ code: '400', message: '表单模板不存在或尚未发布' });
    const draftOnly = await seeded('T0001', 1, 'draft');
    expect(await call('exploration.insert', { order: { ...order, formTemplateId: draftOnly.id } }, tadmin)).toMatchObject({ code: '400', message: '表单模板不存在或尚未发布' });
    expect(await call('exploration.insert', { order: { ...order, formTemplateId: 2 } }, tadmin)).toMatchObject({ code: '400', message: '表单模板不存在或尚未发布' });
    expect(await call('construction.insert', { order: { ...order, formTemplateId: 1 } }, tadmin)).toMatchObject({ code: '400' });
    expect(await call('exploration.insert', { order: { ...order, formData: { signalDbm: -80 } } }, tadmin)).toMatchObject({ code: '400', message: '未选择表单模板，不能填写表单' });
  });

  it('checks the filled form against the template on the server: required, types, options, limits', async () => {
    const code = await newSurvey();
    const fill = (formData: Record<string, unknown>, finished = false) =>
      call('exploration.modify', { code, order: { title: '西溪湿地监测点勘察', organizationCode: 'T0001P01A0201', result: '具备安装条件', formData, finished } }, implement);
    expect(await fill({ ...filled, network: undefined })).toMatchObject({ code: '400', message: '表单填写有误：请填写“通信方式”' });
    expect(await fill({ ...filled, network: 'o9' })).toMatchObject({ message: '表单填写有误：“通信方式”的选项无效' });
    expect(await fill({ ...filled, signalDbm: -20 })).toMatchObject({ message: '表单填写有误：“信号强度”应在 -140 到 -30 之间' });
    expect(await fill({ ...filled, signalDbm: -85.5 })).toMatchObject({ message: '表单填写有误：“信号强度”应为整数' });
    expect(await fill({ ...filled, signalDbm: '-85' })).toMatchObject({ message: '表单填写有误：“信号强度”应为数字' });
    expect(await fill({ ...filled, wellDepth: 1.234 })).toMatchObject({ message: '表单填写有误：“表井深度”最多 2 位小数' });
    expect(await fill({ ...filled, risks: ['o1', 'o7'] })).toMatchObject({ message: '表单填写有误：“现场风险”的选项无效' });
    expect(await fill({ ...filled, surveyDate: '2026-02-30' })).toMatchObject({ message: '表单填写有误：“勘察日期”应为日期（年-月-日）' });
    expect(await fill({ ...filled, sitePhotos: ['/etc/passwd'] })).toMatchObject({ message: '表单填写有误：“现场照片”的照片地址无效' });
    expect(await fill({ ...filled, sitePhotos: Array.from({ length: 7 }, (_x, i) => `upload/2026/03/p${i}.jpg`) })).toMatchObject({ message: '表单填写有误：“现场照片”最多 6 张照片' });
    expect(await fill({ ...filled, suggestion: 'x'.repeat(501) })).toMatchObject({ message: '表单填写有误：“安装建议”不能超过 500 个字' });
    expect(await fill({ ...filled, colour: 'red' })).toMatchObject({ message: '表单填写有误：表单中没有字段 colour' });
    expect(await fill({ ...filled, 'bad key': 1 })).toMatchObject({ code: '400' });
    // Concluding without the form is refused; with it, the survey goes to audit.
    expect(await call('exploration.modify', { code, order: { title: '西溪湿地监测点勘察', organizationCode: 'T0001P01A0201', result: '具备安装条件', finished: true } }, implement)).toMatchObject({
      code: '400',
      message: '请先填写表单“新装监测点勘察表”',
    });
    expect((await fill({ ...filled, sitePhotos: ['upload/2026/03/abc123.jpg'] }, true)).code).toBe('200');
    const done = await survey(code);
    expect(done.data).toMatchObject({ state: 'completed', auditState: 'pending', canAudit: true, canFill: false, formData: { ...filled, sitePhotos: ['upload/2026/03/abc123.jpg'] } });
    expect(done.data!.filledForm.find((row) => row.key === 'network')).toMatchObject({ label: '通信方式', text: 'NB-IoT' });
    expect(done.data!.filledForm.find((row) => row.key === 'risks')).toMatchObject({ text: '积水、信号遮挡' });
    expect(done.data!.filledForm.find((row) => row.key === 'signalDbm')).toMatchObject({ text: '-86 dBm' });
  });

  it('the admin audits a concluded survey: approve, or send back with a reason; refused in other states', async () => {
    const code = await newSurvey();
    const conclude = () =>
      call('exploration.modify', { code, order: { title: '西溪湿地监测点勘察', organizationCode: 'T0001P01A0201', result: '可安装', formData: filled, finished: true } }, implement);
    expect(await call('exploration.audit', { code, approved: true }, tadmin)).toMatchObject({ code: '409', message: '当前状态不允许该操作' });
    expect((await conclude()).code).toBe('200');
    expect((await call('exploration.audit', { code, approved: true }, implement)).code).toBe('403');
    expect((await call('exploration.audit', { code, approved: true }, badmin)).code).toBe('404');
    expect(await call('exploration.audit', { code, approved: false }, tadmin)).toMatchObject({ code: '400', message: '请填写驳回原因' });
    expect((await call('exploration.audit', { code, approved: 'yes' }, tadmin)).code).toBe('400');
    expect((await call('exploration.audit', { code, approved: false, opinion: '缺少现场照片，请补拍' }, tadmin)).code).toBe('200');
    const back = await survey(code, implement);
    expect(back.data).toMatchObject({ state: 'rejected', auditState: 'rejected', canFill: true, canModify: true, formData: filled });
    expect((await conclude()).code).toBe('200');
    expect((await call('exploration.audit', { code, approved: true, opinion: '同意安装' }, tadmin)).code).toBe('200');
    const audited = await survey(code);
    expect(audited.data).toMatchObject({ state: 'audited', auditState: 'approved', auditOpinion: '同意安装', canAudit: false, canModify: false });
    expect(audited.data!.history.map((step) => step.action)).toEqual(['create', 'assign', 'modify', 'start', 'complete', 'reject', 'modify', 'start', 'complete', 'audit']);
    expect(await call('exploration.audit', { code, approved: true }, tadmin)).toMatchObject({ code: '409' });
  });

  it('an order keeps its version when the template is revised; changing the template clears the values', async () => {
    const code = await newSurvey();
    expect((await call('exploration.modify', { code, order: { title: '西溪湿地监测点勘察', organizationCode: 'T0001P01A0201', formData: filled } }, implement)).code).toBe('200');
    const v2 = (await get(1)).data!;
    const revised = v2.fields.map((field) => (field.key === 'network' ? { ...field, options: [...field.options!, { value: 'o4', label: '5G RedCap' }] } : field));
    expect((await call('activeForm.template.modify', { id: 1, name: v2.name, fields: revised }, tadmin)).data).toEqual({ id: 1, version: 3 });
    expect((await call('activeForm.template.publish', { id: 1 }, tadmin)).code).toBe('200');
    // Still version 2: the new option is not one of its options.
    expect((await survey(code)).data).toMatchObject({ formTemplateVersion: 2, formData: filled });
    expect(await call('exploration.modify', { code, order: { title: '西溪湿地监测点勘察', organizationCode: 'T0001P01A0201', formData: { ...filled, network: 'o4' } } }, implement)).toMatchObject({
      message: '表单填写有误：“通信方式”的选项无效',
    });
    // A new order takes version 3, where it is.
    const fresh = await newSurvey({ formData: { ...filled, network: 'o4' } });
    expect((await survey(fresh)).data).toMatchObject({ formTemplateVersion: 3, formData: { network: 'o4' } });
    // Another template: the values of the old one go.
    const other = (await call<Array<{ id: number }>>('activeForm.template.list', { kind: 1 }, tadmin)).data!.find((t) => t.id !== 1)!;
    const assigneeId = await userId(server, 'implement');
    expect((await call('exploration.modify', { code, order: { title: '西溪湿地监测点勘察', organizationCode: 'T0001P01A0201', assigneeId, formTemplateId: other.id } }, tadmin)).code).toBe('200');
    expect((await survey(code)).data).toMatchObject({ formTemplateId: other.id, formData: null });
    expect((await call('exploration.modify', { code, order: { title: '西溪湿地监测点勘察', organizationCode: 'T0001P01A0201', assigneeId, formTemplateId: null } }, tadmin)).code).toBe('200');
    expect((await survey(code)).data).toMatchObject({ formTemplateId: null, formTemplateVersion: null, filledForm: [] });
  });

  it('construction: the constructor submits with the form filled; another implementer’s order is not his', async () => {
    const created = await call<{ code: string }>('construction.insert', { order: { title: '文三路水表换装', organizationCode: 'T0001P01A0102', assigneeId: await userId(server, 'implement'), formTemplateId: 2 } }, tadmin);
    const code = created.data!.code;
    const order = { title: '文三路水表换装', organizationCode: 'T0001P01A0102', result: '换装完成' };
    const form = { installPosition: 'o1', pipeDiameter: 'o2', sealNumber: 'QF220301', finishDate: '2026-03-01' };
    expect(await call('construction.modify', { code, order: { ...order, finished: true } }, implement)).toMatchObject({ code: '400', message: '请先填写表单“智能水表安装施工记录”' });
    expect(await call('construction.modify', { code, order: { ...order, formData: { ...form, sealNumber: '<i>' } } }, implement)).toMatchObject({ message: '表单填写有误：“铅封编号”不能包含 < 或 >' });
    expect(await call('construction.modify', { code, order: { ...order, formData: { ...form, sealNumber: 'Q'.repeat(21) } } }, implement)).toMatchObject({ message: '表单填写有误：“铅封编号”不能超过 20 个字' });
    expect((await call('construction.modify', { code, order: { ...order, formData: form, finished: true } }, implement)).code).toBe('200');
    expect((await call<Order>('construction.detail', { code }, tadmin)).data).toMatchObject({ state: 'completed', auditState: 'pending', formData: form });
    const others = await orderCode(server, 'construction', 'in_progress', { assignee: 'hz02' }).catch(() => orderCode(server, 'construction', 'assigned', { assignee: 'hz03' }));
    expect((await call('construction.modify', { code: others, order: { ...order, formData: form } }, implement)).code).toBe('404');
  });

  it('maintenance: the assignee completes with the operations form; without it, or with a bad one, "400"', async () => {
    const device = (await server.db.query<{ code: string }>(`SELECT code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL ORDER BY id LIMIT 1 OFFSET 31`))[0].code;
    const plan = { title: '水表电池更换', maintenanceType: 'battery', deviceCode: device, assigneeId: await userId(server, 'repair'), formTemplateId: 3 };
    const created = await call<{ code: string }>('maintenance.insert', { order: plan }, tadmin);
    expect(created.code).toBe('200');
    const code = created.data!.code;
    expect((await call<Order>('maintenance.detail', { code }, repair)).data).toMatchObject({ formTemplateId: 3, formTemplateVersion: 1, canFill: true });
    expect((await call<Order>('maintenance.detail', { code }, tadmin)).data).toMatchObject({ canFill: false });
    expect(await call('maintenance.complete', { code, result: '已更换' }, repair)).toMatchObject({ code: '400', message: '请先填写表单“设备例行运维检查表”' });
    const form = { checklist: ['o1', 'o5'], batteryVoltage: 3.61, deviceStatus: 'o1' };
    expect(await call('maintenance.complete', { code, result: '已更换', formData: { ...form, batteryVoltage: 6 } }, repair)).toMatchObject({ message: '表单填写有误：“电池电压”应在 0 到 5 之间' });
    expect(await call('maintenance.complete', { code, result: '已更换', formData: { ...form, checklist: [] } }, repair)).toMatchObject({ message: '表单填写有误：请填写“检查项目”' });
    expect((await call('maintenance.complete', { code, result: '已更换', formData: form }, repair)).code).toBe('200');
    const done = await call<Order>('maintenance.detail', { code }, tadmin);
    expect(done.data).toMatchObject({ state: 'completed', formData: form, canFill: false });
    expect(done.data!.filledForm.find((row) => row.key === 'checklist')).toMatchObject({ text: '外观、电池' });
    expect(await call('maintenance.complete', { code, result: '再来', formData: form }, repair)).toMatchObject({ code: '409', message: '当前状态不允许该操作' });
  });

});
