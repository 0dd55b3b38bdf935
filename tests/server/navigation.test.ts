import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuResource } from '../../server/domain/menus';
import type { OrganizationNode } from '../../server/domain/organizations';
import type { DictionaryTree } from '../../server/operations/navigation';
import type { DictionaryEntry, MenuEntry } from '../../server/domain/schemaFiles';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';

const schemas = new URL('../../schemas/', import.meta.url);
const menus = (JSON.parse(readFileSync(new URL('menus.json', schemas), 'utf8')) as { menus: MenuEntry[] }).menus;
const dictionaries = (JSON.parse(readFileSync(new URL('dictionaries.json', schemas), 'utf8')) as { dictionaries: DictionaryEntry[] }).dictionaries;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

function flatten(nodes: readonly MenuResource[]): MenuResource[] {
  return nodes.flatMap((node) => [node, ...flatten(node.children)]);
}

/** The seed file's entries with their effective roles (inherited when omitted). */
function seedEntries(): Map<string, { entry: MenuEntry; roles: string[]; buttons: Map<string, string[]>; order: number }> {
  const out = new Map<string, { entry: MenuEntry; roles: string[]; buttons: Map<string, string[]>; order: number }>();
  const walk = (entry: MenuEntry, inherited: string[]) => {
    const roles = entry.roles ?? inherited;
    const buttons = new Map((entry.buttons ?? []).map((b) => [b.code, b.roles ?? roles]));
    out.set(entry.code, { entry, roles, buttons, order: out.size });
    entry.children?.forEach((child) => walk(child, roles));
  };
  menus.forEach((entry) => walk(entry, []));
  return out;
}

async function menuOf(loginName: string, password?: string): Promise<MenuResource[]> {
  const reply = await server.call<MenuResource[]>('resource.menu.list', { clientType: 1 }, { token: await server.login(loginName, password) });
  expect(reply.code).toBe('200');
  return reply.data ?? [];
}

describe('resource.menu.list', () => {
  it('gives each role its own tree', async () => {
    const codes = async (login: string, password?: string) => flatten(await menuOf(login, password)).map((node) => node.resourceCode);
    const tadmin = await codes('tadmin');
    const repair = await codes('repair');
    const admin = await codes('admin', ADMIN_PASSWORD);
    expect(tadmin).toContain('device.all');
    expect(tadmin).not.toContain('tenantConfig');
    expect(repair).toContain('repair.order');
    expect(repair).not.toContain('device.all');
    expect(admin).toContain('permission.menu');
    expect(admin).toContain('tenantConfig');
    expect(tadmin).not.toContain('permission.menu');
    expect(new Set([tadmin.join(), repair.join(), admin.join()]).size).toBe(3);
    for (const list of [tadmin, repair, admin]) expect(list[0]).toBe('home');
  });

  it('answers exactly what the seed grants, in its order, with parents of granted children', async () => {
    const seed = seedEntries();
    for (const [login, role, password] of [
      ['tadmin', 'TENANT_ADMIN'],
      ['tuser', 'ROLE_TENANT_ORDINARY'],
      ['repair', 'ROLE_TENANT_REPAIR'],
      ['operator', 'PLATFORM_OPERATOR'],
      ['admin', 'PLATFORM_ADMIN', ADMIN_PASSWORD],
    ] as const) {
      const nodes = flatten(await menuOf(login, password));
      const seen = new Set(nodes.map((node) => node.resourceCode));
      // Every granted leaf is there; nothing ungranted appears except as the parent of something granted.
      for (const [code, { entry, roles }] of seed) {
        const isLeaf = !entry.children?.length;
        if (isLeaf && roles.includes(role)) expect(seen, `${login} should see ${code}`).toContain(code);
      }
      for (const node of nodes) {
        const { entry, roles, buttons } = seed.get(node.resourceCode)!;
        if (!roles.includes(role)) expect(node.children.length, `${login}: ${node.resourceCode} only as a parent`).toBeGreaterThan(0);
        expect(node.buttonList.map((b) => b.resourceCode)).toEqual([...buttons].filter(([, holders]) => holders.includes(role)).map(([code]) => code));
        expect(node.resourceUrl).toBe(entry.url ?? '');
        expect(node.fileUrl).toBe(entry.view ?? '');
        expect(node.isShown).toBe(entry.shown ?? true);
        expect(node.isCached).toBe(entry.cached ?? false);
      }
      const orders = nodes.map((node) => seed.get(node.resourceCode)!.order);
      expect(orders).toEqual([...orders].sort((a, b) => a - b));
    }
  });

  it('fills every SPEC §3 field: path of codes, group inherited from the top, buttons naming operations', async () => {
    const tree = await menuOf('tadmin');
    const device = tree.find((node) => node.resourceCode === 'device')!;
    const all = device.children.find((node) => node.resourceCode === 'device.all')!;
    expect(all).toMatchObject({
      parentCode: 'device',
      resourceName: '全部设备',
      resourcePath: 'device/device.all',
      resourceUrl: '/device/all',
      fileUrl: 'device/all',
      menuClassificationCode: 'internet',
      isShown: true,
      isCached: true,
      children: [],
    });
    expect(all.buttonList).toContainEqual({ resourceCode: 'device.all.add', resourceName: '新增', resourceUrl: 'device.insert' });
    expect(tree[0]).toMatchObject({ resourceCode: 'home', parentCode: null, resourceUrl: '/dashboard', resourceIcon: 'DashboardOutlined' });
  });

  it('shows the ordinary user the list without the tenant admin\'s buttons', async () => {
    const buttonsOf = async (login: string) =>
      flatten(await menuOf(login)).find((node) => node.resourceCode === 'device.all')!.buttonList.map((b) => b.resourceUrl);
    const tadmin = await buttonsOf('tadmin');
    const tuser = await buttonsOf('tuser');
    expect(tadmin).toEqual(expect.arrayContaining(['device.insert', 'device.delete']));
    expect(tuser).not.toContain('device.insert');
    expect(tuser.every((url) => tadmin.includes(url))).toBe(true);
    expect(tuser.length).toBeLessThan(tadmin.length);
  });

  it('checks button operations on the server again ("403" without the grant)', async () => {
    const tuser = await server.login('tuser');
    const tadmin = await server.login('tadmin');
    expect(await server.call('device.insert', {}, { token: tuser })).toEqual({ code: '403', message: '无权限访问', data: null });
    // Past admission, the empty body is refused by the operation's own validation.
    expect((await server.call('device.insert', {}, { token: tadmin })).code).toBe('400');
  });
});

describe('dict.tree', () => {
  it('answers every dictionary of schemas/dictionaries.json in order, each item with the colour it carries', async () => {
    const reply = await server.call<DictionaryTree[]>('dict.tree', {}, { token: await server.login('tuser') });
    expect(reply.data).toEqual(
      dictionaries.map((d) => ({
        dictType: d.dictType,
        dictName: d.dictName,
        children: d.items.map((i) => ({ dictValue: i.value, dictLabel: i.label, ...(i.color ? { dictColor: i.color } : {}) })),
      })),
    );
    // Issue 34: 已恢复 and 待处理 are told apart by what they mean.
    const states = reply.data?.find((d) => d.dictType === 'alarm_state')?.children;
    expect(states?.find((i) => i.dictValue === 'pending')?.dictColor).toBe('error');
    expect(states?.find((i) => i.dictValue === 'recovered')?.dictColor).toBe('success');
  });

  it('filters by dictTypeList', async () => {
    const token = await server.login('tuser');
    const reply = await server.call<DictionaryTree[]>('dict.tree', { dictTypeList: ['organization_type', 'menu_classification', 'no_such_type'] }, { token });
    expect(reply.data?.map((d) => d.dictType).sort()).toEqual(['menu_classification', 'organization_type']);
    const types = reply.data?.find((d) => d.dictType === 'organization_type');
    expect(types?.children).toContainEqual({ dictValue: '5', dictLabel: '虚拟组织' });
  });
});

describe('organization.tree', () => {
  const flat = (nodes: readonly OrganizationNode[]): OrganizationNode[] => nodes.flatMap((node) => [node, ...flat(node.children)]);
  const treeOf = async (login: string, param: object = {}, password?: string) => {
    const reply = await server.call<OrganizationNode[]>('organization.tree', param, { token: await server.login(login, password) });
    expect(reply.code).toBe('200');
    return reply.data ?? [];
  };

  it('scopes the tenant admin to the own tenant, with its type-5 node', async () => {
    const tree = await treeOf('tadmin');
    expect(tree.map((node) => node.organizationCode)).toEqual(['T0001']);
    const nodes = flat(tree);
    expect(nodes.some((node) => node.organizationCode.startsWith('T0002'))).toBe(false);
    expect(nodes.filter((node) => node.organizationType === 5).map((node) => node.organizationName)).toEqual(['外协虚拟组织']);
    expect(new Set(nodes.map((node) => node.organizationType))).toEqual(new Set([2, 3, 4, 5, 6]));
    expect(tree[0]).toMatchObject({ organizationName: '杭州云联科技有限公司', label: '杭州云联科技有限公司', organizationType: 2, parentCode: 'P0001' });
    expect(typeof tree[0].id).toBe('number');
    // Nested 3-4 levels below the tenant.
    const depth = (node: OrganizationNode): number => 1 + Math.max(0, ...node.children.map(depth));
    expect(depth(tree[0])).toBeGreaterThanOrEqual(4);
  });

  it('gives a project user only the project subtree and the platform admin everything', async () => {
    const tuser = await treeOf('tuser');
    expect(tuser.map((node) => node.organizationCode)).toEqual(['T0001P01']);
    expect(flat(tuser).every((node) => node.organizationCode.startsWith('T0001P01'))).toBe(true);
    const admin = await treeOf('admin', {}, ADMIN_PASSWORD);
    expect(admin.map((node) => node.organizationCode)).toEqual(['P0001']);
    expect(admin[0].children.map((node) => node.organizationName)).toEqual(['杭州云联科技有限公司', '苏州智水环境科技有限公司']);
    const badmin = flat(await treeOf('badmin'));
    expect(badmin.every((node) => node.organizationCode.startsWith('T0002'))).toBe(true);
  });

  it('keeps keyword matches and their ancestors only', async () => {
    const tree = await treeOf('tadmin', { keyword: '泵站' });
    const nodes = flat(tree);
    expect(nodes.map((node) => node.organizationName)).toEqual(['杭州云联科技有限公司', '西湖智慧水务项目', '西湖区供水片区', '灵隐加压泵站']);
    expect(await treeOf('tadmin', { keyword: '星海' })).toEqual([]);
    expect(flat(await treeOf('badmin', { keyword: '星海' })).map((node) => node.organizationCode)).toEqual(['T0002', 'T0002P02', 'T0002P02A01', 'T0002P02A0101']);
  });
});
