import { hashKey } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { runAction } from '../../../renderers/actions/runAction';
import { entityOf, invalidateAfterChange, isStaleAfter } from '../../../renderers/data/invalidation';
import { operationKey, pageKey } from '../../../renderers/data/keys';
import { createDataQueryClient } from '../../../renderers/data/queryClient';
import type { DataProvider } from '../../../renderers/services';
import { fakeData, fakeServices, renderWith, type Row } from './harness';

const deviceList = {
  schemaVersion: 1,
  kind: 'list',
  title: '全部设备',
  operation: 'device.page',
  columns: [{ field: 'deviceCode', title: '设备编码' }],
};

const deviceDetail = {
  schemaVersion: 1,
  kind: 'detail',
  title: '设备详情',
  load: { operation: 'device.get', param: { id: '{{params.id}}' } },
  sections: [{ title: '基本信息', type: 'descriptions', fields: [{ field: 'deviceCode', title: '设备编码' }] }],
};

const alarmList = { ...deviceList, title: '告警记录', operation: 'alarm.record.page', columns: [{ field: 'alarmName', title: '告警名称' }] };

/** A platform of devices and alarms: the page and get operations answer from what is stored now. */
function platform() {
  const devices: Row[] = [{ id: 1, deviceCode: 'DEV-A' }];
  const alarms: Row[] = [{ id: 1, alarmName: '离线告警' }];
  const asked: string[] = [];
  const data = fakeData();
  data.page = vi.fn(async (operation: string, pageParam: { pageNumber: number; pageSize: number }) => {
    asked.push(operation);
    const rows = operation === 'alarm.record.page' ? alarms : devices;
    const start = (pageParam.pageNumber - 1) * pageParam.pageSize;
    return { records: rows.slice(start, start + pageParam.pageSize), total: rows.length, pageNumber: pageParam.pageNumber, pageSize: pageParam.pageSize } as never;
  }) as DataProvider['page'];
  data.call = vi.fn(async (operation: string, param?: unknown) => {
    asked.push(operation);
    if (operation === 'device.get') return { ...devices.find((d) => d.id === Number((param as { id: unknown }).id)) } as never;
    if (operation === 'device.rename') devices[0] = { ...devices[0], deviceCode: String((param as { deviceCode: string }).deviceCode) };
    return null as never;
  }) as DataProvider['call'];
  return { data, devices, alarms, asked };
}

/** Several antd pages render at once here: on a loaded 2-core machine that takes longer than the usual 5 s. */
const SLOW = { timeout: 15_000 };

describe('query keys', () => {
  it('are the operation name and the param, and for a page also the page, its size and order', () => {
    expect(operationKey('device.get', { id: 1 })).toEqual(['device.get', { id: 1 }]);
    expect(operationKey('organization.tree', undefined)).toEqual(['organization.tree', {}]);
    expect(pageKey('device.page', { state: 'online' }, { pageNumber: 2, pageSize: 20, sort: [{ field: 'createTime', order: 'desc' }] })).toEqual([
      'device.page',
      { state: 'online' },
      { pageNumber: 2, pageSize: 20, sort: [{ field: 'createTime', order: 'desc' }] },
    ]);
  });

  it('name one answer whatever order the param was written in, and another for another page or order', () => {
    const page = { pageNumber: 1, pageSize: 20, sort: [] };
    expect(hashKey(operationKey('device.get', { id: 1, tenant: 'a' }))).toBe(hashKey(operationKey('device.get', { tenant: 'a', id: 1 })));
    expect(hashKey(pageKey('device.page', {}, page))).not.toBe(hashKey(pageKey('device.page', {}, { ...page, pageNumber: 2 })));
    expect(hashKey(pageKey('device.page', {}, page))).not.toBe(hashKey(pageKey('device.page', {}, { ...page, sort: [{ field: 'a', order: 'asc' }] })));
    expect(hashKey(pageKey('device.page', {}, page))).not.toBe(hashKey(pageKey('device.page', { state: 'online' }, page)));
  });
});

describe('invalidation', () => {
  it('takes the entity from the operation name without its verb', () => {
    expect(entityOf('device.delete')).toBe('device');
    expect(entityOf('system.user.modify')).toBe('system.user');
    expect(entityOf('refresh')).toBe('refresh');
    expect(isStaleAfter('device.delete', 'device.page')).toBe(true);
    expect(isStaleAfter('device.delete', 'device.group.list')).toBe(true);
    expect(isStaleAfter('device.delete', 'deviceModel.page')).toBe(false);
    expect(isStaleAfter('device.delete', 'alarm.record.page')).toBe(false);
    expect(isStaleAfter('device.delete', 'alarm.record.page', ['alarm.record.page'])).toBe(true);
    expect(isStaleAfter('system.user.modify', 'system.role.page')).toBe(false);
  });

  it('a call reloads every open page of its entity (one cache, two tabs), not the others', async () => {
    const { data, devices, asked } = platform();
    const services = fakeServices({ data, queries: createDataQueryClient(), buttons: [] });
    renderWith(
      <>
        <PageRenderer view="fixture/devices" schema={deviceList} />
        <PageRenderer view="fixture/device" schema={deviceDetail} params={{ id: '1' }} />
        <PageRenderer view="fixture/alarms" schema={alarmList} />
      </>,
      services,
    );
    await waitFor(() => expect(screen.getAllByText('DEV-A')).toHaveLength(2), SLOW);
    await screen.findByText('离线告警', undefined, SLOW);
    asked.length = 0;

    await act(() => runAction({ type: 'call', label: '改名', operation: 'device.rename', param: { deviceCode: 'DEV-B' } }, {}, { services, refresh: () => undefined, openForm: () => undefined }));
    expect(devices[0].deviceCode).toBe('DEV-B');
    // The list and the detail of devices show the new name; the alarms were not asked again.
    await waitFor(() => expect(screen.getAllByText('DEV-B')).toHaveLength(2), SLOW);
    expect(asked.filter((name) => name !== 'device.rename').sort()).toEqual(['device.get', 'device.page']);
  });

  it('a call also reloads what its action declares in invalidates', async () => {
    const { data, alarms, asked } = platform();
    const services = fakeServices({ data, queries: createDataQueryClient(), buttons: [] });
    renderWith(
      <>
        <PageRenderer view="fixture/devices" schema={deviceList} />
        <PageRenderer view="fixture/alarms" schema={alarmList} />
      </>,
      services,
    );
    await screen.findByText('离线告警', undefined, SLOW);
    asked.length = 0;
    alarms[0] = { id: 1, alarmName: '已处理' };
    await act(() =>
      runAction(
        { type: 'call', label: '改名', operation: 'device.rename', param: { deviceCode: 'DEV-B' }, invalidates: ['alarm.record.page'] },
        {},
        { services, refresh: () => undefined, openForm: () => undefined },
      ),
    );
    expect(await screen.findByText('已处理', undefined, SLOW)).toBeInTheDocument();
    expect(asked.filter((name) => name !== 'device.rename').sort()).toEqual(['alarm.record.page', 'device.page']);
  });

  it('a form submit reloads what shows its entity and what its submit declares, and its load is never a cached copy', async () => {
    const { data, devices, asked } = platform();
    const services = fakeServices({ data, queries: createDataQueryClient() });
    const form = {
      schemaVersion: 1,
      kind: 'form',
      title: '设备',
      load: { operation: 'device.get', param: { id: '{{params.id}}' } },
      submit: { operation: 'device.rename', param: { deviceCode: '{{values.deviceCode}}' }, invalidates: ['alarm.record.page'] },
      schema: { type: 'object', properties: { deviceCode: { type: 'string', title: '设备编码', 'x-decorator': 'FormItem', 'x-component': 'Input' } } },
    };
    renderWith(
      <>
        <PageRenderer view="fixture/devices" schema={deviceList} />
        <PageRenderer view="fixture/alarms" schema={alarmList} />
        <PageRenderer view="fixture/device" schema={deviceDetail} params={{ id: '1' }} />
        <PageRenderer view="fixture/deviceForm" schema={form} params={{ id: '1' }} />
      </>,
      services,
    );
    const input = await screen.findByDisplayValue('DEV-A', undefined, SLOW);
    // The detail and the form ask the same record: the form asks it for itself all the same.
    expect(asked.filter((name) => name === 'device.get')).toHaveLength(2);
    asked.length = 0;
    await userEvent.clear(input);
    await userEvent.type(input, 'DEV-C');
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(screen.getAllByText('DEV-C')).toHaveLength(2), SLOW);
    expect(devices[0].deviceCode).toBe('DEV-C');
    expect(new Set(asked)).toEqual(new Set(['device.rename', 'device.page', 'device.get', 'alarm.record.page']));
  });

  it('an answer nobody shows is only marked stale (asked again when shown), and another entity\'s change leaves it', async () => {
    const queries = createDataQueryClient();
    const fetches = vi.fn(async () => ({ id: 1 }));
    await queries.fetchQuery({ queryKey: operationKey('device.get', { id: 1 }), queryFn: fetches });
    await invalidateAfterChange(queries, 'device.delete');
    expect(fetches).toHaveBeenCalledTimes(1);
    expect(queries.getQueryState(operationKey('device.get', { id: 1 }))?.isInvalidated).toBe(true);
    await invalidateAfterChange(queries, 'alarm.record.handle');
    expect(queries.getQueryCache().findAll({ predicate: (query) => query.state.isInvalidated })).toHaveLength(1);
  });
});

describe('cancellation', () => {
  it('a load given up (the page moved to another record, or went away) is cancelled through its signal and shows nothing', async () => {
    const signals: AbortSignal[] = [];
    const data = fakeData();
    data.call = vi.fn(
      (_operation: string, param?: unknown, options?: { signal?: AbortSignal }) =>
        new Promise((resolve, reject) => {
          const signal = options?.signal as AbortSignal;
          signals.push(signal);
          const id = (param as { id: string }).id;
          // Record 1 never answers: only its cancellation ends it, as the console's client does.
          if (id === '1') signal.addEventListener('abort', () => reject(Object.assign(new Error('请求已取消'), { kind: 'cancelled' })));
          else resolve({ deviceCode: `DEV-${id}` });
        }),
    ) as DataProvider['call'];
    const services = fakeServices({ data, queries: createDataQueryClient() });
    let show: (id: string | null) => void = () => undefined;
    function Host() {
      const [id, setId] = useState<string | null>('1');
      show = setId;
      return id ? <PageRenderer view="fixture/device" schema={deviceDetail} params={{ id }} /> : <p>无</p>;
    }
    renderWith(<Host />, services);
    await waitFor(() => expect(signals).toHaveLength(1), SLOW);
    act(() => show('2'));
    expect(await screen.findByText('DEV-2', undefined, SLOW)).toBeInTheDocument();
    expect(signals[0].aborted).toBe(true);
    expect(screen.queryByText('数据加载失败')).toBeNull();
    expect(screen.queryByText('请求已取消')).toBeNull();

    // Back to record 1 and away before it answers: cancelled again, and nothing is shown of it.
    act(() => show('1'));
    await waitFor(() => expect(signals).toHaveLength(3), SLOW);
    act(() => show(null));
    expect(await screen.findByText('无', undefined, SLOW)).toBeInTheDocument();
    await waitFor(() => expect(signals[2].aborted).toBe(true), SLOW);
    expect(services.notify.error).not.toHaveBeenCalled();
    expect(screen.queryByText('数据加载失败')).toBeNull();
  });
});

describe('a list after a change in another tab', () => {
  it('goes to the new last page when its page was emptied (the page clamp), and asks the pager no empty page', async () => {
    const rows = Array.from({ length: 21 }, (_, i) => ({ id: i + 1, deviceCode: `DEV${String(i + 1).padStart(3, '0')}` }));
    const data = fakeData(rows);
    const services = fakeServices({ data, queries: createDataQueryClient() });
    renderWith(<PageRenderer view="fixture/devices" schema={deviceList} />, services);
    await screen.findByText('DEV001', undefined, SLOW);
    await userEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('DEV021', undefined, SLOW)).toBeInTheDocument();

    // The last row goes (deleted elsewhere): the page comes back empty, the list moves to page 1.
    rows.pop();
    await act(() => invalidateAfterChange(services.queries ?? createDataQueryClient(), 'device.delete'));
    await waitFor(() => expect(data.calls.filter((c) => c.kind === 'page').map((c) => (c.pageParam as { pageNumber: number }).pageNumber)).toEqual([1, 2, 2, 1]), SLOW);
    expect(await screen.findByText('共 20 条', undefined, SLOW)).toBeVisible();
    expect(screen.getByText('DEV001')).toBeInTheDocument();
    expect(screen.queryByTitle('2')).toBeNull();
  });
});
