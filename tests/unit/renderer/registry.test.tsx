import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import type { ActionHandler, DashboardWidgetProps } from '../../../renderers/services';
import { fakeData, fakeServices, renderWith } from './harness';

vi.mock('../../../renderers/dashboard/Chart', () => ({ Chart: () => null }));

/** A widget of the console's own: a ring of the online share, drawn from the operation's answer. */
function OnlineRing({ widget, data, params }: DashboardWidgetProps) {
  const { online, total } = data as { online: number; total: number };
  return (
    <div role="meter" aria-label={widget.title} aria-valuenow={Math.round((online / total) * 100)}>
      {params.orgCode as string}：{online}/{total}
    </div>
  );
}

describe('open registries (issue 20): the shell adds dashboard widgets through the renderer context', () => {
  it('a registered widget type draws its operation answer in the card; an unregistered one says so', async () => {
    const data = fakeData();
    data.call = vi.fn(async () => ({ online: 30, total: 40 }) as never);
    const page = {
      schemaVersion: 1,
      kind: 'dashboard',
      title: '在线率',
      widgets: [
        { type: 'onlineRing', title: '设备在线率', operation: 'stats.online', param: { org: '{{params.orgCode}}' } },
        { type: 'donut', title: '未知组件', operation: 'stats.online' },
      ],
    };
    renderWith(<PageRenderer view="fixture/ring" schema={page} params={{ orgCode: 'O1' }} />, fakeServices({ data, widgets: { onlineRing: OnlineRing } }));
    const ring = await screen.findByRole('meter', { name: '设备在线率' });
    expect(ring).toHaveAttribute('aria-valuenow', '75');
    expect(ring).toHaveTextContent('O1：30/40');
    expect(data.call).toHaveBeenCalledWith('stats.online', { org: 'O1' }, expect.anything());
    expect(screen.getByText('未注册的仪表盘组件 donut')).toBeInTheDocument();
  });

  it('a registered action runs from a button or a chain step, with its params resolved, its answer the next step\'s result', async () => {
    const data = fakeData([{ id: 1, name: '甲', code: 'DEV-1' }]);
    data.call = vi.fn(async () => ({ ticket: 'T-9' }) as never);
    const locate: ActionHandler = vi.fn(async (params) => ({ place: `${String(params.code)}@杭州` }));
    const page = {
      schemaVersion: 1,
      kind: 'list',
      title: '设备',
      operation: 'device.page',
      columns: [{ field: 'name', title: '名称' }],
      rowActions: [
        {
          type: 'chain',
          label: '定位',
          steps: [
            { type: 'call', operation: 'device.locate.ticket', param: { code: '{{record.code}}' } },
            { type: 'map.locate', params: { code: '{{record.code}}', ticket: '{{result.ticket}}' } },
            { type: 'navigate', to: '/map', query: { at: '{{result.place}}' } },
          ],
        },
        { type: 'map.nowhere', label: '未注册' },
      ],
    };
    const services = fakeServices({ data, actions: { 'map.locate': locate } });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWith(<PageRenderer view="fixture/locate" schema={page} />, services);
    await userEvent.click(await screen.findByRole('button', { name: '定位' }));
    await waitFor(() => expect(services.navigate).toHaveBeenCalledWith('/map?at=DEV-1%40%E6%9D%AD%E5%B7%9E'));
    expect(locate).toHaveBeenCalledWith({ code: 'DEV-1', ticket: 'T-9' }, expect.objectContaining({ services }));
    // An action nobody registered is a programming error: reported, not swallowed.
    await userEvent.click(screen.getByRole('button', { name: '未注册' }));
    await waitFor(() => expect(console.error).toHaveBeenCalledWith('[操作 未注册]', new Error('未注册的操作 map.nowhere')));
  });

  it('a toolbar action shows its icon, which leaves the button named by its label', async () => {
    const page = {
      schemaVersion: 1,
      kind: 'list',
      title: '产品',
      operation: 'product.page',
      columns: [{ field: 'name', title: '名称' }],
      toolbar: [{ type: 'refresh', label: '新增产品', icon: 'PlusOutlined' }],
    };
    renderWith(<PageRenderer view="fixture/icons" schema={page} />, fakeServices({ data: fakeData([]) }));
    const button = await screen.findByRole('button', { name: '新增产品' });
    expect(button.querySelector('.anticon-plus')).not.toBeNull();
  });
});

