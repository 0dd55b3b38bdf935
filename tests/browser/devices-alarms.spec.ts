import { expect, test, type Locator, type Page } from './fixtures';
import { callOperation, loginThroughForm, resetPlatform, tokenFor, watchErrors } from './support';

// 产品管理 (产品列表, 设备设置, 产品分类), 告警管理 (告警配置, 告警记录, 监控告警) and 数据看板
// (设备看板, 告警看板) as the tenant admin: each view opened from the menu shows data (the boards
// draw their charts) without an error panel or a console error, and each list performs one real
// action against the server.

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

/** A dashboard whose widgets loaded: no failed widget, every chart drew a canvas. */
async function expectDashboard(page: Page, title: string, charts: number): Promise<Locator> {
  const board = activeTab(page).getByTestId('dashboard-page');
  await expect(board).toContainText(title);
  await expect(board.locator('.ant-skeleton')).toHaveCount(0);
  await expect(board.getByText('加载失败')).toHaveCount(0);
  await expect(board.getByText('暂无数据')).toHaveCount(0);
  await expect(board.locator('[data-widget-type] canvas')).toHaveCount(charts);
  await expect(page.getByTestId('schema-error')).toHaveCount(0);
  return board;
}

async function search(list: Locator, keyword: string) {
  await list.getByTestId('list-filters').first().getByLabel('关键字').fill(keyword);
  await list.getByRole('button', { name: /查\s*询/ }).first().click();
}

async function confirmPopover(page: Page) {
  await page.locator('.ant-popover').getByRole('button', { name: /确\s*定/ }).click();
}

test('the tenant admin manages products, categories and device settings from the menu', async ({ page, request }) => {
  test.setTimeout(150_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);

  // 产品列表: add a product of the tenant's own.
  await openFromMenu(page, '产品管理', '产品列表');
  await expect(page).toHaveURL(/\/product\/list$/);
  const products = await expectListWithData(page, '产品列表');
  await expect(products.locator('.ant-table-row', { hasText: 'PRD-WM-NB' })).toContainText('NB-IoT 智能水表');
  await products.getByRole('button', { name: '新增产品' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByLabel('产品编码').fill('HZ-WM-300');
  await drawer.getByLabel('产品名称').fill('智能远传水表（定制）');
  await drawer.getByLabel('型号').fill('HZ-WM300');
  await drawer.getByRole('combobox', { name: '产品分类' }).click();
  await page.locator('.ant-select-tree-title', { hasText: /^水表$/ }).click();
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await expect(products.locator('.ant-table-row', { hasText: 'HZ-WM-300' })).toContainText('租户');
  const created = await callOperation<{ name: string; categoryCode: string; ownerType: string }>(request, 'product.detail', { code: 'HZ-WM-300' }, token);
  expect(created.data).toMatchObject({ name: '智能远传水表（定制）', categoryCode: 'C0101', ownerType: 'tenant' });

  // 设备设置: the tenant's own report interval for the shared water meter.
  await openFromMenu(page, '产品管理', '设备设置');
  await expect(page).toHaveURL(/\/product\/device\/setting$/);
  const settings = await expectListWithData(page, '设备设置');
  await search(settings, 'PRD-WM-NB');
  const meterRow = settings.locator('.ant-table-row', { hasText: 'PRD-WM-NB' });
  await expect(meterRow).toContainText('产品默认');
  await meterRow.getByRole('button', { name: /设\s*置/ }).click();
  await expect(drawer.getByLabel('上报周期（分钟）')).toHaveValue('60');
  await drawer.getByLabel('上报周期（分钟）').fill('30');
  await drawer.getByLabel('心跳周期（分钟）').fill('120');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('设置成功！').first()).toBeVisible();
  await expect(meterRow).toContainText('租户自定义');
  const saved = await callOperation<{ reportIntervalMinutes: number; heartbeatMinutes: number; settingsSource: string }>(request, 'product.deviceSetting.get', { productCode: 'PRD-WM-NB' }, token);
  expect(saved.data).toMatchObject({ reportIntervalMinutes: 30, heartbeatMinutes: 120, settingsSource: 'tenant' });

  // 产品分类: add a category under 计量仪表.
  await openFromMenu(page, '产品管理', '产品分类');
  await expect(page).toHaveURL(/\/category\/list$/);
  const categories = await expectListWithData(page, '产品分类');
  await categories.getByRole('button', { name: '新增分类' }).click();
  await drawer.getByLabel('分类编码').fill('HZ-VALVE');
  await drawer.getByLabel('分类名称').fill('智能阀控');
  await drawer.getByRole('combobox', { name: '上级分类' }).click();
  await page.locator('.ant-select-tree-title', { hasText: /^计量仪表$/ }).click();
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('设置成功！').first()).toBeVisible();
  await search(categories, 'HZ-VALVE');
  await expect(categories.locator('.ant-table-row', { hasText: 'HZ-VALVE' })).toContainText('计量仪表');
  const category = await callOperation<{ categoryName: string; parentCode: string }>(request, 'category.detail', { code: 'HZ-VALVE' }, token);
  expect(category.data).toMatchObject({ categoryName: '智能阀控', parentCode: 'C01' });

  expect(errors).toEqual([]);
});

test('the tenant admin configures and handles alarms from the menu', async ({ page, request }) => {
  test.setTimeout(150_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);

  // 告警配置: disable a rule, then enable it again.
  await openFromMenu(page, '告警管理', '告警配置');
  await expect(page).toHaveURL(/\/alarm\/config$/);
  const rules = await expectListWithData(page, '告警配置');
  await search(rules, '网关离线告警');
  const ruleRow = rules.locator('.ant-table-row', { hasText: '网关离线告警' });
  await expect(ruleRow).toContainText('离线时长 > 10分钟');
  await ruleRow.getByRole('button', { name: /停\s*用/ }).click();
  await confirmPopover(page);
  await expect(page.locator('.ant-message-notice', { hasText: '已停用' })).toBeVisible();
  await expect(ruleRow.getByRole('button', { name: /启\s*用/ })).toBeVisible();
  const ruleCode = (await ruleRow.locator('td').first().textContent())?.trim() ?? '';
  const disabled = await callOperation<{ enabled: boolean }>(request, 'alarm.config.detail', { code: ruleCode }, token);
  expect(disabled.data.enabled).toBe(false);
  await ruleRow.getByRole('button', { name: /启\s*用/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '已启用' })).toBeVisible();
  expect((await callOperation<{ enabled: boolean }>(request, 'alarm.config.detail', { code: ruleCode }, token)).data.enabled).toBe(true);

  // 告警记录: handle a pending alarm with a remark.
  await openFromMenu(page, '告警管理', '告警记录');
  await expect(page).toHaveURL(/\/alarm\/record$/);
  const records = await expectListWithData(page, '告警记录');
  const pending = await callOperation<Paged<{ code: string; title: string }>>(request, 'alarm.record.page', { state: 'pending' }, token);
  const alarm = pending.data.records[0];
  await search(records, alarm.code);
  const alarmRow = records.locator('.ant-table-row', { hasText: alarm.code });
  await expect(alarmRow).toContainText('待处理');
  await alarmRow.getByRole('button', { name: /处\s*理/ }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer).toContainText(alarm.code);
  await expect(drawer).toContainText(alarm.title);
  await drawer.getByLabel('处理说明').fill('现场检查后恢复正常');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '处理成功' }).last()).toBeVisible();
  await expect(alarmRow).toContainText('已处理');
  const handled = await callOperation<{ state: string; handleRemark: string; handledBy: string }>(request, 'alarm.record.detail', { code: alarm.code }, token);
  expect(handled.data).toMatchObject({ state: 'resolved', handleRemark: '现场检查后恢复正常', handledBy: 'tadmin' });
  // 详情: the alarm's own page (a hidden route), with the handling just recorded.
  await alarmRow.getByRole('button', { name: /详\s*情/ }).click();
  await expect(page).toHaveURL(new RegExp(`/alarm/record/detail\\?code=${alarm.code}$`));
  const description = page.locator('.ant-descriptions', { hasText: alarm.code }).first();
  await expect(description).toBeVisible();
  await expect(description).toContainText(alarm.title);
  await expect(page.getByText('现场检查后恢复正常')).toBeVisible();

  // 监控告警: ignore a pending monitoring alarm.
  await openFromMenu(page, '告警管理', '监控告警');
  await expect(page).toHaveURL(/\/monitoring\/alarm$/);
  const monitoring = await expectListWithData(page, '监控告警');
  const found = await callOperation<Paged<{ code: string }>>(request, 'monitoring.alarm.page', { state: 'pending' }, token);
  const finding = found.data.records[0].code;
  await search(monitoring, finding);
  const findingRow = monitoring.locator('.ant-table-row', { hasText: finding });
  await findingRow.getByRole('button', { name: /处\s*理/ }).click();
  await expect(drawer).toContainText(finding);
  await drawer.getByText('忽略', { exact: true }).click();
  await drawer.getByLabel('处理说明').fill('计划停电检修期间');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '处理成功' }).last()).toBeVisible();
  await expect(findingRow).toContainText('已忽略');
  const ignored = await callOperation<{ state: string; handleRemark: string }>(request, 'monitoring.alarm.detail', { code: finding }, token);
  expect(ignored.data).toMatchObject({ state: 'ignored', handleRemark: '计划停电检修期间' });

  expect(errors).toEqual([]);
});

test('the tenant admin opens the device and alarm boards from the menu and finds their charts drawn', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);

  await openFromMenu(page, '数据看板', '设备看板');
  await expect(page).toHaveURL(/\/dashboards\/device$/);
  const devices = await expectDashboard(page, '设备看板', 4);
  await expect(devices.locator('[data-widget-type="statistic"]').first()).toContainText('设备总数');
  await expect(devices.locator('[data-widget-type="statistic"]').first().locator('.ant-statistic-content')).not.toHaveText('0');
  await expect(devices.locator('[data-widget-type="table"] .ant-table-row').first()).toBeVisible();

  await openFromMenu(page, '数据看板', '告警看板');
  await expect(page).toHaveURL(/\/dashboards\/alarm$/);
  const alarms = await expectDashboard(page, '告警看板', 4);
  await expect(alarms.locator('[data-widget-type="statistic"]').first()).toContainText('告警总数');
  await expect(alarms.locator('[data-widget-type="statistic"]').first().locator('.ant-statistic-content')).not.toHaveText('0');

  expect(errors).toEqual([]);
});
