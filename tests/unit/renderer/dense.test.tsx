import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { MORE_LABEL, rowActionsWidth, splitRowActions, textWidth } from '../../../renderers/actions/RowActions';
import { chartOption } from '../../../renderers/dashboard/options';
import { DISPLAY_KINDS } from '../../../renderers/displays/displays';
import { formTitle, isCreating } from '../../../renderers/form/formMode';
import { requiredMessage, withRequiredMessages } from '../../../renderers/form/formily';
import { fitColumns, minimumWidth } from '../../../renderers/list/columnWidths';
import type { Action, FormPage } from '../../../renderers/schema/types';
import { FORMATS } from '../../../src/format/formats';
import { formatCount, formatNumber } from '../../../src/format/numbers';
import { deviceTrendOption } from '../../../src/screens/bigScreen/panels';
import { NAMED_VALIDATORS } from '../../../src/validation/named';
import { fakeData, fakeServices, renderWith } from './harness';

describe('numbers as people read them (issue 21)', () => {
  it('a count or an amount shows exactly, with thousand separators and at most two decimals', () => {
    expect(formatNumber(6211)).toBe('6,211');
    expect(formatNumber(4958)).toBe('4,958');
    expect(formatNumber(13900)).toBe('13,900');
    expect(formatNumber(1234567.891)).toBe('1,234,567.89');
    expect(formatNumber(0.30000000000000004)).toBe('0.3');
    expect(formatNumber(120.12345)).toBe('120.12');
    expect(formatNumber('9876')).toBe('9,876');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(-0.001)).toBe('0');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(null)).toBe('-');
    expect(formatNumber('')).toBe('-');
    expect(formatNumber(1.5, 0)).toBe('2');
  });

  it('the badge form (SPEC §9) stays for badges; the number display is exact', () => {
    expect(formatCount(6211)).toBe('6000+');
    expect(FORMATS.number(6211)).toBe('6,211');
    expect(FORMATS.number(12345.678)).toBe('12,345.68');
    expect(FORMATS.money(1234567)).toBe('¥1,234,567.00');
  });

  it('the number display is registered and shows a dash for nothing', () => {
    const context = { services: fakeServices(), column: { field: 'n' }, record: {} };
    expect(DISPLAY_KINDS.get('number')?.render(6211, context)).toBe('6,211');
    expect(DISPLAY_KINDS.get('number')?.render(null, context)).toBe('-');
  });

  it('a KPI card shows the exact number, not the floored badge form', async () => {
    const data = fakeData();
    data.call = vi.fn(async () => ({ deviceTotal: 6211, onlineCount: 4958 }) as never);
    const page = {
      schemaVersion: 1,
      kind: 'dashboard',
      title: '设备概览',
      widgets: [
        { type: 'statistic', title: '设备总数', operation: 'dashboard.overview', valueField: 'deviceTotal', display: 'number' },
        { type: 'statistic', title: '在线设备', operation: 'dashboard.overview', valueField: 'onlineCount' },
      ],
    };
    renderWith(<PageRenderer view="fixture/kpi" schema={page} />, fakeServices({ data }));
    expect(await screen.findByText('6,211')).toBeInTheDocument();
    // A statistic without a display is antd's number: grouped as well.
    const cards = await screen.findAllByTestId('dashboard-widget');
    await waitFor(() => expect(cards[1]).toHaveTextContent('4,958'));
    expect(screen.queryByText('6000+')).toBeNull();
  });

  it('chart axes, tooltips and gauges write numbers with separators and at most two decimals', () => {
    const bar = chartOption({ type: 'bar', title: '每日告警', operation: 'x', x: 'day', y: 'count' }, [{ day: '11-24', count: 12345.6789 }]) as {
      yAxis: { axisLabel: { formatter: (value: number) => string } };
      tooltip: { valueFormatter: (value: unknown) => string };
    };
    expect(bar.yAxis.axisLabel.formatter(12345.6789)).toBe('12,345.68');
    expect(bar.yAxis.axisLabel.formatter(0.123456)).toBe('0.12');
    expect(bar.tooltip.valueFormatter(1500000)).toBe('1,500,000');
    const gauge = chartOption({ type: 'gauge', title: '在线率', operation: 'x', valueField: 'rate', suffix: '%' }, { rate: 79.83456 }) as {
      series: Array<{ detail: { formatter: (value: number) => string } }>;
    };
    expect(gauge.series[0].detail.formatter(79.83456)).toBe('79.83%');
    const pie = chartOption({ type: 'pie', title: '告警类型分布', operation: 'x' }, [{ name: '温度过高', value: 1234 }]) as {
      tooltip: { formatter: (item: { name: string; value: number; percent: number }) => string };
    };
    expect(pie.tooltip.formatter({ name: '温度过高', value: 1234, percent: 33.33333 })).toBe('温度过高：1,234（33.33%）');
  });

  it('the big screen\'s axes say 6,210 and at most two decimals', () => {
    const option = deviceTrendOption([{ day: '2026-11-24', newDevices: 3, totalDevices: 6210 }]) as {
      yAxis: Array<{ axisLabel: { formatter: (value: number) => string } }>;
      tooltip: { valueFormatter: (value: unknown) => string };
    };
    expect(option.yAxis[1].axisLabel.formatter(6210.123456)).toBe('6,210.12');
    expect(option.yAxis[0].axisLabel.formatter(2.5)).toBe('2.5');
    expect(option.tooltip.valueFormatter(6210)).toBe('6,210');
  });
});

const link = (label: string, extra: Partial<Action> = {}): Action => ({ type: 'navigate', label, to: '/x', ...extra }) as Action;

describe('row actions (issue 21)', () => {
  it('at most three links: the first three a record shows, the rest under 更多', () => {
    const three = [link('详情'), link('编辑'), link('删除')];
    expect(splitRowActions(three)).toEqual({ links: three, more: [] });
    const seven = ['详情', '编辑', '重置密码', '重置手机号', '所属组织', '停用', '删除'].map((label) => link(label));
    const { links, more } = splitRowActions(seven);
    expect(links.map((a) => a.label)).toEqual(['详情', '编辑', '重置密码']);
    expect(more.map((a) => a.label)).toEqual(['重置手机号', '所属组织', '停用', '删除']);
  });

  it('the 操作 column is as wide as the widest links a row can show, on one line', () => {
    expect(textWidth('详情')).toBe(28);
    expect(textWidth('IMEI')).toBe(32);
    const few = rowActionsWidth([link('详情'), link('编辑')]);
    expect(few).toBe(28 + 8 + 28 + 8 + 24);
    const active = { visibleWhen: "{{record.status === '1'}}" };
    const many = rowActionsWidth([link('详情'), link('编辑'), link('重置密码', active), link('重置手机号'), link('所属组织'), link('停用', active), link('删除')]);
    // The widest first three: 详情 编辑 重置手机号 (a stopped user has no 重置密码), and 更多.
    expect(many).toBe(28 + 8 + 28 + 8 + 70 + 8 + (28 + 20 + 8) + 24);
    expect(rowActionsWidth([])).toBe(0);
  });

  it('columns of free text narrow until the table fits its card; others keep their width', () => {
    const columns = [
      { width: 200, min: 72, shrinkable: true },
      { width: 180, min: 72, shrinkable: false },
      { width: 100, min: 100, shrinkable: true },
      { width: 172, min: 72, shrinkable: true },
    ];
    expect(fitColumns(columns, 0, 100)).toEqual([200, 180, 100, 172]);
    expect(fitColumns(columns, 2000, 100)).toEqual([200, 180, 100, 172]);
    // 752 asked + 100 fixed in 752: 100 to give from 128 + 100 of slack.
    const fitted = fitColumns(columns, 752, 100);
    expect(fitted[1]).toBe(180);
    expect(fitted[2]).toBe(100);
    expect(fitted.reduce((sum, w) => sum + w, 0) + 100).toBeLessThanOrEqual(752);
    // Not enough slack: every shrinkable column at its minimum, and the table scrolls.
    expect(fitColumns(columns, 300, 100)).toEqual([72, 180, 100, 72]);
    expect(minimumWidth('用户名称', true)).toBe(56 + 16 + 26);
    expect(minimumWidth('号', false)).toBe(72);
  });

  it('a list shows three links and 更多; 更多 opens the rest, keyboard included, and runs them', async () => {
    const rows = [{ id: 1, name: '甲', status: '1' }];
    const data = fakeData(rows);
    const services = fakeServices({ data, buttons: ['user.delete', 'user.modify'] });
    const page = {
      schemaVersion: 1,
      kind: 'list',
      title: '用户管理',
      operation: 'user.page',
      columns: [{ field: 'name', title: '名称' }],
      rowActions: [
        { type: 'navigate', label: '详情', to: '/system/user/detail', query: { id: '{{record.id}}' } },
        { type: 'navigate', label: '编辑', to: '/system/user/edit', permission: 'user.modify' },
        { type: 'navigate', label: '重置密码', to: '/system/user/password', visibleWhen: "{{record.status === '1'}}" },
        { type: 'navigate', label: '所属组织', to: '/system/user/org' },
        { type: 'call', label: '删除', operation: 'user.delete', param: { id: '{{record.id}}' }, confirm: '确认删除该用户？', permission: 'user.delete', danger: true },
        { type: 'call', label: '隐藏', operation: 'user.hide', permission: 'user.hide' },
      ],
    };
    renderWith(<PageRenderer view="fixture/users" schema={page} />, services);
    const row = (await screen.findByText('甲')).closest('tr');
    if (!row) throw new Error('no row');
    const actions = within(row).getByTestId('row-actions');
    expect(within(actions).getAllByRole('button').map((b) => b.textContent?.replace(/\s/g, ''))).toEqual(['详情', '编辑', '重置密码', MORE_LABEL]);

    // By keyboard: focus 更多, open it with Enter, the menu lists the rest (not the unpermitted 隐藏).
    within(actions).getByRole('button', { name: new RegExp(MORE_LABEL) }).focus();
    await userEvent.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['所属组织', '删除']);
    await userEvent.click(within(menu).getByRole('menuitem', { name: '所属组织' }));
    expect(services.navigate).toHaveBeenCalledWith('/system/user/org');

    // An action that asks first asks as its link would (a confirmation popover, at 更多), then runs.
    await userEvent.click(within(actions).getByRole('button', { name: new RegExp(MORE_LABEL) }));
    await userEvent.click(await screen.findByRole('menuitem', { name: '删除' }));
    const confirm = (await screen.findByText('确认删除该用户？')).closest('.ant-popconfirm');
    if (!(confirm instanceof HTMLElement)) throw new Error('no popconfirm');
    expect(data.calls.some((c) => c.operation === 'user.delete')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(data.calls.some((c) => c.operation === 'user.delete')).toBe(true));
  });
});

describe('forms (issue 21)', () => {
  const userForm = {
    schemaVersion: 1,
    kind: 'form',
    title: '用户',
    load: { operation: 'user.detail', param: { id: '{{params.id}}' } },
    submit: { operation: 'user.modify', createOperation: 'user.insert' },
    schema: { type: 'object', properties: {} },
  } as FormPage;

  it('a form that creates and edits one entity is titled 新增X / 编辑X; other forms keep their title', () => {
    expect(isCreating(userForm, {})).toBe(true);
    expect(formTitle(userForm, {})).toBe('新增用户');
    expect(formTitle(userForm, { id: 7 })).toBe('编辑用户');
    expect(formTitle({ ...userForm, title: '派单', submit: { operation: 'order.assign' } }, { id: 7 })).toBe('派单');
    expect(formTitle({ ...userForm, title: '新建维修工单' }, {})).toBe('新建维修工单');
  });

  it('the drawer says 新增用户 from the toolbar and 编辑用户 from a row', async () => {
    const data = fakeData([{ id: 3, name: '甲' }]);
    data.call = vi.fn(async () => ({ loginName: 'a', userName: '甲' }) as never);
    const list = {
      schemaVersion: 1,
      kind: 'list',
      title: '用户管理',
      operation: 'user.page',
      columns: [{ field: 'name', title: '名称' }],
      toolbar: [{ type: 'openForm', label: '新增用户', page: 'system/userForm' }],
      rowActions: [{ type: 'openForm', label: '编辑', page: 'system/userForm', params: { id: '{{record.id}}' } }],
    };
    renderWith(<PageRenderer view="fixture/users" schema={list} />, fakeServices({ data }));
    await userEvent.click(await screen.findByRole('button', { name: '新增用户' }));
    const created = await screen.findByRole('dialog');
    await within(created).findByRole('textbox', { name: '账号' });
    expect(within(created).getByText('新增用户')).toHaveClass('ant-drawer-title');
    await userEvent.click(within(created).getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(await screen.findByRole('button', { name: /编\s*辑/ }));
    const edited = await screen.findByRole('dialog');
    await waitFor(() => expect(within(edited).getByRole('textbox', { name: '账号' })).toHaveValue('a'));
    expect(within(edited).getByText('编辑用户')).toHaveClass('ant-drawer-title');
  });

  it('an empty required field names itself: 请输入 for inputs, 请选择 for selects, pickers and trees', () => {
    expect(requiredMessage('账号', 'Input')).toBe('请输入账号');
    expect(requiredMessage('备注', 'Input.TextArea')).toBe('请输入备注');
    expect(requiredMessage('数量', 'NumberPicker')).toBe('请输入数量');
    expect(requiredMessage('角色', 'OperationSelect')).toBe('请选择角色');
    expect(requiredMessage('状态', 'DictSelect')).toBe('请选择状态');
    expect(requiredMessage('组织', 'OperationTreeSelect')).toBe('请选择组织');
    expect(requiredMessage('计划时间', 'DatePicker.RangePicker')).toBe('请选择计划时间');
    expect(requiredMessage('时段', 'TimePicker')).toBe('请选择时段');
    expect(requiredMessage('类型', 'Radio.Group')).toBe('请选择类型');
    expect(requiredMessage('图片', 'FileUpload')).toBe('请上传图片');
    // A SPEC §5 rule keeps its own words for an empty value.
    expect(requiredMessage('新密码', 'Password', ['newPassword'], NAMED_VALIDATORS)).toBe('请输入新密码!');
    expect(requiredMessage('手机号', 'Input', ['phone'], NAMED_VALIDATORS)).toBe('请输入手机号');
    expect(requiredMessage('设备编码', 'Input', ['deviceCode'], NAMED_VALIDATORS)).toBe('请输入设备编码');
  });

  it('every titled field carries its required rule, on only where the field is required', () => {
    const prepared = withRequiredMessages({
      type: 'object',
      required: ['listed'],
      properties: {
        loginName: { type: 'string', title: '账号', required: true, 'x-component': 'Input', 'x-validator': 'genericCode' },
        roleCode: { type: 'string', title: '角色', 'x-component': 'OperationSelect' },
        listed: { type: 'string', title: '区域', 'x-component': 'TreeSelect' },
        grid: { type: 'void', 'x-component': 'FormGrid', properties: { remark: { type: 'string', title: '备注', 'x-component': 'Input' } } },
      },
    }) as { properties: Record<string, { 'x-validator'?: unknown; properties?: Record<string, { 'x-validator'?: unknown }> }> };
    expect(prepared.properties.loginName['x-validator']).toEqual([{ required: true, message: '请输入账号' }, 'genericCode']);
    expect(prepared.properties.roleCode['x-validator']).toEqual([{ required: false, message: '请选择角色' }]);
    expect(prepared.properties.listed['x-validator']).toEqual([{ required: true, message: '请选择区域' }]);
    expect(prepared.properties.grid['x-validator']).toBeUndefined();
    expect(prepared.properties.grid.properties?.remark['x-validator']).toEqual([{ required: false, message: '请输入备注' }]);
  });

  it('submitting empty shows 请输入账号 and 请选择角色, also for a field made required by a reaction', async () => {
    const page = {
      schemaVersion: 1,
      kind: 'form',
      title: '用户',
      submit: { operation: 'user.insert' },
      schema: {
        type: 'object',
        properties: {
          loginName: { type: 'string', title: '账号', required: true, 'x-decorator': 'FormItem', 'x-component': 'Input' },
          state: { type: 'string', title: '状态', required: true, 'x-decorator': 'FormItem', 'x-component': 'DictSelect', 'x-component-props': { dictType: 'device_state' } },
          kind: { type: 'string', title: '类型', default: 'a', 'x-decorator': 'FormItem', 'x-component': 'Input' },
          detail: {
            type: 'string',
            title: '说明',
            'x-decorator': 'FormItem',
            'x-component': 'Input',
            'x-reactions': { dependencies: ['kind'], fulfill: { state: { required: "{{$deps[0] === 'a'}}" } } },
          },
        },
      },
    };
    const data = fakeData();
    renderWith(<PageRenderer view="fixture/create" schema={page} />, fakeServices({ data }));
    await userEvent.click(await screen.findByRole('button', { name: /提\s*交/ }));
    expect(await screen.findByText('请输入账号')).toBeInTheDocument();
    expect(await screen.findByText('请选择状态')).toBeInTheDocument();
    expect(await screen.findByText('请输入说明')).toBeInTheDocument();
    expect(screen.queryByText('该字段是必填字段')).toBeNull();
    expect(data.calls.some((c) => c.operation === 'user.insert')).toBe(false);
  });
});

describe('rich text for HTML fields (issue 21)', () => {
  const page = {
    schemaVersion: 1,
    kind: 'form',
    title: '消息',
    load: { operation: 'notice.detail', param: { code: '{{params.code}}' } },
    submit: { operation: 'notice.modify', createOperation: 'notice.insert', param: { code: '{{params.code}}', notice: '{{values}}' } },
    schema: {
      type: 'object',
      properties: {
        body: { type: 'string', title: '正文', required: true, 'x-decorator': 'FormItem', 'x-component': 'RichText', 'x-component-props': { rows: 6 } },
      },
    },
  };

  it('tells markup typed or pasted as text from plain text', async () => {
    const { looksLikeMarkup } = await import('../../../renderers/form/widgets/RichText');
    expect(looksLikeMarkup('<p>湖滨<strong>巡检</strong></p>')).toBe(true);
    expect(looksLikeMarkup('温度 < 30 且 > 10')).toBe(false);
    expect(looksLikeMarkup('a')).toBe(false);
  });

  it('shows the loaded HTML formatted, with a labelled toolbar, and 源码 edits the HTML that is submitted', async () => {
    const data = fakeData();
    data.call = vi.fn(async (operation: string, param?: unknown) => {
      data.calls.push({ kind: 'call', operation, param });
      return (operation === 'notice.detail' ? { body: '<p>湖滨监测站<strong>周五巡检</strong></p>' } : null) as never;
    });
    const services = fakeServices({ data });
    renderWith(<PageRenderer view="fixture/notice" schema={page} params={{ code: 'N1' }} />, services);
    expect(await screen.findByText('编辑消息')).toBeInTheDocument();
    const editor = await screen.findByRole('textbox', { name: '正文' });
    await waitFor(() => expect(editor.querySelector('strong')).toHaveTextContent('周五巡检'));
    for (const name of ['加粗', '斜体', '下划线', '无序列表', '有序列表', '链接', '撤销', '重做']) expect(screen.getByRole('button', { name })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /源码/ }));
    const source = screen.getByRole('textbox', { name: '正文（HTML 源码）' });
    expect(source).toHaveValue('<p>湖滨监测站<strong>周五巡检</strong></p>');
    await userEvent.clear(source);
    await userEvent.type(source, '<p>改为<em>周六</em></p>');
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(data.calls.find((c) => c.operation === 'notice.modify')).toMatchObject({ param: { code: 'N1', notice: { body: '<p>改为<em>周六</em></p>' } } }));
    await userEvent.click(screen.getByRole('button', { name: /源码/ }));
    expect((await screen.findByRole('textbox', { name: '正文' })).querySelector('em')).toHaveTextContent('周六');
  });

  it('an empty editor is an empty value: 请输入正文', async () => {
    const data = fakeData();
    renderWith(<PageRenderer view="fixture/notice" schema={{ ...page, load: undefined }} />, fakeServices({ data }));
    expect(await screen.findByRole('textbox', { name: '正文' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    expect(await screen.findByText('请输入正文')).toBeInTheDocument();
    expect(data.calls.some((c) => c.operation === 'notice.insert')).toBe(false);
  });
});

describe('chart axes (issue 21)', () => {
  it('the offline map labels round ticks only, not the extent\'s five decimals', async () => {
    const { offlineMapOption } = await import('../../../src/maps/offlineOption');
    const option = offlineMapOption([{ code: 'A', name: 'A', longitude: 119.93508, latitude: 30.10404, onlineState: 'online' } as never, { code: 'B', name: 'B', longitude: 120.37492, latitude: 30.44397, onlineState: 'online' } as never], { stateLabel: (s) => s }) as {
      xAxis: { axisLabel: { showMinLabel: boolean; showMaxLabel: boolean; formatter: (value: number) => string } };
    };
    expect(option.xAxis.axisLabel).toMatchObject({ showMinLabel: false, showMaxLabel: false });
    expect(option.xAxis.axisLabel.formatter(120.1)).toBe('120.1°E');
  });

  it('a few categories are all named on the axis', () => {
    const few = chartOption({ type: 'bar', title: '各类型', operation: 'x', x: 'type', y: 'count' }, [1, 2, 3, 4].map((n) => ({ type: `类型${n}`, count: n }))) as { xAxis: { axisLabel: { interval?: number } } };
    expect(few.xAxis.axisLabel.interval).toBe(0);
    const many = chartOption({ type: 'line', title: '每日', operation: 'x', x: 'day', y: 'count' }, Array.from({ length: 30 }, (_, n) => ({ day: String(n), count: n }))) as { xAxis: { axisLabel: { interval?: number } } };
    expect(many.xAxis.axisLabel.interval).toBeUndefined();
  });
});
