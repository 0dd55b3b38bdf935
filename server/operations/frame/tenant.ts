import { tenantOf } from '../../domain/organizations';
import { callerOf, type OperationContext } from '../../core/context';

/** The tenant the caller works for: that of their first organisation (null for platform staff). */
export async function callerTenant(context: OperationContext<unknown>): Promise<string | null> {
  const home = callerOf(context).organizationCodes[0];
  return home ? tenantOf(context.db, home) : null;
}

export { tenantOf };
