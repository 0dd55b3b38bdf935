import { fail } from '../../http/envelope';
import { ROLES } from '../../seed/roles';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, optionalPlainText, plainText, schemaOf, sortOrder, text, type ParamOf } from '../../core/params';
import { workingOrganizations, stewardOf, type Steward } from '../../core/access';
import { Conditions, containing, exportOf, pageOf, type Listing } from '../../core/listQuery';
import { organizationScope, scopeCondition, type OrganizationScope } from '../../core/scope';
import { checkRoleAssignable, rolesSeenBy } from '../../core/roles';
import { grantableResources, resourceRows, withAncestors } from './resources';

/**
 * Roles: the seven built-in ones (shared by every tenant, managed by platform staff), roles
 * platform staff add, and roles a tenant admin adds for their own tenant. Tenant staff see the
 * built-in tenant roles and their tenant's own, and manage only the latter; platform roles stay
 * with the platform. A role's menu and button grants (role.setting) decide what its users' menu
 * (resource.menu.list) and button checks answer.
 */

export type RoleScope = 'platform' | 'tenant';

const BUILT_IN = new Set<string>(ROLES.map((role) => role.code));
const PLATFORM_PREFIX = 'PLATFORM_';
const SCOPE_NAMES: Record<RoleScope, string> = { platform: '平台角色', tenant: '租户角色' };

interface RoleRow {
  code: string;
  name: string;
  scope: RoleScope;
  sort: number;
  organization_code: string | null;
  organization_name: string | null;
  remark: string;
  created_at: Date;
  user_count: number;
}

export interface RoleRecord {
  roleCode: string;
  roleName: string;
  scope: RoleScope;
  scopeName: string;
  /** The tenant that owns it; empty for the platform's roles. */
  organizationCode: string;
  organizationName: string;
  builtIn: boolean;
  /** Whether the caller may modify it, set its grants and delete it. */
  editable: boolean;
  /** Its users within the caller's working organisations. */
  userCount: number;
  remark: string;
  sort: number;
  createTime: string;
}

function toRecord(row: RoleRow, steward: Steward): RoleRecord {
  return {
    roleCode: row.code,
    roleName: row.name,
    scope: row.scope,
    scopeName: SCOPE_NAMES[row.scope],
    organizationCode: row.organization_code ?? '',
    organizationName: row.organization_name ?? '',
    builtIn: BUILT_IN.has(row.code),
    editable: steward.kind === 'platform' || row.organization_code === steward.tenantCode,
    userCount: row.user_count,
    remark: row.remark,
    sort: row.sort,
    createTime: row.created_at.toISOString(),
  };
}

const filterSchema = objectOf({ keyword: text(64), scope: schemaOf<RoleScope | ''>({ type: 'string', enum: ['', 'platform', 'tenant'] }) });
type RoleFilter = ParamOf<typeof filterSchema>;

/** The roles the caller sees, narrowed by the filter, with their users in the working organisations `scope`. */
function query(steward: Steward, scope: OrganizationScope, filter: RoleFilter): { listing: Listing<RoleRow, RoleRecord>; where: Conditions } {
  const where = new Conditions();
  const members = scopeCondition(scope, where.params, 'uo');
  const seen = rolesSeenBy(steward);
  if (seen) where.add(seen.sql, seen.value);
  where.when(filter.keyword, '(r.code ILIKE $? OR r.name ILIKE $?)', (keyword) => containing(String(keyword)));
  where.when(filter.scope, 'r.scope = $?');
  const listing: Listing<RoleRow, RoleRecord> = {
    from: 'role r LEFT JOIN organization o ON o.code = r.organization_code',
    // The count reads role alone (the organisation is its name, the user count is for the page).
    narrowFrom: 'role r',
    columns: `r.code, r.name, r.scope, r.sort, r.organization_code, o.name AS organization_name, r.remark, r.created_at,
      (SELECT count(DISTINCT ur.user_id)::int FROM user_role ur JOIN user_organization uo ON uo.user_id = ur.user_id
        WHERE ur.role_code = r.code AND ${members}) AS user_count`,
    sorts: SORTS,
    fallback: 'r.sort, r.code',
    record: (row) => toRecord(row, steward),
  };
  return { listing, where };
}

const SORTS = { roleCode: 'r.code', roleName: 'r.name', sort: 'r.sort', userCount: 'user_count', createTime: 'r.created_at' };

/** A role the caller sees ("404" 角色不存在 otherwise: another tenant's roles are not even named). */
async function visibleRole(context: OperationContext<unknown>, code: string): Promise<{ row: RoleRow; steward: Steward }> {
  const steward = await stewardOf(context);
  const { listing, where } = query(steward, await organizationScope(context), {});
  where.add('r.code = $?', code);
  const [row] = await context.db.query<RoleRow>(`SELECT ${listing.columns} FROM ${listing.from} WHERE ${where.sql}`, where.params);
  if (!row) throw fail.notFound('角色不存在');
  return { row, steward };
}

/** A role the caller may change: "403" for a built-in role seen by tenant staff. */
async function editableRole(context: OperationContext<unknown>, code: string): Promise<{ row: RoleRow; steward: Steward }> {
  const found = await visibleRole(context, code);
  if (!toRecord(found.row, found.steward).editable) throw fail.forbidden('无权修改该角色');
  return found;
}

const CODE_PATTERN = '^[A-Z][A-Z0-9_]*$';

const roleFields = objectOf(
  {
    roleCode: schemaOf<string>({ type: 'string', minLength: 2, maxLength: 48, pattern: CODE_PATTERN }),
    roleName: plainText(32),
    scope: schemaOf<RoleScope>({ type: 'string', enum: ['platform', 'tenant'] }),
    remark: optionalPlainText(200),
    sort: sortOrder,
  },
  ['roleCode', 'roleName'],
);

/** Platform role codes start with PLATFORM_ (that is how a platform staff member is known). */
function checkCodeForScope(code: string, scope: RoleScope): void {
  if (scope === 'platform' && !code.startsWith(PLATFORM_PREFIX)) throw fail.badRequest('参数错误：roleCode（平台角色编码须以 PLATFORM_ 开头）');
  if (scope === 'tenant' && code.startsWith(PLATFORM_PREFIX)) throw fail.badRequest('参数错误：roleCode（租户角色编码不能以 PLATFORM_ 开头）');
}

async function listing(context: OperationContext<RoleFilter>): Promise<{ listing: Listing<RoleRow, RoleRecord>; where: Conditions }> {
  return query(await stewardOf(context), await organizationScope(context), context.param);
}

const resourceCodeItem = schemaOf<string | { value: string }>({
  anyOf: [
    { type: 'string', minLength: 1, maxLength: 64 },
    // The tree select checks each node on its own (treeCheckStrictly) and then posts labelled values.
    objectOf({ value: text(64, 1), label: text(200), halfChecked: { type: 'boolean' }, disabled: { type: 'boolean' } }, ['value']),
  ],
});

const codeParam = objectOf({ roleCode: text(48, 1) }, ['roleCode']);

export const roleOperations = [
  defineOperation('role.list', {
    paramSchema: filterSchema,
    handler: async (context) => {
      const roles = await listing(context);
      return exportOf(context, roles.listing, roles.where, 500);
    },
  }),

  defineOperation('role.page', {
    paramSchema: filterSchema,
    handler: async (context) => {
      const roles = await listing(context);
      return pageOf(context, roles.listing, roles.where);
    },
  }),

  /**
   * A role with the resources it holds: their codes, and the same as labelled values, which the
   * role setting's tree select (each node checked on its own) holds as its value.
   */
  defineOperation('role.detail', {
    paramSchema: objectOf({ roleCode: text(48, 1), clientType: schemaOf<number>({ type: 'integer', minimum: 1, maximum: 9 }) }, ['roleCode']),
    handler: async (context) => {
      const { row, steward } = await visibleRole(context, context.param.roleCode);
      const grants = await context.db.query<{ code: string; name: string }>(
        `SELECT r.code, r.name FROM role_resource g JOIN resource r ON r.code = g.resource_code
          WHERE g.role_code = $1 AND r.client_type = $2 ORDER BY r.sort, r.code`,
        [row.code, context.param.clientType ?? 1],
      );
      return {
        ...toRecord(row, steward),
        resourceCodes: grants.map((grant) => grant.code),
        resources: grants.map((grant) => ({ value: grant.code, label: grant.name })),
      };
    },
  }),

  defineOperation('role.insert', {
    paramSchema: objectOf({ role: roleFields }, ['role']),
    handler: async (context) => {
      const steward = await stewardOf(context);
      const fields = context.param.role;
      const scope = fields.scope ?? 'tenant';
      if (scope === 'platform' && steward.kind !== 'platform') throw fail.forbidden('无权创建平台角色');
      checkCodeForScope(fields.roleCode, scope);
      const [taken] = await context.db.query('SELECT 1 FROM role WHERE code = $1', [fields.roleCode]);
      if (taken) throw fail.conflict('角色编码已存在');
      // A role added meanwhile with this code breaks the key: "409" 角色编码已存在 (http/constraints.ts).
      await context.db.query(
        `INSERT INTO role (code, name, scope, sort, organization_code, remark, created_at)
         VALUES ($1, $2, $3, COALESCE($4, (SELECT COALESCE(max(sort), 0) + 1 FROM role)), $5, $6, $7)`,
        [fields.roleCode, fields.roleName, scope, fields.sort ?? null, steward.kind === 'tenant' ? steward.tenantCode : null, fields.remark ?? '', context.now],
      );
      return { roleCode: fields.roleCode };
    },
  }),

  defineOperation('role.modify', {
    paramSchema: objectOf({ roleCode: text(48, 1), role: roleFields }, ['roleCode', 'role']),
    handler: async (context) => {
      const { roleCode, role: fields } = context.param;
      if (fields.roleCode !== roleCode) throw fail.badRequest('参数错误：roleCode（角色编码不能修改）');
      const { row } = await editableRole(context, roleCode);
      if (fields.scope && fields.scope !== row.scope) throw fail.conflict('角色的适用范围不能修改');
      const updated = await context.db.query('UPDATE role SET name = $2, remark = $3, sort = COALESCE($4, sort) WHERE code = $1 RETURNING code', [
        roleCode,
        fields.roleName,
        fields.remark ?? row.remark,
        fields.sort ?? null,
      ]);
      // Deleted meanwhile: nothing was changed, and the caller is told so.
      if (updated.length === 0) throw fail.notFound('角色不存在');
      return null;
    },
  }),

  /** "409" for a built-in role and for a role that still has users (anywhere). */
  defineOperation('role.delete', {
    paramSchema: codeParam,
    handler: async (context) => {
      const { row } = await editableRole(context, context.param.roleCode);
      if (BUILT_IN.has(row.code)) throw fail.conflict('系统内置角色不能删除');
      await context.db.transaction(async (tx) => {
        const [held] = await tx.query('SELECT 1 FROM user_role WHERE role_code = $1 LIMIT 1', [row.code]);
        if (held) throw fail.conflict('该角色下还有用户，不能删除');
        // Deleted once: a second deletion sent at once finds it gone, as a later one does.
        const deleted = await tx.query('DELETE FROM role WHERE code = $1 RETURNING code', [row.code]);
        if (deleted.length === 0) throw fail.notFound('角色不存在');
      });
      return null;
    },
  }),

  /**
   * Sets the menus and buttons a role holds (of one client type): the checked resources and the
   * menus above them. Tenant staff grant only what their own roles hold, and keep the role's
   * grants they cannot see. Nobody changes a role they hold themselves.
   */
  defineOperation('role.setting', {
    paramSchema: objectOf(
      {
        roleCode: text(48, 1),
        resourceCodes: schemaOf<ParamOf<typeof resourceCodeItem>[]>({ type: 'array', maxItems: 2000, items: resourceCodeItem }),
        clientType: schemaOf<number>({ type: 'integer', minimum: 1, maximum: 9 }),
      },
      ['roleCode', 'resourceCodes'],
    ),
    handler: async (context) => {
      const { roleCode, clientType = 1 } = context.param;
      const { row } = await editableRole(context, roleCode);
      if (callerOf(context).roles.includes(row.code)) throw fail.conflict('不能修改自己所属角色的权限');
      const requested = [...new Set(context.param.resourceCodes.map((item) => (typeof item === 'string' ? item : item.value)))];
      const rows = await resourceRows(context.db, clientType);
      const known = new Set(rows.map((resource) => resource.code));
      const unknown = requested.find((code) => !known.has(code));
      if (unknown) throw fail.badRequest(`参数错误：resourceCodes（资源 ${unknown} 不存在）`);
      const grantable = await grantableResources(context, rows);
      if (grantable && requested.some((code) => !grantable.has(code))) throw fail.forbidden('无权分配该资源');
      const granted = await context.db.transaction(async (tx) => {
        const current = await tx.query<{ code: string }>(
          'SELECT r.code FROM role_resource g JOIN resource r ON r.code = g.resource_code WHERE g.role_code = $1 AND r.client_type = $2',
          [row.code, clientType],
        );
        // What the caller could not see stays as it was; every grant brings the menus above it.
        const kept = current.map(({ code }) => code).filter((code) => grantable && !grantable.has(code));
        const grants = withAncestors([...requested, ...kept], rows);
        await tx.query(
          'DELETE FROM role_resource g USING resource r WHERE r.code = g.resource_code AND g.role_code = $1 AND r.client_type = $2',
          [row.code, clientType],
        );
        await tx.query('INSERT INTO role_resource (role_code, resource_code) SELECT $1, unnest($2::text[])', [row.code, [...grants]]);
        return grants;
      });
      return { resourceCount: granted.size };
    },
  }),

  /**
   * Sets a user's roles: the user within the caller's working organisations, roles the caller
   * sees; a tenant's own role only for a user of that tenant; never the caller's own roles.
   */
  defineOperation('role.user.setting', {
    paramSchema: objectOf(
      {
        userId: schemaOf<number>({ type: 'integer', minimum: 1 }),
        roleCodes: schemaOf<string[]>({ type: 'array', minItems: 1, maxItems: 10, uniqueItems: true, items: text(48, 1) }),
      },
      ['userId', 'roleCodes'],
    ),
    handler: async (context) => {
      const { userId, roleCodes } = context.param;
      if (userId === callerOf(context).userId) throw fail.conflict('不能修改自己的角色');
      const scope = await workingOrganizations(context);
      const [user] = await context.db.query<{ organizations: string[] }>(
        `SELECT ARRAY(SELECT organization_code FROM user_organization WHERE user_id = u.id) AS organizations FROM app_user u
          WHERE u.id = $1 AND EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = u.id AND uo.organization_code = ANY($2::text[]))`,
        [userId, scope],
      );
      if (!user) throw fail.notFound('用户不存在');
      for (const code of roleCodes) await checkRoleAssignable(context, code, user.organizations);
      await context.db.transaction(async (tx) => {
        await tx.query('DELETE FROM user_role WHERE user_id = $1', [userId]);
        await tx.query('INSERT INTO user_role (user_id, role_code) SELECT $1, unnest($2::text[])', [userId, roleCodes]);
      });
      return null;
    },
  }),
];
