import type { DataOf } from '../../api/typed';
import type { MenuResource } from '../../session/types';
import { listLink } from './figureLinks';
import { FigureRow, FigureTile } from './FigureTile';

/** The fleet as 工作台 shows it (a tenant's or the platform's): home.*.summary's `devices`. */
export type FleetData = NonNullable<DataOf<'home.tenant.summary'>['devices']>;

const DEVICES = 'device/all';

/**
 * 设备总数 and 在线 / 离线 / 未激活, each leading to 全部设备 under its 在线状态; 在线率 to 设备看板;
 * the readings stored per minute over the last minutes.
 */
export function FleetFigures({ fleet, menus }: { fleet: FleetData; menus: readonly MenuResource[] }) {
  return (
    <FigureRow label="设备概况">
      {[
        <FigureTile key="total" name="devices-total" label="设备总数" value={fleet.total} unit="台" link={listLink(menus, DEVICES)} />,
        <FigureTile key="online" name="devices-online" label="在线" tone="success" value={fleet.online} unit="台" link={listLink(menus, DEVICES, { onlineState: 'online' })} />,
        <FigureTile key="offline" name="devices-offline" label="离线" tone="error" value={fleet.offline} unit="台" link={listLink(menus, DEVICES, { onlineState: 'offline' })} />,
        <FigureTile key="inactive" name="devices-inactive" label="未激活" tone="default" value={fleet.inactive} unit="台" link={listLink(menus, DEVICES, { onlineState: 'inactive' })} />,
        <FigureTile
          key="rate"
          name="devices-rate"
          label="在线率"
          value={fleet.onlinePercent}
          decimals={1}
          unit="%"
          note="在线 ÷（在线 + 离线）"
          link={listLink(menus, 'dashboards/device')}
        />,
        <FigureTile
          key="readings"
          name="devices-readings"
          label="每分钟读数"
          tone="processing"
          value={fleet.readingsPerMinute}
          decimals={1}
          unit="条/分钟"
          note={`最近 ${Math.ceil(fleet.windowSeconds / 60)} 分钟共 ${fleet.readings.toLocaleString('zh-CN')} 条`}
        />,
      ]}
    </FigureRow>
  );
}
