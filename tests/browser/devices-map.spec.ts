import { expect, test, type Locator, type Page } from './fixtures';
import { MAP_GRID } from '../../src/maps/offlineOption';
import { callOperation, chooseOption, loginThroughForm, resetPlatform, tokenFor, watchErrors } from './support';

// 设备分布 (a hand-written screen from the view registry: the offline map, filters, counts and
// the place search) and the personal big screen opened from the top bar.

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

interface Point {
  code: string;
  onlineState: string;
}

const formatted = (count: number) => count.toLocaleString('en-US');

/** The number a count card shows. */
const countOf = (view: Locator, state: string) => view.getByTestId(`distribution-count-${state}`).locator('.ant-statistic-content-value');

async function mapCentre(map: Locator): Promise<{ longitude: number; latitude: number }> {
  const longitude = Number(await map.getAttribute('data-center-longitude'));
  const latitude = Number(await map.getAttribute('data-center-latitude'));
  return { longitude, latitude };
}

/** The plot centre of the offline map (inside its fixed grid margins). */
async function clickPlotCentre(page: Page, map: Locator, tooltip: string): Promise<void> {
  await map.scrollIntoViewIfNeeded();
  const box = (await map.locator('canvas').first().boundingBox())!;
  const x = box.x + MAP_GRID.left + (box.width - MAP_GRID.left - MAP_GRID.right) / 2;
  const y = box.y + MAP_GRID.top + (box.height - MAP_GRID.top - MAP_GRID.bottom) / 2;
  await page.mouse.move(x - 20, y - 20);
  await page.mouse.move(x, y, { steps: 4 });
  await expect(map).toContainText(tooltip);
  await page.mouse.click(x, y);
}

test('tadmin opens 设备分布 from the menu: map, counts, filters, place search and a device click', async ({ page, request }) => {
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  const all = (await callOperation<Point[]>(request, 'device.distribution.list', {}, token)).data;
  const online = all.filter((point) => point.onlineState === 'online').length;
  expect(all.length).toBeGreaterThan(5000);

  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('tab', { name: '物联网' }).click();
  await page.getByRole('menuitem', { name: '设备管理' }).click();
  await page.getByRole('menuitem', { name: '设备分布' }).click();
  await expect(page).toHaveURL(/\/device\/distribution$/);

  const view = page.getByTestId('device-distribution');
  const map = view.getByTestId('device-map');
  await expect(map.locator('canvas').first()).toBeVisible();
  await expect(map).toHaveAttribute('data-points', String(all.length));
  await expect(countOf(view, 'total')).toHaveText(formatted(all.length));
  await expect(countOf(view, 'online')).toHaveText(formatted(online));

  // The online-state filter goes to the server; the counts follow.
  await chooseOption(page, view.getByRole('combobox', { name: '在线状态' }), /^在线$/);
  await expect(countOf(view, 'total')).toHaveText(formatted(online));
  await expect(countOf(view, 'offline')).toHaveText('0');

  // A place far from the fleet's middle: the view recentres on it.
  await expect.poll(async () => (await mapCentre(map)).longitude).toBeGreaterThan(0);
  const before = await mapCentre(map);
  expect(Math.abs(before.longitude - 120.434)).toBeGreaterThan(0.1);
  await view.getByRole('combobox', { name: '搜索地点' }).fill('萧山国际机场');
  await page.locator('.ant-select-item-option', { hasText: '萧山国际机场' }).click();
  await expect.poll(async () => Math.abs((await mapCentre(map)).longitude - 120.434)).toBeLessThan(0.005);
  expect(Math.abs((await mapCentre(map)).latitude - 30.236)).toBeLessThan(0.005);

  // One device alone sits in the middle of the map: a click opens its detail.
  await view.getByRole('button', { name: /重\s*置/ }).click();
  await expect(view.locator('.ant-select-selection-item', { hasText: '萧山国际机场' })).toHaveCount(0);
  const device = all[0].code;
  await view.getByLabel('设备关键字').fill(device);
  await view.getByLabel('设备关键字').press('Enter');
  await expect(map).toHaveAttribute('data-points', '1');
  await expect(countOf(view, 'total')).toHaveText('1');
  await clickPlotCentre(page, map, `设备编码：${device}`);
  await expect(page).toHaveURL(new RegExp(`/device/detail\\?code=${device}$`));

  expect(errors).toEqual([]);
});

test('the top bar opens the big screen in a new tab with the token, and it shows the KPI numbers', async ({ page, request }) => {
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  const overview = await callOperation<{ deviceTotal: number; onlineCount: number }>(request, 'dashboard.overview', {}, token);
  const points = (await callOperation<Point[]>(request, 'device.distribution.list', {}, token)).data;

  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  const link = page.getByRole('link', { name: '个人大屏' });
  await expect(link).toHaveAttribute('href', /^\/big-screen\?dlmToken=/);
  const [board] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  const boardErrors = watchErrors(board);

  // The session gate takes the token in, drops it from the address and initialises.
  await expect(board).toHaveURL(/\/big-screen$/);
  const screen = board.getByTestId('big-screen');
  await expect(screen.getByRole('heading', { level: 1 })).toContainText('杭州云联科技有限公司');
  await expect(screen.getByTestId('big-screen-clock')).toHaveText(/\d{2}:\d{2}:\d{2}/);
  if (overview.code === '200') {
    await expect(screen.getByTestId('kpi-deviceTotal')).toContainText(formatted(overview.data.deviceTotal));
    await expect(screen.getByTestId('kpi-onlineCount')).toContainText(formatted(overview.data.onlineCount));
  } else {
    // dashboard.overview not served yet ("501"): the board says so in place of the cards.
    expect(overview.code).toBe('501');
    await expect(screen.getByTestId('big-screen-kpis').getByTestId('panel-error')).toBeVisible();
  }
  await expect(screen.getByTestId('panel-distribution').getByTestId('device-map')).toHaveAttribute('data-points', String(points.length));
  await expect(screen.getByTestId('panel-distribution').locator('canvas').first()).toBeVisible();
  // Any panel in error may only be one whose operation is not served yet.
  for (const panel of await screen.getByTestId('panel-error').all()) await expect(panel).toContainText('该接口尚未实现');

  await screen.getByTestId('big-screen-exit').click();
  await expect(board).toHaveURL(/\/dashboard$/);
  expect(errors).toEqual([]);
  expect(boardErrors).toEqual([]);
});
