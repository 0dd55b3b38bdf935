import type { Queryable } from '../../db/database';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import { enumOf, schemaOf } from '../../core/params';
import { isPlatformStaff, menuReaders } from '../../core/access';
import { organizationScope, type OrganizationScope } from '../../core/scope';
import type { Conditions } from '../../core/listQuery';
import { column, type Column } from '../../core/listing';
import { isoOrNull } from '../../core/values';

/**
 * Who may do what with cards, and which records a request sees.
 *
 * Reading: the card areas are the menus 物联网卡 (iotCard: tenant admins and platform staff) and
 * 卡片供应 (cardSupply: platform staff only); their readers are the roles those menus are given
 * in schemas/menus.json. Writing is gated again per button by the route (operations marked
 * `"button": true`).
 *
 * Scope: every card document has an owner organisation (the platform while in stock, then a
 * tenant, project or area); a request sees those under its selected organisation. Another
 * tenant's record is not acknowledged to exist ("404"). Lists read it through listQuery: each
 * card table keeps `tenant_code` equal to the tenant of its owner (null only for a card in the
 * platform's stock, whose owner is the platform itself), so the scope is the tenant equality its
 * index leads with (core/scope.ts's BY_TENANT).
 */

const isCardReader = menuReaders('iotCard');
const isSupplyReader = menuReaders('cardSupply');

/** Roles of the 物联网卡 menu ("403" for anyone else). */
export function requireCardStaff(context: OperationContext<unknown>): void {
  if (!isCardReader(context)) throw fail.forbidden();
}

/** Roles of the 卡片供应 menu: platform staff ("403" for anyone else). */
export function requireSupplyStaff(context: OperationContext<unknown>): void {
  if (!isSupplyReader(context) || !isPlatformStaff(context)) throw fail.forbidden();
}

export const loginNameOf = (context: OperationContext<unknown>): string => callerOf(context).loginName;

/** What a request works over: the selected organisation and below (core/scope.ts, read once a request). */
export function cardScope(context: OperationContext<unknown>): Promise<OrganizationScope> {
  return organizationScope(context);
}

/**
 * A card order (`alias`) within the scope: an order belongs to its organisation, or to its tenant
 * while it names none (COALESCE(organization_code, tenant_code)); its tenant_code is the tenant of
 * that organisation, so a tenant's whole tree is the tenant equality.
 */
export function cardOrderScope(where: Conditions, scope: OrganizationScope, alias = 'o'): Conditions {
  if (scope.coverage === 'everything') return where;
  if (scope.tenantCode) {
    where.add(`${alias}.tenant_code = $?`, scope.tenantCode);
    if (scope.coverage === 'tenant') return where;
  }
  return where.add(`COALESCE(${alias}.organization_code, ${alias}.tenant_code) = ANY($?::text[])`, scope.organizationCodes);
}

/** The next id of a serial table, so that a document's code can carry it. */
export async function nextId(db: Queryable, table: 'card_delivery' | 'card_alter' | 'card_renew_order' | 'card_recharge' | 'card_stock_batch' | 'card_order'): Promise<number> {
  const [row] = await db.query<{ id: string | number }>(`SELECT nextval(pg_get_serial_sequence('${table}', 'id')) AS id`);
  return Number(row.id);
}

/** PostgreSQL numeric arrives as text. */
export const money = (value: string | number | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));
export const mb = (value: string | number | null | undefined): number => Math.round(Number(value ?? 0) * 100) / 100;

/** Whole days from now to `time` (negative when past), or null. */
export function daysUntil(time: Date | string | null, now: Date): number | null {
  if (time === null) return null;
  return Math.floor((new Date(time).getTime() - now.getTime()) / 86_400_000);
}

// ── list helpers (issue 32; candidates for core/listing.ts) ─────────────────────────────────────

/** A time as ISO 8601 text, null for none (the card documents' times). */
export const nullableTimeColumn = (sql: string): Column<string | null> => column(sql, isoOrNull);
/** A PostgreSQL numeric (it arrives as text) as a number, null for none. */
export const moneyColumn = (sql: string): Column<number | null> => column(sql, money);

// ── param schemas shared by the card operations ─────────────────────────────────────────────────

export const codeParam = (maxLength = 32) => schemaOf<string>({ type: 'string', minLength: 4, maxLength, pattern: '^[A-Za-z0-9-]+$' });
export const iccidParam = schemaOf<string>({ type: 'string', pattern: '^89[0-9]{17,18}$' });
export const iccidList = (maxItems: number) => schemaOf<string[]>({ type: 'array', minItems: 1, maxItems, uniqueItems: true, items: iccidParam });
export const idList = (maxItems: number) => schemaOf<number[]>({ type: 'array', minItems: 1, maxItems, uniqueItems: true, items: { type: 'integer', minimum: 1 } });
export const yearsParam = schemaOf<number>({ type: 'integer', minimum: 1, maximum: 10 });
export const amountParam = schemaOf<number>({ type: 'number', minimum: 0, maximum: 100_000_000 });

/** The platform organisation: the owner of the cards in stock. */
export async function platformCode(db: Queryable): Promise<string> {
  const [row] = await db.query<{ code: string }>('SELECT code FROM organization WHERE type = 1 ORDER BY id LIMIT 1');
  if (!row) throw fail.conflict('平台组织不存在');
  return row.code;
}

/** Express company and waybill number (SPEC §5: letters, digits and commas). */
export const expressCompanyParam = enumOf(['sf', 'jd', 'zto', 'ems']);
export const expressNoParam = schemaOf<string>({ type: 'string', minLength: 6, maxLength: 64, pattern: '^[A-Za-z0-9,]+$' });
export const phoneParam = schemaOf<string>({ type: 'string', pattern: '^1[3-9]\\d{9}$' });
