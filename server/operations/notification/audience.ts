import type { Queryable } from '../../db/database';
import { organizationsWithin, tenantOf } from '../../domain/organizations';
import { USER_STATUS } from '../../domain/users';
import { fail } from '../../http/envelope';
import { isPlatformStaff, requireView } from '../../core/access';
import { callerOf, type OperationContext } from '../../core/context';
import { referenceCode, schemaOf } from '../../core/params';

/**
 * What the notification views share: who may read them, where their records belong, and whom a
 * message reaches. Maintained notifications and sends belong to the organisation they were made
 * under and are seen within the caller's working organisations (the selected one and below), as
 * the device and work sides are; channels belong to a tenant (or to the platform).
 */

export { requireView };

/** The organisation a new record is made under: the selected one (or the caller's first). */
export function homeOrganization(context: OperationContext<unknown>): string {
  const code = context.organizationCode ?? callerOf(context).organizationCodes[0];
  if (!code) throw fail.forbidden();
  return code;
}

/**
 * The tenant whose channels a request works with: the tenant of the selected organisation; null
 * for platform staff above the tenants (who see every tenant's channels and keep the platform's
 * own). A tenant user outside any tenant gets "403".
 */
export async function channelTenant(context: OperationContext<unknown>): Promise<string | null> {
  const tenantCode = await tenantOf(context.db, homeOrganization(context));
  if (!tenantCode && !isPlatformStaff(context)) throw fail.forbidden();
  return tenantCode;
}

export type AudienceType = 'all' | 'organization' | 'role' | 'user';

export interface Audience {
  type: AudienceType;
  organizationCodes?: readonly string[];
  roleCodes?: readonly string[];
  userIds?: readonly number[];
}

export const organizationCodesSchema = schemaOf<string[]>({ type: 'array', maxItems: 50, uniqueItems: true, items: referenceCode });
export const roleCodesSchema = schemaOf<string[]>({ type: 'array', maxItems: 20, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 48, pattern: '^[A-Za-z0-9_]+$' } });
export const userIdsSchema = schemaOf<number[]>({ type: 'array', maxItems: 500, uniqueItems: true, items: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } });

/** Someone a message can reach, with the addresses the channels use. */
export interface AudienceUser {
  id: number;
  user_name: string;
  login_name: string;
  phone: string | null;
  mail: string | null;
  wechat_open_id: string | null;
}

/**
 * Checks an audience against the organisations `within` (the subtree it may reach) and answers
 * it cleaned. Roles are the tenant's (the built-in tenant roles and its own) or, for a null
 * tenant (the platform), any role. Organisations outside answer "404" 组织不存在, unknown roles
 * or roles of another tenant "400", and a list the type needs but lacks "400".
 */
export async function checkAudience(db: Queryable, within: readonly string[], audience: Audience, tenantCode: string | null): Promise<Audience> {
  const reachable = new Set(within);
  switch (audience.type) {
    case 'all':
      return { type: 'all' };
    case 'organization': {
      const codes = audience.organizationCodes ?? [];
      if (codes.length === 0) throw fail.badRequest('参数错误：organizationCodes（不能为空）');
      if (codes.some((code) => !reachable.has(code))) throw fail.notFound('组织不存在');
      return { type: 'organization', organizationCodes: [...codes] };
    }
    case 'role': {
      const codes = audience.roleCodes ?? [];
      if (codes.length === 0) throw fail.badRequest('参数错误：roleCodes（不能为空）');
      const known = await db.query<{ code: string }>(
        `SELECT code FROM role WHERE code = ANY($1::text[])
            AND ($2::text IS NULL OR (scope = 'tenant' AND (organization_code IS NULL OR organization_code = $2)))`,
        [[...codes], tenantCode],
      );
      if (known.length !== codes.length) throw fail.badRequest('参数错误：roleCodes（角色不存在）');
      return { type: 'role', roleCodes: [...codes] };
    }
    case 'user': {
      const ids = audience.userIds ?? [];
      if (ids.length === 0) throw fail.badRequest('参数错误：userIds（不能为空）');
      const found = await db.query<{ id: number }>(
        `SELECT DISTINCT u.id FROM app_user u JOIN user_organization uo ON uo.user_id = u.id
          WHERE u.id = ANY($1::int[]) AND uo.organization_code = ANY($2::text[])`,
        [[...ids], [...within]],
      );
      if (found.length !== ids.length) throw fail.notFound('用户不存在');
      return { type: 'user', userIds: [...ids] };
    }
  }
}

/** The active users an (already checked) audience reaches within `within`, by name. */
export async function audienceUsers(db: Queryable, within: readonly string[], audience: Audience): Promise<AudienceUser[]> {
  let organizations = [...within];
  if (audience.type === 'organization') {
    const reachable = new Set(within);
    organizations = (await organizationsWithin(db, audience.organizationCodes ?? [])).map((org) => org.code).filter((code) => reachable.has(code));
  }
  return db.query<AudienceUser>(
    `SELECT u.id, u.user_name, u.login_name, u.phone, u.mail, u.wechat_open_id FROM app_user u
      WHERE u.status = $1
        AND EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = u.id AND uo.organization_code = ANY($2::text[]))
        AND ($3::text[] IS NULL OR EXISTS (SELECT 1 FROM user_role ur WHERE ur.user_id = u.id AND ur.role_code = ANY($3::text[])))
        AND ($4::int[] IS NULL OR u.id = ANY($4::int[]))
      ORDER BY u.id`,
    [USER_STATUS.active, organizations, audience.type === 'role' ? [...(audience.roleCodes ?? [])] : null, audience.type === 'user' ? [...(audience.userIds ?? [])] : null],
  );
}

/** How an audience reads in a list: 全体用户, the organisations' or roles' names, the users' names. */
export async function audienceSummary(db: Queryable, audience: Audience): Promise<string> {
  const joined = (names: string[]) => (names.length > 3 ? `${names.slice(0, 3).join('、')} 等 ${names.length} 个` : names.join('、'));
  switch (audience.type) {
    case 'all':
      return '全体用户';
    case 'organization': {
      const rows = await db.query<{ name: string }>('SELECT name FROM organization WHERE code = ANY($1::text[]) ORDER BY sort, id', [[...(audience.organizationCodes ?? [])]]);
      return joined(rows.map((row) => row.name));
    }
    case 'role': {
      const rows = await db.query<{ name: string }>('SELECT name FROM role WHERE code = ANY($1::text[]) ORDER BY sort, code', [[...(audience.roleCodes ?? [])]]);
      return joined(rows.map((row) => row.name));
    }
    case 'user': {
      const rows = await db.query<{ user_name: string }>('SELECT user_name FROM app_user WHERE id = ANY($1::int[]) ORDER BY id', [[...(audience.userIds ?? [])]]);
      const names = rows.map((row) => row.user_name);
      return names.length > 3 ? `${names.slice(0, 3).join('、')} 等 ${names.length} 人` : names.join('、');
    }
  }
}
