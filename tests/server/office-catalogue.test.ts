// The catalogue side of the office areas (issue 6): 项目区域 (areas inside a tenant's projects,
// as organisations of type 4 with their details), 模板管理 (text templates with ${变量}
// placeholders; the platform's are read-only to tenants), 租户配置 (settings over defaults, reset
// to defaults) and 物料管理 (spare parts with stock warnings, exported as a spreadsheet). Every
// operation: a happy path, invalid input ("400"), another tenant's record refused, a state that
// refuses the action ("409"), and a role without the button refused ("403").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';
import { column, exportSheet, pageCall } from './devices-maintenance-helpers';

let server: TestServer;
let tadmin: string;
let badmin: string;
let tuser: string;
let repair: string;
let admin: string;
let operator: string;

beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin, tuser, repair, admin, operator] = await Promise.all([
    server.login('tadmin'),
    server.login('badmin'),
    server.login('tuser'),
    server.login('repair'),
    server.login('admin', ADMIN_PASSWORD),
    server.login('operator'),
  ]);
});
afterAll(() => server.close());

interface AreaRecord {
  code: string;
  name: string;
  parentCode: string;
  projectCode: string;
  projectName: string;
  fullName: string;
  areaType: string;
  managerName: string;
  managerPhone: string;
  address: string;
  deviceCount: number;
  childCount: number;
  canDelete: boolean;
}

const area = (overrides: Record<string, unknown> = {}) => ({
  name: '转塘加压泵站',
  parentCode: 'T0001P01A01',
  areaType: 'station',
  managerName: '沈立新',
  managerPhone: '13912345678',
  address: '浙江省杭州市西湖区转塘街道',
  longitude: 120.085,
  latitude: 30.165,
  acreage: 1200.5,
  remark: '二级加压',
  ...overrides,
});

describe('project.area.page / list / detail', () => {
  it('lists the scope\'s areas with their project, kind and counts', async () => {
    const reply = await pageCall<AreaRecord>(server, 'project.area.page', tadmin, {}, { pageSize: 100 });
    expect(reply.code).toBe('200');
    const [count] = await column<number>(server, "SELECT count(*)::int AS value FROM organization WHERE type = 4 AND code LIKE 'T0001%'");
    expect(reply.data.total).toBe(count);
    expect(reply.data.records.every((r) => r.code.startsWith('T0001P'))).toBe(true);
    const station = reply.data.records.find((r) => r.code === 'T0001P01A0101')!;
    expect(station).toMatchObject({ name: '灵隐加压泵站', areaType: 'station', projectCode: 'T0001P01', projectName: '西湖智慧水务项目', parentCode: 'T0001P01A01' });
    expect(station.fullName).toBe('西湖智慧水务项目 / 西湖区供水片区 / 灵隐加压泵站');
    expect(station.managerName).not.toBe('');
    const [devices] = await column<number>(server, "SELECT count(*)::int AS value FROM device WHERE organization_code = 'T0001P01A0101' AND deleted_at IS NULL");
    expect(station.deviceCount).toBe(devices);
    const district = await pageCall<AreaRecord>(server, 'project.area.page', tadmin, { areaType: 'district', projectCode: 'T0001P01' });
    expect(district.data.records.map((r) => r.code).sort()).toEqual(['T0001P01A01', 'T0001P01A02']);
    expect((await pageCall<AreaRecord>(server, 'project.area.page', tadmin, { keyword: '龙井' })).data.records.map((r) => r.code)).toEqual(['T0001P01A0102']);
    // 苏州智水 sees its own areas only; an ordinary user those below his project.
    const theirs = await pageCall<AreaRecord>(server, 'project.area.page', badmin, {}, { pageSize: 100 });
    expect(theirs.data.records.length).toBeGreaterThan(0);
    expect(theirs.data.records.every((r) => r.code.startsWith('T0002'))).toBe(true);
    const mine = await pageCall<AreaRecord>(server, 'project.area.page', tuser, {}, { pageSize: 100 });
    expect(mine.data.records.every((r) => r.projectCode === 'T0001P01')).toBe(true);
  });

  it('refuses a bad filter', async () => {
    expect(await pageCall(server, 'project.area.page', tadmin, { areaType: 'moon' })).toMatchObject({ code: '400' });
    expect((await pageCall(server, 'project.area.page', tadmin, { extra: 1 })).code).toBe('400');
  });

  it('lists areas for pickers and details one, never another tenant\'s', async () => {
    const list = await server.call<Array<{ code: string; fullName: string }>>('project.area.list', { projectCode: 'T0001P02' }, { token: tadmin });
    expect(list.data!.map((r) => r.code)).toEqual(['T0001P02A01', 'T0001P02A0101', 'T0001P02A02']);
    expect(list.data![0].fullName).toBe('钱塘智慧园区项目 / 下沙园区');
    expect((await server.call('project.area.list', { projectCode: 'T0001P02' }, { token: badmin })).data).toEqual([]);
    expect((await server.call('project.area.list', { keyword: 'x'.repeat(65) }, { token: tadmin })).code).toBe('400');
    const detail = await server.call<AreaRecord>('project.area.detail', { code: 'T0001P02A0101' }, { token: tadmin });
    expect(detail.data).toMatchObject({ name: '一号厂房', areaType: 'building', projectName: '钱塘智慧园区项目' });
    expect(await server.call('project.area.detail', { code: 'T0001P02A0101' }, { token: badmin })).toMatchObject({ code: '404', message: '区域不存在' });
    // A project is no area.
    expect((await server.call('project.area.detail', { code: 'T0001P01' }, { token: tadmin })).code).toBe('404');
    expect((await server.call('project.area.detail', { code: 'T0001 P01' }, { token: tadmin })).code).toBe('400');
  });
});

describe('project.area.insert / modify / delete', () => {
  it('creates an area below an area, with the next code, as an organisation of type 4', async () => {
    const reply = await server.call<{ code: string }>('project.area.insert', { area: area() }, { token: tadmin });
    expect(reply).toMatchObject({ code: '200', data: { code: 'T0001P01A0103' } });
    const [type] = await column<number>(server, "SELECT type AS value FROM organization WHERE code = 'T0001P01A0103'");
    expect(type).toBe(4);
    const detail = await server.call<AreaRecord>('project.area.detail', { code: 'T0001P01A0103' }, { token: tadmin });
    expect(detail.data).toMatchObject({ name: '转塘加压泵站', areaType: 'station', managerPhone: '13912345678', projectCode: 'T0001P01', deviceCount: 0, canDelete: true });
    // Directly below a project: T0001P02A03.
    const top = await server.call<{ code: string }>('project.area.insert', { area: area({ name: '大江东片区', parentCode: 'T0001P02', areaType: 'district' }) }, { token: tadmin });
    expect(top.data!.code).toBe('T0001P02A03');
    expect(await server.call('project.area.insert', { area: area() }, { token: tadmin })).toMatchObject({ code: '409', message: '同一上级下已有同名区域' });
  });

  it('refuses bad input, a parent that is no project or area, another tenant\'s parent and a role without the button', async () => {
    expect((await server.call('project.area.insert', { area: area({ name: '<b>泵站</b>' }) }, { token: tadmin })).message).toMatch(/^参数错误：area\.name/);
    expect((await server.call('project.area.insert', { area: area({ managerPhone: '12345' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('project.area.insert', { area: area({ areaType: 'lake' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('project.area.insert', { area: { ...area(), extra: 1 } }, { token: tadmin })).code).toBe('400');
    expect(await server.call('project.area.insert', { area: area({ name: '研发片区', parentCode: 'T0001D01' }) }, { token: tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：parentCode（请选择项目或区域）',
    });
    expect(await server.call('project.area.insert', { area: area({ name: '越界片区', parentCode: 'T0002P01' }) }, { token: tadmin })).toMatchObject({ code: '403' });
    expect(await server.call('project.area.insert', { area: area({ name: '普通用户片区' }) }, { token: tuser })).toMatchObject({ code: '403', message: '无权限访问' });
    expect((await server.call('project.area.insert', { area: area({ name: '维修片区' }) }, { token: repair })).code).toBe('403');
  });

  it('renames an area and rewrites its details, but never moves it', async () => {
    const reply = await server.call('project.area.modify', { code: 'T0001P02A02', area: area({ name: '江东新区园区', parentCode: 'T0001P02', areaType: 'plant', managerName: '钱海峰' }) }, { token: tadmin });
    expect(reply.code).toBe('200');
    const detail = await server.call<AreaRecord>('project.area.detail', { code: 'T0001P02A02' }, { token: tadmin });
    expect(detail.data).toMatchObject({ name: '江东新区园区', managerName: '钱海峰', areaType: 'plant' });
    expect(await server.call('project.area.modify', { code: 'T0001P02A02', area: area({ name: '江东新区园区', parentCode: 'T0001P01' }) }, { token: tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：parentCode（区域不能移动，请在组织管理中调整）',
    });
    expect((await server.call('project.area.modify', { code: 'T0001P02A02', area: area({ name: '' , parentCode: 'T0001P02' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('project.area.modify', { code: 'T0001P02A02', area: area({ name: '下沙园区', parentCode: 'T0001P02' }) }, { token: tadmin })).code).toBe('409');
    expect(await server.call('project.area.modify', { code: 'T0001P02A02', area: area({ name: '抢注', parentCode: 'T0001P02' }) }, { token: badmin })).toMatchObject({ code: '404' });
    expect((await server.call('project.area.modify', { code: 'T0001P02A02', area: area({ parentCode: 'T0001P02' }) }, { token: tuser })).code).toBe('403');
  });

  it('deletes an empty area, refuses one with sub-areas or devices, another tenant\'s and a role without the button', async () => {
    const created = await server.call<{ code: string }>('project.area.insert', { area: area({ name: '临时施工区', parentCode: 'T0001P02A01', areaType: 'plant' }) }, { token: tadmin });
    const code = created.data!.code;
    expect(await server.call('project.area.delete', { code }, { token: badmin })).toMatchObject({ code: '404' });
    expect((await server.call('project.area.delete', { code }, { token: tuser })).code).toBe('403');
    expect(await server.call('project.area.delete', { code: 'T0001P01A01' }, { token: tadmin })).toMatchObject({ code: '409', message: '该区域下还有下级区域，不能删除' });
    const [withDevices] = await column<string>(
      server,
      "SELECT o.code AS value FROM organization o WHERE o.type = 4 AND o.code LIKE 'T0001%' AND NOT EXISTS (SELECT 1 FROM organization c WHERE c.parent_code = o.code) AND EXISTS (SELECT 1 FROM device d WHERE d.organization_code = o.code) ORDER BY o.code LIMIT 1",
    );
    expect(await server.call('project.area.delete', { code: withDevices }, { token: tadmin })).toMatchObject({ code: '409', message: '该区域下还有设备，不能删除' });
    expect((await server.call('project.area.delete', { code: 'T0001P0/' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('project.area.delete', { code }, { token: tadmin })).code).toBe('200');
    expect(await column(server, 'SELECT code AS value FROM organization WHERE code = $1', [code])).toEqual([]);
    expect(await column(server, 'SELECT organization_code AS value FROM project_area WHERE organization_code = $1', [code])).toEqual([]);
    expect((await server.call('project.area.delete', { code }, { token: tadmin })).code).toBe('404');
  });
});

interface TemplateRecord {
  id: number;
  type: string;
  name: string;
  content: string;
  variables: string[];
  enabled: boolean;
  ownerName: string;
  canModify: boolean;
}

const template = (overrides: Record<string, unknown> = {}) => ({ type: 'message', name: '表井积水提醒', content: '${区域名称}表井积水，请于${截止时间}前抽排。', enabled: true, remark: '雨季使用', ...overrides });

describe('template.page / list / detail', () => {
  it('lists the tenant\'s own templates and the platform\'s (read-only), with their placeholders', async () => {
    const reply = await pageCall<TemplateRecord>(server, 'template.page', tadmin, {}, { pageSize: 100 });
    expect(reply.code).toBe('200');
    const owners = new Set(reply.data.records.map((r) => r.ownerName));
    expect([...owners].sort()).toEqual(['平台通用', '杭州云联科技有限公司']);
    const platform = reply.data.records.find((r) => r.name === '工单派发通知')!;
    expect(platform).toMatchObject({ ownerName: '平台通用', canModify: false, variables: ['工单类型', '工单编号', '工单标题', '截止时间'] });
    expect(reply.data.records.find((r) => r.name === '水表更换作业单')).toMatchObject({ canModify: true, type: 'work_order' });
    const theirs = await pageCall<TemplateRecord>(server, 'template.page', badmin, {}, { pageSize: 100 });
    expect(theirs.data.records.some((r) => r.ownerName === '杭州云联科技有限公司')).toBe(false);
    expect(theirs.data.records.some((r) => r.name === '水质超标告警')).toBe(true);
    const disabled = await pageCall<TemplateRecord>(server, 'template.page', tadmin, { enabled: '0' });
    expect(disabled.data.records.map((r) => r.name)).toEqual(['停水通知（旧版）']);
    // Platform staff at the root manage the platform's templates.
    const root = await pageCall<TemplateRecord>(server, 'template.page', admin, { keyword: '工单派发通知' });
    expect(root.data.records[0].canModify).toBe(true);
    expect((await pageCall(server, 'template.page', tadmin, { type: 'letter' })).code).toBe('400');
  });

  it('lists the enabled templates of a type for pickers, and details one', async () => {
    const list = await server.call<Array<{ id: number; name: string; type: string }>>('template.list', { type: 'work_order' }, { token: tadmin });
    expect(list.data!.length).toBeGreaterThan(3);
    expect(list.data!.every((r) => r.type === 'work_order')).toBe(true);
    expect((await server.call<Array<{ name: string }>>('template.list', {}, { token: tadmin })).data!.some((r) => r.name === '停水通知（旧版）')).toBe(false);
    expect((await server.call('template.list', { enabled: '0' }, { token: tadmin })).code).toBe('400');
    const [own] = await column<number>(server, "SELECT id AS value FROM text_template WHERE tenant_code = 'T0001' ORDER BY id LIMIT 1");
    expect((await server.call<TemplateRecord>('template.detail', { id: own }, { token: tadmin })).data).toMatchObject({ id: own, canModify: true });
    expect(await server.call('template.detail', { id: own }, { token: badmin })).toMatchObject({ code: '404', message: '模板不存在' });
    expect((await server.call('template.detail', { id: 'one' }, { token: tadmin })).code).toBe('400');
  });
});

describe('template.insert / modify / delete', () => {
  it('creates a tenant template, checking its placeholders and its name within the type', async () => {
    const reply = await server.call<{ id: number }>('template.insert', { template: template() }, { token: tadmin });
    expect(reply.code).toBe('200');
    const detail = await server.call<TemplateRecord>('template.detail', { id: reply.data!.id }, { token: tadmin });
    expect(detail.data).toMatchObject({ ownerName: '杭州云联科技有限公司', variables: ['区域名称', '截止时间'], canModify: true });
    expect(await server.call('template.insert', { template: template() }, { token: tadmin })).toMatchObject({ code: '409', message: '同类模板中已有同名模板' });
    // The same name is free in another type and another tenant.
    expect((await server.call('template.insert', { template: template({ type: 'work_order' }) }, { token: tadmin })).code).toBe('200');
    expect((await server.call('template.insert', { template: template() }, { token: badmin })).code).toBe('200');
  });

  it('refuses broken placeholders, markup, extra fields and a role without the button', async () => {
    expect(await server.call('template.insert', { template: template({ name: '坏占位符', content: '设备${设备名称 已离线' }) }, { token: tadmin })).toMatchObject({
      code: '400',
      message: '参数错误：content（占位符格式应为 ${变量名}）',
    });
    expect((await server.call('template.insert', { template: template({ name: '空变量', content: '设备${}离线' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('template.insert', { template: template({ name: '脚本', content: '<script>alert(1)</script>' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('template.insert', { template: { ...template({ name: '多余' }), channel: 'sms' } }, { token: tadmin })).code).toBe('400');
    expect((await server.call('template.insert', { template: template({ name: '普通用户模板' }) }, { token: tuser })).code).toBe('403');
  });

  it('changes a tenant\'s own template, never the platform\'s or another tenant\'s', async () => {
    const [own] = await column<number>(server, "SELECT id AS value FROM text_template WHERE tenant_code = 'T0001' AND name = '维修完成回访短信'");
    const [platform] = await column<number>(server, "SELECT id AS value FROM text_template WHERE tenant_code IS NULL AND name = '巡检任务提醒'");
    const changed = template({ name: '维修完成回访短信', content: '您反映的${故障现象}已处理完毕，如有问题请致电${服务电话}。', enabled: false });
    expect((await server.call('template.modify', { id: own, template: changed }, { token: tadmin })).code).toBe('200');
    expect((await server.call<TemplateRecord>('template.detail', { id: own }, { token: tadmin })).data).toMatchObject({ enabled: false, variables: ['故障现象', '服务电话'] });
    expect(await server.call('template.modify', { id: platform, template: changed }, { token: tadmin })).toMatchObject({ code: '403', message: '平台通用模板不能修改或删除' });
    expect((await server.call('template.modify', { id: own, template: changed }, { token: badmin })).code).toBe('404');
    expect((await server.call('template.modify', { id: own, template: template({ name: '低电量批量提醒' }) }, { token: tadmin })).code).toBe('409');
    expect((await server.call('template.modify', { id: own, template: template({ content: '${' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('template.modify', { id: own, template: changed }, { token: tuser })).code).toBe('403');
    // Platform staff at the root change the platform's.
    expect((await server.call('template.modify', { id: platform, template: template({ name: '巡检任务提醒', content: '巡检任务${任务名称}即将开始。' }) }, { token: admin })).code).toBe('200');
  });

  it('deletes a tenant\'s own template only', async () => {
    const [own] = await column<number>(server, "SELECT id AS value FROM text_template WHERE tenant_code = 'T0001' AND name = '勘察结论'");
    const [platform] = await column<number>(server, "SELECT id AS value FROM text_template WHERE tenant_code IS NULL AND name = '设备离线通知'");
    expect((await server.call('template.delete', { id: own }, { token: badmin })).code).toBe('404');
    expect((await server.call('template.delete', { id: own }, { token: tuser })).code).toBe('403');
    expect((await server.call('template.delete', { id: platform }, { token: tadmin })).code).toBe('403');
    expect((await server.call('template.delete', { id: -1 }, { token: tadmin })).code).toBe('400');
    expect((await server.call('template.delete', { id: own }, { token: tadmin })).code).toBe('200');
    expect((await server.call('template.delete', { id: own }, { token: tadmin })).code).toBe('404');
  });
});

interface TenantConfig {
  tenantCode: string;
  tenantName: string;
  alarmNotifyChannels: string[];
  workOrderTimeoutHours: number;
  patrolCycleDays: number;
  screenTitle: string;
  dataRetentionDays: number;
  lowBatteryPercent: number;
  customizedKeys: string[];
  customizedCount: number;
  updatedBy: string;
}

describe('tenant.config.page / get / save / reset', () => {
  it('lists the scope\'s tenants with their settings over the defaults', async () => {
    const own = await pageCall<TenantConfig>(server, 'tenant.config.page', tadmin);
    expect(own.data.records).toHaveLength(1);
    expect(own.data.records[0]).toMatchObject({
      tenantCode: 'T0001',
      tenantName: '杭州云联科技有限公司',
      screenTitle: '杭州云联智慧水务监控中心',
      workOrderTimeoutHours: 24,
      patrolCycleDays: 30,
      dataRetentionDays: 365,
      updatedBy: 'tadmin',
    });
    expect(own.data.records[0].customizedKeys.sort()).toEqual(['alarmNotifyChannels', 'screenTitle', 'workOrderTimeoutHours']);
    const all = await pageCall<TenantConfig>(server, 'tenant.config.page', admin);
    expect(all.data.records.map((r) => r.tenantCode)).toEqual(['T0001', 'T0002']);
    expect(all.data.records[1]).toMatchObject({ patrolCycleDays: 15, alarmNotifyChannels: ['feishu', 'sms'] });
    expect((await pageCall<TenantConfig>(server, 'tenant.config.page', admin, { keyword: '苏州' })).data.records.map((r) => r.tenantCode)).toEqual(['T0002']);
    expect((await pageCall(server, 'tenant.config.page', tadmin, { tenantCode: 'T0001' })).code).toBe('400');
  });

  it('gets the caller\'s own tenant or one of the scope, with the defaults', async () => {
    const own = await server.call<TenantConfig & { defaults: Record<string, unknown> }>('tenant.config.get', {}, { token: tadmin });
    expect(own.data).toMatchObject({ tenantCode: 'T0001', workOrderTimeoutHours: 24 });
    expect(own.data!.defaults).toMatchObject({ workOrderTimeoutHours: 48, screenTitle: '物联网设备监控大屏' });
    expect((await server.call<TenantConfig>('tenant.config.get', { tenantCode: 'T0002' }, { token: admin })).data).toMatchObject({ tenantCode: 'T0002', patrolCycleDays: 15 });
    expect(await server.call('tenant.config.get', { tenantCode: 'T0001' }, { token: badmin })).toMatchObject({ code: '404', message: '租户不存在' });
    expect(await server.call('tenant.config.get', {}, { token: admin })).toMatchObject({ code: '400', message: '请选择租户' });
    expect((await server.call('tenant.config.get', { tenantCode: 'T0001;' }, { token: tadmin })).code).toBe('400');
  });

  it('saves changed settings; a value equal to the default drops the override', async () => {
    const saved = await server.call<TenantConfig>('tenant.config.save', { tenantCode: 'T0001', config: { patrolCycleDays: 7, screenTitle: ' 云联运维大屏 ', workOrderTimeoutHours: 48 } }, { token: admin });
    expect(saved.data).toMatchObject({ patrolCycleDays: 7, screenTitle: '云联运维大屏', workOrderTimeoutHours: 48 });
    const keys = await column<string>(server, "SELECT key AS value FROM tenant_setting WHERE tenant_code = 'T0001' ORDER BY key");
    expect(keys).toEqual(['alarmNotifyChannels', 'patrolCycleDays', 'screenTitle']);
    expect((await pageCall<TenantConfig>(server, 'tenant.config.page', tadmin)).data.records[0]).toMatchObject({ patrolCycleDays: 7, updatedBy: 'admin' });
    expect((await server.call<TenantConfig>('tenant.config.save', { tenantCode: 'T0002', config: { dataRetentionDays: 730 } }, { token: admin })).data).toMatchObject({ dataRetentionDays: 730 });
    // 平台运营 saves too; at a tenant the platform staff selected, the tenant is implied.
    expect((await server.call('tenant.config.save', { tenantCode: 'T0002', config: { dataRetentionDays: 90 } }, { token: operator })).code).toBe('200');
    expect((await server.call<TenantConfig>('tenant.config.save', { config: { lowBatteryPercent: 25 } }, { token: admin, orgCode: 'T0002' })).data).toMatchObject({ lowBatteryPercent: 25 });
    expect(await server.call('tenant.config.save', { config: { lowBatteryPercent: 25 } }, { token: admin })).toMatchObject({ code: '400', message: '请选择租户' });
  });

  it('refuses out-of-range settings, unknown keys, a tenant outside the scope and a role without the button', async () => {
    const save = (config: unknown) => server.call('tenant.config.save', { tenantCode: 'T0001', config }, { token: admin });
    expect((await save({ workOrderTimeoutHours: 0 })).message).toMatch(/^参数错误：config\.workOrderTimeoutHours/);
    expect((await save({ dataRetentionDays: 7 })).code).toBe('400');
    expect((await save({ alarmNotifyChannels: ['pigeon'] })).code).toBe('400');
    expect((await save({ alarmNotifyChannels: [] })).code).toBe('400');
    expect((await save({ screenTitle: '<h1>大屏</h1>' })).code).toBe('400');
    expect((await save({ theme: 'dark' })).code).toBe('400');
    expect((await save({})).code).toBe('400');
    // Platform staff who selected the other tenant do not reach this one.
    expect(await server.call('tenant.config.save', { tenantCode: 'T0001', config: { patrolCycleDays: 1 } }, { token: admin, orgCode: 'T0002' })).toMatchObject({ code: '404', message: '租户不存在' });
    // Tenant admins read their settings (tenant.config.page / get) but the menu's buttons are the platform's.
    expect(await server.call('tenant.config.save', { config: { patrolCycleDays: 1 } }, { token: tadmin })).toMatchObject({ code: '403', message: '无权限访问' });
    expect((await server.call('tenant.config.save', { tenantCode: 'T0001', config: { patrolCycleDays: 1 } }, { token: badmin })).code).toBe('403');
  });

  it('resets some or all settings to the defaults', async () => {
    await server.call('tenant.config.save', { tenantCode: 'T0001', config: { lowBatteryPercent: 15, patrolCycleDays: 10 } }, { token: admin });
    const some = await server.call<TenantConfig>('tenant.config.reset', { tenantCode: 'T0001', keys: ['lowBatteryPercent'] }, { token: admin });
    expect(some.data).toMatchObject({ lowBatteryPercent: 20, patrolCycleDays: 10 });
    const all = await server.call<TenantConfig>('tenant.config.reset', { tenantCode: 'T0001' }, { token: admin });
    expect(all.data).toMatchObject({ patrolCycleDays: 30, screenTitle: '物联网设备监控大屏', workOrderTimeoutHours: 48, alarmNotifyChannels: ['sms', 'wechat'] });
    expect(await column(server, "SELECT key AS value FROM tenant_setting WHERE tenant_code = 'T0001'")).toEqual([]);
    expect((await server.call('tenant.config.reset', { tenantCode: 'T0001', keys: ['theme'] }, { token: admin })).code).toBe('400');
    expect((await server.call('tenant.config.reset', { tenantCode: 'T0009' }, { token: admin })).code).toBe('404');
    expect((await server.call('tenant.config.reset', { tenantCode: 'T0001' }, { token: admin, orgCode: 'T0002' })).code).toBe('404');
    expect((await server.call('tenant.config.reset', {}, { token: tadmin })).code).toBe('403');
    // 平台运营 may save but not reset.
    expect((await server.call('tenant.config.reset', { tenantCode: 'T0002' }, { token: operator })).code).toBe('403');
  });
});

interface MaterialRecord {
  id: number;
  code: string;
  name: string;
  type: string;
  unit: string;
  stock: number;
  warningLevel: number;
  lowStock: boolean;
  unitPrice: number | null;
  stockValue: number | null;
  tenantName: string;
}

const material = (overrides: Record<string, unknown> = {}) => ({
  code: 'WL-ACC-101',
  name: '超声波换能器',
  type: 'accessory',
  specification: 'DN50 1MHz',
  unit: '对',
  stock: 12,
  warningLevel: 4,
  unitPrice: 380.5,
  supplier: '宁波智联传感科技有限公司',
  location: '运维中心一号仓 A 区',
  remark: '',
  ...overrides,
});

describe('material.page / detail / export', () => {
  it('lists the tenant\'s materials, the ones below their warning level on request', async () => {
    const reply = await pageCall<MaterialRecord>(server, 'material.page', tadmin, {}, { pageSize: 100 });
    const [count] = await column<number>(server, "SELECT count(*)::int AS value FROM material WHERE tenant_code = 'T0001'");
    expect(reply.data.total).toBe(count);
    expect(count).toBeGreaterThan(30);
    const battery = reply.data.records.find((r) => r.name === '锂亚电池')!;
    expect(battery).toMatchObject({ code: 'WL-ACC-001', unit: '只', unitPrice: 45, type: 'accessory' });
    expect(battery.stockValue).toBe(Math.round(45 * battery.stock * 100) / 100);
    const low = await pageCall<MaterialRecord>(server, 'material.page', tadmin, { lowStock: '1' }, { pageSize: 100 });
    expect(low.data.total).toBeGreaterThan(0);
    expect(low.data.records.every((r) => r.lowStock && r.stock <= r.warningLevel)).toBe(true);
    const tools = await pageCall<MaterialRecord>(server, 'material.page', tuser, { type: 'tool' }, { sort: [{ field: 'stock', order: 'desc' }] });
    expect(tools.data.records.every((r) => r.type === 'tool')).toBe(true);
    const stocks = tools.data.records.map((r) => r.stock);
    expect(stocks).toEqual([...stocks].sort((a, b) => b - a));
    expect((await pageCall<MaterialRecord>(server, 'material.page', badmin, {}, { pageSize: 100 })).data.records.every((r) => r.tenantName === '苏州智水环境科技有限公司')).toBe(true);
    expect((await pageCall(server, 'material.page', tadmin, { type: 'food' })).code).toBe('400');
  });

  it('details a material of the tenant only', async () => {
    const [id] = await column<number>(server, "SELECT id AS value FROM material WHERE tenant_code = 'T0001' ORDER BY id LIMIT 1");
    expect((await server.call<MaterialRecord>('material.detail', { id }, { token: tadmin })).data).toMatchObject({ id });
    expect(await server.call('material.detail', { id }, { token: badmin })).toMatchObject({ code: '404', message: '物料不存在' });
    expect((await server.call('material.detail', {}, { token: tadmin })).code).toBe('400');
  });

  it('exports the filtered materials as a spreadsheet, for a role holding the button only', async () => {
    const sheet = await exportSheet(server, 'material.export', tadmin, { lowStock: '1' });
    expect(sheet.fileName).toMatch(/^物料清单-\d{8}\.xlsx$/);
    expect(sheet.rows[0]).toEqual(['物料编码', '物料名称', '物料类型', '规格型号', '单位', '库存', '预警库存', '库存状态', '单价（元）', '供应商', '存放位置', '所属租户', '更新时间']);
    const low = await pageCall<MaterialRecord>(server, 'material.page', tadmin, { lowStock: '1' }, { pageSize: 100 });
    expect(sheet.rows).toHaveLength(low.data.total + 1);
    expect(sheet.rows.slice(1).every((row) => row[7] === '低于预警' && row[11] === '杭州云联科技有限公司')).toBe(true);
    expect((await exportSheet(server, 'material.export', tuser, {})).rows.length).toBeGreaterThan(1);
    const refused = await server.call('material.export', {}, { token: repair });
    expect(refused.code).toBe('403');
    expect((await server.call('material.export', { lowStock: 'maybe' }, { token: tadmin })).code).toBe('400');
  });
});

describe('material.insert / modify / delete', () => {
  it('creates a material with a code unique within the tenant', async () => {
    const reply = await server.call<{ id: number }>('material.insert', { material: material() }, { token: tadmin });
    expect(reply.code).toBe('200');
    const detail = await server.call<MaterialRecord>('material.detail', { id: reply.data!.id }, { token: tadmin });
    expect(detail.data).toMatchObject({ code: 'WL-ACC-101', stock: 12, warningLevel: 4, lowStock: false, unitPrice: 380.5, stockValue: 4566 });
    expect(await server.call('material.insert', { material: material() }, { token: tadmin })).toMatchObject({ code: '409', message: '物料编码已存在' });
    expect((await server.call('material.insert', { material: material() }, { token: badmin })).code).toBe('200');
    // Platform staff at the root must pick a tenant first.
    expect(await server.call('material.insert', { material: material({ code: 'WL-ROOT-1' }) }, { token: admin })).toMatchObject({ code: '400', message: '请先在组织切换中选择租户' });
  });

  it('refuses bad input and a role without the button', async () => {
    expect((await server.call('material.insert', { material: material({ code: 'WL ACC 1' }) }, { token: tadmin })).message).toMatch(/^参数错误：material\.code/);
    expect((await server.call('material.insert', { material: material({ code: 'WL-X-1', stock: -1 }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('material.insert', { material: material({ code: 'WL-X-2', unit: '' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('material.insert', { material: material({ code: 'WL-X-3', type: 'food' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('material.insert', { material: { ...material({ code: 'WL-X-4' }), color: 'red' } }, { token: tadmin })).code).toBe('400');
    expect((await server.call('material.insert', { material: material({ code: 'WL-X-5' }) }, { token: tuser })).code).toBe('403');
  });

  it('changes a material\'s stock and warning level, never another tenant\'s', async () => {
    const [id] = await column<number>(server, "SELECT id AS value FROM material WHERE tenant_code = 'T0001' AND code = 'WL-ACC-002'");
    const reply = await server.call('material.modify', { id, material: material({ code: 'WL-ACC-002', name: 'NB-IoT 通信模组', stock: 3, warningLevel: 20 }) }, { token: tadmin });
    expect(reply.code).toBe('200');
    expect((await server.call<MaterialRecord>('material.detail', { id }, { token: tadmin })).data).toMatchObject({ stock: 3, warningLevel: 20, lowStock: true });
    expect(await server.call('material.modify', { id, material: material({ code: 'WL-ACC-001' }) }, { token: tadmin })).toMatchObject({ code: '409', message: '物料编码已存在' });
    expect((await server.call('material.modify', { id, material: material({ code: 'WL-ACC-002' }) }, { token: badmin })).code).toBe('404');
    expect((await server.call('material.modify', { id, material: material({ code: 'WL-ACC-002', warningLevel: 'ten' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('material.modify', { id, material: material({ code: 'WL-ACC-002' }) }, { token: tuser })).code).toBe('403');
  });

  it('deletes a material of the tenant only', async () => {
    const [id] = await column<number>(server, "SELECT id AS value FROM material WHERE tenant_code = 'T0001' AND code = 'WL-TOL-006'");
    expect((await server.call('material.delete', { id }, { token: badmin })).code).toBe('404');
    expect((await server.call('material.delete', { id }, { token: tuser })).code).toBe('403');
    expect((await server.call('material.delete', { id: 0 }, { token: tadmin })).code).toBe('400');
    expect((await server.call('material.delete', { id }, { token: tadmin })).code).toBe('200');
    expect((await server.call('material.delete', { id }, { token: tadmin })).code).toBe('404');
  });
});
