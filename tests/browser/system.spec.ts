import { expect, test } from './fixtures';
import { activeTab, loginThroughForm, resetPlatform, visit, watchErrors } from './support';

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

const PAGES: Array<[string, string]> = [
  ['/system/role', '角色'],
  ['/system/organization', '组织'],
  ['/system/dictionary', '字典'],
  ['/system/dictionary/child?dictType=alarm_level', '字典'],
  ['/system/menu', '菜单'],
  ['/system/login/log', '登录日志'],
  ['/system/user', '用户管理'],
  ['/system/usage', '使用统计'],
  ['/system/daily/read', '日常阅读'],
  ['/system/message', '系统消息'],
];

test('platform staff open every system administration page and find data, no error panel and no console error', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'admin', 'Admin@2026');
  await expect(page).toHaveURL(/\/dashboard$/);
  for (const [path, title] of PAGES) {
    await visit(page, path);
    const view = activeTab(page).locator('[data-testid="list-page"], [data-testid="dashboard-page"]').first();
    await expect(view, path).toContainText(title);
    await expect(page.getByTestId('schema-error'), path).toHaveCount(0);
    await expect(page.getByText('数据加载失败'), path).toHaveCount(0);
    if (path !== '/system/usage') await expect(view.locator('.ant-table-row').first(), path).toBeVisible();
  }
  expect(errors).toEqual([]);
});
