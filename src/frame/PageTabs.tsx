import { CloseOutlined, DownOutlined, EllipsisOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tabs } from 'antd';
import { useRef, useState, type ReactNode } from 'react';
import { matchPath, useLocation, useNavigate, useRoutes, type Location } from 'react-router-dom';
import { LAYOUT_PAGES, layoutChildren, NOT_FOUND_PATH, NOT_FOUND_TITLE, PLAYGROUND_PATH } from '../router/layoutRoutes';
import { isKnownMenuPath } from '../router/knownPaths';
import { findMenuByUrl } from '../session/menu';
import type { MenuResource } from '../session/types';
import { closeAll, closeOthers, closeTab, CLOSE_LAST_HOME_REFUSED, HOME_PATH, HOME_TITLE, homeTab, openTab, type PageTab } from './tabs';
import { notify } from '../api/notifier';
import { FORBIDDEN_TITLE, TABS_LOCALE } from './navigation';
import { useTabsOverflowForPointer } from './tabsOverflow';

/** The tab title and cache flag of a layout path. */
export function describePage(pathname: string, menus: readonly MenuResource[]): { title: string; cached: boolean } {
  if (pathname === HOME_PATH) return { title: HOME_TITLE, cached: true };
  if (pathname === PLAYGROUND_PATH) return { title: '页面试验场', cached: true };
  if (pathname === NOT_FOUND_PATH) return { title: NOT_FOUND_TITLE, cached: false };
  const layout = LAYOUT_PAGES.find((page) => matchPath(page.path, pathname));
  if (layout) return { title: layout.title, cached: false };
  const menu = findMenuByUrl(menus, pathname);
  if (menu) return { title: menu.resourceName, cached: menu.isCached };
  return { title: isKnownMenuPath(pathname) ? FORBIDDEN_TITLE : pathname, cached: false };
}

/** One tab's page, rendered at that tab's own location (so a hidden cached page keeps its own). */
function TabPage({ location }: { location: Location }) {
  return useRoutes(layoutChildren, location);
}

/**
 * The strip of opened pages and their content (SPEC §2 "Content area"). `notice` (the card-order
 * reminder) sits in one slim line between the strip and the page; a narrow frame pads less.
 */
export function PageTabs({ menus, notice = null, narrow = false }: { menus: readonly MenuResource[]; notice?: ReactNode; narrow?: boolean }) {
  const location = useLocation();
  const navigate = useNavigate();
  const activeKey = `${location.pathname}${location.search}`;
  const [tabs, setTabs] = useState<PageTab[]>(() => [homeTab()]);
  const strip = useRef<HTMLDivElement>(null);
  useTabsOverflowForPointer(strip);
  // Each open tab remembers the location it shows.
  const [locations, setLocations] = useState<Record<string, Location>>({});

  const { title, cached } = describePage(location.pathname, menus);
  // A tab opens (or takes its menu title) when the location or its title changes, not on every
  // render: closing the active tab removes it before the router has moved to the neighbour, and
  // that render must not open it again.
  const opening = `${activeKey}\n${title}`;
  const [opened, setOpened] = useState('');
  if (opened !== opening) {
    setOpened(opening);
    setTabs(openTab(tabs, { key: activeKey, pathname: location.pathname, search: location.search, title, cached }));
  }
  if (locations[activeKey] !== location) setLocations({ ...locations, [activeKey]: location });

  const close = (key: string) => {
    const result = closeTab(tabs, key, activeKey);
    if (result.refused) {
      notify.warning(CLOSE_LAST_HOME_REFUSED);
      return;
    }
    setTabs(result.tabs);
    if (result.navigateTo) navigate(result.navigateTo);
  };

  const extraMenu = {
    items: [
      { key: 'others', label: '关闭其他' },
      { key: 'all', label: '关闭全部' },
    ],
    onClick: ({ key }: { key: string }) => {
      if (key === 'all') {
        const next = closeAll();
        setTabs(next.tabs);
        navigate(next.navigateTo);
      } else setTabs(closeOthers(tabs, activeKey));
    },
  };

  // Pages that are not cached leave no trace once their tab is not shown.
  const shown = tabs.filter((t) => t.key === activeKey || (t.cached && locations[t.key]));
  // 标签操作 sits beside the strip, not in it: antd's tabBarExtraContent lands inside the strip's
  // role="tablist", where a button is not allowed (axe aria-required-children).
  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, padding: narrow ? '6px 8px 0' : '6px 16px 0', background: '#fff' }} data-testid="page-tabs" ref={strip}>
        <Tabs
          type="editable-card"
          hideAdd
          locale={TABS_LOCALE}
          more={{ icon: <EllipsisOutlined aria-hidden /> }}
          size="small"
          activeKey={activeKey}
          onChange={(key) => navigate(key)}
          onEdit={(key, action) => action === 'remove' && typeof key === 'string' && close(key)}
          items={tabs.map((t) => ({ key: t.key, label: t.title, closeIcon: <CloseOutlined aria-label={`关闭${t.title}`} /> }))}
          style={{ flex: 1, minWidth: 0, marginBottom: 0 }}
        />
        <Dropdown menu={extraMenu}>
          <Button size="small" type="text" style={{ flex: 'none' }}>
            标签操作 <DownOutlined aria-hidden />
          </Button>
        </Dropdown>
      </div>
      {notice}
      <div style={{ flex: 1, minHeight: 0, position: 'relative' }}>
        {shown.map((t) => (
          // The page scrolls in its own box: a keyboard reaches it (Tab, then the arrow keys) even
          // when nothing in it takes focus (axe scrollable-region-focusable).
          <div
            key={t.key}
            hidden={t.key !== activeKey}
            data-tab={t.key}
            role="region"
            aria-label={t.title}
            tabIndex={0}
            style={{ position: 'absolute', inset: 0, overflow: 'auto', padding: narrow ? 8 : 16 }}
          >
            <TabPage location={locations[t.key] ?? location} />
          </div>
        ))}
      </div>
    </div>
  );
}
