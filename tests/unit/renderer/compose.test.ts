// Issue 20, reuse in the schema language: $ref to fragments, page parameters from the view
// reference, and filters declared on columns (renderers/schema/compose.ts).
import { describe, expect, it } from 'vitest';
import { applyParams, composeFile, deriveFilters, formatViewRef, pageVariants, parseViewRef, resolvePath, resolveRefs } from '../../../renderers/schema/compose';
import { loadPageSchema, pageRefs } from '../../../renderers/pages';
import { validatePageSchema } from '../../../renderers/schema/validate';

const files: Record<string, unknown> = {
  'schemas/fragments/columns.json': {
    createTime: { field: 'createTime', title: '创建时间', display: 'datetime', sortable: true, width: 170 },
    audit: [
      { field: 'createBy', title: '创建人' },
      { $ref: '#/createTime' },
    ],
    loop: { $ref: '#/loop' },
  },
};
const read = (file: string) => files[file];
const PAGE = 'schemas/pages/demo/list.json';

describe('$ref to fragments', () => {
  it('resolves a path relative to the file and a JSON pointer, spreads an array into an array, lays siblings over', () => {
    const page = { columns: [{ field: 'code', title: '编号' }, { $ref: '../../fragments/columns.json#/audit' }, { $ref: '../../fragments/columns.json#/createTime', title: '登记时间' }] };
    const { value, problems, files: used } = resolveRefs(page, PAGE, read);
    expect(problems).toEqual([]);
    expect(used).toEqual(['schemas/fragments/columns.json']);
    expect(value).toEqual({
      columns: [
        { field: 'code', title: '编号' },
        { field: 'createBy', title: '创建人' },
        { field: 'createTime', title: '创建时间', display: 'datetime', sortable: true, width: 170 },
        { field: 'createTime', title: '登记时间', display: 'datetime', sortable: true, width: 170 },
      ],
    });
  });

  it('puts the referenced properties where the $ref stands among its siblings (a form keeps its field order)', () => {
    const fields = { 'schemas/fragments/fields.json': { target: { a: { title: 'A' }, b: { title: 'B' } } } };
    const page = { properties: { first: { title: '1' }, $ref: '../../fragments/fields.json#/target', b: { title: 'B2' }, last: { title: '9' } } };
    const { value } = resolveRefs(page, PAGE, (file) => fields[file as keyof typeof fields]);
    expect(JSON.stringify(value)).toBe(JSON.stringify({ properties: { first: { title: '1' }, a: { title: 'A' }, b: { title: 'B2' }, last: { title: '9' } } }));
  });

  it('names the file and pointer of a $ref that names nothing, and a cycle', () => {
    const page = { columns: [{ $ref: '../../fragments/nothing.json#/a' }, { $ref: '../../fragments/columns.json#/nope' }], x: { $ref: '../../fragments/columns.json#/loop' } };
    const { problems } = resolveRefs(page, PAGE, read);
    expect(problems).toEqual([
      { file: PAGE, pointer: '/columns/0/$ref', message: '$ref ../../fragments/nothing.json#/a 指向的文件 schemas/fragments/nothing.json 不存在' },
      { file: PAGE, pointer: '/columns/1/$ref', message: '$ref ../../fragments/columns.json#/nope 指向的 schemas/fragments/columns.json 中没有 /nope' },
      {
        file: 'schemas/fragments/columns.json',
        pointer: '/loop/$ref',
        message: '$ref #/loop 循环引用：schemas/fragments/columns.json#/loop → schemas/fragments/columns.json#/loop',
      },
    ]);
  });

  it('resolves relative paths from the project root', () => {
    expect(resolvePath('schemas/pages/card/order.json', '../../fragments/card.json')).toBe('schemas/fragments/card.json');
    expect(resolvePath('schemas/fragments/card.json', './columns.json')).toBe('schemas/fragments/columns.json');
  });
});

describe('page parameters', () => {
  const page = {
    title: { $param: 'title' },
    parameters: { feedbackType: { app: { title: 'APP反馈', extra: [{ field: 'appVersion', title: 'APP版本' }] }, other: { title: '其他反馈', extra: [], permission: null } } },
    param: { feedbackType: { $param: 'feedbackType' } },
    columns: [{ field: 'code', title: '编号' }, { $param: 'extra' }],
    rowActions: [{ type: 'refresh', label: '刷新', permission: { $param: 'permission' } }],
  };

  it('reads a view reference and writes it back', () => {
    expect(parseViewRef('feedback/list?feedbackType=app')).toEqual({ view: 'feedback/list', params: { feedbackType: 'app' } });
    expect(parseViewRef('device/all')).toEqual({ view: 'device/all', params: {} });
    expect(formatViewRef('feedback/list', { feedbackType: 'app' })).toBe('feedback/list?feedbackType=app');
    expect(pageVariants('feedback/list', page)).toEqual(['feedback/list?feedbackType=app', 'feedback/list?feedbackType=other']);
    expect(pageVariants('device/all', {})).toEqual(['device/all']);
  });

  it('puts the value and the constants of the value given, spreads arrays and drops what is null', () => {
    const app = applyParams({ ...page, rowActions: [{ type: 'refresh', label: '刷新' }] }, { feedbackType: 'app' }, PAGE);
    expect(app.problems).toEqual([]);
    expect(app.value).toEqual({
      title: 'APP反馈',
      param: { feedbackType: 'app' },
      columns: [{ field: 'code', title: '编号' }, { field: 'appVersion', title: 'APP版本' }],
      rowActions: [{ type: 'refresh', label: '刷新' }],
    });
    const other = applyParams(page, { feedbackType: 'other' }, PAGE);
    expect(other.value).toEqual({ title: '其他反馈', param: { feedbackType: 'other' }, columns: [{ field: 'code', title: '编号' }], rowActions: [{ type: 'refresh', label: '刷新' }] });
  });

  it('says what is missing, unknown or undeclared', () => {
    expect(applyParams(page, {}, PAGE).problems.map((p) => `${p.pointer} ${p.message}`)).toEqual([
      '/parameters/feedbackType 打开页面时缺少参数 feedbackType（可选：app、other），在视图引用中写出，如 ?feedbackType=app',
    ]);
    expect(applyParams(page, { feedbackType: 'mail' }, PAGE).problems.map((p) => `${p.pointer} ${p.message}`)).toEqual(['/parameters/feedbackType 参数 feedbackType 的取值 mail 不在 app、other 之中']);
    expect(applyParams(page, { feedbackType: 'app' }, PAGE).problems.map((p) => `${p.pointer} ${p.message}`)).toEqual([
      '/rowActions/0/permission/$param 页面参数或常量 permission 未在 parameters 中为取值 app 声明',
    ]);
    expect(applyParams({ title: 'x' }, { kind: 'a' }, PAGE).problems.map((p) => `${p.pointer} ${p.message}`)).toEqual(['/parameters 页面没有参数 kind']);
  });
});

describe('filters declared on columns', () => {
  const list = (columns: unknown[], filters?: unknown) => ({ schemaVersion: 1, kind: 'list', title: '列表', operation: 'device.page', columns, ...(filters ? { filters } : {}) });

  it('derives a DictSelect, a time range and an Input, before the explicit fields, and drops search', () => {
    const page = list(
      [
        { field: 'code', title: '编号', search: { 'x-component-props': { placeholder: '编号' } } },
        { field: 'state', title: '状态', display: 'tag', dictType: 'device_state', search: true },
        { field: 'createTime', title: '创建时间', display: 'datetime', search: true },
      ],
      { type: 'object', properties: { keyword: { type: 'string', title: '关键字', 'x-component': 'Input' } } },
    );
    const { value, problems } = deriveFilters(page, PAGE);
    expect(problems).toEqual([]);
    const composed = value as { columns: Array<Record<string, unknown>>; filters: { properties: Record<string, unknown> } };
    expect(composed.columns.every((column) => !('search' in column))).toBe(true);
    expect(composed.filters.properties).toEqual({
      code: { type: 'string', title: '编号', 'x-decorator': 'FormItem', 'x-component': 'Input', 'x-component-props': { placeholder: '编号' } },
      state: { type: 'string', title: '状态', 'x-decorator': 'FormItem', 'x-component': 'DictSelect', 'x-component-props': { dictType: 'device_state' } },
      createTime: {
        type: 'array',
        title: '创建时间',
        'x-decorator': 'FormItem',
        'x-component': 'DatePicker.RangePicker',
        'x-component-props': { showTime: true },
        'x-validator': 'timeRange',
      },
      keyword: { type: 'string', title: '关键字', 'x-component': 'Input' },
    });
    expect(validatePageSchema(value).ok).toBe(true);
  });

  it('orders derived and explicit fields as filters.order says', () => {
    const page = list([{ field: 'state', title: '状态', display: 'dict', dictType: 'device_state', search: true }], {
      type: 'object',
      order: ['keyword', 'state'],
      properties: { keyword: { type: 'string', title: '关键字', 'x-component': 'Input' } },
    });
    const { value, problems } = deriveFilters(page, PAGE);
    expect(problems).toEqual([]);
    expect(Object.keys((value as { filters: { properties: object } }).filters.properties)).toEqual(['keyword', 'state']);
    expect((value as { filters: object }).filters).not.toHaveProperty('order');
  });

  it('names a column that cannot derive a filter, a field written twice and a wrong order', () => {
    const page = list(
      [
        { field: 'image', title: '图片', display: 'image', search: true },
        { field: 'state', title: '状态', display: 'tag', dictType: 'device_state', search: true },
      ],
      { type: 'object', order: ['state', 'nothing'], properties: { state: { type: 'string', title: '状态', 'x-component': 'Input' } } },
    );
    expect(deriveFilters(page, PAGE).problems.map((p) => `${p.pointer} ${p.message}`)).toEqual([
      '/columns/0/search 显示为 image 的列推不出筛选字段（dict、tag、boolean 列要有 dictType）：在 filters 中写出这个字段',
      '/filters/properties/state 筛选字段 state 已由列的 search 推出，不要再写',
      '/filters/order order 中的 nothing 不是筛选字段',
    ]);
  });
});

describe('the page meta-schema accepts the reuse where a fragment may stand', () => {
  it('a $ref column, action and filter field, a $param title and parameters, search and filters.order', () => {
    const source = {
      schemaVersion: 1,
      kind: 'list',
      title: { $param: 'title' },
      parameters: { kind: { a: { title: '甲' } } },
      operation: 'device.page',
      filters: { type: 'object', order: ['state'], properties: { state: { $ref: '../../fragments/filters.json#/state' } } },
      columns: [{ $ref: '../../fragments/columns.json#/createTime', width: 120 }, { field: 'code', title: '编号', search: true }],
      rowActions: [{ $ref: '../../fragments/actions.json#/delete' }],
    };
    const checked = validatePageSchema(source);
    expect(checked.ok ? [] : checked.problems).toEqual([]);
    const wrong = validatePageSchema({ ...source, columns: [{ $param: 1 }] });
    expect(wrong.ok).toBe(false);
  });

  it('composes a file in all three steps', () => {
    const source = {
      schemaVersion: 1,
      kind: 'list',
      title: { $param: 'title' },
      parameters: { kind: { a: { title: '甲' } } },
      operation: 'device.page',
      columns: [{ $ref: '../../fragments/columns.json#/createTime', search: true }],
    };
    const { value, problems } = composeFile(source, PAGE, { kind: 'a' }, read);
    expect(problems).toEqual([]);
    expect(value).toMatchObject({ title: '甲', filters: { type: 'object', properties: { createTime: { 'x-component': 'DatePicker.RangePicker' } } } });
    expect(validatePageSchema(value).ok).toBe(true);
  });
});

describe('the console loads pages composed at build time (scripts/pageComposePlugin.ts)', () => {
  it('the combination a view reference names, a former view name, and what a page lacks', async () => {
    expect(await pageRefs('feedback/list')).toEqual(['feedback/list?feedbackType=app', 'feedback/list?feedbackType=other']);
    expect(await pageRefs('device/all')).toEqual(['device/all']);
    expect(await loadPageSchema('feedback/list?feedbackType=other')).toMatchObject({ title: '其他反馈', param: { feedbackType: 'other' } });
    // A menu delivered before keeps its view file.
    expect(await loadPageSchema('feedback/app')).toMatchObject({ title: 'APP反馈', param: { feedbackType: 'app' } });
    await expect(loadPageSchema('feedback/list?feedbackType=mail')).rejects.toThrow('/parameters 页面没有参数组合 feedbackType=mail（可用：feedbackType=app、feedbackType=other）');
    await expect(loadPageSchema('feedback/list')).rejects.toThrow('/parameters 打开页面时缺少参数（可用：feedbackType=app、feedbackType=other）');
    await expect(loadPageSchema('device/all?kind=x')).rejects.toThrow('/parameters 页面没有参数 kind');
  });

  it('filters declared on columns arrive as filter fields, in the order of the form', async () => {
    const page = (await loadPageSchema('system/loginLog')) as { filters: { properties: Record<string, unknown> }; columns: Array<Record<string, unknown>> };
    expect(Object.keys(page.filters.properties)).toEqual(['loginName', 'loginResult', 'ip', 'timeRange']);
    expect(page.filters.properties.loginResult).toEqual({ type: 'string', title: '结果', 'x-decorator': 'FormItem', 'x-component': 'DictSelect', 'x-component-props': { dictType: 'login_result' } });
    expect(page.columns.some((column) => 'search' in column)).toBe(false);
  });
});
