import { AxeBuilder } from '@axe-core/playwright';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, test, type Page } from './fixtures';
import { activeTab, DEMO_PASSWORD, loginThroughForm, resetPlatform, visit } from './support';

/**
 * Issue 21, accessibility: every shown page of every demo role's own menu, checked by axe-core
 * (WCAG 2 A and AA) once it has rendered its data or its empty state. A `serious` or `critical`
 * violation fails the role's test, naming the page, the rule and the first elements; the counts go
 * to screens/a11y-summary.json (git-ignored) for the README.
 *
 * One browser page per role, signed in once; the pages are reached as the console's own links
 * reach them (no reload), and the tabs left behind are closed before the next page so that each
 * check sees one page in the frame.
 */

const SCREENS_DIR = 'screens';
const ROLE_DIR = join(SCREENS_DIR, 'a11y');
const SUMMARY_FILE = join(SCREENS_DIR, 'a11y-summary.json');
const WCAG_TAGS = ['wcag2a', 'wcag2aa'];
const FAILING_IMPACTS = new Set(['serious', 'critical']);
const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;
/** This run's stamp (playwright.config.ts sets it before the workers start): a summary counts this run only. */
const RUN_STAMP = process.env.BROWSER_BUILD_STAMP ?? 'local';

interface RoleAccount {
  role: string;
  loginName: string;
  password: string;
}

// Largest menus first, so that two workers finish together (the platform admin's 80-odd pages and
// the tenant admin's 70-odd, then the rest).
const ROLES: readonly RoleAccount[] = [
  { role: 'PLATFORM_ADMIN', loginName: 'admin', password: 'Admin@2026' },
  { role: 'TENANT_ADMIN', loginName: 'tadmin', password: DEMO_PASSWORD },
  { role: 'ROLE_TENANT_ORDINARY', loginName: 'tuser', password: DEMO_PASSWORD },
  { role: 'PLATFORM_OPERATOR', loginName: 'operator', password: DEMO_PASSWORD },
  { role: 'ROLE_TENANT_REPAIR', loginName: 'repair', password: DEMO_PASSWORD },
  { role: 'ROLE_REPAIR_IMPLEMENT', loginName: 'implement', password: DEMO_PASSWORD },
  { role: 'ROLE_TENANT_PATROL', loginName: 'patrol', password: DEMO_PASSWORD },
];

/** The menu as `resource/menu/_list` answers it, as far as the crawl needs it. */
interface MenuNode {
  resourceName: string;
  resourceUrl: string;
  isShown: boolean;
  children?: MenuNode[];
}

interface MenuPage {
  name: string;
  url: string;
}

type AxeViolation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

interface Finding {
  page: string;
  url: string;
  rule: string;
  impact: string;
  help: string;
  /** How many elements break the rule on the page. */
  nodes: number;
  targets: string[];
  /** axe's account of the first elements (the colours and ratio for color-contrast). */
  details: string[];
}

interface RoleSummary {
  stamp: string;
  role: string;
  loginName: string;
  pages: number;
  pagesCrawled: string[];
  byImpact: Record<string, number>;
  byRule: Record<string, { impact: string; count: number; pages: string[] }>;
  findings: Finding[];
}

/** The shown leaves of the role's menu, in menu order: each one a page the sider opens. */
function menuPages(nodes: readonly MenuNode[]): MenuPage[] {
  const pages: MenuPage[] = [];
  const walk = (list: readonly MenuNode[]) => {
    for (const node of list) {
      if (node.isShown === false) continue;
      const children = (node.children ?? []).filter((child) => child.isShown !== false);
      if (children.length) walk(children);
      else if (node.resourceUrl?.startsWith('/')) pages.push({ name: node.resourceName, url: node.resourceUrl });
    }
  };
  walk(nodes);
  const seen = new Set<string>();
  return pages.filter((page) => (seen.has(page.url) ? false : (seen.add(page.url), true)));
}

/**
 * Waits for the page shown to have rendered: content in the active tab, nothing loading in it
 * (no spinner, no skeleton, no lazy chunk on its way), and the document quiet for a moment.
 */
async function settle(page: Page, url: string): Promise<void> {
  await expect(page, `${url} is the location`).toHaveURL((location) => location.pathname === url, { timeout: 15_000 });
  await page.waitForFunction(
    () => {
      const tab = document.querySelector('[data-tab]:not([hidden])');
      if (!tab || !(tab.textContent ?? '').trim()) return false;
      if (tab.querySelector('.ant-spin-spinning, .ant-skeleton-active, [aria-busy="true"]')) return false;
      const quietFor = performance.now() - ((window as unknown as { __lastMutation?: number }).__lastMutation ?? 0);
      return quietFor > 200;
    },
    undefined,
    { timeout: 20_000, polling: 100 },
  );
}

/** Tabs left open before the crawl closes them: fewer than the strip shows at 1440 px, so it never folds them under …. */
const MAX_OPEN_TABS = 5;

/** Closes every page tab but the one shown (标签操作 → 关闭其他), so hidden cached pages leave the document. */
async function closeOtherTabs(page: Page): Promise<void> {
  const tabs = page.locator('[data-testid="page-tabs"] .ant-tabs-tab');
  if ((await tabs.count()) <= MAX_OPEN_TABS) return;
  await page.getByRole('button', { name: /标签操作/ }).hover();
  const item = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: '关闭其他' });
  await item.click();
  await expect(page.locator('.ant-dropdown:not(.ant-dropdown-hidden)')).toHaveCount(0);
}

/** axe-core's own build, put into the crawl's page once (the console is one document: no reload between pages). */
const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * The violations of the page as it shows, by axe-core's own `axe.run` in the page (WCAG 2 A and
 * AA, only the violations: axe then spends no time describing what passed). AxeBuilder's
 * analyze() injected axe's 500 KB again into every frame and finished each run in a new blank
 * page: 1.5 to 3 s a page against 0.4 to 1.3 s, over the 214 menu pages of the five roles the
 * largest part of CI's browser run. The init script puts axe into every frame of the page too, so
 * axe.run still reaches a same-origin iframe's content.
 */
async function crawlViolations(page: Page): Promise<AxeViolation[]> {
  return page.evaluate(async (tags) => {
    const { axe } = window as unknown as { axe?: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } };
    if (!axe) throw new Error('axe-core is not in the page');
    return (await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })).violations;
  }, WCAG_TAGS);
}

function describeFinding(finding: Finding): string {
  return `${finding.page} (${finding.url}): [${finding.impact}] ${finding.rule} — ${finding.help}; ${finding.nodes} element(s): ${finding.targets.join(' | ')}`;
}

function findingsOf(violations: readonly AxeViolation[], menuPage: MenuPage): Finding[] {
  return violations.map((violation) => ({
    page: menuPage.name,
    url: menuPage.url,
    rule: violation.id,
    impact: violation.impact ?? 'minor',
    help: violation.help,
    nodes: violation.nodes.length,
    targets: violation.nodes.slice(0, 3).map((node) => node.target.map(String).join(' ')),
    details: violation.nodes.slice(0, 8).map((node) => `${node.target.map(String).join(' ')} :: ${node.failureSummary ?? ''} :: ${node.html.slice(0, 200)}`),
  }));
}

function summarise(account: RoleAccount, crawled: readonly MenuPage[], findings: readonly Finding[]): RoleSummary {
  const byImpact: Record<string, number> = Object.fromEntries(IMPACTS.map((impact) => [impact, 0]));
  const byRule: RoleSummary['byRule'] = {};
  for (const finding of findings) {
    byImpact[finding.impact] = (byImpact[finding.impact] ?? 0) + 1;
    const rule = (byRule[finding.rule] ??= { impact: finding.impact, count: 0, pages: [] });
    rule.count += 1;
    rule.pages.push(finding.url);
  }
  return {
    stamp: RUN_STAMP,
    role: account.role,
    loginName: account.loginName,
    pages: crawled.length,
    pagesCrawled: crawled.map((page) => page.url),
    byImpact,
    byRule,
    findings: [...findings],
  };
}

/** Writes the role's part, then the summary of every role of this run written so far. */
function writeSummary(summary: RoleSummary): void {
  mkdirSync(ROLE_DIR, { recursive: true });
  const own = join(ROLE_DIR, `${summary.role}.json`);
  writeFileSync(`${own}.tmp`, JSON.stringify(summary, null, 2));
  renameSync(`${own}.tmp`, own);
  const roles = readdirSync(ROLE_DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(join(ROLE_DIR, file), 'utf8')) as RoleSummary)
    .filter((part) => part.stamp === RUN_STAMP)
    .sort((a, b) => ROLES.findIndex((r) => r.role === a.role) - ROLES.findIndex((r) => r.role === b.role));
  const total: Record<string, number> = Object.fromEntries(IMPACTS.map((impact) => [impact, 0]));
  const byRule: Record<string, { impact: string; count: number }> = {};
  for (const part of roles) {
    for (const [impact, count] of Object.entries(part.byImpact)) total[impact] = (total[impact] ?? 0) + count;
    for (const [rule, entry] of Object.entries(part.byRule)) {
      const sum = (byRule[rule] ??= { impact: entry.impact, count: 0 });
      sum.count += entry.count;
    }
  }
  const document = {
    tags: WCAG_TAGS,
    disabledRules: [],
    generatedAt: new Date().toISOString(),
    pagesCrawled: Object.fromEntries(roles.map((part) => [part.role, part.pages])),
    totalPages: roles.reduce((sum, part) => sum + part.pages, 0),
    violationsByImpact: total,
    violationsByRule: byRule,
    roles: roles.map(({ role, loginName, pages, byImpact, byRule: rules }) => ({ role, loginName, pages, byImpact, byRule: rules })),
  };
  writeFileSync(`${SUMMARY_FILE}.${process.pid}.tmp`, JSON.stringify(document, null, 2));
  renameSync(`${SUMMARY_FILE}.${process.pid}.tmp`, SUMMARY_FILE);
}

// The roles are independent: two workers share them.
test.describe.configure({ mode: 'parallel' });
test.use({ viewport: { width: 1440, height: 900 } });

for (const account of ROLES) {
  test(`axe finds no serious or critical violation on any menu page of ${account.role} (${account.loginName})`, async ({ page, request }) => {
    // Large menus (the platform admin's 80-odd pages) take a few minutes on a loaded machine.
    test.setTimeout(300_000);
    await resetPlatform(request);
    // The time of the document's last change, for settle().
    await page.addInitScript(() => {
      const mark = () => {
        (window as unknown as { __lastMutation?: number }).__lastMutation = performance.now();
      };
      new MutationObserver(mark).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      mark();
    });

    // axe-core in the console's document from its first script on, run by crawlViolations().
    await page.addInitScript({ path: AXE_SOURCE });
    // The menu the console itself loads at sign-in.
    const menuReply = page.waitForResponse((response) => response.url().includes('/api/resource/menu/_list') && response.request().method() === 'POST');
    await loginThroughForm(page, account.loginName, account.password);
    const menu = ((await (await menuReply).json()) as { data: MenuNode[] }).data;
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
    const pages = menuPages(menu);
    expect(pages.length, `${account.loginName} has menu pages`).toBeGreaterThan(0);

    const findings: Finding[] = [];
    const crawled: MenuPage[] = [];
    for (const menuPage of pages) {
      await visit(page, menuPage.url);
      await settle(page, menuPage.url);
      await closeOtherTabs(page);
      findings.push(...findingsOf(await crawlViolations(page), menuPage));
      crawled.push(menuPage);
    }

    writeSummary(summarise(account, crawled, findings));
    const failing = findings.filter((finding) => FAILING_IMPACTS.has(finding.impact));
    expect(failing.map(describeFinding), `serious or critical violations for ${account.loginName}`).toEqual([]);
  });
}

/**
 * What the menu crawl does not see: the sign-in page, a phone's width, a detail page, and what
 * opens over a page (a form drawer, a confirmation popover, a confirmation modal). Each state is
 * checked as it shows, and each must have no serious or critical violation; the counts go to
 * screens/a11y-states.json for the README.
 */
const STATES_FILE = join(SCREENS_DIR, 'a11y-states.json');

interface StateCheck {
  state: string;
  byImpact: Record<string, number>;
  findings: Finding[];
}

async function checkState(page: Page, state: string, checks: StateCheck[], include?: string): Promise<void> {
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).withTags(WCAG_TAGS);
  if (include) builder.include(include);
  const results = await builder.analyze();
  const findings = findingsOf(results.violations, { name: state, url: new URL(page.url()).pathname });
  const byImpact: Record<string, number> = Object.fromEntries(IMPACTS.map((impact) => [impact, 0]));
  for (const finding of findings) byImpact[finding.impact] = (byImpact[finding.impact] ?? 0) + 1;
  checks.push({ state, byImpact, findings });
}

function writeStates(part: string, checks: readonly StateCheck[]): void {
  mkdirSync(ROLE_DIR, { recursive: true });
  const file = join(ROLE_DIR, `states-${part}.json.part`);
  writeFileSync(file, JSON.stringify({ stamp: RUN_STAMP, part, checks }, null, 2));
  const parts = readdirSync(ROLE_DIR)
    .filter((name) => name.startsWith('states-') && name.endsWith('.json.part'))
    .map((name) => JSON.parse(readFileSync(join(ROLE_DIR, name), 'utf8')) as { stamp: string; checks: StateCheck[] })
    .filter((entry) => entry.stamp === RUN_STAMP);
  const all = parts.flatMap((entry) => entry.checks);
  const document = {
    tags: WCAG_TAGS,
    disabledRules: [],
    generatedAt: new Date().toISOString(),
    states: all.map(({ state, byImpact }) => ({ state, byImpact })),
    findings: all.flatMap((check) => check.findings),
  };
  writeFileSync(`${STATES_FILE}.${process.pid}.tmp`, JSON.stringify(document, null, 2));
  renameSync(`${STATES_FILE}.${process.pid}.tmp`, STATES_FILE);
}

function failingOf(checks: readonly StateCheck[]): string[] {
  return checks.flatMap((check) => check.findings.filter((finding) => FAILING_IMPACTS.has(finding.impact)).map(describeFinding));
}

test('axe finds no serious or critical violation on /login, at 1440 and at 390 px', async ({ page, request }) => {
  await resetPlatform(request);
  const checks: StateCheck[] = [];
  await page.goto('/login');
  await expect(page.getByRole('textbox', { name: '账号', exact: true })).toBeFocused();
  await checkState(page, '登录页（1440 px）', checks);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/login');
  await expect(page.getByRole('textbox', { name: '账号', exact: true })).toBeFocused();
  await checkState(page, '登录页（390 px）', checks);
  writeStates('login', checks);
  expect(checks).toHaveLength(2);
  expect(failingOf(checks), 'serious or critical violations on /login').toEqual([]);
});

test('axe finds no serious or critical violation on a list and a detail at 390 px, a detail, a form drawer, a confirmation popover and modal', async ({ page, request }) => {
  test.setTimeout(120_000);
  await resetPlatform(request);
  const checks: StateCheck[] = [];
  await page.setViewportSize({ width: 390, height: 844 });
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });

  // A menu list page at a phone's width.
  await visit(page, '/system/user');
  const users = page.locator('[data-tab="/system/user"]').getByTestId('list-page');
  // Below md a list is a column of cards (issue 34).
  await expect(users.getByTestId('list-card').first()).toBeVisible();
  await checkState(page, '用户管理（390 px）', checks);

  // 设备详情 from its list's 详情 link, at 390 and at 1440 px.
  await visit(page, '/device/all');
  const devices = page.locator('[data-tab="/device/all"]').getByTestId('list-page');
  await devices.getByTestId('list-card').first().getByRole('button', { name: /操作/ }).click();
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: '详情' }).click();
  await expect(page).toHaveURL(/\/device\/detail\?code=/);
  const detail = activeTab(page).getByTestId('detail-page');
  await expect(detail.locator('.ant-descriptions').first()).toBeVisible();
  await expect(detail.getByTestId('detail-actions').getByRole('button', { name: /^编\s*辑$/ })).toBeVisible();
  await checkState(page, '设备详情（390 px）', checks);
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(detail.locator('.ant-card-extra').getByRole('button', { name: /^编\s*辑$/ })).toBeVisible();
  await checkState(page, '设备详情（1440 px）', checks);

  // The 新增用户 form drawer, open.
  await visit(page, '/system/user');
  await expect(page.locator('[data-tab="/system/user"]')).toBeVisible();
  await expect(users.locator('.ant-table-row').first()).toBeVisible();
  await users.getByRole('button', { name: '新增用户' }).click();
  const drawer = page.locator('.ant-drawer-open');
  await expect(drawer.getByLabel('账号')).toBeVisible();
  await checkState(page, '新增用户抽屉', checks);
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);

  // A row's 删除 asks in a confirmation popover.
  const row = users.locator('.ant-table-row').first().getByTestId('row-actions');
  const remove = row.getByRole('button', { name: /^删\s*除$/ });
  if (await remove.count()) await remove.click();
  else {
    await row.getByRole('button', { name: /更多/ }).click();
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: '删除' }).click();
  }
  const popover = page.locator('.ant-popconfirm:not(.ant-popover-hidden)');
  await expect(popover.getByText('确认删除该用户？')).toBeVisible();
  await checkState(page, '删除确认气泡', checks);
  await popover.getByRole('button', { name: /取\s*消/ }).click();
  await expect(popover).toHaveCount(0);

  // The 确认登出 confirmation modal.
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: /退出登录/ }).click();
  const modal = page.locator('.ant-modal-confirm');
  await expect(modal.locator('.ant-modal-confirm-title', { hasText: '确认登出' })).toBeVisible();
  await checkState(page, '确认登出对话框', checks);
  await modal.getByRole('button', { name: /取\s*消/ }).click();
  await expect(modal).toHaveCount(0);

  writeStates('frame', checks);
  expect(checks).toHaveLength(6);
  expect(failingOf(checks), 'serious or critical violations in these states').toEqual([]);
});
