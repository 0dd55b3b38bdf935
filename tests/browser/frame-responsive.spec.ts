import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from './fixtures';
import { activeTab, loginThroughForm, resetPlatform, visit } from './support';

/**
 * Issue 21: the console at a phone's width and up. At every width the document never scrolls
 * sideways, the top bar keeps every control on screen (the user menu, the only way to log out,
 * above all), the content takes the width the sider leaves it (all of it below antd's md
 * breakpoint, where the sider is a drawer), tables scroll inside their card and drawers fit the
 * window. Screenshots at 390 and 1440 px go to screens/ (git-ignored; Playwright empties test-results/ at every run, so they are kept outside it).
 */

const SCREENS_DIR = 'screens';
const WIDTHS = [390, 768, 1024, 1440, 1920] as const;
const HEIGHT: Record<(typeof WIDTHS)[number], number> = { 390: 844, 768: 1024, 1024: 768, 1440: 900, 1920: 1080 };
/** Below antd's md breakpoint the sider is a drawer. */
const NARROW = 768;

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

interface Fit {
  documentScroll: number;
  documentWidth: number;
  outside: string[];
  contentLeft: number;
  contentWidth: number;
}

/** What sticks out of the window: the document's own scroll width and any frame control past its edge. */
async function measure(page: Page): Promise<Fit> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const outside: string[] = [];
    const describe = (element: Element) => element.getAttribute('aria-label') ?? element.getAttribute('data-testid') ?? element.textContent?.trim().slice(0, 20) ?? element.tagName;
    const header = document.querySelector('[data-testid="frame-header"]');
    for (const control of Array.from(header?.children ?? [])) {
      const box = control.getBoundingClientRect();
      if (box.width > 0 && (box.left < -1 || box.right > width + 1)) outside.push(`top bar: ${describe(control)} (${Math.round(box.left)}–${Math.round(box.right)})`);
    }
    for (const card of Array.from(document.querySelectorAll('[data-tab]:not([hidden]) .ant-card'))) {
      const box = card.getBoundingClientRect();
      if (box.width > 0 && box.right > width + 1) outside.push(`card: ${describe(card)} (${Math.round(box.right)})`);
    }
    for (const drawer of Array.from(document.querySelectorAll('.ant-drawer-open .ant-drawer-content-wrapper'))) {
      const box = drawer.getBoundingClientRect();
      if (box.left < -1 || box.right > width + 1) outside.push(`drawer (${Math.round(box.left)}–${Math.round(box.right)})`);
    }
    const content = document.querySelector('[data-tab]:not([hidden])')?.getBoundingClientRect();
    return {
      documentScroll: document.documentElement.scrollWidth,
      documentWidth: document.documentElement.clientWidth,
      outside,
      contentLeft: content?.left ?? -1,
      contentWidth: content?.width ?? 0,
    };
  });
}

async function expectFits(page: Page, width: number, where: string): Promise<void> {
  const fit = await measure(page);
  expect(fit.documentScroll, `${where} at ${width} px: the document scrolls sideways`).toBeLessThanOrEqual(fit.documentWidth);
  expect(fit.outside, `${where} at ${width} px: past the window's edge`).toEqual([]);
  if (width < NARROW) {
    // The whole width for the content: no sider beside it.
    expect(fit.contentLeft, `${where} at ${width} px: content starts at the left edge`).toBeLessThanOrEqual(1);
    expect(fit.contentWidth, `${where} at ${width} px: content width`).toBeGreaterThanOrEqual(width - 2);
  } else {
    // The sider (208 px, or 80 collapsed) leaves the rest to the content.
    expect(fit.contentWidth, `${where} at ${width} px: content width`).toBeGreaterThanOrEqual(width - 208 - 2);
  }
}

/**
 * The buttons of a card that stick out of it, and whether its title is cut: a detail's action bar
 * (编辑, 下发指令, 关注, 标签显示设置 on 设备详情) ran past its card at 390 px.
 */
async function cardOverflow(card: Locator): Promise<{ buttons: number; outside: string[]; titleCut: boolean }> {
  return card.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const buttons = Array.from(element.querySelectorAll('button')).filter((button) => button.getBoundingClientRect().width > 0);
    const outside = buttons
      .map((button) => ({ text: button.textContent?.trim() ?? '', at: button.getBoundingClientRect() }))
      .filter(({ at }) => at.left < box.left - 1 || at.right > box.right + 1)
      .map(({ text, at }) => `${text} (${Math.round(at.left)}–${Math.round(at.right)}, the card ${Math.round(box.left)}–${Math.round(box.right)})`);
    const title = element.querySelector('.ant-card-head-title');
    return { buttons: buttons.length, outside, titleCut: !!title && title.scrollWidth > title.clientWidth + 1 };
  });
}

async function screenshot(page: Page, name: string, width: number): Promise<void> {
  if (width !== 390 && width !== 1440) return;
  mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENS_DIR}/${name}-${width}.png` });
}

for (const width of WIDTHS) {
  test(`at ${width} px the frame, a list, a detail and a form drawer fit the window`, async ({ page }) => {
    await page.setViewportSize({ width, height: HEIGHT[width] });
    await loginThroughForm(page, 'tadmin');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('dashboard')).toBeVisible();
    await expect(page.getByTestId('user-menu')).toBeInViewport({ ratio: 1 });
    if (width < NARROW) {
      await expect(page.locator('.ant-layout-sider')).toHaveCount(0);
      await expect(page.getByRole('button', { name: '打开菜单' })).toBeVisible();
    } else {
      await expect(page.getByTestId('frame-sider')).toBeVisible();
    }
    await expectFits(page, width, 'the dashboard');
    await screenshot(page, 'frame', width);

    // A list: its table scrolls inside its card (below md a list is a column of cards, issue 34).
    await visit(page, '/system/user');
    const list = activeTab(page).getByTestId('list-page');
    await expect(list.locator(width < NARROW ? '[data-testid="list-card"]' : '.ant-table-row').first()).toBeVisible();
    await expectFits(page, width, '用户管理');
    if (width >= NARROW) {
      const table = await list.locator('.ant-table-content, .ant-table-body').first().evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth, overflow: getComputedStyle(element).overflowX }));
      if (table.scroll > table.client) expect(['auto', 'scroll']).toContain(table.overflow);
    }
    await screenshot(page, 'list', width);

    // A form drawer: within the window (the whole of it on a phone).
    await list.getByRole('button', { name: '新增用户' }).click();
    const drawer = page.locator('.ant-drawer-open .ant-drawer-content-wrapper');
    await expect(drawer.getByLabel('账号')).toBeVisible();
    await expectFits(page, width, 'the 新增用户 drawer');
    if (width < NARROW) expect((await drawer.boundingBox())?.width).toBeGreaterThanOrEqual(width - 1);
    await screenshot(page, 'form', width);
    await page.keyboard.press('Escape');
    await expect(drawer).toHaveCount(0);

    // A detail page, from the device list.
    await visit(page, '/device/all');
    const devices = activeTab(page).getByTestId('list-page');
    const link = devices.locator(width < NARROW ? '[data-testid="list-card"]' : '.ant-table-row').first().getByRole('link').first();
    await expect(link).toBeVisible();
    await link.click();
    await expect(page).toHaveURL(/\/device\/detail\?code=/);
    const detail = activeTab(page).getByTestId('detail-page');
    await expect(detail).toBeVisible();
    await expect(detail.locator('.ant-descriptions').first()).toBeVisible();
    await expectFits(page, width, '设备详情');
    // Its action bar wraps inside its card, and leaves the card's title whole.
    await expect(detail.getByRole('button', { name: '标签显示设置' })).toBeVisible();
    const bar = await cardOverflow(detail.locator('.ant-card').first());
    expect(bar.buttons, `设备详情 at ${width} px: its actions`).toBeGreaterThanOrEqual(3);
    expect(bar.outside, `设备详情 at ${width} px: actions past the card's edge`).toEqual([]);
    expect(bar.titleCut, `设备详情 at ${width} px: the card's title is cut`).toBe(false);
    await screenshot(page, 'detail', width);
  });
}

test('at 390 px the menu is a drawer, the top bar folds its links, and logout is reachable', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);

  // The menu drawer: a leaf opens its page and closes the drawer.
  await page.getByRole('button', { name: '打开菜单' }).click();
  const sider = page.getByTestId('frame-sider');
  await expect(sider).toBeInViewport();
  // The menu groups of the top bar are a segmented choice over the drawer's menu.
  await sider.locator('.ant-segmented-item-label[title="系统"]').click();
  await sider.getByRole('menuitem', { name: '权限管理' }).click();
  await expect(sider.getByRole('menuitem', { name: '用户管理' })).toBeVisible();
  await screenshot(page, 'menu', 390);
  await sider.getByRole('menuitem', { name: '用户管理' }).click();
  await expect(page).toHaveURL(/\/system\/user$/);
  await expect(sider).toBeHidden();
  await expect(page.getByTestId('frame-page-title')).toHaveText('用户管理');

  // 个人大屏, 操作手册 and 我的订单 fold into one menu.
  await expect(page.getByRole('button', { name: '我的订单' })).toHaveCount(0);
  await page.getByRole('button', { name: '更多功能' }).click();
  await expect(page.getByRole('menuitem', { name: /个人大屏/ })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: /操作手册/ })).toBeVisible();
  await page.getByRole('menuitem', { name: /我的订单/ }).click();
  await expect(page).toHaveURL(/\/my\/order$/);
  for (const control of ['消息通知', '运维联系']) await expect(page.getByRole('button', { name: control })).toBeInViewport({ ratio: 1 });

  // The user menu opens on a tap, and logout works.
  const userMenu = page.getByTestId('user-menu');
  await expect(userMenu).toBeInViewport({ ratio: 1 });
  await userMenu.click();
  await page.getByRole('menuitem', { name: /退出登录/ }).click();
  await expect(page.locator('.ant-modal-confirm-title', { hasText: '确认登出' })).toBeVisible();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page).toHaveURL(/\/login$/);
});
