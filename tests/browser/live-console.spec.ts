import { expect, test } from './fixtures';
import { activeTab, callOperation, loginThroughForm, resetPlatform, tokenFor, visit, watchErrors } from './support';

// The live platform in the console (issue 22): a device reports a reading past an alarm rule's
// threshold and, without a reload, 告警记录 shows the new alarm, the bell's count rises and the
// outbox holds the rule's channel message (the seeded DingTalk robot 运维值班群机器人).

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

interface Paged<T> {
  records: T[];
}

test('a device crosses a rule’s threshold: 告警记录 and the bell follow without a reload, and the robot is told', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  const rule = await callOperation(
    request,
    'alarm.config.insert',
    { rule: { name: '浊度实时告警', alarmType: 'threshold', level: 1, metric: 'turbidity', operator: 'gt', threshold: 50, notifyChannels: ['dingtalk'] } },
    token,
  );
  expect(rule.code).toBe('200');
  const devices = await callOperation<Paged<{ code: string; name: string }>>(request, 'device.page', {}, token);
  const device = devices.data.records[0];
  const credential = await callOperation<{ secret: string }>(request, 'device.credential.reset', { code: device.code }, token);
  // Every message read first, so that the bell shows the alarm's alone.
  for (const tabType of [1, 2]) expect((await callOperation(request, 'notification.tab.readAll', { tabType }, token)).code).toBe('200');

  // The console's live stream is what carries the change (not a reload or a timer).
  let streams = 0;
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname === '/api/live/events') streams += 1;
  });
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, '/alarm/record');
  const list = activeTab(page).getByTestId('list-page').first();
  await expect(list.locator('.ant-table-row').first()).toBeVisible();
  const bell = page.getByTestId('notification-bell');
  await expect(page.locator('.ant-badge', { has: bell }).locator('.ant-badge-count')).toHaveCount(0);

  await expect.poll(() => streams).toBeGreaterThan(0);
  const reported = await request.post('/api/device/telemetry/_report', {
    headers: { 'x-device-code': device.code, 'x-device-secret': credential.data.secret },
    data: { metrics: { turbidity: 88.5 } },
  });
  expect(reported.status()).toBe(200);
  const answer = (await reported.json()) as { data: { alarms: Array<{ change: string; alarmCode: string }> } };
  const raised = answer.data.alarms.find((alarm) => alarm.change === 'raised');
  expect(raised).toBeDefined();

  // No reload, no click: the list and the badge follow the stream.
  const row = list.locator('.ant-table-row', { hasText: raised!.alarmCode });
  await expect(row).toBeVisible({ timeout: 10_000 });
  await expect(row).toContainText(`浊度实时告警：${device.name}`);
  await expect(row).toContainText('待处理');
  await expect(page.locator('.ant-badge', { has: bell }).locator('.ant-badge-count')).toHaveText('1', { timeout: 10_000 });

  const outbox = await callOperation<Array<{ channel: string; target: string; content: string }>>(request, 'dev.outbox', {});
  expect(outbox.data.find((message) => message.channel === 'dingtalk' && message.content.includes(`浊度实时告警：${device.name}`))).toBeDefined();
  expect(errors).toEqual([]);
});

test('设备详情 issues a device its access key: asked first, shown once with the device code, and the device reports with it', async ({ page, request }) => {
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  const devices = await callOperation<Paged<{ code: string; name: string }>>(request, 'device.page', {}, token);
  const device = devices.data.records[0];
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, `/device/detail?code=${device.code}`);
  const detail = activeTab(page);
  await expect(detail.getByText('接入凭证')).toBeVisible();
  await detail.getByRole('button', { name: '重置接入密钥' }).click();
  // Nothing is reset before it is confirmed.
  await expect(page.getByText('重置后旧密钥立即失效，设备须用新密钥重新接入。确定重置？')).toBeVisible();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  const shown = page.getByTestId('shown-result');
  await expect(shown).toBeVisible();
  await expect(shown).toContainText('密钥只显示这一次');
  await expect(shown).toContainText(device.code);
  const secret = (await shown.locator('.ant-typography').allInnerTexts()).map((text) => text.trim()).find((text) => /^[A-Za-z0-9_-]{20,}$/.test(text));
  expect(secret, 'the secret is shown').toBeDefined();
  await page.getByRole('button', { name: '知道了' }).click();
  await expect(shown).toBeHidden();
  // The section follows the reset: a key is issued now.
  const issued = detail.locator('th', { hasText: '已签发密钥' }).locator('xpath=following-sibling::td[1]');
  await expect(issued).toHaveText('是');
  await expect(detail.locator('th', { hasText: '签发时间' }).locator('xpath=following-sibling::td[1]')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

  const reported = await request.post('/api/device/telemetry/_report', {
    headers: { 'x-device-code': device.code, 'x-device-secret': secret! },
    data: { metrics: { turbidity: 1.5 } },
  });
  expect(reported.status()).toBe(200);
  expect(errors).toEqual([]);
});
