import { expect, test } from './fixtures';
import { callOperation, chooseOption, loginThroughForm, resetPlatform, tokenFor, visit, watchErrors } from './support';

// Commands reach devices (issue 31): 下发指令 on 设备详情 queues a command (待下发); a test device
// takes it with its next report over HTTP and answers it; without a reload the record shows 已确认,
// told by the live stream (command.updated).

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

interface Paged<T> {
  records: T[];
}

interface WireCommand {
  id: number;
  type: string;
  text: string;
}

test('下发指令 on 设备详情: the device answers, and the record shows 已确认 without a reload', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  const devices = await callOperation<Paged<{ code: string }>>(request, 'device.page', { onlineState: 'online' }, token);
  const { code } = devices.data.records[0];
  const credential = await callOperation<{ secret: string }>(request, 'device.credential.reset', { code }, token);
  const device = { 'x-device-code': code, 'x-device-secret': credential.data.secret };

  let loads = 0;
  page.on('request', (sent) => {
    if (sent.resourceType() === 'document') loads += 1;
  });
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, `/device/detail?code=${code}`);
  const detail = page.locator('[data-testid="detail-page"][data-view="device/detail"]');
  await expect(detail.getByText(code).first()).toBeVisible();
  const loadsBefore = loads;

  await detail.getByRole('button', { name: '下发指令' }).click();
  const modal = page.locator('.ant-modal-content');
  await chooseOption(page, modal.getByRole('combobox', { name: '指令' }), '重启');
  await modal.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('指令已生成')).toBeVisible();
  const record = detail.locator('.ant-table-row', { hasText: 'REBOOT' }).first();
  await expect(record).toContainText('待下发');

  // The device reports: the answer carries the command; it answers it.
  const reported = await request.post('/api/device/telemetry/_report', { headers: device, data: { batteryLevel: 80 } });
  expect(reported.status()).toBe(200);
  const { commands } = ((await reported.json()) as { data: { commands: WireCommand[] } }).data;
  const command = commands.find((taken) => taken.type === 'reboot');
  expect(command).toBeDefined();
  const replied = await request.post('/api/device/commands/_reply', { headers: device, data: { id: command!.id, result: 'ok', message: '设备即将重启' } });
  expect(replied.status()).toBe(200);

  // No reload, no click: the record follows the live stream.
  await expect(detail.locator('.ant-table-row', { hasText: command!.text })).toContainText('已确认');
  expect(loads).toBe(loadsBefore);
  expect(errors).toEqual([]);
});
