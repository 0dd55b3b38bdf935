import { expect, test } from './fixtures';
import { loginThroughForm, resetPlatform, watchErrors } from './support';

// Issue 21, finding 8: the big screen fits a 1440×900 window, and its latest alarms are not cut.
test.use({ viewport: { width: 1440, height: 900 } });

/** Where a screenshot is kept: the test's output folder, or DENSE_SHOTS when set. */
const shot = (name: string) => (process.env.DENSE_SHOTS ? `${process.env.DENSE_SHOTS}/${name}` : test.info().outputPath(name));

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

test('个人大屏 at 1440×900: no scrollbars, 最新告警 whole', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/big-screen');
  const board = page.getByTestId('big-screen');
  await expect(board.getByTestId('kpi-deviceTotal')).toBeVisible({ timeout: 20_000 });
  for (const panel of ['panel-online-rate', 'panel-device-trend', 'panel-alarm-trend', 'panel-distribution']) {
    await expect(board.getByTestId(panel).locator('canvas').first()).toBeVisible({ timeout: 20_000 });
  }
  const alarms = board.getByTestId('panel-latest-alarms');
  await expect(alarms.locator('tbody tr').first()).toBeVisible();

  const overflow = await page.evaluate(() => ({
    x: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    y: document.documentElement.scrollHeight - document.documentElement.clientHeight,
  }));
  const heights = await board.locator('section').evaluateAll((sections) => sections.map((node) => `${node.getAttribute('aria-label') ?? ''} ${Math.round(node.getBoundingClientRect().height)}`));
  expect(overflow, heights.join(', ')).toEqual({ x: 0, y: 0 });

  // 最新告警 inside its panel; its headings, times, levels and states whole (a long device name or
  // alarm title may end in an ellipsis, whole in its tooltip).
  const cut = await alarms.evaluate((panel) => {
    const found: string[] = [];
    const box = panel.getBoundingClientRect();
    for (const cell of Array.from(panel.querySelectorAll('th, td'))) {
      const rect = cell.getBoundingClientRect();
      if (rect.right > box.right + 1) found.push(`outside: ${cell.textContent ?? ''}`);
    }
    for (const cell of Array.from(panel.querySelectorAll('th, td:nth-child(1), td:nth-child(3), td:nth-child(5)'))) {
      if (cell.scrollWidth > cell.clientWidth + 1) found.push(`cut: ${cell.textContent ?? ''}`);
    }
    return found;
  });
  expect(cut).toEqual([]);
  expect(errors).toEqual([]);
});

test('告警看板 at 1440 px: its charts draw, kept as a screenshot for the eye (pie and gauge labels inside their cards)', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/dashboards/alarm');
  const dashboard = page.getByTestId('dashboard-page');
  await expect(dashboard.locator('[data-widget-type="pie"] canvas').first()).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: shot('alarm-dashboard-1440.png'), fullPage: true });
  await page.goto('/big-screen');
  await expect(page.getByTestId('panel-distribution').locator('canvas').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('panel-latest-alarms').locator('tbody tr').first()).toBeVisible();
  await page.screenshot({ path: shot('big-screen-1440.png') });
  expect(errors).toEqual([]);
});
