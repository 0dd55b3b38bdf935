import { randomBytes } from 'node:crypto';
import { fail } from '../../http/envelope';
import { callerOf, defineOperation } from '../define';
import { callerTenant } from './tenant';

/** SPEC §6: the access key section is for these roles only. */
export const ACCESS_KEY_ROLES: readonly string[] = ['TENANT_ADMIN', 'ROLE_TENANT_ORDINARY'];

/** A new open-platform access key: `ak_` and 32 hex digits (128 random bits). */
export function newAccessKey(): string {
  return `ak_${randomBytes(16).toString('hex')}`;
}

/** The caller's tenant's open-platform access key, made on first request. */
export const accessKey = defineOperation<Record<string, never>, string>('openApi.key.get', {
  async handler(context) {
    const caller = callerOf(context);
    if (!caller.roles.some((role) => ACCESS_KEY_ROLES.includes(role))) throw fail.forbidden();
    const tenant = await callerTenant(context);
    if (!tenant) throw fail.forbidden();
    // Two first requests at once both insert; the loser's key is dropped and both read the winner's.
    await context.db.query(
      `INSERT INTO tenant_access_key (tenant_code, access_key, created_by, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (tenant_code) DO NOTHING`,
      [tenant, newAccessKey(), caller.userId, context.now],
    );
    const [row] = await context.db.query<{ access_key: string }>('SELECT access_key FROM tenant_access_key WHERE tenant_code = $1', [tenant]);
    return row.access_key;
  },
});

export const OPEN_API_OPERATIONS = [accessKey];
