import type { Queryable, SqlParam } from '../db/database';
import { bind } from '../db/parameters';
import { organizationsWithin, tenantOf } from '../domain/organizations';
import { MANAGER_ROLES } from '../domain/workOrders';
import { fail } from '../http/envelope';
import { callerOf, type OperationContext } from './context';
import { organizationScope, scopeCondition, type OrganizationScope } from './scope';
import { findScopedDevice, findScopedDevices, type ScopedDeviceRow } from './deviceScope';

/**
 * Which work a request may see and touch. Managers (tenant admins, ordinary users, platform staff)
 * work by organisation: the selected organisation and below, as on the device side (the request's
 * organisation scope of core/scope.ts). Repair, patrol and implementer staff see only what is assigned
 * to them (or what they reported), across their tenant, whichever organisation they happen to
 * belong to. Another tenant's record, or another implementer's, is not acknowledged to exist ("404").
 * The home page and the brands' backlog read work through it too (in core/ since issue 32).
 */
export type WorkScope =
  | ({ kind: 'organizations' } & OrganizationScope)
  | { kind: 'own'; userId: number; tenantCode: string; organizationCodes: string[] };

const workScopes = new WeakMap<object, Promise<WorkScope>>();

/** The request's work scope, read once per request however many lists, filters and checks ask for it. */
export function workScope(context: OperationContext<unknown>): Promise<WorkScope> {
  let scope = workScopes.get(context);
  if (!scope) {
    scope = readWorkScope(context);
    workScopes.set(context, scope);
    // A failed read is not kept: the next call tries again.
    scope.catch(() => workScopes.delete(context));
  }
  return scope;
}

/** Whether the caller manages work by organisation (its work scope's kind, known without reading it). */
export const managesWork = (context: OperationContext<unknown>): boolean => callerOf(context).roles.some((role) => MANAGER_ROLES.includes(role));

async function readWorkScope(context: OperationContext<unknown>): Promise<WorkScope> {
  const caller = callerOf(context);
  if (managesWork(context)) return { kind: 'organizations', ...(await organizationScope(context)) };
  const home = caller.organizationCodes[0];
  const tenantCode = home ? await tenantOf(context.db, home) : null;
  if (!tenantCode) throw fail.forbidden();
  const organizationCodes = (await organizationsWithin(context.db, [tenantCode])).map((org) => org.code);
  return { kind: 'own', userId: caller.userId, tenantCode, organizationCodes };
}

/** Whether the scope manages by organisation (may assign, audit, close …). */
export const manages = (scope: WorkScope): boolean => scope.kind === 'organizations';

/**
 * A WHERE fragment limiting `alias` to the scope; `person` is the column naming whose work a row
 * is (assignee_id, reporter_id). `params` is appended to, so it composes with other clauses.
 *
 * `alias`'s table carries `tenant_code`, kept equal to the tenant of its `organization_code` (every
 * work table does: work_order, repair_report, repair_batch, patrol_task), so the scope is the
 * tenant equality an index leads with: managers get core/scope.ts's scopeCondition (nothing at the
 * platform root, the tenant for a tenant's whole tree, the tenant and the organisations below its
 * root), staff their tenant and their own rows.
 */
export function workScopeClause(scope: WorkScope, params: SqlParam[], alias: string, person = 'assignee_id'): string {
  if (scope.kind === 'organizations') return scopeCondition(scope, params, alias, { tenant: 'tenant_code' });
  return `${alias}.tenant_code = ${bind(params, scope.tenantCode)} AND ${alias}.${person} = ${bind(params, scope.userId)}`;
}

/** A device the caller may name on an order: in the working organisations, or the own tenant. */
export function findWorkDevice(db: Queryable, scope: WorkScope, code: string): Promise<ScopedDeviceRow> {
  return findScopedDevice(db, { organizationCodes: scope.organizationCodes }, code);
}

export function findWorkDevices(db: Queryable, scope: WorkScope, codes: readonly string[]): Promise<ScopedDeviceRow[]> {
  return findScopedDevices(db, { organizationCodes: scope.organizationCodes }, codes);
}

/**
 * The organisation an order is placed under and its tenant: it must lie within the scope and
 * below a tenant ("400" otherwise: the platform root takes no orders).
 */
export async function placeOrder(db: Queryable, scope: WorkScope, organizationCode: string): Promise<{ organizationCode: string; tenantCode: string }> {
  if (!scope.organizationCodes.includes(organizationCode)) throw fail.notFound('组织不存在');
  const tenantCode = await tenantOf(db, organizationCode);
  if (!tenantCode) throw fail.badRequest('请选择租户下的组织');
  return { organizationCode, tenantCode };
}

/** The organisation filter of a list: that organisation and below, within the scope. */
export async function organizationFilter(db: Queryable, scope: WorkScope, organizationCode: string): Promise<string[]> {
  const within = new Set(scope.organizationCodes);
  return (await organizationsWithin(db, [organizationCode])).map((org) => org.code).filter((code) => within.has(code));
}
