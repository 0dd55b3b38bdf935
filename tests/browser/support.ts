import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';

type Catalogue = Record<string, { path: string }>;
const catalogue = JSON.parse(readFileSync(new URL('../../schemas/operations.json', import.meta.url), 'utf8')) as Catalogue;

export const DEMO_PASSWORD = 'Demo@2026';
export const SESSION_INVALID_MESSAGE = '用户失效，请重新登录';

interface Envelope<T> {
  code: string;
  message?: string;
  data: T;
}

/** Calls a catalogued operation on the reference server, as the console would. */
export async function callOperation<T = unknown>(
  request: APIRequestContext,
  name: string,
  param: unknown = {},
  token?: string,
): Promise<Envelope<T>> {
  const spec = catalogue[name];
  if (!spec) throw new Error(`operation ${name} is not catalogued`);
  const response = await request.post(`/api${spec.path}`, { data: { param }, headers: token ? { token } : {} });
  expect(response.ok()).toBe(true);
  return (await response.json()) as Envelope<T>;
}

/** Puts the reference server back to its freshly seeded state. */
export async function resetPlatform(request: APIRequestContext): Promise<void> {
  const reply = await callOperation(request, 'dev.reset');
  expect(reply.code).toBe('200');
}

export async function tokenFor(request: APIRequestContext, loginName: string, password = DEMO_PASSWORD): Promise<string> {
  const reply = await callOperation<{ accessToken: string }>(request, 'auth.login', { loginName, password });
  expect(reply.code).toBe('200');
  return reply.data.accessToken;
}

/** The newest verification code the server "sent" to a phone or mail. */
export async function latestCode(request: APIRequestContext, target: string): Promise<string> {
  // The console's send may still be on its way when the test asks: wait for it to arrive.
  let code = '';
  await expect
    .poll(
      async () => {
        const reply = await callOperation<Array<{ target: string; code: string }>>(request, 'dev.outbox', { target });
        code = reply.data.find((row) => row.target === target)?.code ?? '';
        return code;
      },
      { message: `no code was sent to ${target}`, timeout: 10_000 },
    )
    .not.toBe('');
  return code;
}

export async function loginThroughForm(page: Page, loginName: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByRole('textbox', { name: '账号', exact: true }).fill(loginName);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

export async function sessionStorageOf(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const entries: Record<string, string> = {};
    for (let i = 0; i < window.sessionStorage.length; i += 1) {
      const key = window.sessionStorage.key(i);
      if (key) entries[key] = window.sessionStorage.getItem(key) ?? '';
    }
    return entries;
  });
}

/** Collects uncaught page errors and console errors, to assert that a flow ran cleanly. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/**
 * Goes to a console path as a link inside the console does, without reloading it (a reload
 * costs the browser ten times as much), once the console is open; loads it otherwise. Pages
 * already opened stay in their tabs, cached ones mounted: look inside `activeTab(page)`.
 */
export async function visit(page: Page, path: string): Promise<void> {
  const inConsole = await page.evaluate(() => document.querySelector('[data-testid="page-tabs"]') !== null).catch(() => false);
  if (!inConsole) {
    await page.goto(path);
    return;
  }
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** The content of the tab shown now. */
export function activeTab(page: Page): Locator {
  return page.locator('[data-tab]:not([hidden])');
}

/**
 * Ticks or clears a checkbox that a form controls. Formily re-renders the group after each change
 * (a validation message goes away, the field is drawn again), so a click may land on the box being
 * replaced: click while it is not yet as asked, until it shows the state.
 */
export async function setChecked(box: Locator, checked = true): Promise<void> {
  // A form that loads its record is disabled until the record is in: what it shows before is not
  // what it will hold.
  await expect(box).toBeEnabled({ timeout: 15_000 });
  await expect(async () => {
    if ((await box.isChecked()) !== checked) await box.click();
    await expect(box).toBeChecked({ checked, timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}

/**
 * Opens a select and picks the first option showing `option`. Waits for the select to take input
 * (a loading form is disabled) and opens it again if the first click landed before it could open.
 */
export async function chooseOption(page: Page, select: Locator, option: string | RegExp): Promise<void> {
  await expect(select).toBeEnabled({ timeout: 15_000 });
  const item = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first();
  await expect(async () => {
    if (!(await item.isVisible())) await select.click({ force: true });
    await expect(item).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await item.click();
}
