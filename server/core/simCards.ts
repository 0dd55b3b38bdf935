import { addDays, CARD_STATE } from '../domain/cards';
import { organizationsWithin } from '../domain/organizations';
import type { OperationContext } from './context';
import type { Conditions } from './listQuery';
import { contains, custom, equals, listing } from './listing';
import { enumParam, keywordParam, organizationParam, schemaOf } from './params';
import { BY_TENANT, organizationScope } from './scope';

/**
 * The card list's filters and WHERE (物联网卡, card.sim.page), declared once below the areas
 * (issue 32): the cards area lists, exports and recharges under them, the tenant home counts the
 * cards coming to their end under them.
 */

/** The FROM of a card list's count and choice of rows: the cards, with their package when the filter reads its network. */
export const cardNarrowFrom = (needed: string): string => (/\bp\./.test(needed) ? 'sim_card s LEFT JOIN card_charge_standard p ON p.code = s.package_code' : 'sim_card s');

/** The service-end windows a card list filters by. */
export const EXPIRY_WINDOWS = ['expiring30', 'expiring60', 'expired'] as const;
export const CARD_OPERATORS = ['cmcc', 'cucc', 'ctcc', 'cbn'] as const;

/** Adds the expiry window filter (cards whose service ends within 30 / 60 days, or has ended). */
export function expiryClause(where: Conditions, expiry: string | undefined, now: Date, alias = 's'): void {
  if (expiry === 'expired') where.add(`${alias}.expires_at <= $?`, now);
  else if (expiry === 'expiring30' || expiry === 'expiring60') {
    where.add(`${alias}.expires_at > $?`, now).add(`${alias}.expires_at <= $?`, addDays(now, expiry === 'expiring30' ? 30 : 60));
  }
}

/** What every card list starts from: the cards of the request's organisations (by tenant at a tenant's root). */
export async function cardListScope(where: Conditions, context: OperationContext<unknown>): Promise<void> {
  where.scope(await organizationScope(context), 's', BY_TENANT);
}

/** The card list's filters, in its param's order (a list of cards takes those it needs). */
export const CARD_FILTERS = {
  keyword: contains(['s.iccid', 's.msisdn', "COALESCE(s.device_code, '')"], keywordParam),
  state: equals('s.state', enumParam(Object.values(CARD_STATE))),
  operator: equals('s.operator', enumParam(CARD_OPERATORS)),
  network: equals('p.network', enumParam(['nb', 'cat1', '4g', '5g'])),
  tenantCode: equals('s.tenant_code', organizationParam),
  organizationCode: custom(organizationParam, async (where, code, context) => {
    where.add('s.organization_code = ANY($?::text[])', (await organizationsWithin(context.db, [code])).map((org) => org.code));
  }),
  packageCode: equals('s.package_code', schemaOf<string>({ type: 'string', maxLength: 64 })),
  expiry: custom(enumParam(EXPIRY_WINDOWS), (where, expiry, context) => expiryClause(where, expiry, context.now)),
  bound: custom(enumParam(['yes', 'no']), (where, bound) => void where.add(bound === 'yes' ? 's.device_code IS NOT NULL' : 's.device_code IS NULL')),
};

/** The cards the filters pick within reach: the card list's WHERE, for a count of it elsewhere (the tenant home). */
export const CARDS_WHERE = listing({ from: 'sim_card s', narrowFrom: cardNarrowFrom, scope: cardListScope, filters: CARD_FILTERS, columns: {}, sorts: [], fallback: 's.id' });
