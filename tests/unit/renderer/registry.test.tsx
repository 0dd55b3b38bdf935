import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import type { DashboardWidgetProps } from '../../../renderers/services';
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
});
