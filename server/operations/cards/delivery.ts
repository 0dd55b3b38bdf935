import type { Queryable } from '../../db/database';
import { CARD_ORDER_ACTIONS, CARD_ORDER_STATE } from '../../domain/cardOrders';
import { addDays, CARD_STATE, DELIVERY_ACTIONS, DELIVERY_STATE, DELIVERY_STATE_LABEL, documentCode, requireState, TEST_PERIOD_DAYS } from '../../domain/cards';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { defineOperation } from '../../core/operation';
import { objectOf, optionalPlainText, plainText, schemaOf } from '../../core/params';
import { lockedState } from '../../core/conflicts';
import { Conditions, exportOf } from '../../core/listQuery';
import {
  cardOrderScope,
  cardScope,
  codeParam,
  expressCompanyParam,
  expressNoParam,
  loginNameOf,
  nextId,
  phoneParam,
  platformCode,
  requireSupplyStaff,
} from './access';
import { DELIVERIES, findDelivery, NOT_FOUND } from './deliveryRecords';
import { CARD_ORDER, findOrder } from './orders';
import { cardWorkflow } from './cardWorkflow';

/**
 * Deliveries (发货单, the 出库管理 view): the platform picks an order's cards from stock, ships
 * them, may revoke a shipment the tenant has not confirmed, or cancel one not yet shipped.
 */

const RECEIVED_REFUSES_REVOKE = '客户已确认收货，不能撤回';

/** In-stock cards of a custom card specification free for a delivery or a replacement, locked until the transaction ends. */
export async function availableStock(db: Queryable, customCode: string | null, limit: number): Promise<string[]> {
  const rows = await db.query<{ iccid: string }>(
    `SELECT s.iccid FROM sim_card s LEFT JOIN card_stock_batch b ON b.code = s.batch_code
      WHERE s.state = $1 AND s.custom_code = $2 AND s.delivery_code IS NULL AND s.alter_code IS NULL
      ORDER BY b.created_at NULLS LAST, s.iccid LIMIT $3 FOR UPDATE OF s`,
    [CARD_STATE.inStock, customCode, limit],
  );
  return rows.map((row) => row.iccid);
}

async function countStock(db: Queryable, customCode: string | null): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM sim_card WHERE state = $1 AND custom_code = $2 AND delivery_code IS NULL AND alter_code IS NULL',
    [CARD_STATE.inStock, customCode],
  );
  return row.n;
}

/**
 * Marks stock cards as taken by a delivery or a replacement (`column`): only cards still free move,
 * and unless all of them did the step is refused (another took some meanwhile).
 */
export async function reserveStock(db: Queryable, column: 'delivery_code' | 'alter_code', code: string, iccids: readonly string[], now: Date): Promise<void> {
  const taken = await db.query<{ iccid: string }>(
    `UPDATE sim_card SET ${column} = $1, updated_at = $3 WHERE iccid = ANY($2::text[]) AND state = $4 AND delivery_code IS NULL AND alter_code IS NULL RETURNING iccid`,
    [code, [...iccids], now, CARD_STATE.inStock],
  );
  if (taken.length !== iccids.length) throw fail.conflict('库存卡片已被占用，请重试');
}

/** Puts the cards of a delivery back in stock, free. */
async function releaseCards(db: Queryable, deliveryCode: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE sim_card SET state = $2, tenant_code = NULL, organization_code = $3, order_code = NULL, delivery_code = NULL, test_until = NULL,
            month_used_mb = 0, last_session_at = NULL, updated_at = $4
      WHERE delivery_code = $1 AND state IN ($2, $5)`,
    [deliveryCode, CARD_STATE.inStock, await platformCode(db), now, CARD_STATE.testing],
  );
}

const DELIVERY = cardWorkflow({ table: 'card_delivery', labels: DELIVERY_STATE_LABEL, missing: NOT_FOUND, changed: '发货单状态已变化，请刷新后重试', find: findDelivery });

const codeOnly = objectOf({ code: codeParam() }, ['code']);
const contactFields = {
  receiver: plainText(32),
  receiverPhone: phoneParam,
  address: plainText(200),
};

export const deliveryOperations = [
  defineOperation('card.delivery.page', {
    paramSchema: DELIVERIES.paramSchema,
    handler: async (context) => {
      requireSupplyStaff(context);
      return DELIVERIES.page(context);
    },
  }),

  // The customer a delivery goes to: the order's tenant, project and contact (the form's defaults).
  defineOperation('card.delivery.customInfo', {
    paramSchema: objectOf({ orderCode: codeParam() }, ['orderCode']),
    handler: async (context) => {
      requireSupplyStaff(context);
      const order = await findOrder(context, context.param.orderCode);
      return {
        orderCode: order.code,
        tenantCode: order.tenantCode,
        tenantName: order.tenantName,
        organizationName: order.organizationName,
        customName: order.customName,
        cardCount: order.cardCount,
        receiver: order.contactName,
        receiverPhone: order.contactPhone,
        address: order.address,
        availableStock: await countStock(context.db, order.customCode || null),
      };
    },
  }),

  // The orders waiting for a delivery (the generate form's choices).
  defineOperation('card.delivery.salesList', {
    handler: async (context) => {
      requireSupplyStaff(context);
      const where = cardOrderScope(new Conditions(), await cardScope(context)).add('o.state = $?', CARD_ORDER_STATE.pendingDelivery);
      const rows = await context.db.query<{ code: string; tenant_name: string; card_count: number; custom_code: string | null; custom_name: string | null; salesperson: string; available: number }>(
        `SELECT o.code, t.name AS tenant_name, o.card_count, o.custom_code, c.name AS custom_name, o.salesperson,
                (SELECT count(*)::int FROM sim_card s WHERE s.state = 'in_stock' AND s.custom_code = o.custom_code AND s.delivery_code IS NULL AND s.alter_code IS NULL) AS available
           FROM card_order o JOIN organization t ON t.code = o.tenant_code LEFT JOIN card_custom c ON c.code = o.custom_code
          WHERE ${where.sql} ORDER BY o.created_at, o.code LIMIT 500`,
        where.params,
      );
      return rows.map((row) => ({
        orderCode: row.code,
        label: `${row.code} · ${row.tenant_name} · ${row.custom_name ?? ''} ${row.card_count} 张（库存 ${row.available}）`,
        tenantName: row.tenant_name,
        cardCount: row.card_count,
        customName: row.custom_name ?? '',
        salesperson: row.salesperson,
        availableStock: row.available,
      }));
    },
  }),

  // Picks the order's cards from stock (oldest batch first) and reserves them.
  defineOperation('card.delivery.generate', {
    paramSchema: objectOf(
      { orderCode: codeParam(), receiver: optionalPlainText(32), receiverPhone: schemaOf<string>({ anyOf: [phoneParam, { type: 'string', maxLength: 0 }] }), address: optionalPlainText(200), remark: optionalPlainText(200) },
      ['orderCode'],
    ),
    handler: async (context) => {
      requireSupplyStaff(context);
      const order = await findOrder(context, context.param.orderCode);
      const code = await CARD_ORDER.take(context, order, CARD_ORDER_ACTIONS.generateDelivery, '生成发货单', async (tx) => {
        const iccids = await availableStock(tx, order.customCode || null, order.cardCount);
        if (iccids.length < order.cardCount) throw fail.conflict(`库存不足：需要 ${order.cardCount} 张，可用 ${iccids.length} 张`);
        const id = await nextId(tx, 'card_delivery');
        const deliveryCode = documentCode('FH', context.now, id, context.config.timeZone);
        const { receiver, receiverPhone, address, remark } = context.param;
        await tx.query(
          `INSERT INTO card_delivery (id, code, order_code, tenant_code, organization_code, state, card_count, receiver, receiver_phone, address, remark, created_by, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
          [id, deliveryCode, order.code, order.tenantCode, order.organizationCode, DELIVERY_STATE.created, iccids.length, receiver?.trim() || order.contactName,
            receiverPhone || order.contactPhone, address?.trim() || order.address, remark?.trim() ?? '', loginNameOf(context), context.now],
        );
        await tx.query('INSERT INTO card_delivery_item (delivery_code, iccid) SELECT $1, unnest($2::text[])', [deliveryCode, iccids]);
        await reserveStock(tx, 'delivery_code', deliveryCode, iccids, context.now);
        await CARD_ORDER.move(tx, order.code, { from: [CARD_ORDER_STATE.pendingDelivery], to: CARD_ORDER_STATE.delivering, set: { updated_at: context.now }, refuseMoved: true });
        return deliveryCode;
      });
      return findDelivery(context, code);
    },
  }),

  defineOperation('card.delivery.update', {
    paramSchema: objectOf({ code: codeParam(), expressCompany: expressCompanyParam, expressNo: expressNoParam, ...contactFields }, ['code', 'receiver', 'receiverPhone', 'address']),
    handler: async (context) => {
      requireSupplyStaff(context);
      const { expressCompany, expressNo, receiver, receiverPhone, address } = context.param;
      return DELIVERY.step(context, context.param.code, DELIVERY_ACTIONS.update, '修改', async (tx, delivery) => {
        await tx.query(
          `UPDATE card_delivery SET express_company = COALESCE($2, express_company), express_no = COALESCE($3, express_no), receiver = $4, receiver_phone = $5, address = $6, updated_at = $7
            WHERE code = $1 AND state = ANY($8::text[])`,
          [delivery.code, expressCompany ?? null, expressNo ?? null, receiver, receiverPhone, address, context.now, [...DELIVERY_ACTIONS.update]],
        );
      });
    },
  }),

  defineOperation('card.delivery.detail', {
    paramSchema: codeOnly,
    handler: async (context) => {
      requireSupplyStaff(context);
      const delivery = await findDelivery(context, context.param.code);
      const items = await context.db.query<{ iccid: string; msisdn: string; state: string; operator: string }>(
        `SELECT s.iccid, s.msisdn, s.state, s.operator FROM card_delivery_item i JOIN sim_card s ON s.iccid = i.iccid WHERE i.delivery_code = $1 ORDER BY s.iccid LIMIT 500`,
        [delivery.code],
      );
      return { ...delivery, items: items.map((item) => ({ iccid: item.iccid, msisdn: item.msisdn, state: item.state, operator: item.operator })) };
    },
  }),

  // Delivery, order, customer and the logistics trace in one answer (the outbound detail drawer).
  defineOperation('card.delivery.fusionDetail', {
    paramSchema: codeOnly,
    handler: async (context) => {
      requireSupplyStaff(context);
      const delivery = await findDelivery(context, context.param.code);
      const order = await findOrder(context, delivery.orderCode);
      const trace: Array<{ time: string | null; event: string }> = [{ time: delivery.createTime, event: `${delivery.createdBy} 生成发货单，拣货 ${delivery.cardCount} 张` }];
      if (delivery.shipTime) trace.push({ time: delivery.shipTime, event: `${delivery.expressCompanyName} ${delivery.expressNo} 已揽收发出` });
      if (delivery.receiveTime) trace.push({ time: delivery.receiveTime, event: `${delivery.receiver} 已签收，客户确认收货` });
      if (delivery.revokeTime) trace.push({ time: delivery.revokeTime, event: `发货撤回：${delivery.revokeReason}` });
      if (delivery.cancelTime) trace.push({ time: delivery.cancelTime, event: '发货单已取消，卡片退回库存' });
      return { ...delivery, order, trace };
    },
  }),

  // Ships: the cards go to the tenant in their test period; the order waits for the tenant's confirmation.
  defineOperation('card.delivery.confirm', {
    paramSchema: objectOf({ code: codeParam(), expressCompany: expressCompanyParam, expressNo: expressNoParam }, ['code', 'expressCompany', 'expressNo']),
    handler: async (context) => {
      requireSupplyStaff(context);
      return DELIVERY.step(context, context.param.code, DELIVERY_ACTIONS.confirm, '确认发货', async (tx, delivery) => {
        await DELIVERY.move(tx, delivery.code, {
          from: [DELIVERY_STATE.created],
          to: DELIVERY_STATE.shipped,
          set: { express_company: context.param.expressCompany, express_no: context.param.expressNo, shipped_by: loginNameOf(context), shipped_at: context.now, updated_at: context.now },
          refuseMoved: true,
        });
        await tx.query(
          `UPDATE sim_card SET state = $2, tenant_code = $3, organization_code = $4, order_code = $5, test_until = $6, updated_at = $7
            WHERE delivery_code = $1 AND state = $8`,
          [delivery.code, CARD_STATE.testing, delivery.tenantCode, delivery.organizationCode, delivery.orderCode, addDays(context.now, TEST_PERIOD_DAYS), context.now, CARD_STATE.inStock],
        );
        await CARD_ORDER.move(tx, delivery.orderCode, { from: [CARD_ORDER_STATE.delivering], to: CARD_ORDER_STATE.awaitingConfirmation, set: { updated_at: context.now } });
      });
    },
  }),

  // Recalls a shipment the tenant has not yet confirmed: the cards come back, the order waits again.
  defineOperation('card.delivery.revoke', {
    paramSchema: objectOf({ code: codeParam(), reason: plainText(200) }, ['code', 'reason']),
    handler: async (context) => {
      requireSupplyStaff(context);
      const delivery = await findDelivery(context, context.param.code);
      DELIVERY.require(delivery, DELIVERY_ACTIONS.revoke, '撤回');
      if (delivery.orderState !== CARD_ORDER_STATE.awaitingConfirmation) throw fail.conflict(RECEIVED_REFUSES_REVOKE);
      await context.db.transaction(async (tx) => {
        // The order first, then the delivery: the tenant's confirmation locks them in the same order.
        const orderState = await lockedState(tx, 'card_order', delivery.orderCode, '卡订单不存在');
        requireState(await lockedState(tx, 'card_delivery', delivery.code, NOT_FOUND), DELIVERY_ACTIONS.revoke, DELIVERY_STATE_LABEL, '撤回');
        if (orderState !== CARD_ORDER_STATE.awaitingConfirmation) throw fail.conflict(RECEIVED_REFUSES_REVOKE);
        await DELIVERY.move(tx, delivery.code, { from: [DELIVERY_STATE.shipped], to: DELIVERY_STATE.revoked, set: { revoke_reason: context.param.reason, revoked_at: context.now, updated_at: context.now } });
        await releaseCards(tx, delivery.code, context.now);
        await CARD_ORDER.move(tx, delivery.orderCode, { from: [CARD_ORDER_STATE.awaitingConfirmation], to: CARD_ORDER_STATE.pendingDelivery, set: { updated_at: context.now } });
      });
      return findDelivery(context, delivery.code);
    },
  }),

  defineOperation('card.delivery.cancel', {
    paramSchema: codeOnly,
    handler: async (context) => {
      requireSupplyStaff(context);
      return DELIVERY.step(context, context.param.code, DELIVERY_ACTIONS.cancel, '取消', async (tx, delivery) => {
        await DELIVERY.move(tx, delivery.code, { from: [DELIVERY_STATE.created], to: DELIVERY_STATE.cancelled, set: { cancelled_at: context.now, updated_at: context.now } });
        await releaseCards(tx, delivery.code, context.now);
        await CARD_ORDER.move(tx, delivery.orderCode, { from: [CARD_ORDER_STATE.delivering], to: CARD_ORDER_STATE.pendingDelivery, set: { updated_at: context.now } });
      });
    },
  }),

  defineOperation('card.delivery.remark', {
    paramSchema: objectOf({ code: codeParam(), remark: optionalPlainText(200) }, ['code', 'remark']),
    handler: async (context) => {
      requireSupplyStaff(context);
      const delivery = await findDelivery(context, context.param.code);
      await context.db.query('UPDATE card_delivery SET remark = $2, updated_at = $3 WHERE code = $1', [delivery.code, context.param.remark.trim(), context.now]);
      return findDelivery(context, delivery.code);
    },
  }),

  // Every card of the chosen deliveries (or of the filtered ones), one row each.
  defineOperation('card.delivery.batchExport', {
    paramSchema: objectOf({ ...DELIVERIES.paramSchema.properties, codes: schemaOf<string[]>({ type: 'array', maxItems: 500, uniqueItems: true, items: codeParam() }) }),
    handler: async (context) => {
      requireSupplyStaff(context);
      const where = await DELIVERIES.where(context);
      if (context.param.codes?.length) where.add('d.code = ANY($?::text[])', context.param.codes);
      const deliveries = await exportOf(context, DELIVERIES.listing, where, 2000);
      const items = await context.db.query<{ delivery_code: string; iccid: string; msisdn: string }>(
        `SELECT i.delivery_code, s.iccid, s.msisdn FROM card_delivery_item i JOIN sim_card s ON s.iccid = i.iccid WHERE i.delivery_code = ANY($1::text[]) ORDER BY i.delivery_code, s.iccid LIMIT 100000`,
        [deliveries.map((d) => d.code)],
      );
      const byCode = new Map(deliveries.map((d) => [d.code, d]));
      const rows = items.map((item) => ({ item, delivery: byCode.get(item.delivery_code)! }));
      return exportFile(
        context,
        '发货明细',
        [
          { title: '发货单号', value: (r: (typeof rows)[number]) => r.delivery.code },
          { title: '订单编号', value: (r) => r.delivery.orderCode },
          { title: '租户', value: (r) => r.delivery.tenantName, width: 28 },
          { title: 'ICCID', value: (r) => r.item.iccid, width: 24 },
          { title: 'MSISDN', value: (r) => r.item.msisdn },
          { title: '状态', value: (r) => DELIVERY_STATE_LABEL[r.delivery.state] },
          { title: '快递公司', value: (r) => r.delivery.expressCompanyName },
          { title: '快递单号', value: (r) => r.delivery.expressNo, width: 22 },
          { title: '收件人', value: (r) => r.delivery.receiver },
          { title: '发货时间', value: (r) => (r.delivery.shipTime ? new Date(r.delivery.shipTime) : null) },
        ],
        rows,
      );
    },
  }),
];
