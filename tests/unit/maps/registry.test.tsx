// The hand-written view registry: a menu view with a registered screen renders that screen,
// before any page schema or the placeholder card.
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MenuContent } from '../../../src/frame/MenuView';
import { registeredViews, renderScreen, screenFor, type ScreenProps } from '../../../src/screens/registry';
import type { MenuResource } from '../../../src/session/types';
import { renderConsole, signIn } from '../account/harness';

vi.mock('../../../src/api/client', () => ({ api: { call: vi.fn(), page: vi.fn(), upload: vi.fn() } }));
vi.mock('../../../src/screens/device/DistributionPage', () => ({
  default: ({ menu }: ScreenProps) => <div data-testid="distribution-screen">{menu.resourceName}</div>,
}));

function menu(fileUrl: string, resourceName = '设备分布'): MenuResource {
  return {
    resourceCode: 'device.distribution',
    parentCode: 'device',
    resourceName,
    resourcePath: '/device/distribution',
    resourceUrl: '/device/distribution',
    resourceIcon: '',
    fileUrl,
    menuClassificationCode: 'internet',
    isShown: true,
    isCached: false,
    buttonList: [],
    children: [],
  };
}

describe('the view registry', () => {
  it('registers 设备分布 and nothing by accident', () => {
    expect(registeredViews()).toContain('device/distribution');
    expect(screenFor('device/distribution')).toBeDefined();
    expect(screenFor('system/role')).toBeUndefined();
    expect(screenFor('constructor')).toBeUndefined();
    expect(screenFor('')).toBeUndefined();
    expect(screenFor(undefined)).toBeUndefined();
    expect(renderScreen(menu('system/role'))).toBeNull();
  });

  it('renders the registered screen for its menu view, lazily, with the menu resource', async () => {
    signIn();
    renderConsole(<MenuContent menu={menu('device/distribution', '设备分布图')} />);
    expect(await screen.findByTestId('distribution-screen')).toHaveTextContent('设备分布图');
    expect(screen.queryByTestId('menu-view')).not.toBeInTheDocument();
  });

  it('falls back to the placeholder card for a view with neither screen nor page schema', async () => {
    signIn();
    renderConsole(<MenuContent menu={menu('nowhere/none', '未配置')} />);
    expect(await screen.findByTestId('menu-view')).toHaveTextContent('该视图尚未配置页面模式');
  });
});
