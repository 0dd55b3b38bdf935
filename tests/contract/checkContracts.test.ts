// npm run check, the contracts part (issue 23): a page schema naming a field its operation does
// not take or return is a problem line (file, JSON pointer, sentence).
import { describe, expect, it } from 'vitest';
import type { ContractsFile } from '../../server/contracts';
import { checkContracts, checkPageContracts } from '../../scripts/checkContracts';

const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, additionalProperties: false, ...extra });
const text = { type: 'string' };
const page = (records: Record<string, unknown>) => closed({ records: { type: 'array', items: closed(records) }, total: { type: 'integer' } });

const CONTRACTS: ContractsFile = {
  $comment: 'test',
  operations: {
    'thing.page': { kind: 'page', param: closed({ keyword: text, state: text }), data: page({ id: { type: 'integer' }, name: text, owner: closed({ name: text }) }) },
    'thing.detail': { kind: 'call', param: closed({ id: { type: 'integer' } }), data: closed({ id: { type: 'integer' }, name: text, parts: { type: 'array', items: closed({ partName: text }) } }) },
    'thing.insert': { kind: 'call', param: closed({ thing: closed({ name: text, state: text }) }) },
    'thing.modify': { kind: 'call', param: closed({ id: { type: 'integer' }, thing: closed({ name: text, state: text }) }) },
    'thing.delete': { kind: 'call', param: closed({ ids: { type: 'array' } }) },
    'thing.stats': { kind: 'call', param: closed({}), data: { type: 'array', items: closed({ day: text, count: { type: 'integer' } }) } },
    'thing.tree': {
      kind: 'call',
      param: closed({}),
      data: { type: 'array', items: { $ref: '#/$defs/Node' }, $defs: { Node: closed({ name: text, children: { type: 'array', items: { $ref: '#/$defs/Node' } } }) } },
    },
    'thing.loose': { kind: 'call', param: { type: 'object' }, data: { type: 'object', properties: {} } },
  },
};

const lines = (file: string, value: Record<string, unknown>) => checkPageContracts(file, value, CONTRACTS).map((p) => `${p.file} ${p.pointer} ${p.message}`);

describe('page schemas against the operations contracts', () => {
  it('a list: filters and base param are params, columns and the row key are record fields, calls take their params', () => {
    expect(
      lines('schemas/pages/thing/list.json', {
        kind: 'list',
        operation: 'thing.page',
        rowKey: 'id',
        param: { stat: '1' },
        filters: { type: 'object', properties: { keyword: text, grid: { type: 'void', properties: { stat: text } } } },
        columns: [{ field: 'name' }, { field: 'nmae' }, { field: 'owner.name' }, { field: 'owner.title' }],
        rowActions: [{ type: 'call', operation: 'thing.delete', param: { id: '{{record.id}}' } }],
      }),
    ).toEqual([
      'schemas/pages/thing/list.json /filters/properties/grid/properties/stat 筛选字段 stat 不是接口操作 thing.page 接受的参数（可用：keyword、state）',
      'schemas/pages/thing/list.json /param/stat 参数 stat 不是接口操作 thing.page 接受的参数（可用：keyword、state）',
      'schemas/pages/thing/list.json /columns/1/field 列字段 nmae 不在接口操作 thing.page 返回的记录中（有：id、name、owner）',
      'schemas/pages/thing/list.json /columns/3/field 列字段 owner.title 不在接口操作 thing.page 返回的记录中（有：name）',
      'schemas/pages/thing/list.json /rowActions/0/param/id 参数 id 不是接口操作 thing.delete 接受的参数（可用：ids）',
    ]);
  });

  it('a series section sends its range and draws `series`; a list’s live mark names a record field', () => {
    expect(
      lines('schemas/pages/thing/detail.json', {
        kind: 'detail',
        load: { operation: 'thing.detail', param: { id: '{{params.id}}' } },
        sections: [{ title: '趋势', type: 'series', operation: 'thing.detail', param: { id: '{{params.id}}' } }],
      }),
    ).toEqual([
      'schemas/pages/thing/detail.json /sections/0/type series 区块发送的参数 lastMinutes 不是接口操作 thing.detail 接受的参数（可用：id）',
      'schemas/pages/thing/detail.json /sections/0/type series 区块发送的参数 startTime 不是接口操作 thing.detail 接受的参数（可用：id）',
      'schemas/pages/thing/detail.json /sections/0/type series 区块发送的参数 endTime 不是接口操作 thing.detail 接受的参数（可用：id）',
      'schemas/pages/thing/detail.json /sections/0/type series 区块画出的字段 series 不在接口操作 thing.detail 的应答中（有：id、name、parts）',
    ]);
    expect(lines('schemas/pages/thing/list.json', { kind: 'list', operation: 'thing.page', rowKey: 'id', liveMark: { event: 'alarm.raised', key: 'code', field: 'code' }, columns: [{ field: 'name' }] })).toEqual([
      'schemas/pages/thing/list.json /liveMark/field 实时标记的行字段 code 不在接口操作 thing.page 返回的记录中（有：id、name、owner）',
    ]);
  });

  it('a form: its fields are what {{values}} stands for, and a create leaves out the record params', () => {
    expect(
      lines('schemas/pages/thing/form.json', {
        kind: 'form',
        load: { operation: 'thing.detail', param: { code: '{{params.id}}' } },
        submit: { operation: 'thing.modify', createOperation: 'thing.insert', param: { id: '{{params.id | number}}', thing: '{{values}}' } },
        schema: { type: 'object', properties: { name: text, colour: text } },
      }),
    ).toEqual([
      'schemas/pages/thing/form.json /load/param/code 参数 code 不是接口操作 thing.detail 接受的参数（可用：id）',
      'schemas/pages/thing/form.json /schema/properties/colour 表单字段 colour 不是接口操作 thing.modify 的参数 thing 接受的字段（可用：name、state）',
      'schemas/pages/thing/form.json /schema/properties/colour 表单字段 colour 不是接口操作 thing.insert 的参数 thing 接受的字段（可用：name、state）',
    ]);
  });

  it('a detail and a dashboard: fields, sources and table columns are in the answers', () => {
    expect(
      lines('schemas/pages/thing/detail.json', {
        kind: 'detail',
        load: { operation: 'thing.detail', param: { id: '{{params.id}}' } },
        sections: [
          { type: 'descriptions', fields: [{ field: 'name' }, { field: 'label' }] },
          { type: 'table', source: 'parts', columns: [{ field: 'partName' }, { field: 'partNo' }] },
          { type: 'descriptions', operation: 'thing.loose', fields: [{ field: 'anything' }] },
        ],
      }),
    ).toEqual([
      'schemas/pages/thing/detail.json /sections/0/fields/1/field 字段 label 不在接口操作 thing.detail 的应答中（有：id、name、parts）',
      'schemas/pages/thing/detail.json /sections/1/columns/1/field 列字段 partNo 不在接口操作 thing.detail 的应答的 parts 的行中（有：partName）',
    ]);
    expect(
      lines('schemas/pages/thing/board.json', {
        kind: 'dashboard',
        widgets: [
          { type: 'line', operation: 'thing.stats', param: { days: 7 }, x: 'day', y: ['count', 'total'] },
          { type: 'table', operation: 'thing.tree', columns: [{ field: 'name' }, { field: 'title' }] },
        ],
      }),
    ).toEqual([
      'schemas/pages/thing/board.json /widgets/0/param/days 参数 days 不是接口操作 thing.stats 接受的参数（可用：无）',
      'schemas/pages/thing/board.json /widgets/0/y/1 字段 total 不在接口操作 thing.stats 的应答的行中（有：day、count）',
      'schemas/pages/thing/board.json /widgets/1/columns/1/field 字段 title 不在接口操作 thing.tree 的应答的行中（有：name、children）',
    ]);
  });

  it('the project own page schemas name only fields their operations take or return', () => {
    expect(checkContracts(new URL('../..', import.meta.url).pathname.replace(/\/$/, ''))).toEqual([]);
  });
});
