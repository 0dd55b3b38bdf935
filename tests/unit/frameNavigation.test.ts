import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describePage } from '../../src/frame/PageTabs';
import { documentTitleOf, FORBIDDEN_TITLE, holdsButton, menuPlace, menuTrail, PRODUCT_NAME } from '../../src/frame/navigation';
import { consoleMenuPaths } from '../../scripts/consoleCataloguePlugin';
import { isKnownMenuPath, KNOWN_MENU_PATHS } from '../../src/router/knownPaths';
import { STANDALONE_TITLES } from '../../src/router/SessionGate';
import type { MenuResource } from '../../src/session/types';

function node(code: string, group: string, url: string, children: MenuResource[] = [], shown = true, parentCode: string | null = null): MenuResource {
  return {
    resourceCode: code,
    parentCode,
    resourceName: code,
    resourcePath: code,
    resourceUrl: url,
    resourceIcon: '',
    fileUrl: url.slice(1),
    menuClassificationCode: group,
    isShown: shown,
    isCached: false,
    buttonList: [],
    children,
  };
}

// 告警记录 under 物联网 › 告警; 用户管理 under 系统 › 权限管理; a hidden detail beside the device list.
const MENUS: MenuResource[] = [
  node('alarm', 'internet', '', [node('alarm.record', 'internet', '/alarm/record', [], true, 'alarm')]),
  node('device', 'internet', '', [
    node('device.all', 'internet', '/device/all', [], true, 'device'),
    node('device.detail', 'internet', '/device/detail', [], false, 'device'),
  ]),
  node('auth', 'system', '', [node('auth.user', 'system', '/system/user', [], true, 'auth')]),
];

describe('navigation from the URL alone (issue 21)', () => {
  it('the browser title is 页面名 - 物联网设备平台', () => {
    expect(PRODUCT_NAME).toBe('物联网设备平台');
    expect(documentTitleOf('告警记录')).toBe('告警记录 - 物联网设备平台');
    expect(documentTitleOf('')).toBe('物联网设备平台');
    expect(documentTitleOf(describePage('/dashboard', MENUS).title)).toBe('工作台 - 物联网设备平台');
    expect(STANDALONE_TITLES['/login']).toBe('登录');
    expect(STANDALONE_TITLES['/404']).toBe('页面不存在');
  });

  it('the group, the selected entry and the open folders come from the path', () => {
    expect(menuTrail(MENUS, '/alarm/record/').map((m) => m.resourceCode)).toEqual(['alarm', 'alarm.record']);
    expect(menuPlace(MENUS, '/alarm/record')).toEqual({ group: 'internet', selectedKeys: ['alarm.record'], openKeys: ['alarm'] });
    expect(menuPlace(MENUS, '/system/user')).toEqual({ group: 'system', selectedKeys: ['auth.user'], openKeys: ['auth'] });
    // A page outside the menu (a layout page, 403) selects nothing and leaves the group to the frame.
    expect(menuPlace(MENUS, '/my/order')).toEqual({ group: null, selectedKeys: [], openKeys: [] });
  });

  it('a hidden page (a detail) highlights the entry it was opened from when it sits in the same folder', () => {
    expect(menuPlace(MENUS, '/device/detail', 'device.all')).toEqual({ group: 'internet', selectedKeys: ['device.all'], openKeys: ['device'] });
    // An entry of another folder stored from before is not highlighted.
    expect(menuPlace(MENUS, '/device/detail', 'auth.user').selectedKeys).toEqual([]);
    // A shown page is its own entry whatever was clicked last.
    expect(menuPlace(MENUS, '/alarm/record', 'auth.user').selectedKeys).toEqual(['alarm.record']);
  });

  it('holdsButton looks through every level of the menu', () => {
    const withButton = [node('a', 'x', '', [{ ...node('a.b', 'x', '/b'), buttonList: [{ resourceCode: 'b', resourceName: '确认', resourceUrl: 'card.order.confirm' }] }])];
    expect(holdsButton(withButton, 'card.order.confirm')).toBe(true);
    expect(holdsButton(MENUS, 'card.order.confirm')).toBe(false);
  });
});

describe('403 inside the frame for a known page the role may not open', () => {
  it('the known paths are those of the platform menu tree (schemas/menus.json)', () => {
    interface Entry {
      url?: string;
      children?: Entry[];
    }
    const tree = JSON.parse(readFileSync(resolve(process.cwd(), 'schemas/menus.json'), 'utf8')) as { menus: Entry[] };
    const urls = new Set<string>();
    const walk = (entries: readonly Entry[]) => {
      for (const entry of entries) {
        if (entry.url) urls.add(entry.url);
        walk(entry.children ?? []);
      }
    };
    walk(tree.menus);
    expect([...KNOWN_MENU_PATHS].sort()).toEqual([...urls].sort());
    // The production build keeps only the urls of the tree, and they are the same.
    const slim = JSON.parse(consoleMenuPaths(readFileSync(resolve(process.cwd(), 'schemas/menus.json'), 'utf8'))) as { menus: Entry[] };
    const built = new Set<string>();
    const walkBuilt = (entries: readonly Entry[]) => entries.forEach((entry) => (entry.url && built.add(entry.url), walkBuilt(entry.children ?? [])));
    walkBuilt(slim.menus);
    expect([...built].sort()).toEqual([...urls].sort());
    expect(JSON.stringify(slim)).not.toContain('roles');
  });

  it('a known page outside the role menu is titled 无权访问; a made-up path is not known', () => {
    expect(isKnownMenuPath('/system/menu')).toBe(true);
    expect(isKnownMenuPath('/system/menu/')).toBe(true);
    expect(isKnownMenuPath('/no/such/page')).toBe(false);
    expect(FORBIDDEN_TITLE).toBe('无权访问');
    expect(describePage('/system/menu', MENUS).title).toBe('无权访问');
    expect(describePage('/system/user', MENUS).title).toBe('auth.user');
  });
});
