import { expect, test, type Page } from './fixtures';
import { callOperation, latestCode, loginThroughForm, resetPlatform } from './support';

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

async function resetThroughForm(page: Page, request: Parameters<typeof callOperation>[0], tab: string, account: string, code: () => Promise<string>, password: string) {
  await page.goto('/forgot/password');
  await page.getByRole('tab', { name: tab }).click();
  const panel = page.getByRole('tabpanel', { name: tab });
  await panel.getByLabel(tab === '手机找回' ? '手机号' : '邮箱').fill(account);
  // Issue 18: an anonymous code needs the image captcha (solved here through dev.captcha).
  const captcha = panel.getByTestId('captcha');
  await expect(captcha).not.toHaveAttribute('data-uuid', '');
  const answer = await callOperation(request, 'dev.captcha', { uuid: await captcha.getAttribute('data-uuid') });
  await panel.getByLabel('图形验证码', { exact: true }).fill(String(answer.data));
  await panel.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '验证码发送成功' }).last()).toBeVisible();
  await expect(panel.getByRole('button', { name: /秒后重新获取/ })).toBeDisabled();
  await panel.getByPlaceholder('请输入验证码').fill(await code());
  await panel.getByLabel('新密码').fill(password);
  await panel.getByLabel('确认密码').fill(password);
  await panel.getByRole('button', { name: '重置密码' }).click();
  await expect(page.getByText('修改成功')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
}

test('a forgotten password is reset with a code sent to the phone', async ({ page, request }) => {
  await resetThroughForm(page, request, '手机找回', '13800000001', () => latestCode(request, '13800000001'), 'Phone@2027');
  await loginThroughForm(page, 'tadmin', 'Phone@2027');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a forgotten password is reset with a code sent to the mail', async ({ page, request }) => {
  await resetThroughForm(page, request, '邮箱找回', 'tadmin@example.com', () => latestCode(request, 'tadmin@example.com'), 'Mail@2027');
  await loginThroughForm(page, 'tadmin', 'Mail@2027');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the reset form validates the phone and the code before sending', async ({ page }) => {
  await page.goto('/forgot/password');
  await page.getByRole('tab', { name: '手机找回' }).click();
  const panel = page.getByRole('tabpanel', { name: '手机找回' });
  await panel.getByRole('button', { name: '获取验证码' }).click();
  await expect(panel.getByText('请输入手机号')).toBeVisible();
  await panel.getByLabel('手机号').fill('12345');
  await panel.getByRole('button', { name: '获取验证码' }).click();
  await expect(panel.getByText('请输入正确的手机号码')).toBeVisible();
  await panel.getByLabel('手机号').fill('13800000001');
  await panel.getByRole('button', { name: '获取验证码' }).click();
  await expect(panel.getByText('请输入图形验证码')).toBeVisible();
  await panel.getByRole('button', { name: '重置密码' }).click();
  await expect(panel.getByText('请输入验证码')).toBeVisible();
});

test('a wrong code keeps the input and shows the server message', async ({ page }) => {
  await page.goto('/forgot/password');
  await page.getByRole('tab', { name: '手机找回' }).click();
  const panel = page.getByRole('tabpanel', { name: '手机找回' });
  await panel.getByLabel('手机号').fill('13800000001');
  await panel.getByPlaceholder('请输入验证码').fill('000000');
  await panel.getByLabel('新密码').fill('Phone@2027');
  await panel.getByLabel('确认密码').fill('Phone@2027');
  await panel.getByRole('button', { name: '重置密码' }).click();
  await expect(page.getByText('验证码错误或已过期')).toBeVisible();
  await expect(panel.getByLabel('手机号')).toHaveValue('13800000001');
  await expect(page).toHaveURL(/\/forgot\/password$/);
});

async function scanShownTicket(page: Page, request: Parameters<typeof callOperation>[0], openId: string) {
  const ticketHolder = page.getByTestId('wechat-ticket');
  await expect(ticketHolder).not.toHaveAttribute('data-ticket', '');
  const ticket = await ticketHolder.getAttribute('data-ticket');
  const scanned = await callOperation(request, 'dev.wechat.scan', { ticket, openId });
  expect(scanned.code).toBe('200');
}

test('a bound WeChat account logs in by scanning the QR code', async ({ page, request }) => {
  await page.goto('/login');
  await page.getByText('微信登录', { exact: true }).click();
  await scanShownTicket(page, request, 'wx-demo-tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('dashboard')).toContainText('张明');
});

test('an unbound WeChat account binds an existing account', async ({ page, request }) => {
  await page.goto('/login');
  await page.getByText('微信登录', { exact: true }).click();
  await scanShownTicket(page, request, 'wx-new-tuser');
  await expect(page).toHaveURL(/mode=bind/);
  await page.getByRole('textbox', { name: '账号', exact: true }).fill('tuser');
  await page.getByLabel('密码', { exact: true }).fill('Demo@2026');
  await page.getByRole('button', { name: '绑定并登录' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an unbound WeChat account registers a new tenant', async ({ page, request }) => {
  await page.goto('/login');
  await page.getByText('微信登录', { exact: true }).click();
  await scanShownTicket(page, request, 'wx-new-company');
  await expect(page).toHaveURL(/mode=bind/);
  await page.getByRole('link', { name: '没有账号？注册新账号' }).click();
  await expect(page).toHaveURL(/mode=register/);
  await page.getByLabel('企业名称').fill('宁波新材料有限公司');
  await page.getByLabel('用户名称').fill('陈晓');
  await page.getByLabel('手机号').fill('13700000077');
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '验证码发送成功' }).last()).toBeVisible();
  await page.getByPlaceholder('请输入验证码').fill(await latestCode(request, '13700000077'));
  await page.getByLabel('密码', { exact: true }).fill('Start@2027');
  await page.getByLabel('确认密码').fill('Start@2027');
  await page.getByRole('button', { name: '注册并登录' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('dashboard')).toContainText('陈晓');
});
