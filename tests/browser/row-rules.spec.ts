import { expect, test } from './fixtures';
import { activeTab, loginThroughForm, resetPlatform, visit, watchErrors } from './support';

// Issue 33, "Row rules in JSON": 备件库存 was made by `npm run new:screen` (description: 备件名称,
// 备件类别 (dictionary), 库存数量, 预警数量); its 库存不足 rule is one column of its page schema
// (schemas/pages/repair/sparePart.json: a red tag where 库存数量 < 预警数量), no server code.
// Seed rows (schemas/entities/repair/sparePart.json): 深沟球轴承 6204 3 / 10 (short), 交流接触器 CJX2
// 24 / 5, 氟橡胶密封圈 30 / 30 (at its threshold: not short).
test.use({ viewport: { width: 1440, height: 900 } });

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

test('备件库存: a red 库存不足 tag on the short row, none on the others', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, '/repair/spare-part');
  const rowOf = (name: string) => activeTab(page).locator('.ant-table-tbody tr.ant-table-row', { hasText: name });
  await expect(rowOf('深沟球轴承 6204')).toBeVisible({ timeout: 20_000 });
  await expect(rowOf('交流接触器 CJX2')).toBeVisible();
  await expect(rowOf('氟橡胶密封圈')).toBeVisible();

  const short = rowOf('深沟球轴承 6204').locator('.ant-tag', { hasText: '库存不足' });
  await expect(short).toHaveCount(1);
  await expect(short).toHaveClass(/\bant-tag-error\b/);
  for (const name of ['交流接触器 CJX2', '氟橡胶密封圈']) await expect(rowOf(name).getByText('库存不足'), name).toHaveCount(0);
  // The category tag is neutral (its dictionary item carries no colour), not a colour of its text.
  await expect(rowOf('深沟球轴承 6204').locator('.ant-tag', { hasText: '机械' })).toHaveClass(/\bant-tag-default\b/);

  // Edited below its threshold, a row shows the tag too (the rule reads the row as it is now).
  await rowOf('交流接触器 CJX2').getByRole('button', { name: /编\s*辑/ }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.getByLabel('库存数量')).toHaveValue('24');
  await drawer.getByLabel('库存数量').fill('1');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(drawer).toBeHidden();
  await expect(rowOf('交流接触器 CJX2').locator('.ant-tag-error', { hasText: '库存不足' })).toHaveCount(1, { timeout: 20_000 });
  expect(errors).toEqual([]);
});
