import type { Queryable } from '../../db/database';
import { DELIVERY_STATE, EXPRESS_COMPANY_LABEL, type DeliveryState } from '../../domain/cards';
import { fail } from '../../http/envelope';
import type { OperationContext } from '../../core/context';
import { enumParam, keywordParam, organizationParam, schemaOf } from '../../core/params';
import { Conditions, containing, type Listing } from '../../core/listQuery';
import { BY_TENANT } from '../../core/scope';
import { cardScope } from './access';
import { isoOrNull } from '../../core/values';

/**
 * A delivery (发货单) as the lists and the detail read it: its row, its record, the list's
 * listing (counted and paged over card_delivery alone) and filter, and the lookup within scope.
 */

export interface DeliveryRow {
  id: number;
  code: string;
  order_code: string;
  order_state: string;
  tenant_code: string;
  tenant_name: string | null;
  organization_code: string;
  organization_name: string | null;
  custom_name: string | null;
  state: DeliveryState;
  card_count: number;
  express_company: string;
  express_no: string;
  receiver: string;
  receiver_phone: string;
  address: string;
  remark: string;
  revoke_reason: string | null;
  created_by: string;
  shipped_by: string | null;
  created_at: Date;
  shipped_at: Date | null;
  received_at: Date | null;
  revoked_at: Date | null;
  cancelled_at: Date | null;
}

export function deliveryRecord(row: DeliveryRow) {
  return {
    id: row.id,
    code: row.code,
    orderCode: row.order_code,
    orderState: row.order_state,
    tenantCode: row.tenant_code,
    tenantName: row.tenant_name ?? '',
    organizationCode: row.organization_code,
    organizationName: row.organization_name ?? '',
    customName: row.custom_name ?? '',
    state: row.state,
    cardCount: row.card_count,
    expressCompany: row.express_company,
    expressCompanyName: EXPRESS_COMPANY_LABEL[row.express_company] ?? '',
    expressNo: row.express_no,
    receiver: row.receiver,
    receiverPhone: row.receiver_phone,
    address: row.address,
    remark: row.remark,
    revokeReason: row.revoke_reason ?? '',
    createdBy: row.created_by,
    shippedBy: row.shipped_by ?? '',
    createTime: isoOrNull(row.created_at),
    shipTime: isoOrNull(row.shipped_at),
    receiveTime: isoOrNull(row.received_at),
    revokeTime: isoOrNull(row.revoked_at),
    cancelTime: isoOrNull(row.cancelled_at),
  };
}
export type DeliveryRecord = ReturnType<typeof deliveryRecord>;

export const DELIVERIES: Listing<DeliveryRow, DeliveryRecord> = {
  from: `card_delivery d
    JOIN card_order o ON o.code = d.order_code
    LEFT JOIN organization t ON t.code = d.tenant_code
    LEFT JOIN organization g ON g.code = d.organization_code
    LEFT JOIN card_custom c ON c.code = o.custom_code`,
  // Every filter and sort reads the delivery alone (its order always exists).
  narrowFrom: 'card_delivery d',
  key: 'd.id',
  columns: `d.id, d.code, d.order_code, o.state AS order_state, d.tenant_code, t.name AS tenant_name, d.organization_code, g.name AS organization_name,
    c.name AS custom_name, d.state, d.card_count, d.express_company, d.express_no, d.receiver, d.receiver_phone, d.address, d.remark, d.revoke_reason,
    d.created_by, d.shipped_by, d.created_at, d.shipped_at, d.received_at, d.revoked_at, d.cancelled_at`,
  sorts: { code: 'd.code', createTime: 'd.created_at', shipTime: 'd.shipped_at', cardCount: 'd.card_count' },
  fallback: 'd.created_at DESC, d.id DESC',
  record: deliveryRecord,
};

export interface DeliveryFilter {
  keyword?: string;
  state?: string;
  tenantCode?: string;
  orderCode?: string;
}
export const filterProperties = {
  keyword: keywordParam,
  state: enumParam(Object.values(DELIVERY_STATE)),
  tenantCode: organizationParam,
  orderCode: schemaOf<string>({ type: 'string', maxLength: 32 }),
};

export async function deliveryConditions(context: OperationContext<DeliveryFilter>): Promise<Conditions> {
  const filter = context.param;
  return new Conditions()
    .scope(await cardScope(context), 'd', BY_TENANT)
    .when(filter.keyword, '(d.code ILIKE $? OR d.order_code ILIKE $? OR d.express_no ILIKE $? OR d.receiver ILIKE $?)', (v) => containing(String(v)))
    .when(filter.state, 'd.state = $?')
    .when(filter.tenantCode, 'd.tenant_code = $?')
    .when(filter.orderCode, 'd.order_code = $?');
}

export const NOT_FOUND = '发货单不存在';

export async function findDelivery(context: OperationContext<unknown>, code: string, db: Queryable = context.db): Promise<DeliveryRecord> {
  const where = new Conditions().scope(await cardScope(context), 'd', BY_TENANT).add('d.code = $?', code);
  const [row] = await db.query<DeliveryRow>(`SELECT ${DELIVERIES.columns} FROM ${DELIVERIES.from} WHERE ${where.sql}`, where.params);
  if (!row) throw fail.notFound(NOT_FOUND);
  return deliveryRecord(row);
}
