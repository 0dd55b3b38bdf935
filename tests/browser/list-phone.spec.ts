import { mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';
import { activeTab, loginThroughForm, resetPlatform, visit, watchErrors } from './support';

/**
 * Issue 34: at 390 px a list showed a cut device code beside its 操作 column, and its filters
 * filled the first screen. At a phone's width a list is a column of cards — the row's title
 * whole, its status and key fields, its actions in one menu — and its filters are folded behind
 * one button.
 */

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

test('at 390 px 设备 is a column of cards: the code whole, status and key fields, actions in a menu that works, filters folded', async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, '/device/all');
  const list = activeTab(page).getByTestId('list-page');
  const cards = list.getByTestId('list-card');
  await expect(cards.first()).toBeVisible();
  await expect(list.locator('.ant-table-row')).toHaveCount(0);
  // The first card is on the first screen: the filters do not fill it.
  await expect(cards.first()).toBeInViewport({ ratio: 1 });
  await expect(list.getByLabel('关键字')).toHaveCount(0);

  // Each card: its title (the device code) whole, a status tag, label and value pairs, and no card past the window.
  const fit = await cards.evaluateAll((items) =>
    items.map((card) => {
      const title = card.querySelector('[data-testid="list-card-title"]') as HTMLElement;
      const box = card.getBoundingClientRect();
      return { title: title.textContent ?? '', cut: title.scrollWidth > title.clientWidth + 1, tag: card.querySelector('.ant-tag') !== null, fields: card.querySelectorAll('dt').length, right: box.right };
    }),
  );
  expect(fit.length).toBeGreaterThanOrEqual(10);
  for (const card of fit) {
    expect(card.title).toMatch(/^[A-Z0-9]{6,}$/);
    expect(card.cut, `${card.title}: the title is cut`).toBe(false);
    expect(card.tag, `${card.title}: no status`).toBe(true);
    expect(card.fields, `${card.title}: key fields`).toBeGreaterThanOrEqual(3);
    expect(card.right, `${card.title}: past the window`).toBeLessThanOrEqual(390);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  // The filters open behind one button, and a search folds them again and lists what it found.
  const toggle = list.getByRole('button', { name: '筛选' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const code = fit[0].title;
  await list.getByLabel('关键字').fill(code);
  await list.getByRole('button', { name: /查\s*询/ }).click();
  await expect(cards.first().getByTestId('list-card-title')).toHaveText(code);
  // Every card is one the search found, once the cards of the page before have gone.
  await expect.poll(async () => (await list.getByTestId('list-card-title').allTextContents()).every((title) => title.includes(code))).toBe(true);
  await expect(list.getByRole('button', { name: '筛选（1）' })).toHaveAttribute('aria-expanded', 'false');

  // Its actions are in one menu, reachable by keyboard, and they work: 详情 opens the device.
  const menu = cards.first().getByRole('button', { name: /操作/ });
  await menu.focus();
  await page.keyboard.press('Enter');
  const dropdown = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');
  await expect(dropdown.getByRole('menuitem', { name: '编辑' })).toBeVisible();
  await expect(dropdown.getByRole('menuitem', { name: '删除' })).toBeVisible();
  await dropdown.getByRole('menuitem', { name: '详情' }).click();
  await expect(page).toHaveURL(new RegExp(`/device/detail\\?code=${code}$`));
  expect(errors).toEqual([]);
});

test('at 390 px a card\'s action that asks first asks, and 取消 leaves the row', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, '/device/all');
  const list = activeTab(page).getByTestId('list-page');
  const first = list.getByTestId('list-card').first();
  await expect(first).toBeVisible();
  const code = await first.getByTestId('list-card-title').textContent();
  await first.getByRole('button', { name: /操作/ }).click();
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: '删除' }).click();
  const popover = page.locator('.ant-popconfirm:not(.ant-popover-hidden)');
  await expect(popover).toBeVisible();
  await popover.getByRole('button', { name: /取\s*消/ }).click();
  await expect(popover).toHaveCount(0);
  await expect(list.getByTestId('list-card').first().getByTestId('list-card-title')).toHaveText(code ?? '');
});

test('at 1440 px the same list is a table again', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, '/device/all');
  const list = activeTab(page).getByTestId('list-page');
  await expect(list.locator('.ant-table-row').first()).toBeVisible();
  await expect(list.getByTestId('list-card')).toHaveCount(0);
  await expect(list.getByLabel('关键字')).toBeVisible();
});

test('a list at 390 px, for the README', async ({ page }) => {
  test.skip(!process.env.DOCS_SCREENSHOTS, 'DOCS_SCREENSHOTS=1 writes docs/list-390.png');
  mkdirSync('docs', { recursive: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, '/device/all');
  const list = activeTab(page).getByTestId('list-page');
  await expect(list.getByTestId('list-card').first()).toBeVisible();
  await page.evaluate(() => document.fonts.ready);
  await page.mouse.move(0, 843);
  await page.screenshot({ path: 'docs/list-390.png' });
});
