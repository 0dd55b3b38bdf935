import { Card, Descriptions } from 'antd';

/** A hand-written layout page of SPEC §2 whose screen has not been built yet: its title and view. */
export default function LayoutPage({ title, view }: { title: string; view: string }) {
  return (
    <Card title={title} data-testid="menu-view">
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label="视图文件">{view}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
