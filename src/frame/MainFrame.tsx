import { DownOutlined, EllipsisOutlined, LogoutOutlined, MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown, Grid, Layout, Menu, Tabs, type MenuProps } from 'antd';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, type Location } from 'react-router-dom';
import { groupsWithEntries } from '../session/menu';
import { logout, ORGANIZATION_SWITCH_DELAY_MS, reloadOrganizations, selectOrganization, sessionAtom } from '../session/session';
import { readSession, writeSession } from '../session/storage';
import type { MenuResource } from '../session/types';
import { dictionaryLabel } from '../session/dictionary';
import { useLiveConsole } from '../live/useLiveConsole';
import { consoleQueries } from '../renderer/consoleQueries';
import { CardOrderBanner } from '../startup/CardOrderBanner';
import { useUsageTracking } from '../startup/useUsageTracking';
import { ConsoleApp, useConsoleModal } from './ConsoleApp';
import { ContactWidget } from './ContactWidget';
import { MenuIcon } from './menuIcons';
import { documentTitleOf, menuPlace, TABS_LOCALE } from './navigation';
import { OrganizationSwitcher } from './OrganizationSwitcher';
import { NetworkBanner } from './NetworkBanner';
import { NotificationBell } from './NotificationBell';
import { describePage, PageTabs } from './PageTabs';
import { TopBarLinks } from './TopBarLinks';
import { useLazyPart } from './lazyPart';
import { useTabsOverflowForPointer } from './tabsOverflow';

// The account drawer (profile, avatar upload, phone and mail change) loads when first opened.
const AccountDrawer = lazy(() => import('../account/AccountDrawer').then((module) => ({ default: module.AccountDrawer })));
// The narrow frame's menu drawer, too.
const loadMenuDrawer = () => import('./MenuDrawer');

/** SPEC §9: sider width. */
export const SIDER_WIDTH = 208;
/** Width of the menu drawer that stands in for the sider below antd's `md` breakpoint (768 px). */
export const MENU_DRAWER_WIDTH = 256;
export const HEADER_HEIGHT = 56;
export const LOGOUT_CONFIRM = '确认登出';

type MenuItem = Required<MenuProps>['items'][number];

function menuItems(nodes: readonly MenuResource[]): MenuItem[] {
  return nodes
    .filter((node) => node.isShown !== false)
    .map((node) => {
      const children = (node.children ?? []).filter((child) => child.isShown !== false);
      return children.length
        ? { key: node.resourceCode, icon: <MenuIcon name={node.resourceIcon} code={node.resourceCode} />, label: node.resourceName, children: menuItems(children) }
        : { key: node.resourceCode, icon: <MenuIcon name={node.resourceIcon} code={node.resourceCode} />, label: node.resourceName, title: node.resourceUrl };
    });
}

function findByCode(nodes: readonly MenuResource[], code: string): MenuResource | undefined {
  for (const node of nodes) {
    if (node.resourceCode === code) return node;
    const below = findByCode(node.children ?? [], code);
    if (below) return below;
  }
  return undefined;
}

/** The frame around every layout page (SPEC §2 "Main frame"). */
export default function MainFrame() {
  return (
    <ConsoleApp>
      <FrameLayout />
    </ConsoleApp>
  );
}

/**
 * Below antd's `md` breakpoint (a phone, 390 px) the frame is narrow: the sider becomes a drawer
 * opened from the top bar, the top bar folds its links into one menu and the content takes the
 * whole width. `useBreakpoint` knows nothing before its first measure: the wide frame until then.
 */
export function useNarrowFrame(): boolean {
  const screens = Grid.useBreakpoint();
  return screens.md === false;
}

/** The product name over the menu, and the organisation switcher under it. */
function MenuHead({ collapsed, onSwitch }: { collapsed: boolean; onSwitch: (code: string) => Promise<void> }) {
  return (
    <>
      <div style={{ height: HEADER_HEIGHT, display: 'flex', alignItems: 'center', padding: '0 16px', color: '#fff', fontWeight: 600, overflow: 'hidden', whiteSpace: 'nowrap' }}>
        {collapsed ? '物联' : '物联网设备平台'}
      </div>
      <div style={{ padding: '0 8px 8px' }}>
        <OrganizationSwitcher collapsed={collapsed} onSwitch={onSwitch} />
      </div>
    </>
  );
}

function FrameLayout() {
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  const location = useLocation();
  const { pathname } = location;
  const modal = useConsoleModal();
  const narrow = useNarrowFrame();
  const [collapsed, setCollapsed] = useState(false);
  const [menuDrawerOpen, setMenuDrawerOpen] = useState(false);
  const [MenuDrawer, wantMenuDrawer] = useLazyPart(loadMenuDrawer);
  const [accountOpen, setAccountOpen] = useState(false);
  const [accountOpened, setAccountOpened] = useState(false);
  if (accountOpen && !accountOpened) setAccountOpened(true);
  useUsageTracking();
  // Bumped after an organisation switch: every open page starts again for the new organisation.
  const [contentKey, setContentKey] = useState(0);
  const menus = useMemo(() => session?.menus ?? [], [session]);
  const groups = useMemo(() => groupsWithEntries(menus), [menus]);
  // Where the location puts the frame, from the location alone: a menu click, a page-tab click,
  // Back and Forward and a typed address all land on the same group, entry and folders.
  const place = useMemo(() => menuPlace(menus, pathname, readSession('selectedMenuKey')), [menus, pathname]);
  // A group tab or folders chosen by hand hold until the location moves (any move, Back included).
  const [seen, setSeen] = useState<Location>(location);
  const [chosenGroup, setChosenGroup] = useState<string | null>(null);
  const [openKeys, setOpenKeys] = useState<string[]>(place.openKeys);
  if (seen !== location) {
    setSeen(location);
    setChosenGroup(null);
    setOpenKeys(place.openKeys);
    setMenuDrawerOpen(false);
  }
  const group = chosenGroup ?? place.group ?? groups[0] ?? '';
  const groupMenus = useMemo(() => menus.filter((m) => m.menuClassificationCode === group), [menus, group]);
  const items = useMemo(() => menuItems(groupMenus), [groupMenus]);
  const { title } = describePage(pathname, menus);
  useEffect(() => {
    document.title = documentTitleOf(title);
  }, [title]);
  const header = useRef<HTMLElement>(null);
  useTabsOverflowForPointer(header);
  // The live stream: alarm and device pages, boards and the bell follow the platform by themselves.
  useLiveConsole(consoleQueries, `${session?.user.loginUserId ?? ''}|${contentKey}`);

  if (!session) return null;
  const { user, dictionaries } = session;

  const openLeaf: MenuProps['onClick'] = ({ key }) => {
    const node = findByCode(menus, key);
    if (!node?.resourceUrl) return;
    writeSession('selectedMenuKey', node.resourceCode);
    setMenuDrawerOpen(false);
    navigate(node.resourceUrl);
  };

  const switchOrganization = async (code: string) => {
    selectOrganization(session.organizations, code);
    await reloadOrganizations();
    navigate('/dashboard');
    setTimeout(() => setContentKey((key) => key + 1), ORGANIZATION_SWITCH_DELAY_MS);
  };

  const confirmLogout = () =>
    modal.confirm({
      title: LOGOUT_CONFIRM,
      content: '退出后需要重新登录。',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        await logout();
        navigate('/login', { replace: true });
      },
    });

  // The folders follow the location; while the sider is collapsed its folders pop out on hover instead.
  const inlineMenu = (inlineCollapsed: boolean): ReactNode => (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={place.selectedKeys}
      {...(inlineCollapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      onClick={openLeaf}
      aria-label="功能菜单"
      data-testid="frame-menu"
    />
  );

  const groupLabel = (code: string) => dictionaryLabel(dictionaries, 'menu_classification', code);
  // The top bar's group tabs (in the narrow frame's menu drawer, a segmented choice over the menu).
  const groupTabs = (
    <Tabs
      style={{ flex: 1, minWidth: 0, marginBottom: -16 }}
      activeKey={group}
      onChange={(key) => setChosenGroup(key)}
      locale={TABS_LOCALE}
      more={{ icon: <EllipsisOutlined aria-hidden /> }}
      items={groups.map((code) => ({ key: code, label: groupLabel(code) }))}
      data-testid="menu-groups"
    />
  );
  return (
    <Layout style={{ height: '100vh', overflow: 'hidden' }}>
      {!narrow && (
        <Layout.Sider width={SIDER_WIDTH} collapsible collapsed={collapsed} trigger={null} theme="dark" data-testid="frame-sider" style={{ overflow: 'auto' }}>
          <MenuHead collapsed={collapsed} onSwitch={switchOrganization} />
          {inlineMenu(collapsed)}
        </Layout.Sider>
      )}
      {narrow && MenuDrawer && (
        <MenuDrawer
          open={menuDrawerOpen}
          onClose={() => setMenuDrawerOpen(false)}
          width={MENU_DRAWER_WIDTH}
          head={<MenuHead collapsed={false} onSwitch={switchOrganization} />}
          menu={inlineMenu(false)}
          groups={groups}
          group={group}
          groupLabel={groupLabel}
          onGroup={setChosenGroup}
        />
      )}
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header
          style={{ background: '#fff', padding: narrow ? '0 8px' : '0 16px', display: 'flex', alignItems: 'center', gap: narrow ? 4 : 16, height: HEADER_HEIGHT, lineHeight: `${HEADER_HEIGHT}px`, boxShadow: '0 1px 4px rgba(0,21,41,0.08)' }}
          data-testid="frame-header"
          ref={header}
        >
          {narrow ? (
            <Button type="text" aria-label="打开菜单" aria-expanded={menuDrawerOpen} icon={<MenuOutlined aria-hidden />} onClick={() => void wantMenuDrawer().then((ready) => ready && setMenuDrawerOpen(true))} data-testid="menu-drawer-button" />
          ) : (
            <Button type="text" aria-label={collapsed ? '展开菜单' : '收起菜单'} icon={collapsed ? <MenuUnfoldOutlined aria-hidden /> : <MenuFoldOutlined aria-hidden />} onClick={() => setCollapsed((c) => !c)} />
          )}
          {narrow ? (
            <span style={{ flex: 1, minWidth: 0, fontWeight: 600, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' }} data-testid="frame-page-title">
              {title}
            </span>
          ) : (
            groupTabs
          )}
          <TopBarLinks roles={user.roleList} folded={narrow} />
          <NotificationBell />
          <ContactWidget compact={narrow} />
          <Dropdown
            trigger={['hover', 'click']}
            menu={{
              items: [
                { key: 'account', icon: <UserOutlined aria-hidden />, label: '账号信息' },
                { type: 'divider' },
                { key: 'logout', icon: <LogoutOutlined aria-hidden />, label: '退出登录' },
              ],
              onClick: ({ key }) => {
                if (key === 'account') setAccountOpen(true);
                if (key === 'logout') confirmLogout();
              },
            }}
          >
            <Button type="text" style={{ display: 'inline-flex', alignItems: 'center', gap: 8, paddingInline: narrow ? 4 : 8, flex: 'none' }} aria-label={`用户菜单：${user.userName || user.loginUserName}`} data-testid="user-menu">
              <Avatar size="small" icon={<UserOutlined aria-hidden />} />
              {!narrow && <span>{user.userName || user.loginUserName}</span>}
              <DownOutlined aria-hidden style={{ fontSize: 10 }} />
            </Button>
          </Dropdown>
        </Layout.Header>
        <Layout.Content style={{ height: `calc(100vh - ${HEADER_HEIGHT}px)`, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
          <NetworkBanner />
          <div style={{ flex: 1, minHeight: 0 }}>
            <PageTabs key={contentKey} menus={menus} notice={<CardOrderBanner />} narrow={narrow} />
          </div>
        </Layout.Content>
        {accountOpened && (
          <Suspense fallback={null}>
            <AccountDrawer open={accountOpen} onClose={() => setAccountOpen(false)} />
          </Suspense>
        )}
      </Layout>
    </Layout>
  );
}
