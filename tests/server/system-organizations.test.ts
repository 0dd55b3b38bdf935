// Organisations (system/organization): page, list, all list, detail, save, modify, delete; every
// query scoped to the caller's working organisations, a tenant admin never reaching another tenant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrganizationRecord } from '../../server/operations/system/organizations';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';

interface Page<T> {
  records: T[];
  total: number;
  pageNumber: number;
  pageSize: number;
}

let server: TestServer;
let admin: string;
let tadmin: string;
let badmin: string;
let tuser: string;

beforeAll(async () => {
  server = await startServer();
  [admin, tadmin, badmin, tuser] = await Promise.all([server.login('admin', ADMIN_PASSWORD), server.login('tadmin'), server.login('badmin'), server.login('tuser')]);
});
afterAll(() => server.close());

const save = (token: string, organization: Record<string, unknown>) => server.call<{ organizationCode: string }>('organization.save', { organization }, { token });

describe('organization.page, organization.list, organization.allList, organization.detail', () => {
  it('pages the working organisations with type, parent and counts', async () => {
    const reply = await server.call<Page<OrganizationRecord>>('organization.page', {}, { token: tadmin });
    expect(reply.code).toBe('200');
    const records = reply.data!.records;
    expect(records.every((org) => org.organizationCode.startsWith('T0001'))).toBe(true);
    expect(reply.data!.total).toBe(17);
    expect(records[0]).toMatchObject({ organizationCode: 'T0001', organizationName: '杭州云联科技有限公司', organizationType: '2', parentCode: 'P0001', parentName: '云联物联网平台' });
    expect(records[0].userCount).toBeGreaterThanOrEqual(2);
    expect(records[0].childCount).toBe(5);
    expect(records[0].createTime).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('filters by keyword, type and parent', async () => {
    const areas = await server.call<Page<OrganizationRecord>>('organization.page', { organizationType: '4', parentCode: 'T0001P01A01' }, { token: tadmin });
    expect(areas.data!.records.map((org) => org.organizationName)).toEqual(['灵隐加压泵站', '龙井水厂']);
    const keyword = await server.call<Page<OrganizationRecord>>('organization.page', { keyword: '运维' }, { token: tadmin });
    expect(keyword.data!.records.map((org) => org.organizationCode)).toEqual(['T0001D01', 'T0001D0101', 'T0001D0102']);
    expect((await server.call<Page<OrganizationRecord>>('organization.page', { keyword: '星海' }, { token: tadmin })).data!.total).toBe(0);
  });

  it('follows the selected organisation, and refuses an orgCode outside the caller ("403")', async () => {
    const project = await server.call<OrganizationRecord[]>('organization.list', {}, { token: tadmin, orgCode: 'T0001P02' });
    expect(project.data!.map((org) => org.organizationCode)).toEqual(['T0001P02', 'T0001P02A01', 'T0001P02A0101', 'T0001P02A02']);
    expect((await server.call('organization.list', {}, { token: tadmin, orgCode: 'T0002' })).code).toBe('403');
    // The project user sees the own project only.
    const own = await server.call<OrganizationRecord[]>('organization.list', {}, { token: tuser });
    expect(own.data!.every((org) => org.organizationCode.startsWith('T0001P01'))).toBe(true);
  });

  it('organization.allList answers everything the caller may reach, whichever is selected', async () => {
    const all = await server.call<OrganizationRecord[]>('organization.allList', {}, { token: tadmin, orgCode: 'T0001P02' });
    expect(all.data!.length).toBe(17);
    const platform = await server.call<OrganizationRecord[]>('organization.allList', { organizationType: '2' }, { token: admin });
    expect(platform.data!.map((org) => org.organizationCode)).toEqual(['T0001', 'T0002']);
  });

  it('organization.detail answers a working node and "404" for another tenant’s', async () => {
    const detail = await server.call<OrganizationRecord>('organization.detail', { organizationCode: 'T0001P01A01' }, { token: tadmin });
    expect(detail.data).toMatchObject({ organizationName: '西湖区供水片区', organizationType: '4', parentCode: 'T0001P01', parentName: '西湖智慧水务项目', childCount: 2 });
    expect(await server.call('organization.detail', { organizationCode: 'T0002P01' }, { token: tadmin })).toEqual({ code: '404', message: '组织不存在', data: null });
    expect((await server.call('organization.detail', { organizationCode: 'T0002P01' }, { token: badmin })).code).toBe('200');
  });

  it('refuses bad input with "400"', async () => {
    expect((await server.call('organization.page', { organizationType: '9' }, { token: tadmin })).message).toMatch(/^参数错误：organizationType/);
    expect((await server.call('organization.detail', {}, { token: tadmin })).message).toMatch(/^参数错误：organizationCode/);
    expect((await server.call('organization.list', { keyword: 3 }, { token: tadmin })).code).toBe('400');
  });
});

describe('organization.save', () => {
  it('creates a project, an area in it and a nested department, coded after their parents', async () => {
    const projectReply = await save(tadmin, { organizationName: '滨江智慧照明项目', organizationType: '3', parentCode: 'T0001' });
    expect(projectReply).toEqual({ code: '200', message: '成功', data: { organizationCode: 'T0001P03' } });
    const area = await save(tadmin, { organizationName: '长河片区', organizationType: '4', parentCode: 'T0001P03' });
    expect(area.data).toEqual({ organizationCode: 'T0001P03A01' });
    const nested = await save(tadmin, { organizationName: '运维三组', organizationType: '6', parentCode: 'T0001D01' });
    expect(nested.data).toEqual({ organizationCode: 'T0001D0103' });
    const tree = await server.call<Array<{ organizationCode: string; children: Array<{ organizationCode: string }> }>>('organization.tree', { keyword: '长河' }, { token: tadmin });
    expect(JSON.stringify(tree.data)).toContain('T0001P03A01');
    const detail = await server.call<OrganizationRecord>('organization.detail', { organizationCode: 'T0001P03A01' }, { token: tadmin });
    expect(detail.data).toMatchObject({ organizationName: '长河片区', organizationType: '4', parentName: '滨江智慧照明项目', userCount: 0 });
  });

  it('never creates under another tenant ("403"), whatever the caller claims', async () => {
    expect(await save(tadmin, { organizationName: '越界项目', organizationType: '3', parentCode: 'T0002' })).toEqual({ code: '403', message: '无权访问该组织', data: null });
    expect((await save(tadmin, { organizationName: '越界区域', organizationType: '4', parentCode: 'T0002P01' })).code).toBe('403');
    expect((await save(tadmin, { organizationName: '越界', organizationType: '2', parentCode: 'P0001' })).code).toBe('403');
    expect((await server.call('organization.save', { organization: { organizationName: '越界', organizationType: '3', parentCode: 'T0002' } }, { token: tadmin, orgCode: 'T0002' })).code).toBe('403');
    const [{ count }] = await server.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM organization WHERE name LIKE '越界%'`);
    expect(count).toBe(0);
  });

  it('lets platform staff open a tenant under the platform', async () => {
    const reply = await save(admin, { organizationName: '宁波海联物联科技有限公司', organizationType: '2', parentCode: 'P0001' });
    expect(reply.data).toEqual({ organizationCode: 'T0003' });
  });

  it('refuses a type the parent cannot hold ("400"), plain-text names only, and a sibling of the same name ("409")', async () => {
    expect(await save(tadmin, { organizationName: '项目下的部门', organizationType: '6', parentCode: 'T0001P01' })).toEqual({
      code: '400',
      message: '参数错误：organizationType（该上级组织下不能设立此类型的组织）',
      data: null,
    });
    expect((await save(tadmin, { organizationName: '平台', organizationType: '1', parentCode: 'T0001' })).message).toMatch(/^参数错误：organization\.organizationType/);
    expect((await save(tadmin, { organizationName: '<script>x</script>', organizationType: '3', parentCode: 'T0001' })).message).toMatch(/^参数错误：organization\.organizationName/);
    expect((await save(tadmin, { organizationName: '无类型', parentCode: 'T0001' })).message).toMatch(/^参数错误：organization\.organizationType/);
    expect((await save(tadmin, { organizationName: 'x'.repeat(65), organizationType: '3', parentCode: 'T0001' })).code).toBe('400');
    expect(await save(tadmin, { organizationName: '西湖智慧水务项目', organizationType: '3', parentCode: 'T0001' })).toEqual({ code: '409', message: '同一上级组织下已有同名组织', data: null });
  });

  it('needs the button ("403" for the ordinary user)', async () => {
    expect(await save(tuser, { organizationName: '普通用户建的', organizationType: '4', parentCode: 'T0001P01' })).toEqual({ code: '403', message: '无权限访问', data: null });
  });
});

describe('organization.modify', () => {
  it('renames and moves a node within the tenant', async () => {
    const reply = await server.call('organization.modify', { organizationCode: 'T0001P03A01', organization: { organizationName: '长河街道片区', organizationType: '4', parentCode: 'T0001P01A01', sort: 5 } }, { token: tadmin });
    expect(reply.code).toBe('200');
    const detail = await server.call<OrganizationRecord>('organization.detail', { organizationCode: 'T0001P03A01' }, { token: tadmin });
    expect(detail.data).toMatchObject({ organizationName: '长河街道片区', parentCode: 'T0001P01A01', sort: 5 });
  });

  it('refuses another tenant’s node ("404") and a parent outside the tenant ("403")', async () => {
    const param = { organizationCode: 'T0002P01', organization: { organizationName: '改名', organizationType: '3', parentCode: 'T0002' } };
    expect(await server.call('organization.modify', param, { token: tadmin })).toEqual({ code: '404', message: '组织不存在', data: null });
    const away = { organizationCode: 'T0001P03', organization: { organizationName: '滨江智慧照明项目', organizationType: '3', parentCode: 'T0002' } };
    expect((await server.call('organization.modify', away, { token: tadmin })).code).toBe('403');
    const [row] = await server.db.query<{ name: string; parent_code: string }>(`SELECT name, parent_code FROM organization WHERE code = 'T0002P01'`);
    expect(row).toEqual({ name: '太湖水质监测项目', parent_code: 'T0002' });
  });

  it('refuses a move below itself ("400"), a type its children do not suit ("409") and moving the own tenant ("403")', async () => {
    const below = { organizationCode: 'T0001P01A01', organization: { organizationName: '西湖区供水片区', organizationType: '4', parentCode: 'T0001P01A0101' } };
    expect((await server.call('organization.modify', below, { token: tadmin })).message).toBe('参数错误：parentCode（不能选择自己或下级组织）');
    const retype = { organizationCode: 'T0001D01', organization: { organizationName: '运维中心', organizationType: '5', parentCode: 'T0001' } };
    expect(await server.call('organization.modify', retype, { token: tadmin })).toEqual({ code: '409', message: '下级组织的类型与新类型不符', data: null });
    const own = { organizationCode: 'T0001', organization: { organizationName: '杭州云联科技有限公司', organizationType: '3', parentCode: 'P0001' } };
    expect((await server.call('organization.modify', own, { token: tadmin })).code).toBe('403');
    const rename = { organizationCode: 'T0001', organization: { organizationName: '杭州云联科技股份有限公司', organizationType: '2', parentCode: 'P0001' } };
    expect((await server.call('organization.modify', rename, { token: tadmin })).code).toBe('200');
    expect((await server.call('organization.modify', { organizationCode: 'T0001P03', organization: { organizationName: '缺上级', organizationType: '3' } }, { token: tadmin })).code).toBe('400');
  });

  it('needs the button ("403" for the ordinary user)', async () => {
    const param = { organizationCode: 'T0001P01A01', organization: { organizationName: '改名', organizationType: '4', parentCode: 'T0001P01' } };
    expect((await server.call('organization.modify', param, { token: tuser })).code).toBe('403');
  });
});

describe('organization.delete', () => {
  it('refuses a node with children, with users, or the caller’s own ("409")', async () => {
    expect(await server.call('organization.delete', { organizationCode: 'T0001P01' }, { token: tadmin })).toEqual({ code: '409', message: '该组织下还有下级组织，不能删除', data: null });
    const [staffed] = await server.db.query<{ code: string }>(
      `SELECT o.code FROM organization o WHERE o.code LIKE 'T0001%' AND NOT EXISTS (SELECT 1 FROM organization c WHERE c.parent_code = o.code)
          AND EXISTS (SELECT 1 FROM user_organization uo WHERE uo.organization_code = o.code) LIMIT 1`,
    );
    expect(await server.call('organization.delete', { organizationCode: staffed.code }, { token: tadmin })).toEqual({ code: '409', message: '该组织下还有用户，不能删除', data: null });
    expect((await server.call('organization.delete', { organizationCode: 'T0001' }, { token: tadmin })).code).toBe('409');
  });

  it('refuses another tenant’s node ("404") and callers without the button ("403")', async () => {
    expect(await server.call('organization.delete', { organizationCode: 'T0002V01' }, { token: tadmin })).toEqual({ code: '404', message: '组织不存在', data: null });
    expect((await server.call('organization.delete', { organizationCode: 'T0001P03' }, { token: tuser })).code).toBe('403');
    expect((await server.call('organization.delete', {}, { token: tadmin })).code).toBe('400');
  });

  it('deletes an empty node', async () => {
    expect((await server.call('organization.delete', { organizationCode: 'T0001P03A01' }, { token: tadmin })).code).toBe('200');
    expect((await server.call('organization.detail', { organizationCode: 'T0001P03A01' }, { token: tadmin })).code).toBe('404');
  });
});
