// The open API's interactive reference (issue 23): /api/docs opens in the browser, from the
// server's own assets only, and lists every open operation under its area. The console's
// 开放平台 pages show the tenant what its keys did.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Catalogue } from '../../server/catalogue';
import { signRequest } from '../../server/openApi/signature';
import { OPEN_OPERATIONS, OPEN_TAGS, openPathOf } from '../../server/openApi/subset';
import { expect, test } from './fixtures';
import { activeTab, callOperation, loginThroughForm, resetPlatform, tokenFor, visit, watchErrors } from './support';

const catalogue = JSON.parse(readFileSync(new URL('../../schemas/operations.json', import.meta.url), 'utf8')) as Catalogue;

test('/api/docs lists every open operation by area, loading nothing from elsewhere', async ({ page, baseURL }) => {
  const foreign: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(`${baseURL}/`) && !request.url().startsWith('data:')) foreign.push(request.url());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });

  await page.goto('/api/docs');
  await expect(page).toHaveTitle('物联网设备平台开放接口');
  await expect(page.locator('.info .title')).toContainText('物联网设备平台开放接口');

  for (const tag of OPEN_TAGS) await expect(page.locator('.opblock-tag-section h3', { hasText: tag.name }).first()).toBeVisible();
  for (const open of OPEN_OPERATIONS) {
    const path = openPathOf(catalogue[open.name]);
    const block = page.locator(`.opblock-tag-section:has(h3:has-text("${open.tag}")) .opblock-post`).filter({ has: page.locator('.opblock-summary-path', { hasText: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`) }) });
    await expect(block, open.name).toHaveCount(1);
    await expect(block.locator('.opblock-summary-description'), open.name).toHaveText(catalogue[open.name].title);
  }
  await expect(page.locator('.opblock-post')).toHaveCount(OPEN_OPERATIONS.length);

  // An operation opens on its request body and its documented answer.
  const devices = page.locator('.opblock-post').filter({ has: page.locator('.opblock-summary-path', { hasText: /^\/api\/open\/v1\/device\/_page$/ }) });
  await devices.locator('.opblock-summary').click();
  await expect(devices.getByText('Request body')).toBeVisible();
  await expect(devices.locator('.responses-wrapper')).toContainText('200');

  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});

test('开放平台 → 调用日志 lists the tenant’s signed calls, and 消息通知 → 投递日志 the channel messages', async ({ page, request }) => {
  await resetPlatform(request);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  const key = await callOperation<{ accessKey: string; secret: string }>(request, 'openApi.key.reset', {}, token);
  expect(key.code).toBe('200');
  const { accessKey, secret } = key.data;
  // One signed call of the open API, as a tenant's system makes it (README's example client).
  const path = '/api/open/v1/device/_page';
  const body = JSON.stringify({ pageParam: { pageNumber: 1, pageSize: 5 }, param: {} });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString('hex');
  const signature = signRequest(secret, { method: 'POST', path, accessKey, timestamp, nonce, body });
  const answer = await request.post(path, { headers: { 'content-type': 'application/json', 'x-access-key': accessKey, 'x-timestamp': timestamp, 'x-nonce': nonce, 'x-signature': signature }, data: body });
  expect(((await answer.json()) as { code: string }).code).toBe('200');

  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('tab', { name: '系统' }).click();
  await page.getByTestId('frame-sider').getByRole('menuitem', { name: '开放平台' }).click();
  await page.getByTestId('frame-sider').getByRole('menuitem', { name: '调用日志' }).click();
  const calls = activeTab(page).locator('[data-testid="list-page"][data-view="openApi/calls"]');
  const row = calls.locator('.ant-table-row').first();
  await expect(row).toContainText('device.page');
  await expect(row).toContainText(accessKey);
  await expect(row).toContainText('200');

  await visit(page, '/message/delivery');
  const deliveries = activeTab(page).locator('[data-testid="list-page"][data-view="notification/deliveries"]');
  await expect(deliveries.locator('.ant-table-row, .ant-empty').first()).toBeVisible();
  await visit(page, '/open/api/webhook/deliveries');
  await expect(activeTab(page).locator('[data-testid="list-page"][data-view="openApi/webhookDeliveries"]').locator('.ant-table-row, .ant-empty').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('开放平台 → Webhook: a new webhook’s signing secret is shown once; it is paused, its secret reset and it is deleted', async ({ page, request }) => {
  await resetPlatform(request);
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, '/open/api/webhooks');
  const list = activeTab(page).locator('[data-testid="list-page"][data-view="openApi/webhooks"]');
  await expect(list.locator('.ant-table')).toBeVisible();
  await list.getByRole('button', { name: '新增 Webhook' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByRole('textbox', { name: '名称' }).fill('工单系统');
  await drawer.getByRole('textbox', { name: '地址' }).fill('ftp://example.com/hook');
  // A click, then a waiting assertion: Formily renders the group's new value a moment after the
  // click, and locator.check() reads the box once at once (it failed so in a loaded CI run).
  const raised = drawer.getByRole('checkbox', { name: '告警产生' });
  await raised.click();
  await expect(raised).toBeChecked();
  await drawer.getByRole('button', { name: /提\s*交|保\s*存|确\s*定/ }).click();
  await expect(drawer.getByText('请输入 http:// 或 https:// 开头的地址')).toBeVisible();
  await drawer.getByRole('textbox', { name: '地址' }).fill('https://example.com/iot/hook');
  await drawer.getByRole('button', { name: /提\s*交|保\s*存|确\s*定/ }).click();
  const shown = page.getByTestId('shown-result');
  await expect(shown).toContainText('签名密钥只显示这一次');
  const created = (await shown.locator('.ant-typography').allInnerTexts()).map((text) => text.trim());
  expect(created.find((text) => /^wh_[0-9a-f]{16}$/.test(text))).toBeDefined();
  await page.getByRole('button', { name: '知道了' }).click();
  const row = list.locator('.ant-table-row', { hasText: '工单系统' });
  await expect(row).toContainText('https://example.com/iot/hook');
  await expect(row).toContainText('告警产生');

  await row.getByRole('button', { name: '停用' }).click();
  await expect(row.getByRole('button', { name: '启用' })).toBeVisible();

  await row.getByRole('button', { name: /重置密钥|更多/ }).first().click();
  if (await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').isVisible()) await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: '重置密钥' }).click();
  await expect(page.getByText('重置后旧密钥立即失效，接收方须改用新密钥验证签名。确定重置？')).toBeVisible();
  await page.getByRole('button', { name: /确\s*定/ }).last().click();
  await expect(page.getByTestId('shown-result')).toContainText('签名密钥只显示这一次');
  await page.getByRole('button', { name: '知道了' }).click();

  await row.getByRole('button', { name: /删除|更多/ }).last().click();
  if (await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').isVisible()) await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: '删除' }).click();
  await expect(page.getByText('确认删除该 Webhook？其投递记录一并删除。')).toBeVisible();
  await page.getByRole('button', { name: /确\s*定/ }).last().click();
  await expect(row).toHaveCount(0);
  expect(errors).toEqual([]);
});
