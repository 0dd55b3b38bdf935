import { expect, test, type Page } from './fixtures';
import { activeTab, loginThroughForm, resetPlatform, visit } from './support';

/**
 * Issue 21: the frame follows the location on every kind of move (a menu click, a page-tab click,
 * Back and Forward, a typed address): the top bar's group, the sider's selected entry and open
 * folders, the page tab and the browser title `页面名 - 物联网设备平台`. A known page the role may
 * not open is 403 inside the frame; loading the console logs no React Router warning.
 */

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

interface Place {
  group: string;
  selected: string;
  open: string[];
  tab: string;
}

async function expectPlace(page: Page, place: Place, move: string): Promise<void> {
  const sider = page.getByTestId('frame-sider');
  await expect(page.locator('.ant-layout-header .ant-tabs-tab-active'), `${move}: group`).toHaveText(place.group);
  await expect(sider.locator('.ant-menu-item-selected'), `${move}: selected entry`).toHaveText([place.selected]);
  await expect(sider.locator('.ant-menu-submenu-open > .ant-menu-submenu-title'), `${move}: open folders`).toHaveText(place.open);
  await expect(page.getByTestId('page-tabs').locator('.ant-tabs-tab-active'), `${move}: page tab`).toHaveText(place.tab);
  await expect(page, `${move}: title`).toHaveTitle(`${place.tab} - 物联网设备平台`);
}

const ALARMS: Place = { group: '物联网', selected: '告警记录', open: ['告警管理'], tab: '告警记录' };
const USERS: Place = { group: '系统', selected: '用户管理', open: ['权限管理'], tab: '用户管理' };

test('group, sider selection, open folders, page tab and title follow menu clicks, Back/Forward, tab clicks and typed addresses', async ({ page }) => {
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page).toHaveTitle('工作台 - 物联网设备平台');
  const sider = page.getByTestId('frame-sider');

  // Menu clicks: 告警记录, then another section.
  await page.locator('.ant-layout-header').getByRole('tab', { name: '物联网' }).click();
  await sider.getByRole('menuitem', { name: '告警管理' }).click();
  await sider.getByRole('menuitem', { name: '告警记录' }).click();
  await expect(page).toHaveURL(/\/alarm\/record$/);
  await expectPlace(page, ALARMS, 'menu click');
  // The 系统 group chosen by hand on 告警记录, then a page of it.
  await page.locator('.ant-layout-header').getByRole('tab', { name: '系统' }).click();
  await sider.getByRole('menuitem', { name: '权限管理' }).click();
  await sider.getByRole('menuitem', { name: '用户管理' }).click();
  await expect(page).toHaveURL(/\/system\/user$/);
  await expectPlace(page, USERS, 'second menu click');

  // Back and Forward.
  await page.goBack();
  await expect(page).toHaveURL(/\/alarm\/record$/);
  await expectPlace(page, ALARMS, 'Back');
  await page.goForward();
  await expect(page).toHaveURL(/\/system\/user$/);
  await expectPlace(page, USERS, 'Forward');

  // A page-tab click.
  await page.getByTestId('page-tabs').locator('.ant-tabs-nav-list > .ant-tabs-tab', { hasText: '告警记录' }).click();
  await expect(page).toHaveURL(/\/alarm\/record$/);
  await expectPlace(page, ALARMS, 'page-tab click');

  // A typed address (the console loads afresh).
  await page.goto('/system/login/log');
  await expectPlace(page, { group: '系统', selected: '登录日志', open: ['系统设置'], tab: '登录日志' }, 'typed address');
});

test('a known page the role may not open is 403 inside the frame; a made-up path is still 404', async ({ page }) => {
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  // 菜单管理 is the platform's (PLATFORM_ADMIN).
  await page.goto('/system/menu');
  await expect(page).toHaveURL(/\/system\/menu$/);
  await expect(page.getByTestId('frame-sider')).toBeVisible();
  const forbidden = activeTab(page).getByTestId('forbidden-page');
  await expect(forbidden).toContainText('403');
  await expect(forbidden).toContainText('抱歉，您的角色无权访问此页面');
  await expect(page.getByTestId('page-tabs').locator('.ant-tabs-tab-active')).toHaveText('无权访问');
  await expect(page).toHaveTitle('无权访问 - 物联网设备平台');
  await forbidden.getByRole('button', { name: '返回工作台' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await visit(page, '/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByText('抱歉，您访问的页面不存在')).toBeVisible();
  await expect(page).toHaveTitle('页面不存在 - 物联网设备平台');
});

test('loading the console logs no React Router warning', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
  });
  await page.goto('/login');
  await expect(page).toHaveTitle('登录 - 物联网设备平台');
  await loginThroughForm(page, 'tadmin');
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await page.goto('/system/user');
  await expect(activeTab(page).getByTestId('list-page').locator('.ant-table-row').first()).toBeVisible();
  expect(warnings.filter((text) => /React Router|<Routes>|useRoutes|route/i.test(text))).toEqual([]);
});
