import type { Queryable, SqlParam } from '../../db/database';
import { bind } from '../../db/parameters';
import { businessDayStamp } from '../../domain/businessTime';
import { organizationsWithin } from '../../domain/organizations';
import { fail } from '../../http/envelope';
import { schemaOf, userIdSchema } from '../../core/params';
import { isPlatformStaff } from '../../core/access';
import { callerOf, type OperationContext } from '../../core/context';
import { organizationScope, type OrganizationScope } from '../../core/scope';

/**
 * What the firmware, feedback and configuration screens work over: the organisations of the
 * device scope (the selected organisation and below) and the tenant they belong to. Platform
 * staff above the tenants have no tenant and see every tenant's records; a tenant user outside
 * any tenant is refused ("403").
 */
export type WorkScope = OrganizationScope;

export async function workScope(context: OperationContext<unknown>): Promise<WorkScope> {
  const scope = await organizationScope(context);
  if (!scope.tenantCode && !isPlatformStaff(context)) throw fail.forbidden();
  return scope;
}

/** `alias`.organization_code within the scope, for a WHERE clause. */
export function organizationClause(scope: WorkScope, params: SqlParam[], alias: string): string {
  return `${alias}.organization_code = ANY(${bind(params, scope.organizationCodes)}::text[])`;
}

/**
 * The organisation `code` and everything below it, if it lies in the scope ("404" 组织不存在
 * otherwise: another tenant's organisation is not acknowledged to exist).
 */
export async function organizationWithin(db: Queryable, scope: WorkScope, code: string): Promise<string[]> {
  if (!scope.organizationCodes.includes(code)) throw fail.notFound('组织不存在');
  return (await organizationsWithin(db, [code])).map((org) => org.code);
}

/** Versions as firmware and apps name them: 1.4.0, 1.2.4-hz.1. */
export const VERSION_PATTERN = '^[0-9]{1,4}\\.[0-9]{1,4}\\.[0-9]{1,4}(-[0-9A-Za-z.]{1,16})?$';
/** A release version of the app (no pre-release part). */
export const RELEASE_VERSION_PATTERN = '^[0-9]{1,4}\\.[0-9]{1,4}\\.[0-9]{1,4}$';
/** Where devices and phones download from: an https address, nothing that could run in a page. */
export const DOWNLOAD_URL_SCHEMA = schemaOf<string>({ type: 'string', maxLength: 512, pattern: '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[^\\s<>"\'`\\\\]*)?$' });

export const idSchema = userIdSchema;
export const idsSchema = (maxItems: number) => schemaOf<number[]>({ type: 'array', minItems: 1, maxItems, uniqueItems: true, items: idSchema });

/** "192.0 KB", "14.0 MB": a byte count as people read it. */
export function sizeText(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}


/** A record's time (ISO text, '' for none) as a spreadsheet's time cell: the Date it was read as, empty for none. */
export const timeCell = (time: string | null): Date | null => (time ? new Date(time) : null);

/** YYYYMMDD of the business day (the configured zone, China time by default), the date part of the platform's business codes. */
export function dateStamp(now: Date, timeZone: string): string {
  return businessDayStamp(now, timeZone);
}

/** The id the next row of `table` will get (for codes that embed it). */
export async function nextId(db: Queryable, table: 'upgrade_package' | 'upgrade_task' | 'online_configuration'): Promise<number> {
  const [row] = await db.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('${table}', 'id'))::int AS id`);
  return row.id;
}

/** The display name of the user behind a request (for created_by and replied_by columns). */
export const actorOf = (context: OperationContext<unknown>): string => callerOf(context).loginName;
