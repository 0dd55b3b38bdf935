import type { Queryable } from '../../db/database';
import { organizationsWithin, ORGANIZATION_TYPE, tenantOf } from '../../domain/organizations';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import type { ParamSchema } from '../../core/params';

/**
 * Which tenants' catalogue records (templates, materials, settings) a request works over. Tenant
 * staff work over their tenant, whichever of its organisations they selected; platform staff over
 * the tenant of the organisation they selected, or every tenant below the platform root when they
 * selected the root. `home` is where a new record goes: null above the tenants, where only the
 * platform's own records (templates offered to every tenant) are written.
 */
export interface TenantScope {
  tenantCodes: string[];
  home: string | null;
}

export async function tenantScope(context: OperationContext<unknown>): Promise<TenantScope> {
  const caller = callerOf(context);
  const selected = context.organizationCode ?? caller.organizationCodes[0];
  if (!selected) throw fail.forbidden();
  const tenant = await tenantOf(context.db, selected);
  if (tenant) return { tenantCodes: [tenant], home: tenant };
  const tenants = (await organizationsWithin(context.db, [selected])).filter((org) => org.type === ORGANIZATION_TYPE.tenant).map((org) => org.code);
  return { tenantCodes: tenants, home: null };
}

/** The tenant a new record goes to ("400" above the tenants, where the caller must pick one first). */
export function homeTenant(scope: TenantScope): string {
  if (!scope.home) throw fail.badRequest('请先在组织切换中选择租户');
  return scope.home;
}

/** The names of tenants, by code. */
export async function tenantNames(db: Queryable, codes: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.query<{ code: string; name: string }>('SELECT code, name FROM organization WHERE code = ANY($1::text[])', [codes]);
  return new Map(rows.map((row) => [row.code, row.name]));
}

/** A positive record id. */
export const recordId: ParamSchema = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };

/** An amount of money or stock, bounded (stored rounded to two decimals, see `cents`). */
export const quantity = (maximum: number, positive = false): ParamSchema =>
  positive ? { type: 'number', exclusiveMinimum: 0, maximum } : { type: 'number', minimum: 0, maximum };

/** A quantity rounded to the two decimals a numeric(12, 2) column keeps. */
export const cents = (value: number): number => Math.round(value * 100) / 100;

/** numeric columns come back from PostgreSQL as strings. */
export const numberOrNull = (value: string | number | null): number | null => (value === null ? null : Number(value));
