import { Alert, Card, Descriptions } from 'antd';
import { useAtomValue } from 'jotai';
import { useLocation } from 'react-router-dom';
import { pageExists, pageFile } from '../../renderers/pages';
import { ConsolePage } from '../renderer/ConsolePage';
import { renderScreen, screenFor } from '../screens/registry';
import { findMenuByUrl } from '../session/menu';
import { sessionAtom } from '../session/session';
import type { MenuResource } from '../session/types';

/**
 * A hand-written layout path of SPEC §2: its hand-written screen when one is registered for the
 * view (with the menu entry of the path, for its buttons: none when the role has no such entry),
 * else its page schema when it has one, else its title and view file (its screen arrives with its issue).
 */
export default function LayoutPage({ title, view }: { title: string; view: string }) {
  const session = useAtomValue(sessionAtom);
  const { pathname } = useLocation();
  if (screenFor(view)) {
    const menu: MenuResource = (session ? findMenuByUrl(session.menus, pathname) : undefined) ?? {
      resourceCode: '',
      parentCode: null,
      resourceName: title,
      resourcePath: pathname,
      resourceUrl: pathname,
      resourceIcon: '',
      fileUrl: view,
      menuClassificationCode: '',
      isShown: false,
      isCached: false,
      buttonList: [],
      children: [],
    };
    return renderScreen({ ...menu, fileUrl: view });
  }
  if (pageExists(view)) return <ConsolePage view={view} menu={undefined} />;
  return (
    <Card title={title} data-testid="menu-view">
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={`该页面尚未配置：${pageFile(view)}`} />
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label="视图文件">{view}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
