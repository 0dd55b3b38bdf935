import { expect, test, type Locator, type Page } from './fixtures';
import { activeTab, callOperation, chooseOption, loginThroughForm, resetPlatform, setChecked, tokenFor, watchErrors } from './support';

// Dynamic forms (issue 6), end to end in the console: the tenant admin designs a survey template
// in /dynamic/form/1/config (palette, field settings, reorder, live preview), saves and publishes
// it, plans a survey with it; the implementer fills the template in the survey's drawer and
// concludes it; the admin sees the filled form on the detail page and in the audit, and approves
// it. The construction and operations designers open with their seeded templates.

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

interface Paged<T> {
  records: T[];
  total: number;
}

const label = (text: string) => new RegExp(text.split('').join('\\s*'));

/** Clicks through the sider of a top-bar group: a submenu only when its entry is not yet shown. */
async function openFromMenu(page: Page, group: string, ...path: string[]) {
  await page.getByRole('tab', { name: group }).click();
  for (const [index, entry] of path.entries()) {
    const next = path[index + 1];
    if (next && (await page.getByRole('menuitem', { name: next }).first().isVisible())) continue;
    await page.getByRole('menuitem', { name: entry }).first().click();
  }
}

function expectNoErrorPanel(page: Page) {
  return Promise.all([expect(page.getByTestId('schema-error')).toHaveCount(0), expect(activeTab(page).getByText(/数据加载失败|加载失败/)).toHaveCount(0)]);
}

async function signInAs(page: Page, loginName: string) {
  await page.evaluate(() => window.sessionStorage.clear()).catch(() => undefined);
  await loginThroughForm(page, loginName);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** The survey list with the order found by its code. */
async function surveyRow(page: Page, code: string): Promise<{ list: Locator; row: Locator }> {
  await openFromMenu(page, '项目', '现场作业', '工程勘察');
  const list = activeTab(page).getByTestId('list-page').first();
  await expect(list).toContainText('工程勘察');
  await list.getByTestId('list-filters').first().getByLabel('关键字').fill(code);
  await list.getByRole('button', { name: label('查询') }).first().click();
  const row = list.locator('.ant-table-row', { hasText: code });
  await expect(row).toBeVisible();
  await expectNoErrorPanel(page);
  return { list, row };
}

test('designs a survey template, publishes it, plans a survey with it, the implementer fills it and the admin audits it', async ({ page, request }) => {
  test.setTimeout(300_000);
  const errors = watchErrors(page);
  const adminToken = await tokenFor(request, 'tadmin');
  await signInAs(page, 'tadmin');

  // 基础 → 动态表单 → 勘察模板设置: the seeded templates, then a new one.
  await openFromMenu(page, '基础', '动态表单', '勘察模板设置');
  await expect(page).toHaveURL(/\/dynamic\/form\/1\/config$/);
  const templates = activeTab(page).getByTestId('form-template-list');
  await expect(templates).toContainText('勘察模板设置');
  await expect(templates.locator('.ant-table-row', { hasText: '新装监测点勘察表' })).toContainText('已发布');
  await expect(templates.locator('.ant-table-row', { hasText: '管网改造前期勘察表' })).toContainText('修订中');
  await expectNoErrorPanel(page);
  const demo = page.waitForEvent('download');
  await templates.getByRole('button', { name: '下载示例' }).click();
  expect((await demo).suggestedFilename()).toMatch(/^勘察模板示例-\d{8}\.xlsx$/);
  await templates.getByRole('button', { name: '新增模板' }).click();

  const editor = activeTab(page).getByTestId('form-template-editor');
  const settings = editor.getByTestId('field-settings');
  const preview = editor.getByTestId('template-preview');
  await editor.getByLabel('模板名称').fill('屋顶水箱液位计勘察表');
  await editor.getByLabel('说明').fill('屋顶水箱安装液位计前的现场勘察');

  // A number: name, key, required, range and unit.
  await editor.getByRole('button', { name: '添加数字' }).click();
  await settings.getByLabel('字段名称').fill('信号强度');
  await settings.getByLabel('字段标识').fill('signal');
  await settings.getByRole('switch', { name: '必填' }).click();
  await settings.getByLabel('最小值').fill('-140');
  await settings.getByLabel('最大值').fill('-30');
  await settings.getByLabel('单位').fill('dBm');
  // A choice with its options.
  await editor.getByRole('button', { name: '添加单项选择' }).click();
  await settings.getByLabel('字段名称').fill('供电方式');
  await settings.getByLabel('字段标识').fill('power');
  await settings.getByRole('switch', { name: '必填' }).click();
  await settings.getByLabel('选项1名称').fill('市电');
  await settings.getByLabel('选项2名称').fill('电池');
  await settings.getByRole('button', { name: '添加选项' }).click();
  await settings.getByLabel('选项3名称').fill('太阳能');
  // A text field, moved to the top.
  await editor.getByRole('button', { name: '添加单行文本' }).click();
  await settings.getByLabel('字段名称').fill('水箱编号');
  await settings.getByLabel('字段标识').fill('tankNo');
  await editor.getByRole('button', { name: '上移水箱编号' }).click();
  await editor.getByRole('button', { name: '上移水箱编号' }).click();
  await expect(editor.getByTestId('field-list').locator('li')).toHaveText([/水箱编号/, /信号强度/, /供电方式/]);

  // The live preview draws the fields with the form renderer and checks them.
  await expect(preview.getByLabel('信号强度')).toBeVisible();
  await expect(preview.getByRole('combobox', { name: '供电方式' })).toBeVisible();
  await preview.getByRole('button', { name: '校验预览' }).click();
  await expect(preview.getByText('请填写“信号强度”')).toBeVisible();
  // Out of range, the number is brought back within it.
  await preview.getByLabel('信号强度').fill('-20');
  await preview.getByLabel('水箱编号').click();
  await expect(preview.getByLabel('信号强度')).toHaveValue('-30');
  await expect(preview.getByText('请填写“信号强度”')).toHaveCount(0);

  // A duplicate key is refused before saving, then fixed.
  await settings.getByLabel('字段标识').fill('power');
  await expect(editor.getByText('字段标识 power 重复').first()).toBeVisible();
  await editor.getByRole('button', { name: label('保存') }).click();
  await expect(page.locator('.ant-message').getByText('字段标识 power 重复')).toBeVisible();
  await settings.getByLabel('字段标识').fill('tankNo');

  // A failed save (the name is taken) says why and keeps everything typed.
  await editor.getByLabel('模板名称').fill('新装监测点勘察表');
  await editor.getByRole('button', { name: label('保存') }).click();
  await expect(page.locator('.ant-message').getByText('同类模板中已有同名模板')).toBeVisible();
  await expect(editor.getByTestId('field-list').locator('li')).toHaveCount(3);
  await expect(editor.getByText('未保存')).toBeVisible();
  await editor.getByLabel('模板名称').fill('屋顶水箱液位计勘察表');
  await editor.getByRole('button', { name: label('保存') }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '保存成功' }).last()).toBeVisible();
  await expect(editor.getByText('未保存')).toHaveCount(0);
  await expect(editor).toContainText('正在编辑草稿 v1');
  await editor.getByRole('button', { name: label('发布') }).click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: label('发布') }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '已发布 v1' })).toBeVisible();
  await expect(editor).toContainText('v1 已发布，不可修改');
  await editor.getByRole('button', { name: '返回列表' }).first().click();
  await expect(templates.locator('.ant-table-row', { hasText: '屋顶水箱液位计勘察表' })).toContainText('已发布');
  const published = (await callOperation<Array<{ id: number; name: string; version: number }>>(request, 'activeForm.template.list', { kind: 1 }, adminToken)).data.find(
    (template) => template.name === '屋顶水箱液位计勘察表',
  );
  expect(published?.version).toBe(1);
  const designed = await callOperation<{ fields: Array<{ key: string; required: boolean; min?: number; max?: number; unit?: string; options?: Array<{ label: string }> }> }>(
    request,
    'activeForm.template.get',
    { id: published?.id },
    adminToken,
  );
  expect(designed.data.fields.map((field) => field.key)).toEqual(['tankNo', 'signal', 'power']);
  expect(designed.data.fields[1]).toMatchObject({ required: true, min: -140, max: -30, unit: 'dBm' });
  expect(designed.data.fields[2].options?.map((option) => option.label)).toEqual(['市电', '电池', '太阳能']);

  // 工程勘察 → 新增勘察 with the new template, assigned to the implementer 孙浩.
  await openFromMenu(page, '项目', '现场作业', '工程勘察');
  const surveys = activeTab(page).getByTestId('list-page').first();
  await surveys.getByRole('button', { name: '新增勘察' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByLabel('勘察名称').fill('滨江小区屋顶水箱勘察');
  await drawer.getByRole('combobox', { name: '勘察地点' }).fill('龙井水厂');
  await page.locator('.ant-select-tree-node-content-wrapper', { hasText: '龙井水厂' }).click();
  await chooseOption(page, drawer.getByRole('combobox', { name: '勘察人员' }), '孙浩');
  await chooseOption(page, drawer.getByRole('combobox', { name: '勘察表单模板' }), '屋顶水箱液位计勘察表（v1）');
  await expect(drawer.getByTestId('template-form')).toContainText('勘察表单：屋顶水箱液位计勘察表（v1）');
  await expect(drawer.getByTestId('template-form')).toContainText('尚未填写：由勘察人员在现场填写');
  await drawer.getByRole('button', { name: label('提交') }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await expect(drawer).toBeHidden();
  const created = await callOperation<Paged<{ code: string; state: string; formTemplateId: number }>>(request, 'exploration.page', { keyword: '滨江小区屋顶水箱勘察' }, adminToken);
  const code = created.data.records[0].code;
  expect(created.data.records[0]).toMatchObject({ state: 'assigned', formTemplateId: published?.id });

  // The implementer fills the template in the survey's drawer and concludes it.
  await signInAs(page, 'implement');
  const mine = await surveyRow(page, code);
  await mine.row.getByRole('button', { name: label('编辑') }).click();
  const form = drawer.getByTestId('template-form');
  await expect(form).toContainText('勘察表单：屋顶水箱液位计勘察表（v1）');
  await drawer.getByLabel('勘察结论').fill('水箱顶部信号良好，具备安装条件');
  await drawer.getByRole('switch', { name: '勘察完成' }).click();
  await drawer.getByRole('button', { name: label('提交') }).click();
  await expect(form.getByText('请填写“信号强度”')).toBeVisible();
  await form.getByLabel('水箱编号').fill('SX-07');
  await form.getByLabel('信号强度').fill('-86');
  await chooseOption(page, form.getByRole('combobox', { name: '供电方式' }), '太阳能');
  await drawer.getByRole('button', { name: label('提交') }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '设置成功！' }).last()).toBeVisible();
  await expect(drawer).toBeHidden();
  await expect(mine.row).toContainText('已完成');
  const implementToken = await tokenFor(request, 'implement');
  const filled = await callOperation<{ state: string; auditState: string; formData: Record<string, unknown> }>(request, 'exploration.detail', { code }, implementToken);
  expect(filled.data).toMatchObject({ state: 'completed', auditState: 'pending', formData: { tankNo: 'SX-07', signal: -86, power: 'o3' } });

  // The admin sees the filled form on the detail page and in the audit, and approves it.
  await signInAs(page, 'tadmin');
  const theirs = await surveyRow(page, code);
  await expect(theirs.row).toContainText('待审核');
  await theirs.row.getByRole('button', { name: label('详情') }).click();
  await expect(page).toHaveURL(new RegExp(`/exploration/detail\\?code=${code}$`));
  const detail = activeTab(page).getByTestId('detail-page');
  await expect(detail).toContainText('屋顶水箱液位计勘察表（v1）');
  const filledTable = detail.locator('.ant-card', { hasText: '填写项' });
  await expect(filledTable.locator('.ant-table-row', { hasText: '信号强度' })).toContainText('-86 dBm');
  await expect(filledTable.locator('.ant-table-row', { hasText: '供电方式' })).toContainText('太阳能');
  await expect(filledTable.locator('.ant-table-row', { hasText: '水箱编号' })).toContainText('SX-07');
  await expectNoErrorPanel(page);
  await detail.getByRole('button', { name: label('审核') }).click();
  const modal = page.locator('.ant-modal-content');
  const audited = modal.getByTestId('template-form');
  await expect(audited).toContainText('勘察表单：屋顶水箱液位计勘察表（v1）');
  await expect(audited).toContainText('太阳能');
  await expect(audited).toContainText('SX-07');
  await expect(audited.getByRole('spinbutton')).toHaveCount(0);
  await modal.getByLabel('审核意见').fill('信号与供电满足安装条件，同意安装');
  await modal.getByRole('button', { name: label('提交') }).click();
  await expect(page.getByText('审核完成')).toBeVisible();
  await expect(detail.locator('.ant-descriptions').first()).toContainText('已审核');
  const done = await callOperation<{ state: string; auditState: string; auditOpinion: string }>(request, 'exploration.detail', { code }, adminToken);
  expect(done.data).toMatchObject({ state: 'audited', auditState: 'approved', auditOpinion: '信号与供电满足安装条件，同意安装' });

  // The construction and operations designers open with their own templates.
  await openFromMenu(page, '基础', '动态表单', '施工模板设置');
  await expect(page).toHaveURL(/\/dynamic\/form\/2\/config$/);
  const construction = activeTab(page).getByTestId('form-template-list');
  await expect(construction).toContainText('施工模板设置');
  await expect(construction.locator('.ant-table-row', { hasText: '智能水表安装施工记录' })).toContainText('已发布');
  await expect(construction).not.toContainText('屋顶水箱液位计勘察表');
  await expectNoErrorPanel(page);
  await openFromMenu(page, '基础', '动态表单', '运维模板设置');
  await expect(page).toHaveURL(/\/dynamic\/form\/3\/config$/);
  const operations = activeTab(page).getByTestId('form-template-list');
  await expect(operations).toContainText('运维模板设置');
  await expect(operations.locator('.ant-table-row', { hasText: '设备例行运维检查表' })).toContainText('已发布');
  await expect(operations.locator('.ant-table-row', { hasText: '季度校准记录表' })).toContainText('草稿');
  // A real action on the list: copy a template into a new draft.
  await operations.locator('.ant-table-row', { hasText: '设备例行运维检查表' }).getByRole('button', { name: label('复制') }).click();
  await expect(page.locator('.ant-message-notice', { hasText: '已复制为新的草稿模板' })).toBeVisible();
  await expect(operations.locator('.ant-table-row', { hasText: '设备例行运维检查表（副本）' })).toContainText('草稿');
  await expectNoErrorPanel(page);
  expect(errors).toEqual([]);
});

/** A 1×1 PNG: a real image the upload sniffs as such. */
const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

test('repair staff complete a maintenance order by filling its operations form, with a photo', async ({ page, request }) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'repair');
  const open = await callOperation<Paged<{ code: string; formTemplateId: number | null; canFill: boolean }>>(request, 'maintenance.page', { state: 'assigned' }, token);
  const order = open.data.records.find((record) => record.formTemplateId !== null);
  expect(order?.canFill).toBe(true);
  const code = order!.code;
  await signInAs(page, 'repair');

  await openFromMenu(page, '项目', '现场作业', '维保管理');
  const list = activeTab(page).getByTestId('list-page').first();
  await list.getByTestId('list-filters').first().getByLabel('关键字').fill(code);
  await list.getByRole('button', { name: label('查询') }).first().click();
  const row = list.locator('.ant-table-row', { hasText: code });
  await row.getByRole('button', { name: '完成维保' }).click();
  const drawer = page.locator('.ant-drawer-content');
  const form = drawer.getByTestId('template-form');
  await expect(form).toContainText('运维表单：设备例行运维检查表（v1）');
  await drawer.getByLabel('维保结果').fill('逐项检查完毕，电池电压正常');
  await drawer.getByRole('button', { name: label('提交') }).click();
  await expect(form.getByText('请填写“检查项目”')).toBeVisible();
  await setChecked(form.getByRole('checkbox', { name: '外观' }));
  await setChecked(form.getByRole('checkbox', { name: '电池' }));
  await form.getByLabel('电池电压').fill('3.62');
  await chooseOption(page, form.getByRole('combobox', { name: '设备状态' }), '需关注');
  await form.locator('input[type="file"]').setInputFiles({ name: '检查照片.png', mimeType: 'image/png', buffer: PIXEL_PNG });
  await expect(form.locator('.ant-upload-list-item-done')).toHaveCount(1);
  await drawer.getByRole('button', { name: label('提交') }).click();
  await expect(page.getByText('维保已完成')).toBeVisible();
  await expect(drawer).toBeHidden();
  await expect(row).toContainText('已完成');
  const done = await callOperation<{ state: string; formData: { checklist: string[]; batteryVoltage: number; deviceStatus: string; checkPhotos: string[] } }>(
    request,
    'maintenance.detail',
    { code },
    token,
  );
  expect(done.data).toMatchObject({ state: 'completed', formData: { checklist: ['o1', 'o5'], batteryVoltage: 3.62, deviceStatus: 'o2' } });
  expect(done.data.formData.checkPhotos).toHaveLength(1);
  expect(done.data.formData.checkPhotos[0]).toMatch(/^upload\/\d{4}\/\d{2}\/[0-9a-f]{32}\.png$/);

  // The detail shows the filled form with the photo.
  await row.getByRole('button', { name: label('详情') }).click();
  const detail = activeTab(page).getByTestId('detail-page');
  const filled = detail.locator('.ant-card', { hasText: '填写项' });
  await expect(filled.locator('.ant-table-row', { hasText: '检查项目' })).toContainText('外观、电池');
  await expect(filled.locator('.ant-table-row', { hasText: '检查照片' }).locator('img')).toHaveCount(1);
  await expectNoErrorPanel(page);
  expect(errors).toEqual([]);
});
