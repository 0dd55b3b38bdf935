import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import { organizationScope } from '../listQuery';

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
