// Label configuration (标签配置, issue 7): a tenant's label constants over the platform's and the
// built-in defaults, read by the tenant's staff and set by its admin or platform staff.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';

interface Labels {
  organizationCode: string;
  organizationName: string;
  scope: 'tenant' | 'platform';
  constants: Array<{ key: string; name: string; group: string; defaultValue: string; value: string; customised: boolean }>;
  updateTime: string;
  updatedBy: string;
  [key: string]: unknown;
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

const find = (token: string, param: object = {}, orgCode?: string) => server.call<Labels>('tag.tenantConstant.find', param, { token, orgCode });
const save = (token: string, param: object, orgCode?: string) => server.call<Labels>('tag.tenantConstant.save', param, { token, orgCode });

describe('tag.tenantConstant.find', () => {
  it('answers the tenant’s labels: its own where set, the defaults elsewhere', async () => {
    const reply = await find(tadmin);
    expect(reply.code).toBe('200');
    expect(reply.data).toMatchObject({ organizationCode: 'T0001', organizationName: '杭州云联科技有限公司', scope: 'tenant', updatedBy: '张明' });
    expect(reply.data!.bigScreenTitle).toBe('杭州云联智慧水务监控中心');
    expect(reply.data!.deviceCodeLabel).toBe('设备编码');
    expect(reply.data!.constants.find((c) => c.key === 'deviceAddressLabel')).toEqual({
      key: 'deviceAddressLabel',
      name: '安装位置',
      group: '设备字段',
      defaultValue: '安装位置',
      value: '安装点位',
      customised: true,
    });
    expect(reply.data!.constants).toHaveLength(13);
    // Every member of the tenant reads them (the big screen and the app show them).
    expect((await find(tuser)).data!.bigScreenTitle).toBe('杭州云联智慧水务监控中心');
    expect((await find(badmin)).data).toMatchObject({ organizationCode: 'T0002', deviceCodeLabel: '监测设备编号' });
  });

  it('gives platform staff the platform’s own labels at the root and any tenant’s by code or selection', async () => {
    expect((await find(admin)).data).toMatchObject({ organizationCode: 'P0001', scope: 'platform', platformName: '云联物联网平台' });
    expect((await find(operator, { tenantCode: 'T0002' })).data).toMatchObject({ organizationCode: 'T0002', projectLabel: '监测项目' });
    expect((await find(admin, {}, 'T0001P01')).data!.organizationCode).toBe('T0001');
  });

  it('refuses bad input ("400"), an unknown tenant ("404") and another tenant’s labels ("403")', async () => {
    expect((await find(tadmin, { tenantCode: 42 })).message).toMatch(/^参数错误：tenantCode/);
    expect((await find(tadmin, { other: 1 })).code).toBe('400');
    expect(await find(admin, { tenantCode: 'T9999' })).toEqual({ code: '404', message: '租户不存在', data: null });
    expect(await find(tadmin, { tenantCode: 'T0002' })).toEqual({ code: '403', message: '无权访问该组织', data: null });
    expect((await find(badmin, {}, 'T0001')).code).toBe('403');
  });
});

describe('tag.tenantConstant.save', () => {
  it('saves a label, reads it back, and an empty value goes back to the default', async () => {
    const saved = await save(tadmin, { deviceCodeLabel: ' 表具编号 ', bigScreenTitle: '西湖水务监控中心' });
    expect(saved.code).toBe('200');
    expect(saved.data).toMatchObject({ deviceCodeLabel: '表具编号', bigScreenTitle: '西湖水务监控中心', updatedBy: '张明' });
    expect((await find(tuser)).data!.deviceCodeLabel).toBe('表具编号');
    // The other tenant is untouched.
    expect((await find(badmin)).data!.deviceCodeLabel).toBe('监测设备编号');

    const reset = await save(tadmin, { deviceCodeLabel: '' });
    expect(reset.data!.deviceCodeLabel).toBe('设备编码');
    expect(reset.data!.constants.find((c) => c.key === 'deviceCodeLabel')!.customised).toBe(false);
    const [{ count }] = await server.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM tenant_label_constant WHERE organization_code = 'T0001' AND constant_key = 'deviceCodeLabel'",
    );
    expect(count).toBe(0);
  });

  it('lets the platform set defaults that tenants without their own label inherit', async () => {
    expect((await save(admin, { alarmLabel: '报警' })).data).toMatchObject({ scope: 'platform', alarmLabel: '报警' });
    const tenant = await find(badmin);
    expect(tenant.data!.alarmLabel).toBe('报警');
    expect(tenant.data!.constants.find((c) => c.key === 'alarmLabel')).toMatchObject({ defaultValue: '报警', customised: false });
    // Platform staff set a tenant's own label by code.
    expect((await save(admin, { tenantCode: 'T0002', alarmLabel: '水质告警' })).data!.alarmLabel).toBe('水质告警');
    expect((await find(badmin)).data!.alarmLabel).toBe('水质告警');
  });

  it('refuses markup, an unknown label and a label too long ("400")', async () => {
    expect((await save(tadmin, { bigScreenTitle: '<b>大屏</b>' })).message).toMatch(/^参数错误：bigScreenTitle/);
    expect((await save(tadmin, { colorLabel: '颜色' })).code).toBe('400');
    expect((await save(tadmin, { gatewayLabel: '网'.repeat(17) })).message).toMatch(/^参数错误：gatewayLabel/);
  });

  it('refuses two labels of one group that would read the same ("409")', async () => {
    expect(await save(tadmin, { deviceNameLabel: '设备编码' })).toEqual({
      code: '409',
      message: '标签名称不能重复：设备编码、设备名称都叫“设备编码”',
      data: null,
    });
    expect((await find(tadmin)).data!.deviceNameLabel).toBe('设备名称');
  });

  it('refuses another tenant ("403") and a role without the button ("403")', async () => {
    expect(await save(tadmin, { tenantCode: 'T0002', projectLabel: '项目' })).toEqual({ code: '403', message: '无权访问该组织', data: null });
    expect((await save(badmin, { projectLabel: '工程' }, 'T0001')).code).toBe('403');
    expect(await save(tuser, { projectLabel: '工程' })).toEqual({ code: '403', message: '无权限访问', data: null });
    expect((await save(operator, { projectLabel: '工程' })).code).toBe('403');
    expect((await find(tadmin)).data!.projectLabel).toBe('项目');
  });
});
