import { expect, test, type Locator, type Page } from './fixtures';
import { callOperation, chooseOption, loginThroughForm, resetPlatform, tokenFor, watchErrors } from './support';

// 设备运维 (设备健康, 异常设备, 设备回收站, 休眠设备), 网关管理 and 视频监控 as the tenant admin:
// each view opened from the menu shows data without an error panel or a console error, detail
// pages open from a row's 详情, and each list performs one real action against the server.

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

interface Paged<T> {
  records: T[];
  total: number;
}

/** The page of the active tab (inactive tabs are hidden or unmounted). */
const activeTab = (page: Page): Locator => page.locator('[data-tab]:not([hidden])');

/** Clicks through the sider: a submenu only when its entry is not yet shown. */
async function openFromMenu(page: Page, ...path: string[]) {
  await page.getByRole('tab', { name: '物联网' }).click();
  for (const [index, entry] of path.entries()) {
    const next = path[index + 1];
    if (next && (await page.getByRole('menuitem', { name: next }).isVisible())) continue;
    await page.getByRole('menuitem', { name: entry }).first().click();
  }
}

/** A list with rows, its title, and neither a schema error panel nor a failed load. */
async function expectListWithData(page: Page, title: string): Promise<Locator> {
  const list = activeTab(page).getByTestId('list-page').first();
  await expect(list).toContainText(title);
  await expect(list.locator('.ant-table-row').first()).toBeVisible();
  await expect(page.getByTestId('schema-error')).toHaveCount(0);
  await expect(activeTab(page).getByText('数据加载失败')).toHaveCount(0);
  return list;
}

async function expectDetail(page: Page, title: string, text: string): Promise<Locator> {
  const detail = activeTab(page).getByTestId('detail-page');
  await expect(detail).toContainText(title);
  await expect(detail).toContainText(text);
  await expect(page.getByTestId('schema-error')).toHaveCount(0);
  await expect(detail.getByText(/数据加载失败|加载失败/)).toHaveCount(0);
  return detail;
}

async function search(list: Locator, keyword: string) {
  await list.getByTestId('list-filters').first().getByLabel('关键字').fill(keyword);
  await list.getByRole('button', { name: /查\s*询/ }).first().click();
}

test('the tenant admin opens every maintenance view from the menu and acts on each list', async ({ page, request }) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);

  // 设备健康 → a row's 详情 (health detail with its indicators and trend).
  await openFromMenu(page, '设备运维', '设备健康');
  await expect(page).toHaveURL(/\/device\/health$/);
  const health = await expectListWithData(page, '设备健康');
  const healthCode = (await health.locator('.ant-table-row').first().locator('td').first().textContent())?.trim() ?? '';
  expect(healthCode).toMatch(/^[A-Z0-9]{12}$/);
  await health.locator('.ant-table-row').first().getByRole('button', { name: /详\s*情/ }).click();
  await expect(page).toHaveURL(new RegExp(`/device/health/detail\\?code=${healthCode}$`));
  const healthDetail = await expectDetail(page, '设备健康详情', healthCode);
  await expect(healthDetail.getByText('在线状态').first()).toBeVisible();
  await expect(healthDetail.getByText('健康趋势（近 30 天）')).toBeVisible();

  // 异常设备: handle a pending error with a remark.
  await openFromMenu(page, '设备运维', '异常设备');
  const errorsList = await expectListWithData(page, '异常设备');
  const pending = await callOperation<Paged<{ id: number; code: string }>>(request, 'device.error.page', { state: 'pending' }, token);
  const errorCode = pending.data.records[0].code;
  await search(errorsList, errorCode);
  const errorRow = errorsList.locator('.ant-table-row', { hasText: errorCode });
  await expect(errorRow).toContainText('待处理');
  await errorRow.getByRole('button', { name: /处\s*理/ }).click();
  const modal = page.locator('.ant-modal-content');
  await expect(modal).toContainText(errorCode);
  await modal.getByLabel('处理说明').fill('现场检查后恢复正常上报');
  await modal.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '处理成功' }).last()).toBeVisible();
  await expect(errorRow).toContainText('已处理');
  const handled = await callOperation<{ state: string; handleRemark: string }>(request, 'device.error.detail', { id: pending.data.records[0].id }, token);
  expect(handled.data).toMatchObject({ state: 'handled', handleRemark: '现场检查后恢复正常上报' });

  // 设备回收站: restore a device, then open another one's 详情.
  await openFromMenu(page, '设备运维', '设备回收站');
  const recycle = await expectListWithData(page, '设备回收站');
  const recycled = await callOperation<Paged<{ code: string }>>(request, 'device.recycle.page', {}, token);
  const [restoreCode, detailCode] = recycled.data.records.map((r) => r.code);
  await search(recycle, restoreCode);
  await recycle.locator('.ant-table-row', { hasText: restoreCode }).getByRole('button', { name: /恢\s*复/ }).click();
  await page.locator('.ant-popover').getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '已恢复' })).toBeVisible();
  await expect(recycle.locator('.ant-table-row', { hasText: restoreCode })).toHaveCount(0);
  expect((await callOperation(request, 'device.health.detail', { code: restoreCode }, token)).code).toBe('200');
  await search(recycle, detailCode);
  await recycle.locator('.ant-table-row', { hasText: detailCode }).getByRole('button', { name: /详\s*情/ }).click();
  await expect(page).toHaveURL(new RegExp(`/device/recycle/detail\\?code=${detailCode}$`));
  await expectDetail(page, '回收设备详情', detailCode);

  // 休眠设备: wake one, then open another one's 详情.
  await openFromMenu(page, '设备运维', '休眠设备');
  const sleep = await expectListWithData(page, '休眠设备');
  const sleeping = await callOperation<Paged<{ code: string }>>(request, 'device.sleep.page', {}, token);
  const [wakeCode, sleepDetailCode] = sleeping.data.records.map((r) => r.code);
  await search(sleep, wakeCode);
  await sleep.locator('.ant-table-row', { hasText: wakeCode }).getByRole('button', { name: /唤\s*醒/ }).click();
  await page.locator('.ant-popover').getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '已唤醒' })).toBeVisible();
  await expect(sleep.locator('.ant-table-row', { hasText: wakeCode })).toHaveCount(0);
  const woken = await callOperation<{ sleeping: boolean; wakeRecords: Array<{ wokenBy: string }> }>(request, 'device.sleep.detail', { code: wakeCode }, token);
  expect(woken.data.sleeping).toBe(false);
  expect(woken.data.wakeRecords[0].wokenBy).toBe('tadmin');
  await search(sleep, sleepDetailCode);
  await sleep.locator('.ant-table-row', { hasText: sleepDetailCode }).getByRole('button', { name: /详\s*情/ }).click();
  await expect(page).toHaveURL(new RegExp(`/device/sleep/detail\\?code=${sleepDetailCode}$`));
  await expectDetail(page, '休眠设备详情', sleepDetailCode);

  // 网关管理: edit a gateway's name, then its details page with the sub-devices list.
  await openFromMenu(page, '网关管理');
  await expect(page).toHaveURL(/\/gateway$/);
  const gateways = await expectListWithData(page, '网关管理');
  const busiest = await callOperation<Paged<{ code: string; name: string; subDeviceCount: number }>>(request, 'gateway.page', {}, token);
  const gateway = busiest.data.records.find((r) => r.subDeviceCount > 0)!;
  await search(gateways, gateway.code);
  const gatewayRow = gateways.locator('.ant-table-row', { hasText: gateway.code });
  await gatewayRow.getByRole('button', { name: /编\s*辑/ }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.getByLabel('网关名称')).toHaveValue(gateway.name);
  await drawer.getByLabel('网关名称').fill(`${gateway.name}（主）`);
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await expect(gatewayRow).toContainText(`${gateway.name}（主）`);
  await gatewayRow.getByRole('button', { name: /详\s*情/ }).click();
  await expect(page).toHaveURL(new RegExp(`/gateway/details\\?code=${gateway.code}$`));
  const gatewayDetail = await expectDetail(page, '网关详情', `${gateway.name}（主）`);
  await expect(gatewayDetail.getByTestId('list-page').locator('.ant-table-row').first()).toBeVisible();

  // 视频监控: create a camera through the form, then ask an online camera for its play address.
  await openFromMenu(page, '视频监控');
  await expect(page).toHaveURL(/\/camera$/);
  const cameras = await expectListWithData(page, '视频监控');
  await cameras.getByRole('button', { name: '新增摄像头' }).click();
  await drawer.getByLabel('名称', { exact: true }).fill('下沙园区-东门枪机');
  await drawer.getByRole('combobox', { name: '所属组织' }).click();
  await page.locator('.ant-select-tree-node-content-wrapper', { hasText: '下沙园区' }).click();
  await chooseOption(page, drawer.getByRole('combobox', { name: '品牌' }), '海康威视');
  await drawer.getByLabel('码流地址').fill('ftp://10.1.20.31/live');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(drawer.getByText('请输入 rtsp://、rtmp:// 或 http(s):// 开头的地址')).toBeVisible();
  await drawer.getByLabel('码流地址').fill('rtsp://10.1.20.31:554/Streaming/Channels/101');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await search(cameras, '下沙园区-东门枪机');
  const cameraRow = cameras.locator('.ant-table-row', { hasText: '下沙园区-东门枪机' });
  await expect(cameraRow).toContainText('CAM01000037');
  await expect(cameraRow).toContainText('海康威视');
  await cameraRow.getByRole('button', { name: /播\s*放/ }).click();
  await expect(modal).toContainText('CAM01000037/index.m3u8?token=');

  expect(errors).toEqual([]);
});
