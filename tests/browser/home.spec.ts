import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from './fixtures';
import { activeTab, callOperation, loginThroughForm, resetPlatform, tokenFor, visit, watchErrors } from './support';

// 工作台 shows the platform (issue 34): the home page of each kind of user shows their figures, each
// equal to what the list it leads to counts under the filter it carries; the figures follow the
// live stream (a device coming online and going offline moves them without a reload); 设备看板's
// cards beside them say the same; the page works at 390 px. With DOCS_SCREENSHOTS=1 the home page
// of each role is written to docs/ at 1440 px (the README shows them).

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

const home = (page: Page) => page.getByTestId('home-figures');
const figure = (page: Page, name: string) => home(page).getByTestId(`figure-${name}`);

/** A figure's value as a number ("6,211" → 6211). */
async function valueOf(page: Page, name: string): Promise<number> {
  const text = (await figure(page, name).getByTestId('figure-value').innerText()).replace(/,/g, '');
  expect(text, `${name} is a number`).toMatch(/^\d+(\.\d+)?$/);
  return Number(text);
}

/**
 * Expects the list shown in the active tab to count `total`: its pager's 共 N 条 (the list's own
 * grouping), or no rows and the empty state for 0.
 */
async function expectListTotal(page: Page, total: number, name: string): Promise<void> {
  const list = activeTab(page).getByTestId('list-page');
  if (total > 0) {
    await expect(list.locator('.ant-pagination-total-text'), `${name}: the list counts what the figure said`).toHaveText(`共 ${total.toLocaleString('en-US')} 条`);
  } else {
    await expect(list.locator('.ant-empty'), `${name}: the list is empty as the figure said`).toBeVisible();
    await expect(list.locator('.ant-table-row')).toHaveCount(0);
  }
}

/**
 * Follows a figure's link and checks that the list it opens, filtered as the address says, counts
 * what the figure said; then comes back to 工作台.
 */
async function followFigure(page: Page, name: string, path: RegExp): Promise<number> {
  await expect(figure(page, name)).toBeVisible();
  const shown = await valueOf(page, name);
  await figure(page, name).getByRole('link').click();
  await expect(page).toHaveURL(path);
  await expectListTotal(page, shown, name);
  await visit(page, '/dashboard');
  await expect(home(page)).toBeVisible();
  return shown;
}

/** The widget of a dashboard page by its title. */
const widget = (tab: Locator, title: string) => tab.locator('.ant-card', { has: tab.page().locator('.ant-card-head-title', { hasText: new RegExp(`^${title}$`) }) });

test('tadmin: the fleet, alarms, work and cards, each equal to the list it opens; 设备看板 says the same', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(home(page)).toBeVisible();
  // The shortcuts stay, below the figures.
  await expect(page.getByText('快捷入口')).toBeVisible();

  const total = await followFigure(page, 'devices-total', /\/device\/all$/);
  const online = await followFigure(page, 'devices-online', /\/device\/all#onlineState=online$/);
  const offline = await followFigure(page, 'devices-offline', /\/device\/all#onlineState=offline$/);
  const inactive = await followFigure(page, 'devices-inactive', /\/device\/all#onlineState=inactive$/);
  expect(online + offline + inactive).toBe(total);
  expect(await valueOf(page, 'devices-rate')).toBe(Math.round((online / (online + offline)) * 1000) / 10);
  const pending = await followFigure(page, 'alarms-pending', /\/alarm\/record#state=pending$/);
  let levels = 0;
  for (const level of [1, 2, 3, 4]) levels += await followFigure(page, `alarms-pending-${level}`, new RegExp(`/alarm/record#state=pending&level=%22${level}%22$`));
  expect(levels).toBe(pending);
  await followFigure(page, 'alarms-today', /\/alarm\/record#timeRange=/);
  await followFigure(page, 'repair-overdue', /\/repair#overdue=%221%22$/);
  await followFigure(page, 'repair-created', /\/repair#state=created$/);
  await followFigure(page, 'patrol-overdue', /\/patrol#state=overdue$/);
  await followFigure(page, 'cards-expiring', /\/card\/internet#expiry=expiring30$/);

  // 设备看板's cards beside the home page: the same figures.
  await visit(page, '/dashboards/device');
  const board = activeTab(page);
  for (const [title, value] of [['设备总数', total], ['在线设备', online], ['离线设备', offline], ['未激活设备', inactive]] as const) {
    await expect(widget(board, title).locator('.ant-statistic-content-value')).toHaveText(value.toLocaleString('en-US'));
  }
  expect(errors).toEqual([]);
});

test('tadmin: a device coming online and going offline moves the figures without a reload', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  const devices = await callOperation<{ records: Array<{ code: string; productCode: string }> }>(request, 'device.page', { onlineState: 'offline' }, token);
  const device = devices.data.records[0];
  // The device's product reports every minute and misses two heartbeats after two silent minutes:
  // the offline sweep then marks it offline.
  const setting = await callOperation<{ lowBatteryPercent: number; temperatureHigh: number; temperatureLow: number }>(request, 'product.deviceSetting.get', { productCode: device.productCode }, token);
  const { lowBatteryPercent, temperatureHigh, temperatureLow } = setting.data;
  const saved = await callOperation(
    request,
    'product.deviceSetting.save',
    { productCode: device.productCode, settings: { reportIntervalMinutes: 1, heartbeatMinutes: 1, lowBatteryPercent, temperatureHigh, temperatureLow } },
    token,
  );
  expect(saved.code).toBe('200');
  const credential = await callOperation<{ secret: string }>(request, 'device.credential.reset', { code: device.code }, token);

  let streams = 0;
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname === '/api/live/events') streams += 1;
  });
  await loginThroughForm(page, 'tadmin');
  await expect(home(page)).toBeVisible();
  const online = await valueOf(page, 'devices-online');
  const offline = await valueOf(page, 'devices-offline');
  await expect.poll(() => streams).toBeGreaterThan(0);
  let reloads = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) reloads += 1;
  });
  // The half-minute poll off: the tab reads as hidden, where TanStack Query polls no query
  // (refetchInterval runs only while the document is visible). What moves the figures from here on
  // can only be the live stream, whose events mark home.* stale whether the tab is seen or not.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  });

  const reported = await request.post('/api/device/telemetry/_report', {
    headers: { 'x-device-code': device.code, 'x-device-secret': credential.data.secret },
    data: { metrics: { temperature: 21.5 } },
  });
  expect(reported.status()).toBe(200);
  await expect(figure(page, 'devices-online').getByTestId('figure-value')).toHaveText((online + 1).toLocaleString('en-US'), { timeout: 15_000 });
  await expect(figure(page, 'devices-offline').getByTestId('figure-value')).toHaveText((offline - 1).toLocaleString('en-US'));
  expect(await valueOf(page, 'devices-readings')).toBeGreaterThan(0);

  // Silent since: its last report moved three minutes back (past two missed heartbeats), the
  // offline sweep (every 5 s in the test servers) takes it offline, and the figures go back.
  expect((await callOperation(request, 'dev.device.silence', { code: device.code, minutes: 3 })).code).toBe('200');
  await expect(figure(page, 'devices-offline').getByTestId('figure-value')).toHaveText(offline.toLocaleString('en-US'), { timeout: 30_000 });
  await expect(figure(page, 'devices-online').getByTestId('figure-value')).toHaveText(online.toLocaleString('en-US'));
  expect(reloads).toBe(0);
  expect(errors).toEqual([]);
});

test('repair: their own orders by state, each equal to their list', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'repair');
  await expect(home(page)).toBeVisible();
  await expect(figure(page, 'devices-total')).toHaveCount(0);
  let open = 0;
  open += await followFigure(page, 'repair-assigned', /\/repair#state=assigned$/);
  open += await followFigure(page, 'repair-accepted', /\/repair#state=accepted$/);
  open += await followFigure(page, 'repair-in-progress', /\/repair#state=in_progress$/);
  expect(open).toBeGreaterThan(0);
  await followFigure(page, 'repair-overdue', /\/repair#overdue=%221%22$/);
  expect(errors).toEqual([]);
});

test('admin: the tenants, the fleet and the failed deliveries, each equal to its list', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'admin', 'Admin@2026');
  await expect(home(page)).toBeVisible();
  expect(await followFigure(page, 'tenants-total', /\/tenant\/config$/)).toBeGreaterThan(1);
  await followFigure(page, 'devices-total', /\/device\/all$/);
  await followFigure(page, 'devices-offline', /\/device\/all#onlineState=offline$/);
  await followFigure(page, 'deliveries-failed', /\/message\/delivery#state=failed$/);
  await expect(home(page).getByTestId('tenant-fleets')).toContainText('杭州云联科技有限公司');
  await expect(figure(page, 'messages-rate')).toContainText('条/秒');
  expect(errors).toEqual([]);
});

test('at 390 px the figures fit the screen, two a row, and still lead to their lists', async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await loginThroughForm(page, 'tadmin');
  await expect(home(page)).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const first = await figure(page, 'devices-total').boundingBox();
  const second = await figure(page, 'devices-online').boundingBox();
  expect(first && second && Math.abs(first.y - second.y) < 2 && second.x > first.x).toBe(true);
  await followFigure(page, 'devices-offline', /\/device\/all#onlineState=offline$/);
  expect(errors).toEqual([]);
});

test('the home page of each role, at 1440 px, for the README', async ({ page }) => {
  test.skip(!process.env.DOCS_SCREENSHOTS, 'DOCS_SCREENSHOTS=1 writes docs/home-*.png');
  mkdirSync('docs', { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const [loginName, password] of [['tadmin', undefined], ['repair', undefined], ['admin', 'Admin@2026']] as const) {
    await loginThroughForm(page, loginName, password);
    await expect(home(page)).toBeVisible();
    await page.evaluate(() => document.fonts.ready);
    // No tile under the pointer that signed in.
    await page.mouse.move(0, 899);
    await expect(page.locator('.ant-card-hoverable:hover')).toHaveCount(0);
    await page.screenshot({ path: `docs/home-${loginName}.png`, fullPage: true });
    await page.context().clearCookies();
    await page.evaluate(() => window.sessionStorage.clear());
  }
});
