import { expect, test, type APIRequestContext, type Locator, type Page } from './fixtures';
import { activeTab, callOperation, DEMO_PASSWORD, loginThroughForm, resetPlatform, tokenFor, visit, watchErrors } from './support';

// 系统 as platform staff and as the tenant admin (issue 7): every system administration and
// statistics view opened from the sider shows data with neither an error panel nor a console
// error; a label constant saved and read back; a user's password reset and signed in with; and a
// button taken from a role in 权限设置, gone for that role's users after they sign in again and
// refused by the server, then given back.

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

// Tall enough that a drawer's 提交 does not sit under the floating 运维联系 button.
test.use({ viewport: { width: 1440, height: 1000 } });

interface Paged<T> {
  records: T[];
  total: number;
}

/** antd puts a space between the two characters of a two-character button label. */
const label = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`);

/** A sider entry by its name (its accessible name starts with its icon's). */
const entry = (name: string) => new RegExp(`(^|\\s)${name}$`);

/** Opens a leaf of the 系统 group from the sider, expanding its folder when it is closed. */
async function openFromMenu(page: Page, folder: string, leafName: string) {
  await page.getByRole('tab', { name: '系统', exact: true }).click();
  const sider = page.getByTestId('frame-sider');
  const leaf = sider.getByRole('menuitem', { name: entry(leafName) });
  if (!(await leaf.isVisible())) await sider.getByRole('menuitem', { name: entry(folder) }).click();
  await leaf.click();
}

async function expectNoError(page: Page, what: string) {
  await expect(page.getByTestId('schema-error'), what).toHaveCount(0);
  await expect(activeTab(page).getByText(/数据加载失败|加载失败/), what).toHaveCount(0);
}

/** A list view with rows. */
async function expectList(page: Page, view: string, what: string): Promise<Locator> {
  const list = activeTab(page).locator(`[data-testid="list-page"][data-view="${view}"]`);
  await expect(list.locator('.ant-table-row').first(), what).toBeVisible();
  await expectNoError(page, what);
  return list;
}

/** A dashboard whose widgets all loaded: figures, drawn charts, tables with rows. */
async function expectDashboard(page: Page, view: string, what: string): Promise<Locator> {
  const board = activeTab(page).locator(`[data-testid="dashboard-page"][data-view="${view}"]`);
  await expect(board, what).toBeVisible();
  const widgets = board.getByTestId('dashboard-widget');
  await expect(widgets.first(), what).toBeVisible();
  await expect(board.locator('.ant-skeleton'), what).toHaveCount(0);
  await expect(board.getByText('暂无数据'), what).toHaveCount(0);
  for (const type of ['line', 'bar', 'pie', 'gauge']) {
    for (const chart of await board.locator(`[data-widget-type="${type}"]`).all()) await expect(chart.locator('canvas'), `${what} ${type}`).toBeVisible();
  }
  for (const table of await board.locator('[data-widget-type="table"]').all()) await expect(table.locator('.ant-table-row').first(), what).toBeVisible();
  await expectNoError(page, what);
  return board;
}

/** A form page with its values loaded. */
async function expectForm(page: Page, view: string, what: string): Promise<Locator> {
  const form = activeTab(page).locator(`[data-testid="form-page"][data-view="${view}"]`);
  await expect(form, what).toBeVisible();
  await expect(form.locator('.ant-spin-spinning'), what).toHaveCount(0);
  await expectNoError(page, what);
  return form;
}

const STATISTICS: Array<[string, RegExp, string, string[]]> = [
  ['登录统计', /\/statistics\/login$/, 'statistics/login', ['年度登录趋势（按月）', '用户活跃度', '最活跃账号']],
  ['登录用户', /\/statistics\/login\/user$/, 'statistics/loginUser', ['当前在线', '各角色账号数', '最近登录用户']],
];

/** 统计分析: the two dashboards and the usage records, filtered through the server; nothing `foreign` shows. */
async function checkStatistics(page: Page, foreign?: RegExp) {
  for (const [name, url, view, titles] of STATISTICS) {
    await openFromMenu(page, '统计分析', name);
    await expect(page, name).toHaveURL(url);
    const board = await expectDashboard(page, view, name);
    for (const title of titles) await expect(board, name).toContainText(title);
    if (foreign) await expect(board, name).not.toContainText(foreign);
  }
  await openFromMenu(page, '统计分析', '使用记录');
  await expect(page).toHaveURL(/\/statistics\/usage$/);
  const records = await expectList(page, 'statistics/usageRecord', '使用记录');
  await records.getByTestId('list-filters').getByLabel('页面地址').fill('/alarm/record');
  await records.getByRole('button', { name: label('查询') }).click();
  await expect(records.locator('.ant-table-row').first()).toContainText('告警记录');
  for (const row of await records.locator('.ant-table-row').all()) await expect(row).toContainText('/alarm/record');
  if (foreign) await expect(records).not.toContainText(foreign);
}

test('platform staff open every system and statistics view from the menu and find data, no error panel and no console error', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  await loginThroughForm(page, 'admin', 'Admin@2026');
  await expect(page).toHaveURL(/\/dashboard$/);

  const lists: Array<[string, string, RegExp, string]> = [
    ['权限管理', '用户管理', /\/system\/user$/, 'system/user'],
    ['权限管理', '角色管理', /\/system\/role$/, 'system/role'],
    ['权限管理', '组织管理', /\/system\/organization$/, 'system/organization'],
    ['权限管理', '菜单管理', /\/system\/menu$/, 'system/menu'],
    ['系统设置', '字典管理', /\/system\/dictionary$/, 'system/dictionary'],
    ['系统设置', '登录日志', /\/system\/login\/log$/, 'system/loginLog'],
  ];
  for (const [folder, name, url, view] of lists) {
    await openFromMenu(page, folder, name);
    await expect(page, name).toHaveURL(url);
    await expectList(page, view, name);
  }
  await openFromMenu(page, '系统设置', '使用统计');
  await expectDashboard(page, 'dashboards/usage', '使用统计');
  // 系统状态 (issue 24): this instance's figures and its slowest operations (the sign-in among them).
  await openFromMenu(page, '系统设置', '系统状态');
  await expect(page).toHaveURL(/\/system\/status$/);
  const status = await expectDashboard(page, 'system/status', '系统状态');
  for (const title of ['版本', '数据库引擎', '运行时长', '数据库大小', '连接池：连接数', '最慢的操作（最近一小时，本实例）']) await expect(status).toContainText(title);
  // Which operations are the slowest depends on the run: the table lists some, each by its name.
  const slowest = status.locator('[data-widget-type="table"] .ant-table-row');
  await expect(slowest.first()).toBeVisible();
  await expect(slowest.first()).toContainText(/[a-z]+\.[a-zA-Z.]+/);

  // The pages reached from other pages rather than from the sider: a dictionary's items, and the
  // message lists behind the bell's 查看全部.
  for (const [path, view, what] of [
    ['/system/dictionary/child?dictType=alarm_level', 'system/childDictionary', '字典项'],
    ['/system/daily/read', 'system/notices?tab=daily', '日常阅读'],
    ['/system/message', 'system/notices?tab=system', '系统消息'],
  ] as const) {
    await visit(page, path);
    await expectList(page, view, what);
  }

  // 标签配置 at the platform root: the platform's own labels.
  await openFromMenu(page, '系统设置', '标签配置');
  await expect(page).toHaveURL(/\/system\/label$/);
  const labels = await expectForm(page, 'system/labelConfig', '标签配置');
  await expect(labels).toContainText('云联物联网平台');
  await expect(labels.getByLabel('大屏标题')).toHaveValue('物联网设备监控大屏');

  await checkStatistics(page);
  // Platform staff see both tenants' logins.
  await openFromMenu(page, '统计分析', '登录用户');
  const users = activeTab(page).locator('[data-view="statistics/loginUser"] [data-widget-type="table"]');
  await expect(users.getByText(/^sz\d\d$/).first()).toBeVisible();
  await expect(users.getByText(/^hz\d\d$/).first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('the tenant admin opens every system and statistics view granted and sees only the own tenant', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  const sider = page.getByTestId('frame-sider');

  const lists: Array<[string, string, RegExp, string]> = [
    ['权限管理', '用户管理', /\/system\/user$/, 'system/user'],
    ['权限管理', '角色管理', /\/system\/role$/, 'system/role'],
    ['权限管理', '组织管理', /\/system\/organization$/, 'system/organization'],
    ['系统设置', '登录日志', /\/system\/login\/log$/, 'system/loginLog'],
  ];
  for (const [folder, name, url, view] of lists) {
    await openFromMenu(page, folder, name);
    await expect(page, name).toHaveURL(url);
    const list = await expectList(page, view, name);
    await expect(list, name).not.toContainText('苏州智水');
  }
  // The platform's screens are not in the tenant admin's menu.
  await expect(sider.getByRole('menuitem', { name: entry('菜单管理') })).toHaveCount(0);
  await expect(sider.getByRole('menuitem', { name: entry('字典管理') })).toHaveCount(0);
  await expect(sider.getByRole('menuitem', { name: entry('系统状态') })).toHaveCount(0);

  await openFromMenu(page, '系统设置', '使用统计');
  await expectDashboard(page, 'dashboards/usage', '使用统计');
  await openFromMenu(page, '系统设置', '标签配置');
  const labels = await expectForm(page, 'system/labelConfig', '标签配置');
  await expect(labels).toContainText('杭州云联科技有限公司');
  await expect(labels.getByLabel('大屏标题')).toHaveValue('杭州云联智慧水务监控中心');

  await checkStatistics(page, /苏州智水|\bsz\d\d\b|badmin/);
  expect(errors).toEqual([]);
});

test('the tenant admin saves a label constant and reads it back', async ({ page, request }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await openFromMenu(page, '系统设置', '标签配置');
  const form = await expectForm(page, 'system/labelConfig', '标签配置');
  await expect(form.getByLabel('设备编码')).toHaveValue('设备编码');
  await form.getByLabel('设备编码').fill('表具编号');
  await form.getByLabel('大屏副标题').fill('');
  await form.getByRole('button', { name: label('提交') }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();

  // The tenant's staff read the new label; the emptied one is back to its default.
  const reply = await callOperation<Record<string, string>>(request, 'tag.tenantConstant.find', {}, await tokenFor(request, 'tuser'));
  expect(reply.data.deviceCodeLabel).toBe('表具编号');
  expect(reply.data.bigScreenSubtitle).toBe('设备运行态势实时监测');
  // The page reads them back from the server.
  await page.reload();
  const again = await expectForm(page, 'system/labelConfig', '标签配置');
  await expect(again.getByLabel('设备编码')).toHaveValue('表具编号');
  await expect(again.getByLabel('大屏副标题')).toHaveValue('设备运行态势实时监测');

  // Two device fields may not read the same: the server says so and nothing is lost.
  await again.getByLabel('设备名称').fill('表具编号');
  await again.getByRole('button', { name: label('提交') }).click();
  await expect(page.getByText('标签名称不能重复：设备编码、设备名称都叫“表具编号”')).toBeVisible();
  await expect(again.getByLabel('设备名称')).toHaveValue('表具编号');
  expect(errors).toEqual([]);
});

test('the tenant admin resets a user’s password, and the user signs in with it and must change it', async ({ page, request }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await openFromMenu(page, '权限管理', '用户管理');
  const list = await expectList(page, 'system/user', '用户管理');
  await list.getByTestId('list-filters').getByLabel('关键字').fill('repair');
  await list.getByRole('button', { name: label('查询') }).click();
  const row = list.locator('.ant-table-row', { hasText: '王强' });
  await expect(list.locator('.ant-table-row')).toHaveCount(1);
  await row.getByRole('button', { name: '重置密码' }).click();

  const modal = page.locator('.ant-modal-content', { hasText: '重置密码' });
  await expect(modal.getByTestId('form-page')).toContainText('repair');
  await modal.getByLabel('临时密码').fill('Temp@2026');
  await modal.getByLabel('确认密码').fill('Temp@2027');
  await modal.getByRole('button', { name: label('提交') }).click();
  await expect(modal.getByText('两次密码不一致')).toBeVisible();
  await modal.getByLabel('确认密码').fill('Temp@2026');
  await modal.getByRole('button', { name: label('提交') }).click();
  await expect(page.getByText('重置成功，用户下次登录须修改密码')).toBeVisible();
  await expect(modal).toBeHidden();

  // The old password is refused; the temporary one signs in and leads to the forced change.
  expect((await callOperation(request, 'auth.login', { loginName: 'repair', password: DEMO_PASSWORD })).code).toBe('401');
  const userPage = await page.context().newPage();
  const userErrors = watchErrors(userPage);
  await loginThroughForm(userPage, 'repair', 'Temp@2026');
  await expect(userPage).toHaveURL(/\/init\/password$/);
  await userPage.close();
  expect(userErrors).toEqual([]);
  expect(errors).toEqual([]);
});

/** Opens 权限设置 of the TENANT_ADMIN role and sets whether it holds the user list's 重置密码. */
async function setResetButton(page: Page, request: APIRequestContext, granted: boolean) {
  await openFromMenu(page, '权限管理', '角色管理');
  const roles = await expectList(page, 'system/role', '角色管理');
  await roles.locator('.ant-table-row', { hasText: 'TENANT_ADMIN' }).getByRole('button', { name: '权限设置' }).click();
  const drawer = page.locator('.ant-drawer-content', { hasText: '权限设置' });
  const form = drawer.getByTestId('form-page');
  await expect(form.locator('.ant-spin-spinning')).toHaveCount(0);
  await expect(form).toContainText('TENANT_ADMIN');
  await form.locator('.ant-select-selector').click();
  await form.locator('.ant-select-selection-search-input').fill('重置密码');
  const node = page.locator('.ant-select-dropdown:visible .ant-select-tree-treenode', { hasText: '重置密码' });
  await expect(node).toHaveCount(1);
  await expect(node.locator('.ant-select-tree-checkbox-checked')).toHaveCount(granted ? 0 : 1);
  // Checking a node clears the search (the tree folds up again): the server says what was saved.
  await node.locator('.ant-select-tree-checkbox').click();
  // Closes the tree's dropdown (Escape would close the drawer too).
  await drawer.locator('.ant-drawer-header').click();
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  await drawer.getByRole('button', { name: label('提交') }).click();
  await expect(page.getByText('设置成功！').first()).toBeVisible();
  await expect(drawer).toBeHidden();
  const role = await callOperation<{ resourceCodes: string[] }>(request, 'role.detail', { roleCode: 'TENANT_ADMIN' }, await tokenFor(request, 'admin', 'Admin@2026'));
  expect(role.data.resourceCodes.includes('permission.user.resetPassword')).toBe(granted);
  // Nothing else changed hands.
  expect(role.data.resourceCodes).toContain('permission.user.resetPhone');
}

/** Signs the tenant admin in on a page of its own and answers the user list's first row. */
async function tenantAdminUserRow(page: Page): Promise<{ userPage: Page; row: Locator; errors: string[] }> {
  const userPage = await page.context().newPage();
  const errors = watchErrors(userPage);
  await loginThroughForm(userPage, 'tadmin');
  await expect(userPage).toHaveURL(/\/dashboard$/);
  await openFromMenu(userPage, '权限管理', '用户管理');
  const list = await expectList(userPage, 'system/user', '用户管理');
  await list.getByTestId('list-filters').getByLabel('关键字').fill('repair');
  await list.getByRole('button', { name: label('查询') }).click();
  await expect(list.locator('.ant-table-row')).toHaveCount(1);
  const row = list.locator('.ant-table-row', { hasText: 'repair' });
  await expect(row.getByRole('button', { name: '编辑' })).toBeVisible();
  return { userPage, row, errors };
}

test('a button taken from a role in 权限设置 is gone for its users after they sign in again, refused by the server, and comes back', async ({ page, request }) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  await loginThroughForm(page, 'admin', 'Admin@2026');
  await expect(page).toHaveURL(/\/dashboard$/);

  // Before: the tenant admin has 重置密码 on every user row.
  const before = await tenantAdminUserRow(page);
  await expect(before.row.getByRole('button', { name: '重置密码' })).toBeVisible();
  await before.userPage.close();

  await setResetButton(page, request, false);

  // Signed in again, the tenant admin no longer sees it, and the server refuses it.
  const after = await tenantAdminUserRow(page);
  await expect(after.row.getByRole('button', { name: '重置手机号' })).toBeVisible();
  await expect(after.row.getByRole('button', { name: '重置密码' })).toHaveCount(0);
  const tadmin = await tokenFor(request, 'tadmin');
  const refused = await callOperation(request, 'user.password.reset', { loginName: 'repair', password: 'Temp@2026' }, tadmin);
  expect(refused).toEqual({ code: '403', message: '无权限访问', data: null });
  expect(after.errors).toEqual([]);
  await after.userPage.close();

  // Given back, it is there again at the next sign-in and the server lets it through.
  await setResetButton(page, request, true);
  const restored = await tenantAdminUserRow(page);
  await expect(restored.row.getByRole('button', { name: '重置密码' })).toBeVisible();
  expect(restored.errors).toEqual([]);
  await restored.userPage.close();
  const users = await callOperation<Paged<{ loginName: string }>>(request, 'system.user.page', { keyword: 'repair' }, tadmin);
  expect(users.data.records.map((user) => user.loginName)).toEqual(['repair']);
  expect((await callOperation(request, 'user.password.reset', { loginName: 'repair', password: 'Temp@2026' }, tadmin)).code).toBe('200');
  expect(errors).toEqual([]);
});
