import { expect, test, type Page } from './fixtures';
import {
  callOperation,
  loginThroughForm,
  resetPlatform,
  SESSION_INVALID_MESSAGE,
  sessionStorageOf,
  tokenFor,
  watchErrors,
} from './support';

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

test('the tenant admin logs in and lands on the dashboard', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('dashboard')).toContainText('张明');
  await expect(page.getByTestId('frame-sider')).toBeVisible();
  const stored = await sessionStorageOf(page);
  expect(stored.accessToken).toBeTruthy();
  expect(stored.refreshToken).toBeTruthy();
  expect(stored.orgCode).toBeTruthy();
  expect(JSON.parse(stored.organizationList).length).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});

test('a wrong password shows the server message and stays on /login', async ({ page }) => {
  await loginThroughForm(page, 'tadmin', 'Wrong@2026');
  await expect(page.getByText('用户名或密码错误')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect((await sessionStorageOf(page)).accessToken).toBeUndefined();
});

test('the login form checks its fields before calling the server', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page.getByText('请输入账号')).toBeVisible();
  await expect(page.getByText('请输入密码')).toBeVisible();
});

test('without a token only /login and /forgot/password are reachable', async ({ page }) => {
  for (const path of ['/', '/dashboard', '/device/all', '/init/password', '/my/order', '/foreign/device/all']) {
    await page.goto(path);
    await expect(page, `visiting ${path}`).toHaveURL(/\/login$/);
  }
  await page.goto('/forgot/password');
  await expect(page).toHaveURL(/\/forgot\/password$/);
  await expect(page.getByText('找回密码')).toBeVisible();
});

test('an unknown path goes to /404', async ({ page }) => {
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByText('抱歉，您访问的页面不存在')).toBeVisible();
});

test('a dlmToken entry stores the token and isForeign, initialises after the delay and drops it from the address bar', async ({ page, request }) => {
  const token = await tokenFor(request, 'tadmin');
  await page.goto(`/foreign/device/all?dlmToken=${token}`);
  await expect(page).toHaveURL(/\/foreign\/device\/all$/);
  await expect(page.locator('[data-foreign-url="/device/all"]')).toBeVisible();
  await expect(page.getByTestId('frame-sider')).toHaveCount(0);
  const stored = await sessionStorageOf(page);
  expect(stored.accessToken).toBe(token);
  expect(stored.isForeign).toBe('1');
  expect(page.url()).not.toContain(token);
});

test('a dlmToken the server does not know clears auth and goes to /login', async ({ page }) => {
  await page.goto('/dashboard?dlmToken=not-a-real-token');
  await expect(page).toHaveURL(/\/login$/);
  expect((await sessionStorageOf(page)).accessToken).toBeUndefined();
});

test('a user who must change the password is sent to /init/password and continues to the dashboard', async ({ page }) => {
  await loginThroughForm(page, 'newbie');
  await expect(page).toHaveURL(/\/init\/password$/);
  await page.getByLabel('旧密码').fill('Demo@2026');
  await page.getByLabel('新密码').fill('abcdefgh');
  await page.getByLabel('确认密码').fill('abcdefgi');
  await page.getByRole('button', { name: '确认修改' }).click();
  await expect(page.getByText('密码长度需8-16位，须包含数字、字母、符号中至少2种元素').first()).toBeVisible();
  await page.getByLabel('新密码').fill('Fresh@2027');
  await page.getByLabel('确认密码').fill('Fresh@2028');
  await expect(page.getByText('两次密码不一致')).toBeVisible();
  await page.getByLabel('确认密码').fill('Fresh@2027');
  await page.getByRole('button', { name: '确认修改' }).click();
  await expect(page.getByText('修改成功')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  // The new password is the one that works now.
  await page.evaluate(() => window.sessionStorage.clear());
  await loginThroughForm(page, 'newbie', 'Fresh@2027');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('leaving the forced password change for anything but /dashboard clears the session', async ({ page }) => {
  await loginThroughForm(page, 'newbie');
  await expect(page).toHaveURL(/\/init\/password$/);
  await page.getByRole('link', { name: '退出登录' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await sessionStorageOf(page)).toEqual({});
});

test('logout asks 确认登出 and clears every stored key', async ({ page }) => {
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByTestId('user-menu').hover();
  await page.getByText('退出登录').click();
  await expect(page.locator('.ant-modal-confirm-title', { hasText: '确认登出' })).toBeVisible();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await sessionStorageOf(page)).toEqual({});
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

/**
 * Signs in and waits until the frame's own first calls (message count, card-order banner, usage
 * record) are answered: a test that then expires the tokens must not have one of them meet the
 * expired tokens and end the session before the step it means to test.
 */
async function signInToSettledFrame(page: Page, loginName: string): Promise<void> {
  const frameCalls = ['/user/message/_count', '/card/order/_isBulletBox', '/usage/message/_save'].map((path) =>
    page.waitForResponse((response) => new URL(response.url()).pathname.endsWith(path)),
  );
  await loginThroughForm(page, loginName);
  await expect(page).toHaveURL(/\/dashboard$/);
  await Promise.all(frameCalls);
}

/** The token renewals the page asks for from now on. */
function renewalsOf(page: Page): string[] {
  const renewals: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().includes('/api/auth/token/_refresh')) renewals.push(sent.url());
  });
  return renewals;
}

test('an expired access token is renewed with the refresh token once, and the console carries on', async ({ page, request }) => {
  const errors = watchErrors(page);
  await signInToSettledFrame(page, 'tadmin');
  const before = await sessionStorageOf(page);
  const renewals = renewalsOf(page);
  // The tab leaves the console first (its storage stays): an open console is told of the expiry by
  // its live stream and renews by itself (the next test), which would race the reload below.
  await page.goto('about:blank');
  expect((await callOperation(request, 'dev.session.expire', { loginName: 'tadmin' })).code).toBe('200');
  // Coming back starts the session again: its init calls meet the expired token together.
  await page.goBack();
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  const after = await sessionStorageOf(page);
  expect(after.accessToken).toBeTruthy();
  expect(after.accessToken).not.toBe(before.accessToken);
  expect(after.refreshToken).not.toBe(before.refreshToken);
  expect(renewals).toHaveLength(1);
  await expect(page.getByText(SESSION_INVALID_MESSAGE)).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('an open console whose access token expires is told by its live stream, renews it once and carries on', async ({ page, request }) => {
  const errors = watchErrors(page);
  await signInToSettledFrame(page, 'tadmin');
  const before = await sessionStorageOf(page);
  const renewals = renewalsOf(page);
  const renewed = page.waitForResponse((response) => response.url().includes('/api/auth/token/_refresh'));
  expect((await callOperation(request, 'dev.session.expire', { loginName: 'tadmin' })).code).toBe('200');
  // No reload, no click: the stream ends with the token, the console asks its session and renews.
  expect((await renewed).ok()).toBe(true);
  await expect.poll(async () => (await sessionStorageOf(page)).accessToken).not.toBe(before.accessToken);
  const after = await sessionStorageOf(page);
  expect(after.refreshToken).not.toBe(before.refreshToken);
  // The console goes on with the new token: a menu page loads its data.
  await page.getByRole('tab', { name: '物联网', exact: true }).click();
  const sider = page.getByTestId('frame-sider');
  await sider.getByRole('menuitem', { name: /(^|\s)设备管理$/ }).click();
  await sider.getByRole('menuitem', { name: /(^|\s)设备列表$/ }).click();
  await expect(page.locator('[data-testid="list-page"][data-view="device/listTable"] .ant-table-row').first()).toBeVisible();
  expect(renewals).toHaveLength(1);
  await expect(page.getByText(SESSION_INVALID_MESSAGE)).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a "301" from the server goes to /login with 用户失效，请重新登录 shown once', async ({ page, request }) => {
  await signInToSettledFrame(page, 'tadmin');
  // The tab leaves the console first (its storage stays): an open console is told of the ended
  // session by its live stream and would go to /login by itself before the reload below.
  await page.goto('about:blank');
  // Both tokens expired: renewal answers "301" too and the session ends.
  const expired = await callOperation(request, 'dev.session.expire', { loginName: 'tadmin', refresh: true });
  expect(expired.code).toBe('200');
  // Coming back starts the session again: four init calls fail together with "301".
  await page.goBack();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(SESSION_INVALID_MESSAGE)).toHaveCount(1);
  await page.waitForTimeout(500);
  await expect(page.getByText(SESSION_INVALID_MESSAGE)).toHaveCount(1);
  expect(await sessionStorageOf(page)).toEqual({});
});

test('an open console whose session ends is told by its live stream and goes to /login, 用户失效，请重新登录 shown once', async ({ page, request }) => {
  await signInToSettledFrame(page, 'tadmin');
  const expired = await callOperation(request, 'dev.session.expire', { loginName: 'tadmin', refresh: true });
  expect(expired.code).toBe('200');
  // No reload, no click: the stream announces the end and the console asks the session.
  await expect(page).toHaveURL(/\/login$/, { timeout: 15_000 });
  await expect(page.getByText(SESSION_INVALID_MESSAGE)).toHaveCount(1);
  expect(await sessionStorageOf(page)).toEqual({});
});
