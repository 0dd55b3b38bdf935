// Tenants and their regions: platform staff see every tenant, a tenant user only the own tenant
// (and only the regions within the own organisations).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';

interface Tenant {
  tenantCode: string;
  tenantName: string;
  projectCount: number;
  regionCount: number;
  userCount: number;
  createTime: string;
}

interface Region {
  regionCode: string;
  regionName: string;
  parentCode: string;
  parentName: string;
  tenantCode: string;
  tenantName: string;
  projectCode: string;
  projectName: string;
}

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

describe('tenant.list', () => {
  it('shows platform staff every tenant with its projects, regions and users', async () => {
    for (const token of [admin, operator]) {
      const reply = await server.call<Tenant[]>('tenant.list', {}, { token });
      expect(reply.code).toBe('200');
      expect(reply.data!.map((tenant) => [tenant.tenantCode, tenant.tenantName])).toEqual([
        ['T0001', '杭州云联科技有限公司'],
        ['T0002', '苏州智水环境科技有限公司'],
      ]);
      expect(reply.data![0]).toMatchObject({ projectCount: 2, regionCount: 8 });
      expect(reply.data![0].userCount).toBeGreaterThanOrEqual(9);
    }
    const keyword = await server.call<Tenant[]>('tenant.list', { keyword: '苏州' }, { token: admin });
    expect(keyword.data!.map((tenant) => tenant.tenantCode)).toEqual(['T0002']);
  });

  it('shows a tenant user only the own tenant', async () => {
    expect((await server.call<Tenant[]>('tenant.list', {}, { token: tadmin })).data!.map((tenant) => tenant.tenantCode)).toEqual(['T0001']);
    expect((await server.call<Tenant[]>('tenant.list', {}, { token: tuser })).data!.map((tenant) => tenant.tenantCode)).toEqual(['T0001']);
    expect((await server.call<Tenant[]>('tenant.list', {}, { token: badmin })).data!.map((tenant) => tenant.tenantCode)).toEqual(['T0002']);
    expect((await server.call<Tenant[]>('tenant.list', { keyword: '苏州' }, { token: tadmin })).data).toEqual([]);
  });

  it('refuses bad input with "400"', async () => {
    expect((await server.call('tenant.list', { keyword: 'x'.repeat(65) }, { token: admin })).message).toMatch(/^参数错误：keyword/);
    expect((await server.call('tenant.list', { tenantCode: 'T0001' }, { token: admin })).code).toBe('400');
  });
});

describe('tenant.region.list', () => {
  it('lists the regions of every tenant for platform staff, with their project', async () => {
    const reply = await server.call<Region[]>('tenant.region.list', {}, { token: admin });
    expect(reply.code).toBe('200');
    expect(new Set(reply.data!.map((region) => region.tenantCode))).toEqual(new Set(['T0001', 'T0002']));
    expect(reply.data!.find((region) => region.regionCode === 'T0001P01A0101')).toEqual({
      regionCode: 'T0001P01A0101',
      regionName: '灵隐加压泵站',
      parentCode: 'T0001P01A01',
      parentName: '西湖区供水片区',
      tenantCode: 'T0001',
      tenantName: '杭州云联科技有限公司',
      projectCode: 'T0001P01',
      projectName: '西湖智慧水务项目',
    });
    const only = await server.call<Region[]>('tenant.region.list', { tenantCode: 'T0002', keyword: '监测' }, { token: admin });
    expect(only.data!.map((region) => region.regionName)).toEqual(['吴中区监测片区', '东山监测点', '光福监测点', '相城区监测片区']);
  });

  it('keeps tenant users to the regions within their organisations', async () => {
    const own = await server.call<Region[]>('tenant.region.list', {}, { token: tadmin });
    expect(own.data!.length).toBe(8);
    expect(own.data!.every((region) => region.tenantCode === 'T0001')).toBe(true);
    const project = await server.call<Region[]>('tenant.region.list', {}, { token: tuser });
    expect(project.data!.every((region) => region.projectCode === 'T0001P01')).toBe(true);
    expect(project.data!.length).toBe(5);
  });

  it('refuses another tenant’s regions ("403") and bad input ("400")', async () => {
    expect(await server.call('tenant.region.list', { tenantCode: 'T0002' }, { token: tadmin })).toEqual({ code: '403', message: '无权访问该组织', data: null });
    expect((await server.call('tenant.region.list', { tenantCode: 42 }, { token: admin })).message).toMatch(/^参数错误：tenantCode/);
  });
});
