import { tenantOf } from '../../domain/organizations';
import { isForeignKeyViolation, isUniqueViolation } from '../../http/constraints';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import type { ParamSchema } from '../../core/params';
import { isPlatformStaff } from '../administration/scope';

export { tenantOf };

/**
 * Plain text a person types (names, labels): at least one visible character, and never '<' or
 * '>', so no markup is ever stored ("400" 参数错误：field（格式不正确）).
 */
export const plainText = (maxLength: number): ParamSchema => ({ type: 'string', minLength: 1, maxLength, pattern: '^[^<>]*[^<>\\s][^<>]*$' });

/** Optional plain text (remarks): may be empty, still never '<' or '>'. */
export const optionalPlainText = (maxLength: number): ParamSchema => ({ type: 'string', maxLength, pattern: '^[^<>]*$' });

/** A display order; null (a cleared number input) keeps the current one. */
export const sortOrder: ParamSchema = { anyOf: [{ type: 'integer', minimum: 0, maximum: 1_000_000 }, { type: 'null' }] };

export { containing } from '../listQuery';

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

/** Platform staff only ("403" 无权限访问 for anyone else): dictionaries and menu resources. */
export function requirePlatformStaff(context: OperationContext<unknown>): void {
  if (!isPlatformStaff(context)) throw fail.forbidden();
}

/**
 * Runs `work`, answering `message` as "409" when PostgreSQL reports a unique or reference clash.
 * Only where the handler's sentence is more precise than the central one (http/constraints.ts),
 * which answers every other clash.
 */
export async function conflictOnClash<T>(work: () => Promise<T>, messages: { unique?: string; reference?: string }): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (messages.unique && isUniqueViolation(error)) throw fail.conflict(messages.unique);
    if (messages.reference && isForeignKeyViolation(error)) throw fail.conflict(messages.reference);
    throw error;
  }
}
