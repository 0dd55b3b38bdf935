import type { Queryable } from '../db/database';
import { fail } from '../http/envelope';
import type { OperationContext } from './context';
import { stewardOf, type Steward } from './access';

/**
 * Which roles a caller sees and may hand out (issue 32: the role screens, system/roles.ts, and the
 * user screens, administration/, ask here rather than one another). Platform staff see every
 * role; tenant staff the built-in tenant roles and their own tenant's.
 */

/**
 * The condition (on role `r`) that keeps the roles `steward` sees, with `$?` for its value (as a
 * list's Conditions take it); none for platform staff, who see every role.
 */
export function rolesSeenBy(steward: Steward): { sql: string; value: string } | null {
  if (steward.kind === 'platform') return null;
  return { sql: "((r.organization_code IS NULL AND r.scope = 'tenant') OR r.organization_code = $?)", value: steward.tenantCode };
}

/**
 * Whether the caller may give the role `roleCode` to a user of `organizationCodes`: "404" unless
 * the caller sees the role (so never a platform role for tenant staff, nor another tenant's own
 * role), "409" for a tenant's own role and a user outside that tenant.
 */
export async function checkRoleAssignable(context: OperationContext<unknown>, roleCode: string, organizationCodes: string[]): Promise<void> {
  const seen = rolesSeenBy(await stewardOf(context));
  const [row] = await context.db.query<{ organization_code: string | null }>(
    `SELECT r.organization_code FROM role r WHERE r.code = $1${seen ? ` AND ${seen.sql.replace('$?', '$2')}` : ''}`,
    seen ? [roleCode, seen.value] : [roleCode],
  );
  if (!row) throw fail.notFound('角色不存在');
  if (row.organization_code && !(await userInTenant(context.db, organizationCodes, row.organization_code))) {
    throw fail.conflict('该角色不属于用户所在的租户');
  }
}

/** Whether one of `organizations` lies in the tenant `tenantCode` (or is it). */
async function userInTenant(db: Queryable, organizations: string[], tenantCode: string): Promise<boolean> {
  const rows = await db.query(
    `WITH RECURSIVE below (code) AS (
       SELECT code FROM organization WHERE code = $1
       UNION SELECT o.code FROM organization o JOIN below b ON o.parent_code = b.code
     )
     SELECT 1 FROM below WHERE code = ANY($2::text[]) LIMIT 1`,
    [tenantCode, organizations],
  );
  return rows.length > 0;
}
