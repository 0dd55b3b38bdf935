import { expect, test, type Page } from './fixtures';
import { activeTab, loginThroughForm, resetPlatform, visit } from './support';

/**
 * Issue 21: notices that respect people. The card-order notice is for those who can confirm a
 * card order and only when one waits in their list; it is one line in the content, not over the
 * list it links to, and closing it lasts for the session. The 运维联系 button covers nothing.
 * Icon buttons speak Chinese; /login has the focus on its first field; the lock after wrong
 * passwords is warned of and its message stays.
 */

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

async function signIn(page: Page, loginName: string): Promise<void> {
  await page.evaluate(() => window.sessionStorage.clear()).catch(() => undefined);
  await loginThroughForm(page, loginName);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('the card-order notice: one slim line below the page tabs for the tenant admin, for the session once closed', async ({ page }) => {
  await signIn(page, 'tadmin');
  const notice = page.getByTestId('card-order-notice');
  await expect(notice).toContainText('您有待确认的卡订单');
  // Slim, and below the strip of page tabs rather than above it.
  const box = await notice.boundingBox();
  const tabs = await page.getByTestId('page-tabs').locator('.ant-tabs-nav').boundingBox();
  expect(box?.height).toBeLessThan(48);
  expect(box?.y).toBeGreaterThanOrEqual((tabs?.y ?? 0) + (tabs?.height ?? 0) - 1);

  // Not on the list it links to.
  await visit(page, '/card/order/user');
  await expect(activeTab(page).getByTestId('list-page').locator('.ant-table-row').first()).toBeVisible();
  await expect(notice).toHaveCount(0);
  await visit(page, '/dashboard');
  await expect(notice).toBeVisible();

  // Closed: it stays closed after a reload of the session.
  await notice.getByRole('button', { name: '关闭卡订单提醒' }).click();
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await expect(page.locator('[data-testid="notification-bell"]')).toBeVisible();
  await expect(notice).toHaveCount(0);
});

for (const loginName of ['tuser', 'repair', 'implement']) {
  test(`${loginName}, who cannot confirm card orders, is not told about them`, async ({ page }) => {
    const checks: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().includes('/card/order/')) checks.push(new URL(sent.url()).pathname);
    });
    await signIn(page, loginName);
    await expect(page.getByTestId('notification-bell')).toBeVisible();
    await expect(page.getByTestId('page-tabs')).toBeVisible();
    await expect(page.getByText('您有待确认的卡订单')).toHaveCount(0);
    expect(checks).toEqual([]);
  });
}

test('the 运维联系 button sits in the top bar: the last row’s actions and the pager’s 跳至 box are clickable at 1440×900', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'tadmin');
  const contact = page.getByRole('button', { name: '运维联系' });
  await expect(contact).toBeVisible();
  expect(await contact.evaluate((element) => element.closest('[data-testid="frame-header"]') !== null)).toBe(true);
  await contact.click();
  await expect(page.getByTestId('operations-contact')).toContainText('400-820-6688');
  await page.keyboard.press('Escape');

  // A full list: thousands of devices, a pager with its 跳至 box.
  await visit(page, '/device/all');
  const list = activeTab(page).getByTestId('list-page');
  const rows = list.locator('.ant-table-row');
  await expect(rows.first()).toBeVisible();
  // Scroll the page to its end: the last row and the pager in view, where the button used to float.
  const jumper = list.locator('.ant-pagination-options-quick-jumper input');
  await jumper.scrollIntoViewIfNeeded();
  const lastRowActions = rows.last().locator('a, button');
  expect(await lastRowActions.count()).toBeGreaterThan(0);
  for (let index = 0; index < (await lastRowActions.count()); index += 1) {
    const action = lastRowActions.nth(index);
    if (!(await action.isVisible())) continue;
    await action.scrollIntoViewIfNeeded();
    // A trial click checks that the element itself receives the pointer (nothing covers it).
    await action.click({ trial: true, timeout: 3000 });
  }
  await jumper.click({ trial: true, timeout: 3000 });
  await jumper.fill('2');
  await jumper.press('Enter');
  await expect(list.locator('.ant-pagination-item-active')).toHaveText('2');
});

test('icon buttons of the frame have Chinese names, and no English label hides inside them', async ({ page }) => {
  await signIn(page, 'tadmin');
  const header = page.getByTestId('frame-header');
  for (const name of ['收起菜单', '个人大屏', '操作手册', '我的订单', '消息通知', '运维联系']) {
    await expect(header.getByRole('button', { name, exact: true }).or(header.getByRole('link', { name, exact: true }))).toBeVisible();
  }
  // What assistive technology reads: labels of elements not hidden from it (an icon inside a named button is).
  const labels = await page.locator('[data-testid="frame-header"] [aria-label], [data-testid="frame-sider"] [aria-label], [data-testid="page-tabs"] [aria-label]').evaluateAll((elements) =>
    elements.filter((element) => element.closest('[aria-hidden="true"]') === null).map((element) => element.getAttribute('aria-label') ?? ''),
  );
  expect(labels.length).toBeGreaterThan(0);
  expect(labels.filter((label) => /[A-Za-z]/.test(label))).toEqual([]);
});

test('/login focuses the account field; wrong passwords warn before the lock, and the lock message stays', async ({ page }) => {
  await page.goto('/login');
  const account = page.getByRole('textbox', { name: '账号', exact: true });
  await expect(account).toBeFocused();
  await expect(page.getByRole('radiogroup', { name: '登录方式' })).toBeVisible();

  await account.fill('tuser');
  const password = page.getByLabel('密码', { exact: true });
  const submit = page.getByRole('button', { name: /登\s*录/ });
  const refused = page.getByTestId('login-refused');
  for (let attempt = 1; attempt <= 4; attempt += 1) {
    await password.fill(`Wrong@${attempt}`);
    const answered = page.waitForResponse((response) => response.url().endsWith('/auth/web/_login'));
    await submit.click();
    await answered;
    await expect(refused).toContainText('用户名或密码错误');
    if (attempt === 4) await expect(refused).toContainText('再输错 1 次，该账号将被锁定 15 分钟');
  }
  // The fifth wrong password locks, and its answer says so (issue 34).
  await password.fill('Wrong@5');
  await submit.click();
  const locked = page.getByTestId('login-locked');
  await expect(locked).toContainText('登录失败次数过多');
  await expect(locked).toContainText('忘记密码');
  // An Alert in the form, not a toast that goes by itself.
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  await expect(page.locator('section[aria-labelledby="public-panel-title"]').getByTestId('login-locked')).toBeVisible();
});
