// Menu resources (system/menu): the resource tree, the administration list, detail, create, modify
// and delete, platform admin only; what is changed here is what resource.menu.list builds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuResource } from '../../server/domain/menus';
import type { ResourceNode, ResourceRecord } from '../../server/operations/system/resources';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';

interface Page<T> {
  records: T[];
  total: number;
  pageNumber: number;
  pageSize: number;
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

const flatten = <T extends { children?: T[] }>(nodes: readonly T[]): T[] => nodes.flatMap((node) => [node, ...flatten(node.children ?? [])]);

async function adminMenu(): Promise<MenuResource[]> {
  const reply = await server.call<MenuResource[]>('resource.menu.list', {}, { token: await server.login('admin', ADMIN_PASSWORD) });
  return flatten(reply.data ?? []);
}

const insert = (resource: Record<string, unknown>, token = admin) => server.call<{ resourceCode: string }>('resource.menu.insert', { resource }, { token });

describe('resource.tree', () => {
  it('nests sub-menus and buttons under their menus, with their types', async () => {
    const reply = await server.call<ResourceNode[]>('resource.tree', { clientType: 1 }, { token: admin });
    expect(reply.code).toBe('200');
    const permission = reply.data!.find((node) => node.resourceCode === 'permission')!;
    expect(permission).toMatchObject({ resourceName: '权限管理', resourceType: '1', parentCode: null });
    const role = permission.children.find((node) => node.resourceCode === 'permission.role')!;
    expect(role.children).toContainEqual({ resourceCode: 'permission.role.setting', resourceName: '权限设置', resourceType: '2', parentCode: 'permission.role', resourceUrl: 'role.setting', children: [] });
    expect((await server.call('resource.tree', { clientType: 0 }, { token: admin })).code).toBe('400');
  });
});

describe('resource.menu.page and resource.menu.detail', () => {
  it('pages the top-level menus with everything below them nested', async () => {
    const { body } = await server.post(catalogue['resource.menu.page'].path, { param: {}, pageParam: { pageNumber: 1, pageSize: 100 } }, { token: admin });
    expect(body.code).toBe('200');
    const { records, total } = body.data as Page<ResourceRecord>;
    expect(records.length).toBe(total);
    expect(records[0]).toMatchObject({ resourceCode: 'home', resourceType: '1', resourceUrl: '/dashboard', fileUrl: 'dashboard', menuClassificationCode: 'internet', isShown: true });
    expect(records[0].children).toBeUndefined();
    expect(records[0].roleCount).toBe(7);
    const permission = records.find((record) => record.resourceCode === 'permission');
    expect(permission?.children?.find((child) => child.resourceCode === 'permission.role')?.children?.map((button) => button.resourceUrl)).toEqual([
      'role.insert',
      'role.modify',
      'role.delete',
      'role.setting',
    ]);
    expect(total).toBeGreaterThan(10);
    expect(records.every((record) => record.parentCode === null)).toBe(true);
  });

  it('answers a flat list of matches when filtered', async () => {
    const buttons = await server.call<Page<ResourceRecord>>('resource.menu.page', { resourceType: '2', keyword: 'role.' }, { token: admin });
    expect(buttons.data!.records.map((record) => record.resourceUrl)).toEqual(['role.user.setting', 'role.insert', 'role.modify', 'role.delete', 'role.setting']);
    expect(buttons.data!.records[1]).toMatchObject({ parentCode: 'permission.role', parentName: '角色管理' });
    const mall = await server.call<Page<ResourceRecord>>('resource.menu.page', { menuClassificationCode: 'mall', resourceType: '1' }, { token: admin });
    expect(mall.data!.records.every((record) => record.menuClassificationCode === 'mall' && !record.children)).toBe(true);
  });

  it('is for platform staff; a tenant admin gets "403", and details only of menus held', async () => {
    expect((await server.call('resource.menu.page', {}, { token: tadmin })).code).toBe('403');
    expect((await server.call('resource.menu.page', {}, { token: operator })).code).toBe('200');
    const held = await server.call<ResourceRecord>('resource.menu.detail', { resourceCode: 'device.all' }, { token: tadmin });
    expect(held.data).toMatchObject({ resourceCode: 'device.all', parentCode: 'device', resourceUrl: '/device/all', fileUrl: 'device/all' });
    expect(await server.call('resource.menu.detail', { resourceCode: 'permission.menu' }, { token: tadmin })).toEqual({ code: '404', message: '菜单资源不存在', data: null });
    expect((await server.call('resource.menu.detail', { resourceCode: 'permission.menu' }, { token: admin })).code).toBe('200');
    expect((await server.call('resource.menu.page', { resourceType: '3' }, { token: admin })).code).toBe('400');
    expect((await server.call('resource.menu.detail', {}, { token: admin })).message).toMatch(/^参数错误：resourceCode/);
  });
});

describe('resource.menu.insert', () => {
  it('adds a menu and a button that the admin menu shows once granted', async () => {
    const menu = await insert({ resourceType: '1', parentCode: 'setting', resourceCode: 'setting.audit', resourceName: '审计日志', resourceUrl: '/system/audit', fileUrl: 'system/loginLog', resourceIcon: 'AuditOutlined', isShown: true, isCached: false });
    expect(menu).toEqual({ code: '200', message: '成功', data: { resourceCode: 'setting.audit' } });
    const button = await insert({ resourceType: '2', parentCode: 'setting.audit', resourceCode: 'setting.audit.export', resourceName: '导出', resourceUrl: 'system.loginLog.export' });
    expect(button.code).toBe('200');
    const detail = await server.call<ResourceRecord>('resource.menu.detail', { resourceCode: 'setting.audit.export' }, { token: admin });
    expect(detail.data).toMatchObject({ resourceType: '2', parentCode: 'setting.audit', menuClassificationCode: 'system', fileUrl: '', roleCount: 0 });
    // Nobody holds it yet; granting it to the admin's role is the role setting's work.
    expect((await adminMenu()).map((node) => node.resourceCode)).not.toContain('setting.audit');
    await server.db.query(`INSERT INTO role_resource (role_code, resource_code) VALUES ('PLATFORM_ADMIN', 'setting.audit'), ('PLATFORM_ADMIN', 'setting.audit.export')`);
    const shown = (await adminMenu()).find((node) => node.resourceCode === 'setting.audit');
    expect(shown).toMatchObject({ resourceName: '审计日志', resourceUrl: '/system/audit', fileUrl: 'system/loginLog', menuClassificationCode: 'system', resourcePath: 'setting/setting.audit' });
    expect(shown?.buttonList).toEqual([{ resourceCode: 'setting.audit.export', resourceName: '导出', resourceUrl: 'system.loginLog.export' }]);
  });

  it('adds a top-level folder only with a menu group', async () => {
    expect((await insert({ resourceType: '1', resourceCode: 'reports', resourceName: '报表中心' })).message).toBe('参数错误：menuClassificationCode（顶级菜单须选择菜单分类）');
    expect((await insert({ resourceType: '1', resourceCode: 'reports', resourceName: '报表中心', menuClassificationCode: 'project', parentCode: null })).code).toBe('200');
  });

  it('refuses what would break the menu: "400" for bad fields, "409" for taken codes and routes', async () => {
    expect((await insert({ resourceType: '2', resourceCode: 'loose.button', resourceName: '无主按钮', resourceUrl: 'role.setting' })).message).toBe('参数错误：parentCode（按钮须属于一个菜单）');
    expect((await insert({ resourceType: '2', parentCode: 'setting.audit', resourceCode: 'setting.audit.x', resourceName: '乱指', resourceUrl: 'dict.tree' })).message).toBe('参数错误：resourceUrl（须为需要按钮权限的接口操作）');
    expect((await insert({ resourceType: '1', parentCode: 'setting.audit.export', resourceCode: 'under.button', resourceName: '按钮下', resourceUrl: '/x', fileUrl: 'x' })).code).toBe('400');
    expect((await insert({ resourceType: '1', parentCode: 'setting', resourceCode: 'setting.noView', resourceName: '无视图', resourceUrl: '/system/noview' })).message).toMatch(/^参数错误：fileUrl/);
    expect((await insert({ resourceType: '1', parentCode: 'setting', resourceCode: 'setting.bad', resourceName: '坏路由', resourceUrl: 'system/bad', fileUrl: 'system/bad' })).code).toBe('400');
    expect((await insert({ resourceType: '1', parentCode: 'setting', resourceCode: 'setting.x', resourceName: '<i>斜体</i>' })).message).toMatch(/^参数错误：resource\.resourceName/);
    expect((await insert({ resourceType: '1', parentCode: 'setting', resourceCode: '1bad', resourceName: '坏编码' })).message).toMatch(/^参数错误：resource\.resourceCode/);
    expect((await insert({ resourceType: '1', parentCode: 'no.such', resourceCode: 'orphan', resourceName: '孤儿' })).message).toBe('参数错误：parentCode（上级资源不存在）');
    expect(await insert({ resourceType: '1', parentCode: 'setting', resourceCode: 'setting.audit', resourceName: '重复' })).toEqual({ code: '409', message: '资源编码已存在', data: null });
    expect(await insert({ resourceType: '1', parentCode: 'setting', resourceCode: 'setting.audit2', resourceName: '重复路由', resourceUrl: '/system/audit', fileUrl: 'system/loginLog' })).toEqual({
      code: '409',
      message: '该路由已被其他菜单使用',
      data: null,
    });
    expect((await insert({ resourceType: '2', parentCode: 'setting.audit', resourceCode: 'setting.audit.export2', resourceName: '重复按钮', resourceUrl: 'system.loginLog.export' })).code).toBe('409');
  });

  it('needs the button ("403" for the operator and the tenant admin)', async () => {
    const resource = { resourceType: '1', parentCode: 'setting', resourceCode: 'setting.sneaky', resourceName: '越权' };
    expect(await insert(resource, operator)).toEqual({ code: '403', message: '无权限访问', data: null });
    expect((await insert(resource, tadmin)).code).toBe('403');
  });
});

describe('resource.menu.modify', () => {
  it('renames and moves a menu; its group follows the new parent down to its buttons', async () => {
    const reply = await server.call(
      'resource.menu.modify',
      { resourceCode: 'setting.audit', resource: { resourceType: '1', parentCode: 'reports', resourceCode: 'setting.audit', resourceName: '审计报表', resourceUrl: '/system/audit', fileUrl: 'system/loginLog', isShown: true, isCached: true } },
      { token: admin },
    );
    expect(reply.code).toBe('200');
    const record = await server.call<ResourceRecord>('resource.menu.detail', { resourceCode: 'setting.audit' }, { token: admin });
    expect(record.data).toMatchObject({ resourceName: '审计报表', parentCode: 'reports', menuClassificationCode: 'project', isCached: true });
    const button = await server.call<ResourceRecord>('resource.menu.detail', { resourceCode: 'setting.audit.export' }, { token: admin });
    expect(button.data?.menuClassificationCode).toBe('project');
  });

  it('refuses a changed code, a parent below itself and turning a menu with buttons into a button', async () => {
    const modify = (resourceCode: string, resource: Record<string, unknown>) => server.call('resource.menu.modify', { resourceCode, resource }, { token: admin });
    expect((await modify('reports', { resourceType: '1', resourceCode: 'reports2', resourceName: '报表', menuClassificationCode: 'project' })).message).toBe('参数错误：resourceCode（资源编码不能修改）');
    expect((await modify('reports', { resourceType: '1', parentCode: 'setting.audit', resourceCode: 'reports', resourceName: '报表' })).message).toBe('参数错误：parentCode（不能选择自己或下级）');
    expect((await modify('setting.audit', { resourceType: '2', parentCode: 'reports', resourceCode: 'setting.audit', resourceName: '审计', resourceUrl: 'role.setting' })).code).toBe('409');
    expect((await modify('no.such', { resourceType: '1', resourceCode: 'no.such', resourceName: '无', menuClassificationCode: 'project' })).code).toBe('404');
    expect((await server.call('resource.menu.modify', { resourceCode: 'reports' }, { token: admin })).message).toMatch(/^参数错误：resource/);
    expect((await server.call('resource.menu.modify', { resourceCode: 'reports', resource: { resourceType: '1', resourceCode: 'reports', resourceName: '报表', menuClassificationCode: 'project' } }, { token: tadmin })).code).toBe('403');
  });
});

describe('resource.menu.delete', () => {
  it('refuses a menu with sub-menus ("409"), deletes a menu with its buttons and their grants', async () => {
    expect(await server.call('resource.menu.delete', { resourceCode: 'reports' }, { token: admin })).toEqual({ code: '409', message: '该菜单下还有子菜单，不能删除', data: null });
    expect((await server.call('resource.menu.delete', { resourceCode: 'setting.audit' }, { token: tadmin })).code).toBe('403');
    expect((await server.call('resource.menu.delete', { resourceCode: 'setting.audit' }, { token: admin })).code).toBe('200');
    const left = await server.db.query(`SELECT 1 FROM resource WHERE code LIKE 'setting.audit%' UNION ALL SELECT 1 FROM role_resource WHERE resource_code LIKE 'setting.audit%'`);
    expect(left).toEqual([]);
    expect((await adminMenu()).map((node) => node.resourceCode)).not.toContain('setting.audit');
    expect((await server.call('resource.menu.delete', { resourceCode: 'setting.audit' }, { token: admin })).code).toBe('404');
    expect((await server.call('resource.menu.delete', { resourceCode: '' }, { token: admin })).code).toBe('400');
  });

  it('every button the seed menu names is a catalogued button operation (the rule insert keeps)', async () => {
    const buttons = await server.db.query<{ url: string }>(`SELECT url FROM resource WHERE kind = 'button'`);
    expect(buttons.filter((button) => !catalogue[button.url]?.button)).toEqual([]);
  });
});
