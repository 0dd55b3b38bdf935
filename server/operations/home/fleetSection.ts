import type { OperationContext } from '../../core/context';
import { fleetFigures, percentOf, readingRate } from '../../core/fleetFigures';
import type { OrganizationScope } from '../../core/scope';

/**
 * The fleet as a home page shows it: the figures every board shares (core/fleetFigures.ts) and the
 * readings stored in the last minutes. 在线 / 离线 / 未激活 are 全部设备's totals under its 在线状态
 * filter; 在线率 is online over online + offline.
 */
export interface FleetSection {
  total: number;
  online: number;
  offline: number;
  inactive: number;
  /** 在线率 as a ratio (three decimals) and as a percentage (one decimal). */
  onlineRate: number;
  onlinePercent: number;
  /** Readings stored per minute over the window (the current minute and the four before it). */
  readingsPerMinute: number;
  readings: number;
  windowSeconds: number;
}

export async function fleetSection(context: OperationContext<unknown>, scope: OrganizationScope): Promise<FleetSection> {
  const [fleet, rate] = await Promise.all([fleetFigures(context.db, scope), readingRate(context.db, scope, context.now)]);
  return {
    total: fleet.total,
    online: fleet.online,
    offline: fleet.offline,
    inactive: fleet.inactive,
    onlineRate: fleet.onlineRate,
    onlinePercent: percentOf(fleet.onlineRate),
    readingsPerMinute: rate.perMinute,
    readings: rate.readings,
    windowSeconds: rate.seconds,
  };
}
