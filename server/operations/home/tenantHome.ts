import { CARDS_WHERE, cardNarrowFrom } from '../../core/simCards';
import { defineOperation } from '../../core/operation';
import type { OperationContext } from '../../core/context';
import { alarmFigures, type AlarmFigures } from '../../core/alarmFigures';
import { deviceScope } from '../../core/deviceScope';
import { workScope, type WorkScope } from '../../core/workScope';
import { fleetSection, type FleetSection } from './fleetSection';
import { listCount, patrolCount, repairCount, type ListCount } from './listCounts';
import { grantedViews, whenGranted } from './views';

/**
 * 工作台 of a tenant's staff (TENANT_ADMIN, ROLE_TENANT_ORDINARY): the fleet now, the alarms
 * waiting and raised today by level, the work past its deadline and the cards about to expire,
 * within the selected organisation like every list. A section is answered to those whose menus
 * hold the list it counts (null otherwise), each figure the total of that list under a filter the
 * console puts in the list's address; "403" for a caller whose menus hold none of them.
 */

export const TENANT_HOME_VIEWS = ['device/all', 'alarm/record', 'repair/order', 'patrol/list', 'card/internet'] as const;

export interface TenantHome {
  /** When the figures were read (ISO 8601). */
  asOf: string;
  /** 全部设备. */
  devices: FleetSection | null;
  /** 告警记录: 待处理, and 今日新增 (its 触发时间 today), by level. */
  alarms: AlarmFigures | null;
  /** 维修工单: 已超期 (是否超期 = 是) and 待派单 (已创建, not assigned yet). */
  repair: { overdue: ListCount; created: ListCount } | null;
  /** 巡检任务: 已逾期. */
  patrol: { overdue: ListCount } | null;
  /** 物联网卡: 30 天内到期. */
  cards: { expiring30: ListCount } | null;
}

async function cardsSection(context: OperationContext<unknown>): Promise<TenantHome['cards']> {
  const where = await CARDS_WHERE.where({ ...context, param: { expiry: 'expiring30' } });
  return { expiring30: await listCount(context, cardNarrowFrom(where.sql), where) };
}

export const tenantHome = defineOperation('home.tenant.summary', {
  handler: async (context): Promise<TenantHome> => {
    const granted = await grantedViews(context, TENANT_HOME_VIEWS);
    let work: Promise<WorkScope> | undefined;
    const workOf = () => (work ??= workScope(context));
    const [devices, alarms, repair, patrol, cards] = await Promise.all([
      whenGranted(granted, 'device/all', async () => fleetSection(context, await deviceScope(context))),
      whenGranted(granted, 'alarm/record', () => alarmFigures(context)),
      whenGranted(granted, 'repair/order', async () => {
        const [overdue, created] = await Promise.all([repairCount(context, await workOf(), { overdue: '1' }), repairCount(context, await workOf(), { state: 'created' })]);
        return { overdue, created };
      }),
      whenGranted(granted, 'patrol/list', async () => ({ overdue: await patrolCount(context, await workOf(), 'overdue') })),
      whenGranted(granted, 'card/internet', () => cardsSection(context)),
    ]);
    return { asOf: context.now.toISOString(), devices, alarms, repair, patrol, cards };
  },
});
