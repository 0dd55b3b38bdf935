// The entity engine (issue 25): one JSON definition serves page, detail, insert, modify, delete,
// export and state transitions, its managed table is created on start with its demo rows, and its
// field rules are the console's.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Catalogue } from '../../server/catalogue';
import { defaultConfig } from '../../server/config';
import { entityUniqueMessages, readEntities, type Entity } from '../../server/entities/definition';
import { entityOperations } from '../../server/entities/operations';
import { answerSchemas, VALIDATOR_RULES } from '../../server/entities/schemas';
import { ensureEntityTables, entitySeedTables, entityTablesLine } from '../../server/entities/tables';
import { OPERATIONS } from '../../server/operations';
import * as rules from '../../src/validation/rules';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';

const FIXTURES = new URL('./fixtures/entities', import.meta.url).pathname;

function fixture(): Entity {
  const { entities, problems } = readEntities(FIXTURES);
  expect(problems).toEqual([]);
  return entities[0];
}

describe('entity definitions', () => {
  it('reads a well-formed file with its defaults filled in', () => {
    const supplier = fixture();
    expect(supplier.ref).toBe('supply/supplier');
    expect(supplier.field.get('creditLimit')?.column).toBe('credit_limit');
    expect([...supplier.operations]).toEqual(['page', 'detail', 'insert', 'modify', 'delete', 'export']);
    expect(entityOperations(supplier).map((operation) => operation.name)).toEqual([
      'fixture.supplier.page',
      'fixture.supplier.detail',
      'fixture.supplier.insert',
      'fixture.supplier.modify',
      'fixture.supplier.delete',
      'fixture.supplier.export',
      'fixture.supplier.approve',
      'fixture.supplier.reject',
    ]);
  });

  it('names every problem of a broken file, the meaning ones too when the structure is wrong', () => {
    const dir = mkdtempSync(join(tmpdir(), 'entities-'));
    try {
      mkdirSync(join(dir, 'x'));
      writeFileSync(
        join(dir, 'x/bad.json'),
        JSON.stringify({
          name: 'bad',
          title: '坏',
          table: 'bad',
          scope: 'tenant',
          colour: 'red',
          fields: { status: { title: '状态', type: 'string', dictType: 'no_such_dict' }, count: { title: '数', type: 'integer', maxLength: 3 } },
          defaultSort: { field: 'missing' },
        }),
      );
      const { entities, problems } = readEntities(dir);
      expect(entities).toEqual([]);
      const said = problems.map((problem) => `${problem.pointer} ${problem.message}`);
      expect(said).toContain('/ 不认识的键 colour');
      expect(said).toContain('/fields/status/dictType 字典 no_such_dict 不在 schemas/dictionaries.json 中');
      expect(said.some((line) => line.startsWith('/fields/count '))).toBe(true);
      expect(said).toContain('/defaultSort/field 没有字段 missing');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the options of areas moved onto definitions, and refuses them where they mean nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'entities-'));
    try {
      const base = { title: '项', table: 'item', fields: { kind: { title: '类', type: 'string' }, name: { title: '名', type: 'string' } } };
      writeFileSync(
        join(dir, 'good.json'),
        JSON.stringify({
          ...base,
          name: 'good',
          scope: 'tenant',
          shared: true,
          uniqueKeys: [{ fields: ['kind', 'name'], message: '同类中已有同名项' }],
          defaultSort: { field: 'kind', order: 'asc', then: [{ field: 'name' }] },
          answers: { insert: 'record', modify: 'null', delete: 'id' },
          fields: { ...base.fields, note: { title: '注', type: 'string', nullable: true } },
        }),
      );
      const good = readEntities(dir);
      expect(good.problems).toEqual([]);
      const [item] = good.entities;
      expect(item).toMatchObject({ shared: true, thenSort: [{ field: 'name', order: 'asc' }], answers: { insert: 'record', modify: 'null', delete: 'id' } });
      expect(item.uniqueKeys.map((key) => [key.fields.map((field) => field.name), key.message])).toEqual([[['kind', 'name'], '同类中已有同名项']]);
      const answers = answerSchemas(item);
      expect(answers['good.insert']).toEqual(answers['good.detail']);
      expect(answers['good.modify']).toEqual({ type: 'null' });
      expect(answers['good.delete']).toMatchObject({ required: ['id'] });
      writeFileSync(
        join(dir, 'good.json'),
        JSON.stringify({
          ...base,
          name: 'bad',
          scope: 'platform',
          shared: true,
          uniqueKeys: [{ fields: ['kind', 'missing'], message: '重复' }],
          defaultSort: { field: 'kind', then: [{ field: 'gone' }] },
          fields: { ...base.fields, note: { title: '注', type: 'integer', nullable: true } },
        }),
      );
      const said = readEntities(dir).problems.map((problem) => `${problem.pointer} ${problem.message}`);
      expect(said).toContain('/shared 只有 tenant 范围的实体可以 shared（平台数据为没有租户的行）');
      expect(said).toContain('/uniqueKeys/0/fields/1 没有字段 missing');
      expect(said).toContain('/defaultSort/then/0/field 没有字段 gone');
      expect(said).toContain('/fields/note/nullable 只有非必填的 string 字段可以 nullable（清空时存 NULL）');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks the named rules as the console does (src/validation/rules.ts)', () => {
    const patterns: Record<string, RegExp> = {
      plainText: rules.PLAIN_TEXT_PATTERN,
      phone: rules.PHONE_PATTERN,
      phoneOrEmpty: rules.PHONE_PATTERN,
      mail: rules.MAIL_PATTERN,
      genericCode: rules.GENERIC_CODE_PATTERN,
      deviceCode: rules.DEVICE_CODE_PATTERN,
    };
    const messages: Record<string, string> = {
      plainText: rules.MESSAGES.plainText,
      phone: rules.MESSAGES.phoneFormat,
      phoneOrEmpty: rules.MESSAGES.phoneFormat,
      mail: rules.MESSAGES.mailFormat,
      genericCode: rules.MESSAGES.genericCode,
      deviceCode: rules.MESSAGES.deviceCode,
    };
    for (const [name, rule] of Object.entries(VALIDATOR_RULES)) {
      expect(rule.pattern, name).toBe(patterns[name].source);
      expect(rule.message, name).toBe(messages[name]);
    }
    // phone demands a value (the form's rule is required + format); the others let an empty one through.
    expect(rules.phone('')).toBe(rules.MESSAGES.phoneRequired);
    expect(Object.entries(VALIDATOR_RULES).filter(([, rule]) => rule.required).map(([name]) => name)).toEqual(['phone']);
  });

  it('gives the central mapping of unique clashes a sentence for each managed unique field', () => {
    expect(entityUniqueMessages([fixture()])).toEqual({ entity_fixture_supplier_code_key: '供应商编码已存在' });
  });

  it('seeds its demo rows for every tenant of the demo world', () => {
    const tables = entitySeedTables(
      [
        { code: 'P0001', type: 1 },
        { code: 'T0001', type: 2 },
        { code: 'T0002', type: 2 },
      ],
      new Date('2026-01-01T00:00:00Z'),
      [fixture()],
    );
    expect(tables).toHaveLength(1);
    expect(tables[0].rows.map((row) => `${String(row.tenant_code)} ${String(row.code)} ${String(row.status)}`)).toEqual([
      'T0001 SUP-001 approved',
      'T0001 SUP-002 pending',
      'T0002 SUP-001 approved',
      'T0002 SUP-002 pending',
    ]);
  });
});

describe('an entity served end to end', () => {
  const supplier = fixture();
  let server: TestServer;
  let app: FastifyInstance;
  let tadmin: string;
  let badmin: string;
  let admin: string;
  const entries: Catalogue = Object.fromEntries(
    entityOperations(supplier).map((operation) => {
      const verb = operation.name.split('.').at(-1)!;
      const kind = verb === 'page' ? 'page' : verb === 'export' ? 'blob' : 'call';
      return [operation.name, { path: `/fixture/supplier/_${verb}`, kind, title: verb }];
    }),
  ) as Catalogue;

  beforeAll(async () => {
    server = await startServer();
    await server.db.exec('DROP TABLE IF EXISTS entity_fixture_supplier');
    app = await buildApp({ db: server.db, config: defaultConfig(), catalogue: { ...catalogue, ...entries }, operations: [...OPERATIONS, ...entityOperations(supplier)] });
    [tadmin, badmin, admin] = await Promise.all([server.login('tadmin'), server.login('badmin'), server.login('admin', ADMIN_PASSWORD)]);
  });
  afterAll(async () => {
    await app?.close();
    // The table is the test's own: the next file of this worker gets the database without it.
    await server?.db.exec('DROP TABLE IF EXISTS entity_fixture_supplier');
    await server?.close();
  });

  async function call<T = unknown>(verb: string, param: unknown, token: string, extra: Record<string, unknown> = {}): Promise<{ code: string; message: string; data: T }> {
    const response = await app.inject({ method: 'POST', url: `/api/fixture/supplier/_${verb}`, headers: { token }, payload: { param, ...extra } });
    if (!String(response.headers['content-type']).includes('json')) return { code: '200', message: '', data: response.rawPayload as T };
    return response.json();
  }
  type Page = { records: Array<Record<string, unknown>>; total: number };

  it('creates its table idempotently, with its demo rows for the tenants present, and widens it', async () => {
    const first = await server.db.transaction((tx) => ensureEntityTables(tx, new Date(), [supplier]));
    expect(first.tables).toEqual(['entity_fixture_supplier']);
    expect(first.seeded[0].rows).toBeGreaterThanOrEqual(4);
    expect(first.indexes).toEqual(['entity_fixture_supplier_scope_idx', 'entity_fixture_supplier_code_key']);
    const again = await server.db.transaction((tx) => ensureEntityTables(tx, new Date(), [supplier]));
    expect(again).toEqual({ tables: [], columns: [], indexes: [], seeded: [] });
    const wider: Entity = { ...supplier, fields: [...supplier.fields, { name: 'fax', column: 'fax', title: '传真', type: 'string' }] };
    const widened = await server.db.transaction((tx) => ensureEntityTables(tx, new Date(), [wider]));
    expect(widened.columns).toEqual(['entity_fixture_supplier.fax']);
    // What start-up logs (server/main.ts), and nothing when nothing changed.
    expect(entityTablesLine(first)).toMatch(/^实体表同步：新建表 entity_fixture_supplier；新增索引 2 个；演示数据 entity_fixture_supplier \d+ 行$/);
    expect(entityTablesLine(widened)).toBe('实体表同步：新增列 entity_fixture_supplier.fax');
    expect(entityTablesLine(again)).toBeNull();
  });

  it('lists a tenant its own records only, searched, filtered and sorted', async () => {
    const page = await call<Page>('page', {}, tadmin, { pageParam: { pageNumber: 1, pageSize: 10 } });
    expect(page.code).toBe('200');
    expect(page.data.records.map((record) => record.code)).toEqual(['SUP-001', 'SUP-002']);
    expect(new Set(page.data.records.map((record) => record.tenantCode))).toEqual(new Set(['T0001']));
    const first = page.data.records[0];
    expect(first).toMatchObject({ name: '杭州水表配件有限公司', phone: '13800000001', grade: 3, preferred: false, since: '2025-03-01', status: 'approved', creditLimit: null, createdBy: 'system' });
    expect(Object.keys(first)).toEqual(Object.keys((answerSchemas(supplier)['fixture.supplier.detail'] as { properties: object }).properties));
    const searched = await call<Page>('page', { keyword: '宁波' }, tadmin);
    expect(searched.data.records.map((record) => record.code)).toEqual(['SUP-002']);
    const filtered = await call<Page>('page', { grade: 4, status: '', preferred: '' }, tadmin);
    expect(filtered.data.records.map((record) => record.code)).toEqual(['SUP-002']);
    const sorted = await call<Page>('page', {}, tadmin, { sortParamList: [{ field: 'grade', order: 'desc' }] });
    expect(sorted.data.records.map((record) => record.code)).toEqual(['SUP-002', 'SUP-001']);
    const everyone = await call<Page>('page', {}, admin, { pageParam: { pageNumber: 1, pageSize: 100 } });
    expect(new Set(everyone.data.records.map((record) => record.tenantCode))).toEqual(new Set(['T0001', 'T0002']));
  });

  it('writes what the rules allow and refuses the rest with the field named', async () => {
    const inserted = await call<{ id: number }>('insert', { supplier: { code: 'SUP-100', name: ' 新供应商 ', phone: '', creditLimit: 1200.5, since: '2026-02-03', auditedAt: '2026-02-03 10:00:00' } }, tadmin);
    expect(inserted.code).toBe('200');
    const detail = await call<Record<string, unknown>>('detail', { id: inserted.data.id }, tadmin);
    expect(detail.data).toMatchObject({ code: 'SUP-100', name: '新供应商', grade: 3, status: 'pending', creditLimit: 1200.5, since: '2026-02-03', tenantCode: 'T0001', createdBy: 'tadmin' });
    // A time without a zone is the business zone's (Asia/Shanghai).
    expect(detail.data.auditedAt).toBe('2026-02-03T02:00:00.000Z');
    expect((await call('insert', { supplier: { code: 'SUP-100', name: '又一个' } }, tadmin)).message).toBe('供应商编码已存在');
    // Unique within the tenant: the other tenant may use the code.
    expect((await call('insert', { supplier: { code: 'SUP-100', name: '苏州的' } }, badmin)).code).toBe('200');
    // Refused with the words the form shows: the field's message, its named rule's, plain text's.
    expect((await call('insert', { supplier: { code: 'SUP 101', name: 'x' } }, tadmin)).message).toBe('参数错误：supplier.code（请输入 2 至 32 位字母、数字或 -）');
    expect((await call('insert', { supplier: { code: 'SUP-101', name: '<b>x</b>' } }, tadmin)).message).toBe('参数错误：supplier.name（不能包含 < 或 >）');
    expect((await call('insert', { supplier: { code: 'SUP-101', name: 'x', contact: '<i>' } }, tadmin)).message).toBe('参数错误：supplier.contact（不能包含 < 或 >）');
    expect((await call('insert', { supplier: { code: 'SUP-101', name: 'x', phone: '123' } }, tadmin)).message).toBe('参数错误：supplier.phone（请输入正确的手机号码）');
    expect((await call('insert', { supplier: { code: 'SUP-101', name: 'x', grade: 9 } }, tadmin)).code).toBe('400');
    expect((await call('insert', { supplier: { code: 'SUP-101', name: '   ' } }, tadmin)).message).toBe('参数错误：supplier.name（不能为空）');
    expect((await call('insert', { supplier: { code: 'SUP-101', name: 'x', status: 'nope' } }, tadmin)).message).toMatch(/^参数错误：supplier\.status/);
    expect((await call('page', { status: 'nope' }, tadmin)).code).toBe('400');
    expect((await call('insert', { supplier: { code: 'SUP-101', name: 'x', tenantCode: 'T0002' } }, tadmin)).code).toBe('400');
    // Above the tenants there is no tenant to write into.
    expect((await call('insert', { supplier: { code: 'SUP-101', name: 'x' } }, admin)).message).toBe('请先在组织切换中选择租户');

    const modified = await call('modify', { id: inserted.data.id, supplier: { code: 'SUP-100', name: '改名', remark: '备注' } }, tadmin);
    expect(modified.code).toBe('200');
    expect((await call<Record<string, unknown>>('detail', { id: inserted.data.id }, tadmin)).data).toMatchObject({ name: '改名', remark: '备注', creditLimit: 1200.5 });
    expect((await call('modify', { id: inserted.data.id, supplier: { code: 'SUP-001', name: '撞码' } }, tadmin)).message).toBe('供应商编码已存在');
  });

  it('keeps one tenant out of another\'s records', async () => {
    const theirs = await call<Page>('page', { keyword: 'SUP-001' }, badmin);
    const id = theirs.data.records[0].id;
    expect((await call('detail', { id }, tadmin)).message).toBe('供应商不存在');
    expect((await call('modify', { id, supplier: { code: 'X-1', name: 'x' } }, tadmin)).code).toBe('404');
    expect((await call('delete', { id }, tadmin)).code).toBe('404');
    expect((await call('approve', { id }, tadmin)).code).toBe('404');
  });

  it('moves a record through its states once, refusing a move from the wrong state', async () => {
    const pending = (await call<Page>('page', { status: 'pending' }, tadmin)).data.records[0];
    expect((await call('approve', { id: pending.id }, tadmin)).data).toEqual({ id: pending.id, status: 'approved' });
    expect((await call('reject', { id: pending.id }, tadmin)).message).toBe('供应商当前状态不能驳回，请刷新后重试');
  });

  it('exports the list as a spreadsheet and deletes a record', async () => {
    const file = await call<Buffer>('export', {}, tadmin);
    expect(file.code).toBe('200');
    expect(file.data.subarray(0, 2).toString()).toBe('PK');
    const created = await call<{ id: number }>('insert', { supplier: { code: 'SUP-200', name: '待删' } }, tadmin);
    expect((await call('delete', { id: created.data.id }, tadmin)).data).toBeNull();
    expect((await call('detail', { id: created.data.id }, tadmin)).code).toBe('404');
  });
});

it('the fixture stays a valid example of the format', () => {
  const raw = JSON.parse(readFileSync(join(FIXTURES, 'supply/supplier.json'), 'utf8')) as { $schema: string };
  expect(raw.$schema).toMatch(/entity\.schema\.json$/);
});
