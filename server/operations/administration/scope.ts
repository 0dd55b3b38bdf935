import { organizationsWithin } from '../../domain/organizations';
import { callerOf, type OperationContext } from '../define';

/**
 * The organisations a list works over: the selected organisation (header orgCode, already checked
 * against the caller's scope) and everything below it.
 */
export async function workingOrganizations(context: OperationContext<unknown>): Promise<string[]> {
  const caller = callerOf(context);
  const root = context.organizationCode ?? caller.organizationCodes[0];
  if (!root) return [];
  return (await organizationsWithin(context.db, [root])).map((org) => org.code);
}

/** Whether the caller may see everything, platform-wide (platform staff at the platform root). */
export function isPlatformStaff(context: OperationContext<unknown>): boolean {
  return callerOf(context).roles.some((role) => role.startsWith('PLATFORM_'));
}

/** ORDER BY from the page's sortParamList, only over whitelisted fields. */
export function orderBy(context: OperationContext<unknown>, columns: Readonly<Record<string, string>>, fallback: string): string {
  const sorts = (context.page?.sortParamList ?? [])
    .filter((sort) => Object.prototype.hasOwnProperty.call(columns, sort.field))
    .map((sort) => `${columns[sort.field]} ${sort.order === 'asc' ? 'ASC' : 'DESC'}`);
  return sorts.length ? `${sorts.join(', ')}, ${fallback}` : fallback;
}

export function paging(context: OperationContext<unknown>): { limit: number; offset: number; pageNumber: number; pageSize: number } {
  const pageNumber = context.page?.pageNumber ?? 1;
  const pageSize = context.page?.pageSize ?? 20;
  return { limit: pageSize, offset: (pageNumber - 1) * pageSize, pageNumber, pageSize };
}
