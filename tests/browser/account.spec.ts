import { expect, test, type Locator, type Page } from './fixtures';
import { callOperation, latestCode, loginThroughForm, resetPlatform, sessionStorageOf } from './support';

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

async function openDrawer(page: Page, loginName: string): Promise<Locator> {
  await loginThroughForm(page, loginName);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByTestId('user-menu').hover();
  await page.getByText('账号信息').click();
  return page.locator('.ant-drawer-content');
}

const dialog = (page: Page) => page.locator('.ant-modal-content').filter({ has: page.locator('.ant-modal-title') }).last();

test('phone change with a current number: verify the old one, then a new number with an empty second code', async ({ page, request }) => {
  const drawer = await openDrawer(page, 'tadmin');
  await drawer.getByRole('button', { name: /修\s*改/ }).first().click();
  const modal = dialog(page);
  await expect(modal.locator('.ant-modal-title')).toHaveText('修改手机号');
  await expect(modal.getByTestId('old-phone')).toHaveValue('1380****0001');
  await modal.getByRole('button', { name: '获取验证码' }).first().click();
  await expect(page.locator('.ant-message-notice', { hasText: '发送成功！' }).last()).toBeVisible();
  await modal.getByLabel('原手机号验证码').fill(await latestCode(request, '13800000001'));
  await modal.getByRole('button', { name: /下一步/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '校验成功！' }).last()).toBeVisible();
  const newPhone = modal.getByLabel('新手机号');
  await expect(newPhone).toBeVisible();
  await expect(modal.getByLabel('验证码', { exact: true })).toHaveValue('');

  // The new number must differ from the old one, checked on the code request.
  await newPhone.fill('13800000001');
  await modal.getByRole('button', { name: '获取验证码' }).last().click();
  await expect(modal.getByText('请输入不同的手机号码!')).toBeVisible();

  await newPhone.fill('13600000066');
  await modal.getByRole('button', { name: '获取验证码' }).last().click();
  await expect(modal.getByRole('button', { name: /秒后重新获取/ }).last()).toBeDisabled();
  await modal.getByLabel('验证码', { exact: true }).fill(await latestCode(request, '13600000066'));
  await modal.getByRole('button', { name: /确\s*定|确\s*认/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await expect(drawer.getByTestId('phone')).toHaveText('1360****0066');
});

test('phone bind without a number; a failed send re-enables the button; the voice code asks first', async ({ page, request }) => {
  const drawer = await openDrawer(page, 'tuser');
  await expect(drawer.getByTestId('phone')).toHaveText('暂无');
  await drawer.getByRole('button', { name: /绑\s*定/ }).first().click();
  const modal = dialog(page);
  await expect(modal.locator('.ant-modal-title')).toHaveText('绑定手机号');
  await modal.getByText('收不到验证码？').click();
  await page.getByRole('button', { name: /^确\s*认$/ }).click();
  await expect(page.getByText('请输入手机号').first()).toBeVisible();

  await modal.getByLabel('手机号').fill('1350000');
  await modal.getByRole('button', { name: '获取验证码' }).click();
  await expect(modal.getByText('请输入正确的手机号码!')).toBeVisible();

  await modal.getByLabel('手机号').fill('13500000055');
  await modal.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '发送成功！' }).last()).toBeVisible();
  // A second request inside 60 s is refused by the server: the button is usable again.
  await modal.getByLabel('手机号').fill('13500000056');
  await modal.getByLabel('手机号').fill('13500000055');
  await modal.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByText('操作过于频繁，请稍后再试')).toBeVisible();
  await expect(modal.getByRole('button', { name: '获取验证码' })).toBeEnabled();

  await modal.getByText('收不到验证码？').click();
  await expect(page.getByText('即将发送语音验证码')).toBeVisible();
  await page.getByRole('button', { name: /取\s*消/ }).last().click();

  await modal.getByLabel('验证码', { exact: true }).fill(await latestCode(request, '13500000055'));
  await modal.getByRole('button', { name: /确\s*定|确\s*认/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await expect(drawer.getByTestId('phone')).toHaveText('1350****0055');
});

test('mail change with an existing mail verifies the old one first; binding a mail needs only the new one', async ({ page, request }) => {
  const drawer = await openDrawer(page, 'tadmin');
  await drawer.getByRole('button', { name: /修\s*改/ }).nth(1).click();
  const modal = dialog(page);
  await expect(modal.locator('.ant-modal-title')).toHaveText('修改邮箱');
  await expect(modal.getByLabel('验证码', { exact: true })).toBeDisabled();
  await modal.getByRole('button', { name: '获取验证码' }).first().click();
  await expect(page.getByText('发送成功', { exact: true })).toBeVisible();
  await modal.getByLabel('原邮箱验证码').fill(await latestCode(request, 'tadmin@example.com'));
  await modal.getByRole('button', { name: /校\s*验/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '校验成功！' }).last()).toBeVisible();
  await modal.getByLabel('新邮箱').fill('tadmin@example.com');
  await modal.getByRole('button', { name: '获取验证码' }).last().click();
  await expect(modal.getByText('请输入不同的邮箱!')).toBeVisible();
  await modal.getByLabel('新邮箱').fill('zhangming@example.cn');
  await modal.getByRole('button', { name: '获取验证码' }).last().click();
  await modal.getByLabel('验证码', { exact: true }).fill(await latestCode(request, 'zhangming@example.cn'));
  await modal.getByRole('button', { name: /确\s*定|确\s*认/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await expect(drawer.getByTestId('mail')).toHaveText('zhangming@example.cn');

  await page.evaluate(() => window.sessionStorage.clear());
  const other = await openDrawer(page, 'tuser');
  await other.getByRole('button', { name: /绑\s*定/ }).nth(1).click();
  const bind = dialog(page);
  await expect(bind.locator('.ant-modal-title')).toHaveText('绑定邮箱');
  await bind.getByLabel('邮箱').fill('liuyang@example');
  await bind.getByRole('button', { name: '获取验证码' }).click();
  await expect(bind.getByText('请输入正确的邮箱!')).toBeVisible();
  await bind.getByLabel('邮箱').fill('liuyang@example.com');
  await bind.getByRole('button', { name: '获取验证码' }).click();
  await bind.getByLabel('验证码', { exact: true }).fill(await latestCode(request, 'liuyang@example.com'));
  await bind.getByRole('button', { name: /确\s*定|确\s*认/ }).click();
  await expect(other.getByTestId('mail')).toHaveText('liuyang@example.com');
});

test('password change in the drawer: SPEC §5 messages, then 修改成功 and back to login', async ({ page }) => {
  const drawer = await openDrawer(page, 'tadmin');
  await drawer.getByRole('button', { name: /修改密码/ }).click();
  const modal = dialog(page);
  await modal.getByRole('button', { name: /确\s*定|确\s*认/ }).click();
  await expect(modal.getByText('请输入旧密码!')).toBeVisible();
  await expect(modal.getByText('请输入新密码!')).toBeVisible();
  await modal.getByLabel('旧密码').fill('Demo@2026');
  await modal.getByLabel('新密码').fill('Next@2027');
  await modal.getByLabel('确认密码').fill('Next@2028');
  await expect(modal.getByText('两次密码不一致')).toBeVisible();
  await modal.getByLabel('确认密码').fill('Next@2027');
  await modal.getByRole('button', { name: /确\s*定|确\s*认/ }).click();
  await expect(page.getByText('修改成功')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect((await sessionStorageOf(page)).accessToken).toBeUndefined();
  await loginThroughForm(page, 'tadmin', 'Next@2027');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an embedded route renders without the frame and with its normal route buttons', async ({ page, request }) => {
  const login = await callOperation<{ accessToken: string }>(request, 'auth.login', { loginName: 'tadmin', password: 'Demo@2026' });
  await page.goto(`/foreign/system/user?dlmToken=${login.data.accessToken}`);
  const list = page.getByTestId('list-page');
  await expect(list.locator('.ant-table-row').first()).toBeVisible();
  await expect(page.getByTestId('frame-sider')).toHaveCount(0);
  await expect(list.getByRole('button', { name: '新增用户' })).toBeVisible();
  await expect(page.locator('[data-foreign-url="/system/user"]')).toBeVisible();
});

test('an embedded user who must change the password is not forced to /init/password', async ({ page, request }) => {
  const login = await callOperation<{ accessToken: string }>(request, 'auth.login', { loginName: 'newbie', password: 'Demo@2026' });
  await page.goto(`/foreign/device/all?dlmToken=${login.data.accessToken}`);
  await expect(page).toHaveURL(/\/foreign\/device\/all$/);
  await page.waitForTimeout(800);
  await expect(page).toHaveURL(/\/foreign\/device\/all$/);
});
