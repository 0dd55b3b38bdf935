// Firmware over the air: upgrade packages (platform and tenant builds), upgrade tasks and their
// devices, each offered its package as an `ota` command and failed at the task's time limit when
// it does not finish (what the devices report: device-ota.test.ts), cancel and retry. Every
// operation: the happy path, invalid input ("400"), another tenant's record ("404"), and the
// button grants ("403"). The seed's history shows as it was laid down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../server/config';
import { fileSecretOf } from '../../server/domain/fileAccess';
import { runFirmwareChecks } from '../../server/ingest/firmwareDelivery';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';

interface Page<T> {
  records: T[];
  total: number;
  pageNumber: number;
  pageSize: number;
}

interface PackageRecord {
  id: number;
  code: string;
  name: string;
  productCode: string;
  version: string;
  packageType: string;
  baseVersion: string;
  owner: 'platform' | 'tenant';
  ownerName: string;
  editable: boolean;
  taskCount: number;
  checksum: string;
  fileName: string;
  fileSizeText: string;
}

interface TaskRecord {
  id: number;
  code: string;
  name: string;
  state: string;
  packageVersion: string;
  organizationCode: string;
  deviceCount: number;
  pendingCount: number;
  upgradingCount: number;
  succeededCount: number;
  failedCount: number;
  cancelledCount: number;
  completion: number;
  cancellable: boolean;
  retryable: boolean;
  startedAt: string;
  finishedAt: string;
}

interface TaskDeviceRecord {
  deviceCode: string;
  state: string;
  progress: number;
  attempts: number;
  errorMessage: string;
  fromVersion: string;
  targetVersion: string;
  currentVersion: string;
  retryable: boolean;
}

let server: TestServer;
let admin: string;
let tadmin: string;
let tuser: string;
let badmin: string;

beforeAll(async () => {
  // The clock moves days ahead here (a target has a day to finish): tokens must outlive it.
  server = await startServer({ config: { accessTokenTtlSeconds: 30 * 86_400 } });
  [admin, tadmin, tuser, badmin] = await Promise.all([server.login('admin', ADMIN_PASSWORD), server.login('tadmin'), server.login('tuser'), server.login('badmin')]);
});
afterAll(() => server.close());

/** A page operation with paging and sorting, as the list renderer sends it. */
async function page<T>(name: string, param: unknown, token: string, options: { pageSize?: number; sort?: Array<{ field: string; order: 'asc' | 'desc' }> } = {}) {
  const reply = await server.app.inject({
    method: 'POST',
    url: `/api${catalogue[name].path}`,
    headers: { token },
    payload: { param, pageParam: { pageNumber: 1, pageSize: options.pageSize ?? 50 }, sortParamList: options.sort ?? [] },
  });
  return reply.json<{ code: string; message: string; data: Page<T> }>();
}

async function ok<T>(name: string, param: unknown, token: string): Promise<T> {
  const reply = await server.call<T>(name, param, { token });
  expect(reply, `${name} ${JSON.stringify(param)}`).toMatchObject({ code: '200' });
  return reply.data as T;
}

const MD5 = '9e107d9d372bb6826bd81d3542a419d6';
const newPackage = (overrides: Record<string, unknown> = {}) => ({
  name: '流量计 定制固件 v2.2.0',
  productCode: 'PRD-FM-4G',
  version: '2.2.0',
  packageType: 'full',
  fileUrl: 'https://ota.example.com/firmware/YL-FM310_v2.2.0.bin',
  fileSize: 1_310_720,
  checksumAlgorithm: 'MD5',
  checksum: MD5.toUpperCase(),
  description: '杭州项目：小流量切除阈值可配置。',
  ...overrides,
});

async function packageId(version: string, productCode: string, type = 'full', token = tadmin): Promise<number> {
  const list = await ok<Array<{ id: number; version: string; packageType: string; productCode: string }>>('upgrade.package.list', { productCode }, token);
  const found = list.find((p) => p.version === version && p.packageType === type);
  if (!found) throw new Error(`no package ${productCode} ${version} ${type}`);
  return found.id;
}

/** One run of the server's periodic firmware check (scheduled targets offered, overdue ones failed) at the server's clock. */
async function runChecks() {
  return runFirmwareChecks(server.db, { now: server.now(), config: defaultConfig(), fileSecret: await fileSecretOf(server.db, undefined) });
}

async function taskNamed(name: string, token = tadmin): Promise<TaskRecord> {
  const reply = await page<TaskRecord>('upgrade.task.page', { keyword: name }, token);
  const task = reply.data.records.find((t) => t.name === name);
  if (!task) throw new Error(`no task ${name}`);
  return task;
}

/** Live, online devices of a tenant and product that no unfinished task holds. */
async function idleDevices(tenantCode: string, productCode: string, count: number, extra = ''): Promise<Array<{ code: string; firmware_version: string }>> {
  return server.db.query<{ code: string; firmware_version: string }>(
    `SELECT code, firmware_version FROM device d
      WHERE tenant_code = $1 AND product_code = $2 AND deleted_at IS NULL ${extra}
        AND NOT EXISTS (SELECT 1 FROM upgrade_task_device td WHERE td.device_code = d.code AND td.state IN ('pending', 'upgrading'))
      ORDER BY code LIMIT $3`,
    [tenantCode, productCode, count],
  );
}

describe('upgrade.package.page, list and detail', () => {
  it('shows a tenant the platform’s packages and its own builds, never another tenant’s', async () => {
    const mine = await page<PackageRecord>('upgrade.package.page', {}, tadmin, { pageSize: 100 });
    expect(mine.code).toBe('200');
    const versions = mine.data.records.map((p) => `${p.productCode} ${p.version}`);
    expect(versions).toContain('PRD-TH-LR 1.2.4-hz.1');
    expect(versions).not.toContain('PRD-WQ-MB 4.3.2-sz.1');
    expect(mine.data.records.find((p) => p.version === '1.2.4-hz.1')).toMatchObject({ owner: 'tenant', ownerName: '杭州云联科技有限公司', editable: true });
    expect(mine.data.records.filter((p) => p.owner === 'platform').every((p) => !p.editable && p.ownerName === '平台')).toBe(true);
    const theirs = await page<PackageRecord>('upgrade.package.page', { owner: 'tenant' }, badmin);
    expect(theirs.data.records.map((p) => p.version)).toEqual(['4.3.2-sz.1']);
    // Platform staff see every package and may edit all of them.
    const all = await page<PackageRecord>('upgrade.package.page', {}, admin, { pageSize: 100 });
    expect(all.data.total).toBe(mine.data.total + 1);
    expect(all.data.records.every((p) => p.editable)).toBe(true);
  });

  it('filters by product, type, owner and keyword and sorts', async () => {
    const diffs = await page<PackageRecord>('upgrade.package.page', { productCode: 'PRD-WM-NB', packageType: 'diff' }, tadmin, { sort: [{ field: 'version', order: 'asc' }] });
    expect(diffs.data.records.map((p) => `${p.baseVersion}→${p.version}`)).toEqual(['1.2.0→1.3.2', '1.3.2→1.4.0', '1.4.0→1.5.0']);
    const byKeyword = await page<PackageRecord>('upgrade.package.page', { keyword: 'hz.1' }, tadmin);
    expect(byKeyword.data.records).toHaveLength(1);
    expect(byKeyword.data.records[0]).toMatchObject({ fileName: 'YL-TH20_v1.2.4-hz.1.bin', fileSizeText: expect.stringMatching(/KB$/) });
  });

  it('lists packages for the task form with a label naming product, version and type', async () => {
    const list = await ok<Array<{ label: string; productCode: string }>>('upgrade.package.list', { productCode: 'PRD-WM-NB' }, tadmin);
    expect(list.every((p) => p.productCode === 'PRD-WM-NB')).toBe(true);
    expect(list.map((p) => p.label)).toContain('NB-IoT 智能水表 v1.5.0（差分包，自 1.4.0）');
  });

  it('details a package with the tasks that used it', async () => {
    const id = await packageId('1.5.0', 'PRD-WM-NB', 'diff');
    const detail = await ok<PackageRecord & { tasks: Array<{ name: string; state: string }> }>('upgrade.package.detail', { id }, tadmin);
    expect(detail).toMatchObject({ version: '1.5.0', packageType: 'diff', baseVersion: '1.4.0', taskCount: 1 });
    expect(detail.tasks).toMatchObject([{ name: '水表 1.5.0 差分升级（第一批）', state: 'upgrading' }]);
  });

  it('refuses bad input with "400" and another tenant’s package with "404"', async () => {
    expect((await page('upgrade.package.page', { packageType: 'delta' }, tadmin)).code).toBe('400');
    expect((await server.call('upgrade.package.list', { productCode: 'x'.repeat(33) }, { token: tadmin })).code).toBe('400');
    expect((await server.call('upgrade.package.detail', { id: 'one' }, { token: tadmin })).code).toBe('400');
    const theirs = await packageId('4.3.2-sz.1', 'PRD-WQ-MB', 'full', badmin);
    expect(await server.call('upgrade.package.detail', { id: theirs }, { token: tadmin })).toEqual({ code: '404', message: '升级包不存在', data: null });
  });
});

describe('upgrade.package.insert, modify and delete', () => {
  it('lets a tenant admin add a package of its own, checked and stored in lower case', async () => {
    const created = await ok<{ id: number; code: string }>('upgrade.package.insert', { package: newPackage() }, tadmin);
    expect(created.code).toMatch(/^FW\d{8}\d{3}$/);
    const detail = await ok<PackageRecord>('upgrade.package.detail', { id: created.id }, tadmin);
    expect(detail).toMatchObject({ owner: 'tenant', checksum: MD5, fileName: 'YL-FM310_v2.2.0.bin', editable: true, taskCount: 0 });
    const [row] = await server.db.query<{ tenant_code: string; created_by: string }>('SELECT tenant_code, created_by FROM upgrade_package WHERE id = $1', [created.id]);
    expect(row).toEqual({ tenant_code: 'T0001', created_by: 'tadmin' });
    // Not to be seen by the other tenant.
    expect((await server.call('upgrade.package.detail', { id: created.id }, { token: badmin })).code).toBe('404');
    // The same version and type again is a clash.
    expect(await server.call('upgrade.package.insert', { package: newPackage() }, { token: tadmin })).toMatchObject({ code: '409', message: '该产品已有相同版本和类型的升级包' });
  });

  it('makes a package added by platform staff above the tenants the platform’s', async () => {
    const created = await ok<{ id: number }>('upgrade.package.insert', { package: newPackage({ version: '2.3.0', fileUrl: 'https://ota.example.com/fm/2.3.0.bin' }) }, admin);
    expect((await ok<PackageRecord>('upgrade.package.detail', { id: created.id }, badmin)).owner).toBe('platform');
  });

  it('refuses invalid packages with "400"', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ checksumAlgorithm: 'SHA256' }, /checksum（SHA256 校验值应为 64 位十六进制）/],
      [{ checksum: 'xyz' }, /checksum/],
      [{ packageType: 'diff' }, /baseVersion（差分包须填写基础版本）/],
      [{ packageType: 'diff', baseVersion: '3.0.0' }, /baseVersion（基础版本须低于升级版本）/],
      [{ fileUrl: 'http://ota.example.com/a.bin' }, /fileUrl/],
      [{ fileUrl: 'javascript:alert(1)' }, /fileUrl/],
      [{ version: 'v2' }, /version/],
      [{ name: '<b>固件</b>' }, /name/],
      [{ fileSize: 0 }, /fileSize/],
      [{ extra: true }, /参数错误/],
    ];
    for (const [overrides, message] of cases) {
      const reply = await server.call('upgrade.package.insert', { package: newPackage({ version: '2.9.9', ...overrides }) }, { token: tadmin });
      expect(reply.code, JSON.stringify(overrides)).toBe('400');
      expect(reply.message, JSON.stringify(overrides)).toMatch(message);
    }
  });

  it('answers "403" to a user without the 新增 button and "404" for an unknown product', async () => {
    expect((await server.call('upgrade.package.insert', { package: newPackage({ version: '2.8.0' }) }, { token: tuser })).code).toBe('403');
    expect(await server.call('upgrade.package.insert', { package: newPackage({ version: '2.8.0', productCode: 'PRD-NONE' }) }, { token: tadmin })).toMatchObject({ code: '404', message: '产品不存在' });
  });

  it('modifies the own package; the platform’s is read-only to a tenant and another tenant’s is not there', async () => {
    const { id } = await ok<{ id: number }>('upgrade.package.insert', { package: newPackage({ version: '2.4.0', fileUrl: 'https://ota.example.com/fm/2.4.0.bin' }) }, tadmin);
    await ok('upgrade.package.modify', { id, package: newPackage({ version: '2.4.1', name: '流量计 定制固件 v2.4.1', fileUrl: 'https://ota.example.com/fm/2.4.1.bin' }) }, tadmin);
    expect(await ok<PackageRecord>('upgrade.package.detail', { id }, tadmin)).toMatchObject({ version: '2.4.1', name: '流量计 定制固件 v2.4.1', fileName: '2.4.1.bin' });
    expect((await server.call('upgrade.package.modify', { id, package: newPackage({ productCode: 'PRD-WM-NB' }) }, { token: tadmin })).message).toMatch(/productCode（升级包的产品不能修改）/);
    expect((await server.call('upgrade.package.modify', { id, package: { name: 'x' } }, { token: tadmin })).code).toBe('400');
    const platform = await packageId('2.1.0', 'PRD-FM-4G');
    expect(await server.call('upgrade.package.modify', { id: platform, package: newPackage({ version: '2.1.0' }) }, { token: tadmin })).toEqual({ code: '403', message: '平台升级包不能修改', data: null });
    expect(await server.call('upgrade.package.modify', { id, package: newPackage({ version: '2.4.1' }) }, { token: badmin })).toMatchObject({ code: '404' });
  });

  it('keeps the file of a package a task used: only its name and description may change', async () => {
    const id = await packageId('1.2.4-hz.1', 'PRD-TH-LR');
    const detail = await ok<PackageRecord & { fileUrl: string; fileSize: number; checksumAlgorithm: string; description: string }>('upgrade.package.detail', { id }, tadmin);
    const [device] = await idleDevices('T0001', 'PRD-TH-LR', 1, "AND firmware_version <> '1.2.4-hz.1'");
    await ok('upgrade.task.insert', { task: { name: '冷库温湿度定制固件试点', packageId: id, organizationCode: 'T0001', deviceCodes: [device.code] } }, tadmin);
    const fields = { name: detail.name, productCode: detail.productCode, version: detail.version, packageType: 'full', fileUrl: detail.fileUrl, fileSize: detail.fileSize, checksumAlgorithm: detail.checksumAlgorithm, checksum: detail.checksum };
    expect(await server.call('upgrade.package.modify', { id, package: { ...fields, fileUrl: 'https://ota.example.com/other.bin' } }, { token: tadmin })).toMatchObject({
      code: '409',
      message: '升级包已被升级任务使用，只能修改名称和描述',
    });
    await ok('upgrade.package.modify', { id, package: { ...fields, name: '温湿度传感器 冷库定制 v1.2.4', description: '冷库专用' } }, tadmin);
  });

  it('deletes an unused package, refuses one an unfinished task is pushing, "404" for another tenant', async () => {
    const { id } = await ok<{ id: number }>('upgrade.package.insert', { package: newPackage({ version: '2.6.0', fileUrl: 'https://ota.example.com/fm/2.6.0.bin' }) }, tadmin);
    expect((await server.call('upgrade.package.delete', { id }, { token: badmin })).code).toBe('404');
    expect((await server.call('upgrade.package.delete', { id: -1 }, { token: tadmin })).code).toBe('400');
    await ok('upgrade.package.delete', { id }, tadmin);
    expect((await server.call('upgrade.package.detail', { id }, { token: tadmin })).code).toBe('404');
    const busy = await packageId('1.5.0', 'PRD-WM-NB', 'diff');
    expect((await server.call('upgrade.package.delete', { id: busy }, { token: admin })).message).toMatch(/^升级包正被未完成的升级任务 OTA\d{12} 使用，不能删除$/);
    expect((await server.call('upgrade.package.delete', { id: busy }, { token: tadmin })).code).toBe('403');
  });

  it('lets a finished task’s package go and keeps the task’s record of it', async () => {
    const id = await packageId('1.3.2', 'PRD-WM-NB', 'full', admin);
    await ok('upgrade.package.delete', { id }, admin);
    const task = await taskNamed('西湖水务水表固件 1.3.2 升级');
    expect(task).toMatchObject({ state: 'succeeded', packageVersion: '1.3.2' });
    expect((await ok<{ packageId: number | null; packageName: string }>('upgrade.task.detail', { id: task.id }, tadmin)).packageName).toMatch(/v1\.3\.2$/);
  });
});

describe('upgrade.task.page, detail and device.page', () => {
  it('shows a tenant its own tasks, in every state, and platform staff all of them', async () => {
    const mine = await page<TaskRecord>('upgrade.task.page', {}, tadmin);
    expect(mine.code).toBe('200');
    expect(new Set(mine.data.records.map((t) => t.state))).toEqual(new Set(['pending', 'upgrading', 'succeeded', 'failed', 'cancelled']));
    expect(mine.data.records.every((t) => t.organizationCode.startsWith('T0001'))).toBe(true);
    const theirs = await page<TaskRecord>('upgrade.task.page', {}, badmin);
    expect(new Set(theirs.data.records.map((t) => t.state))).toEqual(new Set(['pending', 'upgrading', 'succeeded', 'failed', 'cancelled']));
    expect(theirs.data.records.some((t) => mine.data.records.some((m) => m.id === t.id))).toBe(false);
    const all = await page<TaskRecord>('upgrade.task.page', {}, admin);
    expect(all.data.total).toBe(mine.data.total + theirs.data.total);
  });

  it('counts each task’s devices and how far it got', async () => {
    const { records } = (await page<TaskRecord>('upgrade.task.page', { state: 'upgrading' }, tadmin)).data;
    expect(records.length).toBeGreaterThan(0);
    for (const task of records) {
      expect(task.pendingCount + task.upgradingCount + task.succeededCount + task.failedCount + task.cancelledCount).toBe(task.deviceCount);
      expect(task.completion).toBeCloseTo((task.succeededCount + task.failedCount + task.cancelledCount) / task.deviceCount, 6);
      expect(task).toMatchObject({ cancellable: true, finishedAt: '' });
    }
    const pending = (await page<TaskRecord>('upgrade.task.page', { state: 'pending' }, tadmin)).data.records;
    expect(pending.every((t) => t.pendingCount === t.deviceCount && t.startedAt === '')).toBe(true);
  });

  it('filters by keyword, product, organisation and time, and sorts by device count', async () => {
    const byProduct = await page<TaskRecord>('upgrade.task.page', { productCode: 'PRD-PG-NB' }, tadmin);
    expect(byProduct.data.records.map((t) => t.name)).toEqual(['压力计 3.1.5 批量升级']);
    const byOrganization = await page<TaskRecord>('upgrade.task.page', { organizationCode: 'T0001P02' }, tadmin);
    expect(byOrganization.data.records.map((t) => t.name)).toEqual(['钱塘园区温湿度传感器 1.2.3 升级']);
    const recent = await page<TaskRecord>('upgrade.task.page', { timeRange: [new Date(Date.now() - 7 * 86_400_000).toISOString(), new Date(Date.now() + 86_400_000).toISOString()] }, tadmin);
    expect(recent.data.records.length).toBeGreaterThan(2);
    expect(recent.data.records.length).toBeLessThan((await page('upgrade.task.page', {}, tadmin)).data.total);
    const sorted = await page<TaskRecord>('upgrade.task.page', {}, tadmin, { sort: [{ field: 'deviceCount', order: 'desc' }] });
    const counts = sorted.data.records.map((t) => t.deviceCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('refuses bad filters ("400") and another tenant’s organisation ("404")', async () => {
    expect((await page('upgrade.task.page', { state: 'done' }, tadmin)).code).toBe('400');
    const at = '2026-11-01 10:00:00';
    expect((await page('upgrade.task.page', { timeRange: [at, at] }, tadmin)).message).toBe('请输入不同的时间');
    expect((await page('upgrade.task.page', { organizationCode: 'T0002P01' }, tadmin)).code).toBe('404');
  });

  it('details a task and lists its devices with progress, filtered by state', async () => {
    const task = await taskNamed('流量计 2.1.0 远程升级');
    const detail = await ok<TaskRecord>('upgrade.task.detail', { id: task.id }, tadmin);
    expect(detail).toMatchObject({ state: 'failed', retryable: true, cancellable: false });
    const failed = await page<TaskDeviceRecord>('upgrade.task.device.page', { taskId: task.id, state: 'failed' }, tadmin);
    expect(failed.data.total).toBe(detail.failedCount);
    expect(failed.data.records.every((d) => d.errorMessage !== '' && d.targetVersion === '2.1.0' && d.retryable)).toBe(true);
    const succeeded = await page<TaskDeviceRecord>('upgrade.task.device.page', { taskId: task.id, state: 'succeeded' }, tadmin);
    expect(succeeded.data.records.every((d) => d.progress === 100)).toBe(true);
    const code = succeeded.data.records[0].deviceCode;
    expect((await page<TaskDeviceRecord>('upgrade.task.device.page', { taskId: task.id, keyword: code }, tadmin)).data.records.map((d) => d.deviceCode)).toEqual([code]);
  });

  it('answers "404" for another tenant’s task and "400" for a bad id', async () => {
    const task = await taskNamed('太湖水质传感器 4.3.1 升级', badmin);
    expect(await server.call('upgrade.task.detail', { id: task.id }, { token: tadmin })).toEqual({ code: '404', message: '升级任务不存在', data: null });
    expect((await page('upgrade.task.device.page', { taskId: task.id }, tadmin)).code).toBe('404');
    expect((await server.call('upgrade.task.detail', {}, { token: tadmin })).code).toBe('400');
    expect((await page('upgrade.task.device.page', { taskId: task.id, state: 'gone' }, badmin)).code).toBe('400');
  });
});

describe('upgrade.task.insert refusals', () => {
  it('refuses an empty target, a device of another product or version, and a busy device', async () => {
    const full = await packageId('2.1.0', 'PRD-FM-4G');
    const task = (codes: string[], packageId = full) => ({ task: { name: '校验', packageId, organizationCode: 'T0001', deviceCodes: codes } });
    expect(await server.call('upgrade.task.insert', task([]), { token: tadmin })).toMatchObject({ code: '400', message: expect.stringMatching(/^没有符合条件的目标设备/) });
    const [meter] = await idleDevices('T0001', 'PRD-WM-NB', 1, "AND firmware_version <> '1.4.0'");
    expect((await server.call('upgrade.task.insert', task([meter.code]), { token: tadmin })).message).toBe(`设备 ${meter.code} 不是该升级包的产品`);
    const diff = await packageId('1.5.0', 'PRD-WM-NB', 'diff');
    expect((await server.call('upgrade.task.insert', task([meter.code], diff), { token: tadmin })).message).toBe(
      `设备 ${meter.code} 当前版本 ${meter.firmware_version} 与差分包基础版本 1.4.0 不符`,
    );
    const [busy] = await server.db.query<{ device_code: string; code: string }>(
      "SELECT td.device_code, t.code FROM upgrade_task_device td JOIN upgrade_task t ON t.id = td.task_id WHERE t.name = '水表 1.5.0 差分升级（第一批）' AND td.state = 'pending' LIMIT 1",
    );
    expect(await server.call('upgrade.task.insert', task([busy.device_code], diff), { token: tadmin })).toMatchObject({ code: '409', message: `设备 ${busy.device_code} 正在升级任务 ${busy.code} 中` });
    expect((await server.call('upgrade.task.insert', task(['SHORT']), { token: tadmin })).code).toBe('400');
    expect((await server.call('upgrade.task.insert', { task: { name: '校验', packageId: full } }, { token: tadmin })).code).toBe('400');
  });

  it('refuses another tenant’s devices, organisation and package ("404") and a user without the button ("403")', async () => {
    const full = await packageId('2.1.0', 'PRD-FM-4G');
    const [foreign] = await idleDevices('T0002', 'PRD-FM-4G', 1);
    expect(await server.call('upgrade.task.insert', { task: { name: '越权', packageId: full, organizationCode: 'T0001', deviceCodes: [foreign.code] } }, { token: tadmin })).toMatchObject({
      code: '404',
      message: `设备 ${foreign.code} 不存在`,
    });
    expect((await server.call('upgrade.task.insert', { task: { name: '越权', packageId: full, organizationCode: 'T0002', includeAllDevices: true } }, { token: tadmin })).code).toBe('404');
    const theirs = await packageId('4.3.2-sz.1', 'PRD-WQ-MB', 'full', badmin);
    expect(await server.call('upgrade.task.insert', { task: { name: '越权', packageId: theirs, organizationCode: 'T0001', includeAllDevices: true } }, { token: tadmin })).toMatchObject({
      code: '404',
      message: '升级包不存在',
    });
    expect((await server.call('upgrade.task.insert', { task: { name: '无权', packageId: full, organizationCode: 'T0001', includeAllDevices: true } }, { token: tuser })).code).toBe('403');
  });
});

describe('upgrade.task.cancel', () => {
  it('cancels the devices still queued or upgrading and keeps the finished ones', async () => {
    const task = await taskNamed('水表 1.5.0 差分升级（第一批）');
    expect(task.state).toBe('upgrading');
    const reply = await ok<{ cancelled: number }>('upgrade.task.cancel', { id: task.id }, tadmin);
    const after = await ok<TaskRecord>('upgrade.task.detail', { id: task.id }, tadmin);
    expect(reply.cancelled).toBe(after.cancelledCount);
    expect(after).toMatchObject({ state: 'cancelled', pendingCount: 0, upgradingCount: 0, cancellable: false });
    expect(after.succeededCount + after.failedCount + after.cancelledCount).toBe(task.deviceCount);
    expect(after.finishedAt).not.toBe('');
    // Time passing no longer moves a cancelled device.
    server.advance(6 * 3600);
    expect((await ok<TaskRecord>('upgrade.task.detail', { id: task.id }, tadmin)).cancelledCount).toBe(after.cancelledCount);
    expect(await server.call('upgrade.task.cancel', { id: task.id }, { token: tadmin })).toEqual({ code: '409', message: '升级任务已结束，不能取消', data: null });
  });

  it('refuses cancelling another tenant’s task ("404"), bad input ("400") and without the button ("403")', async () => {
    const task = await taskNamed('园区烟感 2.5.0 计划升级', badmin);
    expect((await server.call('upgrade.task.cancel', { id: task.id }, { token: tadmin })).code).toBe('404');
    expect((await server.call('upgrade.task.cancel', { id: String(task.id) }, { token: badmin })).code).toBe('400');
    expect((await server.call('upgrade.task.cancel', { id: task.id }, { token: tuser })).code).toBe('403');
    expect((await ok<TaskRecord>('upgrade.task.detail', { id: task.id }, badmin)).state).toBe('pending');
  });

});

describe('upgrade.task.insert and the devices’ offers', () => {
  it('pushes a package to listed devices: each is offered an ota command with the package, and nothing moves until its device reports', async () => {
    const pkg = await packageId('2.1.0', 'PRD-FM-4G');
    const devices = await idleDevices('T0001', 'PRD-FM-4G', 40, "AND online_state = 'online' AND firmware_version <> '2.1.0'");
    const created = await ok<{ id: number; code: string; deviceCount: number }>(
      'upgrade.task.insert',
      { task: { name: '流量计 2.1.0 补推', packageId: pkg, organizationCode: 'T0001', deviceCodes: devices.map((d) => d.code), description: '补推未升级设备' } },
      tadmin,
    );
    expect(created).toMatchObject({ code: expect.stringMatching(/^OTA\d{12}$/), deviceCount: 40 });
    const first = await ok<TaskRecord & { timeLimitMinutes: number }>('upgrade.task.detail', { id: created.id }, tadmin);
    expect(first).toMatchObject({ state: 'pending', pendingCount: 40, timeLimitMinutes: 1440 });
    const detail = await ok<{ fileUrl: string; fileSize: number; checksum: string }>('upgrade.package.detail', { id: pkg }, tadmin);
    const commands = await server.db.query<{ device_code: string; command_type: string; state: string; parameters: Record<string, unknown> }>(
      `SELECT td.device_code, c.command_type, c.state, c.parameters FROM upgrade_task_device td JOIN device_command c ON c.id = td.command_id WHERE td.task_id = $1`,
      [created.id],
    );
    expect(commands).toHaveLength(40);
    // A package published at an external address is sent as that address.
    for (const command of commands) {
      expect(command).toMatchObject({ command_type: 'ota', state: 'pending', parameters: { version: '2.1.0', url: detail.fileUrl, size: detail.fileSize, sha256: detail.checksum, taskCode: created.code } });
    }
    // Time alone moves nothing: no device has said anything.
    server.advance(3600);
    expect(await ok<TaskRecord>('upgrade.task.detail', { id: created.id }, tadmin)).toMatchObject({ state: 'pending', pendingCount: 40 });
  });

  it('takes every eligible device of the product in the organisation, skipping busy and up-to-date ones; a scheduled task is offered at its time', async () => {
    const pkg = await packageId('1.2.0', 'PRD-LV-LR');
    const [{ count }] = await server.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM device d WHERE tenant_code = 'T0001' AND product_code = 'PRD-LV-LR' AND deleted_at IS NULL
          AND organization_code LIKE 'T0001P01%' AND firmware_version <> '1.2.0'
          AND NOT EXISTS (SELECT 1 FROM upgrade_task_device td WHERE td.device_code = d.code AND td.state IN ('pending', 'upgrading'))`,
    );
    expect(count).toBeGreaterThan(0);
    const created = await ok<{ id: number; deviceCount: number }>(
      'upgrade.task.insert',
      { task: { name: '西湖液位计 1.2.0 升级', packageId: pkg, organizationCode: 'T0001P01', includeAllDevices: true, scheduledAt: new Date(server.now().getTime() + 86_400_000).toISOString() } },
      tadmin,
    );
    expect(created.deviceCount).toBe(count);
    // Scheduled for tomorrow: nothing is offered before then.
    const task = await taskNamed('西湖液位计 1.2.0 升级');
    expect(task).toMatchObject({ state: 'pending', pendingCount: count });
    const offered = async () => (await server.db.query<{ n: number }>('SELECT count(command_id)::int AS n FROM upgrade_task_device WHERE task_id = $1', [created.id]))[0].n;
    expect(await offered()).toBe(0);
    // The same devices are now busy: "all devices" again finds none.
    expect(
      await server.call('upgrade.task.insert', { task: { name: '再来一次', packageId: pkg, organizationCode: 'T0001P01', includeAllDevices: true } }, { token: tadmin }),
    ).toMatchObject({ code: '400', message: expect.stringMatching(/^没有符合条件的目标设备/) });
    server.advance(86_400 + 60);
    await runChecks();
    expect(await offered()).toBe(count);
  });

  it('fails a device that never comes online at the task’s time limit, with the reason', async () => {
    const pkg = await packageId('2.5.0', 'PRD-SD-NB');
    const [device] = await idleDevices('T0001', 'PRD-SD-NB', 1, "AND online_state = 'offline'");
    const { id } = await ok<{ id: number }>('upgrade.task.insert', { task: { name: '离线烟感升级', packageId: pkg, organizationCode: 'T0001', deviceCodes: [device.code], timeLimitMinutes: 600 } }, tadmin);
    server.advance(9 * 3600);
    await runChecks();
    expect((await ok<TaskRecord>('upgrade.task.detail', { id }, tadmin)).state).toBe('pending');
    server.advance(2 * 3600);
    await runChecks();
    expect(await ok<TaskRecord>('upgrade.task.detail', { id }, tadmin)).toMatchObject({ state: 'failed', failedCount: 1, retryable: true });
    const [row] = (await page<TaskDeviceRecord>('upgrade.task.device.page', { taskId: id }, tadmin)).data.records;
    expect(row).toMatchObject({ deviceCode: device.code, state: 'failed', errorMessage: '升级超时：设备10 小时内未上线，未收到升级指令', attempts: 1 });
  });

  it('refuses a time limit out of bounds and a package without a SHA-256 ("400")', async () => {
    const pkg = await packageId('2.1.0', 'PRD-FM-4G');
    const [device] = await idleDevices('T0001', 'PRD-FM-4G', 1);
    const task = (extra: Record<string, unknown>, packageId = pkg) => ({ task: { name: '校验', packageId, organizationCode: 'T0001', deviceCodes: [device.code], ...extra } });
    expect((await server.call('upgrade.task.insert', task({ timeLimitMinutes: 4 }), { token: tadmin })).code).toBe('400');
    expect((await server.call('upgrade.task.insert', task({ timeLimitMinutes: 10_081 }), { token: tadmin })).code).toBe('400');
    const { id } = await ok<{ id: number }>('upgrade.package.insert', { package: newPackage({ version: '2.7.0', fileUrl: 'https://ota.example.com/fm/2.7.0.bin' }) }, tadmin);
    expect(await server.call('upgrade.task.insert', task({}, id), { token: tadmin })).toMatchObject({
      code: '400',
      message: '升级包没有 SHA-256 校验值，设备无法校验固件：请上传固件文件或填写 SHA256 校验值',
    });
  });
});

describe('upgrade.task.retry', () => {
  it('retries the failed devices as a new attempt, then one device at a time', async () => {
    const task = await taskNamed('压力计 3.1.5 批量升级');
    expect(task).toMatchObject({ state: 'failed', retryable: true });
    const failed = (await page<TaskDeviceRecord>('upgrade.task.device.page', { taskId: task.id, state: 'failed' }, tadmin, { pageSize: 500 })).data.records;
    const { retried } = await ok<{ retried: number }>('upgrade.task.retry', { id: task.id }, tadmin);
    expect(retried).toBe(failed.length);
    const after = await ok<TaskRecord>('upgrade.task.detail', { id: task.id }, tadmin);
    expect(after).toMatchObject({ state: 'upgrading', failedCount: 0, pendingCount: failed.length, retryable: false });
    const retriedRows = (await page<TaskDeviceRecord>('upgrade.task.device.page', { taskId: task.id, state: 'pending' }, tadmin, { pageSize: 500 })).data.records;
    expect(retriedRows.every((d) => d.attempts === 2 && d.errorMessage === '' && d.progress === 0)).toBe(true);
    expect(await server.call('upgrade.task.retry', { id: task.id }, { token: tadmin })).toEqual({ code: '409', message: '没有可重试的失败设备', data: null });
    // Each retried device was offered the package again, for a day: past it, the silent ones fail again. Retry one of them alone.
    server.advance(25 * 3600);
    await runChecks();
    const again = (await page<TaskDeviceRecord>('upgrade.task.device.page', { taskId: task.id, state: 'failed' }, tadmin)).data.records;
    expect(again.length).toBeGreaterThan(0);
    expect((await ok<{ retried: number }>('upgrade.task.retry', { id: task.id, deviceCodes: [again[0].deviceCode] }, tadmin)).retried).toBe(1);
    const [one] = (await page<TaskDeviceRecord>('upgrade.task.device.page', { taskId: task.id, keyword: again[0].deviceCode }, tadmin)).data.records;
    expect(one).toMatchObject({ state: 'pending', attempts: 3 });
    const succeeded = (await page<TaskDeviceRecord>('upgrade.task.device.page', { taskId: task.id, state: 'succeeded' }, tadmin)).data.records[0];
    expect((await server.call('upgrade.task.retry', { id: task.id, deviceCodes: [succeeded.deviceCode] }, { token: tadmin })).message).toBe(`设备 ${succeeded.deviceCode} 未升级失败，无需重试`);
  });

  it('refuses retrying another tenant’s task ("404"), bad input ("400") and without the button ("403")', async () => {
    const task = await taskNamed('压力计 3.1.5 升级', badmin);
    expect((await server.call('upgrade.task.retry', { id: task.id }, { token: tadmin })).code).toBe('404');
    expect((await server.call('upgrade.task.retry', { id: task.id, deviceCodes: ['bad'] }, { token: badmin })).code).toBe('400');
    expect((await server.call('upgrade.task.retry', { id: task.id, deviceCodes: [] }, { token: badmin })).code).toBe('400');
    expect((await server.call('upgrade.task.retry', { id: task.id }, { token: tuser })).code).toBe('403');
    expect((await ok<TaskRecord>('upgrade.task.detail', { id: task.id }, badmin)).state).toBe('failed');
  });
});
