import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DISPLAY_KINDS } from '../../renderers/displays/displays';
import { FORM_COMPONENT_KINDS } from '../../renderers/form/formily';
import { VALIDATOR_NAMES } from '../../src/validation/named';
import { checkHandlers, checkPage, checkPages, checkReachable, formatProblem, loadContext } from '../../scripts/check';

const root = new URL('../..', import.meta.url).pathname;

function pagesWith(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pages-'));
  for (const [view, value] of Object.entries(files)) {
    mkdirSync(join(dir, view, '..'), { recursive: true });
    writeFileSync(join(dir, `${view}.json`), JSON.stringify(value));
  }
  return dir;
}

const list = (overrides: Record<string, unknown> = {}) => ({
  schemaVersion: 1,
  kind: 'list',
  title: '登录日志',
  operation: 'auth.init',
  columns: [{ field: 'loginName', title: '账号' }],
  ...overrides,
});

describe('npm run check on page schemas', () => {
  it('names the file and the pointer of an unknown operation', () => {
    const dir = pagesWith({ 'system/broken': list({ operation: 'no.such.operation' }) });
    const context = loadContext(root, dir);
    const problems = checkPages(context);
    expect(problems).toHaveLength(1);
    expect(problems[0].pointer).toBe('/operation');
    expect(problems[0].file).toMatch(/system\/broken\.json$/);
    expect(formatProblem(problems[0])).toMatch(/system\/broken\.json \/operation 接口操作 no\.such\.operation 未在 schemas\/operations\.json 中登记$/);
  });

  it('refuses an operation of the wrong kind for its use', () => {
    const context = loadContext(root, pagesWith({}));
    const problems = checkPage('p.json', list(), context);
    expect(problems.map(formatProblem)).toEqual(['p.json /operation 接口操作 auth.init 的类型是 call，此处需要 page']);
  });

  it('names unregistered displays, validators, components, missing pages and unknown routes', () => {
    const context = loadContext(root, pagesWith({}));
    const page = {
      schemaVersion: 1,
      kind: 'form',
      title: '表单',
      submit: { operation: 'user.password.update' },
      schema: {
        type: 'object',
        properties: {
          a: { type: 'string', 'x-component': 'Rocket', 'x-validator': 'telepathy' },
          b: { type: 'string', 'x-component': 'DictSelect', 'x-component-props': { dictType: 'no_such_dict' } },
        },
      },
    };
    const messages = checkPage('f.json', page, context).map(formatProblem);
    expect(messages).toContain(`f.json /schema/properties/a/x-component 未注册的组件 Rocket（可用：${FORM_COMPONENT_KINDS.names().join('、')}）`);
    expect(messages).toContain(`f.json /schema/properties/a/x-validator 未注册的校验器 telepathy（可用：${VALIDATOR_NAMES.join('、')}）`);
    expect(messages).toContain('f.json /schema/properties/b/x-component-props/dictType 字典类型 no_such_dict 未在 schemas/dictionaries.json 中提供');
    const withActions = list({
      columns: [{ field: 'x', title: 'X', display: 'sparkle' }],
      toolbar: [
        { type: 'openForm', label: '新增', page: 'nowhere/form' },
        { type: 'navigate', label: '去', to: '/not/a/route' },
      ],
    });
    const more = checkPage('l.json', withActions, context).map(formatProblem);
    expect(more).toContain(`l.json /columns/0/display 未注册的展示方式 sparkle（可用：${DISPLAY_KINDS.names().join('、')}）`);
    expect(more).toContain('l.json /toolbar/0/page 表单页面 nowhere/form 不存在（schemas/pages/nowhere/form.json）');
    expect(more).toContain('l.json /toolbar/1/to 路由 /not/a/route 不在菜单或布局路由中');
  });

  it('refuses a Formily expression outside the language the console evaluates without eval', () => {
    const context = loadContext(root, pagesWith({}));
    const page = {
      schemaVersion: 1,
      kind: 'form',
      title: '表单',
      submit: { operation: 'user.password.update' },
      schema: {
        type: 'object',
        properties: {
          a: { type: 'string', 'x-component': 'Input', 'x-reactions': { fulfill: { state: { disabled: '{{!!$form.initialValues.a}}' } } } },
          b: { type: 'string', 'x-component': 'Input', 'x-reactions': { fulfill: { state: { value: "{{$self.constructor.constructor('alert(1)')()}}" } } } },
          c: { type: 'string', 'x-component': 'Input', 'x-visible': '{{$deps[0] = 1}}' },
        },
      },
    };
    const messages = checkPage('e.json', page, context).map(formatProblem);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toBe("e.json /schema/properties/b/x-reactions/fulfill/state/value 模板 {{$self.constructor.constructor('alert(1)')()}} 不允许读取属性 constructor");
    expect(messages[1]).toMatch(/^e\.json \/schema\/properties\/c\/x-visible 模板 \{\{\$deps\[0\] = 1\}\} /);
  });

  it('parses every template with the renderer\'s evaluator and names file, pointer and what is wrong', () => {
    const context = loadContext(root, pagesWith({}));
    const form = {
      schemaVersion: 1,
      kind: 'form',
      title: '编辑用户',
      load: { operation: 'user.detail', param: { id: '{{param.id}}' } },
      submit: { operation: 'user.password.update', param: { id: '{{params.id | int}}', note: 'for {{values.name}} by {{record.owner}}', age: '{{values.age +}}', tag: '{{ values.tag' } },
      schema: { type: 'object', properties: { org: { type: 'string', 'x-component': 'OperationSelect', 'x-component-props': { operation: 'auth.init', param: { parent: '{{values.kind | number}}', by: '{{$deps[0] || param.x}}' } } } } },
    };
    expect(checkPage('t.json', form, context).map(formatProblem)).toEqual([
      't.json /load/param/id 模板 {{param.id}} 引用了未知的名称 param（可用：params、user）',
      't.json /submit/param/id 模板 {{params.id | int}} 使用了未知的过滤器 int（可用：number、string、boolean、join、default）',
      't.json /submit/param/note 模板 for {{values.name}} by {{record.owner}} 读取的 record 在此处不存在（可用：params、values、user）',
      't.json /submit/param/age 模板 {{values.age +}} 无法解析：Expected expression after + at character 12',
      't.json /submit/param/tag 模板 {{ values.tag 有未闭合的 {{',
      't.json /schema/properties/org/x-component-props/param/by 模板 {{$deps[0] || param.x}} 引用了未知的名称 param（可用：params、values、user）',
    ]);
    const rows = list({
      param: { orgCode: '{{params.orgCode}}' },
      columns: [{ field: 'code', title: '编号', display: 'link', to: '/device/detail?code={{row.code}}' }],
      rowActions: [{ type: 'navigate', label: '详情', to: '/device/detail', query: { code: '{{record.code}}' }, visibleWhen: "{{record.status === '1' && user.roleList.includes('admin')}}", disabledWhen: '{{record.locked | bool}}' }],
      batchActions: [{ type: 'call', label: '删', operation: 'device.delete', param: { codes: '{{record.code}}' } }],
      operation: 'device.page',
    });
    expect(checkPage('r.json', rows, context).map(formatProblem)).toEqual([
      'r.json /columns/0/to 模板 /device/detail?code={{row.code}} 引用了未知的名称 row（可用：record、user）',
      'r.json /rowActions/0/disabledWhen 模板 {{record.locked | bool}} 使用了未知的过滤器 bool（可用：number、string、boolean、join、default）',
      'r.json /batchActions/0/param/codes 模板 {{record.code}} 读取的 record 在此处不存在（可用：params、values、selection、user）',
    ]);
    // A series section's live refresh matches events on templates over params and the record (设备详情 → 数据趋势).
    const trend = {
      schemaVersion: 1,
      kind: 'detail',
      title: '设备详情',
      load: { operation: 'device.detail', param: { code: '{{params.code}}' } },
      sections: [{ title: '数据趋势', type: 'series', operation: 'device.telemetry.series', param: { code: '{{params.code}}' }, live: { events: ['alarm.raised'], match: { deviceCode: '{{params.code}}', alarmCode: '{{values.code}}' } } }],
    };
    expect(checkPage('s.json', trend, context).map(formatProblem)).toEqual(['s.json /sections/0/live/match/alarmCode 模板 {{values.code}} 读取的 values 在此处不存在（可用：params、record、user）']);
    // A dashboard follows its route: its widgets read params (and the user), nothing else.
    const board = { schemaVersion: 1, kind: 'dashboard', title: '看板', widgets: [{ type: 'stat', title: '设备', operation: 'auth.init', param: { org: '{{params.orgCode}}', code: '{{record.code}}' } }] };
    const messages = checkPage('d.json', board, context).map(formatProblem);
    expect(messages).not.toContain(expect.stringContaining('/widgets/0/param/org'));
    expect(messages).toContain('d.json /widgets/0/param/code 模板 {{record.code}} 读取的 record 在此处不存在（可用：params、user）');
    // A widget type is the renderer's own or one the console registers (src/renderer/widgets.tsx).
    expect(messages).toContain('d.json /widgets/0/type 未注册的仪表盘组件 stat（可用：statistic、line、bar、pie、gauge、table）');
    // A chain's later steps read the answer before them as result; its first step has none.
    const chained = list({
      operation: 'device.page',
      columns: [{ field: 'code', title: '编号' }],
      rowActions: [
        {
          type: 'chain',
          label: '重置',
          confirm: '确定？',
          steps: [
            { type: 'call', operation: 'device.delete', param: { code: '{{result.code}}' } },
            { type: 'showResult', value: '{{result.secret}}', fields: [{ field: 'secret', title: '密钥', display: 'nope' }] },
            { type: 'openPage', page: 'device/nowhere', params: { code: '{{result.code}}' } },
            { type: 'map.nowhere' },
          ],
        },
      ],
    });
    expect(checkPage('c.json', chained, context).map(formatProblem)).toEqual([
      `c.json /rowActions/0/steps/1/fields/0/display 未注册的展示方式 nope（可用：${DISPLAY_KINDS.names().join('、')}）`,
      'c.json /rowActions/0/steps/0/param/code 模板 {{result.code}} 读取的 result 在此处不存在（可用：params、record、user）',
      'c.json /rowActions/0/steps/2/page 页面 device/nowhere 不存在（schemas/pages/device/nowhere.json）',
      'c.json /rowActions/0/steps/3/type 未注册的操作 map.nowhere（控制台的操作在 src/renderer/actions.ts，目前没有）',
    ]);
    // A template where nothing resolves one is shown or sent as written.
    expect(checkPage('s.json', { ...rows, title: '设备 {{params.code}}', description: '{{params.code}}' }, context).map(formatProblem)).toEqual(
      expect.arrayContaining(['s.json /description 模板 {{params.code}} 在此处不会被解析：会原样显示或发送']),
    );
  });

  it('names a permission no menu button grants (the button would show to nobody) and a component member that does not exist', () => {
    const context = loadContext(root, pagesWith({}));
    const page = list({
      operation: 'device.page',
      toolbar: [{ type: 'navigate', label: '新增', to: '/device/all', permission: 'device.insret' }],
      export: { operation: 'device.export', permission: 'device.export' },
    });
    expect(checkPage('p.json', page, context).map(formatProblem)).toEqual(['p.json /toolbar/0/permission 权限 device.insret 不是任何菜单按钮授予的接口操作：这个按钮对所有人都不显示（相近的有：device.insert）']);
    const form = {
      schemaVersion: 1,
      kind: 'form',
      title: '表单',
      submit: { operation: 'user.password.update' },
      schema: { type: 'object', properties: { a: { type: 'string', 'x-component': 'Input.TextAre' }, b: { type: 'string', 'x-component': 'Input.TextArea' } } },
    };
    expect(checkPage('f.json', form, context).map(formatProblem)).toEqual(['f.json /schema/properties/a/x-component 组件 Input 没有 TextAre（可用：Input.TextArea）']);
  });

  it('still names the semantic problems of a page whose structure is wrong elsewhere', () => {
    const context = loadContext(root, pagesWith({}));
    const messages = checkPage('s.json', { schemaVersion: 1, kind: 'list', operation: 'no.such.page', columns: [{ field: 'a', title: 'A' }] }, context).map(formatProblem);
    expect(messages.some((message) => message.startsWith('s.json / '))).toBe(true);
    expect(messages).toContain('s.json /operation 接口操作 no.such.page 未在 schemas/operations.json 中登记');
  });

  it('names a page nothing opens, and a catalogued operation the reference server does not implement', async () => {
    const dir = pagesWith({ 'system/orphanDetail': { schemaVersion: 1, kind: 'detail', title: '孤儿', load: { operation: 'user.detail' }, sections: [] } });
    const context = loadContext(root, dir);
    const [orphan, ...others] = checkReachable(context).map(formatProblem);
    expect(others).toEqual([]);
    expect(orphan).toMatch(/system\/orphanDetail\.json \/ 页面没有入口：没有菜单项打开它（详情页要有一个 "shown": false 的隐藏菜单项），也没有页面用 openForm 或 page 引用它$/);
    expect(await checkHandlers(context)).toEqual([]);
    const unimplemented = { ...context, operations: { ...context.operations, 'supplier.page': { kind: 'page' } } };
    expect((await checkHandlers(unimplemented)).map(formatProblem)).toEqual([
      'schemas/operations.json /supplier.page 接口操作 supplier.page 在参考服务端没有实现（调用得到 501）：在 server/operations 中定义它',
    ]);
  });

  it('reports a schema error with its pointer before anything else', () => {
    const context = loadContext(root, pagesWith({}));
    const problems = checkPage('bad.json', { schemaVersion: 1, kind: 'list', title: 'x', operation: 'auth.init', columns: [{ field: 'a' }] }, context);
    expect(problems[0]).toMatchObject({ pointer: '/columns/0' });
  });
});
