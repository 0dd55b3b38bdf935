// The open API's interactive reference (issue 23): /api/docs opens in the browser, from the
// server's own assets only, and lists every open operation under its area.
import { readFileSync } from 'node:fs';
import type { Catalogue } from '../../server/catalogue';
import { OPEN_OPERATIONS, OPEN_TAGS, openPathOf } from '../../server/openApi/subset';
import { expect, test } from './fixtures';

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
