import { expect, test, type Locator, type Page } from './fixtures';
import { activeTab, loginThroughForm, resetPlatform, visit, watchErrors } from './support';

// Issue 21, forms: 新增X / 编辑X titles, field-specific required messages, a rich text editor for HTML fields.
test.use({ viewport: { width: 1440, height: 900 } });

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

async function openList(page: Page, path: string, view: string): Promise<Locator> {
  await visit(page, path);
  const list = activeTab(page).locator(`[data-testid="list-page"][data-view="${view}"]`);
  await expect(list.locator('.ant-table-row').first()).toBeVisible({ timeout: 20_000 });
  return list;
}

test('用户管理: 新增用户 and 编辑用户 drawers, and an empty required field names itself', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  const list = await openList(page, '/system/user', 'system/user');

  await list.getByRole('button', { name: '新增用户' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.getByRole('textbox', { name: '账号' })).toBeVisible();
  await expect(drawer.locator('.ant-drawer-title')).toHaveText('新增用户');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(drawer.getByText('请输入账号')).toBeVisible();
  await expect(drawer.getByText('请输入用户名称!')).toBeVisible();
  await expect(drawer.getByText('请选择组织')).toBeVisible();
  await expect(drawer.getByText('请选择角色')).toBeVisible();
  await expect(drawer.getByText('该字段是必填字段')).toHaveCount(0);
  await drawer.getByRole('button', { name: /取\s*消/ }).click();
  await expect(drawer).toBeHidden();

  const row = list.locator('.ant-table-row').first();
  await row.getByTestId('row-actions').getByRole('button', { name: /编\s*辑/ }).click();
  await expect(drawer.getByRole('textbox', { name: '账号' })).not.toHaveValue('');
  await expect(drawer.locator('.ant-drawer-title')).toHaveText('编辑用户');
  expect(errors).toEqual([]);
});

test('消息维护: the body is written in a rich text editor, and the saved HTML shows on the detail', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  const list = await openList(page, '/message/maintenance', 'messageMaintenance/list');

  await list.getByRole('button', { name: '新增消息' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.locator('.ant-drawer-title')).toHaveText('新增消息');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(drawer.getByText('请输入正文')).toBeVisible();

  await drawer.getByLabel('标题').fill('富文本编辑器检查');
  const body = drawer.getByRole('textbox', { name: '正文' });
  await expect(body).toHaveAttribute('contenteditable', 'true');
  await body.click();
  await page.keyboard.type('巡检通知');
  await page.keyboard.press('Enter');
  // Bold through the toolbar, then a list.
  await drawer.getByRole('button', { name: '加粗' }).click();
  await page.keyboard.type('周五停机');
  await drawer.getByRole('button', { name: '加粗' }).click();
  await page.keyboard.press('Enter');
  await drawer.getByRole('button', { name: '无序列表' }).click();
  await page.keyboard.type('湖滨监测站');
  await expect(body.locator('strong', { hasText: '周五停机' })).toBeVisible();
  await expect(body.locator('ul li', { hasText: '湖滨监测站' })).toBeVisible();

  // 源码 shows the HTML the form will send.
  await drawer.getByRole('button', { name: /源码/ }).click();
  const source = drawer.getByRole('textbox', { name: '正文（HTML 源码）' });
  await expect(source).toHaveValue(/<p>巡检通知<\/p><p><strong>周五停机<\/strong><\/p><ul><li><p>湖滨监测站<\/p><\/li><\/ul>/);
  await drawer.getByRole('button', { name: /源码/ }).click();

  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '已保存为草稿' })).toBeVisible();
  await expect(drawer).toBeHidden();

  await list.getByRole('textbox', { name: '关键字' }).fill('富文本编辑器检查');
  await list.getByRole('button', { name: /查\s*询/ }).click();
  const row = list.locator('.ant-table-row', { hasText: '富文本编辑器检查' });
  await row.getByRole('button', { name: /查\s*看/ }).click();
  const detail = activeTab(page).getByTestId('detail-page');
  await expect(detail.locator('strong', { hasText: '周五停机' })).toBeVisible();
  await expect(detail.locator('li', { hasText: '湖滨监测站' })).toBeVisible();
  expect(errors).toEqual([]);
});
