import { expect, test } from './fixtures';
import { activeTab, loginThroughForm, resetPlatform, visit } from './support';

/** Issue 34's smaller findings: the 404 page in the frame, the sign-in page's Tab order, the mall's promotion tags. */

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

test('a made-up path is 404 inside the frame: its menu, tabs and top bar stay, and the tab says 页面不存在', async ({ page }) => {
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, '/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  const notFound = activeTab(page).getByTestId('not-found-page');
  await expect(notFound).toContainText('抱歉，您访问的页面不存在');
  await expect(page.getByTestId('frame-sider')).toBeVisible();
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await expect(page.getByTestId('page-tabs').locator('.ant-tabs-tab-active')).toHaveText('页面不存在');
  await expect(page).toHaveTitle('页面不存在 - 物联网设备平台');
  // Loaded afresh, too.
  await page.goto('/404');
  await expect(activeTab(page).getByTestId('not-found-page')).toBeVisible();
  await expect(page.getByTestId('frame-sider')).toBeVisible();
  await activeTab(page).getByRole('button', { name: /返回首页/ }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('every Tab stop of the sign-in page is a control with a name, the sign-in method one stop', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('textbox', { name: '账号', exact: true })).toBeFocused();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const stops: Array<{ tag: string; type: string; name: string }> = [];
  for (let i = 0; i < 6; i += 1) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return null;
      const name = element.getAttribute('aria-label') || (element as HTMLInputElement).labels?.[0]?.textContent || element.textContent || '';
      return { tag: element.tagName.toLowerCase(), type: element.getAttribute('type') ?? '', name: name.replace(/\s/g, '') };
    });
    if (stop) stops.push(stop);
  }
  // The segmented control's own box was a stop before its radio (a div, role radiogroup, nothing to do).
  expect(stops.filter((stop) => !['input', 'button', 'a'].includes(stop.tag)), JSON.stringify(stops)).toEqual([]);
  expect(stops.filter((stop) => stop.name === ''), JSON.stringify(stops)).toEqual([]);
  // Tab goes round the page (from where the focus left off): read the round from the method's stop.
  const names = stops.map((stop) => stop.name);
  const from = names.indexOf('账号登录');
  expect([...names.slice(from), ...names.slice(0, from)].slice(0, 5)).toEqual(['账号登录', '账号', '密码', '登录', '忘记密码？']);
  // The arrow keys still change the method from its one stop.
  await page.locator('.ant-segmented-item-input:checked').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText('请使用微信扫一扫登录')).toBeVisible();
});

test('the mall shows every promotion tag whole, and the goods their own pictures', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, '/shopping/list');
  const cards = activeTab(page).getByTestId('goods-card');
  await expect(cards.first()).toBeVisible();
  const shown = await cards.evaluateAll((items) =>
    items.map((card) => {
      const box = card.getBoundingClientRect();
      const tags = Array.from(card.querySelectorAll('[data-testid="goods-tags"] .ant-tag')) as HTMLElement[];
      return {
        name: card.querySelector('strong, .ant-typography')?.textContent ?? '',
        tags: tags.length,
        cut: tags.filter((tag) => tag.scrollWidth > tag.clientWidth + 1 || tag.getBoundingClientRect().right > box.right + 1 || tag.getBoundingClientRect().bottom > box.bottom + 1).map((tag) => tag.textContent),
        picture: card.querySelector('img')?.getAttribute('src') ?? '',
      };
    }),
  );
  expect(shown.some((card) => card.tags > 0)).toBe(true);
  expect(shown.filter((card) => card.cut.length > 0)).toEqual([]);
  const kinds = new Set(shown.map((card) => /data-kind="([a-z-]+)"/.exec(atob(card.picture.split(',')[1] ?? ''))?.[1] ?? ''));
  expect(kinds.size).toBeGreaterThanOrEqual(Math.min(8, shown.length));
});
