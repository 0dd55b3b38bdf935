import { Alert, Card, Descriptions, Empty, Tag } from 'antd';
import { pageExists, pageFile } from '../../renderers/pages';
import { ConsolePage } from '../renderer/ConsolePage';
import { useAtomValue } from 'jotai';
import { Navigate, useLocation } from 'react-router-dom';
import { isKnownMenuPath } from '../router/knownPaths';
import { renderScreen } from '../screens/registry';
import { findMenuByUrl } from '../session/menu';
import { sessionAtom } from '../session/session';
import type { MenuResource } from '../session/types';
import { ForbiddenPage } from './ForbiddenPage';

/** A view whose page schema is not written yet shows its title, view file and buttons. */
export function MenuViewCard({ menu }: { menu: MenuResource }) {
  return (
    <Card title={menu.resourceName} data-testid="menu-view">
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={`该视图尚未配置页面模式：${pageFile(menu.fileUrl)}`} />
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label="视图文件">{menu.fileUrl}</Descriptions.Item>
        <Descriptions.Item label="路由">{menu.resourceUrl}</Descriptions.Item>
        <Descriptions.Item label="按钮权限">
          {menu.buttonList?.length ? menu.buttonList.map((b) => <Tag key={b.resourceUrl}>{b.resourceName ?? b.resourceUrl}</Tag>) : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="无" />}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/**
 * Any layout path not fixed in the router is a menu route from the server; a page of the platform
 * outside the role's menu answers 403 inside the frame; anything else is unknown (/404).
 */
export default function MenuView() {
  const session = useAtomValue(sessionAtom);
  const { pathname } = useLocation();
  const menu = session ? findMenuByUrl(session.menus, pathname) : undefined;
  if (!session) return null;
  if (!menu) return isKnownMenuPath(pathname) ? <ForbiddenPage /> : <Navigate to="/404" replace />;
  return <MenuContent menu={menu} />;
}

/** The view of a menu resource: its hand-written screen, else its page schema when there is one. */
export function MenuContent({ menu }: { menu: MenuResource }) {
  const screen = renderScreen(menu);
  if (screen) return screen;
  return pageExists(menu.fileUrl) ? <ConsolePage view={menu.fileUrl} menu={menu} /> : <MenuViewCard menu={menu} />;
}
