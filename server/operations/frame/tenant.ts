import type { Queryable } from '../../db/database';
import { ORGANIZATION_TYPE } from '../../domain/organizations';
import { callerOf, type OperationContext } from '../define';

/** The tenant (type-2 organisation) at or above `organizationCode`, or null (the platform, unknown codes). */
export async function tenantOf(db: Queryable, organizationCode: string): Promise<string | null> {
  const [row] = await db.query<{ code: string }>(
    `WITH RECURSIVE up (code, parent_code, type, depth) AS (
       SELECT code, parent_code, type, 0 FROM organization WHERE code = $1
       UNION ALL
       SELECT p.code, p.parent_code, p.type, up.depth + 1 FROM organization p JOIN up ON p.code = up.parent_code WHERE up.depth < 64
     )
     SELECT code FROM up WHERE type = $2 ORDER BY depth LIMIT 1`,
    [organizationCode, ORGANIZATION_TYPE.tenant],
  );
  return row?.code ?? null;
}

/** The tenant the caller works for: that of their first organisation (null for platform staff). */
export async function callerTenant(context: OperationContext<unknown>): Promise<string | null> {
  const home = callerOf(context).organizationCodes[0];
  return home ? tenantOf(context.db, home) : null;
}
