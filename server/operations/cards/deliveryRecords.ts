import type { Queryable } from '../../db/database';
import { DELIVERY_STATE, EXPRESS_COMPANY_LABEL, type DeliveryState } from '../../domain/cards';
import { fail } from '../../http/envelope';
import type { OperationContext } from '../../core/context';
import { enumParam, keywordParam, organizationParam, schemaOf } from '../../core/params';
import { Conditions } from '../../core/listQuery';
import { column, contains, equals, listing, textColumn, type ItemOf } from '../../core/listing';
import { BY_TENANT } from '../../core/scope';
import { cardScope, nullableTimeColumn } from './access';

/**
 * A delivery (发货单) as the lists and the detail read it: the list declared once (counted and
 * paged over card_delivery alone), its filters and record, and the lookup within scope.
 */

export const DELIVERIES = listing({
  from: `card_delivery d
    JOIN card_order o ON o.code = d.order_code
    LEFT JOIN organization t ON t.code = d.tenant_code
    LEFT JOIN organization g ON g.code = d.organization_code
    LEFT JOIN card_custom c ON c.code = o.custom_code`,
  // Every filter and sort reads the delivery alone (its order always exists).
  narrowFrom: 'card_delivery d',
  key: 'd.id',
  scope: async (where, context) => where.scope(await cardScope(context), 'd', BY_TENANT),
  filters: {
    keyword: contains(['d.code', 'd.order_code', 'd.express_no', 'd.receiver'], keywordParam),
    state: equals('d.state', enumParam(Object.values(DELIVERY_STATE))),
    tenantCode: equals('d.tenant_code', organizationParam),
    orderCode: equals('d.order_code', schemaOf<string>({ type: 'string', maxLength: 32 })),
  },
  columns: {
    id: column<number>('d.id'),
    code: column<string>('d.code'),
    orderCode: column<string>('d.order_code'),
    orderState: column<string>('o.state'),
    tenantCode: column<string>('d.tenant_code'),
    tenantName: textColumn('t.name'),
    organizationCode: column<string>('d.organization_code'),
    organizationName: textColumn('g.name'),
    customName: textColumn('c.name'),
    state: column<DeliveryState>('d.state'),
    cardCount: column<number>('d.card_count'),
    expressCompany: column<string>('d.express_company'),
    expressCompanyName: column('d.express_company', (company: string) => EXPRESS_COMPANY_LABEL[company] ?? ''),
    expressNo: column<string>('d.express_no'),
    receiver: column<string>('d.receiver'),
    receiverPhone: column<string>('d.receiver_phone'),
    address: column<string>('d.address'),
    remark: column<string>('d.remark'),
    revokeReason: textColumn('d.revoke_reason'),
    createdBy: column<string>('d.created_by'),
    shippedBy: textColumn('d.shipped_by'),
    createTime: nullableTimeColumn('d.created_at'),
    shipTime: nullableTimeColumn('d.shipped_at'),
    receiveTime: nullableTimeColumn('d.received_at'),
    revokeTime: nullableTimeColumn('d.revoked_at'),
    cancelTime: nullableTimeColumn('d.cancelled_at'),
  },
  sorts: ['code', 'createTime', 'shipTime', 'cardCount'],
  fallback: 'd.created_at DESC, d.id DESC',
});
export type DeliveryRecord = ItemOf<typeof DELIVERIES>;

export const NOT_FOUND = '发货单不存在';

export async function findDelivery(context: OperationContext<unknown>, code: string, db: Queryable = context.db): Promise<DeliveryRecord> {
  const where = new Conditions().scope(await cardScope(context), 'd', BY_TENANT).add('d.code = $?', code);
  const delivery = await DELIVERIES.find(context, where, '', db);
  if (!delivery) throw fail.notFound(NOT_FOUND);
  return delivery;
}
