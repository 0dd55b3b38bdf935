import { expect, test, type APIRequestContext, type Locator, type Page } from './fixtures';
import { activeTab, callOperation, chooseOption, loginThroughForm, resetPlatform, tokenFor, visit, watchErrors } from './support';

// IoT SIM cards (issue 7): every card view area as the tenant admin and as platform staff, and the
// three flows the platform lives on: a card order from the sales system through delivery to the
// tenant's confirmation, a renewal, and a recharge whose amount the fee standards decide.

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

interface Records<T> {
  records: T[];
}

async function firstRecord<T>(request: APIRequestContext, token: string, name: string, param: Record<string, unknown> = {}): Promise<T> {
  const reply = await callOperation<Records<T>>(request, name, param, token);
  expect(reply.code, name).toBe('200');
  expect(reply.data.records.length, name).toBeGreaterThan(0);
  return reply.data.records[0];
}

async function signIn(page: Page, loginName: string, password?: string): Promise<void> {
  await page.evaluate(() => window.sessionStorage.clear()).catch(() => undefined);
  await loginThroughForm(page, loginName, password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Opens a path and checks its page rendered data with no schema or loading error. */
async function opens(page: Page, path: string, title: string): Promise<Locator> {
  await visit(page, path);
  const view = activeTab(page).locator('[data-testid="list-page"], [data-testid="detail-page"], [data-testid="dashboard-page"]').first();
  await expect(view, path).toBeVisible();
  await expect(view, path).toContainText(title);
  await expect(page.getByTestId('schema-error'), path).toHaveCount(0);
  await expect(page.getByText('数据加载失败'), path).toHaveCount(0);
  await expect(page.getByText('加载失败'), path).toHaveCount(0);
  return view;
}

async function listShowsRows(page: Page, path: string, title: string): Promise<Locator> {
  const view = await opens(page, path, title);
  await expect(view.locator('.ant-table-row').first(), path).toBeVisible();
  return view;
}

async function pick(page: Page, scope: Locator, name: string, option: string | RegExp): Promise<void> {
  await chooseOption(page, scope.getByRole('combobox', { name }), option);
}

/** Shows every filter (the form shows three until expanded). */
async function expandFilters(list: Locator): Promise<Locator> {
  const filters = list.getByTestId('list-filters');
  await filters.getByRole('button', { name: /展\s*开/ }).click();
  return filters;
}

/** Asks the list's query again and waits for its answer (the rows shown before are the old query's). */
async function search(list: Locator): Promise<void> {
  const answered = list.page().waitForResponse((response) => response.request().method() === 'POST' && /\/_page$/.test(new URL(response.url()).pathname));
  await list.getByRole('button', { name: /查\s*询/ }).click();
  await answered;
  await expect(list.locator('.ant-spin-spinning')).toHaveCount(0);
}

const TENANT_VIEWS: Array<[string, string]> = [
  ['/card/internet', '物联网卡'],
  ['/card/order', '卡订单'],
  ['/card/recharge/manage', '充值管理'],
  ['/card/recharge/order', '充值订单'],
  ['/card/renew/card', '续费卡'],
  ['/card/renew/order', '续费订单'],
  ['/card/order/user', '待确认卡订单'],
];

const SUPPLY_VIEWS: Array<[string, string]> = [
  ['/card/custom', '定制卡'],
  ['/card/fee/standard', '资费标准'],
  ['/card/warehousing', '入库管理'],
];

async function openDetails(page: Page, request: APIRequestContext, token: string): Promise<void> {
  const order = await firstRecord<{ code: string }>(request, token, 'card.order.page', { state: 'completed' });
  await opens(page, `/card/order/detail?code=${order.code}`, '卡订单详情');
  await expect(activeTab(page).getByTestId('detail-page').locator('.ant-table-row').first()).toBeVisible();
  const card = await firstRecord<{ iccid: string }>(request, token, 'card.sim.page', { state: 'active' });
  const detail = await opens(page, `/card/internet/detail?iccid=${card.iccid}`, card.iccid);
  await detail.getByRole('tab', { name: '运营商信息' }).click();
  await expect(detail).toContainText('正使用');
  await detail.getByRole('tab', { name: '月度用量' }).click();
  await expect(detail.locator('.ant-table-row')).toHaveCount(6);
  const recharge = await firstRecord<{ code: string }>(request, token, 'card.rechargeOrder.page');
  await opens(page, `/card/recharge/order/detail?code=${recharge.code}`, recharge.code);
  const renewal = await firstRecord<{ code: string }>(request, token, 'card.renewOrder.page');
  await opens(page, `/card/renew/order/detail?code=${renewal.code}`, renewal.code);
  const alter = await firstRecord<{ code: string }>(request, token, 'card.alterDelivery.page');
  await opens(page, `/card/alter/detail?code=${alter.code}`, alter.code);
}

test('the tenant admin opens every card view area and finds its data', async ({ page, request }) => {
  const errors = watchErrors(page);
  await signIn(page, 'tadmin');
  for (const [path, title] of TENANT_VIEWS) {
    const view = await listShowsRows(page, path, title);
    // Only the tenant's own cards and documents.
    await expect(view.getByText('苏州智水环境科技有限公司'), path).toHaveCount(0);
  }
  // The supply side is the platform's: 无权访问 inside the frame, at the same address (issue 21).
  await visit(page, '/card/warehousing');
  await expect(page).toHaveURL(/\/card\/warehousing$/);
  await expect(page.getByText('抱歉，您的角色无权访问此页面。如需使用，请联系管理员开通权限。')).toBeVisible();
  await openDetails(page, request, await tokenFor(request, 'tadmin'));
  expect(errors).toEqual([]);
});

test('platform staff open every card view area, supply and dashboard included', async ({ page, request }) => {
  const errors = watchErrors(page);
  await signIn(page, 'admin', 'Admin@2026');
  for (const [path, title] of [...TENANT_VIEWS.filter(([path]) => path !== '/card/order/user'), ...SUPPLY_VIEWS]) await listShowsRows(page, path, title);
  // No tenant order awaits the platform's own confirmation, yet the page opens.
  await opens(page, '/card/order/user', '待确认卡订单');

  const outbound = await opens(page, '/card/outbound', '出库管理');
  await expect(outbound.getByTestId('list-page').first().locator('.ant-table-row').first()).toBeVisible();
  await outbound.getByRole('tab', { name: '换卡发货' }).click();
  await expect(outbound.locator('[data-view="card/outboundAlter"] .ant-table-row').first()).toBeVisible();
  await outbound.getByRole('tab', { name: '出库概况' }).click();
  await expect(outbound).toContainText('待发货订单');

  const revenue = await opens(page, '/card/revenue', '营收看板');
  await expect(revenue.getByTestId('dashboard-widget')).toHaveCount(17);
  await expect(revenue.locator('[data-widget-type="line"] canvas').first()).toBeVisible();
  await expect(revenue.locator('.ant-statistic-content-value').first()).not.toHaveText('0');

  const token = await tokenFor(request, 'admin', 'Admin@2026');
  await openDetails(page, request, token);
  const delivery = await firstRecord<{ code: string }>(request, token, 'card.delivery.page', { state: 'received' });
  const detail = await opens(page, `/card/outbound/detail?code=${delivery.code}`, '发货单详情');
  await expect(detail).toContainText('已签收');
  expect(errors).toEqual([]);
});

test('a card order goes from the sales system through delivery to the tenant’s confirmation', async ({ page, request }) => {
  const errors = watchErrors(page);
  await signIn(page, 'operator');

  // Creation: the signed sale orders come in as card orders awaiting delivery.
  const orders = await listShowsRows(page, '/card/order', '卡订单');
  await orders.getByRole('button', { name: '同步销售订单' }).click();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('同步完成')).toBeVisible();
  const operatorToken = await tokenFor(request, 'operator');
  const order = await firstRecord<{ code: string; cardCount: number }>(request, operatorToken, 'card.order.page', { state: 'pending_delivery', tenantCode: 'T0002', keyword: '导入' });
  await orders.getByTestId('list-filters').getByLabel('关键字').fill(order.code);
  await search(orders);
  await expect(orders.locator('.ant-table-row', { hasText: order.code })).toContainText('待发货');

  // Delivery: cards picked from stock, then shipped with a waybill.
  const outbound = await opens(page, '/card/outbound', '出库管理');
  const deliveries = outbound.locator('[data-view="card/outboundDelivery"]');
  await deliveries.getByRole('button', { name: '生成发货单' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByRole('combobox', { name: '待发货订单' }).fill(order.code);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: order.code }).click();
  await drawer.getByLabel('备注').fill('请随货附装箱清单');
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('发货单已生成')).toBeVisible();
  const row = deliveries.locator('.ant-table-row', { hasText: order.code });
  await expect(row).toContainText('待发货');
  await expect(row).toContainText(String(order.cardCount));
  await row.getByRole('button', { name: '确认发货' }).click();
  const modal = page.locator('.ant-modal-content');
  await pick(page, modal, '快递公司', '顺丰速运');
  await modal.getByLabel('快递单号').fill('SF 1234');
  await modal.getByRole('button', { name: /提\s*交/ }).click();
  await expect(modal.getByText('请输入正确的快递单号格式')).toBeVisible();
  await modal.getByLabel('快递单号').fill('SF1402938475612');
  await modal.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '已发货' })).toBeVisible();
  await expect(row).toContainText('SF1402938475612');

  // The tenant is asked at start-up and confirms receipt at /card/order/user.
  await signIn(page, 'badmin');
  const banner = page.getByRole('alert').filter({ hasText: '您有待确认的卡订单' });
  await banner.getByRole('button', { name: /去确认/ }).click();
  await expect(page).toHaveURL(/\/card\/order\/user$/);
  const waiting = activeTab(page).getByTestId('list-page');
  const mine = waiting.locator('.ant-table-row', { hasText: order.code });
  await expect(mine).toContainText('待确认');
  await mine.getByRole('button', { name: '确认收货' }).click();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('确认成功')).toBeVisible();
  await expect(waiting.locator('.ant-table-row', { hasText: order.code })).toHaveCount(0);

  const confirmed = await listShowsRows(page, `/card/order`, '卡订单');
  await confirmed.getByTestId('list-filters').getByLabel('关键字').fill(order.code);
  await search(confirmed);
  await expect(confirmed.locator('.ant-table-row', { hasText: order.code })).toContainText('已确认');
  expect(errors).toEqual([]);
});

test('a renewal: the platform registers a term, the tenant confirms, the renewal order settles', async ({ page, request }) => {
  const errors = watchErrors(page);
  await signIn(page, 'operator');
  const renewals = await listShowsRows(page, '/card/renew/card', '续费卡');
  const filters = await expandFilters(renewals);
  await pick(page, filters, '续费状态', '未登记');
  await pick(page, filters, '租户', '杭州云联科技有限公司');
  await search(renewals);
  const first = renewals.locator('.ant-table-row').first();
  await expect(first).toContainText('未登记');
  const iccid = /89\d{17,18}/.exec((await first.textContent()) ?? '')![0];
  await first.getByRole('button', { name: /^登\s*记$/ }).click();
  const modal = page.locator('.ant-modal-content');
  await pick(page, modal, '续费年限', '2 年');
  await modal.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '已登记' })).toBeVisible();
  // Registered, it leaves the list of unregistered cards.
  await expect(renewals.locator('.ant-table-row', { hasText: iccid })).toHaveCount(0);

  await signIn(page, 'tadmin');
  const mine = await listShowsRows(page, '/card/renew/card', '续费卡');
  await mine.getByTestId('list-filters').getByLabel('关键字').fill(iccid);
  await search(mine);
  const row = mine.locator('.ant-table-row', { hasText: iccid });
  await expect(row).toContainText('已登记');
  await row.getByRole('button', { name: '确认续费' }).click();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(row).toContainText('已确认');
  const orderCode = /XF\d{13}/.exec((await row.textContent()) ?? '')![0];

  const orders = await listShowsRows(page, '/card/renew/order', '续费订单');
  await orders.getByTestId('list-filters').getByLabel('关键字').fill(orderCode);
  await search(orders);
  const order = orders.locator('.ant-table-row', { hasText: orderCode });
  await expect(order).toContainText('待确认');
  await order.getByRole('button', { name: /^确\s*认$/ }).click();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('续费已生效')).toBeVisible();
  await expect(order).toContainText('已确认');
  const card = await firstRecord<{ expireTime: string }>(request, await tokenFor(request, 'tadmin'), 'card.sim.page', { keyword: iccid });
  expect(new Date(card.expireTime).getTime()).toBeGreaterThan(Date.now() + 365 * 86_400_000);
  expect(errors).toEqual([]);
});

test('a recharge of chosen cards is priced by the fee standards and extends their service', async ({ page, request }) => {
  const errors = watchErrors(page);
  await signIn(page, 'tadmin');
  const manage = await listShowsRows(page, '/card/recharge/manage', '充值管理');
  const filters = await expandFilters(manage);
  await pick(page, filters, '服务到期', '30 天内到期');
  await pick(page, filters, '充值状态', '无待完成充值');
  await search(manage);
  const rows = manage.locator('.ant-table-row');
  await expect(rows.first()).toBeVisible();
  const iccids: string[] = [];
  for (const index of [0, 1]) {
    iccids.push(/89\d{17,18}/.exec((await rows.nth(index).textContent()) ?? '')![0]);
    await rows.nth(index).locator('.ant-checkbox-input').check();
  }
  const token = await tokenFor(request, 'tadmin');
  const quote = await callOperation<{ amount: number; lines: Array<{ unitPrice: number; cardCount: number }> }>(request, 'card.recharge.calculateAmount', { iccids, years: 2 }, token);
  expect(quote.data.amount).toBeCloseTo(quote.data.lines.reduce((sum, line) => sum + line.unitPrice * line.cardCount * 2, 0), 2);

  await manage.getByRole('button', { name: '在线支付', exact: true }).click();
  const modal = page.locator('.ant-modal-content');
  await pick(page, modal, '充值年限', '2 年');
  await modal.getByText('支付宝').click();
  await modal.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('充值成功')).toBeVisible();

  const orders = await listShowsRows(page, '/card/recharge/order', '充值订单');
  const newest = orders.locator('.ant-table-row').first();
  const amount = `¥${quote.data.amount.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  await expect(newest).toContainText(amount);
  await expect(newest).toContainText('已确认');
  await expect(newest).toContainText('支付宝');
  await newest.getByRole('button', { name: /详\s*情/ }).click();
  const detail = activeTab(page).getByTestId('detail-page');
  for (const iccid of iccids) await expect(detail.locator('.ant-table-row', { hasText: iccid })).toBeVisible();
  for (const iccid of iccids) {
    const card = await firstRecord<{ daysLeft: number }>(request, token, 'card.sim.page', { keyword: iccid });
    expect(card.daysLeft).toBeGreaterThan(700);
  }
  expect(errors).toEqual([]);
});
