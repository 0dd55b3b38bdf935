import type { Queryable, SqlParam } from '../db/database';
import { fail } from '../http/envelope';
import type { OperationContext } from './context';
import { organizationScope, scopeCondition, type OrganizationScope, type ScopeColumns } from './scope';

/**
 * Which devices a request may touch: those installed under the selected organisation (header
 * orgCode, already checked against the caller's scope) or below it. Platform staff at the platform
 * root therefore see every tenant's devices; tenant staff only their tenant's, and only the part
 * of it they selected. Every device-side operation starts from here, and every area that reads
 * devices (work orders, the home page, brands) reads them through it (in core/ since issue 32).
 */
export type DeviceScope = OrganizationScope;

export function deviceScope(context: OperationContext<unknown>): Promise<DeviceScope> {
  return organizationScope(context);
}

/**
 * A WHERE fragment limiting `alias` to the scope (see scopeCondition: its tenant column, when
 * given, lets an index that leads with the tenant serve it). `params` is appended to and the
 * placeholder number is taken from its length, so it composes with other clauses.
 */
export function scopeClause(scope: DeviceScope, params: SqlParam[], alias = 'd', columns?: ScopeColumns): string {
  return scopeCondition(scope, params, alias, columns);
}

export interface ScopedDeviceRow {
  id: number;
  code: string;
  name: string;
  tenant_code: string;
  organization_code: string;
  product_code: string;
  deleted_at: Date | null;
}

/**
 * The device `code` within scope ("404" 设备不存在 otherwise: another tenant's device is not
 * acknowledged to exist). `includeDeleted` also finds devices in the recycle bin.
 */
export async function findScopedDevice(db: Queryable, scope: Pick<DeviceScope, 'organizationCodes'>, code: string, includeDeleted = false): Promise<ScopedDeviceRow> {
  const [row] = await db.query<ScopedDeviceRow>(
    `SELECT id, code, name, tenant_code, organization_code, product_code, deleted_at FROM device
      WHERE code = $1 AND organization_code = ANY($2::text[])${includeDeleted ? '' : ' AND deleted_at IS NULL'}`,
    [code, scope.organizationCodes],
  );
  if (!row) throw fail.notFound('设备不存在');
  return row;
}

/** Every code of `codes` within scope, or "404" 设备不存在 naming none (batch operations). */
export async function findScopedDevices(db: Queryable, scope: Pick<DeviceScope, 'organizationCodes'>, codes: readonly string[], includeDeleted = false): Promise<ScopedDeviceRow[]> {
  const rows = await db.query<ScopedDeviceRow>(
    `SELECT id, code, name, tenant_code, organization_code, product_code, deleted_at FROM device
      WHERE code = ANY($1::text[]) AND organization_code = ANY($2::text[])${includeDeleted ? '' : ' AND deleted_at IS NULL'}`,
    [[...new Set(codes)], scope.organizationCodes],
  );
  if (rows.length !== new Set(codes).size) throw fail.notFound('设备不存在');
  return rows;
}

/** The device code rule of SPEC §5, for whoever checks codes against the scope (core/params.ts holds it and the schema). */
export { DEVICE_CODE_PATTERN } from './params';
