import type { Queryable, SqlParam } from '../db/database';
import { bind } from '../db/parameters';
import { ORGANIZATION_TYPE, organizationsWithin, type OrganizationRow } from '../domain/organizations';
import { callerOf, type OperationContext } from './context';

/**
 * What a request may see (issue 19; below the areas since issue 32): the selected organisation
 * and everything below it, read once per request, and the WHERE that keeps a table's rows within
 * it — nothing at the platform root, `tenant_code = $t` for a tenant's whole tree (every scoped
 * table's index leads with the tenant), the tenant plus the organisation list below a tenant's root.
 * Every list (core/listQuery.ts), every check of core/access.ts and the live stream use it.
 */

/** What a request may see: the selected organisation (header orgCode, or the caller's first) and everything below it. */
export interface OrganizationScope {
  /** The selected organisation and its descendants. */
  organizationCodes: string[];
  /**
   * How much of the platform that is: `everything` at the platform root (every organisation lies
   * below it), `tenant` for a tenant's root (its whole tree), `part` below a tenant's root.
   */
  coverage: 'everything' | 'tenant' | 'part';
  /** The tenant the scope lies in; null at the platform root. */
  tenantCode: string | null;
}

const scopes = new WeakMap<object, Promise<OrganizationScope>>();

/** The request's scope, read once per request however many lists and checks ask for it. */
export function organizationScope(context: OperationContext<unknown>): Promise<OrganizationScope> {
  let scope = scopes.get(context);
  if (!scope) {
    scope = readScope(context);
    scopes.set(context, scope);
    // A failed read is not kept: the next call tries again.
    scope.catch(() => scopes.delete(context));
  }
  return scope;
}

async function readScope(context: OperationContext<unknown>): Promise<OrganizationScope> {
  const caller = callerOf(context);
  const root = context.organizationCode ?? caller.organizationCodes[0];
  if (!root) return { organizationCodes: [], coverage: 'part', tenantCode: null };
  return scopeWithin(caller.accessibleOrganizations, root) ?? (await queryScope(context.db, root));
}

const childrenOf = new WeakMap<readonly OrganizationRow[], Map<string, OrganizationRow[]>>();

/**
 * The scope of `root` found in the caller's organisations (read with its rights, so no query):
 * when `root` is among them and a tenant or the platform lies at or above it among them too —
 * which is every request but one working below a tenant's root that the user is not a member of.
 */
function scopeWithin(organizations: readonly OrganizationRow[], root: string): OrganizationScope | null {
  const byCode = new Map(organizations.map((organization) => [organization.code, organization]));
  const top = byCode.get(root);
  if (!top) return null;
  let children = childrenOf.get(organizations);
  if (!children) {
    children = new Map();
    for (const organization of organizations) {
      const siblings = children.get(organization.parent_code ?? '') ?? [];
      siblings.push(organization);
      children.set(organization.parent_code ?? '', siblings);
    }
    childrenOf.set(organizations, children);
  }
  const below = new Set<string>([root]);
  const queue = [root];
  for (let code = queue.pop(); code !== undefined; code = queue.pop()) {
    for (const child of children.get(code) ?? []) {
      if (!below.has(child.code)) {
        below.add(child.code);
        queue.push(child.code);
      }
    }
  }
  const organizationCodes = organizations.filter((organization) => below.has(organization.code)).map((organization) => organization.code);
  if (top.type === ORGANIZATION_TYPE.platform) return { organizationCodes, coverage: 'everything', tenantCode: null };
  if (top.type === ORGANIZATION_TYPE.tenant) return { organizationCodes, coverage: 'tenant', tenantCode: top.code };
  for (let up = byCode.get(top.parent_code ?? ''); up; up = byCode.get(up.parent_code ?? '')) {
    if (up.type === ORGANIZATION_TYPE.tenant) return { organizationCodes, coverage: 'part', tenantCode: up.code };
  }
  return null;
}

/** The scope of `root` read from the database. */
async function queryScope(db: Queryable, root: string): Promise<OrganizationScope> {
  const [organizations, [line]] = await Promise.all([
    organizationsWithin(db, [root]),
    db.query<{ type: number; tenant_code: string | null }>(
      `WITH RECURSIVE up (code, parent_code, type) AS (
         SELECT code, parent_code, type FROM organization WHERE code = $1
         UNION ALL
         SELECT o.code, o.parent_code, o.type FROM organization o JOIN up ON o.code = up.parent_code
       )
       SELECT (SELECT type FROM organization WHERE code = $1) AS type,
              (SELECT code FROM up WHERE type = ${ORGANIZATION_TYPE.tenant} LIMIT 1) AS tenant_code`,
      [root],
    ),
  ]);
  const organizationCodes = organizations.map((organization) => organization.code);
  if (line?.type === ORGANIZATION_TYPE.platform) return { organizationCodes, coverage: 'everything', tenantCode: null };
  const tenantCode = line?.tenant_code ?? null;
  return { organizationCodes, coverage: line?.type === ORGANIZATION_TYPE.tenant ? 'tenant' : 'part', tenantCode };
}

export interface ScopeColumns {
  /** The table's organisation column (`organization_code`). */
  organization?: string;
  /**
   * The table's tenant column when it has one (`tenant_code`), kept equal to the tenant of its
   * organisation: then the scope is one equality an index leads with.
   */
  tenant?: string | null;
}

/**
 * `alias`'s rows within the scope, its values appended to `params`. Platform root: every row.
 * A table with a tenant column: `tenant = $t` (and the organisations, below a tenant's root).
 */
export function scopeCondition(scope: OrganizationScope, params: SqlParam[], alias: string, columns: ScopeColumns = {}): string {
  if (scope.coverage === 'everything') return 'TRUE';
  const organization = `${alias}.${columns.organization ?? 'organization_code'}`;
  const parts: string[] = [];
  if (columns.tenant && scope.tenantCode) {
    parts.push(`${alias}.${columns.tenant} = ${bind(params, scope.tenantCode)}`);
    if (scope.coverage === 'tenant') return parts[0];
  }
  parts.push(`${organization} = ANY(${bind(params, scope.organizationCodes)}::text[])`);
  return parts.join(' AND ');
}

/** The scope columns of a table that keeps `tenant_code` equal to the tenant of its owner organisation (the cards', the mall's). */
export const BY_TENANT: ScopeColumns = { tenant: 'tenant_code' };
