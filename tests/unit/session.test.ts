import { describe, expect, it } from 'vitest';
import { foreignUrl, FOREIGN_PATHS } from '../../src/frame/ForeignFrame';
import { dictionaryLabel } from '../../src/session/dictionary';
import { findMenuByUrl, flattenMenu, groupsWithEntries } from '../../src/session/menu';
import { selectOrganization, visibleOrganizations } from '../../src/session/session';
import { clearSession, readSession, SESSION_KEYS, writeSession } from '../../src/session/storage';
import type { MenuResource, OrganizationNode } from '../../src/session/types';

const org = (code: string, type: number, children: OrganizationNode[] = []): OrganizationNode => ({
  id: code,
  organizationCode: code,
  organizationName: `组织${code}`,
  organizationType: type,
  children,
});

const menu = (code: string, url: string, group: string, children: MenuResource[] = [], isShown = true): MenuResource => ({
  resourceCode: code,
  parentCode: null,
  resourceName: code,
  resourcePath: code,
  resourceUrl: url,
  resourceIcon: '',
  fileUrl: url.slice(1),
  menuClassificationCode: group,
  isShown,
  isCached: false,
  buttonList: [],
  children,
});

describe('organisation tree', () => {
  const tree = [org('P0001', 1, [org('T0001', 2, [org('J1', 3, [org('A1', 4)]), org('V1', 5, [org('X', 3)])])])];

  it('drops type-5 organisations and everything below them', () => {
    const visible = visibleOrganizations(tree);
    const codes = JSON.stringify(visible);
    expect(codes).toContain('A1');
    expect(codes).not.toContain('V1');
    expect(codes).not.toContain('"X"');
  });

  it('stores orgCode, its name and its tenant when an organisation is selected', () => {
    selectOrganization(tree, 'A1');
    expect(readSession('orgCode')).toBe('A1');
    expect(readSession('customName')).toBe('组织A1');
    expect(readSession('tenantCode')).toBe('T0001');
  });
});

describe('session storage', () => {
  it('clears every key of SPEC §3', () => {
    for (const key of Object.keys(SESSION_KEYS) as (keyof typeof SESSION_KEYS)[]) writeSession(key, 'x');
    window.sessionStorage.setItem('unrelated', 'kept');
    expect(Object.values(SESSION_KEYS).sort()).toEqual(
      ['accessToken', 'customName', 'isForeign', 'orgCode', 'organizationList', 'projectId', 'refreshToken', 'selectedMenuKey', 'tenantCode'].sort(),
    );
    clearSession();
    for (const name of Object.values(SESSION_KEYS)) expect(window.sessionStorage.getItem(name)).toBeNull();
    expect(window.sessionStorage.getItem('unrelated')).toBe('kept');
  });
});

describe('menus', () => {
  const menus = [
    menu('mall', '', 'mall', [menu('mall.list', '/shopping/list', 'mall')]),
    menu('device', '', 'internet', [menu('device.all', '/device/all', 'internet'), menu('device.detail', '/device/detail', 'internet', [], false)]),
    menu('hidden', '/x', 'system', [], false),
  ];
  it('finds a route by url, hidden routes included', () => {
    expect(findMenuByUrl(menus, '/device/all/')?.resourceCode).toBe('device.all');
    expect(findMenuByUrl(menus, '/device/detail')?.resourceCode).toBe('device.detail');
    expect(findMenuByUrl(menus, '/nowhere')).toBeUndefined();
    expect(flattenMenu(menus)).toHaveLength(6);
  });
  it('shows the groups in their fixed order, only those with entries', () => {
    expect(groupsWithEntries(menus)).toEqual(['internet', 'mall']);
  });
});

describe('dictionaries', () => {
  const dictionaries = { menu_classification: { dictType: 'menu_classification', dictName: '菜单分类', children: [{ dictValue: 'mall', dictLabel: '商城' }] } };
  it('labels a known value and shows 未知 for an unknown one', () => {
    expect(dictionaryLabel(dictionaries, 'menu_classification', 'mall')).toBe('商城');
    expect(dictionaryLabel(dictionaries, 'menu_classification', 'other')).toBe('未知');
    expect(dictionaryLabel(dictionaries, 'no_such_type', 'mall')).toBe('未知');
    expect(dictionaryLabel(dictionaries, 'menu_classification', null)).toBe('未知');
  });
});

describe('embedded routes', () => {
  it('names the normal path of every SPEC §2 foreign route', () => {
    expect(FOREIGN_PATHS).toHaveLength(29);
    expect(foreignUrl('/foreign/device/all')).toBe('/device/all');
    expect(foreignUrl('/foreign/batch/see/')).toBe('/batch/see');
    expect(foreignUrl('/foreign/unknown')).toBeNull();
  });
});
