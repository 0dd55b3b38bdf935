import { expect, test, type Page } from './fixtures';
import { activeTab, loginThroughForm, resetPlatform, visit, watchErrors } from './support';

// Issue 34, "Colours carry no meaning": a state is coloured by what it means, from its dictionary
// item (schemas/dictionaries.json), the same on every page and the big screen, and never by colour
// alone (its label is in the tag). antd draws the meanings as ant-tag-success / -error / …
test.use({ viewport: { width: 1440, height: 900 } });

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

/** The meaning class of a tag (success, processing, warning, error, default), or what it has instead. */
async function meaningOf(page: Page, tag: ReturnType<Page['locator']>): Promise<string> {
  const classes = (await tag.getAttribute('class')) ?? '';
  return /ant-tag-(success|processing|warning|error|default)\b/.exec(classes)?.[1] ?? classes;
}

/** A chart's series colours as its container says them (`紧急:#ff4d4f,…`), by series name. */
async function seriesColours(container: ReturnType<Page['locator']>): Promise<Record<string, string>> {
  const text = (await container.getAttribute('data-series-colours')) ?? '';
  return Object.fromEntries(text.split(',').filter(Boolean).map((pair) => pair.split(':') as [string, string]));
}

test('告警记录: 待处理 and 已恢复 are told apart by what they mean, each with its label', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  const tagIn = async (state: string, label: string) => {
    await visit(page, `/alarm/record#state=${state}`);
    const tag = activeTab(page).locator('.ant-table-tbody .ant-tag', { hasText: label }).first();
    await expect(tag).toBeVisible({ timeout: 20_000 });
    return meaningOf(page, tag);
  };
  const pending = await tagIn('pending', '待处理');
  const recovered = await tagIn('recovered', '已恢复');
  expect(pending).toBe('error');
  expect(recovered).toBe('success');
  expect(errors).toEqual([]);
});

test('紧急 is one colour on 告警看板 and on the big screen', async ({ page }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);

  // 告警看板's daily trend: its series stand for the alarm_level items.
  await visit(page, '/dashboards/alarm');
  const trend = activeTab(page).getByTestId('dashboard-widget').filter({ hasText: '每日告警趋势' }).locator('[data-series-colours]');
  await expect(trend.locator('canvas').first()).toBeVisible({ timeout: 20_000 });
  const board = await seriesColours(trend);

  // The big screen: its alarm trend and the level tags of its latest alarms.
  await page.goto('/big-screen');
  const screen = page.getByTestId('big-screen');
  const screenTrend = screen.getByTestId('panel-alarm-trend').locator('[data-series-colours]');
  await expect(screenTrend.locator('canvas').first()).toBeVisible({ timeout: 20_000 });
  const big = await seriesColours(screenTrend);

  expect(board['紧急']).toBeTruthy();
  expect(big['紧急']).toBe(board['紧急']);
  for (const level of ['重要', '次要', '提示']) expect(big[level], level).toBe(board[level]);
  // 紧急 and 提示 are not one colour (a level is not told by a hash of its name).
  expect(board['紧急']).not.toBe(board['提示']);

  // The big screen's level tags mean what the alarm_level items say, as 紧急 does in every list
  // (告警配置's level column).
  const latest = screen.getByTestId('panel-latest-alarms');
  await expect(latest.locator('tbody tr').first()).toBeVisible();
  const LEVEL_MEANINGS: Record<string, string> = { 紧急: 'error', 重要: 'warning', 次要: 'processing', 提示: 'default' };
  const levelTags = latest.locator('tbody tr td:nth-child(3) .ant-tag');
  expect(await levelTags.count()).toBeGreaterThan(0);
  for (const tag of await levelTags.all()) {
    const text = (await tag.textContent())?.trim() ?? '';
    expect(await meaningOf(page, tag), text).toBe(LEVEL_MEANINGS[text]);
  }
  await visit(page, '/alarm/config');
  const configTag = activeTab(page).locator('.ant-table-tbody .ant-tag', { hasText: '紧急' }).first();
  await expect(configTag).toBeVisible({ timeout: 20_000 });
  expect(await meaningOf(page, configTag)).toBe(LEVEL_MEANINGS['紧急']);
  expect(errors).toEqual([]);
});
