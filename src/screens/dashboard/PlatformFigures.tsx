import { Card, Table } from 'antd';
import type { DataOf } from '../../api/typed';
import { formatNumber } from '../../format/numbers';
import type { MenuResource } from '../../session/types';
import { listLink } from './figureLinks';
import { FigureRow, FigureTile } from './FigureTile';
import { FleetFigures } from './FleetFigures';
import { SectionTitle } from './TenantFigures';

type PlatformHome = DataOf<'home.platform.summary'>;
type TenantRow = NonNullable<PlatformHome['tenants']>['largest'][number];

const number = (value: number) => formatNumber(value, 0);

/** 工作台 of the platform's staff: the tenants, the device messages per second, the failed deliveries, the whole fleet. */
export function PlatformFigures({ home, menus }: { home: PlatformHome; menus: readonly MenuResource[] }) {
  const platform = [
    home.tenants ? <FigureTile key="tenants" name="tenants-total" label="租户" value={home.tenants.total} unit="个" link={listLink(menus, 'tenantConfig/list')} /> : null,
    home.messages ? (
      <FigureTile
        key="messages"
        name="messages-rate"
        label="设备消息"
        tone="processing"
        value={home.messages.perSecond}
        decimals={2}
        unit="条/秒"
        note={`最近 ${Math.ceil(home.messages.windowSeconds / 60)} 分钟共 ${number(home.messages.readings)} 条`}
        link={listLink(menus, 'system/status')}
      />
    ) : null,
    home.deliveries ? (
      <FigureTile key="failed" name="deliveries-failed" label="投递失败" tone="error" value={home.deliveries.failed} unit="条" link={listLink(menus, 'notification/deliveries', { state: 'failed' })} />
    ) : null,
    home.deliveries ? (
      <FigureTile key="pending" name="deliveries-pending" label="待投递" tone="warning" value={home.deliveries.pending} unit="条" link={listLink(menus, 'notification/deliveries', { state: 'pending' })} />
    ) : null,
  ].filter((tile) => tile !== null);
  return (
    <>
      {platform.length ? (
        <>
          <SectionTitle>平台概况</SectionTitle>
          <FigureRow label="平台概况">{platform}</FigureRow>
        </>
      ) : null}
      {home.devices ? (
        <>
          <SectionTitle>设备概况</SectionTitle>
          <FleetFigures fleet={home.devices} menus={menus} />
        </>
      ) : null}
      {home.tenants?.largest.length ? (
        <>
          <SectionTitle>设备最多的租户</SectionTitle>
          <Card size="small" styles={{ body: { padding: 0 } }}>
            <Table<TenantRow>
              data-testid="tenant-fleets"
              size="small"
              rowKey="code"
              pagination={false}
              scroll={{ x: 'max-content' }}
              dataSource={home.tenants.largest}
              columns={[
                { title: '租户', dataIndex: 'name', key: 'name' },
                { title: '设备', dataIndex: 'devices', key: 'devices', align: 'right', render: number },
                { title: '在线', dataIndex: 'online', key: 'online', align: 'right', render: number },
                { title: '离线', dataIndex: 'offline', key: 'offline', align: 'right', render: number },
                { title: '未激活', dataIndex: 'inactive', key: 'inactive', align: 'right', render: number },
                { title: '在线率', dataIndex: 'onlinePercent', key: 'onlinePercent', align: 'right', render: (value: number) => `${formatNumber(value, 1)}%` },
              ]}
            />
          </Card>
        </>
      ) : null}
    </>
  );
}
