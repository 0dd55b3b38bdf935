import { describe, expect, it } from 'vitest';
import { closeAll, closeOthers, closeTab, homeTab, openTab, type PageTab } from '../../src/frame/tabs';

const tab = (key: string, cached = false): PageTab => ({ key, pathname: key.split('?')[0], search: '', title: key, cached });

describe('page tabs', () => {
  it('opens each page once, keeping its place', () => {
    let tabs = [homeTab()];
    tabs = openTab(tabs, tab('/device/all'));
    tabs = openTab(tabs, tab('/alarm/record'));
    tabs = openTab(tabs, { ...tab('/device/all'), title: '全部设备' });
    expect(tabs.map((t) => t.key)).toEqual(['/dashboard', '/device/all', '/alarm/record']);
    expect(tabs[1].title).toBe('全部设备');
  });

  it('refuses to close the last dashboard tab', () => {
    expect(closeTab([homeTab(), tab('/device/all')], '/dashboard', '/device/all')).toEqual({ refused: true });
  });

  it('closing the active tab opens its neighbour; closing another keeps the active one', () => {
    const tabs = [homeTab(), tab('/a'), tab('/b'), tab('/c')];
    expect(closeTab(tabs, '/b', '/b')).toMatchObject({ refused: false, navigateTo: '/c' });
    expect(closeTab(tabs, '/c', '/c')).toMatchObject({ refused: false, navigateTo: '/b' });
    const other = closeTab(tabs, '/a', '/c');
    expect(other).toMatchObject({ refused: false, navigateTo: null });
    expect(other.refused === false && other.tabs.map((t) => t.key)).toEqual(['/dashboard', '/b', '/c']);
  });

  it('close all returns to /dashboard; close others keeps the dashboard', () => {
    expect(closeAll()).toEqual({ tabs: [homeTab()], navigateTo: '/dashboard' });
    expect(closeOthers([homeTab(), tab('/a'), tab('/b')], '/b').map((t) => t.key)).toEqual(['/dashboard', '/b']);
  });
});
