import { expect, test, type Page } from './fixtures';
import { callOperation, chooseOption, loginThroughForm, resetPlatform, tokenFor, watchErrors } from './support';

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

async function openFromMenu(page: Page, group: string, ...path: string[]) {
  await page.getByRole('tab', { name: group }).click();
  for (const entry of path) await page.getByRole('menuitem', { name: entry }).click();
}

test('a list page filters, pages, sorts and exports through its operations', async ({ page, request }) => {
  for (let i = 0; i < 3; i += 1) await callOperation(request, 'auth.login', { loginName: 'tuser', password: 'Wrong@2026' });
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await openFromMenu(page, '系统', '系统设置', '登录日志');
  await expect(page).toHaveURL(/\/system\/login\/log$/);
  const list = page.getByTestId('list-page');
  await expect(list.locator('.ant-table-row').first()).toBeVisible();
  await expect(list.getByText(/共 [\d,]+ 条/)).toBeVisible();

  // Filter: only failures.
  await chooseOption(page, list.getByTestId('list-filters').getByRole('combobox', { name: '结果' }), '失败');
  await list.getByRole('button', { name: /查\s*询/ }).click();
  await expect(list.locator('.ant-table-row').first()).toContainText('失败');
  await expect(list.locator('.ant-table-row', { hasText: '成功' })).toHaveCount(0);

  // A time range typed into the date picker: the same time twice is refused, a real range is sent
  // as two formatted times.
  await list.getByRole('button', { name: /展\s*开/ }).click();
  const range = list.getByTestId('list-filters').locator('.ant-picker-range');
  const typeRange = async (from: string, to: string) => {
    await range.locator('input').first().click();
    await range.locator('input').first().fill(from);
    await range.locator('input').first().press('Enter');
    await range.locator('input').last().fill(to);
    await range.locator('input').last().press('Enter');
  };
  // Today on the platform's clock (Asia/Shanghai): the UTC date is yesterday's from 16:00 UTC on.
  const day = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
  await typeRange(`${day} 00:00:00`, `${day} 00:00:00`);
  await list.getByRole('button', { name: /查\s*询/ }).click();
  await expect(list.getByTestId('list-filters')).toContainText('请输入不同的时间');
  await typeRange(`${day} 00:00:00`, `${day} 23:59:59`);
  const asked = page.waitForRequest((request) => request.url().endsWith('/api/system/login/log/_page'));
  await list.getByRole('button', { name: /查\s*询/ }).click();
  expect((await asked).postDataJSON().param).toMatchObject({ loginResult: expect.anything(), timeRange: [`${day} 00:00:00`, `${day} 23:59:59`] });
  await expect(list.locator('.ant-table-row').first()).toContainText('失败');

  // Reset, then page 2 and sort by time ascending.
  await list.getByRole('button', { name: /重\s*置/ }).click();
  // Unfiltered again: successes are back (and the total is the whole log's).
  await expect(list.locator('.ant-table-row', { hasText: '成功' }).first()).toBeVisible();
  const total = Number((await list.getByText(/共 [\d,]+ 条/).textContent())?.match(/[\d,]+/)?.[0].replace(/,/g, ''));
  expect(total).toBeGreaterThan(20);
  const firstOnPage1 = await list.locator('.ant-table-row').first().textContent();
  await list.locator('.ant-pagination-item-2').click();
  await expect(list.locator('.ant-pagination-item-active')).toHaveText('2');
  await expect(list.locator('.ant-table-row').first()).not.toHaveText(firstOnPage1 ?? '');
  await list.getByRole('columnheader', { name: '时间' }).click();
  await expect(list.locator('.ant-pagination-item-active')).toHaveText('1');

  // Export: the server's file name.
  const download = page.waitForEvent('download');
  await list.getByRole('button', { name: /导\s*出/ }).click();
  expect((await download).suggestedFilename()).toMatch(/^登录日志.*\.xlsx$/);
  expect(errors).toEqual([]);
});

test('a list creates, edits and deletes through a form drawer and a confirmation', async ({ page }) => {
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/system/user');
  const list = page.getByTestId('list-page');
  await expect(list.locator('.ant-table-row').first()).toBeVisible();

  await list.getByRole('button', { name: '新增用户' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByLabel('账号').fill('zhaolei');
  await drawer.getByLabel('用户名称').fill('赵磊');
  await drawer.getByLabel('手机号').fill('1370000');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(drawer.getByText('请输入正确的手机号码')).toBeVisible();
  await drawer.getByLabel('手机号').fill('13700000088');
  await drawer.getByRole('combobox', { name: '组织' }).click();
  await page.locator('.ant-select-tree-node-content-wrapper').first().click();
  await chooseOption(page, drawer.getByRole('combobox', { name: '角色' }), '维修人员');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await expect(drawer).toBeHidden();

  await list.getByTestId('list-filters').getByLabel('关键字').fill('zhaolei');
  await list.getByRole('button', { name: /查\s*询/ }).click();
  const row = list.locator('.ant-table-row', { hasText: 'zhaolei' });
  await expect(row).toContainText('赵磊');
  await expect(row).toContainText('1370****0088');

  await row.getByRole('button', { name: /编\s*辑/ }).click();
  await expect(drawer.getByLabel('用户名称')).toHaveValue('赵磊');
  await drawer.getByLabel('用户名称').fill('赵磊磊');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(row).toContainText('赵磊磊');

  // 删除 is past the row's three links (详情, 编辑, 重置密码): under 更多.
  await row.getByRole('button', { name: /更多/ }).click();
  await page.getByRole('menuitem', { name: '删除' }).click();
  await expect(page.getByText('确认删除该用户？')).toBeVisible();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(list.locator('.ant-table-row', { hasText: 'zhaolei' })).toHaveCount(0);
});

test('a detail page and a dashboard render from their operations', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/system/user');
  const row = page.locator('.ant-table-row', { hasText: 'repair' }).first();
  await row.getByRole('button', { name: /详\s*情/ }).click();
  await expect(page).toHaveURL(/\/system\/user\/detail\?id=/);
  const detail = page.getByTestId('detail-page');
  await expect(detail).toContainText('基本信息');
  await expect(detail).toContainText('维修人员');

  await page.goto('/system/usage');
  const dashboard = page.getByTestId('dashboard-page');
  await expect(dashboard.getByTestId('dashboard-widget')).toHaveCount(8);
  await expect(dashboard.locator('[data-widget-type="line"] canvas')).toBeVisible();
  await expect(dashboard.locator('[data-widget-type="pie"] canvas')).toBeVisible();
  await expect(dashboard.locator('.ant-statistic-content-value').first()).not.toHaveText('');
  expect(errors).toEqual([]);
});

test('a role without the button does not see the action, and the server refuses it', async ({ page, request }) => {
  await loginThroughForm(page, 'operator');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/system/user');
  const list = page.getByTestId('list-page');
  await expect(list.locator('.ant-table-row').first()).toBeVisible();
  await expect(list.getByRole('button', { name: '新增用户' })).toHaveCount(0);
  await expect(list.getByRole('button', { name: /^删\s*除$/ })).toHaveCount(0);
  await expect(list.getByRole('button', { name: /详\s*情/ }).first()).toBeVisible();
  // Nor under a row's 更多, where actions past the third go.
  const more = list.locator('.ant-table-row').first().getByRole('button', { name: /更多/ });
  if ((await more.count()) > 0) {
    await more.click();
    await expect(page.locator('.ant-dropdown:not(.ant-dropdown-hidden) [role="menu"]')).toBeVisible();
    await expect(page.getByRole('menuitem', { name: '删除' })).toHaveCount(0);
  }

  const token = await tokenFor(request, 'operator');
  const refused = await callOperation(request, 'system.user.delete', { ids: [1] }, token);
  expect(refused.code).toBe('403');
});

test('the playground renders a schema as it is edited, and names the problems of a broken one', async ({ page }) => {
  await loginThroughForm(page, 'admin', 'Admin@2026');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/playground');
  const editor = page.getByLabel('页面模式 JSON');
  const schema = {
    schemaVersion: 1,
    kind: 'list',
    title: '试验：登录日志',
    operation: 'system.loginLog.page',
    columns: [
      { field: 'loginName', title: '账号' },
      { field: 'loginResult', title: '结果', display: 'tag', dictType: 'login_result' },
    ],
  };
  await editor.fill(JSON.stringify(schema, null, 2));
  const list = page.getByTestId('playground').getByTestId('list-page');
  await expect(list).toContainText('试验：登录日志');
  await expect(list.locator('.ant-table-row').first()).toBeVisible();
  await editor.fill(JSON.stringify({ ...schema, columns: [{ field: 'loginName' }] }));
  const problems = page.getByTestId('schema-error');
  await expect(problems).toContainText('/columns/0');
  await expect(problems).toContainText('缺少必填属性 title');
});

test('a role that is not platform staff cannot open the playground', async ({ page }) => {
  await loginThroughForm(page, 'tuser');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/playground');
  await expect(page.getByText('页面试验场仅对平台人员与开发环境开放')).toBeVisible();
});
