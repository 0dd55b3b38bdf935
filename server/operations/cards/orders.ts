import type { Queryable } from '../../db/database';
import { CARD_ORDER_ACTIONS, CARD_ORDER_STATE, CARD_ORDER_STATE_LABEL, type CardOrderState } from '../../domain/cardOrders';
import { CARD_OPERATOR_LABEL, CARD_STATE, DELIVERY_STATE, documentCode } from '../../domain/cards';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { holdsButton } from '../../security/caller';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, optionalPlainText, enumParam, keywordParam, organizationParam } from '../../core/params';
import { lockedState } from '../../core/conflicts';
import { callerTenant, isPlatformStaff } from '../../core/access';
import { Conditions, pageOf } from '../../core/listQuery';
import { column, contains, derived, equals, listing, textColumn, type ItemOf } from '../../core/listing';
import { cardOrderScope, cardScope, codeParam, loginNameOf, moneyColumn, nextId, nullableTimeColumn, requireCardStaff } from './access';
import { isoOrNull } from '../../core/values';
import { cardWorkflow } from './cardWorkflow';

/** Card orders (卡订单): the sales system's orders, their delivery and the tenant's confirmation. */

const ORDERS = listing({
  from: `card_order o
    LEFT JOIN organization t ON t.code = o.tenant_code
    LEFT JOIN organization g ON g.code = o.organization_code
    LEFT JOIN card_custom c ON c.code = o.custom_code
    LEFT JOIN card_charge_standard s ON s.code = o.package_code`,
  // The operator filter reads the custom card; the names are joined for the page's rows.
  narrowFrom: (needed) => (/\bc\./.test(needed) ? 'card_order o LEFT JOIN card_custom c ON c.code = o.custom_code' : 'card_order o'),
  key: 'o.id',
  scope: async (where, context) => cardOrderScope(where, await cardScope(context)),
  filters: {
    keyword: contains(['o.code', "COALESCE(o.sale_order_code, '')", 'o.remark', 'o.salesperson'], keywordParam),
    state: equals('o.state', enumParam(Object.values(CARD_ORDER_STATE))),
    operator: equals('c.operator', enumParam(['cmcc', 'cucc', 'ctcc', 'cbn'])),
    tenantCode: equals('o.tenant_code', organizationParam),
    organizationCode: equals('o.organization_code', organizationParam),
  },
  columns: {
    id: column<number>('o.id'),
    code: column<string>('o.code'),
    saleOrderCode: textColumn('o.sale_order_code'),
    tenantCode: column<string>('o.tenant_code'),
    tenantName: textColumn('t.name'),
    // An order naming no organisation is its tenant's.
    organizationCode: column<string>('COALESCE(o.organization_code, o.tenant_code)'),
    organizationName: textColumn('COALESCE(g.name, t.name)'),
    customCode: textColumn('o.custom_code'),
    customName: textColumn('c.name'),
    packageCode: textColumn('o.package_code'),
    packageName: textColumn('s.name'),
    operator: textColumn('c.operator'),
    state: column<CardOrderState>('o.state'),
    cardCount: column<number>('o.card_count'),
    shippedCount: column<number>("(SELECT COALESCE(sum(d.card_count), 0)::int FROM card_delivery d WHERE d.order_code = o.code AND d.state IN ('shipped', 'received'))"),
    years: column<number>('o.years'),
    unitPrice: moneyColumn('o.unit_price'),
    amount: moneyColumn('o.amount'),
    receivedAmount: moneyColumn('o.received_amount'),
    unreceivedAmount: derived((row) => Math.round((Number(row.amount) - Number(row.receivedAmount)) * 100) / 100),
    salesperson: column<string>('o.salesperson'),
    contactName: column<string>('o.contact_name'),
    contactPhone: column<string>('o.contact_phone'),
    address: column<string>('o.address'),
    remark: column<string>('o.remark'),
    createTime: nullableTimeColumn('o.created_at'),
    confirmTime: nullableTimeColumn('o.confirmed_at'),
    confirmedBy: textColumn('o.confirmed_by'),
    cancelTime: nullableTimeColumn('o.cancelled_at'),
    cancelReason: textColumn('o.cancel_reason'),
    completeTime: nullableTimeColumn('o.completed_at'),
    syncTime: nullableTimeColumn('o.synced_at'),
  },
  sorts: ['code', 'createTime', 'cardCount', 'amount', 'confirmTime'],
  fallback: 'o.created_at DESC, o.id DESC',
});
export type OrderRecord = ItemOf<typeof ORDERS>;

/**
 * The orders awaiting the confirmation of the request's scope (the selected organisation and
 * below, the keyword when given): what /card/order/user lists and what the start-up check asks.
 */
async function awaitingConfirmation(context: OperationContext<{ keyword?: string }>): Promise<Conditions> {
  return (await ORDERS.where(context)).add('o.state = $?', CARD_ORDER_STATE.awaitingConfirmation);
}

/** The deliveries of an order, as its detail shows them. */
const ORDER_DELIVERIES = listing({
  from: 'card_delivery d',
  filters: {},
  columns: {
    code: column<string>('d.code'),
    state: column<string>('d.state'),
    cardCount: column<number>('d.card_count'),
    expressCompany: column<string>('d.express_company'),
    expressNo: column<string>('d.express_no'),
    receiver: column<string>('d.receiver'),
    createTime: nullableTimeColumn('d.created_at'),
    shipTime: nullableTimeColumn('d.shipped_at'),
    receiveTime: nullableTimeColumn('d.received_at'),
  },
  sorts: [],
  fallback: 'd.created_at, d.id',
});

const NOT_FOUND = '卡订单不存在';

/** The order `code` within the request's scope ("404" 卡订单不存在 otherwise). */
export async function findOrder(context: OperationContext<unknown>, code: string, db: Queryable = context.db): Promise<OrderRecord> {
  const where = cardOrderScope(new Conditions(), await cardScope(context)).add('o.code = $?', code);
  const order = await ORDERS.find(context, where, '', db);
  if (!order) throw fail.notFound(NOT_FOUND);
  return order;
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
    paramSchema: ORDERS.paramSchema,
    handler: async (context) => {
      requireCardStaff(context);
      return ORDERS.page(context);
    },
  }),

  // /card/order/user: the orders the tenant is asked to confirm (the start-up notice links here,
  // for every member of the tenant's staff; only those holding the confirm button may confirm).
  defineOperation('card.order.user.page', {
    paramSchema: objectOf({ keyword: keywordParam }),
    handler: async (context) => {
      const page = await pageOf(context, ORDERS.listing, await awaitingConfirmation(context));
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
      const deliveries = await ORDER_DELIVERIES.findAll(context, new Conditions().add('d.order_code = $?', order.code), ' ORDER BY d.created_at, d.id');
      const states = await context.db.query<{ state: string; cards: number }>('SELECT state, count(*)::int AS cards FROM sim_card WHERE order_code = $1 GROUP BY state ORDER BY state', [order.code]);
      return {
        ...order,
        operatorName: CARD_OPERATOR_LABEL[order.operator] ?? '',
        canConfirm: order.state === CARD_ORDER_STATE.awaitingConfirmation && (await holdsButton(context.db, caller, 'card.order.confirm')),
        deliveries,
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
    paramSchema: ORDERS.paramSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const rows = await ORDERS.rows(context);
      return exportFile(
        context,
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
