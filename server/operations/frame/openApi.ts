import { randomBytes } from 'node:crypto';
import { fail } from '../../http/envelope';
import { newSecret } from '../../openApi/signature';
import { SEAL_BINDINGS, sealSecret, secretCipherKey } from '../../security/secrets';
import { isPlatformStaff, callerTenant } from '../../core/access';
import { callerOf } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, schemaOf, text, timeRangeOf } from '../../core/params';
import { between, column, equals, listing, timeColumn } from '../../core/listing';
import { organizationScope } from '../../core/scope';

/** SPEC §6: the access key section is for these roles only. */
export const ACCESS_KEY_ROLES: readonly string[] = ['TENANT_ADMIN', 'ROLE_TENANT_ORDINARY'];

/** A new open-platform access key: `ak_` and 32 hex digits (128 random bits). */
export function newAccessKey(): string {
  return `ak_${randomBytes(16).toString('hex')}`;
}

/** The caller's tenant's open-platform access key, made on first request. */
export const accessKey = defineOperation('openApi.key.get', {
  async handler(context): Promise<string> {
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

/** Who may reset the key and read its calls: the tenant's administrator (the key acts with that role). */
const KEY_ADMIN_ROLE = 'TENANT_ADMIN';

const ACCESS_KEY_SCHEMA = schemaOf<string>({ type: 'string', pattern: '^ak_[0-9a-f]{32}$' });

export interface IssuedKey {
  accessKey: string;
  /** Shown in this answer only: the server keeps it encrypted and never answers it again. */
  secret: string;
  resetTime: string;
}

/**
 * A new access key and secret for the caller's tenant (issue 23), replacing the old pair in one
 * statement: a request signed with the old one is refused from this moment, on every instance.
 * With `accessKey` (the key the caller was shown) the reset is conditional on it: of two resets at
 * once from the same view one wins and the other gets "409". TENANT_ADMIN only: the key acts as the
 * tenant's administrator, so an ordinary user who sees the key may not issue its secret.
 */
export const resetAccessKey = defineOperation('openApi.key.reset', {
  paramSchema: objectOf({ accessKey: ACCESS_KEY_SCHEMA }),
  async handler(context): Promise<IssuedKey> {
    const caller = callerOf(context);
    if (!caller.roles.includes(KEY_ADMIN_ROLE)) throw fail.forbidden();
    const tenant = await callerTenant(context);
    if (!tenant) throw fail.forbidden();
    const accessKey = newAccessKey();
    const secret = newSecret();
    const sealed = sealSecret(await secretCipherKey(context.db), SEAL_BINDINGS.accessKey(accessKey), secret);
    const values = [tenant, accessKey, sealed, caller.userId, context.now];
    const rows = context.param.accessKey
      ? await context.db.query(
          `UPDATE tenant_access_key SET access_key = $2, secret_ciphertext = $3, reset_by = $4, reset_at = $5
            WHERE tenant_code = $1 AND access_key = $6 RETURNING tenant_code`,
          [...values, context.param.accessKey],
        )
      : await context.db.query(
          `INSERT INTO tenant_access_key (tenant_code, access_key, secret_ciphertext, created_by, created_at, reset_by, reset_at) VALUES ($1, $2, $3, $4, $5, $4, $5)
           ON CONFLICT (tenant_code) DO UPDATE SET access_key = EXCLUDED.access_key, secret_ciphertext = EXCLUDED.secret_ciphertext, reset_by = EXCLUDED.reset_by, reset_at = EXCLUDED.reset_at
           RETURNING tenant_code`,
          values,
        );
    if (rows.length === 0) throw fail.conflict('访问密钥已被他人重置，请刷新后重试');
    return { accessKey, secret, resetTime: context.now.toISOString() };
  },
});

/**
 * The open API's calls (issue 23), newest first: every call made with the tenant's access keys,
 * answered or refused. A tenant's administrator sees the tenant's; platform staff at the platform
 * root every tenant's. Anyone else "403".
 */
const CALLS = listing({
  from: 'open_api_call c',
  scope: async (where, context) => {
    const caller = callerOf(context);
    if (!caller.roles.includes(KEY_ADMIN_ROLE) && !isPlatformStaff(context)) throw fail.forbidden();
    const scope = await organizationScope(context);
    if (scope.coverage === 'everything') return;
    if (!scope.tenantCode) throw fail.forbidden();
    where.add('c.tenant_code = $?', scope.tenantCode);
  },
  filters: {
    operation: equals('c.operation', text(64)),
    code: equals('c.code', schemaOf<string>({ type: 'string', maxLength: 8, pattern: '^[0-9]*$' })),
    accessKey: equals('c.access_key', text(40)),
    timeRange: between('c.called_at', (pair, _field, timeZone) => timeRangeOf(pair, timeZone)),
  },
  columns: {
    id: column('c.id::text', (id: string) => Number(id)),
    tenantCode: column<string>('c.tenant_code'),
    accessKey: column<string>('c.access_key'),
    operation: column<string>('c.operation'),
    method: column<string>('c.method'),
    path: column<string>('c.path'),
    code: column<string>('c.code'),
    message: column<string>('c.message'),
    clientIp: column<string>('c.client_ip'),
    userAgent: column<string>('c.user_agent'),
    requestId: column<string>('c.request_id'),
    durationMs: column<number>('c.duration_ms'),
    callTime: timeColumn('c.called_at'),
  },
  sorts: ['callTime', 'durationMs'],
  fallback: 'c.called_at DESC, c.id DESC',
});

export const callPage = defineOperation('openApi.call.page', {
  paramSchema: CALLS.paramSchema,
  handler: (context) => CALLS.page(context),
});

export const OPEN_API_OPERATIONS = [accessKey, resetAccessKey, callPage];
