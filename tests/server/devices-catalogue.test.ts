// The product catalogue (产品管理): products, categories and device settings. The platform's shared
// catalogue is read-only for tenant staff ("403"); a tenant's own entries are invisible to other
// tenants ("404"); a product or category in use cannot be deleted; device settings of a shared
// product are the tenant's own and leave the platform's defaults and other tenants alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';

interface Page<T> {
  records: T[];
  total: number;
  pageNumber: number;
  pageSize: number;
}

interface Product {
  code: string;
  name: string;
  model: string;
  categoryCode: string;
  categoryName: string;
  ownerType: 'platform' | 'tenant';
  tenantCode: string;
  nodeType: string;
  protocol: string;
  batteryPowered: boolean;
  deviceCount: number;
  onlineCount: number;
  editable: boolean;
  settings: Record<string, number>;
  settingsSource: 'product' | 'tenant';
}

interface Category {
  categoryCode: string;
  categoryName: string;
  parentCode: string;
  ownerType: 'platform' | 'tenant';
  productCount: number;
  childCount: number;
  editable: boolean;
}

interface CategoryNode {
  categoryCode: string;
  categoryName: string;
  children: CategoryNode[];
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

const newProduct = (code: string, extra: Record<string, unknown> = {}) => ({
  code,
  name: '智能远传水表（定制）',
  model: 'HZ-WM300',
  categoryCode: 'C0101',
  protocol: 'coap',
  nodeType: 'direct',
  batteryPowered: true,
  manufacturer: '杭州云联',
  description: '租户定制的远传水表',
  ...extra,
});

async function liveDevices(tenantCode: string): Promise<number> {
  const [row] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM device WHERE tenant_code = $1 AND deleted_at IS NULL', [tenantCode]);
  return row.count;
}

describe('product.page, product.detail and product.list', () => {
  it('shows a tenant admin the shared catalogue, read-only, with the tenant’s own device counts', async () => {
    const reply = await server.call<Page<Product>>('product.page', {}, { token: tadmin });
    expect(reply.code).toBe('200');
    const { records, total } = reply.data!;
    expect(total).toBe(8);
    expect(records.map((p) => p.code)).toContain('PRD-WM-NB');
    expect(records.every((p) => p.ownerType === 'platform' && !p.editable)).toBe(true);
    expect(records.reduce((sum, p) => sum + p.deviceCount, 0)).toBe(await liveDevices('T0001'));
    const water = records.find((p) => p.code === 'PRD-WM-NB')!;
    expect(water).toMatchObject({ categoryName: '水表', nodeType: 'direct', protocol: 'coap', batteryPowered: true });
    expect(water.onlineCount).toBeGreaterThan(0);
    expect(water.onlineCount).toBeLessThan(water.deviceCount);
  });

  it('filters by keyword, category subtree and node type, and sorts by device count', async () => {
    const byKeyword = await server.call<Page<Product>>('product.page', { keyword: 'YL-GW' }, { token: tadmin });
    expect(byKeyword.data!.records.map((p) => p.code)).toEqual(['PRD-GW-4G']);
    const metering = await server.call<Page<Product>>('product.page', { categoryCode: 'C01' }, { token: tadmin });
    expect(metering.data!.records.map((p) => p.code).sort()).toEqual(['PRD-FM-4G', 'PRD-WM-NB']);
    const subDevices = await server.call<Page<Product>>('product.page', { nodeType: 'sub' }, { token: tadmin });
    expect(subDevices.data!.records.map((p) => p.code)).toEqual(['PRD-WQ-MB']);
    const reply = await server.post('/product/_page', { pageParam: { pageNumber: 1, pageSize: 3 }, param: {}, sortParamList: [{ field: 'deviceCount', order: 'desc' }] }, { token: tadmin });
    const counts = (reply.body.data as Page<Product>).records.map((p) => p.deviceCount);
    expect(counts).toHaveLength(3);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    expect((reply.body.data as Page<Product>).records[0].code).toBe('PRD-WM-NB');
  });

  it('counts only the devices of the selected organisation', async () => {
    const whole = await server.call<Page<Product>>('product.page', { keyword: 'PRD-WM-NB' }, { token: tadmin });
    const project = await server.call<Page<Product>>('product.page', { keyword: 'PRD-WM-NB' }, { token: tadmin, orgCode: 'T0001P02' });
    expect(project.data!.records[0].deviceCount).toBeGreaterThan(0);
    expect(project.data!.records[0].deviceCount).toBeLessThan(whole.data!.records[0].deviceCount);
  });

  it('refuses a filter of the wrong shape', async () => {
    expect((await server.call('product.page', { nodeType: 'satellite' }, { token: tadmin })).code).toBe('400');
    expect((await server.call('product.page', { unknown: 1 }, { token: tadmin })).code).toBe('400');
  });

  it('answers a product’s detail with its effective settings', async () => {
    const reply = await server.call<Product>('product.detail', { code: 'PRD-TH-LR' }, { token: tadmin });
    expect(reply.code).toBe('200');
    // T0001 keeps its own settings for the temperature sensor.
    expect(reply.data).toMatchObject({ code: 'PRD-TH-LR', settingsSource: 'tenant', settings: { temperatureHigh: 40 } });
    const platform = await server.call<Product>('product.detail', { code: 'PRD-TH-LR' }, { token: badmin });
    expect(platform.data).toMatchObject({ settingsSource: 'product', settings: { temperatureHigh: 60, reportIntervalMinutes: 60 } });
    expect((await server.call('product.detail', { code: 'PRD-NOPE' }, { token: tadmin })).code).toBe('404');
    expect((await server.call('product.detail', {}, { token: tadmin })).code).toBe('400');
  });

  it('lists products for the selects in the agreed shape', async () => {
    const reply = await server.call<Array<Record<string, unknown>>>('product.list', {}, { token: tadmin });
    expect(reply.code).toBe('200');
    expect(reply.data).toHaveLength(8);
    expect(reply.data![0]).toEqual({ code: expect.any(String), name: expect.any(String), model: expect.any(String), categoryCode: expect.any(String), nodeType: expect.any(String), protocol: expect.any(String) });
    const gateways = await server.call<Array<{ code: string }>>('product.list', { nodeType: 'gateway' }, { token: tadmin });
    expect(gateways.data!.map((p) => p.code)).toEqual(['PRD-GW-4G']);
    expect((await server.call('product.list', { nodeType: 1 }, { token: tadmin })).code).toBe('400');
  });
});

describe('product.insert, product.modify and product.delete', () => {
  it('lets a tenant admin add a product of its own, visible to its tenant only', async () => {
    const reply = await server.call('product.insert', { product: newProduct('HZ-WM-300') }, { token: tadmin });
    expect(reply).toMatchObject({ code: '200', data: { code: 'HZ-WM-300' } });
    const own = await server.call<Product>('product.detail', { code: 'HZ-WM-300' }, { token: tadmin });
    expect(own.data).toMatchObject({ ownerType: 'tenant', tenantCode: 'T0001', editable: true, deviceCount: 0, settingsSource: 'product' });
    expect(own.data!.settings).toEqual({ reportIntervalMinutes: 60, heartbeatMinutes: 240, lowBatteryPercent: 20, temperatureHigh: 60, temperatureLow: -10 });
    const list = await server.call<Array<{ code: string }>>('product.list', {}, { token: tadmin });
    expect(list.data!.map((p) => p.code)).toContain('HZ-WM-300');
    // Another tenant does not know it.
    expect((await server.call('product.detail', { code: 'HZ-WM-300' }, { token: badmin })).code).toBe('404');
    const theirs = await server.call<Array<{ code: string }>>('product.list', {}, { token: badmin });
    expect(theirs.data!.map((p) => p.code)).not.toContain('HZ-WM-300');
    const tenantOnly = await server.call<Page<Product>>('product.page', { ownerType: 'tenant' }, { token: tadmin });
    expect(tenantOnly.data!.records.map((p) => p.code)).toEqual(['HZ-WM-300']);
  });

  it('refuses a taken code, bad fields and a category the tenant cannot use', async () => {
    expect((await server.call('product.insert', { product: newProduct('HZ-WM-300') }, { token: tadmin })).code).toBe('409');
    expect((await server.call('product.insert', { product: newProduct('PRD-WM-NB') }, { token: tadmin })).code).toBe('409');
    expect((await server.call('product.insert', { product: newProduct('bad code!') }, { token: tadmin })).code).toBe('400');
    expect((await server.call('product.insert', { product: newProduct('HZ-X1', { name: '<b>水表</b>' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('product.insert', { product: newProduct('HZ-X1', { protocol: 'lorawan' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('product.insert', { product: newProduct('HZ-X1', { categoryCode: 'NOPE' }) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('product.insert', { product: { code: 'HZ-X1' } }, { token: tadmin })).code).toBe('400');
  });

  it('refuses a user without the 新增 button', async () => {
    expect((await server.call('product.insert', { product: newProduct('HZ-X2') }, { token: tuser })).code).toBe('403');
  });

  it('makes platform staff’s products shared, on shared categories only', async () => {
    const reply = await server.call('product.insert', { product: newProduct('PRD-EM-NB', { name: 'NB-IoT 智能电表', model: 'YL-EM100' }) }, { token: admin });
    expect(reply.code).toBe('200');
    const seen = await server.call<Product>('product.detail', { code: 'PRD-EM-NB' }, { token: badmin });
    expect(seen.data).toMatchObject({ ownerType: 'platform', editable: false });
    await server.call('category.insert', { category: { categoryCode: 'HZ-PIPE', categoryName: '管网设备', parentCode: 'C01' } }, { token: tadmin });
    const onTenantCategory = await server.call('product.insert', { product: newProduct('PRD-X3', { categoryCode: 'HZ-PIPE' }) }, { token: admin });
    expect(onTenantCategory).toMatchObject({ code: '400', message: '平台产品只能使用平台分类' });
    // A tenant may file its product under its own category; another tenant may not.
    expect((await server.call('product.insert', { product: newProduct('HZ-PIPE-01', { categoryCode: 'HZ-PIPE' }) }, { token: tadmin })).code).toBe('200');
    expect((await server.call('product.insert', { product: newProduct('SZ-PIPE-01', { categoryCode: 'HZ-PIPE' }) }, { token: badmin })).code).toBe('400');
  });

  it('lets a tenant edit its product but not the shared ones or another tenant’s', async () => {
    const changed = { ...newProduct('HZ-WM-300'), name: '智能远传水表（二代）', published: false };
    expect((await server.call('product.modify', { code: 'HZ-WM-300', product: changed }, { token: tadmin })).code).toBe('200');
    const after = await server.call<Product & { published: boolean }>('product.detail', { code: 'HZ-WM-300' }, { token: tadmin });
    expect(after.data).toMatchObject({ name: '智能远传水表（二代）', published: false });
    const shared = await server.call('product.modify', { code: 'PRD-WM-NB', product: newProduct('PRD-WM-NB') }, { token: tadmin });
    expect(shared).toMatchObject({ code: '403', message: '平台产品不能修改' });
    expect((await server.call('product.modify', { code: 'HZ-WM-300', product: changed }, { token: badmin })).code).toBe('404');
    expect((await server.call('product.modify', { code: 'HZ-WM-300', product: { ...changed, code: 'HZ-OTHER' } }, { token: tadmin })).code).toBe('400');
    expect((await server.call('product.modify', { code: 'HZ-WM-300', product: { ...changed, model: '' } }, { token: tadmin })).code).toBe('400');
    expect((await server.call('product.modify', { code: 'HZ-WM-300', product: changed }, { token: tuser })).code).toBe('403');
  });

  it('refuses to change the node type of a product with devices', async () => {
    const reply = await server.call('product.modify', { code: 'PRD-WM-NB', product: newProduct('PRD-WM-NB', { categoryCode: 'C0101', nodeType: 'gateway' }) }, { token: admin });
    expect(reply).toMatchObject({ code: '409', message: '该产品下已有设备，不能修改节点类型' });
  });

  it('deletes an unused product, and refuses one devices still use', async () => {
    const used = await server.call('product.delete', { code: 'PRD-WM-NB' }, { token: admin });
    expect(used).toMatchObject({ code: '409', message: '该产品下仍有设备' });
    expect((await server.call('product.delete', { code: 'PRD-WM-NB' }, { token: tadmin })).code).toBe('403');
    expect((await server.call('product.delete', { code: 'HZ-WM-300' }, { token: badmin })).code).toBe('404');
    expect((await server.call('product.delete', { code: 'HZ-WM-300' }, { token: tuser })).code).toBe('403');
    expect((await server.call('product.delete', { code: 42 }, { token: tadmin })).code).toBe('400');
    expect((await server.call('product.delete', { code: 'HZ-WM-300' }, { token: tadmin })).code).toBe('200');
    expect((await server.call('product.detail', { code: 'HZ-WM-300' }, { token: tadmin })).code).toBe('404');
  });
});

describe('product.deviceSetting.get and product.deviceSetting.save', () => {
  const settings = { reportIntervalMinutes: 30, heartbeatMinutes: 180, lowBatteryPercent: 25, temperatureHigh: 55, temperatureLow: -5 };

  it('answers the effective settings of a product for the caller’s tenant', async () => {
    const reply = await server.call<Record<string, unknown>>('product.deviceSetting.get', { productCode: 'PRD-TH-LR' }, { token: tadmin });
    expect(reply.data).toMatchObject({ productCode: 'PRD-TH-LR', productName: '温湿度传感器', settingsSource: 'tenant', reportIntervalMinutes: 30, temperatureHigh: 40, updatedBy: 'tadmin' });
    const defaults = await server.call<Record<string, unknown>>('product.deviceSetting.get', { productCode: 'PRD-FM-4G' }, { token: tadmin });
    expect(defaults.data).toMatchObject({ settingsSource: 'product', reportIntervalMinutes: 5, heartbeatMinutes: 10, batteryPowered: false });
    expect((await server.call('product.deviceSetting.get', { productCode: 'PRD-NOPE' }, { token: tadmin })).code).toBe('404');
    expect((await server.call('product.deviceSetting.get', { productCode: 'HZ-PIPE-01' }, { token: badmin })).code).toBe('404');
    expect((await server.call('product.deviceSetting.get', {}, { token: tadmin })).code).toBe('400');
  });

  it('keeps a tenant’s settings of a shared product to that tenant', async () => {
    const reply = await server.call('product.deviceSetting.save', { productCode: 'PRD-WM-NB', settings }, { token: tadmin });
    expect(reply).toMatchObject({ code: '200', data: { settingsSource: 'tenant' } });
    const own = await server.call<Record<string, unknown>>('product.deviceSetting.get', { productCode: 'PRD-WM-NB' }, { token: tadmin });
    expect(own.data).toMatchObject({ ...settings, settingsSource: 'tenant', updatedBy: 'tadmin' });
    const other = await server.call<Record<string, unknown>>('product.deviceSetting.get', { productCode: 'PRD-WM-NB' }, { token: badmin });
    expect(other.data).toMatchObject({ settingsSource: 'product', reportIntervalMinutes: 60 });
    const [row] = await server.db.query<{ settings: Record<string, number> }>("SELECT settings FROM product WHERE code = 'PRD-WM-NB'");
    expect(row.settings.reportIntervalMinutes).toBe(60);
  });

  it('saves a tenant product’s own settings, and platform staff the shared defaults', async () => {
    expect((await server.call('product.deviceSetting.save', { productCode: 'HZ-PIPE-01', settings }, { token: tadmin })).data).toEqual({ settingsSource: 'product' });
    expect((await server.call<Product>('product.detail', { code: 'HZ-PIPE-01' }, { token: tadmin })).data!.settings).toEqual(settings);
    expect((await server.call('product.deviceSetting.save', { productCode: 'PRD-LV-LR', settings }, { token: admin })).code).toBe('200');
    const seen = await server.call<Record<string, unknown>>('product.deviceSetting.get', { productCode: 'PRD-LV-LR' }, { token: badmin });
    expect(seen.data).toMatchObject({ settingsSource: 'product', heartbeatMinutes: 180 });
  });

  it('refuses settings out of range or contradicting each other', async () => {
    const save = (value: Record<string, unknown>) => server.call('product.deviceSetting.save', { productCode: 'PRD-WM-NB', settings: { ...settings, ...value } }, { token: tadmin });
    expect((await save({ reportIntervalMinutes: 0 })).code).toBe('400');
    expect((await save({ lowBatteryPercent: 90 })).code).toBe('400');
    expect((await save({ temperatureHigh: 300 })).code).toBe('400');
    expect((await save({ heartbeatMinutes: 10 })).message).toBe('心跳周期不能短于上报周期');
    expect((await save({ temperatureLow: 60 })).message).toBe('温度下限须低于温度上限');
    expect((await save({ extra: 1 })).code).toBe('400');
  });

  it('refuses another tenant’s product and a user without the 保存 button', async () => {
    expect((await server.call('product.deviceSetting.save', { productCode: 'HZ-PIPE-01', settings }, { token: badmin })).code).toBe('404');
    expect((await server.call('product.deviceSetting.save', { productCode: 'PRD-WM-NB', settings }, { token: tuser })).code).toBe('403');
  });
});

describe('categories', () => {
  it('pages the shared categories and the tenant’s own, with product counts', async () => {
    const reply = await server.post('/category/_page', { pageParam: { pageNumber: 1, pageSize: 50 }, param: {} }, { token: tadmin }).then((r) => r.body as { code: string; data: Page<Category> });
    expect(reply.code).toBe('200');
    expect(reply.data.total).toBe(11);
    const codes = reply.data!.records.map((c) => c.categoryCode);
    expect(codes).toContain('C0101');
    expect(codes).toContain('HZ-PIPE');
    const water = reply.data!.records.find((c) => c.categoryCode === 'C0101')!;
    expect(water).toMatchObject({ categoryName: '水表', parentCode: 'C01', ownerType: 'platform', editable: false });
    expect(water.productCount).toBeGreaterThanOrEqual(1);
    const theirs = await server.call<Page<Category>>('category.page', {}, { token: badmin });
    expect(theirs.data!.records.map((c) => c.categoryCode)).not.toContain('HZ-PIPE');
    const own = await server.call<Page<Category>>('category.page', { ownerType: 'tenant' }, { token: tadmin });
    expect(own.data!.records.map((c) => c.categoryCode)).toEqual(['HZ-PIPE']);
    const keyword = await server.call<Page<Category>>('category.page', { keyword: '烟感' }, { token: tadmin });
    expect(keyword.data!.records.map((c) => c.categoryCode)).toEqual(['C0301']);
    expect((await server.call('category.page', { ownerType: 'everyone' }, { token: tadmin })).code).toBe('400');
  });

  it('answers a category’s detail, not another tenant’s', async () => {
    const reply = await server.call<Category>('category.detail', { code: 'HZ-PIPE' }, { token: tadmin });
    expect(reply.data).toMatchObject({ categoryName: '管网设备', parentCode: 'C01', ownerType: 'tenant', editable: true, productCount: 1 });
    expect((await server.call('category.detail', { code: 'HZ-PIPE' }, { token: badmin })).code).toBe('404');
    expect((await server.call('category.detail', { code: '' }, { token: tadmin })).code).toBe('400');
  });

  it('answers the category tree for the tree selects', async () => {
    const reply = await server.call<CategoryNode[]>('category.list', {}, { token: tadmin });
    expect(reply.code).toBe('200');
    const metering = reply.data!.find((c) => c.categoryCode === 'C01')!;
    expect(metering.children.map((c) => c.categoryCode)).toEqual(['C0101', 'C0102', 'HZ-PIPE']);
    const theirs = await server.call<CategoryNode[]>('category.list', {}, { token: badmin });
    expect(theirs.data!.find((c) => c.categoryCode === 'C01')!.children.map((c) => c.categoryCode)).toEqual(['C0101', 'C0102']);
    expect((await server.call('category.list', { tenant: 'T0002' }, { token: tadmin })).code).toBe('400');
  });

  it('adds a category, refusing a taken code, a bad one, another tenant’s parent and a user without the button', async () => {
    const reply = await server.call('category.insert', { category: { categoryCode: 'HZ-PIPE-V', categoryName: '阀门', parentCode: 'HZ-PIPE', sort: 3, remark: '' } }, { token: tadmin });
    expect(reply).toMatchObject({ code: '200', data: { categoryCode: 'HZ-PIPE-V' } });
    expect((await server.call('category.insert', { category: { categoryCode: 'C01', categoryName: '重复' } }, { token: tadmin })).code).toBe('409');
    expect((await server.call('category.insert', { category: { categoryCode: 'a b', categoryName: '空格' } }, { token: tadmin })).code).toBe('400');
    expect((await server.call('category.insert', { category: { categoryCode: 'SZ-X', categoryName: '借用', parentCode: 'HZ-PIPE' } }, { token: badmin })).code).toBe('400');
    expect((await server.call('category.insert', { category: { categoryCode: 'HZ-Y', categoryName: '无权' } }, { token: tuser })).code).toBe('403');
  });

  it('edits the tenant’s own category, never a shared one, another tenant’s or into a cycle', async () => {
    expect((await server.call('category.modify', { code: 'HZ-PIPE', category: { categoryCode: 'HZ-PIPE', categoryName: '供水管网设备', parentCode: 'C01' } }, { token: tadmin })).code).toBe('200');
    expect((await server.call<Category>('category.detail', { code: 'HZ-PIPE' }, { token: tadmin })).data!.categoryName).toBe('供水管网设备');
    const shared = await server.call('category.modify', { code: 'C01', category: { categoryCode: 'C01', categoryName: '仪表' } }, { token: tadmin });
    expect(shared).toMatchObject({ code: '403', message: '平台分类不能修改' });
    const cycle = await server.call('category.modify', { code: 'HZ-PIPE', category: { categoryCode: 'HZ-PIPE', categoryName: '供水管网设备', parentCode: 'HZ-PIPE-V' } }, { token: tadmin });
    expect(cycle).toMatchObject({ code: '400', message: '上级分类不能是本分类或其下级分类' });
    expect((await server.call('category.modify', { code: 'HZ-PIPE', category: { categoryCode: 'HZ-PIPE', categoryName: '抢注' } }, { token: badmin })).code).toBe('404');
    expect((await server.call('category.modify', { code: 'HZ-PIPE', category: { categoryCode: 'HZ-PIPE', categoryName: '' } }, { token: tadmin })).code).toBe('400');
  });

  it('deletes an empty category and refuses one still holding products or children', async () => {
    expect(await server.call('category.delete', { code: 'HZ-PIPE' }, { token: tadmin })).toMatchObject({ code: '409', message: '该分类下仍有子分类' });
    expect(await server.call('category.delete', { code: 'C0102' }, { token: admin })).toMatchObject({ code: '409', message: '该分类下仍有产品' });
    expect((await server.call('category.delete', { code: 'C0102' }, { token: tadmin })).code).toBe('403');
    expect((await server.call('category.delete', { code: 'HZ-PIPE-V' }, { token: badmin })).code).toBe('404');
    expect((await server.call('category.delete', { code: 'HZ-PIPE-V' }, { token: tuser })).code).toBe('403');
    expect((await server.call('category.delete', {}, { token: tadmin })).code).toBe('400');
    expect((await server.call('category.delete', { code: 'HZ-PIPE-V' }, { token: tadmin })).code).toBe('200');
    expect((await server.call('category.detail', { code: 'HZ-PIPE-V' }, { token: tadmin })).code).toBe('404');
  });
});
