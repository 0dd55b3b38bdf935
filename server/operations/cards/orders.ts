import type { Queryable } from '../../db/database';
import { CARD_ORDER_ACTIONS, CARD_ORDER_STATE, CARD_ORDER_STATE_LABEL, type CardOrderState } from '../../domain/cardOrders';
import { CARD_OPERATOR_LABEL, CARD_STATE, DELIVERY_STATE, documentCode } from '../../domain/cards';
import { fail } from '../../http/envelope';
import { spreadsheet } from '../../http/spreadsheet';
import { holdsButton } from '../../security/caller';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, optionalPlainText, enumParam, keywordParam, organizationParam, type ParamOf } from '../../core/params';
import { lockedState } from '../../core/conflicts';
import { callerTenant, isPlatformStaff } from '../../core/access';
import { Conditions, containing, exportOf, pageOf, type Listing } from '../../core/listQuery';
import { cardOrderScope, cardScope, codeParam, loginNameOf, money, nextId, requireCardStaff } from './access';
import { isoOrNull } from '../../core/values';
import { cardWorkflow } from './cardWorkflow';

/** Card orders (卡订单): the sales system's orders, their delivery and the tenant's confirmation. */

interface OrderRow {
  id: number;
  code: string;
  sale_order_code: string | null;
  tenant_code: string;
  tenant_name: string | null;
  organization_code: string | null;
  organization_name: string | null;
  custom_code: string | null;
  custom_name: string | null;
  package_code: string | null;
  package_name: string | null;
  operator: string | null;
  state: CardOrderState;
  card_count: number;
  shipped_count: number;
  years: number;
  unit_price: string;
  amount: string;
  received_amount: string;
  salesperson: string;
  contact_name: string;
  contact_phone: string;
  address: string;
  remark: string;
  created_at: Date;
  confirmed_at: Date | null;
  confirmed_by: string | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  completed_at: Date | null;
  synced_at: Date | null;
}

export function orderRecord(row: OrderRow) {
  return {
    id: row.id,
    code: row.code,
    saleOrderCode: row.sale_order_code ?? '',
    tenantCode: row.tenant_code,
    tenantName: row.tenant_name ?? '',
    organizationCode: row.organization_code ?? row.tenant_code,
    organizationName: row.organization_name ?? row.tenant_name ?? '',
    customCode: row.custom_code ?? '',
    customName: row.custom_name ?? '',
    packageCode: row.package_code ?? '',
    packageName: row.package_name ?? '',
    operator: row.operator ?? '',
    state: row.state,
    cardCount: row.card_count,
    shippedCount: row.shipped_count,
    years: row.years,
    unitPrice: money(row.unit_price),
    amount: money(row.amount),
    receivedAmount: money(row.received_amount),
    unreceivedAmount: Math.round((Number(row.amount) - Number(row.received_amount)) * 100) / 100,
    salesperson: row.salesperson,
    contactName: row.contact_name,
    contactPhone: row.contact_phone,
    address: row.address,
    remark: row.remark,
    createTime: isoOrNull(row.created_at),
    confirmTime: isoOrNull(row.confirmed_at),
    confirmedBy: row.confirmed_by ?? '',
    cancelTime: isoOrNull(row.cancelled_at),
    cancelReason: row.cancel_reason ?? '',
    completeTime: isoOrNull(row.completed_at),
    syncTime: isoOrNull(row.synced_at),
  };
}
export type OrderRecord = ReturnType<typeof orderRecord>;

const ORDERS: Listing<OrderRow, OrderRecord> = {
  from: `card_order o
    LEFT JOIN organization t ON t.code = o.tenant_code
    LEFT JOIN organization g ON g.code = o.organization_code
    LEFT JOIN card_custom c ON c.code = o.custom_code
    LEFT JOIN card_charge_standard s ON s.code = o.package_code`,
  // The operator filter reads the custom card; the names are joined for the page's rows.
  narrowFrom: (needed) => (/\bc\./.test(needed) ? 'card_order o LEFT JOIN card_custom c ON c.code = o.custom_code' : 'card_order o'),
  key: 'o.id',
  columns: `o.id, o.code, o.sale_order_code, o.tenant_code, t.name AS tenant_name, o.organization_code, g.name AS organization_name,
    o.custom_code, c.name AS custom_name, o.package_code, s.name AS package_name, c.operator, o.state, o.card_count,
    (SELECT COALESCE(sum(d.card_count), 0)::int FROM card_delivery d WHERE d.order_code = o.code AND d.state IN ('shipped', 'received')) AS shipped_count,
    o.years, o.unit_price, o.amount, o.received_amount, o.salesperson, o.contact_name, o.contact_phone, o.address, o.remark,
    o.created_at, o.confirmed_at, o.confirmed_by, o.cancelled_at, o.cancel_reason, o.completed_at, o.synced_at`,
  sorts: { code: 'o.code', createTime: 'o.created_at', cardCount: 'o.card_count', amount: 'o.amount', confirmTime: 'o.confirmed_at' },
  fallback: 'o.created_at DESC, o.id DESC',
  record: orderRecord,
};

type OrderFilter = ParamOf<typeof filterSchema>;

const orderStates = Object.values(CARD_ORDER_STATE);
const filterSchema = objectOf({
  keyword: keywordParam,
  state: enumParam(orderStates),
  operator: enumParam(['cmcc', 'cucc', 'ctcc', 'cbn']),
  tenantCode: organizationParam,
  organizationCode: organizationParam,
});

async function orderConditions(context: OperationContext<OrderFilter>): Promise<Conditions> {
  const filter = context.param;
  return cardOrderScope(new Conditions(), await cardScope(context))
    .when(filter.keyword, '(o.code ILIKE $? OR COALESCE(o.sale_order_code, \'\') ILIKE $? OR o.remark ILIKE $? OR o.salesperson ILIKE $?)', (v) => containing(String(v)))
    .when(filter.state, 'o.state = $?')
    .when(filter.operator, 'c.operator = $?')
    .when(filter.tenantCode, 'o.tenant_code = $?')
    .when(filter.organizationCode, 'o.organization_code = $?');
}

/**
 * The orders awaiting the confirmation of the request's scope (the selected organisation and
 * below, the keyword when given): what /card/order/user lists and what the start-up check asks.
 */
async function awaitingConfirmation(context: OperationContext<{ keyword?: string }>): Promise<Conditions> {
  return (await orderConditions(context as OperationContext<OrderFilter>)).add('o.state = $?', CARD_ORDER_STATE.awaitingConfirmation);
}

const NOT_FOUND = '卡订单不存在';

/** The order `code` within the request's scope ("404" 卡订单不存在 otherwise). */
export async function findOrder(context: OperationContext<unknown>, code: string, db: Queryable = context.db): Promise<OrderRecord> {
  const where = cardOrderScope(new Conditions(), await cardScope(context)).add('o.code = $?', code);
  const [row] = await db.query<OrderRow>(`SELECT ${ORDERS.columns} FROM ${ORDERS.from} WHERE ${where.sql}`, where.params);
  if (!row) throw fail.notFound(NOT_FOUND);
  return orderRecord(row);
}

/** The steps of a card order (its confirmation and cancellation here, its deliveries in delivery.ts). */
export const CARD_ORDER = cardWorkflow({ table: 'card_order', labels: CARD_ORDER_STATE_LABEL, missing: NOT_FOUND, changed: '订单状态已变化，请刷新后重试', find: findOrder });

const codeOnly = objectOf({ code: codeParam() }, ['code']);

async function markSynced(db: Queryable, kind: 'sim' | 'order' | 'sale_order', when: Date, by: string, summary: string): Promise<void> {
  await db.query(
    `INSERT INTO card_sync (kind, synced_at, synced_by, summary) VALUES ($1, $2, $3, $4)
     ON CONFLICT (kind) DO UPDATE SET synced_at = EXCLUDED.synced_at, synced_by = EXCLUDED.synced_by, summary = EXCLUDED.summary`,
    [kind, when, by, summary],
  );
}
export { markSynced };

/**
 * SPEC §4 "Card startup check" (card.order.isBulletBox, served with the main frame): "1" when a
 * card order awaits the confirmation of the caller's tenant within the request's scope, else "0".
 * The scope is the one /card/order/user lists (the selected organisation and below), so the
 * notice never points at an empty list (issue 21).
 */
const isBulletBox = defineOperation('card.order.isBulletBox', {
  async handler(context): Promise<'0' | '1'> {
    if (!(await callerTenant(context))) return '0';
    const where = await awaitingConfirmation({ ...context, param: {} });
    const rows = await context.db.query(`SELECT 1 FROM card_order o WHERE ${where.sql} LIMIT 1`, where.params);
    return rows.length > 0 ? '1' : '0';
  },
});

export const orderOperations = [
  isBulletBox,
  defineOperation('card.order.page', {
    paramSchema: filterSchema,
    handler: async (context) => {
      requireCardStaff(context);
      return pageOf(context, ORDERS, await orderConditions(context));
    },
  }),

  // /card/order/user: the orders the tenant is asked to confirm (the start-up notice links here,
  // for every member of the tenant's staff; only those holding the confirm button may confirm).
  defineOperation('card.order.user.page', {
    paramSchema: objectOf({ keyword: keywordParam }),
    handler: async (context) => {
      const page = await pageOf(context, ORDERS, await awaitingConfirmation(context));
      const canConfirm = await holdsButton(context.db, callerOf(context), 'card.order.confirm');
      return { ...page, records: page.records.map((record) => ({ ...record, canConfirm })) };
    },
  }),

  defineOperation('card.order.detail', {
    paramSchema: codeOnly,
    handler: async (context) => {
      const caller = callerOf(context);
      const order = await findOrder(context, context.param.code);
      // Tenant staff reach an order from the start-up notice; the rest of the card area is the card staff's.
      if (!(order.state === CARD_ORDER_STATE.awaitingConfirmation && !isPlatformStaff(context))) requireCardStaff(context);
      const deliveries = await context.db.query<{ code: string; state: string; card_count: number; express_company: string; express_no: string; receiver: string; created_at: Date; shipped_at: Date | null; received_at: Date | null }>(
        `SELECT code, state, card_count, express_company, express_no, receiver, created_at, shipped_at, received_at FROM card_delivery WHERE order_code = $1 ORDER BY created_at, id`,
        [order.code],
      );
      const states = await context.db.query<{ state: string; cards: number }>('SELECT state, count(*)::int AS cards FROM sim_card WHERE order_code = $1 GROUP BY state ORDER BY state', [order.code]);
      return {
        ...order,
        operatorName: CARD_OPERATOR_LABEL[order.operator] ?? '',
        canConfirm: order.state === CARD_ORDER_STATE.awaitingConfirmation && (await holdsButton(context.db, caller, 'card.order.confirm')),
        deliveries: deliveries.map((d) => ({
          code: d.code,
          state: d.state,
          cardCount: d.card_count,
          expressCompany: d.express_company,
          expressNo: d.express_no,
          receiver: d.receiver,
          createTime: isoOrNull(d.created_at),
          shipTime: isoOrNull(d.shipped_at),
          receiveTime: isoOrNull(d.received_at),
        })),
        cardStates: states.map((s) => ({ state: s.state, cardCount: s.cards })),
      };
    },
  }),

  // The tenant confirms receipt of a shipped order: the order is confirmed, its delivery received.
  defineOperation('card.order.confirm', {
    paramSchema: codeOnly,
    handler: async (context) =>
      CARD_ORDER.step(context, context.param.code, CARD_ORDER_ACTIONS.confirm, '确认', async (tx, order) => {
        await CARD_ORDER.move(tx, order.code, {
          from: [CARD_ORDER_STATE.awaitingConfirmation],
          to: CARD_ORDER_STATE.confirmed,
          set: { confirmed_at: context.now, confirmed_by: loginNameOf(context), updated_at: context.now },
          refuseMoved: true,
        });
        await tx.query(`UPDATE card_delivery SET state = $2, received_at = $3, updated_at = $3 WHERE order_code = $1 AND state = $4`, [order.code, DELIVERY_STATE.received, context.now, DELIVERY_STATE.shipped]);
      }),
  }),

  defineOperation('card.order.cancel', {
    paramSchema: objectOf({ code: codeParam(), reason: optionalPlainText(200) }, ['code']),
    handler: async (context) =>
      CARD_ORDER.step(context, context.param.code, CARD_ORDER_ACTIONS.cancel, '取消', (tx, order) =>
        CARD_ORDER.move(tx, order.code, {
          from: [CARD_ORDER_STATE.pendingDelivery],
          to: CARD_ORDER_STATE.cancelled,
          set: { cancelled_at: context.now, cancel_reason: context.param.reason?.trim() || `${loginNameOf(context)} 取消`, updated_at: context.now },
          refuseMoved: true,
        }),
      ),
  }),

  // Refreshes an order from the operators: a confirmed order whose cards have all left their test
  // period is complete.
  defineOperation('card.order.sync', {
    paramSchema: codeOnly,
    handler: async (context) => {
      const order = await findOrder(context, context.param.code);
      if (order.state === CARD_ORDER_STATE.cancelled) throw fail.conflict(`当前状态（${CARD_ORDER_STATE_LABEL.cancelled}）不允许同步`);
      await context.db.transaction(async (tx) => {
        const state = await lockedState(tx, 'card_order', order.code, NOT_FOUND);
        await tx.query('UPDATE card_order SET synced_at = $2 WHERE code = $1', [order.code, context.now]);
        if ((CARD_ORDER_ACTIONS.complete as readonly string[]).includes(state)) {
          const [testing] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM sim_card WHERE order_code = $1 AND state = $2 AND test_until > $3', [order.code, CARD_STATE.testing, context.now]);
          if (testing.n === 0) await CARD_ORDER.move(tx, order.code, { from: CARD_ORDER_ACTIONS.complete, to: CARD_ORDER_STATE.completed, set: { completed_at: context.now, updated_at: context.now } });
        }
        await markSynced(tx, 'order', context.now, loginNameOf(context), `同步订单 ${order.code}`);
      });
      return findOrder(context, order.code);
    },
  }),

  defineOperation('card.order.export', {
    paramSchema: filterSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const rows = await exportOf(context, ORDERS, await orderConditions(context));
      return spreadsheet(
        '卡订单',
        [
          { title: '订单编号', value: (r: OrderRecord) => r.code },
          { title: '销售订单号', value: (r) => r.saleOrderCode },
          { title: '租户', value: (r) => r.tenantName, width: 28 },
          { title: '项目', value: (r) => r.organizationName, width: 22 },
          { title: '卡片', value: (r) => r.customName, width: 26 },
          { title: '资费套餐', value: (r) => r.packageName, width: 24 },
          { title: '数量', value: (r) => r.cardCount },
          { title: '年限', value: (r) => r.years },
          { title: '单价（元/年）', value: (r) => r.unitPrice },
          { title: '金额（元）', value: (r) => r.amount },
          { title: '已回款（元）', value: (r) => r.receivedAmount },
          { title: '状态', value: (r) => CARD_ORDER_STATE_LABEL[r.state] },
          { title: '销售', value: (r) => r.salesperson },
          { title: '下单时间', value: (r) => (r.createTime ? new Date(r.createTime) : null) },
        ],
        rows,
        context.now,
        context.config.timeZone,
      );
    },
  }),

  defineOperation('card.syncTime.get', {
    handler: async (context) => {
      requireCardStaff(context);
      const rows = await context.db.query<{ kind: string; synced_at: Date; synced_by: string; summary: string }>('SELECT kind, synced_at, synced_by, summary FROM card_sync ORDER BY kind');
      const of = (kind: string) => rows.find((row) => row.kind === kind);
      return {
        simSyncTime: isoOrNull(of('sim')?.synced_at),
        orderSyncTime: isoOrNull(of('order')?.synced_at),
        saleOrderSyncTime: isoOrNull(of('sale_order')?.synced_at),
        records: rows.map((row) => ({ kind: row.kind, syncTime: isoOrNull(row.synced_at), syncedBy: row.synced_by, summary: row.summary })),
      };
    },
  }),

  // Imports the sale orders signed in the sales system since the last sync as card orders
  // awaiting delivery.
  defineOperation('card.saleOrder.sync', {
    handler: async (context) => {
      if (!isPlatformStaff(context)) throw fail.forbidden();
      const codes = await context.db.transaction(async (tx) => {
        const sales = await tx.query<{
          code: string;
          tenant_code: string;
          organization_code: string;
          salesperson: string;
          custom_code: string;
          package_code: string;
          card_count: number;
          years: number;
          unit_price: string;
          amount: string;
          contact_name: string;
          contact_phone: string;
          address: string;
        }>('SELECT * FROM card_sale_order WHERE imported_at IS NULL ORDER BY signed_at, code FOR UPDATE');
        const imported: string[] = [];
        for (const sale of sales) {
          const id = await nextId(tx, 'card_order');
          const code = documentCode('CO', context.now, id, context.config.timeZone);
          await tx.query(
            `INSERT INTO card_order (id, code, tenant_code, organization_code, state, card_count, remark, sale_order_code, salesperson, custom_code, package_code,
               years, unit_price, amount, contact_name, contact_phone, address, created_at, updated_at, synced_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18, $18)`,
            [id, code, sale.tenant_code, sale.organization_code, CARD_ORDER_STATE.pendingDelivery, sale.card_count, `销售订单 ${sale.code} 导入`, sale.code, sale.salesperson,
              sale.custom_code, sale.package_code, sale.years, sale.unit_price, sale.amount, sale.contact_name, sale.contact_phone, sale.address, context.now],
          );
          await tx.query('UPDATE card_sale_order SET imported_at = $2 WHERE code = $1', [sale.code, context.now]);
          imported.push(code);
        }
        await markSynced(tx, 'sale_order', context.now, loginNameOf(context), `导入销售订单 ${imported.length} 笔`);
        return imported;
      });
      return { imported: codes.length, codes };
    },
  }),

  defineOperation('card.supplier.list', {
    handler: async (context) => {
      requireCardStaff(context);
      const rows = await context.db.query<{ code: string; name: string; operator: string; contact_name: string; contact_phone: string }>(
        'SELECT code, name, operator, contact_name, contact_phone FROM card_supplier ORDER BY code',
      );
      return rows.map((row) => ({ code: row.code, name: row.name, operator: row.operator, operatorName: CARD_OPERATOR_LABEL[row.operator] ?? '', contactName: row.contact_name, contactPhone: row.contact_phone }));
    },
  }),
];
