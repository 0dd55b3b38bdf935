import type { SqlParam } from '../../db/database';
import { bind } from '../../db/parameters';
import { parseBusinessTime } from '../../domain/businessTime';
import { fail } from '../../http/envelope';
import type { OperationContext } from '../../core/context';
import { timeText, type ParamOf } from '../../core/params';
import { isPlatformStaff } from '../../core/access';

/**
 * Rows of the shared catalogue (tenant_code null) and of the tenant in scope; every row for
 * platform staff above the tenants.
 */
export function catalogueClause(tenantCode: string | null, params: SqlParam[], alias: string): string {
  if (tenantCode === null) return 'TRUE';
  return `(${alias}.tenant_code IS NULL OR ${alias}.tenant_code = ${bind(params, tenantCode)})`;
}

/** Platform staff edit every catalogue entry; tenant staff only their tenant's ("403" otherwise). */
export function checkCatalogueEditable(context: OperationContext<unknown>, rowTenant: string | null, message: string): void {
  if (isPlatformStaff(context)) return;
  if (rowTenant === null) throw fail.forbidden(message);
}

/** The owner type of a catalogue entry, as the lists show it (catalogue_owner in the pages). */
export const ownerType = (tenantCode: string | null): 'platform' | 'tenant' => (tenantCode === null ? 'platform' : 'tenant');
export const ownerName = (tenantCode: string | null): string => (tenantCode === null ? '平台' : '租户');

/** A time range of a dashboard or filter: param.startTime / param.endTime as the pickers send them. */
export const rangeProperties = { startTime: timeText, endTime: timeText };
/** A range a board or a statistic covers, either end open. */
export type TimeRange = { [End in keyof typeof rangeProperties]?: ParamOf<(typeof rangeProperties)[End]> };

const DAY_MS = 86_400_000;
/** The longest range a per-day series covers. */
export const MAX_RANGE_DAYS = 366;

/** A time of a range; one without an offset is read on the business zone's clock. */
function parseTime(value: string, field: string, timeZone: string): Date {
  const time = parseBusinessTime(value, timeZone);
  if (Number.isNaN(time.getTime())) throw fail.badField(field);
  return time;
}

/**
 * [start, end] of a range (either bound may be missing: the last `defaultDays` up to now; reversed bounds are swapped). "400"
 * for an unreadable time, equal bounds, or a range longer than MAX_RANGE_DAYS.
 */
export function rangeOf(range: TimeRange, now: Date, defaultDays: number, timeZone: string): [Date, Date] {
  const end = range.endTime ? parseTime(range.endTime, 'endTime', timeZone) : now;
  const start = range.startTime ? parseTime(range.startTime, 'startTime', timeZone) : new Date(end.getTime() - defaultDays * DAY_MS);
  if (start.getTime() === end.getTime()) throw fail.badRequest('请输入不同的时间');
  const [from, to] = start < end ? [start, end] : [end, start];
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) throw fail.badRequest(`时间范围不能超过 ${MAX_RANGE_DAYS} 天`);
  return [from, to];
}
