// Issue 25, one validation source: a page naming its entity takes each field's title, rules,
// component and display from schemas/entities (renderers/schema/entity.ts), composed like
// fragments; the composed form refuses what the entity refuses, with the entity's messages.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { composeFile } from '../../../renderers/schema/compose';
import { entityColumn, entityFormField, type EntityDefinition } from '../../../renderers/schema/entity';
import { validatePageSchema } from '../../../renderers/schema/validate';
import { fakeData, fakeServices, renderWith } from './harness';

const supplier: EntityDefinition = {
  name: 'supply.supplier',
  title: '供应商',
  table: 'supply_supplier',
  managed: true,
  scope: 'platform',
  fields: {
    code: { title: '供应商编码', type: 'string', required: true, maxLength: 32, pattern: '^[A-Za-z0-9-]{2,32}$', message: '请输入 2 至 32 位字母、数字或 -', unique: true, sortable: true },
    name: { title: '供应商名称', type: 'string', required: true, maxLength: 64, validator: 'plainText', keyword: true },
    phone: { title: '联系电话', type: 'string', maxLength: 11, validator: 'phoneOrEmpty' },
    status: { title: '状态', type: 'string', dictType: 'supplier_status', default: 'active', filter: true },
    score: { title: '评分', type: 'integer', minimum: 0, maximum: 100 },
    note: { title: '备注', type: 'string', maxLength: 200, multiline: true, minLength: 4 },
    audited: { title: '已审核', type: 'boolean', readOnly: true },
  },
};
const files: Record<string, unknown> = { 'schemas/entities/supply/supplier.json': supplier };
const read = (file: string) => files[file];
const FILE = 'schemas/pages/supply/supplierForm.json';

const form = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  schemaVersion: 1,
  kind: 'form',
  title: '供应商',
  entity: 'supply/supplier',
  load: { operation: 'supply.supplier.detail', param: { id: '{{params.id | number}}' } },
  submit: { operation: 'supply.supplier.modify', createOperation: 'supply.supplier.insert', param: { id: '{{params.id | number}}', supplier: '{{values}}' } },
  schema: { type: 'object', properties },
  ...extra,
});

describe('an entity field in a form', () => {
  it('gives each field its title, required, length, pattern with its message, named validator, dictionary select and component by type', () => {
    const { value, problems } = composeFile(form({ code: {}, name: {}, phone: {}, status: {}, score: {}, note: {} }), FILE, {}, read);
    expect(problems).toEqual([]);
    const properties = (value as { schema: { properties: Record<string, unknown> } }).schema.properties;
    expect(properties.code).toEqual({
      type: 'string',
      title: '供应商编码',
      required: true,
      'x-decorator': 'FormItem',
      'x-component': 'Input',
      'x-component-props': { maxLength: 32 },
      'x-validator': { pattern: '^[A-Za-z0-9-]{2,32}$', message: '请输入 2 至 32 位字母、数字或 -' },
    });
    expect(properties.name).toMatchObject({ required: true, 'x-validator': 'plainText', 'x-component-props': { maxLength: 64 } });
    expect(properties.phone).toMatchObject({ title: '联系电话', 'x-validator': 'phoneOrEmpty' });
    expect(properties.phone).not.toHaveProperty('required');
    expect(properties.status).toEqual({ type: 'string', title: '状态', default: 'active', 'x-decorator': 'FormItem', 'x-component': 'DictSelect', 'x-component-props': { dictType: 'supplier_status' } });
    expect(properties.score).toMatchObject({ type: 'number', 'x-component': 'NumberPicker', 'x-component-props': { min: 0, max: 100, precision: 0 } });
    expect(properties.note).toMatchObject({ 'x-component': 'Input.TextArea', 'x-component-props': { maxLength: 200, showCount: true }, 'x-validator': ['plainText', { minLength: 4, message: '备注至少 4 个字符' }] });
    expect(validatePageSchema(value)).toMatchObject({ ok: true });
  });

  it('keeps what the page states: its own title, validator, component props, another component', () => {
    const { value } = composeFile(
      form({
        code: { title: '编码', 'x-component-props': { placeholder: '如 SUP-001' } },
        name: { 'x-validator': 'genericCode' },
        status: { 'x-component': 'Select', enum: ['active'] },
        extra: { type: 'string', title: '另加', 'x-decorator': 'FormItem', 'x-component': 'Input' },
      }),
      FILE,
      {},
      read,
    );
    const properties = (value as { schema: { properties: Record<string, Record<string, unknown>> } }).schema.properties;
    expect(properties.code).toMatchObject({ title: '编码', required: true, 'x-component-props': { maxLength: 32, placeholder: '如 SUP-001' } });
    expect(properties.name['x-validator']).toBe('genericCode');
    expect(properties.status['x-component']).toBe('Select');
    expect(properties.status).not.toHaveProperty('x-component-props');
    expect(properties.extra).toEqual({ type: 'string', title: '另加', 'x-decorator': 'FormItem', 'x-component': 'Input' });
  });

  it('names an entity that does not exist, a malformed reference and a read-only field in a form', () => {
    expect(composeFile(form({}, { entity: 'supply/nope' }), FILE, {}, read).problems).toEqual([{ file: FILE, pointer: '/entity', message: '实体 supply/nope 不存在（schemas/entities/supply/nope.json）' }]);
    expect(composeFile(form({}, { entity: 'Supply' }), FILE, {}, read).problems).toEqual([{ file: FILE, pointer: '/entity', message: 'entity 写实体文件的 <area>/<entity>，如 supply/supplier' }]);
    expect(composeFile(form({ audited: {} }), FILE, {}, read).problems).toEqual([
      { file: FILE, pointer: '/schema/properties/audited', message: '实体 supply/supplier 的字段 audited 是只读的（readOnly）：新增与修改都不写它，表单不要编辑它' },
    ]);
  });

  it('in a running form: the entity’s required message, pattern message and named validator refuse, a good record is sent', async () => {
    const page = composeFile(form({ code: {}, name: {}, phone: {} }), FILE, {}, read).value;
    const data = fakeData();
    data.call = vi.fn(async (operation: string, param?: unknown) => {
      data.calls.push({ kind: 'call', operation, param });
      return null as never;
    });
    renderWith(<PageRenderer view="supply/supplierForm" schema={page} params={{}} />, fakeServices({ data }));
    const [code, name, phone] = await screen.findAllByRole('textbox');
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    expect(await screen.findByText('请输入供应商编码')).toBeInTheDocument();
    expect(await screen.findByText('请输入供应商名称')).toBeInTheDocument();
    await userEvent.type(code, 'S');
    await userEvent.type(name, '<b>');
    await userEvent.type(phone, '123');
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    expect(await screen.findByText('请输入 2 至 32 位字母、数字或 -')).toBeInTheDocument();
    expect(await screen.findByText('不能包含 < 或 >')).toBeInTheDocument();
    expect(await screen.findByText('请输入正确的手机号码')).toBeInTheDocument();
    expect(data.calls.some((c) => c.operation === 'supply.supplier.insert')).toBe(false);
    await userEvent.type(code, 'UP-009');
    await userEvent.clear(name);
    await userEvent.type(name, '杭州水表配件有限公司');
    await userEvent.clear(phone);
    await userEvent.type(phone, '13800001234');
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(data.calls.find((c) => c.operation === 'supply.supplier.insert')).toMatchObject({ param: { supplier: { code: 'SUP-009', name: '杭州水表配件有限公司', phone: '13800001234' } } }));
  });
});

describe('entity fields in a list and a detail', () => {
  const list = {
    schemaVersion: 1,
    kind: 'list',
    title: '供应商管理',
    entity: 'supply/supplier',
    operation: 'supply.supplier.page',
    columns: [{ field: 'code' }, { field: 'status', search: true }, { field: 'score', display: 'percent' }, { field: 'tenantName' }, { field: 'updateTime', sortable: false }],
  };

  it('a column takes the field’s title, display, dictType and sortable unless it states them; a search column derives its filter from that', () => {
    const { value, problems } = composeFile(list, 'schemas/pages/supply/supplier.json', {}, read);
    expect(problems).toEqual([]);
    const page = value as { columns: unknown[]; filters: { properties: Record<string, unknown> } };
    expect(page.columns).toEqual([
      { field: 'code', title: '供应商编码', sortable: true },
      { field: 'status', title: '状态', display: 'tag', dictType: 'supplier_status' },
      { field: 'score', title: '评分', display: 'percent' },
      { field: 'tenantName', title: '所属租户' },
      { field: 'updateTime', title: '更新时间', display: 'datetime', sortable: false },
    ]);
    expect(page.filters.properties.status).toMatchObject({ title: '状态', 'x-component': 'DictSelect', 'x-component-props': { dictType: 'supplier_status' } });
    expect(validatePageSchema(value)).toMatchObject({ ok: true });
  });

  it('a column that is no field of the entity must say its title', () => {
    const { problems } = composeFile({ ...list, columns: [{ field: 'nope' }] }, 'schemas/pages/supply/supplier.json', {}, read);
    expect(problems).toEqual([{ file: 'schemas/pages/supply/supplier.json', pointer: '/columns/0/field', message: '字段 nope 不是实体 supply/supplier 的字段，写出它的 title' }]);
  });

  it('a detail section’s fields and columns take the same', () => {
    const detail = { schemaVersion: 1, kind: 'detail', title: '供应商详情', entity: 'supply/supplier', load: { operation: 'supply.supplier.detail', param: { id: '{{params.id | number}}' } }, sections: [{ title: '信息', type: 'descriptions', fields: [{ field: 'audited' }, { field: 'createTime' }] }] };
    const { value, problems } = composeFile(detail, 'schemas/pages/supply/supplierDetail.json', {}, read);
    expect(problems).toEqual([]);
    expect((value as { sections: Array<{ fields: unknown[] }> }).sections[0].fields).toEqual([
      { field: 'audited', title: '已审核', display: 'boolean' },
      { field: 'createTime', title: '创建时间', display: 'datetime', sortable: true },
    ]);
  });

  it('a page without an entity still needs every column’s title (page.schema.json)', () => {
    const result = validatePageSchema({ ...list, entity: undefined, columns: [{ field: 'code' }] });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toContain('缺少必填属性 title');
  });

  it('the displays and components by type', () => {
    expect(entityColumn({ title: '日期', type: 'date' })).toEqual({ title: '日期', display: 'date' });
    expect(entityColumn({ title: '金额', type: 'number', sortable: true })).toEqual({ title: '金额', display: 'number', sortable: true });
    expect(entityFormField({ title: '时间', type: 'datetime' })).toMatchObject({ 'x-component': 'DatePicker', 'x-component-props': { showTime: true } });
    expect(entityFormField({ title: '日期', type: 'date', required: true })).toMatchObject({ 'x-component': 'DatePicker', required: true });
    expect(entityFormField({ title: '启用', type: 'boolean' })).toMatchObject({ type: 'boolean', 'x-component': 'Switch' });
    expect(entityFormField({ title: '编号', type: 'string', pattern: '^\\d+$' })['x-validator']).toEqual({ pattern: '^\\d+$', message: '编号格式不正确' });

    // Text with no rule of its own refuses < and >, as the server does (patternsOf); a dictionary or a date does not need it.
    expect(entityFormField({ title: '联系人', type: 'string', maxLength: 32 })['x-validator']).toBe('plainText');
    expect(entityFormField({ title: '状态', type: 'string', dictType: 'supplier_status' })['x-validator']).toBeUndefined();
    expect(entityFormField({ title: '日期', type: 'date' })['x-validator']).toBeUndefined();
  });
});
