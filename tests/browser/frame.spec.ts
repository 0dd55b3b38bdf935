import { expect, test, type Page } from './fixtures';
import { loginThroughForm, resetPlatform, sessionStorageOf, watchErrors } from './support';

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

async function signIn(page: Page, loginName: string, password?: string) {
  await loginThroughForm(page, loginName, password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('the organisation switcher searches the tree, hides type 5, and switching goes to /dashboard', async ({ page }) => {
  const errors = watchErrors(page);
  await signIn(page, 'tadmin');
  await page.goto('/system/user');
  await page.getByTestId('organization-trigger').click();
  const switcher = page.getByTestId('organization-switcher');
  await expect(switcher).toContainText('杭州云联科技有限公司');
  await switcher.getByLabel('搜索组织').fill('外协');
  await expect(switcher).toContainText('没有匹配的组织');
  await switcher.getByLabel('搜索组织').fill('泵站');
  await switcher.getByText('灵隐加压泵站').click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(switcher).toBeHidden();
  const stored = await sessionStorageOf(page);
  expect(stored.orgCode).toBe('T0001P01A0101');
  expect(stored.customName).toBe('灵隐加压泵站');
  expect(stored.tenantCode).toBe('T0001');
  await expect(page.getByTestId('organization-trigger')).toContainText('灵隐加压泵站');

  // A node with children is chosen, then confirmed.
  await page.getByTestId('organization-trigger').click();
  await switcher.getByLabel('搜索组织').fill('');
  await switcher.getByText('钱塘智慧园区项目').click();
  await switcher.getByRole('button', { name: /确\s*认/ }).click();
  await expect.poll(async () => (await sessionStorageOf(page)).orgCode).toBe('T0001P02');
  expect(errors).toEqual([]);
});

test('group tabs show only groups with entries, labelled from menu_classification', async ({ page }) => {
  await signIn(page, 'tadmin');
  const groups = page.locator('.ant-layout-header .ant-tabs-tab');
  await expect(groups).toHaveText(['物联网', '项目', '系统', '基础', '商城']);
  await page.getByRole('tab', { name: '项目' }).click();
  await expect(page.getByTestId('frame-sider').getByRole('menuitem').first()).toBeVisible();
  await page.evaluate(() => window.sessionStorage.clear());
  await signIn(page, 'repair');
  await expect(groups).not.toHaveText(['物联网', '项目', '系统', '基础', '商城']);
  await expect(page.getByRole('tab', { name: '商城' })).toHaveCount(0);
});

/** The icon each element shows: antd draws `<span class="anticon anticon-bell">`. */
async function iconsOf(elements: ReturnType<Page['locator']>): Promise<string[]> {
  return elements.evaluateAll((spans) => spans.map((span) => [...span.classList].find((name) => name.startsWith('anticon-')) ?? '(none)'));
}

const repeated = (values: readonly string[]) => values.filter((value, index) => values.indexOf(value) !== index);

test('menu entries and the 快捷入口 tiles tell themselves apart by their icons (issue 21)', async ({ page }) => {
  await signIn(page, 'tadmin');
  const sider = page.getByTestId('frame-sider');
  await expect(sider.getByRole('menuitem', { name: '设备管理' })).toBeVisible();
  // The icons come in their own chunk: until it is in, an entry shows an empty square.
  const topIcons = sider.locator('.ant-menu-root > li.ant-menu-item > .anticon, .ant-menu-root > li.ant-menu-submenu > .ant-menu-submenu-title > .anticon');
  await expect.poll(async () => (await iconsOf(topIcons)).filter((icon) => icon !== '(none)').length).toBeGreaterThan(5);
  const top = await iconsOf(topIcons);
  expect(top).not.toContain('(none)');
  expect(repeated(top)).toEqual([]);
  // The second level of an open group.
  await sider.getByRole('menuitem', { name: '设备管理' }).click();
  const open = sider.locator('.ant-menu-submenu-open > .ant-menu-sub > .ant-menu-item');
  await expect(open.getByText('设备列表')).toBeVisible();
  // An opened group's icons may still be on their way (an empty square until then).
  await expect.poll(async () => (await iconsOf(open.locator('.anticon'))).includes('(none)')).toBe(false);
  const second = await iconsOf(open.locator('.anticon'));
  expect(second.length).toBe(await open.count());
  expect(second.length).toBeGreaterThanOrEqual(5);
  expect(second).not.toContain('anticon-appstore');
  expect(repeated(second)).toEqual([]);
  // The dashboard's quick entries.
  const tiles = page.getByTestId('dashboard').locator('.ant-card-hoverable');
  await expect(tiles.first()).toBeVisible();
  await expect.poll(async () => (await iconsOf(tiles.locator('.anticon'))).includes('(none)')).toBe(false);
  const tileIcons = await iconsOf(tiles.locator('.anticon'));
  expect(tileIcons.length).toBe(await tiles.count());
  expect(tileIcons.length).toBeGreaterThan(10);
  expect(tileIcons).not.toContain('anticon-appstore');
  expect(repeated(tileIcons)).toEqual([]);
});

test('page tabs: open, keep a cached page, refuse closing the last dashboard tab, close all', async ({ page }) => {
  await signIn(page, 'tadmin');
  const tabs = page.getByTestId('page-tabs');
  // In-app navigation (a page.goto would reload the console and its tabs).
  await page.getByRole('tab', { name: '系统' }).click();
  await page.getByRole('menuitem', { name: '权限管理' }).click();
  await page.getByRole('menuitem', { name: '用户管理' }).click();
  const filters = page.locator('[data-tab="/system/user"]').getByTestId('list-filters');
  await filters.getByLabel('关键字').fill('hz0');
  await page.getByRole('menuitem', { name: '系统设置' }).click();
  await page.getByRole('menuitem', { name: '登录日志' }).click();
  await expect(tabs.locator('.ant-tabs-nav-list > .ant-tabs-tab')).toHaveText(['工作台', '用户管理', '登录日志']);
  await tabs.locator('.ant-tabs-nav-list > .ant-tabs-tab', { hasText: '用户管理' }).click();
  await expect(page).toHaveURL(/\/system\/user$/);
  await expect(filters.getByLabel('关键字')).toHaveValue('hz0');

  await tabs.locator('.ant-tabs-nav-list > .ant-tabs-tab', { hasText: '工作台' }).click();
  await tabs.getByLabel('关闭工作台').click();
  await expect(page.getByText('工作台标签不能关闭')).toBeVisible();
  await expect(tabs.locator('.ant-tabs-nav-list > .ant-tabs-tab', { hasText: '工作台' })).toBeVisible();

  await tabs.getByLabel('关闭登录日志').click();
  await expect(tabs.locator('.ant-tabs-nav-list > .ant-tabs-tab')).toHaveText(['工作台', '用户管理']);
  await tabs.getByRole('button', { name: /标签操作/ }).hover();
  await page.getByText('关闭全部').click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(tabs.locator('.ant-tabs-nav-list > .ant-tabs-tab')).toHaveText(['工作台']);
});

test('notifications: counts, the latest 3, a script in a body never runs, mark all read, the daily-read modal', async ({ page }) => {
  await signIn(page, 'tadmin');
  await page.getByTestId('notification-bell').click();
  const panel = page.getByTestId('notification-panel');
  const daily = panel.getByRole('tab', { name: /日常阅读/ });
  await expect(daily).toHaveText(/日常阅读\(\d+\)/);
  await expect(panel.getByTestId('notification-item')).toHaveCount(3);

  await panel.getByTestId('notification-item').first().click();
  const modal = page.locator('.ant-modal-content');
  await expect(modal.getByTestId('daily-read-body')).toBeVisible();
  const firstTitle = await modal.locator('.ant-modal-title').textContent();
  await modal.getByRole('button', { name: /下一条/ }).click();
  await expect(modal.locator('.ant-modal-title')).not.toHaveText(firstTitle ?? '');
  await modal.getByRole('button', { name: /上一条/ }).click();
  await expect(modal.locator('.ant-modal-title')).toHaveText(firstTitle ?? '');
  await expect(modal.getByRole('button', { name: /上一条/ })).toBeDisabled();
  await modal.locator('.ant-modal-close').click();
  await expect(modal).toBeHidden();

  // The seeded body with a script and an onerror handler: nothing ran.
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

  await page.getByTestId('notification-bell').click();
  await panel.getByRole('button', { name: /全部已读/ }).click();
  await expect(daily).toHaveText('日常阅读(0)');
  await expect(panel.getByRole('button', { name: /全部已读/ })).toBeDisabled();
  await panel.getByRole('button', { name: /查看全部/ }).click();
  await expect(page).toHaveURL(/\/system\/daily\/read$/);
});

test('the account drawer shows the access key to the tenant admin only, masked until viewed; my orders likewise', async ({ page }) => {
  await signIn(page, 'tadmin');
  await expect(page.getByTestId('my-orders')).toBeVisible();
  await page.getByTestId('user-menu').hover();
  await page.getByText('账号信息').click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.getByTestId('login-user-name')).toHaveText('tadmin');
  await expect(drawer.getByTestId('phone')).toHaveText('1380****0001');
  const key = drawer.getByTestId('access-key');
  await expect(key).toContainText('*');
  await drawer.getByRole('button', { name: /查\s*看/ }).click();
  await expect(key).not.toContainText('*');

  await page.evaluate(() => window.sessionStorage.clear());
  await signIn(page, 'repair');
  await expect(page.getByTestId('my-orders')).toHaveCount(0);
  await page.getByTestId('user-menu').hover();
  await page.getByText('账号信息').click();
  await expect(drawer.getByTestId('login-user-name')).toHaveText('repair');
  await expect(drawer.getByTestId('access-key')).toHaveCount(0);
});

test('the nickname edits in place: required, then 编辑成功！ and back to display', async ({ page }) => {
  await signIn(page, 'tadmin');
  await page.getByTestId('user-menu').hover();
  await page.getByText('账号信息').click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByRole('button', { name: '编辑昵称' }).click();
  await drawer.getByLabel('用户昵称').fill('');
  await drawer.getByRole('button', { name: /保\s*存/ }).click();
  await expect(drawer.getByText('请输入用户昵称').last()).toBeVisible();
  await drawer.getByLabel('用户昵称').fill('张明明');
  await drawer.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('编辑成功！')).toBeVisible();
  await expect(drawer.getByTestId('nickname')).toHaveText('张明明');
  await expect(page.getByTestId('user-menu')).toContainText('张明明');
});

test('the card startup check shows a banner for a tenant with a card order awaiting confirmation', async ({ page }) => {
  await signIn(page, 'tadmin');
  const banner = page.getByRole('alert').filter({ hasText: '您有待确认的卡订单' });
  await expect(banner).toBeVisible();
  await banner.getByRole('button', { name: /去确认/ }).click();
  await expect(page).toHaveURL(/\/card\/order\/user$/);
  await expect(banner).toHaveCount(0);
  // Another tenant's admin in a tab of their own (the session lives in the tab's sessionStorage).
  const other = await page.context().newPage();
  const checked = other.waitForResponse((response) => response.url().endsWith('/card/order/_isBulletBox'));
  await signIn(other, 'badmin');
  await checked;
  await expect(other.getByTestId('dashboard')).toBeVisible();
  await expect(other.getByText('您有待确认的卡订单')).toHaveCount(0);
});

test('a lost network shows a banner; when it returns, the page that failed loads again by itself', async ({ page }) => {
  await signIn(page, 'tadmin');
  await page.getByRole('tab', { name: '系统' }).click();
  await page.getByRole('menuitem', { name: '权限管理' }).click();
  await page.getByRole('menuitem', { name: '用户管理' }).click();
  const list = page.locator('[data-tab="/system/user"]').getByTestId('list-page');
  await expect(list.locator('.ant-table-row').first()).toBeVisible();

  await page.context().setOffline(true);
  const banner = page.getByTestId('network-banner');
  await expect(banner).toContainText('网络连接已断开');
  await list.getByRole('button', { name: '刷新' }).click();
  await expect(list.getByText('数据加载失败')).toBeVisible();
  await expect(page.getByText('系统错误，请联系管理员').first()).toBeVisible();

  await page.context().setOffline(false);
  await expect(banner).toHaveCount(0);
  await expect(page.getByText('网络已恢复')).toBeVisible();
  await expect(list.getByText('数据加载失败')).toHaveCount(0);
  await expect(list.locator('.ant-table-row').first()).toBeVisible();
});
