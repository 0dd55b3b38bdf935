import { expect, test, type Locator, type Page } from './fixtures';
import { activeTab, callOperation, chooseOption, loginThroughForm, resetPlatform, tokenFor, watchErrors } from './support';

// 消息通知 (issue 6) as the tenant admin, every view opened from the menu of 基础: 发送配置
// (configure a DingTalk robot, its secret masked after saving, a test send read back from the
// server's outbox), 消息维护 (publish a notification and find it in the top bar's bell) and
// 消息发送 (send a message, send a failed one again) — each with data, no error panel and no
// console error.

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

interface Paged<T> {
  records: T[];
  total: number;
}

interface OutboxEntry {
  channel: string;
  target: string;
  content: string;
}

/** Clicks through the sider of the 基础 group: the 消息通知 folder only when its entry is not yet shown. */
async function openFromMenu(page: Page, entry: string) {
  await page.getByRole('tab', { name: '基础' }).click();
  if (!(await page.getByRole('menuitem', { name: entry }).isVisible())) await page.getByRole('menuitem', { name: '消息通知' }).click();
  await page.getByRole('menuitem', { name: entry }).click();
}

function expectNoErrorPanel(page: Page) {
  return Promise.all([expect(page.getByTestId('schema-error')).toHaveCount(0), expect(activeTab(page).getByText(/数据加载失败|加载失败/)).toHaveCount(0)]);
}

/** A list with rows under its title. */
async function expectList(page: Page, title: string): Promise<Locator> {
  const list = activeTab(page).getByTestId('list-page').first();
  await expect(list).toContainText(title);
  await expect(list.locator('.ant-table-row').first()).toBeVisible();
  await expectNoErrorPanel(page);
  return list;
}

async function search(list: Locator, keyword: string) {
  await list.getByTestId('list-filters').first().getByLabel('关键字').fill(keyword);
  await list.getByRole('button', { name: /查\s*询/ }).first().click();
}

async function confirmPopover(page: Page) {
  await page.locator('.ant-popover:visible').getByRole('button', { name: /确\s*定/ }).click();
}

const WEBHOOK = 'https://oapi.dingtalk.com/robot/send?access_token=7c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d';
const SECRET = 'SEC0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f';

test('发送配置: a DingTalk robot is saved with its secret masked, and a test send lands in the outbox', async ({ page, request }) => {
  test.setTimeout(150_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);

  await openFromMenu(page, '发送配置');
  await expect(page).toHaveURL(/\/send\/config$/);
  const channels = await expectList(page, '发送配置');
  await expect(channels).toContainText('运维值班群机器人');

  await channels.getByRole('button', { name: '新增渠道' }).click();
  const drawer = page.locator('.ant-drawer-content');
  // 钉钉 is the default type: only the robot's fields are asked for.
  await expect(drawer.getByLabel('Webhook 地址')).toBeVisible();
  await expect(drawer.getByLabel('SMTP 服务器')).toHaveCount(0);
  await drawer.getByLabel('渠道名称').fill('泵站巡检群机器人');
  await drawer.getByLabel('Webhook 地址').fill(WEBHOOK);
  await drawer.getByLabel('加签密钥').fill(SECRET);
  await drawer.getByLabel('消息模板').fill('【${标题}】${内容}（${泵站名称}）');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();

  await search(channels, '泵站巡检群机器人');
  const row = channels.locator('.ant-table-row', { hasText: '泵站巡检群机器人' });
  await expect(row).toContainText('钉钉');
  await expect(row).toContainText('启用');
  const saved = await callOperation<Paged<{ code: string; secret: string; webhook: string }>>(request, 'notification.channel.page', { keyword: '泵站巡检群机器人' }, token);
  const channel = saved.data.records[0];
  expect(channel).toMatchObject({ secret: `****${SECRET.slice(-4)}`, webhook: WEBHOOK });
  expect(JSON.stringify(saved.data)).not.toContain(SECRET);

  // Editing shows the mask, never the secret; saving the mask back keeps the stored secret.
  await row.getByRole('button', { name: /编\s*辑/ }).click();
  await expect(drawer.getByLabel('加签密钥')).toHaveValue(`****${SECRET.slice(-4)}`);
  await expect(drawer.getByLabel('Webhook 地址')).toHaveValue(WEBHOOK);
  await expect(drawer.getByRole('combobox', { name: '渠道类型' })).toBeDisabled();
  await drawer.getByLabel('备注').fill('灵隐、龙井两座泵站的巡检群');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  // The creation's 设置成功！ may still be on screen: the edit is saved once its drawer has closed.
  await expect(drawer).toBeHidden();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  const edited = await callOperation<{ remark: string; secret: string }>(request, 'notification.channel.detail', { code: channel.code }, token);
  expect(edited.data).toMatchObject({ remark: '灵隐、龙井两座泵站的巡检群', secret: `****${SECRET.slice(-4)}` });

  // 测试发送: the template's own variable is filled in, the message goes to the outbox.
  await row.getByRole('button', { name: '测试发送' }).click();
  const modal = page.locator('.ant-modal-content');
  await expect(modal).toContainText('泵站巡检群机器人');
  await expect(modal.getByLabel('手机号')).toHaveCount(0);
  await modal.getByPlaceholder('测试值').fill('灵隐加压泵站');
  await modal.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '发送成功！' }).last()).toBeVisible();
  const outbox = await callOperation<OutboxEntry[]>(request, 'dev.outbox', {});
  expect(outbox.data[0]).toMatchObject({ channel: 'dingtalk', target: WEBHOOK });
  expect(outbox.data[0].content).toMatch(/^【测试消息】这是一条来自“泵站巡检群机器人”的测试消息.*（灵隐加压泵站）$/);
  expect(errors).toEqual([]);
});

test('消息维护: a published notification arrives in the top bar\'s bell', async ({ page, request }) => {
  test.setTimeout(150_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);

  await openFromMenu(page, '消息维护');
  await expect(page).toHaveURL(/\/message\/maintenance$/);
  const notices = await expectList(page, '消息维护');
  await expect(notices).toContainText('已发布');

  await notices.getByRole('button', { name: '新增消息' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByLabel('标题').fill('关于湖滨监测站设备巡检的通知');
  await drawer.getByLabel('正文').fill('<p>湖滨监测站本周五进行<strong>设备巡检</strong>，期间数据可能短暂中断。</p><script>window.__xss=1</script>');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '已保存为草稿' })).toBeVisible();

  await search(notices, '湖滨监测站设备巡检');
  const row = notices.locator('.ant-table-row', { hasText: '关于湖滨监测站设备巡检的通知' });
  await expect(row).toContainText('草稿');
  await expect(row).toContainText('全体用户');

  // The detail page shows the sanitised body, then 发布 there.
  await row.getByRole('button', { name: /查\s*看/ }).click();
  await expect(page).toHaveURL(/\/message\/maintenance\/detail\?code=XX\d+$/);
  const detail = activeTab(page).getByTestId('detail-page');
  await expect(detail).toContainText('消息详情');
  await expect(detail.locator('strong', { hasText: '设备巡检' })).toBeVisible();
  await expectNoErrorPanel(page);
  await detail.getByRole('button', { name: /发\s*布/ }).click();
  await confirmPopover(page);
  await expect(page.getByText('消息已发布')).toBeVisible();
  await expect(detail).toContainText('已发布');
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

  const published = await callOperation<Paged<{ title: string; state: string; recipientCount: number }>>(request, 'notification.maintenance.page', { keyword: '湖滨监测站设备巡检' }, token);
  expect(published.data.records[0]).toMatchObject({ state: 'published' });
  expect(published.data.records[0].recipientCount).toBeGreaterThan(5);

  // The bell: the newest daily-read item is the one just published.
  await page.getByTestId('notification-bell').click();
  const panel = page.getByTestId('notification-panel');
  await expect(panel.getByTestId('notification-item').first()).toContainText('关于湖滨监测站设备巡检的通知');
  expect(errors).toEqual([]);
});

test('消息发送: a message goes out through the SMS channel, and a failed one is sent again', async ({ page, request }) => {
  test.setTimeout(150_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);

  await openFromMenu(page, '消息发送');
  await expect(page).toHaveURL(/\/send$/);
  const sends = await expectList(page, '消息发送');
  await expect(sends).toContainText('发送失败');

  await sends.getByRole('button', { name: '发送消息' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await chooseOption(page, drawer.getByRole('combobox', { name: '发送渠道' }), '短信 · 阿里云短信');
  await drawer.getByLabel('标题').fill('湖滨监测站水压告警');
  await drawer.getByLabel('内容').fill('湖滨监测站出口压力 0.18MPa，低于下限，请尽快到场处理');
  await chooseOption(page, drawer.getByRole('combobox', { name: '接收用户' }), '王强（repair）');
  await drawer.getByRole('combobox', { name: '接收用户' }).press('Escape');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '发送成功！' }).last()).toBeVisible();

  await search(sends, '湖滨监测站水压告警');
  const sentRow = sends.locator('.ant-table-row', { hasText: '湖滨监测站水压告警' });
  await expect(sentRow).toContainText('王强');
  await expect(sentRow).toContainText('已发送');
  const outbox = await callOperation<OutboxEntry[]>(request, 'dev.outbox', { target: '13800000003' });
  expect(outbox.data[0]).toMatchObject({ channel: 'sms', content: '【云联物联网】王强您好，湖滨监测站水压告警：湖滨监测站出口压力 0.18MPa，低于下限，请尽快到场处理' });

  // A provider hiccup from the history: the recipient has an address, so sending again works.
  const failed = await callOperation<Paged<{ id: number; sendCode: string; recipientName: string; address: string; channelType: string }>>(
    request,
    'notification.send.page',
    { state: 'failed', channelType: 'sms' },
    token,
  );
  const retry = failed.data.records.find((record) => record.address !== '');
  expect(retry).toBeDefined();
  await search(sends, retry!.sendCode);
  const failedRow = sends.locator('.ant-table-row', { hasText: retry!.recipientName }).filter({ hasText: '发送失败' }).first();
  await failedRow.getByRole('button', { name: '重新发送' }).click();
  await confirmPopover(page);
  await expect(page.getByText('发送成功！').first()).toBeVisible();
  const after = await callOperation<Paged<{ id: number; state: string; attempts: number }>>(request, 'notification.send.page', { sendCode: retry!.sendCode }, token);
  expect(after.data.records.find((record) => record.id === retry!.id)).toMatchObject({ state: 'sent' });
  expect(errors).toEqual([]);
});
