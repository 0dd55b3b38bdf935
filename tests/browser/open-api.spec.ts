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
