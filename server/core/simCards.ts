import { addDays } from '../domain/cards';
import { organizationsWithin } from '../domain/organizations';
import type { OperationContext } from './context';
import { Conditions, containing } from './listQuery';
import { BY_TENANT, organizationScope } from './scope';

/**
 * The card list's filters and WHERE (物联网卡, card.sim.page), below the areas (issue 32): the cards
 * area lists, exports and recharges under it, the tenant home counts the cards coming to their end
 * under it.
 */

/** The FROM of a card list's count and choice of rows: the cards, with their package when the filter reads its network. */
export const cardNarrowFrom = (needed: string): string => (/\bp\./.test(needed) ? 'sim_card s LEFT JOIN card_charge_standard p ON p.code = s.package_code' : 'sim_card s');

export interface CardFilter {
  keyword?: string;
  state?: string;
  operator?: string;
  network?: string;
  tenantCode?: string;
  organizationCode?: string;
  packageCode?: string;
  expiry?: string;
  bound?: string;
}

/** Adds the expiry window filter (cards whose service ends within 30 / 60 days, or has ended). */
export function expiryClause(where: Conditions, expiry: string | undefined, now: Date, alias = 's'): void {
  if (expiry === 'expired') where.add(`${alias}.expires_at <= $?`, now);
  else if (expiry === 'expiring30' || expiry === 'expiring60') {
    where.add(`${alias}.expires_at > $?`, now).add(`${alias}.expires_at <= $?`, addDays(now, expiry === 'expiring30' ? 30 : 60));
  }
}

export async function cardConditions(context: OperationContext<CardFilter>): Promise<Conditions> {
  const filter = context.param;
  const where = new Conditions()
    .scope(await organizationScope(context), 's', BY_TENANT)
    .when(filter.keyword, "(s.iccid ILIKE $? OR s.msisdn ILIKE $? OR COALESCE(s.device_code, '') ILIKE $?)", (v) => containing(String(v)))
    .when(filter.state, 's.state = $?')
    .when(filter.operator, 's.operator = $?')
    .when(filter.network, 'p.network = $?')
    .when(filter.tenantCode, 's.tenant_code = $?')
    .when(filter.packageCode, 's.package_code = $?');
  if (filter.organizationCode)
    where.add(
      's.organization_code = ANY($?::text[])',
      (await organizationsWithin(context.db, [filter.organizationCode])).map((org) => org.code),
    );
  if (filter.bound === 'yes') where.add('s.device_code IS NOT NULL');
  if (filter.bound === 'no') where.add('s.device_code IS NULL');
  expiryClause(where, filter.expiry, context.now);
  return where;
}
