import { expect, test, type Locator, type Page } from './fixtures';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseOption, loginThroughForm, resetPlatform, setChecked, watchErrors } from './support';

// 设备管理 as the tenant admin: every view opened from the sider shows data without an error, and
// each list does one real thing through the server (create, delete, follow, bind, export, import,
// send a command).

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

// Tall enough that a drawer's 提交 does not sit under the floating 运维联系 button.
test.use({ viewport: { width: 1440, height: 1000 } });

/** The list of a view (opened pages stay mounted in their tabs, so each is found by its view). */
const listOf = (page: Page, view: string) => page.locator(`[data-testid="list-page"][data-view="${view}"]`);

/** antd puts a space between the two characters of a two-character button label. */
const label = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`);

/** An antd Select by its field's label: clicked on the Select, as its shown value covers the input. */
const selectOf = (scope: Locator, label: string) => scope.locator('.ant-select').filter({ has: scope.page().getByRole('combobox', { name: label }) });

/** A sider entry by its name (a folder's accessible name starts with its icon's). */
const entry = (name: string) => new RegExp(`(^|\\s)${name}$`);

/** Opens a leaf of 物联网 → 设备管理 from the sider, expanding the folder when it is closed. */
async function openDeviceView(page: Page, name: string) {
  await page.getByRole('tab', { name: '物联网', exact: true }).click();
  const sider = page.getByTestId('frame-sider');
  const leaf = sider.getByRole('menuitem', { name: entry(name) });
  if (!(await leaf.isVisible())) await sider.getByRole('menuitem', { name: entry('设备管理') }).click();
  await leaf.click();
}

async function expectRows(page: Page, view: Locator, what: string) {
  await expect(view.locator('.ant-table-row').first(), what).toBeVisible();
  await expect(page.getByTestId('schema-error'), what).toHaveCount(0);
  await expect(page.getByText('数据加载失败'), what).toHaveCount(0);
}

const VIEWS: Array<[string, RegExp, string]> = [
  ['设备列表', /\/device$/, 'device/listTable'],
  ['全部设备', /\/device\/all$/, 'device/all'],
  ['关注设备', /\/device\/care$/, 'device/care'],
  ['电池管理', /\/device\/battery$/, 'device/battery'],
  ['设备物联网卡', /\/device\/card$/, 'device/card'],
  ['批量导入', /\/device\/batch\/insert$/, 'device/batchInsert'],
];

test('the tenant admin opens every device view from the menu and finds data, no error panel and no console error', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  for (const [name, url, view] of VIEWS) {
    await openDeviceView(page, name);
    await expect(page, name).toHaveURL(url);
    await expectRows(page, listOf(page, view), name);
  }
  // The summary above 设备列表.
  await openDeviceView(page, '设备列表');
  const summary = page.locator('[data-testid="detail-page"][data-view="device/list"]');
  await expect(summary.getByText('设备总数')).toBeVisible();
  // A KPI shows the exact number with thousand separators (SPEC §9's floor is for badges).
  await expect(summary.locator('.ant-descriptions-item-content').first()).toHaveText(/^\d{1,3}(,\d{3})*$/);

  // A device's detail, reached from the list: its descriptions, telemetry and commands.
  await openDeviceView(page, '全部设备');
  const list = listOf(page, 'device/all');
  await chooseOption(page, list.getByTestId('list-filters').getByRole('combobox', { name: '在线状态' }), '在线');
  await list.getByRole('button', { name: label('查询') }).click();
  await expect(list.locator('.ant-table-row').first()).toContainText('在线');
  const link = list.locator('.ant-table-row').first().getByRole('link').first();
  const code = (await link.textContent())?.trim() ?? '';
  expect(code).toMatch(/^[A-Z0-9]{12}$/);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/device/detail\\?code=${code}$`));
  const detail = page.locator('[data-testid="detail-page"][data-view="device/detail"]');
  await expect(detail.getByText(code).first()).toBeVisible();
  await expect(detail.getByText('运行状态')).toBeVisible();
  await expect(listOf(page, 'device/data').locator('.ant-table-row').first()).toBeVisible();

  // The tenant's chosen tags head the detail; 标签显示设置 changes the choice for the tenant.
  // Bordered descriptions: the label is a header cell, its value the cell after it.
  const tags = detail.locator('xpath=.//th[normalize-space()="设备标签"]/following-sibling::td[1]');
  await expect(tags.locator('.ant-tag', { hasText: /^产品：/ })).toBeVisible();
  await expect(tags.locator('.ant-tag', { hasText: /^安装地址：/ })).toHaveCount(0);
  await detail.getByRole('button', { name: '标签显示设置' }).click();
  const settings = page.locator('.ant-modal-content');
  await setChecked(settings.getByRole('checkbox', { name: '产品' }), false);
  await setChecked(settings.getByRole('checkbox', { name: '安装地址' }));
  await settings.getByRole('button', { name: label('提交') }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await expect(settings).toBeHidden();
  await expect(tags.locator('.ant-tag', { hasText: /^安装地址：.+/ })).toBeVisible();
  await expect(tags.locator('.ant-tag', { hasText: /^产品：/ })).toHaveCount(0);
  await expect(page.getByTestId('schema-error')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('全部设备 creates a device through the form, follows it, exports; 设备列表 deletes one; 关注设备 unfollows', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await openDeviceView(page, '全部设备');
  const list = listOf(page, 'device/all');
  await expectRows(page, list, '全部设备');

  // Create: the code rule is checked in the form, then the server stores the device.
  await list.getByRole('button', { name: '新增设备' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByLabel('设备编码').fill('LVLR0188');
  await drawer.getByLabel('设备名称').fill('液位计-龙井水厂清水池');
  await drawer.getByRole('button', { name: label('提交') }).click();
  await expect(drawer.getByText('请输入正确的设备编码格式')).toBeVisible();
  await drawer.getByLabel('设备编码').fill('LVLR01880001');
  await chooseOption(page, drawer.getByRole('combobox', { name: '产品' }), '超声波液位计');
  await drawer.getByRole('combobox', { name: '所属组织' }).fill('龙井水厂');
  await page.locator('.ant-select-tree-node-content-wrapper', { hasText: '龙井水厂' }).click();
  await drawer.getByLabel('安装地址').fill('浙江省杭州市西湖区龙井路1号');
  await drawer.getByRole('button', { name: label('提交') }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await expect(drawer).toBeHidden();

  await list.getByTestId('list-filters').getByLabel('关键字').fill('LVLR01880001');
  await list.getByRole('button', { name: label('查询') }).click();
  const row = list.locator('.ant-table-row', { hasText: 'LVLR01880001' });
  await expect(row).toContainText('液位计-龙井水厂清水池');
  await expect(row).toContainText('未激活');
  await expect(list.locator('.ant-table-row')).toHaveCount(1);

  // Follow it from the row.
  await row.getByRole('button', { name: label('关注') }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '已关注' })).toBeVisible();
  await expect(row.getByRole('button', { name: '取消关注' })).toBeVisible();

  // Export the filtered list.
  const download = page.waitForEvent('download');
  await list.getByRole('button', { name: /导\s*出$/ }).click();
  expect((await download).suggestedFilename()).toMatch(/^设备列表-\d{8}\.xlsx$/);

  // 关注设备 lists it; unfollow after the confirmation.
  await openDeviceView(page, '关注设备');
  const care = listOf(page, 'device/care');
  const followed = care.locator('.ant-table-row', { hasText: 'LVLR01880001' });
  await expect(followed).toBeVisible();
  await followed.getByRole('button', { name: '取消关注' }).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: label('确定') }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '已取消关注' })).toBeVisible();
  await expect(care.locator('.ant-table-row', { hasText: 'LVLR01880001' })).toHaveCount(0);

  // 设备列表: delete it to the recycle bin, confirmed first.
  await openDeviceView(page, '设备列表');
  const fleet = listOf(page, 'device/listTable');
  // Filtered once its first page is shown, as a user would (the list is new in its tab).
  await expectRows(page, fleet, '设备列表');
  await fleet.getByTestId('list-filters').getByLabel('关键字').fill('LVLR01880001');
  await fleet.getByRole('button', { name: label('查询') }).click();
  await expect(fleet.getByTestId('list-filters').getByLabel('关键字')).toHaveValue('LVLR01880001');
  await expect(fleet.locator('.ant-table-row')).toHaveCount(1);
  await fleet.locator('.ant-table-row', { hasText: 'LVLR01880001' }).getByRole('button', { name: label('删除') }).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: label('确定') }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '已移入回收站' })).toBeVisible();
  await expect(fleet.locator('.ant-table-row', { hasText: 'LVLR01880001' })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('设备物联网卡 binds a card, 电池管理 exports, 批量导入 takes the template back, 设备详情 sends a command', async ({ page }) => {
  const errors = watchErrors(page);
  const folder = mkdtempSync(join(tmpdir(), 'devices-fleet-'));
  try {
    await loginThroughForm(page, 'tadmin');
    await expect(page).toHaveURL(/\/dashboard$/);

    // Bind an ICCID to a device without a card.
    await openDeviceView(page, '设备物联网卡');
    const cards = listOf(page, 'device/card');
    await selectOf(cards.getByTestId('list-filters'), '绑定状态').click();
    await page.locator('.ant-select-item-option', { hasText: '未绑定' }).click();
    await cards.getByRole('button', { name: label('查询') }).click();
    const unbound = cards.locator('.ant-table-row').first();
    await expect(unbound).toContainText('未绑定');
    const code = (await unbound.getByRole('link').first().textContent())?.trim() ?? '';
    await unbound.getByRole('button', { name: label('绑定') }).click();
    const modal = page.locator('.ant-modal-content');
    await expect(modal.getByText(code)).toBeVisible();
    await modal.getByLabel('ICCID').fill('8986032');
    await modal.getByRole('button', { name: label('提交') }).click();
    await expect(modal.getByText('请输入以89开头的19或20位数字ICCID')).toBeVisible();
    // One of 杭州云联's own free cards: another tenant's card or an invented ICCID is refused (issue 18).
    await modal.getByLabel('ICCID').fill('89860425000000000002');
    await modal.getByRole('button', { name: label('提交') }).click();
    await expect(page.getByText('绑定成功')).toBeVisible();
    await cards.getByTestId('list-filters').getByLabel('关键字').fill(code);
    await selectOf(cards.getByTestId('list-filters'), '绑定状态').click();
    await page.locator('.ant-select-item-option', { hasText: '已绑定' }).click();
    await cards.getByRole('button', { name: label('查询') }).click();
    await expect(cards.locator('.ant-table-row', { hasText: code })).toContainText('89860425000000000002');
    await expect(cards.locator('.ant-table-row', { hasText: code })).toContainText('中国移动');

    // Export the low batteries.
    await openDeviceView(page, '电池管理');
    const batteries = listOf(page, 'device/battery');
    await expect(batteries.locator('.ant-table-row').first()).toContainText('电量耗尽');
    const batteryFile = page.waitForEvent('download');
    await batteries.getByRole('button', { name: /导\s*出$/ }).click();
    expect((await batteryFile).suggestedFilename()).toMatch(/^设备电池-\d{8}\.xlsx$/);

    // Download the import template and upload it back: its example row goes in.
    await openDeviceView(page, '批量导入');
    const imports = listOf(page, 'device/batchInsert');
    const templateFile = page.waitForEvent('download');
    await imports.getByRole('button', { name: '下载导入模板' }).click();
    const template = await templateFile;
    expect(template.suggestedFilename()).toBe('设备导入模板.xlsx');
    const path = join(folder, '设备导入模板.xlsx');
    await template.saveAs(path);
    await imports.getByRole('button', { name: '导入设备' }).click();
    const importModal = page.locator('.ant-modal-content');
    await importModal.locator('input[type="file"]').setInputFiles(path);
    await expect(importModal.locator('.ant-upload-list-item-done')).toBeVisible();
    await importModal.getByRole('button', { name: label('提交') }).click();
    await expect(page.getByText('导入完成，结果见导入记录')).toBeVisible();
    const latest = imports.locator('.ant-table-row').first();
    await expect(latest).toContainText('设备导入模板.xlsx');
    await expect(latest).toContainText('全部成功');

    // Send a command to an online device from its detail page; it shows among the recent commands.
    await openDeviceView(page, '全部设备');
    const list = listOf(page, 'device/all');
    await chooseOption(page, list.getByTestId('list-filters').getByRole('combobox', { name: '在线状态' }), '在线');
    await list.getByRole('button', { name: label('查询') }).click();
    await expect(list.locator('.ant-table-row').first()).toContainText('在线');
    await list.locator('.ant-table-row').first().getByRole('button', { name: label('详情') }).click();
    const detail = page.locator('[data-testid="detail-page"][data-view="device/detail"]');
    await detail.getByRole('button', { name: '下发指令' }).click();
    const commandModal = page.locator('.ant-modal-content');
    await chooseOption(page, commandModal.getByRole('combobox', { name: '指令' }), '设置上报周期');
    await commandModal.getByLabel('上报周期（分钟）').fill('30');
    await commandModal.getByRole('button', { name: label('提交') }).click();
    await expect(page.getByText('指令已生成')).toBeVisible();
    await expect(detail.locator('.ant-table-row', { hasText: 'SET_REPORT_INTERVAL=30' })).toBeVisible();
    await expect(page.getByTestId('schema-error')).toHaveCount(0);
    expect(errors).toEqual([]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
