import { expect, test } from './fixtures';
import { activeTab, callOperation, loginThroughForm, resetPlatform, tokenFor, visit, watchErrors } from './support';

// The live console, continued (issue 22): 设备详情's 数据趋势 draws each metric over the range
// picked and moves when its device reports, and 告警记录 marks 新 the alarm that arrived while it
// was open, both without a reload. The device reports over HTTP with the key staff issued it, past
// a rule's threshold, as the simulator's devices do.

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

interface Paged<T> {
  records: T[];
}

test('a device reports: 数据趋势 moves and 告警记录 marks the new alarm 新, without a reload', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  const rule = await callOperation(request, 'alarm.config.insert', { rule: { name: '浊度趋势告警', alarmType: 'threshold', level: 2, metric: 'turbidity', operator: 'gt', threshold: 50, notifyChannels: [] } }, token);
  expect(rule.code, rule.message).toBe('200');
  const devices = await callOperation<Paged<{ code: string; name: string }>>(request, 'device.page', {}, token);
  const device = devices.data.records[0];
  const credential = await callOperation<{ secret: string }>(request, 'device.credential.reset', { code: device.code }, token);
  expect(credential.code).toBe('200');

  let seriesCalls = 0;
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname === '/api/device/telemetry/_series') seriesCalls += 1;
  });
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  // 告警记录 first, left open in its tab: none of its rows is new.
  await visit(page, '/alarm/record');
  const list = activeTab(page).getByTestId('list-page').first();
  await expect(list.locator('.ant-table-row').first()).toBeVisible();
  await expect(list.getByTestId('live-mark')).toHaveCount(0);

  await visit(page, `/device/detail?code=${device.code}`);
  const detail = activeTab(page);
  const section = detail.getByTestId('series-section');
  await expect(section.getByRole('radiogroup', { name: '时间范围' }).or(section.getByLabel('时间范围')).first()).toBeVisible();
  await expect(section.getByText('近1小时')).toBeVisible();
  // The seeded hourly readings of the last hour are drawn (or the range is empty): loaded, either way.
  await expect(section.getByTestId('series-chart').first().or(section.getByText('所选时间范围内暂无数据'))).toBeVisible();
  const turbidity = section.locator('[data-testid="series-chart"][data-metric="turbidity"]');
  await expect(section.getByText(/最新 88\.5 NTU/)).toHaveCount(0);
  const loadsBefore = seriesCalls;
  // Anything kept in the window is still there afterwards only if the page was not loaded again.
  await page.evaluate(() => {
    (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage = true;
  });

  const reported = await request.post('/api/device/telemetry/_report', {
    headers: { 'x-device-code': device.code, 'x-device-secret': credential.data.secret },
    data: { metrics: { turbidity: 88.5 } },
  });
  expect(reported.status()).toBe(200);
  const answer = (await reported.json()) as { data: { alarms: Array<{ change: string; alarmCode: string }> } };
  const raised = answer.data.alarms.find((alarm) => alarm.change === 'raised');
  expect(raised).toBeDefined();

  // The alarm's event on the live stream loads the chart again: the reading is its newest, titled with the metric's name and unit.
  await expect(turbidity.getByTestId('series-latest')).toHaveText(/最新 88\.5 NTU/, { timeout: 10_000 });
  await expect(turbidity).toContainText('浊度（NTU）');
  await expect(turbidity.getByRole('img')).toHaveAccessibleName(/^浊度（NTU）趋势图：\d+ 个数据点，最新 88\.5 NTU/);
  expect(seriesCalls).toBeGreaterThan(loadsBefore);

  // Another range is asked for with its own span.
  await section.getByText('近24小时').click();
  await expect(turbidity.getByTestId('series-latest')).toHaveText(/最新 88\.5 NTU/);

  // Back on 告警记录: the alarm raised meanwhile is there and marked 新, in words; the others are not.
  await visit(page, '/alarm/record');
  const row = list.locator('.ant-table-row', { hasText: raised!.alarmCode });
  await expect(row).toBeVisible({ timeout: 10_000 });
  await expect(row.getByTestId('live-mark')).toHaveText('新');
  await expect(row).toHaveAttribute('data-live-new', 'true');
  await expect(list.getByTestId('live-mark')).toHaveCount(1);
  await expect(list.locator('.ant-table-row[data-live-new]')).toHaveCount(1);
  expect(await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
  expect(errors).toEqual([]);
});
