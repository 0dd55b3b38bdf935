import { parseBusinessTime } from '../../domain/businessTime';
import { STORED_FILE_PATH } from '../../domain/files';
import { fail } from '../../http/envelope';
import { isPlatformStaff, actingTenant, menuReaders } from '../../core/access';
import { callerOf, type OperationContext } from '../../core/context';
import { schemaOf } from '../../core/params';
import { organizationScope, type OrganizationScope } from '../../core/scope';

/**
 * Who may do what in the mall, and which records a request sees.
 *
 * Reading the goods, discounts and orders is for the roles of the 在线商城 menu (tenant admins and
 * platform staff); the invoices for those of 费用中心 and platform staff. Writing is gated again
 * per button by the route (operations marked `"button": true`).
 *
 * Scope: goods and discounts are the platform's (a tenant sees only what is on the shelf); an
 * address or an invoice title is a tenant's; an order and its invoice belong to the organisation
 * it was placed from, and a request sees those under its selected organisation. Another tenant's
 * record is not acknowledged to exist ("404"). An order and an invoice keep `tenant_code` equal to
 * the tenant of that organisation, so lists scope them by the tenant (cards/access BY_TENANT).
 */

const isMallReader = menuReaders('shopping');
const isFinanceReader = menuReaders('finance');

/** Roles of the 在线商城 menu ("403" for anyone else). */
export function requireMallReader(context: OperationContext<unknown>): void {
  if (!isMallReader(context)) throw fail.forbidden();
}

/** Roles of the 费用中心 menu, and platform staff ("403" for anyone else). */
export function requireFinanceReader(context: OperationContext<unknown>): void {
  if (!isPlatformStaff(context) && !isFinanceReader(context)) throw fail.forbidden();
}

/** Platform staff only: the goods, discounts and order management ("403" for anyone else). */
export function requireMallStaff(context: OperationContext<unknown>): void {
  if (!isPlatformStaff(context)) throw fail.forbidden();
}

/** The tenant a buyer's action works for (the selected organisation's); "403" for platform staff. */
export async function buyingTenant(context: OperationContext<unknown>): Promise<string> {
  requireMallReader(context);
  return actingTenant(context);
}

/** The organisations whose orders a request sees (the selected one and below: core/scope.ts). */
export const orderScope = (context: OperationContext<unknown>): Promise<OrganizationScope> => organizationScope(context);

export const loginNameOf = (context: OperationContext<unknown>): string => callerOf(context).loginName;

// ── param schemas ────────────────────────────────────────────────────────────────────────────────

export const goodsCodeParam = schemaOf<string>({ type: 'string', pattern: '^GD[0-9]{5}$' });
export const discountCodeParam = schemaOf<string>({ type: 'string', pattern: '^YH[0-9]{5}$' });
export const orderCodeParam = schemaOf<string>({ type: 'string', pattern: '^MO[0-9]{13,16}$' });
export const invoiceCodeParam = schemaOf<string>({ type: 'string', pattern: '^FP[0-9]{13,16}$' });
export const idParam = schemaOf<number>({ type: 'integer', minimum: 1, maximum: 2_147_483_647 });
export const moneyParam = (minimum: number, maximum: number) => schemaOf<number>({ type: 'number', minimum, maximum });
/** A time as the date pickers send it (2026-11-22 08:00:00) or ISO 8601. */
export const timeParam = schemaOf<string>({ type: 'string', minLength: 10, maxLength: 40, pattern: '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:?\\d{2})?)?$' });

/** An uploaded image's path (system.file.upload), or one of the built-in goods pictures. */
export const STORED_IMAGE_PATTERN = STORED_FILE_PATH.source.replace('(jpg|png|gif|webp|pdf|xlsx|svg)', '(jpg|png|gif|webp|svg)');
export const imageParam = schemaOf<string>({
  anyOf: [
    { type: 'string', maxLength: 200, pattern: STORED_IMAGE_PATTERN },
    { type: 'string', maxLength: 16_000, pattern: '^data:image/svg\\+xml;base64,[A-Za-z0-9+/=]+$' },
  ],
});

/**
 * A time the console sent: a date picker's wall-clock time, read in the business zone (China time
 * by default), or ISO 8601 with its offset; "400" with the field when it is not a real time.
 */
export function parseTime(text: string, field: string, timeZone: string): Date {
  const time = parseBusinessTime(text, timeZone);
  if (Number.isNaN(time.getTime())) throw fail.badField(`${field}（时间格式不正确）`);
  return time;
}
