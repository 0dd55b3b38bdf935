import { expect, test, type Page } from './fixtures';
import { XSS_PAYLOADS } from '../support/xssPayloads';
import { callOperation, loginThroughForm, resetPlatform, tokenFor } from './support';

// Stored XSS (#9): the classic payloads saved through the server as user names, a nickname and
// dictionary labels, then shown by the console. No payload may run (no dialog, no call of the
// planted window.__xss, no navigation), none may leave a scriptable element or attribute in the
// page, and each shows as the text it is.

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

/** Plants the tripwires before any console script runs. */
async function armTripwires(page: Page): Promise<string[]> {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.addInitScript(() => {
    const hits: string[] = [];
    Object.assign(window, {
      __xssHits: hits,
      __xss: () => hits.push('__xss'),
      alert: () => hits.push('alert'),
      confirm: () => hits.push('confirm'),
      prompt: () => hits.push('prompt'),
    });
  });
  return dialogs;
}

/** Scriptable things inside the console's content and frame (not the console's own scripts). */
async function scriptableInPage(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.getElementById('root');
    if (!root) return ['no #root'];
    root.querySelectorAll('script, iframe, object, embed, base, meta, link, svg script, math').forEach((element) => found.push(`<${element.tagName.toLowerCase()}>`));
    root.querySelectorAll('*').forEach((element) => {
      for (const attribute of Array.from(element.attributes)) {
        const name = attribute.name.toLowerCase();
        if (name.startsWith('on')) found.push(`${element.tagName.toLowerCase()} ${name}`);
        if (['href', 'src', 'action', 'formaction', 'xlink:href'].includes(name) && /^\s*(javascript|vbscript|data):/i.test(attribute.value)) found.push(`${name}=${attribute.value}`);
      }
    });
    return found;
  });
}

async function expectNothingRan(page: Page, dialogs: string[], where: string): Promise<void> {
  expect(dialogs, where).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __xssHits: string[] }).__xssHits), where).toEqual([]);
  expect(await scriptableInPage(page), where).toEqual([]);
}

test('payloads stored as user names, a nickname and dictionary labels show as text and run nothing', async ({ page, request }) => {
  test.setTimeout(180_000);
  const tadmin = await tokenFor(request, 'tadmin');
  const admin = await tokenFor(request, 'admin', 'Admin@2026');

  // User names (up to 32 characters) through the user form's operation.
  const names = XSS_PAYLOADS.filter((payload) => [...payload].length <= 32);
  expect(names.length).toBeGreaterThan(15);
  for (const [index, userName] of names.entries()) {
    const answer = await callOperation(request, 'system.user.insert', { user: { loginName: `xss${String(index).padStart(2, '0')}`, userName, organizationCode: 'T0001P01', roleCode: 'ROLE_TENANT_ORDINARY' } }, tadmin);
    expect(answer.code, userName).toBe('200');
  }
  // The signed-in user's own nickname (within the 32 characters a nickname may have; not matching
  // the user list's keyword below).
  const nickname = '<img src=x onerror=alert(1)>';
  expect((await callOperation(request, 'user.name.update', nickname, tadmin)).code).toBe('200');
  // Dictionary labels (markup is refused there, the rest is stored).
  expect((await callOperation(request, 'dict.insert', { dict: { dictType: 'xss_probe', dictName: 'XSS 探针' } }, admin)).code).toBe('200');
  const labels = XSS_PAYLOADS.filter((payload) => !/[<>]/.test(payload));
  for (const [index, dictLabel] of labels.entries()) {
    expect((await callOperation(request, 'dict.item.insert', { dictType: 'xss_probe', item: { dictValue: `v${index}`, dictLabel } }, admin)).code, dictLabel).toBe('200');
  }

  const dialogs = await armTripwires(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  // The nickname in the top bar and on the dashboard, as text.
  await expect(page.getByTestId('user-menu')).toContainText(nickname);
  await expectNothingRan(page, dialogs, 'dashboard');

  // Every user name in the user list, page by page (100 a page).
  await page.goto('/system/user');
  const list = page.getByTestId('list-page');
  await list.getByRole('textbox', { name: '关键字' }).fill('xss');
  await list.getByRole('button', { name: /查\s*询/ }).click();
  await expect(list.locator('.ant-table-row').first()).toBeVisible();
  await list.locator('.ant-pagination-options .ant-select').click();
  await page.locator('.ant-select-item-option', { hasText: '100 条/页' }).click();
  await expect(list.locator('.ant-table-row')).toHaveCount(names.length);
  for (const name of names) await expect(list.getByText(name, { exact: true }).first(), name).toBeVisible();
  await expect(page).toHaveURL(/\/system\/user/);
  await expectNothingRan(page, dialogs, '/system/user');

  // The account drawer shows the nickname too.
  await page.getByTestId('user-menu').hover();
  await page.getByText('账号信息').click();
  await expect(page.locator('.ant-drawer').getByText(nickname).first()).toBeVisible();
  await expectNothingRan(page, dialogs, 'account drawer');

  // Platform staff see the dictionary labels.
  const adminPage = await page.context().newPage();
  const adminDialogs = await armTripwires(adminPage);
  await loginThroughForm(adminPage, 'admin', 'Admin@2026');
  await expect(adminPage).toHaveURL(/\/dashboard$/);
  await adminPage.goto('/system/dictionary/child?dictType=xss_probe');
  const items = adminPage.getByTestId('list-page');
  await expect(items.locator('.ant-table-row').first()).toBeVisible();
  await items.locator('.ant-pagination-options .ant-select').click();
  await adminPage.locator('.ant-select-item-option', { hasText: '100 条/页' }).click();
  await expect(items.locator('.ant-table-row')).toHaveCount(labels.length);
  for (const label of labels) await expect(items.getByText(label, { exact: true }).first(), label).toBeVisible();
  await expectNothingRan(adminPage, adminDialogs, '/system/dictionary/child');
});
