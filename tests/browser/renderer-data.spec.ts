import { expect, test, type Locator, type Page } from './fixtures';
import { activeTab, callOperation, chooseOption, loginThroughForm, resetPlatform, tokenFor, visit, watchErrors } from './support';

// Issue 20, the renderer's data layer: a list's state in the address, one cache for every page
// tab (a change saved in one refreshes the others), and the page clamp after a delete.

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

const rows = (list: Locator) => list.locator('.ant-table-row');
/** A row's first cell with text (the selection box's cell has none): the record's code. */
const codeCell = (row: Locator) => row.locator('td').filter({ hasText: /\S/ }).first();
const activePage = (list: Locator) => list.locator('.ant-pagination-item-active');

/** The list state part of the address (its fragment), as key → value. */
async function listAddress(page: Page): Promise<Record<string, string>> {
  return Object.fromEntries(new URLSearchParams(new URL(page.url()).hash.slice(1)));
}

test('a list keeps its filters and page in the address: a reload, Back and Forward restore them', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  // Opened by a load of its address (Back returns to that entry; visit() would push one from
  // outside the router, which no user makes).
  await page.goto('/device/all');
  const list = activeTab(page).getByTestId('list-page');
  await expect(rows(list).first()).toBeVisible();
  expect(await listAddress(page)).toEqual({});

  const state = list.getByTestId('list-filters').getByRole('combobox', { name: '在线状态' });
  await chooseOption(page, state, '在线');
  await list.getByRole('button', { name: /查\s*询/ }).click();
  await expect.poll(() => listAddress(page)).toEqual({ onlineState: 'online' });
  await expect(rows(list).first()).toContainText('在线');
  const firstOfPage1 = ((await codeCell(rows(list).first()).textContent()) ?? '').trim();
  await list.locator('.ant-pagination-item-2').click();
  await expect.poll(() => listAddress(page)).toEqual({ onlineState: 'online', page: '2' });
  await expect(activePage(list)).toHaveText('2');
  // Page 1's rows stay on screen until page 2's arrive (a busy machine shows them a while): read
  // the first row once it is page 2's.
  await expect(codeCell(rows(list).first())).not.toHaveText(firstOfPage1);
  const firstOfPage2 = ((await codeCell(rows(list).first()).textContent()) ?? '').trim();
  expect(firstOfPage2).not.toBe('');

  // A reload (or the link pasted elsewhere): the same filter, page and rows.
  await page.reload();
  const reloaded = activeTab(page).getByTestId('list-page');
  await expect(activePage(reloaded)).toHaveText('2');
  await expect(codeCell(rows(reloaded).first())).toHaveText(firstOfPage2);
  await expect(reloaded.getByTestId('list-filters').locator('.ant-select-selection-item', { hasText: '在线' })).toBeVisible();

  // Back: page 1 of the search; Back: the list as it opened; Forward twice: page 2 of it again.
  await page.goBack();
  await expect(activePage(reloaded)).toHaveText('1');
  expect(await listAddress(page)).toEqual({ onlineState: 'online' });
  await expect(reloaded.getByTestId('list-filters').locator('.ant-select-selection-item', { hasText: '在线' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/device\/all$/);
  await expect(reloaded.getByTestId('list-filters').locator('.ant-select-selection-item')).toHaveCount(0);
  await expect(rows(reloaded).filter({ hasText: '离线' }).first()).toBeVisible();
  await page.goForward();
  await page.goForward();
  await expect(activePage(reloaded)).toHaveText('2');
  await expect(codeCell(rows(reloaded).first())).toHaveText(firstOfPage2);
  expect(await listAddress(page)).toEqual({ onlineState: 'online', page: '2' });
  expect(errors).toEqual([]);
});

test('a record saved in one tab shows at once in another open tab of the same entity, without a reload', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  // 设备列表 (its figures and a child list of devices) and 全部设备: two kept-alive tabs.
  await visit(page, '/device');
  // Each tab by its own address, not "the tab shown now": with two kept-alive tabs that both hold a
  // list, a locator through the shown tab once resolved into the other tab's list (CI, stops 20 and 21).
  const overview = page.locator('[data-tab="/device"]').getByTestId('detail-page');
  const totalCell = overview.locator('th', { hasText: '设备总数' }).locator('xpath=following-sibling::td[1]');
  await expect(totalCell).toHaveText(/\d/);
  const totalBefore = Number((await totalCell.textContent())?.replace(/\D/g, ''));
  await expect(rows(overview).first()).toBeVisible();
  await visit(page, '/device/all');
  const all = page.locator('[data-tab="/device/all"]').getByTestId('list-page');
  await expect(rows(all).first()).toBeVisible();
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  // Rename the newest device in 全部设备.
  const first = rows(all).first();
  const code = ((await codeCell(first).textContent()) ?? '').trim();
  expect(code).toMatch(/\w{6,}/);
  await first.getByRole('button', { name: /编\s*辑/ }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.getByLabel('设备名称')).toBeEnabled();
  await drawer.getByLabel('设备名称').fill('改名后的水表');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await expect(rows(all).filter({ hasText: code }).first()).toContainText('改名后的水表');

  // The other tab, hidden while it happened, shows the new name.
  await page.getByTestId('page-tabs').getByRole('tab', { name: '设备列表' }).click();
  await expect(page).toHaveURL(/\/device$/);
  await expect(rows(overview).filter({ hasText: code }).first()).toContainText('改名后的水表');

  // Delete it from 全部设备: 设备列表's count and its list follow.
  await page.getByTestId('page-tabs').getByRole('tab', { name: '全部设备' }).click();
  // 删除 is past the row's three links (详情, 编辑, 关注): under 更多.
  const row = rows(all).filter({ hasText: code }).first();
  await row.getByRole('button', { name: /更多/ }).click();
  await page.getByRole('menuitem', { name: '删除' }).click();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(rows(all).filter({ hasText: code })).toHaveCount(0);
  await page.getByTestId('page-tabs').getByRole('tab', { name: '设备列表' }).click();
  await expect(totalCell).toHaveText(new Intl.NumberFormat('en-US').format(totalBefore - 1));
  await expect(rows(overview).filter({ hasText: code })).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  expect(errors).toEqual([]);
});

test('deleting the only row of the last page goes to the new last page, not an empty one', async ({ page, request }) => {
  const errors = watchErrors(page);
  // 21 users named clamp…: a second page of one row.
  const token = await tokenFor(request, 'tadmin');
  const tree = await callOperation<Array<{ organizationCode: string }>>(request, 'organization.tree', {}, token);
  const organizationCode = tree.data[0].organizationCode;
  for (let i = 1; i <= 21; i += 1) {
    const reply = await callOperation(
      request,
      'system.user.insert',
      { user: { loginName: `clamp${String(i).padStart(2, '0')}`, userName: `翻页${i}`, organizationCode, roleCode: 'ROLE_TENANT_REPAIR', status: '1' } },
      token,
    );
    expect(reply.code, JSON.stringify(reply)).toBe('200');
  }
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/system/user');
  const list = activeTab(page).getByTestId('list-page');
  await expect(rows(list).first()).toBeVisible();
  await list.getByTestId('list-filters').getByLabel('关键字').fill('clamp');
  await list.getByRole('button', { name: /查\s*询/ }).click();
  await expect(list.getByText('共 21 条')).toBeVisible();
  await list.locator('.ant-pagination-item-2').click();
  await expect(rows(list)).toHaveCount(1);
  expect((await listAddress(page)).page).toBe('2');

  const last = rows(list).first();
  await last.getByRole('button', { name: /更多/ }).click();
  await page.getByRole('menuitem', { name: '删除' }).click();
  await page.getByRole('button', { name: /确\s*定/ }).click();

  // Page 1 of the 20 left, its pager without a page 2, and the address says so (replaced, not pushed).
  await expect(list.getByText('共 20 条')).toBeVisible();
  await expect(activePage(list)).toHaveText('1');
  await expect(rows(list)).toHaveCount(20);
  await expect(list.locator('.ant-pagination-item-2')).toHaveCount(0);
  await expect(list.locator('.ant-table-placeholder')).toHaveCount(0);
  await expect.poll(() => listAddress(page)).toEqual({ keyword: 'clamp' });
  // Back goes to the search as it was before page 2, not to the page that is gone.
  await page.goBack();
  await expect(page).toHaveURL(/#keyword=clamp$/);
  await expect(activePage(list)).toHaveText('1');
  await expect(rows(list)).toHaveCount(20);
  await page.goBack();
  await expect(page).toHaveURL(/\/system\/user$/);
  await expect(list.getByText(/共 [\d,]+ 条/)).not.toHaveText('共 20 条');
  expect(errors).toEqual([]);
});
