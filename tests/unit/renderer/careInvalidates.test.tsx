import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { runAction } from '../../../renderers/actions/runAction';
import { createDataQueryClient } from '../../../renderers/data/queryClient';
import type { Action } from '../../../renderers/schema/types';
import type { DataProvider } from '../../../renderers/services';
import allDevices from '../../../schemas/pages/device/all.json';
import deviceList from '../../../schemas/pages/device/list.json';
import { fakeData, fakeServices, renderWith } from './harness';

// Issue 20: a device put under care in 全部设备 shows at once on 设备列表 open in another tab
// (its 我关注的 count), through the invalidates the page schemas' care actions declare.
const SLOW = { timeout: 15_000 };

/** 设备列表 as it is, without its child table (another page): the overview the statistics answer. */
const overview = { ...deviceList, sections: deviceList.sections.filter((section) => section.type === 'descriptions') };

/** The real 关注 and 取消关注 actions of 全部设备. */
const careAction = (label: string) => allDevices.rowActions.find((action) => action.label === label) as unknown as Action;

describe('关注 in one tab, 设备列表 in another', () => {
  it('the followed count on 设备列表 follows at once', async () => {
    const followed = new Set<string>();
    const data = fakeData();
    data.call = vi.fn(async (operation: string, param?: unknown) => {
      const code = String((param as { code?: unknown } | undefined)?.code);
      if (operation === 'device.care.add') followed.add(code);
      if (operation === 'device.care.remove') followed.delete(code);
      if (operation === 'device.statistics') return { total: 3, followed: followed.size } as never;
      return null as never;
    }) as DataProvider['call'];
    const services = fakeServices({ data, queries: createDataQueryClient(), buttons: ['device.care.add', 'device.care.remove'] });
    renderWith(<PageRenderer view="device/list" schema={overview} />, services);
    // The row of 我关注的, found again each time (the descriptions are drawn again when the answer changes).
    const count = async (value: string) => {
      await screen.findByText('我关注的', undefined, SLOW);
      await waitFor(() => expect(within(screen.getByText('我关注的').closest('tr') as HTMLElement).getByText(value)).toBeInTheDocument(), SLOW);
    };
    await count('0');
    // The action runs from 全部设备 (another tab): its own refresh is that page's, not this one.
    const elsewhere = { services, refresh: () => undefined, openForm: () => undefined };
    await act(() => runAction(careAction('关注'), { record: { code: 'DEV000000001', followed: false } }, elsewhere));
    await count('1');
    await act(() => runAction(careAction('取消关注'), { record: { code: 'DEV000000001', followed: true } }, elsewhere));
    await count('0');
  }, 30_000);
});
