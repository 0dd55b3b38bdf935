import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { createDataQueryClient } from '../../../renderers/data/queryClient';
import { decodeListState, encodeListState, PageAddressContext, type ListState, type PageAddress } from '../../../renderers/list/listAddress';
import { lastPage, listStart } from '../../../renderers/list/useListController';
import type { ListPage } from '../../../renderers/schema/types';
import { fakeData, fakeServices, renderWith } from './harness';

const devices = Array.from({ length: 45 }, (_, i) => ({ id: i + 1, deviceCode: `DEV${String(i + 1).padStart(9, '0')}`, state: i % 2 ? 'offline' : 'online' }));

const page = {
  schemaVersion: 1,
  kind: 'list',
  title: '全部设备',
  operation: 'device.page',
  filters: {
    type: 'object',
    properties: {
      deviceCode: { type: 'string', title: '设备编码', 'x-decorator': 'FormItem', 'x-component': 'Input' },
      state: { type: 'string', title: '状态', 'x-decorator': 'FormItem', 'x-component': 'DictSelect', 'x-component-props': { dictType: 'device_state' }, default: 'online' },
      projectId: { type: 'number', title: '项目', 'x-decorator': 'FormItem', 'x-component': 'NumberPicker' },
      createTime: { type: 'array', title: '创建时间', 'x-decorator': 'FormItem', 'x-component': 'DatePicker.RangePicker' },
    },
  },
  columns: [
    { field: 'deviceCode', title: '设备编码', sortable: true },
    { field: 'state', title: '状态', display: 'dict', dictType: 'device_state' },
  ],
  defaultSort: { field: 'createTime', order: 'desc' },
} as const;

const listPage = page as unknown as ListPage;

describe('a list state in the address', () => {
  const start = listStart(listPage);

  it('is empty where the list starts, and holds only what differs from it', () => {
    expect(start).toEqual({ filters: { state: 'online' }, pageNumber: 1, pageSize: 20, sort: [{ field: 'createTime', order: 'desc' }] });
    expect(encodeListState(start, start)).toBe('');
    const moved: ListState = {
      filters: { deviceCode: 'DEV01', projectId: 12, createTime: ['2026-11-01', '2026-11-30'] },
      pageNumber: 3,
      pageSize: 50,
      sort: [{ field: 'deviceCode', order: 'asc' }],
    };
    const text = encodeListState(moved, start);
    expect(new URLSearchParams(text).get('state')).toBe(''); // the default filter, cleared
    expect(Object.fromEntries(new URLSearchParams(text))).toEqual({
      deviceCode: 'DEV01',
      projectId: '12',
      createTime: '["2026-11-01","2026-11-30"]',
      state: '',
      page: '3',
      size: '50',
      sort: 'deviceCode',
    });
    expect(decodeListState(text, start, listPage)).toEqual(moved);
  });

  it('gives every value back with its type: a code of digits stays text, an id a number', () => {
    const state: ListState = { ...start, filters: { deviceCode: '12', state: 'true', projectId: 7 }, sort: [{ field: 'deviceCode', order: 'desc' }] };
    const text = encodeListState(state, start);
    expect(text).toContain('sort=-deviceCode');
    expect(decodeListState(text, start, listPage)).toEqual(state);
  });

  it('keeps what the page does not declare out of a pasted link, and a bad page or size to where the list starts', () => {
    const decoded = decodeListState('password=1&deviceCode=A&page=-2&size=abc&sort=secret', start, listPage);
    expect(decoded).toEqual({ ...start, filters: { state: 'online', deviceCode: 'A' } });
    expect(decodeListState('sort=', start, listPage).sort).toEqual([]);
  });

  it('counts the last page of a list, 1 for an empty one', () => {
    expect(lastPage(41, 20)).toBe(3);
    expect(lastPage(40, 20)).toBe(2);
    expect(lastPage(0, 20)).toBe(1);
  });
});

/**
 * The router's part, as the shell plays it (src/renderer/ConsolePage.tsx): history entries with
 * a list state each, pushed or replaced by the list, moved through by Back and Forward.
 */
function history(initial = '', { lagging = false } = {}) {
  let counter = 0;
  type Entry = { entry: string; state: string; arrival: 'traversal' | 'visit' };
  const entries: Entry[] = [{ entry: `e${counter}`, state: initial, arrival: 'visit' }];
  const writes: Array<{ state: string; mode: 'push' | 'replace' }> = [];
  let index = 0;
  let go: (at: Entry) => void = () => undefined;
  // A lagging router (as the browser's, whose location arrives a render or more after navigate):
  // what is written waits here until `show` puts it in front of the page.
  const unshown: Entry[] = [];
  function Routed({ children }: { children: React.ReactNode }) {
    const [at, setAt] = useState(entries[index]);
    go = setAt;
    const address: PageAddress = {
      ...at,
      write: (state, mode) => {
        writes.push({ state, mode });
        counter += 1;
        const next: Entry = { entry: `e${counter}`, state, arrival: 'visit' };
        if (mode === 'push') entries.splice(++index, entries.length, next);
        else entries[index] = next;
        if (lagging) unshown.push(next);
        else setAt(next);
      },
    };
    return <PageAddressContext.Provider value={address}>{children}</PageAddressContext.Provider>;
  }
  return {
    Routed,
    writes,
    entries,
    /** The router catches up with the oldest write it has not shown. */
    show: () => act(() => go(unshown.shift() as Entry)),
    back: () => act(() => go({ ...entries[--index], arrival: 'traversal' })),
    forward: () => act(() => go({ ...entries[++index], arrival: 'traversal' })),
    /** A new entry of the same page with no state (its tab or menu clicked again). */
    visit: () =>
      act(() => {
        counter += 1;
        entries.splice(++index, entries.length, { entry: `e${counter}`, state: '', arrival: 'visit' });
        go(entries[index]);
      }),
  };
}

/** Several antd pages render at once here: on a loaded 2-core machine that takes longer than the usual 5 s. */
const SLOW = { timeout: 15_000 };

const pagesAsked = (data: ReturnType<typeof fakeData>) =>
  data.calls.filter((c) => c.kind === 'page').map((c) => ({ page: (c.pageParam as { pageNumber: number }).pageNumber, param: c.param, sort: c.sort }));

describe('the list controller and the address', () => {
  it('writes a search and a page into the address, and Back, Forward and a reload restore them', async () => {
    const data = fakeData(devices);
    const services = fakeServices({ data, queries: createDataQueryClient() });
    const route = history();
    const view = renderWith(
      <route.Routed>
        <PageRenderer view="fixture/list" schema={page} />
      </route.Routed>,
      services,
    );
    await screen.findByText('DEV000000001', undefined, SLOW);
    expect(route.writes).toEqual([]);

    await userEvent.type(screen.getByRole('textbox', { name: '设备编码' }), 'DEV0000000');
    await userEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(route.writes).toEqual([{ state: 'deviceCode=DEV0000000', mode: 'push' }]), SLOW);
    await userEvent.click(await screen.findByTitle('2', undefined, SLOW));
    await waitFor(() => expect(route.writes.at(-1)).toEqual({ state: 'deviceCode=DEV0000000&page=2', mode: 'push' }), SLOW);
    await waitFor(() => expect(pagesAsked(data).at(-1)).toMatchObject({ page: 2, param: { state: 'online', deviceCode: 'DEV0000000' } }), SLOW);

    // Back: page 1 of the search; Back again: the list as it started; Forward: the search again.
    route.back();
    await waitFor(() => expect(screen.getByTitle('1').className).toContain('ant-pagination-item-active'), SLOW);
    route.back();
    await waitFor(() => expect(screen.getByRole('textbox', { name: '设备编码' })).toHaveValue(''), SLOW);
    route.forward();
    route.forward();
    await waitFor(() => expect(screen.getByTitle('2').className).toContain('ant-pagination-item-active'), SLOW);
    expect(screen.getByRole('textbox', { name: '设备编码' })).toHaveValue('DEV0000000');
    expect(route.writes).toHaveLength(2); // following the address writes nothing

    // A reload (or a pasted link): a new page, the same address.
    view.unmount();
    const reloaded = fakeData(devices);
    const again = history('deviceCode=DEV0000000&page=2');
    renderWith(
      <again.Routed>
        <PageRenderer view="fixture/list" schema={page} />
      </again.Routed>,
      fakeServices({ data: reloaded, queries: createDataQueryClient() }),
    );
    expect(await screen.findByText('DEV000000021', undefined, SLOW)).toBeInTheDocument();
    expect(pagesAsked(reloaded)).toEqual([{ page: 2, param: { state: 'online', deviceCode: 'DEV0000000' }, sort: [{ field: 'createTime', order: 'desc' }] }]);
    expect(screen.getByRole('textbox', { name: '设备编码' })).toHaveValue('DEV0000000');
    expect(again.writes).toEqual([]);
  });

  it('查询 then 重置 before the address shows the search: the list stays reset when the search entry arrives', async () => {
    const data = fakeData(devices);
    const route = history('', { lagging: true });
    renderWith(
      <route.Routed>
        <PageRenderer view="fixture/list" schema={page} />
      </route.Routed>,
      fakeServices({ data, queries: createDataQueryClient() }),
    );
    await screen.findByText('DEV000000001', undefined, SLOW);
    // Found anew each time: 重置 remounts the field (antd's resetFields).
    const code = () => screen.getByRole('textbox', { name: '设备编码' });
    await userEvent.type(code(), 'DEV0000000');
    await userEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await userEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    // Both moves are in the address: Back from the reset list is the search.
    expect(route.writes).toEqual([
      { state: 'deviceCode=DEV0000000', mode: 'push' },
      { state: '', mode: 'push' },
    ]);
    route.show(); // the search's entry, passed over
    route.show(); // the reset's
    await waitFor(() => expect(pagesAsked(data).at(-1)).toMatchObject({ page: 1, param: { state: 'online' } }), SLOW);
    await waitFor(() => expect(code()).toHaveValue(''), SLOW);
    expect(pagesAsked(data).at(-1)?.param).toEqual({ state: 'online' });
    expect(route.writes).toHaveLength(2);
    // And Back is still followed: the search comes back.
    route.back();
    await waitFor(() => expect(code()).toHaveValue('DEV0000000'), SLOW);
    await waitFor(() => expect(pagesAsked(data).at(-1)?.param).toEqual({ state: 'online', deviceCode: 'DEV0000000' }), SLOW);
  });

  it('writes its state back into a new entry of its page (its tab clicked again), and sorting is part of the state', async () => {
    const data = fakeData(devices);
    const route = history();
    renderWith(
      <route.Routed>
        <PageRenderer view="fixture/list" schema={page} />
      </route.Routed>,
      fakeServices({ data, queries: createDataQueryClient() }),
    );
    await screen.findByText('DEV000000001', undefined, SLOW);
    await userEvent.click(screen.getAllByRole('columnheader', { name: /设备编码/ })[0]);
    await waitFor(() => expect(route.writes.at(-1)).toEqual({ state: 'sort=deviceCode', mode: 'push' }), SLOW);
    await userEvent.click(await screen.findByTitle('3', undefined, SLOW));
    await waitFor(() => expect(route.writes.at(-1)).toEqual({ state: 'page=3&sort=deviceCode', mode: 'push' }), SLOW);
    route.visit();
    await waitFor(() => expect(route.writes.at(-1)).toEqual({ state: 'page=3&sort=deviceCode', mode: 'replace' }), SLOW);
    expect(screen.getByTitle('3').className).toContain('ant-pagination-item-active');
    expect(pagesAsked(data).at(-1)).toMatchObject({ page: 3, sort: [{ field: 'deviceCode', order: 'asc' }] });
  });

  it('a list without an address (a child list) keeps its page in memory', async () => {
    const data = fakeData(devices);
    renderWith(
      <PageAddressContext.Provider value={null}>
        <PageRenderer view="fixture/list" schema={page} />
      </PageAddressContext.Provider>,
      fakeServices({ data, queries: createDataQueryClient() }),
    );
    await screen.findByText('DEV000000001', undefined, SLOW);
    await userEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('DEV000000021', undefined, SLOW)).toBeInTheDocument();
  });

  it('replaces a page the list no longer has with its last one in the address (the clamp is a correction, not a move)', async () => {
    const rows = devices.slice(0, 21);
    const data = fakeData(rows);
    const services = fakeServices({ data, queries: createDataQueryClient(), buttons: ['device.delete'] });
    const withDelete = {
      ...page,
      rowActions: [{ type: 'call', label: '删除', operation: 'device.delete', param: { id: '{{record.id}}' }, permission: 'device.delete' }],
    };
    data.call = (async (operation: string, param?: unknown) => {
      data.calls.push({ kind: 'call', operation, param });
      if (operation === 'device.delete') rows.splice(rows.findIndex((row) => row.id === (param as { id: number }).id), 1);
      return null as never;
    }) as typeof data.call;
    const route = history('page=2');
    renderWith(
      <route.Routed>
        <PageRenderer view="fixture/list" schema={withDelete} />
      </route.Routed>,
      services,
    );
    expect(await screen.findByText('DEV000000021', undefined, SLOW)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /^删\s*除$/ }));
    expect(await screen.findByText('DEV000000001', undefined, SLOW)).toBeInTheDocument();
    await waitFor(() => expect(route.writes).toEqual([{ state: '', mode: 'replace' }]), SLOW);
    expect(screen.getByText('共 20 条')).toBeVisible();
    expect(screen.queryByText('暂无数据')).toBeNull();
  });
});
