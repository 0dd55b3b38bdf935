// npm run check reads the names a page may use and the props each entry takes from the renderer's
// registries (scripts/check/registered.ts, issue 33): an entry an extension registers is accepted
// like a built-in, a filter names a control of the filter registry (not any form component), and
// what an entry's props say (a required dictType, an operation's kind) is checked where it is used.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WIDGET_KINDS } from '../../renderers/dashboard/widgetKinds';
import { DISPLAY_KINDS } from '../../renderers/displays/displays';
import { FORM_COMPONENT_KINDS } from '../../renderers/form/formily';
import { FILTER_COMPONENT_KINDS } from '../../renderers/list/FilterForm';
import { checkPage, formatProblem, loadContext } from '../../scripts/check';

const root = new URL('../..', import.meta.url).pathname;
const context = loadContext(root, mkdtempSync(join(tmpdir(), 'pages-')));
const list = (overrides: Record<string, unknown>) => ({ schemaVersion: 1, kind: 'list', title: '设备', operation: 'device.page', columns: [{ field: 'code', title: '编码' }], ...overrides });
const form = (properties: Record<string, unknown>) => ({ schemaVersion: 1, kind: 'form', title: '表单', submit: { operation: 'user.password.update' }, schema: { type: 'object', properties } });
const messages = (page: unknown) => checkPage('p.json', page, context).map(formatProblem);

describe('npm run check asks the registries', () => {
  it('a filter names a control of the filter registry, with its allowed names', () => {
    const page = list({ filters: { type: 'object', properties: { photo: { type: 'string', title: '照片', 'x-component': 'FileUpload' }, code: { type: 'string', title: '编码', 'x-component': 'Input' } } } });
    expect(messages(page)).toEqual([`p.json /filters/properties/photo/x-component 未注册的筛选组件 FileUpload（可用：${FILTER_COMPONENT_KINDS.names().join('、')}）`]);
  });

  it('what an entry’s props require: a DictSelect’s dictType, a dict column’s, an operation of the kind the entry takes', () => {
    const page = list({
      columns: [{ field: 'state', title: '状态', display: 'dict' }],
      filters: {
        type: 'object',
        properties: {
          state: { type: 'string', title: '状态', 'x-component': 'DictSelect' },
          org: { type: 'string', title: '组织', 'x-component': 'OperationTreeSelect', 'x-component-props': { operation: 'device.page' } },
        },
      },
    });
    expect(messages(page)).toEqual([
      'p.json /columns/0 display 为 dict 时需要 dictType',
      'p.json /filters/properties/state 筛选组件 DictSelect 需要 x-component-props.dictType',
      'p.json /filters/properties/org/x-component-props/operation 接口操作 device.page 的类型是 page，此处需要 call 或 get',
    ]);
    expect(messages(form({ s: { type: 'string', title: '状态', 'x-decorator': 'FormItem', 'x-component': 'DictSelect' } }))).toEqual(['p.json /schema/properties/s 组件 DictSelect 需要 x-component-props.dictType']);
    expect(messages(form({ f: { type: 'string', title: '附件', 'x-component': 'FileUpload', 'x-component-props': { operation: 'user.password.update' } } }))).toEqual([
      'p.json /schema/properties/f/x-component-props/operation 接口操作 user.password.update 的类型是 call，此处需要 upload',
    ]);
  });

  it('a member is one its entry offers', () => {
    expect(messages(form({ r: { type: 'string', title: '备注', 'x-component': 'Input.TextAre' } }))).toEqual(['p.json /schema/properties/r/x-component 组件 Input 没有 TextAre（可用：Input.TextArea）']);
  });

  it('an entry registered as an extension is accepted like a built-in, each of the kinds', () => {
    const page = list({
      columns: [{ field: 'stock', title: '库存', display: 'checkStock' }],
      filters: { type: 'object', properties: { short: { type: 'string', title: '缺货', 'x-component': 'CheckYesNo' } } },
    });
    const board = { schemaVersion: 1, kind: 'dashboard', title: '看板', widgets: [{ type: 'checkRing', title: '在线率', operation: 'dashboard.overview' }] };
    const rated = form({ rating: { type: 'number', title: '评分', 'x-component': 'CheckStars' } });
    expect(messages(page).join('\n')).toMatch(/未注册的展示方式 checkStock[\s\S]*未注册的筛选组件 CheckYesNo/);
    expect(messages(board)).toEqual([expect.stringContaining('未注册的仪表盘组件 checkRing')]);
    expect(messages(rated)).toEqual([expect.stringContaining('未注册的组件 CheckStars')]);

    DISPLAY_KINDS.register('checkStock', { render: () => null });
    FILTER_COMPONENT_KINDS.register('CheckYesNo', { render: () => null });
    WIDGET_KINDS.register('checkRing', { Body: () => null, skeletonRows: 1 });
    FORM_COMPONENT_KINDS.register('CheckStars', { component: () => null });
    expect(messages(page)).toEqual([]);
    expect(messages(board)).toEqual([]);
    expect(messages(rated)).toEqual([]);
  });
});
