import { expect, test, type Locator, type Page } from './fixtures';
import { callOperation, chooseOption, loginThroughForm, resetPlatform, tokenFor, watchErrors } from './support';

// The work side (issue 6) — 维修管理, 巡检管理 and 现场作业 — opened from the menu as the tenant
// admin and as each implementer role: every view and detail page shows data with neither an
// error panel nor a console error, implementers see only their own work, and each role takes one
// real step of a work order through the console.

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

interface Paged<T> {
  records: T[];
  total: number;
}

/** The page of the active tab (inactive tabs are hidden or unmounted). */
const activeTab = (page: Page): Locator => page.locator('[data-tab]:not([hidden])');

/** Clicks through the sider of the 项目 group: a submenu only when its entry is not yet shown. */
async function openFromMenu(page: Page, ...path: string[]) {
  await page.getByRole('tab', { name: '项目' }).click();
  for (const [index, entry] of path.entries()) {
    const next = path[index + 1];
    if (next && (await page.getByRole('menuitem', { name: next }).first().isVisible())) continue;
    await page.getByRole('menuitem', { name: entry }).first().click();
  }
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

async function expectDetail(page: Page, title: string, text: string): Promise<Locator> {
  const detail = activeTab(page).getByTestId('detail-page');
  await expect(detail).toContainText(title);
  await expect(detail).toContainText(text);
  await expectNoErrorPanel(page);
  return detail;
}

async function search(list: Locator, keyword: string) {
  await list.getByTestId('list-filters').first().getByLabel('关键字').fill(keyword);
  await list.getByRole('button', { name: /查\s*询/ }).first().click();
}

/** Opens a row's 详情 and checks the detail page it leads to. */
async function openDetail(page: Page, list: Locator, code: string, url: RegExp, title: string): Promise<Locator> {
  await search(list, code);
  await list.locator('.ant-table-row', { hasText: code }).getByRole('button', { name: /详\s*情|查\s*看/ }).click();
  await expect(page).toHaveURL(url);
  return expectDetail(page, title, code);
}

test('the tenant admin opens every work view and detail page from the menu and closes an order', async ({ page, request }) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);

  // 维修工单 → an audited order's detail with its history, then 关闭 through the modal.
  await openFromMenu(page, '维修管理', '维修工单');
  await expect(page).toHaveURL(/\/repair$/);
  const orders = await expectList(page, '维修工单');
  await expect(orders.getByRole('button', { name: '新建工单' })).toBeVisible();
  const audited = await callOperation<Paged<{ code: string }>>(request, 'repair.order.page', { state: 'audited' }, token);
  const orderCode = audited.data.records[0].code;
  const orderDetail = await openDetail(page, orders, orderCode, new RegExp(`/repair/detail\\?code=${orderCode}$`), '维修工单详情');
  await expect(orderDetail).toContainText('流转记录');
  await expect(orderDetail).toContainText('审核通过');
  await orderDetail.getByRole('button', { name: /关\s*闭/ }).click();
  const modal = page.locator('.ant-modal-content');
  await modal.getByLabel('关闭原因').fill('已电话回访，用户确认恢复');
  await modal.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('工单已关闭')).toBeVisible();
  await expect(orderDetail.locator('.ant-descriptions').first()).toContainText('已关闭');
  const closed = await callOperation<{ state: string }>(request, 'repair.order.detail', { code: orderCode }, token);
  expect(closed.data.state).toBe('closed');

  // 故障上报 → a report's detail.
  await openFromMenu(page, '维修管理', '故障上报');
  const reports = await expectList(page, '故障上报');
  const converted = await callOperation<Paged<{ code: string }>>(request, 'repair.report.page', { state: 'converted' }, token);
  const reportDetail = await openDetail(page, reports, converted.data.records[0].code, /\/report\/detail\?code=GZ/, '故障上报详情');
  await expect(reportDetail).toContainText('已转工单');

  // 批量维修 → 批次详情 with the batch's own device list.
  await openFromMenu(page, '维修管理', '批量维修');
  const batches = await expectList(page, '批量维修');
  const batch = await callOperation<Paged<{ code: string }>>(request, 'repair.batch.page', {}, token);
  const batchDetail = await openDetail(page, batches, batch.data.records[0].code, /\/batch\/see\?code=PL/, '批次详情');
  await expect(batchDetail.getByTestId('list-page').locator('.ant-table-row').first()).toBeVisible();

  // 维修汇总.
  await openFromMenu(page, '维修管理', '维修汇总');
  const summary = await expectList(page, '维修汇总');
  await expect(summary).toContainText('西湖智慧水务项目');

  // 巡检任务 → a task's detail; 巡检看板 with its charts.
  await openFromMenu(page, '巡检管理', '巡检任务');
  const tasks = await expectList(page, '巡检任务');
  const done = await callOperation<Paged<{ code: string }>>(request, 'patrol.task.page', { state: 'completed' }, token);
  const taskDetail = await openDetail(page, tasks, done.data.records[0].code, /\/patrol\/detail\?code=XJ/, '巡检任务详情');
  await expect(taskDetail).toContainText('巡检设备');
  await expect(taskDetail.getByTestId('list-page').locator('.ant-table-row').first()).toBeVisible();
  await openFromMenu(page, '巡检管理', '巡检看板');
  const board = activeTab(page).getByTestId('dashboard-page');
  await expect(board).toContainText('巡检看板');
  await expect(board.locator('[data-widget-type="line"] canvas')).toBeVisible();
  await expect(board.locator('[data-widget-type="table"] .ant-table-row').first()).toBeVisible();
  await expectNoErrorPanel(page);

  // 现场作业: 施工管理, 工程勘察, 维保管理 and a detail of each.
  for (const [entry, title, operation, url, detailTitle] of [
    ['施工管理', '施工管理', 'construction.page', /\/construction\/detail\?code=SG/, '施工详情'],
    ['工程勘察', '工程勘察', 'exploration.page', /\/exploration\/detail\?code=KC/, '勘察详情'],
    ['维保管理', '维保管理', 'maintenance.page', /\/maintenance\/detail\?code=WB/, '维保详情'],
  ] as const) {
    await openFromMenu(page, '现场作业', entry);
    const list = await expectList(page, title);
    const first = await callOperation<Paged<{ code: string }>>(request, operation, { state: 'completed' }, token);
    const detail = await openDetail(page, list, first.data.records[0].code, url, detailTitle);
    await expect(detail).toContainText('流转记录');
  }
  expect(errors).toEqual([]);
});

test('an implementer sees only his own work in every view and accepts an order', async ({ page, request }) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'implement');
  await loginThroughForm(page, 'implement');
  await expect(page).toHaveURL(/\/dashboard$/);

  await openFromMenu(page, '维修管理', '维修工单');
  const orders = await expectList(page, '维修工单');
  await expect(orders.getByRole('button', { name: '新建工单' })).toHaveCount(0);
  const rows = orders.locator('.ant-table-row');
  for (let index = 0; index < Math.min(5, await rows.count()); index += 1) await expect(rows.nth(index)).toContainText('孙浩');

  // 接单 on an order assigned to him.
  const assigned = await callOperation<Paged<{ code: string }>>(request, 'repair.order.page', { state: 'assigned' }, token);
  const code = assigned.data.records[0].code;
  await search(orders, code);
  const row = orders.locator('.ant-table-row', { hasText: code });
  await expect(row).toContainText('已派单');
  await row.getByRole('button', { name: /接\s*单/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '已接单' })).toBeVisible();
  await expect(row).toContainText('已接单');
  await expect(row.getByRole('button', { name: '开始处理' })).toBeVisible();
  const detail = await openDetail(page, orders, code, new RegExp(`/repair/detail\\?code=${code}$`), '维修工单详情');
  await expect(detail.getByRole('button', { name: '开始处理' })).toBeVisible();

  await openFromMenu(page, '维修管理', '批量维修');
  const batches = await expectList(page, '批量维修');
  const batch = await callOperation<Paged<{ code: string }>>(request, 'repair.batch.page', {}, token);
  const batchDetail = await openDetail(page, batches, batch.data.records[0].code, /\/batch\/see\?code=PL/, '批次详情');
  await expect(batchDetail.getByTestId('list-page').locator('.ant-table-row').first()).toContainText('孙浩');

  for (const [entry, operation, url, detailTitle] of [
    ['施工管理', 'construction.page', /\/construction\/detail\?code=SG/, '施工详情'],
    ['工程勘察', 'exploration.page', /\/exploration\/detail\?code=KC/, '勘察详情'],
    ['维保管理', 'maintenance.page', /\/maintenance\/detail\?code=WB/, '维保详情'],
  ] as const) {
    await openFromMenu(page, '现场作业', entry);
    const list = await expectList(page, entry);
    const mine = await callOperation<Paged<{ code: string; assigneeName: string }>>(request, operation, {}, token);
    expect(mine.data.records.every((record) => record.assigneeName === '孙浩')).toBe(true);
    await openDetail(page, list, mine.data.records[0].code, url, detailTitle);
  }
  expect(errors).toEqual([]);
});

test('a patroller sees his own tasks, their detail and the board, and reports a fault', async ({ page, request }) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'patrol');
  await loginThroughForm(page, 'patrol');
  await expect(page).toHaveURL(/\/dashboard$/);

  await openFromMenu(page, '巡检管理', '巡检任务');
  const tasks = await expectList(page, '巡检任务');
  await expect(tasks.getByRole('button', { name: '新增任务' })).toHaveCount(0);
  const rows = tasks.locator('.ant-table-row');
  for (let index = 0; index < Math.min(5, await rows.count()); index += 1) await expect(rows.nth(index)).toContainText('赵磊');
  const started = await callOperation<Paged<{ code: string }>>(request, 'patrol.task.page', { state: 'in_progress' }, token);
  const code = started.data.records[0].code;
  await search(tasks, code);
  await expect(tasks.locator('.ant-table-row', { hasText: code }).getByRole('button', { name: '执行巡检' })).toBeVisible();
  const detail = await openDetail(page, tasks, code, new RegExp(`/patrol/detail\\?code=${code}$`), '巡检任务详情');
  await expect(detail.getByRole('button', { name: '执行巡检' })).toBeVisible();
  await expect(detail.getByTestId('list-page').locator('.ant-table-row').first()).toContainText('赵磊');

  await openFromMenu(page, '巡检管理', '巡检看板');
  const board = activeTab(page).getByTestId('dashboard-page');
  await expect(board.locator('[data-widget-type="bar"] canvas')).toBeVisible();
  await expectNoErrorPanel(page);

  // 故障上报: his own reports, and a new one through the drawer.
  await openFromMenu(page, '维修管理', '故障上报');
  const reports = await expectList(page, '故障上报');
  await expect(reports.locator('.ant-table-row').first()).toContainText('赵磊');
  const device = (await callOperation<{ devices: Array<{ deviceCode: string }> }>(request, 'patrol.task.detail', { code }, token)).data.devices[0].deviceCode;
  await reports.getByRole('button', { name: '上报故障' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByLabel('设备编码').fill(device);
  await chooseOption(page, drawer.getByRole('combobox', { name: '故障类型' }), '漏水渗水');
  await drawer.getByLabel('故障描述').fill('表井积水，接口渗漏');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('上报成功')).toBeVisible();
  await expect(drawer).toBeHidden();
  await expect(reports.locator('.ant-table-row').first()).toContainText(device);
  await expect(reports.locator('.ant-table-row').first()).toContainText('待处理');
  expect(errors).toEqual([]);
});

test('a patroller executes a task through the drawer and the list shows it completed', async ({ page, request }) => {
  const token = await tokenFor(request, 'patrol');
  await loginThroughForm(page, 'patrol');
  await expect(page).toHaveURL(/\/dashboard$/);
  await openFromMenu(page, '巡检管理', '巡检任务');
  const tasks = await expectList(page, '巡检任务');
  const started = await callOperation<Paged<{ code: string; deviceCount: number; checkedCount: number }>>(request, 'patrol.task.page', { state: 'in_progress' }, token);
  const task = started.data.records[0];
  await search(tasks, task.code);
  const row = tasks.locator('.ant-table-row', { hasText: task.code });
  await row.getByRole('button', { name: '执行巡检' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.locator('[data-array-row]')).toHaveCount(task.deviceCount - task.checkedCount);
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('巡检结果已提交')).toBeVisible();
  await expect(drawer).toBeHidden();
  await expect(row).toContainText('已完成');
});

test('repair staff see their orders, the summary and their maintenance, and complete a maintenance order', async ({ page, request }) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'repair');
  await loginThroughForm(page, 'repair');
  await expect(page).toHaveURL(/\/dashboard$/);

  await openFromMenu(page, '维修管理', '维修工单');
  const orders = await expectList(page, '维修工单');
  await expect(orders.locator('.ant-table-row').first()).toContainText('王强');
  await openFromMenu(page, '维修管理', '维修汇总');
  await expectList(page, '维修汇总');
  await openFromMenu(page, '维修管理', '故障上报');
  await expectList(page, '故障上报');

  await openFromMenu(page, '现场作业', '维保管理');
  const maintenance = await expectList(page, '维保管理');
  const open = await callOperation<Paged<{ code: string; formTemplateId: number | null }>>(request, 'maintenance.page', { state: 'assigned' }, token);
  // One without an operations form (completing one with its form: tests/browser/work-forms.spec.ts).
  const code = open.data.records.find((record) => record.formTemplateId === null)!.code;
  await search(maintenance, code);
  const row = maintenance.locator('.ant-table-row', { hasText: code });
  await row.getByRole('button', { name: '完成维保' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByLabel('维保结果').fill('清洗探头并校准，读数稳定');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('维保已完成')).toBeVisible();
  await expect(row).toContainText('已完成');
  const completed = await callOperation<{ state: string; result: string }>(request, 'maintenance.detail', { code }, token);
  expect(completed.data).toMatchObject({ state: 'completed', result: '清洗探头并校准，读数稳定' });
  expect(errors).toEqual([]);
});
