import type { SqlParam } from '../../db/database';
import { tenantNames } from '../../domain/organizations';
import { fail } from '../../http/envelope';
import { isPlatformStaff, tenantScope } from '../../core/access';
import { defineOperation } from '../../core/operation';
import type { OperationContext } from '../../core/context';
import { onlineRateOf, percentOf, readingRate } from '../../core/fleetFigures';
import { deviceScope } from '../../core/deviceScope';
import { Conditions } from '../../core/listQuery';
import { fleetSection, type FleetSection } from './fleetSection';
import { listCount, type ListCount } from './listCounts';
import { grantedViews, whenGranted } from './views';

/**
 * 工作台 of the platform's staff (PLATFORM_ADMIN, PLATFORM_OPERATOR): the tenants with their fleets,
 * the whole fleet, the device messages the platform takes per second, and the channel messages
 * it failed to deliver. Within the organisation selected, as every list (the platform root: all of
 * it); the delivery log is the platform's own, as 投递日志 shows it to platform staff. A section is
 * answered to those whose menus hold its list; anyone but platform staff "403".
 */

export const PLATFORM_HOME_VIEWS = ['tenantConfig/list', 'device/all', 'system/status', 'notification/deliveries'] as const;

/** The tenants shown with their fleets, the largest first. */
const TENANT_ROWS = 10;

export interface TenantFleet {
  code: string;
  name: string;
  devices: number;
  online: number;
  offline: number;
  inactive: number;
  onlinePercent: number;
}

export interface PlatformHome {
  asOf: string;
  /** 租户配置's tenants (how many), and the largest of them by devices. */
  tenants: { total: number; largest: TenantFleet[] } | null;
  /** 全部设备, the platform's whole fleet at its root. */
  devices: FleetSection | null;
  /** Device readings stored per second over the last minutes (the window of the fleet's readings per minute). */
  messages: { perSecond: number; readings: number; windowSeconds: number } | null;
  /** 投递日志: 投递失败 (given up after the last attempt) and 待投递 (waiting for an attempt). */
  deliveries: { failed: ListCount; pending: ListCount } | null;
}

async function tenantsSection(context: OperationContext<unknown>): Promise<PlatformHome['tenants']> {
  const { tenantCodes } = await tenantScope(context);
  const rows = await context.db.query<{ code: string; devices: number; online: number; offline: number; inactive: number }>(
    `SELECT t.tenant_code AS code, sum(t.devices)::int AS devices, sum(t.online)::int AS online, sum(t.offline)::int AS offline, sum(t.inactive)::int AS inactive
       FROM device_tally t WHERE t.tenant_code = ANY($1::text[])
      GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${TENANT_ROWS}`,
    [tenantCodes],
  );
  const names = await tenantNames(context.db, tenantCodes);
  const [{ total }] = await context.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM organization o WHERE o.code = ANY($1::text[])`, [tenantCodes]);
  return {
    total,
    largest: rows.map((row) => ({ ...row, name: names.get(row.code) ?? row.code, onlinePercent: percentOf(onlineRateOf(row.online, row.offline)) })),
  };
}

/** 投递日志's channel messages in one state (the list's own conditions for platform staff). */
function deliveryCount(context: OperationContext<unknown>, state: 'failed' | 'pending'): Promise<ListCount> {
  const params: SqlParam[] = [];
  const where = new Conditions(params).add('o.delivery_state IS NOT NULL').add("o.code = ''").add('o.delivery_state = $?', state);
  return listCount(context, 'outbox o', where);
}

export const platformHome = defineOperation('home.platform.summary', {
  handler: async (context): Promise<PlatformHome> => {
    if (!isPlatformStaff(context)) throw fail.forbidden();
    const granted = await grantedViews(context, PLATFORM_HOME_VIEWS);
    const scope = await deviceScope(context);
    const [tenants, devices, messages, deliveries] = await Promise.all([
      whenGranted(granted, 'tenantConfig/list', () => tenantsSection(context)),
      whenGranted(granted, 'device/all', () => fleetSection(context, scope)),
      whenGranted(granted, 'system/status', async () => {
        const rate = await readingRate(context.db, scope, context.now);
        return { perSecond: Math.round((rate.readings / rate.seconds) * 100) / 100, readings: rate.readings, windowSeconds: rate.seconds };
      }),
      whenGranted(granted, 'notification/deliveries', async () => {
        const [failed, pending] = await Promise.all([deliveryCount(context, 'failed'), deliveryCount(context, 'pending')]);
        return { failed, pending };
      }),
    ]);
    return { asOf: context.now.toISOString(), tenants, devices, messages, deliveries };
  },
});
