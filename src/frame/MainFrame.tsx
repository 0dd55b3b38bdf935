import { DownOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { App, Avatar, Button, Dropdown, Layout, Menu, Tabs, Typography, type MenuProps } from 'antd';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { findMenuByUrl, groupsWithEntries } from '../session/menu';
import { logout, ORGANIZATION_SWITCH_DELAY_MS, reloadOrganizations, selectOrganization, sessionAtom } from '../session/session';
import { readSession, writeSession } from '../session/storage';
import type { MenuResource } from '../session/types';
import { dictionaryLabel } from '../session/dictionary';
import { NotificationPopover } from '../notifications/NotificationPopover';
import { CardOrderBanner } from '../startup/CardOrderBanner';
import { useUsageTracking } from '../startup/useUsageTracking';
import { ConsoleApp } from './ConsoleApp';
import { ContactWidget } from './ContactWidget';
import { MenuIcon } from './menuIcons';
import { OrganizationSwitcher } from './OrganizationSwitcher';
import { NetworkBanner } from './NetworkBanner';
import { PageTabs } from './PageTabs';
import { TopBarLinks } from './TopBarLinks';

// The account drawer (profile, avatar upload, phone and mail change) loads when first opened.
const AccountDrawer = lazy(() => import('../account/AccountDrawer').then((module) => ({ default: module.AccountDrawer })));

/** SPEC §9: sider width. */
export const SIDER_WIDTH = 208;
export const LOGOUT_CONFIRM = '确认登出';

type MenuItem = Required<MenuProps>['items'][number];

function menuItems(nodes: readonly MenuResource[]): MenuItem[] {
  return nodes
    .filter((node) => node.isShown !== false)
    .map((node) => {
      const children = (node.children ?? []).filter((child) => child.isShown !== false);
      return children.length
        ? { key: node.resourceCode, icon: <MenuIcon name={node.resourceIcon} />, label: node.resourceName, children: menuItems(children) }
        : { key: node.resourceCode, icon: <MenuIcon name={node.resourceIcon} />, label: node.resourceName, title: node.resourceUrl };
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

function FrameLayout() {
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { modal } = App.useApp();
  const [collapsed, setCollapsed] = useState(false);
  const [accountOpen, setAccountOpen] = useState(false);
  const [accountOpened, setAccountOpened] = useState(false);
  if (accountOpen && !accountOpened) setAccountOpened(true);
  useUsageTracking();
  // Bumped after an organisation switch: every open page starts again for the new organisation.
  const [contentKey, setContentKey] = useState(0);
  const menus = useMemo(() => session?.menus ?? [], [session]);
  const groups = useMemo(() => groupsWithEntries(menus), [menus]);
  const current = useMemo(() => findMenuByUrl(menus, pathname), [menus, pathname]);
  // A group tab chosen by hand holds until the route changes.
  const [chosen, setChosen] = useState<{ group: string; path: string } | null>(null);
  const group = (chosen?.path === pathname ? chosen.group : null) ?? current?.menuClassificationCode ?? groups[0] ?? '';
  const groupMenus = useMemo(() => menus.filter((m) => m.menuClassificationCode === group), [menus, group]);
  const items = useMemo(() => menuItems(groupMenus), [groupMenus]);
  const selectedKey = current?.resourceCode ?? readSession('selectedMenuKey') ?? '';

  if (!session) return null;
  const { user, dictionaries } = session;

  const openLeaf: MenuProps['onClick'] = ({ key }) => {
    const node = findByCode(menus, key);
    if (!node?.resourceUrl) return;
    writeSession('selectedMenuKey', node.resourceCode);
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

  return (
    <Layout style={{ height: '100vh', overflow: 'hidden' }}>
      <Layout.Sider width={SIDER_WIDTH} collapsible collapsed={collapsed} trigger={null} theme="dark" data-testid="frame-sider" style={{ overflow: 'auto' }}>
        <div style={{ height: 56, display: 'flex', alignItems: 'center', padding: '0 16px', color: '#fff', fontWeight: 600, overflow: 'hidden', whiteSpace: 'nowrap' }}>
          {collapsed ? '物联' : '物联网设备平台'}
        </div>
        <div style={{ padding: '0 8px 8px' }}>
          <OrganizationSwitcher collapsed={collapsed} onSwitch={switchOrganization} />
        </div>
        <Menu theme="dark" mode="inline" items={items} selectedKeys={[selectedKey]} onClick={openLeaf} />
      </Layout.Sider>
      <Layout>
        <Layout.Header style={{ background: '#fff', padding: '0 16px', display: 'flex', alignItems: 'center', gap: 16, height: 56, lineHeight: '56px', boxShadow: '0 1px 4px rgba(0,21,41,0.08)' }}>
          <Button type="text" aria-label={collapsed ? '展开菜单' : '收起菜单'} icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} onClick={() => setCollapsed((c) => !c)} />
          <Tabs
            style={{ flex: 1, marginBottom: -16 }}
            activeKey={group}
            onChange={(key) => setChosen({ group: key, path: pathname })}
            items={groups.map((code) => ({ key: code, label: dictionaryLabel(dictionaries, 'menu_classification', code) }))}
          />
          <TopBarLinks roles={user.roleList} />
          <NotificationPopover />
          <Dropdown
            menu={{
              items: [
                { key: 'account', icon: <UserOutlined />, label: '账号信息' },
                { type: 'divider' },
                { key: 'logout', icon: <LogoutOutlined />, label: '退出登录' },
              ],
              onClick: ({ key }) => {
                if (key === 'account') setAccountOpen(true);
                if (key === 'logout') confirmLogout();
              },
            }}
          >
            <span style={{ cursor: 'pointer', display: 'inline-flex', alignItems: 'center', gap: 8 }} data-testid="user-menu">
              <Avatar size="small" icon={<UserOutlined />} />
              <Typography.Text>{user.userName || user.loginUserName}</Typography.Text>
              <DownOutlined style={{ fontSize: 10 }} />
            </span>
          </Dropdown>
        </Layout.Header>
        <Layout.Content style={{ height: 'calc(100vh - 56px)', minHeight: 0, display: 'flex', flexDirection: 'column' }}>
          <NetworkBanner />
          <CardOrderBanner />
          <div style={{ flex: 1, minHeight: 0 }}>
            <PageTabs key={contentKey} menus={menus} />
          </div>
        </Layout.Content>
        {accountOpened && (
          <Suspense fallback={null}>
            <AccountDrawer open={accountOpen} onClose={() => setAccountOpen(false)} />
          </Suspense>
        )}
        <ContactWidget />
      </Layout>
    </Layout>
  );
}
