import { expect, test, type Locator, type Page } from './fixtures';
import { activeTab, loginThroughForm, resetPlatform, visit, watchErrors } from './support';

// Issue 21, dense pages: row actions, the 操作 column and detail descriptions at 1440×900.
test.use({ viewport: { width: 1440, height: 900 } });

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

/** How many lines an element's text takes: the distinct tops of the boxes of its text. */
async function linesOf(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const tops: number[] = [];
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (!text.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(text);
      for (const rect of Array.from(range.getClientRects())) if (rect.width > 0 && rect.height > 0) tops.push(rect.top);
    }
    // Boxes on one line differ in top by a few pixels at most (an icon, a smaller font); a new line is a line-height lower.
    tops.sort((a, b) => a - b);
    return tops.filter((top, index) => index === 0 || top - tops[index - 1] > 8).length;
  });
}

async function openList(page: Page, path: string, view: string): Promise<Locator> {
  await visit(page, path);
  const list = activeTab(page).locator(`[data-testid="list-page"][data-view="${view}"]`);
  await expect(list.locator('.ant-table-row').first()).toBeVisible({ timeout: 20_000 });
  return list;
}

const USER_ACTIONS = ['详情', '编辑', '重置密码', '重置手机号', '所属组织', '停用', '删除'];

test('用户管理 at 1440 px: three row actions at most, the rest under 更多, 状态 never under the 操作 column', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  const list = await openList(page, '/system/user', 'system/user');

  // The table fits its card: nothing scrolls sideways, so the fixed 操作 column covers nothing.
  const scroller = list.locator('.ant-table-content, .ant-table-body').first();
  const overflow = await scroller.evaluate((node) => node.scrollWidth - node.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);

  const headers = list.locator('.ant-table-thead th');
  const titles = (await headers.allInnerTexts()).map((text) => text.trim());
  const statusIndex = titles.indexOf('状态');
  expect(statusIndex).toBeGreaterThan(0);

  const rows = list.locator('.ant-table-tbody .ant-table-row');
  const count = await rows.count();
  expect(count).toBeGreaterThan(3);
  for (let index = 0; index < count; index += 1) {
    const row = rows.nth(index);
    const actions = row.getByTestId('row-actions');
    const labels = (await actions.getByRole('button').allInnerTexts()).map((text) => text.replace(/\s/g, ''));
    // At most three links and 更多, on one line.
    const links = labels.filter((text) => text !== '更多');
    expect(links.length, labels.join(' ')).toBeLessThanOrEqual(3);
    expect(labels).toContain('更多');
    expect(await linesOf(actions)).toBe(1);

    // 状态 is visible and left of the 操作 column, not under it.
    const status = row.locator('td').nth(statusIndex);
    await expect(status).toBeVisible();
    const statusBox = await status.boundingBox();
    const actionsBox = await row.locator('td').last().boundingBox();
    if (!statusBox || !actionsBox) throw new Error('no boxes');
    expect(statusBox.x + statusBox.width).toBeLessThanOrEqual(actionsBox.x + 1);
    expect(statusBox.width).toBeGreaterThan(40);
  }

  // Every action of an active user is reachable: the links plus what 更多 holds, by keyboard.
  const active = rows.filter({ hasText: '正常' }).first();
  const actions = active.getByTestId('row-actions');
  const shown = (await actions.getByRole('button').allInnerTexts()).map((text) => text.replace(/\s/g, '')).filter((text) => text !== '更多');
  await actions.getByRole('button', { name: /更多/ }).focus();
  await page.keyboard.press('Enter');
  const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) [role="menu"]');
  await expect(menu).toBeVisible();
  const inMenu = (await menu.getByRole('menuitem').allInnerTexts()).map((text) => text.trim());
  expect([...shown, ...inMenu].sort()).toEqual([...USER_ACTIONS].sort());

  // The keyboard moves through the menu and opens an entry.
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.locator('.ant-modal-content');
  await expect(dialog.locator('.ant-modal-title')).toHaveText(inMenu[0]);
  // Escape closes the dialog once it holds the focus (a busy machine moves it there a moment later).
  await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('.ant-modal')))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(errors).toEqual([]);
});

test('设备详情 at 1440 px: every label on one line, codes and times never broken', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  const list = await openList(page, '/device/all', 'device/all');
  const link = list.locator('.ant-table-row').first().getByRole('link').first();
  const code = (await link.textContent())?.trim() ?? '';
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/device/detail\\?code=${code}$`));
  const detail = page.locator('[data-testid="detail-page"][data-view="device/detail"]');
  await expect(detail.getByText(code).first()).toBeVisible();
  await expect(detail.getByText('运行状态')).toBeVisible();

  // At 1440 px and in a narrower window (1024 px) alike.
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: width === 1440 ? 900 : 768 });
    const labels = detail.locator('.ant-descriptions-item-label');
    const total = await labels.count();
    expect(total).toBeGreaterThan(15);
    for (let index = 0; index < total; index += 1) {
      const label = labels.nth(index);
      const text = (await label.innerText()).trim();
      expect(await linesOf(label), `${text} is on one line at ${width} px`).toBe(1);
    }
    // The values that are one unit: the code, the IMEI, the times.
    for (const name of ['设备编码', 'IMEI', '创建时间', '激活时间', '最后上报时间']) {
      const value = detail.locator(`xpath=.//th[normalize-space()="${name}"]/following-sibling::td[1]`).first();
      const text = (await value.innerText()).trim();
      if (text === '-' || text === '') continue;
      expect(await linesOf(value), `${name} ${text} is on one line at ${width} px`).toBe(1);
    }
  }
  expect(errors).toEqual([]);
});

test('待确认卡订单 at 1440 px: its columns fit the card, no sideways scrolling', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, '/card/order/user');
  const list = activeTab(page).locator('[data-testid="list-page"][data-view="card/order/user"]');
  await expect(list.locator('.ant-table-thead th', { hasText: '订单编号' })).toBeVisible({ timeout: 20_000 });
  await expect(list.locator('.ant-spin-spinning')).toHaveCount(0);
  const scroller = list.locator('.ant-table-content, .ant-table-body').first();
  const overflow = await scroller.evaluate((node) => node.scrollWidth - node.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  // The order number is whole, not cut.
  const code = list.locator('.ant-table-tbody .ant-table-row td').first();
  if ((await code.count()) > 0) {
    // Its text ends inside its cell (a fixed column's shadow makes scrollWidth no measure here).
    const spill = await code.evaluate((node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return range.getBoundingClientRect().right - node.getBoundingClientRect().right;
    });
    expect(spill).toBeLessThanOrEqual(0);
    await expect(code).not.toHaveClass(/ant-table-cell-ellipsis/);
  }
  expect(errors).toEqual([]);
});
