// Roles (system/role): list, page, detail, create, modify, delete, the role setting (menus and
// buttons) and the user's roles. Tenant admins manage their own tenant's roles only; built-in and
// platform roles stay with the platform; a role's setting is what its users' next menu shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuResource } from '../../server/domain/menus';
import type { RoleRecord } from '../../server/operations/system/roles';
import type { ResourceNode } from '../../server/operations/system/resources';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';

interface Page<T> {
  records: T[];
  total: number;
  pageNumber: number;
  pageSize: number;
}

type RoleDetail = RoleRecord & { resourceCodes: string[]; resources: Array<{ value: string; label: string }> };

let server: TestServer;
let admin: string;
let operator: string;
let tadmin: string;
let badmin: string;
let tuser: string;

beforeAll(async () => {
  server = await startServer();
  [admin, operator, tadmin, badmin, tuser] = await Promise.all([
    server.login('admin', ADMIN_PASSWORD),
    server.login('operator'),
    server.login('tadmin'),
    server.login('badmin'),
    server.login('tuser'),
  ]);
});
afterAll(() => server.close());

const flatten = (nodes: readonly MenuResource[]): MenuResource[] => nodes.flatMap((node) => [node, ...flatten(node.children)]);
const flattenTree = (nodes: readonly ResourceNode[]): ResourceNode[] => nodes.flatMap((node) => [node, ...flattenTree(node.children)]);

async function userId(loginName: string): Promise<number> {
  const [row] = await server.db.query<{ id: number }>('SELECT id FROM app_user WHERE login_name = $1', [loginName]);
  return row.id;
}

/** The menu a user gets after signing in again. */
async function menuAfterLogin(loginName: string): Promise<MenuResource[]> {
  const token = await server.login(loginName);
  const reply = await server.call<MenuResource[]>('resource.menu.list', { clientType: 1 }, { token });
  expect(reply.code).toBe('200');
  return flatten(reply.data ?? []);
}

async function createRole(token: string, role: Record<string, unknown>): Promise<void> {
  const reply = await server.call('role.insert', { role }, { token });
  expect(reply, JSON.stringify(role)).toMatchObject({ code: '200' });
}

describe('role.page and role.list', () => {
  it('shows platform staff every role with its users, scope and built-in mark', async () => {
    const reply = await server.call<Page<RoleRecord>>('role.page', {}, { token: admin });
    expect(reply.code).toBe('200');
    const codes = reply.data!.records.map((role) => role.roleCode);
    expect(codes).toEqual(['TENANT_ADMIN', 'ROLE_TENANT_ORDINARY', 'ROLE_TENANT_REPAIR', 'ROLE_TENANT_PATROL', 'ROLE_REPAIR_IMPLEMENT', 'PLATFORM_ADMIN', 'PLATFORM_OPERATOR']);
    const tenantAdmin = reply.data!.records[0];
    expect(tenantAdmin).toMatchObject({ roleName: '租户管理员', scope: 'tenant', scopeName: '租户角色', builtIn: true, editable: true, organizationName: '' });
    expect(tenantAdmin.userCount).toBeGreaterThanOrEqual(2);
    expect(reply.data).toMatchObject({ total: 7, pageNumber: 1 });
  });

  it('shows a tenant admin the built-in tenant roles (read-only) and never a platform role', async () => {
    const reply = await server.call<Page<RoleRecord>>('role.page', {}, { token: tadmin });
    const records = reply.data!.records;
    expect(records.map((role) => role.roleCode)).toEqual(['TENANT_ADMIN', 'ROLE_TENANT_ORDINARY', 'ROLE_TENANT_REPAIR', 'ROLE_TENANT_PATROL', 'ROLE_REPAIR_IMPLEMENT']);
    expect(records.every((role) => !role.editable && role.builtIn)).toBe(true);
    // User counts stay within the own tenant: one tenant admin in T0001, not badmin.
    expect(records[0].userCount).toBe(1);
  });

  it('filters by keyword and scope, sorts and pages', async () => {
    const byKeyword = await server.call<Page<RoleRecord>>('role.page', { keyword: '平台' }, { token: admin });
    expect(byKeyword.data!.records.map((role) => role.roleCode)).toEqual(['PLATFORM_ADMIN', 'PLATFORM_OPERATOR']);
    const byScope = await server.call<Page<RoleRecord>>('role.page', { scope: 'platform' }, { token: admin });
    expect(byScope.data!.total).toBe(2);
    const reply = await server.app.inject({
      method: 'POST',
      url: `/api${catalogue['role.page'].path}`,
      headers: { token: admin },
      payload: { param: {}, pageParam: { pageNumber: 2, pageSize: 3 }, sortParamList: [{ field: 'roleCode', order: 'asc' }] },
    });
    const page = reply.json<{ data: Page<RoleRecord> }>().data;
    expect(page).toMatchObject({ total: 7, pageNumber: 2, pageSize: 3 });
    expect(page.records.map((role) => role.roleCode)).toEqual(['ROLE_TENANT_ORDINARY', 'ROLE_TENANT_PATROL', 'ROLE_TENANT_REPAIR']);
  });

  it('role.list answers the same roles unpaged', async () => {
    const reply = await server.call<RoleRecord[]>('role.list', { scope: 'tenant' }, { token: tadmin });
    expect(reply.code).toBe('200');
    expect(reply.data!.map((role) => role.roleCode)).toContain('ROLE_TENANT_PATROL');
    expect(reply.data!.some((role) => role.scope === 'platform')).toBe(false);
  });

  it('refuses bad filters with "400"', async () => {
    expect((await server.call('role.page', { scope: 'galaxy' }, { token: admin })).code).toBe('400');
    expect((await server.call('role.list', { keyword: 'x'.repeat(65) }, { token: admin })).message).toMatch(/^参数错误：keyword/);
    expect((await server.call('role.list', { roleCode: 'X' }, { token: admin })).code).toBe('400');
  });
});

describe('role.insert, role.modify, role.detail, role.delete', () => {
  it('lets a tenant admin create, read and change a role of the own tenant', async () => {
    await createRole(tadmin, { roleCode: 'ROLE_T1_AUDITOR', roleName: '审计员', remark: '只读审计' });
    const detail = await server.call<RoleDetail>('role.detail', { roleCode: 'ROLE_T1_AUDITOR' }, { token: tadmin });
    expect(detail.data).toMatchObject({
      roleCode: 'ROLE_T1_AUDITOR',
      roleName: '审计员',
      scope: 'tenant',
      organizationCode: 'T0001',
      organizationName: '杭州云联科技有限公司',
      builtIn: false,
      editable: true,
      userCount: 0,
      remark: '只读审计',
      resourceCodes: [],
    });
    const modified = await server.call('role.modify', { roleCode: 'ROLE_T1_AUDITOR', role: { roleCode: 'ROLE_T1_AUDITOR', roleName: '内部审计员', sort: 30 } }, { token: tadmin });
    expect(modified.code).toBe('200');
    const page = await server.call<Page<RoleRecord>>('role.page', { keyword: 'AUDITOR' }, { token: tadmin });
    expect(page.data!.records).toMatchObject([{ roleCode: 'ROLE_T1_AUDITOR', roleName: '内部审计员', sort: 30 }]);
    // Platform staff see the tenant's role with its tenant.
    const seen = await server.call<RoleRecord[]>('role.list', { keyword: 'AUDITOR' }, { token: admin });
    expect(seen.data).toMatchObject([{ roleCode: 'ROLE_T1_AUDITOR', organizationName: '杭州云联科技有限公司' }]);
  });

  it('keeps another tenant’s roles out of sight: "404" for badmin’s role, whatever the operation', async () => {
    await createRole(badmin, { roleCode: 'ROLE_T2_CLERK', roleName: '文员' });
    expect((await server.call<RoleRecord[]>('role.list', {}, { token: tadmin })).data!.map((role) => role.roleCode)).not.toContain('ROLE_T2_CLERK');
    for (const [name, param] of [
      ['role.detail', { roleCode: 'ROLE_T2_CLERK' }],
      ['role.modify', { roleCode: 'ROLE_T2_CLERK', role: { roleCode: 'ROLE_T2_CLERK', roleName: '改名' } }],
      ['role.setting', { roleCode: 'ROLE_T2_CLERK', resourceCodes: ['home'] }],
      ['role.delete', { roleCode: 'ROLE_T2_CLERK' }],
    ] as const) {
      expect(await server.call(name, param, { token: tadmin }), name).toEqual({ code: '404', message: '角色不存在', data: null });
    }
    // Nor through another tenant's orgCode.
    expect((await server.call('role.page', {}, { token: tadmin, orgCode: 'T0002' })).code).toBe('403');
    const [row] = await server.db.query<{ name: string }>(`SELECT name FROM role WHERE code = 'ROLE_T2_CLERK'`);
    expect(row.name).toBe('文员');
  });

  it('refuses a tenant admin the built-in roles and platform roles', async () => {
    expect(await server.call('role.modify', { roleCode: 'ROLE_TENANT_ORDINARY', role: { roleCode: 'ROLE_TENANT_ORDINARY', roleName: '改名' } }, { token: tadmin })).toEqual({
      code: '403',
      message: '无权修改该角色',
      data: null,
    });
    expect((await server.call('role.setting', { roleCode: 'TENANT_ADMIN', resourceCodes: [] }, { token: tadmin })).code).toBe('403');
    expect((await server.call('role.detail', { roleCode: 'PLATFORM_ADMIN' }, { token: tadmin })).code).toBe('404');
    expect(await server.call('role.insert', { role: { roleCode: 'PLATFORM_SNEAKY', roleName: '越权', scope: 'platform' } }, { token: tadmin })).toMatchObject({
      code: '403',
      message: '无权创建平台角色',
    });
  });

  it('checks the button of each changing operation on the server ("403" without it)', async () => {
    const role = { roleCode: 'ROLE_X', roleName: 'X' };
    for (const [name, param] of [
      ['role.insert', { role }],
      ['role.modify', { roleCode: 'ROLE_X', role }],
      ['role.delete', { roleCode: 'ROLE_X' }],
      ['role.setting', { roleCode: 'ROLE_X', resourceCodes: [] }],
      ['role.user.setting', { userId: 1, roleCodes: ['ROLE_X'] }],
    ] as const) {
      expect(await server.call(name, param, { token: tuser }), `${name} tuser`).toEqual({ code: '403', message: '无权限访问', data: null });
      expect((await server.call(name, param, { token: operator })).code, `${name} operator`).toBe('403');
    }
  });

  it('refuses invalid roles with "400" and taken codes with "409"', async () => {
    const bad = async (role: Record<string, unknown>) => (await server.call('role.insert', { role }, { token: tadmin })).message;
    expect(await bad({ roleCode: 'lower_case', roleName: '小写' })).toMatch(/^参数错误：role\.roleCode/);
    expect(await bad({ roleCode: 'ROLE_OK', roleName: '<b>粗体</b>' })).toMatch(/^参数错误：role\.roleName/);
    expect(await bad({ roleCode: 'ROLE_OK', roleName: '   ' })).toMatch(/^参数错误：role\.roleName/);
    expect(await bad({ roleCode: 'ROLE_OK' })).toMatch(/^参数错误：role\.roleName/);
    expect(await bad({ roleCode: 'ROLE_OK', roleName: '好', admin: true })).toMatch(/^参数错误：role\.admin/);
    expect(await bad({ roleCode: 'PLATFORM_LIKE', roleName: '像平台' })).toBe('参数错误：roleCode（租户角色编码不能以 PLATFORM_ 开头）');
    const platformWithoutPrefix = await server.call('role.insert', { role: { roleCode: 'AUDIT_DESK', roleName: '审计台', scope: 'platform' } }, { token: admin });
    expect(platformWithoutPrefix.message).toBe('参数错误：roleCode（平台角色编码须以 PLATFORM_ 开头）');
    expect(await server.call('role.insert', { role: { roleCode: 'TENANT_ADMIN', roleName: '重复' } }, { token: tadmin })).toMatchObject({ code: '409', message: '角色编码已存在' });
    expect((await server.call('role.modify', { roleCode: 'ROLE_T1_AUDITOR', role: { roleCode: 'ROLE_T1_RENAMED', roleName: '改码' } }, { token: tadmin })).code).toBe('400');
    expect((await server.call('role.detail', {}, { token: tadmin })).message).toMatch(/^参数错误：roleCode/);
    expect((await server.call('role.delete', { roleCode: 5 }, { token: tadmin })).code).toBe('400');
  });

  it('lets platform staff create platform roles and change built-in ones, never delete them', async () => {
    await createRole(admin, { roleCode: 'PLATFORM_AUDITOR', roleName: '平台审计', scope: 'platform' });
    const detail = await server.call<RoleDetail>('role.detail', { roleCode: 'PLATFORM_AUDITOR' }, { token: admin });
    expect(detail.data).toMatchObject({ scope: 'platform', organizationCode: '', builtIn: false });
    expect((await server.call('role.modify', { roleCode: 'ROLE_TENANT_PATROL', role: { roleCode: 'ROLE_TENANT_PATROL', roleName: '巡检人员' } }, { token: admin })).code).toBe('200');
    expect((await server.call('role.modify', { roleCode: 'PLATFORM_AUDITOR', role: { roleCode: 'PLATFORM_AUDITOR', roleName: '平台审计', scope: 'tenant' } }, { token: admin })).code).toBe('409');
    expect(await server.call('role.delete', { roleCode: 'ROLE_TENANT_PATROL' }, { token: admin })).toEqual({ code: '409', message: '系统内置角色不能删除', data: null });
    expect((await server.call('role.delete', { roleCode: 'PLATFORM_AUDITOR' }, { token: admin })).code).toBe('200');
    expect((await server.call('role.detail', { roleCode: 'PLATFORM_AUDITOR' }, { token: admin })).code).toBe('404');
  });

  it('refuses to delete a role that still has users ("409"), then deletes it once they are gone', async () => {
    await createRole(tadmin, { roleCode: 'ROLE_T1_TEMP', roleName: '临时' });
    const newbie = await userId('newbie');
    expect((await server.call('role.user.setting', { userId: newbie, roleCodes: ['ROLE_T1_TEMP'] }, { token: tadmin })).code).toBe('200');
    expect(await server.call('role.delete', { roleCode: 'ROLE_T1_TEMP' }, { token: tadmin })).toEqual({ code: '409', message: '该角色下还有用户，不能删除', data: null });
    expect((await server.call('role.user.setting', { userId: newbie, roleCodes: ['ROLE_TENANT_ORDINARY'] }, { token: tadmin })).code).toBe('200');
    expect((await server.call('role.delete', { roleCode: 'ROLE_T1_TEMP' }, { token: tadmin })).code).toBe('200');
  });
});

describe('role.user.setting', () => {
  it('assigns roles to a user of the working organisations only', async () => {
    const tuserId = await userId('tuser');
    const badminId = await userId('badmin');
    expect(await server.call('role.user.setting', { userId: badminId, roleCodes: ['ROLE_TENANT_ORDINARY'] }, { token: tadmin })).toEqual({ code: '404', message: '用户不存在', data: null });
    expect((await server.call('role.user.setting', { userId: tuserId, roleCodes: ['PLATFORM_ADMIN'] }, { token: tadmin })).code).toBe('404');
    expect((await server.call('role.user.setting', { userId: tuserId, roleCodes: ['ROLE_T2_CLERK'] }, { token: tadmin })).code).toBe('404');
    expect((await server.call('role.user.setting', { userId: await userId('tadmin'), roleCodes: ['ROLE_TENANT_ORDINARY'] }, { token: tadmin })).code).toBe('409');
    // Platform staff may not give a tenant's own role to a user of another tenant.
    expect(await server.call('role.user.setting', { userId: badminId, roleCodes: ['ROLE_T1_AUDITOR'] }, { token: admin })).toMatchObject({ code: '409' });
    expect((await server.call('role.user.setting', { userId: tuserId, roleCodes: [] }, { token: tadmin })).message).toMatch(/^参数错误：roleCodes/);
    expect((await server.call('role.user.setting', { userId: 'x', roleCodes: ['A'] }, { token: tadmin })).message).toMatch(/^参数错误：userId/);
  });
});

describe('role.setting', () => {
  it('offers a tenant admin only the resources the tenant admin holds', async () => {
    const tree = await server.call<ResourceNode[]>('resource.tree', {}, { token: tadmin });
    const codes = flattenTree(tree.data!).map((node) => node.resourceCode);
    expect(codes).toContain('device.all.add');
    expect(codes).not.toContain('permission.menu');
    const all = flattenTree((await server.call<ResourceNode[]>('resource.tree', {}, { token: admin })).data!).map((node) => node.resourceCode);
    expect(all).toContain('permission.menu');
    expect(all.length).toBeGreaterThan(codes.length);
    expect(await server.call('role.setting', { roleCode: 'ROLE_T1_AUDITOR', resourceCodes: ['permission.menu'] }, { token: tadmin })).toEqual({
      code: '403',
      message: '无权分配该资源',
      data: null,
    });
  });

  it('changes what the role’s users see after they sign in again', async () => {
    const tuserId = await userId('tuser');
    // tuser becomes an auditor: nothing granted yet, so only an empty menu.
    expect((await server.call('role.user.setting', { userId: tuserId, roleCodes: ['ROLE_T1_AUDITOR'] }, { token: tadmin })).code).toBe('200');
    expect(await menuAfterLogin('tuser')).toEqual([]);

    // Grant the home page, the device list with its export button, and the login log (a button alone brings its menu).
    const setting = await server.call<{ resourceCount: number }>(
      'role.setting',
      { roleCode: 'ROLE_T1_AUDITOR', resourceCodes: ['home', 'device.all', { value: 'device.all.export', label: '导出' }, 'setting.loginLog.export'] },
      { token: tadmin },
    );
    expect(setting.code).toBe('200');
    let menu = await menuAfterLogin('tuser');
    expect(menu.map((node) => node.resourceCode)).toEqual(['home', 'device', 'device.all', 'setting', 'setting.loginLog']);
    expect(menu.find((node) => node.resourceCode === 'device.all')!.buttonList.map((button) => button.resourceUrl)).toEqual(['device.export']);
    const detail = await server.call<RoleDetail>('role.detail', { roleCode: 'ROLE_T1_AUDITOR' }, { token: tadmin });
    expect(detail.data!.resourceCodes.sort()).toEqual(['device', 'device.all', 'device.all.export', 'home', 'setting', 'setting.loginLog', 'setting.loginLog.export'].sort());
    expect(detail.data!.userCount).toBe(1);

    // Take the devices away again: the next sign-in no longer shows them, and the button check follows at once.
    expect((await server.call('role.setting', { roleCode: 'ROLE_T1_AUDITOR', resourceCodes: detail.data!.resourceCodes.filter((code) => !code.startsWith('device')) }, { token: tadmin })).code).toBe('200');
    menu = await menuAfterLogin('tuser');
    expect(menu.map((node) => node.resourceCode)).toEqual(['home', 'setting', 'setting.loginLog']);
    const tuserToken = await server.login('tuser');
    const exported = await server.app.inject({ method: 'POST', url: `/api${catalogue['system.loginLog.export'].path}`, headers: { token: tuserToken }, payload: { param: {} } });
    expect(exported.headers['content-disposition']).toMatch(/attachment/);
    expect((await server.call('device.export', {}, { token: tuserToken })).code).toBe('403');
  });

  it('lets platform staff change a built-in role for all its users, and never the own role', async () => {
    const before = (await menuAfterLogin('repair')).map((node) => node.resourceCode);
    expect(before).toContain('repair.order');
    const detail = await server.call<RoleDetail>('role.detail', { roleCode: 'ROLE_TENANT_REPAIR' }, { token: admin });
    const without = detail.data!.resourceCodes.filter((code) => !code.startsWith('repair.order'));
    expect((await server.call('role.setting', { roleCode: 'ROLE_TENANT_REPAIR', resourceCodes: without }, { token: admin })).code).toBe('200');
    const after = (await menuAfterLogin('repair')).map((node) => node.resourceCode);
    expect(after).not.toContain('repair.order');
    expect(after.length).toBeLessThan(before.length);
    // Put it back exactly: the round trip through role.detail loses nothing.
    expect((await server.call('role.setting', { roleCode: 'ROLE_TENANT_REPAIR', resourceCodes: detail.data!.resourceCodes }, { token: admin })).code).toBe('200');
    expect((await menuAfterLogin('repair')).map((node) => node.resourceCode)).toEqual(before);
    expect(await server.call('role.setting', { roleCode: 'PLATFORM_ADMIN', resourceCodes: [] }, { token: admin })).toEqual({
      code: '409',
      message: '不能修改自己所属角色的权限',
      data: null,
    });
  });

  it('round-trips, as the form’s labelled values, the operator’s pages that have none of their buttons', async () => {
    const detail = await server.call<RoleDetail>('role.detail', { roleCode: 'PLATFORM_OPERATOR' }, { token: admin });
    expect(detail.data!.resourceCodes).toContain('setting.dictionary');
    expect(detail.data!.resourceCodes).not.toContain('setting.dictionary.add');
    expect(detail.data!.resources).toContainEqual({ value: 'setting.dictionary', label: '字典管理' });
    expect(detail.data!.resources.map((resource) => resource.value)).toEqual(detail.data!.resourceCodes);
    expect((await server.call('role.setting', { roleCode: 'PLATFORM_OPERATOR', resourceCodes: detail.data!.resources }, { token: admin })).code).toBe('200');
    const again = await server.call<RoleDetail>('role.detail', { roleCode: 'PLATFORM_OPERATOR' }, { token: admin });
    expect(again.data!.resourceCodes).toEqual(detail.data!.resourceCodes);
  });

  it('keeps the grants a tenant admin cannot see when the tenant admin saves', async () => {
    expect((await server.call('role.setting', { roleCode: 'ROLE_T1_AUDITOR', resourceCodes: ['home', 'permission.menu'] }, { token: admin })).code).toBe('200');
    expect((await server.call('role.setting', { roleCode: 'ROLE_T1_AUDITOR', resourceCodes: ['home', 'device.all'] }, { token: tadmin })).code).toBe('200');
    const detail = await server.call<RoleDetail>('role.detail', { roleCode: 'ROLE_T1_AUDITOR' }, { token: admin });
    expect(detail.data!.resourceCodes.sort()).toEqual(['device', 'device.all', 'home', 'permission', 'permission.menu']);
  });

  it('refuses unknown resources and malformed lists with "400"', async () => {
    expect(await server.call('role.setting', { roleCode: 'ROLE_T1_AUDITOR', resourceCodes: ['no.such.menu'] }, { token: tadmin })).toEqual({
      code: '400',
      message: '参数错误：resourceCodes（资源 no.such.menu 不存在）',
      data: null,
    });
    expect((await server.call('role.setting', { roleCode: 'ROLE_T1_AUDITOR', resourceCodes: 'home' }, { token: tadmin })).message).toMatch(/^参数错误：resourceCodes/);
    expect((await server.call('role.setting', { roleCode: 'ROLE_T1_AUDITOR', resourceCodes: [{ label: 'x' }] }, { token: tadmin })).code).toBe('400');
    expect((await server.call('role.setting', { roleCode: 'ROLE_T1_AUDITOR' }, { token: tadmin })).message).toMatch(/^参数错误：resourceCodes/);
  });
});
