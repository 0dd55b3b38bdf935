import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { RendererContext, type RendererServices } from '../../../renderers/services';
import { fakeData, fakeServices, renderWith } from './harness';

const devices = Array.from({ length: 45 }, (_, i) => ({
  id: i + 1,
  deviceCode: `DEV${String(i + 1).padStart(9, '0')}`,
  state: i % 2 ? 'offline' : 'online',
  alarmCount: i * 700,
  phone: '13800000001',
}));

const listPage = {
  schemaVersion: 1,
  kind: 'list',
  title: '全部设备',
  operation: 'device.page',
  filters: {
    type: 'object',
    properties: {
      deviceCode: { type: 'string', title: '设备编码', 'x-decorator': 'FormItem', 'x-component': 'Input' },
      state: { type: 'string', title: '状态', 'x-decorator': 'FormItem', 'x-component': 'DictSelect', 'x-component-props': { dictType: 'device_state' } },
    },
  },
  columns: [
    { field: 'deviceCode', title: '设备编码', sortable: true },
    { field: 'state', title: '状态', display: 'dict', dictType: 'device_state' },
    { field: 'alarmCount', title: '告警数', display: 'count' },
    { field: 'phone', title: '联系电话', display: 'phone' },
  ],
  toolbar: [{ type: 'openForm', label: '新增', page: 'fixture/form', permission: 'device.insert' }],
  rowActions: [
    { type: 'call', label: '删除', operation: 'device.delete', param: { id: '{{record.id}}' }, confirm: '确认删除该设备？', permission: 'device.delete', danger: true },
    { type: 'navigate', label: '详情', to: '/device/detail', query: { id: '{{record.id}}' } },
  ],
  batchActions: [{ type: 'call', label: '批量删除', operation: 'device.batchDelete', param: { ids: '{{selection.keys}}' }, permission: 'device.delete' }],
  export: { operation: 'device.export', permission: 'device.export' },
};

describe('list renderer', () => {
  it('shows a long list\'s total with separators, and one the server only estimated as what it counted, the pager reaching the estimate\'s last page', async () => {
    const data = fakeData(devices);
    const counted = 20 * 300;
    data.page = vi.fn(async (_operation, pageParam) => ({ records: devices.slice(0, 20), total: 61_234, totalAtLeast: 10_000, pageNumber: pageParam.pageNumber, pageSize: pageParam.pageSize }) as never);
    renderWith(<PageRenderer view="fixture/list" schema={listPage} />, fakeServices({ data }));
    expect(await screen.findByText('共 10,000+ 条')).toBeVisible();
    // 61,234 rows of 20: the pager's last page is 3,062.
    expect(screen.getByTitle('3062')).toBeInTheDocument();

    const exact = fakeData(devices);
    exact.page = vi.fn(async (_operation, pageParam) => ({ records: devices.slice(0, 20), total: counted + 7, pageNumber: pageParam.pageNumber, pageSize: pageParam.pageSize }) as never);
    renderWith(<PageRenderer view="fixture/list" schema={listPage} />, fakeServices({ data: exact }));
    expect(await screen.findByText('共 6,007 条')).toBeVisible();
  });

  it('renders rows with their displays, pages and sorts through the page operation', async () => {
    const data = fakeData(devices);
    renderWith(<PageRenderer view="fixture/list" schema={listPage} />, fakeServices({ data, buttons: ['device.delete', 'device.export', 'device.insert'] }));
    expect(await screen.findByText('DEV000000001')).toBeInTheDocument();
    expect(screen.getAllByText('在线').length).toBeGreaterThan(0);
    expect(screen.getByText('共 45 条')).toBeVisible();
    expect(screen.getAllByText('1380****0001').length).toBeGreaterThan(0);
    expect(data.calls[0]).toMatchObject({ kind: 'page', operation: 'device.page', pageParam: { pageNumber: 1, pageSize: 20 }, sort: [] });

    await userEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(data.calls.at(-1)).toMatchObject({ pageParam: { pageNumber: 2, pageSize: 20 } }));
    expect(await screen.findByText('DEV000000021')).toBeInTheDocument();

    await userEvent.click(screen.getAllByRole('columnheader', { name: /设备编码/ })[0]);
    await waitFor(() => expect(data.calls.at(-1)).toMatchObject({ pageParam: { pageNumber: 1 }, sort: [{ field: 'deviceCode', order: 'asc' }] }));
  });

  it('sends the filter values as param and resets them', async () => {
    const data = fakeData(devices);
    renderWith(<PageRenderer view="fixture/list" schema={listPage} />, fakeServices({ data }));
    await screen.findByText('DEV000000001');
    const filters = screen.getByTestId('list-filters');
    await userEvent.type(within(filters).getByRole('textbox'), 'DEV0001');
    await userEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(data.calls.at(-1)).toMatchObject({ param: { deviceCode: 'DEV0001' }, pageParam: { pageNumber: 1 } }));
    await userEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(data.calls.at(-1)).toMatchObject({ param: {} }));
  });

  it('shows an action only when the route button list holds its permission', async () => {
    renderWith(<PageRenderer view="fixture/list" schema={listPage} />, fakeServices({ data: fakeData(devices), buttons: [] }));
    await screen.findByText('DEV000000001');
    expect(screen.queryByRole('button', { name: /^删\s*除$/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /新\s*增/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
    expect(screen.getAllByRole('button', { name: /详\s*情/ }).length).toBeGreaterThan(0);
  });

  it('asks before a row call, then calls it with the record and reloads', async () => {
    const data = fakeData(devices);
    const services = fakeServices({ data, buttons: ['device.delete'] });
    renderWith(<PageRenderer view="fixture/list" schema={listPage} />, services);
    await screen.findByText('DEV000000001');
    const before = data.calls.length;
    await userEvent.click(screen.getAllByRole('button', { name: /^删\s*除$/ })[0]);
    expect(await screen.findByText('确认删除该设备？')).toBeInTheDocument();
    expect(data.calls).toHaveLength(before);
    await userEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(data.calls.find((c) => c.operation === 'device.delete')).toMatchObject({ param: { id: 1 } }));
    expect(services.notify.success).toHaveBeenCalledWith('设置成功！');
    await waitFor(() => expect(data.calls.at(-1)?.kind).toBe('page'));
  });

  it('runs a batch action on the selected rows', async () => {
    const data = fakeData(devices);
    renderWith(<PageRenderer view="fixture/list" schema={listPage} />, fakeServices({ data, buttons: ['device.delete'] }));
    await screen.findByText('DEV000000001');
    const batch = screen.getByRole('button', { name: '批量删除' });
    expect(batch).toBeDisabled();
    const boxes = screen.getAllByRole('checkbox');
    await userEvent.click(boxes[1]);
    await userEvent.click(boxes[2]);
    expect(screen.getByText('已选择 2 项')).toBeInTheDocument();
    await userEvent.click(batch);
    await waitFor(() => expect(data.calls.find((c) => c.operation === 'device.batchDelete')).toMatchObject({ param: { ids: ['1', '2'] } }));
  });

  it('draws no cell again when a row is selected, and all of them when the dictionaries change', async () => {
    const data = fakeData(devices);
    const first = fakeServices({ data, buttons: ['device.delete'] });
    const label = vi.fn(first.dictionaries.label);
    let switchServices: (next: RendererServices) => void = () => undefined;
    function Switchable() {
      const [services, setServices] = useState<RendererServices>({ ...first, dictionaries: { ...first.dictionaries, label } });
      switchServices = setServices;
      return (
        <RendererContext.Provider value={services}>
          <PageRenderer view="fixture/list" schema={listPage} />
        </RendererContext.Provider>
      );
    }
    renderWith(<Switchable />, first);
    await screen.findByText('DEV000000001');
    const drawn = label.mock.calls.length;
    // One state cell for each of the 20 rows of the first page, drawn at least once.
    expect(drawn).toBeGreaterThanOrEqual(20);
    await userEvent.click(screen.getAllByRole('checkbox')[1]);
    await userEvent.click(screen.getAllByRole('checkbox')[0]);
    expect(screen.getByText('已选择 20 项')).toBeInTheDocument();
    expect(label.mock.calls.length).toBe(drawn);

    // New services (a session with other dictionaries): every cell is drawn with them.
    act(() => switchServices({ ...first, dictionaries: { ...first.dictionaries, label: (_type, value) => (value === 'online' ? '在线（新）' : '离线（新）') } }));
    expect(await screen.findAllByText('在线（新）')).toHaveLength(10);
    expect(screen.queryByText('在线')).toBeNull();
  });

  it('cuts free text to one line but shows counts, phones and other formats whole unless a column says otherwise', async () => {
    const schema = { ...listPage, columns: [...listPage.columns, { field: 'id', title: '序号', display: 'count', ellipsis: true }] };
    renderWith(<PageRenderer view="fixture/list" schema={schema} />, fakeServices({ data: fakeData(devices) }));
    const code = (await screen.findByText('DEV000000002')).closest('td');
    const row = code?.closest('tr') as HTMLElement;
    const cut = (text: string) => within(row).getByText(text).closest('td')?.classList.contains('ant-table-cell-ellipsis');
    // An identifier (设备编码) is never cut (issue 34): whole, in the identifier face.
    expect(code?.classList.contains('ant-table-cell-ellipsis')).toBe(false);
    expect(code?.classList.contains('list-identifier')).toBe(true);
    expect(cut('离线')).toBe(true);
    expect(cut('700')).toBe(false);
    expect(cut('1380****0001')).toBe(false);
    expect(cut('2')).toBe(true);
  });

  it('exports with the current filters', async () => {
    const data = fakeData(devices);
    const services = fakeServices({ data, buttons: ['device.export'] });
    renderWith(<PageRenderer view="fixture/list" schema={listPage} />, services);
    await screen.findByText('DEV000000001');
    await userEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    await waitFor(() => expect(data.calls.find((c) => c.kind === 'download')).toMatchObject({ operation: 'device.export', param: {} }));
    expect(services.notify.success).toHaveBeenCalledWith('已导出 导出.xlsx');
  });

  it('hides a column from the column settings and remembers it for the page', async () => {
    window.localStorage.clear();
    const first = renderWith(<PageRenderer view="fixture/list" schema={listPage} />, fakeServices({ data: fakeData(devices) }));
    await screen.findByText('DEV000000001');
    await userEvent.click(screen.getByRole('button', { name: '列设置' }));
    const settings = await screen.findByTestId('column-settings');
    await userEvent.click(within(settings).getByRole('checkbox', { name: '告警数' }));
    await waitFor(() => expect(screen.queryAllByRole('columnheader', { name: '告警数' })).toHaveLength(0));
    first.unmount();
    renderWith(<PageRenderer view="fixture/list" schema={listPage} />, fakeServices({ data: fakeData(devices) }));
    await screen.findByText('DEV000000001');
    expect(screen.queryAllByRole('columnheader', { name: '告警数' })).toHaveLength(0);
    expect(screen.getAllByRole('columnheader', { name: '状态' }).length).toBeGreaterThan(0);
    window.localStorage.clear();
  });

  it('virtualises a long page when the schema asks for it', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ id: i + 1, deviceCode: `DEV${String(i + 1).padStart(9, '0')}`, state: 'online', alarmCount: 1, phone: '' }));
    const { container } = renderWith(<PageRenderer view="fixture/list" schema={{ ...listPage, virtual: true, pageSize: 1000 }} />, fakeServices({ data: fakeData(many) }));
    expect(await screen.findByText('DEV000000001')).toBeInTheDocument();
    expect(container.querySelector('.ant-table-tbody-virtual')).not.toBeNull();
    expect(container.querySelectorAll('.ant-table-row').length).toBeLessThan(200);
  });

  it('shows an empty state, and an error state with a retry', async () => {
    const data = fakeData([]);
    let fail = true;
    data.page = async (operation, pageParam) => {
      if (fail) throw Object.assign(new Error('系统错误，请联系管理员'), { kind: 'network' });
      return { records: [], total: 0, pageNumber: pageParam.pageNumber, pageSize: pageParam.pageSize } as never;
    };
    const { container } = renderWith(<PageRenderer view="fixture/list" schema={listPage} />, fakeServices({ data }));
    expect(await screen.findByText('数据加载失败')).toBeInTheDocument();
    // Nothing to page: the pagination is there (mounted from the start) but not shown.
    expect(container.querySelector<HTMLElement>('.ant-pagination')?.style.display).toBe('none');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect((await screen.findAllByText('暂无数据')).length).toBeGreaterThan(0);
    expect(container.querySelector<HTMLElement>('.ant-pagination')?.style.display).toBe('none');
  });

  it('loads again by itself when the platform is back after a failed load, and only then', async () => {
    const data = fakeData([{ id: 1, deviceCode: 'ABCDEF123456', deviceName: '1号水表', state: 'online' }]);
    const loadRows = data.page;
    let reachable = false;
    let calls = 0;
    data.page = async (...args: Parameters<typeof loadRows>) => {
      calls += 1;
      if (!reachable) throw Object.assign(new Error('系统错误，请联系管理员'), { kind: 'network' });
      return loadRows(...args);
    };
    const listeners = new Set<() => void>();
    const reconnected = (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    };
    renderWith(<PageRenderer view="fixture/list" schema={listPage} />, fakeServices({ data, reconnected }));
    expect(await screen.findByText('数据加载失败')).toBeInTheDocument();
    expect(listeners.size).toBe(1);
    reachable = true;
    act(() => listeners.forEach((listener) => listener()));
    expect(await screen.findByText('ABCDEF123456')).toBeInTheDocument();
    expect(calls).toBe(2);
    // Loaded: nothing listens any more, so a later recovery loads nothing again.
    expect(listeners.size).toBe(0);
  });
});
