import { expect, test, type Locator, type Page } from './fixtures';
import { activeTab, callOperation, loginThroughForm, resetPlatform, tokenFor, watchErrors } from './support';

// The office and catalogue areas of the work side (issue 6) — 项目区域, 我的办公, 品牌专区, 模板管理,
// 物料管理 and 租户配置 — opened from the menu as the tenant admin, the implementer roles and
// (for 租户配置, a platform menu) the platform admin: every view shows data with neither an error
// panel nor a console error, and each list takes one real action through the server.

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

interface Paged<T> {
  records: T[];
  total: number;
}

/** Button text as antd renders it (a space between two CJK characters). */
const label = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`);

/** A sider entry by its whole name (its icon may lead the accessible name: 巡检, not 巡检管理). */
const menuItem = (page: Page, name: string) => page.getByRole('menuitem', { name: new RegExp(`(^|\\s)${name}$`) });

/** Clicks through the sider of a menu group: a submenu only when its entry is not yet shown. */
async function openFromMenu(page: Page, group: string, ...path: string[]) {
  await page.getByRole('tab', { name: group, exact: true }).click();
  for (const [index, entry] of path.entries()) {
    const next = path[index + 1];
    if (next && (await menuItem(page, next).first().isVisible())) continue;
    await menuItem(page, entry).first().click();
  }
}

function expectNoErrorPanel(page: Page) {
  return Promise.all([expect(page.getByTestId('schema-error')).toHaveCount(0), expect(activeTab(page).getByText(/数据加载失败|加载失败/)).toHaveCount(0)]);
}

/** The list of the active tab, with rows under its title. */
async function expectList(page: Page, title: string): Promise<Locator> {
  const list = activeTab(page).getByTestId('list-page').first();
  await expect(list).toContainText(title);
  await expect(list.locator('.ant-table-row').first()).toBeVisible();
  await expectNoErrorPanel(page);
  return list;
}

async function search(list: Locator, keyword: string) {
  await list.getByTestId('list-filters').first().getByLabel('关键字').fill(keyword);
  await list.getByRole('button', { name: label('查询') }).first().click();
}

/** The success message antd shows at the top (a row may carry the same words). */
const toast = (page: Page, text: string) => page.locator('.ant-message-notice').getByText(text).last();

async function confirm(page: Page) {
  await page.locator('.ant-popconfirm').getByRole('button', { name: label('确定') }).click();
}

test('the tenant admin opens every office and catalogue view and acts on each list', async ({ page, request }) => {
  test.setTimeout(300_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);

  // 项目区域: edit an area's manager through the drawer.
  await openFromMenu(page, '项目', '项目区域');
  await expect(page).toHaveURL(/\/project\/area$/);
  const areas = await expectList(page, '项目区域');
  await expect(areas.getByRole('button', { name: '新增区域' })).toBeVisible();
  await search(areas, '灵隐加压泵站');
  const area = areas.locator('.ant-table-row', { hasText: 'T0001P01A0101' });
  await expect(area).toContainText('西湖智慧水务项目');
  await area.getByRole('button', { name: label('编辑') }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.getByLabel('区域名称')).toHaveValue('灵隐加压泵站');
  await drawer.getByLabel('负责人').fill('沈立新');
  await drawer.getByRole('button', { name: label('提交') }).click();
  await expect(toast(page, '设置成功！')).toBeVisible();
  await expect(drawer).toBeHidden();
  await expect(area).toContainText('沈立新');
  expect((await callOperation<{ managerName: string }>(request, 'project.area.detail', { code: 'T0001P01A0101' }, token)).data.managerName).toBe('沈立新');

  // 我的办公 · 企业办公: his own requests; 办公审核: reject a submitted one with a reason.
  await openFromMenu(page, '项目', '我的办公', '企业办公');
  const mine = await expectList(page, '企业办公');
  await expect(mine.getByRole('button', { name: '新增申请' })).toBeVisible();
  await openFromMenu(page, '项目', '我的办公', '办公审核');
  const audits = await expectList(page, '办公审核');
  const pending = await callOperation<Paged<{ code: string; applicantName: string; state: string; canAudit: boolean }>>(request, 'office.audit.page', { state: 'submitted' }, token);
  const target = pending.data.records.find((r) => r.canAudit)!;
  await search(audits, target.code);
  const row = audits.locator('.ant-table-row', { hasText: target.code });
  await expect(row).toContainText('待审核');
  await row.getByRole('button', { name: label('驳回') }).click();
  const modal = page.locator('.ant-modal-content');
  await modal.getByLabel('驳回原因').fill('请补充发票原件后重新提交。');
  await modal.getByRole('button', { name: label('提交') }).click();
  await expect(toast(page, '已驳回')).toBeVisible();
  await expect(row).toContainText('已驳回');
  // Its detail page shows the history.
  await row.getByRole('button', { name: label('详情') }).click();
  await expect(page).toHaveURL(new RegExp(`/my/office/detail\\?code=${target.code}$`));
  const detail = activeTab(page).getByTestId('detail-page');
  await expect(detail).toContainText('办公申请详情');
  await expect(detail).toContainText('流转记录');
  await expect(detail).toContainText('请补充发票原件后重新提交。');
  await expectNoErrorPanel(page);

  // 品牌专区 · 待办任务: approve a repair order awaiting audit.
  await openFromMenu(page, '项目', '品牌专区', '待办任务');
  const backlog = await expectList(page, '待办任务');
  const audit = await callOperation<Paged<{ code: string; step: string }>>(request, 'brand.backlog.page', { kind: 'repair' }, token);
  const order = audit.data.records.find((r) => r.step === 'audit')!;
  await search(backlog, order.code);
  const item = backlog.locator('.ant-table-row', { hasText: order.code });
  await expect(item).toContainText('待审核');
  await item.getByRole('button', { name: '审核通过' }).click();
  await page.locator('.ant-modal-content').getByRole('button', { name: label('提交') }).click();
  await expect(toast(page, '审核已通过')).toBeVisible();
  await expect(item).toHaveCount(0);
  expect((await callOperation<{ state: string }>(request, 'repair.order.detail', { code: order.code }, token)).data.state).toBe('audited');

  // 巡检, 统计.
  await openFromMenu(page, '项目', '品牌专区', '巡检');
  await expectList(page, '品牌巡检');
  await openFromMenu(page, '项目', '品牌专区', '统计');
  const board = activeTab(page).getByTestId('dashboard-page');
  await expect(board).toContainText('品牌统计');
  await expect(board.locator('[data-widget-type="line"] canvas')).toBeVisible();
  await expect(board.locator('[data-widget-type="table"] .ant-table-row').first()).toBeVisible();
  await expectNoErrorPanel(page);

  // 用户: rename a field staff member.
  await openFromMenu(page, '项目', '品牌专区', '用户');
  const users = await expectList(page, '品牌用户');
  await search(users, 'hz01');
  const person = users.locator('.ant-table-row', { hasText: 'hz01' });
  await person.getByRole('button', { name: label('编辑') }).click();
  await expect(drawer.getByLabel('账号')).toHaveValue('hz01');
  await drawer.getByLabel('姓名').fill('周建国');
  await drawer.getByRole('button', { name: label('提交') }).click();
  await expect(toast(page, '设置成功！')).toBeVisible();
  await expect(person).toContainText('周建国');

  // 设备: export the list.
  await openFromMenu(page, '项目', '品牌专区', '设备');
  const devices = await expectList(page, '品牌设备');
  const deviceFile = page.waitForEvent('download');
  await devices.getByRole('button', { name: /导\s*出$/ }).click();
  expect((await deviceFile).suggestedFilename()).toMatch(/^设备列表-\d{8}\.xlsx$/);

  // 模板管理: a new message template; the platform's are listed read-only.
  await openFromMenu(page, '基础', '模板管理');
  const templates = await expectList(page, '模板管理');
  await expect(templates).toContainText('平台通用');
  await templates.getByRole('button', { name: '新增模板' }).click();
  await drawer.getByLabel('模板名称').fill('表井积水提醒');
  await drawer.getByLabel('模板内容').fill('${区域名称}表井积水，请于${截止时间}前抽排。');
  await drawer.getByRole('button', { name: label('提交') }).click();
  await expect(toast(page, '设置成功！')).toBeVisible();
  await search(templates, '表井积水提醒');
  const created = templates.locator('.ant-table-row', { hasText: '表井积水提醒' });
  await expect(created).toContainText('区域名称');
  await expect(created).toContainText('杭州云联科技有限公司');

  // 物料管理: the materials below their warning level, exported.
  await openFromMenu(page, '基础', '物料管理');
  const materials = await expectList(page, '物料管理');
  await expect(materials).toContainText('锂亚电池');
  const materialFile = page.waitForEvent('download');
  await materials.getByRole('button', { name: /导\s*出$/ }).click();
  expect((await materialFile).suggestedFilename()).toMatch(/^物料清单-\d{8}\.xlsx$/);
  await expectNoErrorPanel(page);
  expect(errors).toEqual([]);
});

test('an implementer files, edits, submits and deletes office requests and handles his backlog; the tenant admin approves', async ({ page, request }) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'implement');
  await loginThroughForm(page, 'implement');
  await expect(page).toHaveURL(/\/dashboard$/);

  // 企业办公: a new expense claim, edited, then submitted.
  await openFromMenu(page, '项目', '我的办公', '企业办公');
  const mine = await expectList(page, '企业办公');
  await expect(mine.locator('.ant-table-row').first()).toBeVisible();
  await mine.getByRole('button', { name: '新增申请' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByLabel('标题').fill('龙井水厂维修材料费报销');
  await drawer.getByLabel('金额').fill('268.4');
  await drawer.getByLabel('申请说明').fill('密封圈、生料带发票两张。');
  await drawer.getByRole('button', { name: label('提交') }).click();
  await expect(toast(page, '已保存')).toBeVisible();
  await expect(drawer).toBeHidden();
  const filed = await callOperation<Paged<{ code: string; title: string }>>(request, 'office.corporate.page', { keyword: '龙井水厂维修材料费报销' }, token);
  const code = filed.data.records[0].code;
  await search(mine, code);
  const row = mine.locator('.ant-table-row', { hasText: code });
  await expect(row).toContainText('草稿');
  await row.getByRole('button', { name: label('编辑') }).click();
  await expect(drawer.getByLabel('标题')).toHaveValue('龙井水厂维修材料费报销');
  await drawer.getByLabel('标题').fill('龙井水厂维修材料费报销（含快递）');
  await drawer.getByRole('button', { name: label('提交') }).click();
  await expect(toast(page, '已保存')).toBeVisible();
  await expect(row).toContainText('龙井水厂维修材料费报销（含快递）');
  await row.getByRole('button', { name: '提交审核' }).click();
  await confirm(page);
  await expect(toast(page, '已提交审核')).toBeVisible();
  await expect(row).toContainText('待审核');
  await expect(row.getByRole('button', { name: label('编辑') })).toHaveCount(0);

  // An older draft of his is deleted after the confirmation.
  const drafts = await callOperation<Paged<{ code: string }>>(request, 'office.corporate.page', { state: 'draft' }, token);
  const draft = drafts.data.records[0].code;
  await search(mine, draft);
  // A draft's fourth action, 删除, is under 更多 (a row shows three).
  await mine.locator('.ant-table-row', { hasText: draft }).getByRole('button', { name: /更多/ }).click();
  await page.getByRole('menuitem', { name: '删除' }).click();
  await confirm(page);
  await expect(toast(page, '已删除')).toBeVisible();
  await expect(mine.locator('.ant-table-row', { hasText: draft })).toHaveCount(0);

  // 品牌专区 · 待办任务: his own open work; accept an assigned repair order.
  await openFromMenu(page, '项目', '品牌专区', '待办任务');
  const backlog = await expectList(page, '待办任务');
  const rows = backlog.locator('.ant-table-row');
  for (let index = 0; index < Math.min(5, await rows.count()); index += 1) await expect(rows.nth(index)).toContainText('孙浩');
  const open = await callOperation<Paged<{ code: string; step: string; kind: string }>>(request, 'brand.backlog.page', { kind: 'repair' }, token);
  const assigned = open.data.records.find((r) => r.step === 'accept')!;
  await search(backlog, assigned.code);
  const item = backlog.locator('.ant-table-row', { hasText: assigned.code });
  await expect(item).toContainText('待接单');
  await item.getByRole('button', { name: label('接单') }).click();
  await expect(toast(page, '已接单')).toBeVisible();
  await expect(item).toContainText('待开始');
  await expect(item.getByRole('button', { name: '开始处理' })).toBeVisible();
  // His menu has no 统计, 用户 or 设备 of the sub-brand.
  await expect(menuItem(page, '统计')).toHaveCount(0);
  expect(errors).toEqual([]);

  // The tenant admin approves the submitted request in 办公审核.
  const adminPage = await page.context().newPage();
  const adminErrors = watchErrors(adminPage);
  await loginThroughForm(adminPage, 'tadmin');
  await expect(adminPage).toHaveURL(/\/dashboard$/);
  await openFromMenu(adminPage, '项目', '我的办公', '办公审核');
  const audits = await expectList(adminPage, '办公审核');
  await search(audits, code);
  const submitted = audits.locator('.ant-table-row', { hasText: code });
  await expect(submitted).toContainText('孙浩');
  await submitted.getByRole('button', { name: label('通过') }).click();
  const modal = adminPage.locator('.ant-modal-content');
  await expect(modal.getByLabel('审核意见')).toHaveValue('同意。');
  await modal.getByRole('button', { name: label('提交') }).click();
  await expect(toast(adminPage, '审核已通过')).toBeVisible();
  await expect(submitted).toContainText('已通过');
  const approved = await callOperation<{ state: string; auditorName: string }>(request, 'office.corporate.detail', { code }, token);
  expect(approved.data).toMatchObject({ state: 'approved', auditorName: '张明' });
  expect(adminErrors).toEqual([]);
});

test('a patroller sees his open patrol tasks and starts one; repair staff see their office requests', async ({ page, request }) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'patrol');
  await loginThroughForm(page, 'patrol');
  await expect(page).toHaveURL(/\/dashboard$/);

  await openFromMenu(page, '项目', '品牌专区', '待办任务');
  const backlog = await expectList(page, '待办任务');
  const open = await callOperation<Paged<{ code: string; kind: string; canStart: boolean; overdue: boolean }>>(request, 'brand.backlog.page', { overdue: '0' }, token);
  expect(open.data.records.every((r) => r.kind === 'patrol')).toBe(true);
  const pending = open.data.records.find((r) => r.canStart && !r.overdue)!;
  await search(backlog, pending.code);
  const item = backlog.locator('.ant-table-row', { hasText: pending.code });
  await expect(item).toContainText('待巡检');
  await item.getByRole('button', { name: '开始处理' }).click();
  await expect(toast(page, '已开始处理')).toBeVisible();
  await expect(item).toContainText('巡检中');
  await expect(item.getByRole('button', { name: '去巡检' })).toBeVisible();

  await openFromMenu(page, '项目', '品牌专区', '巡检');
  const tasks = await expectList(page, '品牌巡检');
  await expect(tasks.locator('.ant-table-row').first()).toContainText('赵磊');
  await openFromMenu(page, '项目', '我的办公', '企业办公');
  const mine = await expectList(page, '企业办公');
  // 办公审核 is the tenant admin's.
  await expect(menuItem(page, '办公审核')).toHaveCount(0);
  const own = await callOperation<Paged<{ code: string }>>(request, 'office.corporate.page', { state: 'approved' }, token);
  await search(mine, own.data.records[0].code);
  await mine.locator('.ant-table-row', { hasText: own.data.records[0].code }).getByRole('button', { name: label('详情') }).click();
  const detail = activeTab(page).getByTestId('detail-page');
  await expect(detail).toContainText('审核通过');
  await expectNoErrorPanel(page);
  expect(errors).toEqual([]);

  // Repair staff: their own requests and backlog.
  const repairPage = await page.context().newPage();
  const repairErrors = watchErrors(repairPage);
  await loginThroughForm(repairPage, 'repair');
  await expect(repairPage).toHaveURL(/\/dashboard$/);
  await openFromMenu(repairPage, '项目', '我的办公', '企业办公');
  await expect((await expectList(repairPage, '企业办公')).locator('.ant-table-row').first()).toBeVisible();
  await openFromMenu(repairPage, '项目', '品牌专区', '待办任务');
  await expect((await expectList(repairPage, '待办任务')).locator('.ant-table-row').first()).toContainText('王强');
  expect(repairErrors).toEqual([]);
});

test('the platform admin changes a tenant\'s settings in 租户配置 and resets them to the defaults', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'admin', 'Admin@2026');
  await loginThroughForm(page, 'admin', 'Admin@2026');
  await expect(page).toHaveURL(/\/dashboard$/);

  await openFromMenu(page, '平台', '租户配置');
  await expect(page).toHaveURL(/\/tenant\/config$/);
  const configs = await expectList(page, '租户配置');
  const tenant = configs.locator('.ant-table-row', { hasText: '杭州云联科技有限公司' });
  await expect(tenant).toContainText('杭州云联智慧水务监控中心');
  await tenant.getByRole('button', { name: label('配置') }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.getByLabel('工单超时小时数')).toHaveValue('24');
  await drawer.getByLabel('巡检周期').fill('14');
  await drawer.getByRole('button', { name: label('提交') }).click();
  await expect(toast(page, '设置成功！')).toBeVisible();
  await expect(drawer).toBeHidden();
  await expect(tenant).toContainText('巡检周期（天）');
  expect((await callOperation<{ patrolCycleDays: number }>(request, 'tenant.config.get', { tenantCode: 'T0001' }, token)).data.patrolCycleDays).toBe(14);

  await tenant.getByRole('button', { name: '恢复默认' }).click();
  await confirm(page);
  await expect(toast(page, '已恢复默认配置')).toBeVisible();
  await expect(tenant).toContainText('物联网设备监控大屏');
  await expect(tenant.getByRole('button', { name: '恢复默认' })).toHaveCount(0);
  const reset = await callOperation<{ patrolCycleDays: number; customizedCount: number }>(request, 'tenant.config.get', { tenantCode: 'T0001' }, token);
  expect(reset.data).toMatchObject({ patrolCycleDays: 30, customizedCount: 0 });
  await expectNoErrorPanel(page);
  expect(errors).toEqual([]);
});
