import { Alert, Card, Descriptions, Empty, Tag } from 'antd';
import { pageFile } from '../../renderers/pages';
import type { MenuResource } from '../session/types';

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

