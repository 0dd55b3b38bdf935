import { render } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMenuIcons, MenuIcon } from '../../src/frame/menuIcons';
import { menuIconName, SEED_ICON_BY_CODE } from '../../src/frame/menuIconSeed';
import { GENERIC_MENU_ICON, MENU_ICONS } from '../../src/frame/menuIconSet';
import DashboardPage from '../../src/screens/dashboard/DashboardPage';
import { consoleStore, sessionAtom } from '../../src/session/session';
import type { MenuResource } from '../../src/session/types';
import { Provider } from 'jotai';

// Issue 21 item 11: every second-level menu entry and 16 of 18 quick-entry tiles showed one icon.

interface SeedEntry {
  code: string;
  name: string;
  icon?: string;
  group?: string;
  roles?: string[];
  url?: string;
  shown?: boolean;
  children?: SeedEntry[];
}

const seed = (JSON.parse(readFileSync(resolve(process.cwd(), 'schemas/menus.json'), 'utf8')) as { menus: SeedEntry[] }).menus;
const ROLES = ['TENANT_ADMIN', 'ROLE_TENANT_ORDINARY', 'ROLE_TENANT_REPAIR', 'ROLE_TENANT_PATROL', 'ROLE_REPAIR_IMPLEMENT', 'PLATFORM_ADMIN', 'PLATFORM_OPERATOR'];

const duplicates = (values: readonly string[]) => [...new Set(values.filter((value, index) => values.indexOf(value) !== index))];

/** Each list of siblings of the seed tree (the top level and every entry's children), named by its parent. */
function siblingLists(entries: readonly SeedEntry[], parent = '(top level)'): Array<[string, SeedEntry[]]> {
  return [[parent, [...entries]], ...entries.flatMap((entry) => (entry.children?.length ? siblingLists(entry.children, entry.code) : []))];
}

/**
 * A role's menu as the server builds it from the seed (children inherit their parent's roles),
 * with the icons a database seeded before this change holds: the top level's, and none below it
 * (the catalogue sync never rewrites a present row).
 */
function menuOf(role: string, entries: readonly SeedEntry[], group = '', inherited: readonly string[] = [], parentCode: string | null = null): MenuResource[] {
  return entries
    .filter((entry) => (entry.roles ?? inherited).includes(role))
    .map((entry) => ({
      resourceCode: entry.code,
      parentCode,
      resourceName: entry.name,
      resourcePath: entry.url ?? '',
      resourceUrl: entry.url ?? '',
      resourceIcon: parentCode === null ? (entry.icon ?? '') : '',
      fileUrl: '',
      menuClassificationCode: entry.group ?? group,
      isShown: entry.shown ?? true,
      isCached: false,
      buttonList: [],
      children: menuOf(role, entry.children ?? [], entry.group ?? group, entry.roles ?? inherited, entry.code),
    }));
}

/** The icon an element shows: antd draws `<span class="anticon anticon-bell">`. */
const iconOf = (element: Element) => [...element.classList].find((name) => name.startsWith('anticon-')) ?? '(none)';

describe('menu icons (issue 21)', () => {
  beforeAll(async () => {
    await loadMenuIcons();
  });

  it('gives every menu entry of the seed an icon the frame can draw, and no two siblings the same one', () => {
    const lists = siblingLists(seed);
    expect(lists.length).toBeGreaterThan(20);
    const unnamed = lists.flatMap(([, entries]) => entries.filter((entry) => !entry.icon || !MENU_ICONS[entry.icon]).map((entry) => entry.code));
    expect(unnamed).toEqual([]);
    const shared = lists.flatMap(([parent, entries]) => duplicates(entries.map((entry) => entry.icon ?? '')).map((icon) => `${parent}: ${icon}`));
    expect(shared).toEqual([]);
    // No entry of the seed uses the icon an unknown name falls back to.
    expect(lists.flatMap(([, entries]) => entries.filter((entry) => entry.icon === GENERIC_MENU_ICON).map((entry) => entry.code))).toEqual([]);
  });

  it('draws a row that names no icon, or one the console lacks, with its code’s icon from the seed; its own icon first', () => {
    expect(SEED_ICON_BY_CODE.get('alarm.record')).toBe('BellOutlined');
    expect(menuIconName('', 'alarm.record')).toBe('BellOutlined');
    expect(menuIconName(null, 'iotCard.internet')).toBe('CreditCardOutlined');
    expect(menuIconName('NoSuchOutlined', 'alarm.record')).toBe('BellOutlined');
    expect(menuIconName('ToolOutlined', 'alarm.record')).toBe('ToolOutlined');
    expect(menuIconName('', 'staff.made.this')).toBe(GENERIC_MENU_ICON);
    const { container } = render(
      <>
        <MenuIcon name="" code="device.list" />
        <MenuIcon name="" code="alarm.record" />
      </>,
    );
    expect([...container.querySelectorAll('.anticon')].map(iconOf)).toEqual(['anticon-hdd', 'anticon-bell']);
  });

  it.each(ROLES)('shows distinct icons on the 快捷入口 tiles of %s, also from a database whose rows below the top have no icon', (role) => {
    const menus = menuOf(role, seed);
    const session = {
      user: { loginUserCode: 'u', loginUserId: 1, loginUserName: 'u', mail: '', orgCodeList: [], phoneNumber: '', roleList: [role], userName: 'u', needModifyPassword: false },
      menus,
      dictionaries: {},
      organizations: [],
    };
    consoleStore.set(sessionAtom, session);
    const { container, unmount } = render(
      <Provider store={consoleStore}>
        <MemoryRouter>
          <DashboardPage />
        </MemoryRouter>
      </Provider>,
    );
    const tiles = [...container.querySelectorAll('.ant-card-hoverable')];
    expect(tiles.length).toBeGreaterThan(3);
    const icons = tiles.map((tile) => iconOf(tile.querySelector('.anticon') ?? tile));
    expect(icons).not.toContain('(none)');
    expect(icons).not.toContain('anticon-appstore');
    expect(duplicates(icons)).toEqual([]);
    unmount();
    consoleStore.set(sessionAtom, null);
  });
});
