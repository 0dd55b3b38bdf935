import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPage, checkPages, formatProblem, loadContext } from '../../scripts/check';

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
    expect(messages).toContain('f.json /schema/properties/a/x-component 未注册的组件 Rocket');
    expect(messages).toContain('f.json /schema/properties/a/x-validator 未注册的校验器 telepathy');
    expect(messages).toContain('f.json /schema/properties/b/x-component-props/dictType 字典类型 no_such_dict 未在 schemas/dictionaries.json 中提供');
    const withActions = list({
      columns: [{ field: 'x', title: 'X', display: 'sparkle' }],
      toolbar: [
        { type: 'openForm', label: '新增', page: 'nowhere/form' },
        { type: 'navigate', label: '去', to: '/not/a/route' },
      ],
    });
    const more = checkPage('l.json', withActions, context).map(formatProblem);
    expect(more).toContain('l.json /columns/0/display 未注册的展示方式 sparkle');
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
    expect(messages[0]).toBe("e.json /schema/properties/b/x-reactions/fulfill/state/value 表达式 {{$self.constructor.constructor('alert(1)')()}} 不允许读取属性 constructor");
    expect(messages[1]).toMatch(/^e\.json \/schema\/properties\/c\/x-visible 表达式 \{\{\$deps\[0\] = 1\}\} /);
  });

  it('reports a schema error with its pointer before anything else', () => {
    const context = loadContext(root, pagesWith({}));
    const problems = checkPage('bad.json', { schemaVersion: 1, kind: 'list', title: 'x', operation: 'auth.init', columns: [{ field: 'a' }] }, context);
    expect(problems[0]).toMatchObject({ pointer: '/columns/0' });
  });
});
