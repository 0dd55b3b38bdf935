// Concurrency of the system administration (issue 17): users, organisations and tenants, roles,
// dictionaries, menus and labels, each write fired 10 times at once. Of a change exactly one wins
// and the others get the domain's answer ("409", or "404" for what another call deleted, as a later
// call would be told); nothing answers a 5xx. On PGlite and on PostgreSQL (project server-pg).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIAL_PASSWORD } from '../../server/domain/users';
import { atOnce, expectOneWinner, oneWinner, outcomes } from './concurrency-burst';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';


let server: TestServer;
let admin: string;
let tadmin: string;
beforeAll(async () => {
  server = await startServer();
  [admin, tadmin] = await Promise.all([server.login('admin', ADMIN_PASSWORD), server.login('tadmin')]);
});
afterAll(() => server.close());

const count = async (sql: string, params: string[]) => (await server.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${sql}`, params))[0].count;

describe('users', () => {
  const user = (fields: Record<string, unknown>) => ({ userName: '并发用户', organizationCode: 'T0001P01', roleCode: 'ROLE_TENANT_REPAIR', ...fields });
  const insert = (fields: Record<string, unknown>) => server.call<{ id: number }>('system.user.insert', { user: user(fields) }, { token: tadmin });

  it('ten users with one account at once: one is created, the others 409 账号已存在', async () => {
    expectOneWinner(await atOnce(10, () => insert({ loginName: 'burst.same' })), '409', '账号已存在');
    expect(await count('app_user WHERE login_name = $1', ['burst.same'])).toBe(1);
  });

  it('ten users with one phone at once: one is created, the others 409 手机号已被使用', async () => {
    expectOneWinner(await atOnce(10, (index) => insert({ loginName: `burst.phone${index}`, phoneNumber: '13711110000' })), '409', '手机号已被使用');
    expect(await count('app_user WHERE phone = $1', ['13711110000'])).toBe(1);
  });

  describe('changes to existing users', () => {
    const ids: number[] = [];
    const loginNameOf = async (id: number) => (await server.db.query<{ login_name: string }>('SELECT login_name FROM app_user WHERE id = $1', [id]))[0].login_name;
    beforeAll(async () => {
      for (let index = 0; index < 10; index += 1) ids.push((await insert({ loginName: `burst.user${index}` })).data!.id);
    });

    it('ten users renamed to one account at once: one takes it, the others 409 账号已存在', async () => {
      const replies = await atOnce(10, (index) => server.call('system.user.modify', { id: ids[index], user: user({ loginName: 'burst.renamed' }) }, { token: tadmin }));
      expectOneWinner(replies, '409', '账号已存在');
      expect(await count('app_user WHERE login_name = $1', ['burst.renamed'])).toBe(1);
    });

    it('ten stops of one user at once: one stops it, the others find it stopped; the same for starting', async () => {
      const stop = () => server.call('system.user.changeStatus', { id: ids[1], status: '0' }, { token: tadmin });
      expectOneWinner(await atOnce(10, stop), '409', '该用户已停用');
      const start = () => server.call('system.user.changeStatus', { id: ids[1], status: '1' }, { token: tadmin });
      expectOneWinner(await atOnce(10, start), '409', '该用户已启用');
    });

    it('ten deletions of one user at once: one deletes it, the others 404 用户不存在', async () => {
      expectOneWinner(await atOnce(10, () => server.call('system.user.delete', { ids: [ids[2]] }, { token: tadmin })), '404', '用户不存在');
    });

    it('ten password resets of one user at once all set it (a reset changes no state), and the user signs in with it', async () => {
      const loginName = await loginNameOf(ids[3]);
      const replies = await atOnce(10, () => server.call('user.password.reset', { loginName, password: 'Reset@2027' }, { token: tadmin }));
      expect(outcomes(replies)).toEqual({ '200': 10 });
      expect((await server.call('auth.login', { loginName, password: INITIAL_PASSWORD })).code).toBe('401');
      expect((await server.call('auth.login', { loginName, password: 'Reset@2027' })).code).toBe('200');
    });

    it('ten resets of one user\'s phone to one number at once: one sets it, the others find it set', async () => {
      const loginName = await loginNameOf(ids[4]);
      const replies = await atOnce(10, () => server.call('user.phone.reset', { loginName, phoneNumber: '13722220000' }, { token: tadmin }));
      expectOneWinner(replies, '409', '新手机号与原手机号相同');
      expect(await count('app_user WHERE phone = $1', ['13722220000'])).toBe(1);
    });
  });
});

describe('organisations and tenants', () => {
  const save = (token: string, organization: Record<string, unknown>) => server.call<{ organizationCode: string }>('organization.save', { organization }, { token });

  it('ten organisations under one parent at once each get the next free code', async () => {
    const replies = await atOnce(10, (index) => save(tadmin, { organizationName: `并发部门${index}`, organizationType: '6', parentCode: 'T0001D02' }));
    expect(outcomes(replies)).toEqual({ '200': 10 });
    const codes = replies.map((reply) => reply.body.data!.organizationCode).sort();
    expect(codes).toEqual(Array.from({ length: 10 }, (_, index) => `T0001D02${String(index + 2).padStart(2, '0')}`));
  });

  it('ten project areas under one area at once each get the next free code', async () => {
    const replies = await atOnce(10, (index) =>
      server.call<{ code: string }>('project.area.insert', { area: { name: `并发泵站${index}`, parentCode: 'T0001P01A02', areaType: 'station' } }, { token: tadmin }),
    );
    expect(outcomes(replies)).toEqual({ '200': 10 });
    const codes = replies.map((reply) => reply.body.data!.code).sort();
    expect(codes).toEqual(Array.from({ length: 10 }, (_, index) => `T0001P01A02${String(index + 2).padStart(2, '0')}`));
  });

  it('ten tenants at once under the platform each get their own code', async () => {
    const replies = await atOnce(10, (index) => save(admin, { organizationName: `并发租户${index}`, organizationType: '2', parentCode: 'P0001' }));
    expect(outcomes(replies)).toEqual({ '200': 10 });
    expect(new Set(replies.map((reply) => reply.body.data!.organizationCode)).size).toBe(10);
  });

  it('ten identical organisations at once: one is made, the others 409 同一上级组织下已有同名组织', async () => {
    const replies = await atOnce(10, () => save(tadmin, { organizationName: '并发同名组', organizationType: '6', parentCode: 'T0001D01' }));
    expectOneWinner(replies, '409', '同一上级组织下已有同名组织');
    expect(await count('organization WHERE name = $1', ['并发同名组'])).toBe(1);
  });

  it('ten deletions of one organisation at once: one deletes it, the others 404 组织不存在', async () => {
    const { organizationCode } = (await save(tadmin, { organizationName: '并发待删组', organizationType: '6', parentCode: 'T0001D01' })).data!;
    const replies = await atOnce(10, () => server.call('organization.delete', { organizationCode }, { token: tadmin }));
    expectOneWinner(replies, '404', '组织不存在');
  });
});

describe('roles', () => {
  it('ten roles with one code at once: one is added, the others 409 角色编码已存在; ten deletions: one', async () => {
    const role = { roleCode: 'BURST_ROLE', roleName: '并发角色' };
    expectOneWinner(await atOnce(10, () => server.call('role.insert', { role }, { token: tadmin })), '409', '角色编码已存在');
    expectOneWinner(await atOnce(10, () => server.call('role.delete', { roleCode: 'BURST_ROLE' }, { token: tadmin })), '404', '角色不存在');
  });
});

describe('dictionaries', () => {
  it('ten dictionaries and ten items with one key at once: one each; the deletions likewise', async () => {
    const dict = { dictType: 'burst_type', dictName: '并发字典' };
    expectOneWinner(await atOnce(10, () => server.call('dict.insert', { dict }, { token: admin })), '409', '字典类型已存在');
    const item = { dictValue: '1', dictLabel: '一' };
    const items = await atOnce(10, () => server.call('dict.item.insert', { dictType: 'burst_type', item }, { token: admin }));
    expectOneWinner(items, '409', '该字典下已有相同值的字典项');
    const deleteItem = () => server.call('dict.item.delete', { dictType: 'burst_type', dictValue: '1' }, { token: admin });
    expectOneWinner(await atOnce(10, deleteItem), '404', '字典项不存在');
    expectOneWinner(await atOnce(10, () => server.call('dict.delete', { dictType: 'burst_type' }, { token: admin })), '404', '字典不存在');
  });
});

describe('menus', () => {
  it('ten menus with one code at once: one is added, the others 409 资源编码已存在; ten deletions: one', async () => {
    const resource = { resourceType: '1', resourceCode: 'burst.menu', resourceName: '并发菜单', menuClassificationCode: 'project' };
    expectOneWinner(await atOnce(10, () => server.call('resource.menu.insert', { resource }, { token: admin })), '409', '资源编码已存在');
    const remove = () => server.call('resource.menu.delete', { resourceCode: 'burst.menu' }, { token: admin });
    expectOneWinner(await atOnce(10, remove), '404', '菜单资源不存在');
  });
});

describe('labels', () => {
  it('device field labels set to one name at once: one is saved, the others 409 (two labels may not read alike)', async () => {
    const keys = ['deviceCodeLabel', 'deviceNameLabel', 'deviceAddressLabel', 'gatewayLabel', 'productLabel'];
    const replies = await atOnce(keys.length, (index) => server.call('tag.tenantConstant.save', { [keys[index]]: '编号' }, { token: tadmin }));
    oneWinner(replies, { code: '409', message: /^标签名称不能重复：.+都叫“编号”$/ });
    expect(await count(`tenant_label_constant WHERE organization_code = 'T0001' AND value = $1`, ['编号'])).toBe(1);
  });
});
