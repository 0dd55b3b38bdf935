import { expect, test, type Locator, type Page } from './fixtures';
import { callOperation, chooseOption, loginThroughForm, resetPlatform, tokenFor, watchErrors } from './support';

// 固件升级 (升级包, 升级任务 and a task's per-device progress), 意见反馈 (APP反馈, 其他反馈) and
// 在线组态 as the tenant admin, 应用版本 (强制更新, 热更新) as platform staff: every view opened from
// the menu shows data without an error panel or a console error, and each list does one real thing
// through the server (create a package, retry a failed task, reply, batch-reply, create a
// configuration, publish an app version).

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

interface Paged<T> {
  records: T[];
  total: number;
}

/** The page of the active tab (inactive tabs are hidden or unmounted). */
const activeTab = (page: Page): Locator => page.locator('[data-tab]:not([hidden])');

/** Clicks through the sider of a group: a folder only when its entry is not yet shown. */
async function openFromMenu(page: Page, group: string, ...path: string[]) {
  await page.getByRole('tab', { name: group }).click();
  const sider = page.getByTestId('frame-sider');
  // An entry's accessible name is its icon's name, then its own ("cloud-upload 固件升级").
  const item = (name: string) => sider.getByRole('menuitem', { name: new RegExp(`(^|\\s)${name}$`) });
  for (const [index, entry] of path.entries()) {
    const next = path[index + 1];
    if (next && (await item(next).isVisible())) continue;
    await item(entry).click();
  }
}

/** A list with rows, its title, and neither a schema error panel nor a failed load. */
async function expectListWithData(page: Page, title: string): Promise<Locator> {
  const list = activeTab(page).getByTestId('list-page').first();
  await expect(list).toContainText(title);
  await expect(list.locator('.ant-table-row').first(), title).toBeVisible();
  await expect(page.getByTestId('schema-error')).toHaveCount(0);
  await expect(activeTab(page).getByText('数据加载失败')).toHaveCount(0);
  return list;
}

async function search(list: Locator, keyword: string) {
  await list.getByTestId('list-filters').first().getByLabel('关键字').fill(keyword);
  await list.getByRole('button', { name: /查\s*询/ }).first().click();
}

/**
 * Submits the form of a drawer or modal from the keyboard: the floating 运维联系 button may cover
 * the bottom-right corner where 提交 sits.
 */
async function submit(container: Locator) {
  await container.getByRole('button', { name: /提\s*交/ }).focus();
  await container.page().keyboard.press('Enter');
}

async function confirmPopover(page: Page) {
  await page.locator('.ant-popover:visible').getByRole('button', { name: /确\s*定/ }).click();
}

test('the tenant admin opens 固件升级, 意见反馈 and 在线组态 from the menu and acts on each list', async ({ page, request }) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  const drawer = page.locator('.ant-drawer-content');

  // 升级包: add the tenant's own build through the form.
  await openFromMenu(page, '物联网', '固件升级', '升级包');
  await expect(page).toHaveURL(/\/upgrade\/package$/);
  const packages = await expectListWithData(page, '升级包');
  await packages.getByRole('button', { name: '新增升级包' }).click();
  await drawer.getByLabel('升级包名称').fill('流量计 杭州定制 v2.2.0');
  await chooseOption(page, drawer.getByRole('combobox', { name: '产品' }), '4G 电磁流量计');
  await drawer.getByLabel('版本号').fill('2.2.0');
  await drawer.getByLabel('固件地址').fill('http://ota.example.com/fm.bin');
  await drawer.getByLabel('文件大小（字节）').fill('1310720');
  await drawer.getByLabel('校验值').fill('9e107d9d372bb6826bd81d3542a419d6');
  await submit(drawer);
  await expect(drawer.getByText('请输入 https 开头的下载地址')).toBeVisible();
  await drawer.getByLabel('固件地址').fill('https://ota.example.com/firmware/YL-FM310_v2.2.0-hz.bin');
  await submit(drawer);
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await search(packages, '杭州定制');
  const packageRow = packages.locator('.ant-table-row', { hasText: '流量计 杭州定制 v2.2.0' });
  await expect(packageRow).toContainText('杭州云联科技有限公司');
  await expect(packageRow).toContainText('1.3 MB');
  const created = await callOperation<Paged<{ version: string; checksum: string; owner: string }>>(request, 'upgrade.package.page', { keyword: '杭州定制' }, token);
  expect(created.data.records).toMatchObject([{ version: '2.2.0', owner: 'tenant', checksum: '9e107d9d372bb6826bd81d3542a419d6' }]);

  // 升级任务: retry a failed task's devices, then follow a task into its per-device progress.
  await openFromMenu(page, '物联网', '固件升级', '升级任务');
  await expect(page).toHaveURL(/\/upgrade\/task$/);
  const tasks = await expectListWithData(page, '升级任务');
  const failed = await callOperation<Paged<{ id: number; name: string; failedCount: number }>>(request, 'upgrade.task.page', { keyword: '流量计 2.1.0 远程升级' }, token);
  const failedTask = failed.data.records[0];
  expect(failedTask.failedCount).toBeGreaterThan(0);
  await search(tasks, failedTask.name);
  const taskRow = tasks.locator('.ant-table-row', { hasText: failedTask.name });
  await expect(taskRow).toContainText('升级失败');
  await taskRow.getByRole('button', { name: /重\s*试/ }).click();
  await confirmPopover(page);
  await expect(page.locator('.ant-message-notice', { hasText: '已重新下发' })).toBeVisible();
  await expect(taskRow).toContainText('升级中');
  const retried = await callOperation<{ state: string; failedCount: number; pendingCount: number }>(request, 'upgrade.task.detail', { id: failedTask.id }, token);
  expect(retried.data).toMatchObject({ state: 'upgrading', failedCount: 0 });
  expect(retried.data.pendingCount).toBeGreaterThanOrEqual(failedTask.failedCount);
  await taskRow.getByRole('button', { name: /详\s*情/ }).click();
  await expect(page).toHaveURL(new RegExp(`/upgrade/task/detail\\?id=${failedTask.id}$`));
  const detail = activeTab(page).getByTestId('detail-page');
  await expect(detail).toContainText('升级任务详情');
  await expect(detail).toContainText(failedTask.name);
  await expect(detail).toContainText('设备升级明细');
  const devices = detail.getByTestId('list-page');
  await expect(devices.locator('.ant-table-row').first()).toBeVisible();
  await expect(devices.locator('.ant-table-row').first()).toContainText('2.1.0');
  await expect(page.getByTestId('schema-error')).toHaveCount(0);
  await expect(detail.getByText(/数据加载失败|加载失败/)).toHaveCount(0);

  // APP反馈: answer a pending item.
  await openFromMenu(page, '物联网', '意见反馈', 'APP反馈');
  await expect(page).toHaveURL(/\/feedback\/app$/);
  const appFeedback = await expectListWithData(page, 'APP反馈');
  const pending = await callOperation<Paged<{ id: number; code: string; content: string }>>(request, 'device.feedback.page', { feedbackType: 'app', state: 'pending' }, token);
  const item = pending.data.records[0];
  await search(appFeedback, item.code);
  const feedbackRow = appFeedback.locator('.ant-table-row', { hasText: item.code });
  await expect(feedbackRow).toContainText('待回复');
  await feedbackRow.getByRole('button', { name: /回\s*复/ }).click();
  await expect(drawer).toContainText(item.content);
  await drawer.getByLabel('回复内容').fill('您好，问题已确认，将在 3.6.0 版本修复。');
  await submit(drawer);
  await expect(page.locator('.ant-message-notice', { hasText: '回复成功' })).toBeVisible();
  await expect(feedbackRow).toContainText('已回复');
  const answered = await callOperation<{ state: string; reply: string; repliedBy: string }>(request, 'device.feedback.detail', { id: item.id }, token);
  expect(answered.data).toMatchObject({ state: 'replied', reply: '您好，问题已确认，将在 3.6.0 版本修复。', repliedBy: 'tadmin' });

  // 其他反馈: batch-reply the first two pending items.
  await openFromMenu(page, '物联网', '意见反馈', '其他反馈');
  await expect(page).toHaveURL(/\/feedback\/other$/);
  const otherFeedback = await expectListWithData(page, '其他反馈');
  await chooseOption(page, otherFeedback.getByTestId('list-filters').getByRole('combobox', { name: '状态' }), '待回复');
  await otherFeedback.getByRole('button', { name: /查\s*询/ }).first().click();
  const rows = otherFeedback.locator('.ant-table-row');
  await expect(rows.first()).toContainText('待回复');
  const codes = [((await rows.nth(0).locator('td').nth(1).textContent()) ?? '').trim(), ((await rows.nth(1).locator('td').nth(1).textContent()) ?? '').trim()];
  expect(codes.every((code) => /^FB\d{12}$/.test(code))).toBe(true);
  await rows.nth(0).locator('.ant-checkbox-input').check();
  await rows.nth(1).locator('.ant-checkbox-input').check();
  await otherFeedback.getByRole('button', { name: '批量回复' }).click();
  const modal = page.locator('.ant-modal-content');
  await modal.getByLabel('回复内容').fill('您好，已安排运维人员现场处理。');
  await submit(modal);
  // The single reply's message may still show: the closed dialog says this one was answered.
  await expect(modal).toBeHidden();
  await expect(page.locator('.ant-message-notice', { hasText: '回复成功' }).last()).toBeVisible();
  for (const code of codes) {
    const found = await callOperation<Paged<{ code: string; state: string; reply: string }>>(request, 'device.feedback.page', { keyword: code }, token);
    expect(found.data.records).toMatchObject([{ code, state: 'replied', reply: '您好，已安排运维人员现场处理。' }]);
  }

  // 在线组态: create a configuration with a widget bound to a device.
  await openFromMenu(page, '物联网', '在线组态');
  await expect(page).toHaveURL(/\/online\/configuration$/);
  const configurations = await expectListWithData(page, '在线组态');
  // A pressure gauge of the tenant: one that took part in a 压力计 upgrade.
  const pressureTask = await callOperation<Paged<{ id: number }>>(request, 'upgrade.task.page', { productCode: 'PRD-PG-NB' }, token);
  const gauges = await callOperation<Paged<{ deviceCode: string }>>(request, 'upgrade.task.device.page', { taskId: pressureTask.data.records[0].id, state: 'succeeded' }, token);
  const gaugeCode = gauges.data.records[0]?.deviceCode ?? '';
  expect(gaugeCode).toMatch(/^PGNB01\d{6}$/);
  await configurations.getByRole('button', { name: '新增组态' }).click();
  await drawer.getByLabel('组态名称').fill('上城区管网压力值守画面');
  await drawer.getByRole('combobox', { name: '所属组织' }).click();
  await page.locator('.ant-select-tree-node-content-wrapper', { hasText: '上城区管网片区' }).click();
  await drawer.getByRole('button', { name: '添加组件' }).click();
  const widget = drawer.locator('[data-array-row="0"]');
  await chooseOption(page, widget.getByRole('combobox', { name: '组件' }), '仪表盘');
  await widget.getByLabel('标题').fill('湖滨出站压力');
  await widget.getByLabel('设备编码').fill('PG-1');
  await submit(drawer);
  await expect(widget.getByText('请输入正确的设备编码格式')).toBeVisible();
  await page.screenshot({ path: '/tmp/fw-configuration-form.png' });
  await widget.getByLabel('设备编码').fill(gaugeCode);
  await chooseOption(page, widget.getByRole('combobox', { name: '指标' }), '压力');
  await submit(drawer);
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await search(configurations, '上城区管网压力值守画面');
  await expect(configurations.locator('.ant-table-row', { hasText: '上城区管网压力值守画面' })).toContainText('上城区管网片区');
  const saved = await callOperation<Paged<{ id: number }>>(request, 'onlineConfiguration.page', { keyword: '上城区管网压力值守画面' }, token);
  const configuration = await callOperation<{ canvas: { widgets: Array<{ type: string; deviceCode: string; metric: string }> } }>(request, 'onlineConfiguration.detail', { id: saved.data.records[0].id }, token);
  expect(configuration.data.canvas.widgets).toMatchObject([{ type: 'gauge', deviceCode: gaugeCode, metric: 'pressure' }]);

  expect(errors).toEqual([]);
});

test('platform staff open 应用版本 from the menu and publish a forced update', async ({ page, request }) => {
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'admin', 'Admin@2026');
  await loginThroughForm(page, 'admin', 'Admin@2026');
  await expect(page).toHaveURL(/\/dashboard$/);

  await openFromMenu(page, '平台', '应用版本', '热更新');
  await expect(page).toHaveURL(/\/app\/version\/hot$/);
  const hot = await expectListWithData(page, '热更新');
  await expect(hot).toContainText('3.4.2');

  await openFromMenu(page, '平台', '应用版本', '强制更新');
  await expect(page).toHaveURL(/\/app\/version\/forced$/);
  const forced = await expectListWithData(page, '强制更新');
  const drafts = await callOperation<Paged<{ id: number; version: string; platform: string }>>(request, 'app.version.page', { updateType: 'forced', published: '0', platform: 'ios' }, token);
  const draft = drafts.data.records[0];
  await search(forced, draft.version);
  const row = forced.locator('.ant-table-row').filter({ hasText: draft.version }).filter({ hasText: 'iOS' });
  await expect(row).toContainText('否');
  await row.getByRole('button', { name: /发\s*布/ }).click();
  await confirmPopover(page);
  await expect(page.getByText('发布成功')).toBeVisible();
  await expect(row).toContainText('是');
  const published = await callOperation<{ published: boolean; publishedBy: string }>(request, 'app.version.detail', { id: draft.id }, token);
  expect(published.data).toMatchObject({ published: true, publishedBy: 'admin' });
  const offered = await callOperation<Array<{ version: string }>>(request, 'app.upgradePackage.list', { platform: 'ios', updateType: 'forced' }, token);
  expect(offered.data[0].version).toBe(draft.version);

  expect(errors).toEqual([]);
});
