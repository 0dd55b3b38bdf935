import { Alert, Card, Descriptions } from 'antd';
import { pageExists, pageFile } from '../../renderers/pages';
import { ConsolePage } from '../renderer/ConsolePage';

/**
 * A hand-written layout path of SPEC §2: rendered from its page schema when it has one, else its
 * title and view file (its screen arrives with its issue).
 */
export default function LayoutPage({ title, view }: { title: string; view: string }) {
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
