// Issue 25, must show: a new screen end to end from one description, checked before it runs.
// In a scratch copy of the project (node_modules linked; /work's own schemas/ never touched):
// `npm run new:screen -- --from supplier.json` writes 供应商管理 (a description of ≤ 40 lines,
// no TypeScript), `npm run check` passes, the console is built and the reference server started
// from the copy as the browser suite does (scripts/browser-server.mjs), and the new list, form and
// detail are walked for two roles: 平台管理员 (admin) holds the buttons and creates, edits, views
// and deletes a supplier; 平台运营 (operator) sees the list and the detail without the write
// buttons and is refused by the server. Then the generated server suites (fuzz on the new
// operations, the role matrix, tenant isolation, NUL input, stored XSS) run on the copy.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

const MAIN = new URL('../..', import.meta.url).pathname;
const PORT = Number(process.env.NEW_SCREEN_PORT ?? 4399);
const URL_BASE = `http://127.0.0.1:${PORT}`;
/** What a copy does not need: git, what a run leaves, the dependencies (linked instead). */
const LEFT_OUT = new Set(['.git', 'node_modules', 'dist', '.tmp', '.bench', '.data', 'test-results', 'playwright-report']);

/** The whole description of 供应商管理: this, and nothing else, is what an implementer writes. */
const DESCRIPTION = {
  entity: 'supply/supplier',
  title: '供应商管理',
  fields: ['code:code!', 'name:text!', 'contact', 'phone:phone', 'status:dict(supplier_status)'],
  dicts: { supplier_status: 'active:合作中,paused:暂停合作' },
  roles: ['PLATFORM_ADMIN', 'PLATFORM_OPERATOR'],
  writeRoles: ['PLATFORM_ADMIN'],
  group: 'platform',
  seed: 3,
};

test.use({ baseURL: URL_BASE });
test.describe.configure({ mode: 'serial' });

let scratch = '';
let server: ChildProcess | undefined;

function run(command: string, args: string[], env: Record<string, string> = {}, timeout = 300_000): string {
  const result = spawnSync(command, args, { cwd: scratch, encoding: 'utf8', timeout, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${String(result.status ?? result.signal)}):\n${output.slice(-6000)}`);
  return output;
}
const bin = (name: string) => join(scratch, 'node_modules/.bin', name);
/**
 * Vitest on the copy, its output without colours. Its servers start from the copy's own seeded
 * dump: `npm test` hands every vitest run the main tree's (SEEDED_DUMP), which has no supplier
 * table, and the new operations answered "500" on it.
 */
const vitestOnCopy = (args: string[], env: Record<string, string>, timeout: number) =>
  run(bin('vitest'), ['run', ...args], { ...env, SEEDED_DUMP: join(scratch, 'seeded.tar'), CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' }, timeout)
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '');

test.beforeAll(async () => {
  test.setTimeout(15 * 60_000);
  scratch = mkdtempSync(join(tmpdir(), 'new-screen-'));
  for (const name of readdirSync(MAIN)) if (!LEFT_OUT.has(name)) cpSync(join(MAIN, name), join(scratch, name), { recursive: true });
  symlinkSync(join(MAIN, 'node_modules'), join(scratch, 'node_modules'), 'dir');

  const description = `${JSON.stringify(DESCRIPTION, null, 2)}\n`;
  writeFileSync(join(scratch, 'supplier.json'), description);
  const written = run(bin('tsx'), ['scripts/new-screen.ts', '--from', 'supplier.json']);
  expect(written).toContain('schemas/entities/supply/supplier.json');
  // npm run check: types, lint and schemas/ of the copy.
  const checked = run(process.execPath, ['scripts/check-all.mjs'], {}, 600_000);
  expect(checked).toContain('schemas/ 检查通过');
  // Built and served as the browser suite does.
  run(bin('vite'), ['build', '--logLevel', 'warn'], {}, 600_000);
  run(bin('tsx'), ['scripts/seed-dump.ts', join(scratch, 'seeded.tar')]);
  server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--dump', join(scratch, 'seeded.tar'), '--dev', '--static', 'dist', '--host', '127.0.0.1', '--port', String(PORT)], {
    cwd: scratch,
    stdio: 'ignore',
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  await expect
    .poll(async () => (await fetch(`${URL_BASE}/login`).then((r) => r.status).catch(() => 0)) === 200, { timeout: 120_000, intervals: [500] })
    .toBe(true);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server?.once('exit', resolve));
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function call<T = unknown>(request: APIRequestContext, path: string, param: unknown, token?: string): Promise<{ code: string; message: string; data: T }> {
  const response = await request.post(`/api${path}`, { data: { param }, headers: token ? { token } : {} });
  return (await response.json()) as { code: string; message: string; data: T };
}

async function login(page: Page, loginName: string, password: string) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: '账号', exact: true }).fill(loginName);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('the description is short and no TypeScript was written; the copy passed npm run check', () => {
  const lines = `${JSON.stringify(DESCRIPTION, null, 2)}\n`.trimEnd().split('\n').length;
  expect(lines).toBeLessThanOrEqual(40);
  const added = ['schemas/entities/supply/supplier.json', 'schemas/pages/supply/supplier.json', 'schemas/pages/supply/supplierForm.json', 'schemas/pages/supply/supplierDetail.json'];
  for (const file of added) expect(existsSync(join(scratch, file)), file).toBe(true);
  for (const dir of ['server', 'src', 'renderers']) expect(readdirSync(join(scratch, dir), { recursive: true }).filter((file) => String(file).includes('upplier'))).toEqual([]);
  expect(existsSync(join(MAIN, 'schemas/entities/supply/supplier.json'))).toBe(false);
  expect(JSON.parse(readFileSync(join(scratch, 'schemas/operations.json'), 'utf8'))).toHaveProperty(['supply.supplier.insert', 'button'], true);
});

test('平台管理员 creates, edits, views and deletes a supplier through the new list, form and detail', async ({ page }) => {
  await login(page, 'admin', 'Admin@2026');
  await page.getByRole('tab', { name: '平台' }).click();
  await page.getByRole('menuitem', { name: '供应商管理' }).click();
  await expect(page).toHaveURL(/\/supply\/supplier$/);
  const list = page.getByTestId('list-page');
  await expect(list.locator('.ant-table-row')).toHaveCount(3);
  await expect(list.locator('.ant-table-row').first()).toContainText('SUP-001');
  await expect(list.getByRole('button', { name: /导\s*出/ })).toBeVisible();

  // A filter derived from the status column.
  await list.getByTestId('list-filters').getByRole('combobox', { name: '状态' }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '暂停合作' }).click();
  await list.getByRole('button', { name: /查\s*询/ }).click();
  await expect(list.locator('.ant-table-row')).toHaveCount(1);
  await expect(list.locator('.ant-table-row').first()).toContainText('暂停合作');
  await list.getByRole('button', { name: /重\s*置/ }).click();
  await expect(list.locator('.ant-table-row')).toHaveCount(3);

  // 新增: the entity's rules, with its messages, in the drawer.
  await list.getByRole('button', { name: '新增供应商' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(drawer.getByText('请输入供应商编码')).toBeVisible();
  await expect(drawer.getByText('请输入供应商名称')).toBeVisible();
  await drawer.getByLabel('供应商编码').fill('S');
  await drawer.getByLabel('供应商名称').fill('杭州<水表>');
  await drawer.getByLabel('联系电话').fill('1380000');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(drawer.getByText('请输入 2 至 32 位字母、数字或 -')).toBeVisible();
  await expect(drawer.getByText('不能包含 < 或 >')).toBeVisible();
  await expect(drawer.getByText('请输入正确的手机号码')).toBeVisible();
  await drawer.getByLabel('供应商编码').fill('SUP-100');
  await drawer.getByLabel('供应商名称').fill('杭州水表配件有限公司');
  await drawer.getByLabel('联系人').fill('周敏');
  await drawer.getByLabel('联系电话').fill('13800001234');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await expect(drawer).toBeHidden();
  const row = list.locator('.ant-table-row', { hasText: 'SUP-100' });
  await expect(row).toContainText('杭州水表配件有限公司');
  await expect(row).toContainText('合作中');

  // The same code again: the server's unique key, in the entity's words.
  await list.getByRole('button', { name: '新增供应商' }).click();
  await drawer.getByLabel('供应商编码').fill('SUP-100');
  await drawer.getByLabel('供应商名称').fill('另一家');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '供应商编码已存在' }).last()).toBeVisible();
  await page.keyboard.press('Escape');
  await page.locator('.ant-modal-confirm', { hasText: '表单有未保存的修改，确定离开吗？' }).getByRole('button', { name: /离\s*开/ }).click();
  await expect(drawer).toBeHidden();

  // 编辑
  await row.getByRole('button', { name: /编\s*辑/ }).click();
  await expect(drawer.getByLabel('供应商名称')).toHaveValue('杭州水表配件有限公司');
  await drawer.getByLabel('供应商名称').fill('杭州水表配件股份有限公司');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(row).toContainText('杭州水表配件股份有限公司');

  // 查看: the hidden detail route.
  await row.getByRole('button', { name: /查\s*看/ }).click();
  await expect(page).toHaveURL(/\/supply\/supplier\/detail\?id=\d+$/);
  const detail = page.getByTestId('detail-page');
  await expect(detail).toContainText('供应商信息');
  await expect(detail).toContainText('杭州水表配件股份有限公司');
  await expect(detail).toContainText('周敏');
  await expect(detail).toContainText('admin');

  // 删除, after a confirmation.
  await page.goto('/supply/supplier');
  await list.locator('.ant-table-row', { hasText: 'SUP-100' }).getByRole('button', { name: /删\s*除/ }).click();
  await expect(page.getByText('确认删除该供应商？删除后不可恢复。')).toBeVisible();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(list.locator('.ant-table-row', { hasText: 'SUP-100' })).toHaveCount(0);
  await expect(list.locator('.ant-table-row')).toHaveCount(3);
});

test('平台运营 sees the list and the detail without the write buttons, and the server refuses the writes', async ({ page, request }) => {
  await login(page, 'operator', 'Demo@2026');
  await page.goto('/supply/supplier');
  const list = page.getByTestId('list-page');
  await expect(list.locator('.ant-table-row')).toHaveCount(3);
  await expect(list.getByRole('button', { name: '新增供应商' })).toHaveCount(0);
  await expect(list.getByRole('button', { name: /^编\s*辑$/ })).toHaveCount(0);
  await expect(list.getByRole('button', { name: /^删\s*除$/ })).toHaveCount(0);
  await expect(list.getByRole('button', { name: /导\s*出/ })).toBeVisible();
  await list.locator('.ant-table-row').first().getByRole('button', { name: /查\s*看/ }).click();
  await expect(page.getByTestId('detail-page')).toContainText('SUP-001');

  const token = (await call<{ accessToken: string }>(request, '/auth/web/_login', { loginName: 'operator', password: 'Demo@2026' })).data.accessToken;
  const page1 = await call<{ records: Array<{ id: number }> }>(request, '/supply/supplier/_page', {}, token);
  expect(page1.code).toBe('200');
  const id = page1.data.records[0].id;
  expect((await call(request, '/supply/supplier/_insert', { supplier: { code: 'SUP-200', name: '运营新增' } }, token)).code).toBe('403');
  expect((await call(request, '/supply/supplier/_modify', { id, supplier: { code: 'SUP-001', name: '运营改名' } }, token)).code).toBe('403');
  expect((await call(request, '/supply/supplier/_delete', { id }, token)).code).toBe('403');
  // A tenant's staff have no such menu, so no such button either.
  const tadmin = (await call<{ accessToken: string }>(request, '/auth/web/_login', { loginName: 'tadmin', password: 'Demo@2026' })).data.accessToken;
  expect((await call(request, '/supply/supplier/_delete', { id }, tadmin)).code).toBe('403');
});

test('the contract tests that read the menus, the catalogue and the pages pass on the copy unchanged', () => {
  // Issue 25: a new screen must not break npm test — what these tests expect follows from schemas/.
  test.setTimeout(5 * 60_000);
  const suites = ['tests/contract/menus.test.ts', 'tests/contract/catalogue.test.ts', 'tests/contract/consoleCatalogue.test.ts', 'tests/contract/contracts.test.ts', 'tests/contract/dictionaries.test.ts', 'tests/contract/pageModel.test.ts', 'tests/contract/invalidates.test.ts'];
  const output = vitestOnCopy(['--project', 'contract', ...suites], {}, 300_000);
  expect(output).toMatch(new RegExp(`Test Files\\s+${suites.length} passed \\(${suites.length}\\)`));
  expect(output).not.toMatch(/\d+ failed/);
});

test('the generated server suites cover the new operations on the copy', () => {
  test.setTimeout(10 * 60_000);
  const suites = ['tests/server/fuzz-1.test.ts', 'tests/server/fuzz-2.test.ts', 'tests/server/roles-matrix.test.ts', 'tests/server/isolation.test.ts', 'tests/server/nul-input.test.ts', 'tests/server/xss.test.ts'];
  const output = vitestOnCopy(['--project', 'server', ...suites], { CATALOGUE_FOCUS: 'supply.supplier.' }, 600_000);
  expect(output).toMatch(/Test Files\s+6 passed \(6\)/);
  expect(output).not.toMatch(/\d+ failed/);
});
