// Dictionaries and their items (system/dictionary, system/childDictionary), platform staff only:
// CRUD, items served by dict.tree at once, plain-text labels ('<' and '>' refused), built-in
// dictionaries kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DictionaryTree } from '../../server/operations/navigation';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';

interface Page<T> {
  records: T[];
  total: number;
  pageNumber: number;
  pageSize: number;
}

interface DictRecord {
  dictType: string;
  dictName: string;
  itemCount: number;
  builtIn: boolean;
  sort: number;
  createTime: string;
}

interface ItemRecord {
  dictType: string;
  dictValue: string;
  dictLabel: string;
  builtIn: boolean;
  sort: number;
}

let server: TestServer;
let admin: string;
let operator: string;
let tadmin: string;

beforeAll(async () => {
  server = await startServer();
  [admin, operator, tadmin] = await Promise.all([server.login('admin', ADMIN_PASSWORD), server.login('operator'), server.login('tadmin')]);
});
afterAll(() => server.close());

async function treeOf(dictType: string): Promise<DictionaryTree | undefined> {
  const reply = await server.call<DictionaryTree[]>('dict.tree', { dictTypeList: [dictType] }, { token: tadmin });
  return reply.data?.[0];
}

describe('dict.page and dict.detail', () => {
  it('lists the dictionaries with their item counts for platform staff', async () => {
    const reply = await server.call<Page<DictRecord>>('dict.page', {}, { token: operator });
    expect(reply.code).toBe('200');
    expect(reply.data!.records[0]).toMatchObject({ dictType: 'menu_classification', dictName: '菜单分类', itemCount: 6, builtIn: true });
    expect(reply.data!.total).toBeGreaterThan(40);
    const keyword = await server.call<Page<DictRecord>>('dict.page', { keyword: '组织类型' }, { token: admin });
    expect(keyword.data!.records.map((d) => d.dictType)).toEqual(['organization_type']);
    const detail = await server.call<DictRecord>('dict.detail', { dictType: 'user_status' }, { token: admin });
    expect(detail.data).toMatchObject({ dictType: 'user_status', dictName: '用户状态', itemCount: 2, builtIn: true });
  });

  it('is for platform staff only ("403" for a tenant admin), "404" for an unknown type, "400" for bad input', async () => {
    expect(await server.call('dict.page', {}, { token: tadmin })).toEqual({ code: '403', message: '无权限访问', data: null });
    expect((await server.call('dict.detail', { dictType: 'user_status' }, { token: tadmin })).code).toBe('403');
    expect((await server.call('dict.item.page', { dictType: 'user_status' }, { token: tadmin })).code).toBe('403');
    expect(await server.call('dict.detail', { dictType: 'no_such_type' }, { token: admin })).toEqual({ code: '404', message: '字典不存在', data: null });
    expect((await server.call('dict.page', { keyword: ['x'] }, { token: admin })).message).toMatch(/^参数错误：keyword/);
  });
});

describe('dict.insert, dict.modify, dict.delete', () => {
  it('creates a dictionary, renames it and deletes it with its items', async () => {
    expect(await server.call('dict.insert', { dict: { dictType: 'device_brand', dictName: '设备品牌' } }, { token: admin })).toEqual({
      code: '200',
      message: '成功',
      data: { dictType: 'device_brand' },
    });
    expect(await treeOf('device_brand')).toEqual({ dictType: 'device_brand', dictName: '设备品牌', children: [] });
    expect((await server.call('dict.modify', { dictType: 'device_brand', dict: { dictType: 'device_brand', dictName: '设备厂商', sort: 99 } }, { token: admin })).code).toBe('200');
    expect((await server.call<DictRecord>('dict.detail', { dictType: 'device_brand' }, { token: admin })).data).toMatchObject({ dictName: '设备厂商', sort: 99, builtIn: false });
  });

  it('refuses bad input ("400"), a taken type ("409") and a changed type', async () => {
    const insert = (dict: Record<string, unknown>) => server.call('dict.insert', { dict }, { token: admin });
    expect((await insert({ dictType: 'Device-Brand', dictName: '大写' })).message).toMatch(/^参数错误：dict\.dictType/);
    expect((await insert({ dictType: 'brand_x', dictName: '<img src=x onerror=alert(1)>' })).message).toMatch(/^参数错误：dict\.dictName/);
    expect((await insert({ dictType: 'brand_x' })).message).toMatch(/^参数错误：dict\.dictName/);
    expect(await insert({ dictType: 'user_status', dictName: '重复' })).toEqual({ code: '409', message: '字典类型已存在', data: null });
    expect((await server.call('dict.modify', { dictType: 'device_brand', dict: { dictType: 'other_type', dictName: '改类型' } }, { token: admin })).code).toBe('400');
    expect((await server.call('dict.modify', { dictType: 'no_such_type', dict: { dictType: 'no_such_type', dictName: '无' } }, { token: admin })).code).toBe('404');
  });

  it('keeps the built-in dictionaries ("409")', async () => {
    expect(await server.call('dict.delete', { dictType: 'organization_type' }, { token: admin })).toEqual({ code: '409', message: '系统内置字典不能删除', data: null });
  });

  it('needs the button: "403" for the operator and the tenant admin', async () => {
    for (const token of [operator, tadmin]) {
      expect((await server.call('dict.insert', { dict: { dictType: 'brand_y', dictName: '品牌' } }, { token })).code).toBe('403');
      expect((await server.call('dict.modify', { dictType: 'device_brand', dict: { dictType: 'device_brand', dictName: '改' } }, { token })).code).toBe('403');
      expect((await server.call('dict.delete', { dictType: 'device_brand' }, { token })).code).toBe('403');
    }
  });
});

describe('dict.item.*', () => {
  it('adds items that dict.tree serves at once, in order', async () => {
    const insert = (item: Record<string, unknown>) => server.call('dict.item.insert', { dictType: 'device_brand', item }, { token: admin });
    expect((await insert({ dictValue: 'hikvision', dictLabel: '海康威视' })).code).toBe('200');
    expect((await insert({ dictValue: 'dahua', dictLabel: '大华 & 合作伙伴' })).code).toBe('200');
    expect((await treeOf('device_brand'))?.children).toEqual([
      { dictValue: 'hikvision', dictLabel: '海康威视' },
      { dictValue: 'dahua', dictLabel: '大华 & 合作伙伴' },
    ]);
    const page = await server.call<Page<ItemRecord>>('dict.item.page', { dictType: 'device_brand' }, { token: operator });
    expect(page.data!.records).toMatchObject([
      { dictValue: 'hikvision', dictLabel: '海康威视', builtIn: false, sort: 1 },
      { dictValue: 'dahua', dictLabel: '大华 & 合作伙伴', sort: 2 },
    ]);
    const detail = await server.call<ItemRecord>('dict.item.detail', { dictType: 'device_brand', dictValue: 'dahua' }, { token: admin });
    expect(detail.data).toMatchObject({ dictType: 'device_brand', dictValue: 'dahua', dictLabel: '大华 & 合作伙伴' });
  });

  it('relabels and reorders an item, built-in ones too, and the tree follows', async () => {
    const modify = await server.call('dict.item.modify', { dictType: 'device_brand', dictValue: 'dahua', item: { dictValue: 'dahua', dictLabel: '浙江大华', sort: 0 } }, { token: admin });
    expect(modify.code).toBe('200');
    expect((await treeOf('device_brand'))?.children[0]).toEqual({ dictValue: 'dahua', dictLabel: '浙江大华' });
    expect((await server.call('dict.item.modify', { dictType: 'alarm_level', dictValue: (await treeOf('alarm_level'))!.children[0].dictValue, item: { dictValue: (await treeOf('alarm_level'))!.children[0].dictValue, dictLabel: '特别紧急' } }, { token: admin })).code).toBe('200');
    expect((await treeOf('alarm_level'))!.children[0].dictLabel).toBe('特别紧急');
  });

  it('stores labels as given but refuses markup, duplicates and changed values', async () => {
    const insert = (item: Record<string, unknown>) => server.call('dict.item.insert', { dictType: 'device_brand', item }, { token: admin });
    expect((await insert({ dictValue: 'evil', dictLabel: '<script>alert(1)</script>' })).message).toMatch(/^参数错误：item\.dictLabel/);
    expect((await insert({ dictValue: 'evil', dictLabel: '小于 < 号' })).code).toBe('400');
    expect((await insert({ dictValue: 'evil', dictLabel: '大于 > 号' })).code).toBe('400');
    expect((await insert({ dictValue: 'has space', dictLabel: '空格' })).message).toMatch(/^参数错误：item\.dictValue/);
    expect((await insert({ dictValue: 'x' })).message).toMatch(/^参数错误：item\.dictLabel/);
    expect(await insert({ dictValue: 'hikvision', dictLabel: '再来一个' })).toEqual({ code: '409', message: '该字典下已有相同值的字典项', data: null });
    expect(await insert({ dictValue: 'hik2', dictLabel: '海康威视' })).toEqual({ code: '409', message: '该字典下已有相同标签的字典项', data: null });
    const changed = await server.call('dict.item.modify', { dictType: 'device_brand', dictValue: 'dahua', item: { dictValue: 'dh', dictLabel: '大华' } }, { token: admin });
    expect(changed.message).toBe('参数错误：dictValue（字典值不能修改）');
    expect((await server.call('dict.item.insert', { dictType: 'no_such_type', item: { dictValue: 'a', dictLabel: 'A' } }, { token: admin })).code).toBe('404');
    expect((await server.call('dict.item.page', {}, { token: admin })).message).toMatch(/^参数错误：dictType/);
    const [{ count }] = await server.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM dict_item WHERE label ~ '[<>]'`);
    expect(count).toBe(0);
  });

  it('keeps built-in items ("409") and deletes added ones', async () => {
    expect(await server.call('dict.item.delete', { dictType: 'organization_type', dictValue: '2' }, { token: admin })).toEqual({ code: '409', message: '系统内置字典项不能删除', data: null });
    expect((await server.call('dict.item.delete', { dictType: 'device_brand', dictValue: 'hikvision' }, { token: admin })).code).toBe('200');
    expect((await treeOf('device_brand'))?.children.map((item) => item.dictValue)).toEqual(['dahua']);
    expect((await server.call('dict.item.delete', { dictType: 'device_brand', dictValue: 'hikvision' }, { token: admin })).code).toBe('404');
  });

  it('needs the buttons: "403" for the operator and the tenant admin', async () => {
    for (const token of [operator, tadmin]) {
      expect((await server.call('dict.item.insert', { dictType: 'device_brand', item: { dictValue: 'x', dictLabel: 'X' } }, { token })).code).toBe('403');
      expect((await server.call('dict.item.modify', { dictType: 'device_brand', dictValue: 'dahua', item: { dictValue: 'dahua', dictLabel: 'X' } }, { token })).code).toBe('403');
      expect((await server.call('dict.item.delete', { dictType: 'device_brand', dictValue: 'dahua' }, { token })).code).toBe('403');
    }
  });

  it('deletes a whole added dictionary with its items', async () => {
    expect((await server.call('dict.delete', { dictType: 'device_brand' }, { token: admin })).code).toBe('200');
    expect(await treeOf('device_brand')).toBeUndefined();
    const [{ count }] = await server.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM dict_item WHERE type = 'device_brand'`);
    expect(count).toBe(0);
  });
});
