import { organizationsWithin, ORGANIZATION_TYPE, tenantOf } from '../domain/organizations';
import { readMenus, type MenuEntry } from '../domain/schemaFiles';
import { fail } from '../http/envelope';
import { callerOf, type OperationContext } from './context';
import { organizationScope } from './scope';

/**
 * Who may do what, for every business area (issue 32): platform staff, the views a role was
 * granted, stewardship (whose records a caller manages) and the tenants a request works for. The
 * areas ask here rather than one another.
 */

/**
 * The organisations a list works over: the selected organisation (header orgCode, already checked
 * against the caller's scope) and everything below it.
 */
export async function workingOrganizations(context: OperationContext<unknown>): Promise<string[]> {
  return (await organizationScope(context)).organizationCodes;
}

/** Whether the caller may see everything, platform-wide (platform staff at the platform root). */
export function isPlatformStaff(context: OperationContext<unknown>): boolean {
  return callerOf(context).roles.some((role) => role.startsWith('PLATFORM_'));
}

/** Platform staff only ("403" 无权限访问 for anyone else): dictionaries and menu resources. */
export function requirePlatformStaff(context: OperationContext<unknown>): void {
  if (!isPlatformStaff(context)) throw fail.forbidden();
}

/** The roles schemas/menus.json gives the menu entry `code`, at any depth (none when it is not there). */
function menuRoles(code: string): readonly string[] {
  const find = (entries: readonly MenuEntry[]): MenuEntry | undefined => {
    for (const entry of entries) {
      if (entry.code === code) return entry;
      const found = find(entry.children ?? []);
      if (found) return found;
    }
    return undefined;
  };
  return find(readMenus())?.roles ?? [];
}

/**
 * Whether a caller holds one of the roles of the menu `code` (物联网卡, 在线商城, …): the readers
 * of an area whose menu names them. The menus are read once, when an area asks.
 */
export function menuReaders(code: string): (context: OperationContext<unknown>) => boolean {
  const readers = new Set(menuRoles(code));
  return (context) => callerOf(context).roles.some((role) => readers.has(role));
}

/**
 * Reading what a view shows needs that view (a menu entry whose view file it is, granted to one
 * of the caller's roles): "403" 无权限访问 otherwise, so the statistics and other users'
 * accounts are not read through the API by a role without the screen.
 */
export async function requireView(context: OperationContext<unknown>, ...views: string[]): Promise<void> {
  const rows = await context.db.query(
    `SELECT 1 FROM resource r JOIN role_resource g ON g.resource_code = r.code
      WHERE r.kind = 'menu' AND r.view = ANY($1::text[]) AND g.role_code = ANY($2::text[]) LIMIT 1`,
    [views, callerOf(context).roles],
  );
  if (rows.length === 0) throw fail.forbidden();
}

/**
 * Who manages what: platform staff manage everything; tenant staff manage their tenant's records
 * only (the tenant of the selected organisation; "403" for a tenant user outside any tenant).
 */
export type Steward = { kind: 'platform' } | { kind: 'tenant'; tenantCode: string };

export async function stewardOf(context: OperationContext<unknown>): Promise<Steward> {
  if (isPlatformStaff(context)) return { kind: 'platform' };
  const caller = callerOf(context);
  const home = context.organizationCode ?? caller.organizationCodes[0];
  const tenantCode = home ? await tenantOf(context.db, home) : null;
  if (!tenantCode) throw fail.forbidden();
  return { kind: 'tenant', tenantCode };
}

/** The tenant a tenant-side action works for (the selected organisation's); "403" for platform staff without one. */
export async function actingTenant(context: OperationContext<unknown>): Promise<string> {
  const steward = await stewardOf(context);
  if (steward.kind === 'tenant') return steward.tenantCode;
  throw fail.forbidden('请先切换到租户组织');
}

/**
 * Whose catalogue (products, categories), alarm rules and dashboard settings a request works
 * over: the tenant of the selected organisation. Null for platform staff above the tenants, who
 * see every tenant's. A tenant user outside any tenant gets "403".
 */
export async function tenantInScope(context: OperationContext<unknown>): Promise<string | null> {
  const caller = callerOf(context);
  const root = context.organizationCode ?? caller.organizationCodes[0];
  const tenantCode = root ? await tenantOf(context.db, root) : null;
  if (!tenantCode && !isPlatformStaff(context)) throw fail.forbidden();
  return tenantCode;
}

/** The tenant a new rule or setting belongs to: platform staff must first select one. */
export async function owningTenant(context: OperationContext<unknown>): Promise<string> {
  const tenantCode = await tenantInScope(context);
  if (!tenantCode) throw fail.badRequest('请先在组织切换中选择一个租户');
  return tenantCode;
}

/** The tenant the caller works for: that of their first organisation (null for platform staff). */
export async function callerTenant(context: OperationContext<unknown>): Promise<string | null> {
  const home = callerOf(context).organizationCodes[0];
  return home ? tenantOf(context.db, home) : null;
}

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
