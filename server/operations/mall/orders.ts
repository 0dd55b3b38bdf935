import type { Queryable } from '../../db/database';
import { addDays, CARD_OPERATOR_LABEL, CARD_STATE, documentCode, EXPRESS_COMPANIES, EXPRESS_COMPANY_LABEL, EXPRESS_NO_PATTERN, requireState, TEST_PERIOD_DAYS } from '../../domain/cards';
import {
  expressTraces,
  fenOf,
  FREE_FREIGHT_THRESHOLD_FEN,
  MALL_ORDER_STATE,
  MALL_ORDER_STATE_LABEL,
  MAX_LINE_QUANTITY,
  MAX_ORDER_LINES,
  moneyOf,
  orderAllows,
  PAY_METHOD_LABEL,
  PAY_METHODS,
  PAY_TIMEOUT_HOURS,
  ruleText,
  settle,
  transactionNo,
  yuan,
  type MallOrderState,
  type PricedLine,
  type Settlement,
} from '../../domain/mall';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { holdsButton } from '../../security/caller';
import { isPlatformStaff } from '../../core/access';
import { BY_TENANT } from '../../core/scope';
import { enumOf, enumParam, keywordParam, objectOf, optionalPlainText, organizationParam, schemaOf } from '../../core/params';
import { isoOrNull } from '../../core/values';
import { Conditions, containing, pageOfItems } from '../../core/listQuery';
import { column, custom, derived, equals, listing, textColumn, type ItemOf } from '../../core/listing';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { lockedState } from '../../core/conflicts';
import { addressRecord, findAddress } from './addresses';
import { buyingTenant, goodsCodeParam, idParam, loginNameOf, moneyParam, orderCodeParam, orderScope, parseTime, requireMallReader, requireMallStaff, timeParam } from './access';
import { runningRules } from './discounts';

/**
 * 商城订单: the tenant previews and submits an order (the server computes every amount), pays it
 * (a simulated online payment), may cancel it until it ships; the platform ships it with an
 * express company and tracking number (taking the IoT cards its goods carry from the card stock);
 * the tenant confirms receipt. The life cycle is in server/domain/mall.ts.
 */

/** The latest invoice of the order (a rejected application may be followed by another). */
const LATEST_INVOICE = 'FROM invoice v WHERE v.order_code = o.code ORDER BY v.id DESC LIMIT 1';

/** An order as the lists, the detail and the export answer it. */
const ORDER_COLUMNS = {
  id: column<number>('o.id'),
  code: column<string>('o.code'),
  state: column<MallOrderState>('o.state'),
  stateName: derived((row) => MALL_ORDER_STATE_LABEL[row.state as MallOrderState]),
  tenantCode: column<string>('o.tenant_code'),
  tenantName: textColumn('t.name'),
  organizationCode: column<string>('o.organization_code'),
  organizationName: textColumn('g.name'),
  goodsAmount: column('o.goods_amount', moneyOf),
  discountAmount: column('o.discount_amount', moneyOf),
  freightAmount: column('o.freight_amount', moneyOf),
  payAmount: column('o.pay_amount', moneyOf),
  discountCode: textColumn('o.discount_code'),
  discountName: column<string>('o.discount_name'),
  receiver: column<string>('o.receiver'),
  receiverPhone: column<string>('o.receiver_phone'),
  address: column<string>('o.address'),
  remark: column<string>('o.remark'),
  buyer: column<string>('o.buyer'),
  goodsSummary: textColumn("(SELECT string_agg(i.goods_name || ' ×' || i.quantity, '，' ORDER BY i.id) FROM mall_order_item i WHERE i.order_code = o.code)"),
  itemCount: column<number>('(SELECT COALESCE(sum(i.quantity), 0)::int FROM mall_order_item i WHERE i.order_code = o.code)'),
  coverImage: textColumn('(SELECT i.image FROM mall_order_item i WHERE i.order_code = o.code ORDER BY i.id LIMIT 1)'),
  cardCount: column<number>('(SELECT count(*)::int FROM mall_order_card c WHERE c.order_code = o.code)'),
  createTime: column('o.created_at', isoOrNull),
  payDeadline: column('o.pay_deadline', isoOrNull),
  payMethod: textColumn('o.pay_method'),
  payNo: textColumn('o.pay_no'),
  payTime: column('o.paid_at', isoOrNull),
  expressCompany: textColumn('o.express_company'),
  expressNo: textColumn('o.express_no'),
  shipTime: column('o.shipped_at', isoOrNull),
  shippedBy: textColumn('o.shipped_by'),
  receiveTime: column('o.received_at', isoOrNull),
  cancelTime: column('o.cancelled_at', isoOrNull),
  cancelledBy: textColumn('o.cancelled_by'),
  cancelReason: textColumn('o.cancel_reason'),
  refundTime: column('o.refunded_at', isoOrNull),
  invoiceCode: textColumn(`(SELECT v.code ${LATEST_INVOICE})`),
  invoiceState: textColumn(`(SELECT v.state ${LATEST_INVOICE})`),
};

const orderStates = Object.values(MALL_ORDER_STATE);
/** The order lists' shared part: the orders of the organisations within reach, newest first; every filter and sort reads the order alone. */
const ORDER_LIST = {
  from: 'mall_order o LEFT JOIN organization t ON t.code = o.tenant_code LEFT JOIN organization g ON g.code = o.organization_code',
  narrowFrom: 'mall_order o',
  key: 'o.id',
  scope: async (where: Conditions, context: OperationContext<unknown>) => where.scope(await orderScope(context), 'o', BY_TENANT),
  columns: ORDER_COLUMNS,
  sorts: ['code', 'createTime', 'payAmount', 'payTime', 'shipTime'] as const,
  fallback: 'o.created_at DESC, o.id DESC',
};
/** A keyword in the order's code, receiver, buyer, tracking number or goods' names. */
const orderKeyword = custom(keywordParam, (where, value) => {
  const text = value.trim();
  if (text)
    where.add(
      "(o.code ILIKE $? OR o.receiver ILIKE $? OR o.buyer ILIKE $? OR COALESCE(o.express_no, '') ILIKE $? OR EXISTS (SELECT 1 FROM mall_order_item i WHERE i.order_code = o.code AND i.goods_name ILIKE $?))",
      containing(text),
    );
});

/** 订单管理 (and its export): every tenant's orders for the platform, by buyer and time too. */
const ORDERS = listing({
  ...ORDER_LIST,
  filters: {
    keyword: orderKeyword,
    state: equals('o.state', enumParam(orderStates)),
    tenantCode: equals('o.tenant_code', organizationParam),
    timeRange: custom(schemaOf<string[]>({ type: 'array', maxItems: 2, items: timeParam }), (where, range, context) => {
      if (range.length !== 2) return;
      where.add('o.created_at >= $?', parseTime(range[0], 'timeRange', context.config.timeZone));
      where.add('o.created_at <= $?', parseTime(range[1], 'timeRange', context.config.timeZone));
    }),
  },
});
/** 我的订单: the tenant's own. */
const MY_ORDERS = listing({ ...ORDER_LIST, filters: { keyword: orderKeyword, state: equals('o.state', enumParam(orderStates)) } });
export type MallOrderRecord = ItemOf<typeof ORDERS>;

/** An invoice applied for or issued holds the order (a rejected one does not). */
const NOT_FOUND = '订单不存在';
const CANCELLABLE = [MALL_ORDER_STATE.pendingPayment, MALL_ORDER_STATE.paid];
const INVOICE_REFUSES_CANCEL = '该订单已申请开票，不能取消';

const invoiceHolds = (record: MallOrderRecord): boolean => record.invoiceState === 'applied' || record.invoiceState === 'issued';

/** What the caller may do with each order, by its state and the caller's buttons (the screens show these actions). */
async function withActions(context: OperationContext<unknown>, records: MallOrderRecord[]) {
  const caller = callerOf(context);
  const [pay, cancel, confirm, invoice, ship] = await Promise.all(
    ['mall.order.pay', 'mall.order.cancel', 'mall.order.confirmReceipt', 'invoice.apply', 'mall.order.ship'].map((name) => holdsButton(context.db, caller, name)),
  );
  const platform = isPlatformStaff(context);
  return records.map((record) => ({
    ...record,
    canPay: pay && !platform && orderAllows(record.state, 'pay'),
    canCancel: cancel && orderAllows(record.state, 'cancel') && !invoiceHolds(record),
    canConfirmReceipt: confirm && !platform && orderAllows(record.state, 'confirmReceipt'),
    canApplyInvoice: invoice && !platform && orderAllows(record.state, 'applyInvoice') && !invoiceHolds(record) && record.payAmount > 0,
    canShip: ship && platform && orderAllows(record.state, 'ship'),
  }));
}

/**
 * Closes the unpaid orders past their deadline and gives their stock back (run before an order
 * is read or moved, so nobody pays a closed order or waits on held stock).
 */
export async function closeOverdueOrders(db: Queryable, now: Date): Promise<number> {
  const [due] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM mall_order WHERE state = 'pending_payment' AND pay_deadline <= $1`, [now]);
  if (due.n === 0) return 0;
  const closed = await db.query<{ code: string }>(
    `WITH closed AS (
       UPDATE mall_order SET state = 'cancelled', cancelled_at = pay_deadline, cancelled_by = '系统', cancel_reason = '超时未支付，系统自动取消', updated_at = $1
        WHERE state = 'pending_payment' AND pay_deadline <= $1 RETURNING code
     ), released AS (
       UPDATE mall_goods g SET stock = g.stock + r.quantity, updated_at = $1
         FROM (SELECT i.goods_code, sum(i.quantity)::int AS quantity FROM mall_order_item i JOIN closed c ON c.code = i.order_code GROUP BY i.goods_code) r
        WHERE g.code = r.goods_code
     )
     SELECT code FROM closed`,
    [now],
  );
  return closed.length;
}

/** The order `code` within the request's organisations ("404" 订单不存在 otherwise). */
export async function findOrder(context: OperationContext<unknown>, code: string, db: Queryable = context.db): Promise<MallOrderRecord> {
  const where = new Conditions().scope(await orderScope(context), 'o', BY_TENANT).add('o.code = $?', code);
  const order = await ORDERS.find(context, where, '', db);
  if (!order) throw fail.notFound(NOT_FOUND);
  return order;
}

interface ItemRow {
  goods_code: string;
  goods_name: string;
  category: string;
  spec: string;
  image: string;
  unit: string;
  unit_price: string;
  quantity: number;
  amount: string;
}

async function orderItems(db: Queryable, code: string) {
  const rows = await db.query<ItemRow>('SELECT goods_code, goods_name, category, spec, image, unit, unit_price, quantity, amount FROM mall_order_item WHERE order_code = $1 ORDER BY id', [code]);
  return rows.map((row) => ({
    goodsCode: row.goods_code,
    goodsName: row.goods_name,
    category: row.category,
    spec: row.spec,
    image: row.image,
    unit: row.unit,
    unitPrice: moneyOf(row.unit_price),
    quantity: row.quantity,
    amount: moneyOf(row.amount),
  }));
}

async function orderDetail(context: OperationContext<unknown>, code: string) {
  const [order] = await withActions(context, [await findOrder(context, code)]);
  return { ...order, items: await orderItems(context.db, order.code) };
}

// ── pricing an order ─────────────────────────────────────────────────────────────────────────────

interface OrderLine {
  goodsCode: string;
  quantity: number;
}

interface GoodsForSale {
  code: string;
  name: string;
  category: string;
  spec: string;
  unit: string;
  images: string[];
  price: string;
  freight: string;
  stock: number;
  state: string;
}

interface Priced {
  lines: Array<PricedLine & { goods: GoodsForSale }>;
  settlement: Settlement;
}

/** The order's goods at today's prices, on the shelf and in stock ("409" naming the goods otherwise), and its amounts. */
async function priceOrder(db: Queryable, items: readonly OrderLine[], discountCode: string | undefined, now: Date, lock = false): Promise<Priced> {
  const codes = items.map((item) => item.goodsCode);
  if (new Set(codes).size !== codes.length) throw fail.badField('items（同一商品请合并数量）');
  const goods = await db.query<GoodsForSale>(
    `SELECT code, name, category, spec, unit, images, price, freight, stock, state FROM mall_goods WHERE code = ANY($1::text[]) AND deleted_at IS NULL ORDER BY code${lock ? ' FOR UPDATE' : ''}`,
    [codes],
  );
  const lines = items.map((item) => {
    const found = goods.find((row) => row.code === item.goodsCode);
    if (!found) throw fail.conflict(`商品 ${item.goodsCode} 不存在或已下架`);
    if (found.state !== 'on_shelf') throw fail.conflict(`商品「${found.name}」已下架`);
    if (item.quantity > found.stock) throw fail.conflict(`商品「${found.name}」库存不足（剩余 ${found.stock}${found.unit}）`);
    return { goodsCode: found.code, unitPriceFen: fenOf(found.price), quantity: item.quantity, freightFen: fenOf(found.freight), goods: found };
  });
  return { lines, settlement: settle(lines, await runningRules(db, now), discountCode) };
}

function previewOf(priced: Priced) {
  const { settlement } = priced;
  const option = (entry: { rule: Settlement['options'][number]['rule']; amountFen: number }) => ({
    code: entry.rule.code,
    name: entry.rule.name,
    type: entry.rule.type,
    scope: entry.rule.scope,
    ruleText: ruleText(entry.rule),
    amount: yuan(entry.amountFen),
    label: `${entry.rule.name}（${ruleText(entry.rule)}，省 ¥${yuan(entry.amountFen)}）`,
  });
  return {
    items: priced.lines.map((line) => ({
      goodsCode: line.goods.code,
      goodsName: line.goods.name,
      category: line.goods.category,
      spec: line.goods.spec,
      unit: line.goods.unit,
      image: line.goods.images[0] ?? '',
      unitPrice: yuan(line.unitPriceFen),
      quantity: line.quantity,
      amount: yuan(line.unitPriceFen * line.quantity),
      stock: line.goods.stock,
    })),
    goodsAmount: yuan(settlement.goodsFen),
    discountAmount: yuan(settlement.discountFen),
    freightAmount: yuan(settlement.freightFen),
    payAmount: yuan(settlement.payFen),
    discount: settlement.applied ? option(settlement.applied) : null,
    discounts: settlement.options.map(option),
    freeFreightThreshold: yuan(FREE_FREIGHT_THRESHOLD_FEN),
    payTimeoutHours: PAY_TIMEOUT_HOURS,
  };
}

const itemsParam = schemaOf<OrderLine[]>({
  type: 'array',
  minItems: 1,
  maxItems: MAX_ORDER_LINES,
  items: objectOf({ goodsCode: goodsCodeParam, quantity: schemaOf<number>({ type: 'integer', minimum: 1, maximum: MAX_LINE_QUANTITY }) }, ['goodsCode', 'quantity']),
});
/** '' for no discount; left out for the largest saving. */
const discountChoice = schemaOf<string>({ type: 'string', maxLength: 7, pattern: '^(YH[0-9]{5})?$' });

/** 支付结果: what the payment channel says of an order. */
function paymentOf(order: MallOrderRecord) {
  const payState =
    order.state === MALL_ORDER_STATE.pendingPayment ? 'unpaid' : order.state === MALL_ORDER_STATE.cancelled ? 'closed' : order.state === MALL_ORDER_STATE.refunded ? 'refunded' : 'paid';
  return {
    orderCode: order.code,
    orderState: order.state,
    payState,
    paid: payState === 'paid',
    payMethod: order.payMethod,
    payMethodName: PAY_METHOD_LABEL[order.payMethod] ?? '',
    payNo: order.payNo,
    payAmount: order.payAmount,
    payTime: order.payTime,
    payDeadline: order.payDeadline,
    refundTime: order.refundTime,
  };
}

// ── lists ────────────────────────────────────────────────────────────────────────────────────────

const codeOnly = objectOf({ code: orderCodeParam }, ['code']);

export const orderOperations = [
  // 订单管理: every tenant's orders, for the platform.
  defineOperation('mall.order.page', {
    paramSchema: ORDERS.paramSchema,
    handler: async (context) => {
      requireMallStaff(context);
      await closeOverdueOrders(context.db, context.now);
      const page = await ORDERS.page(context);
      return { ...page, records: await withActions(context, page.records) };
    },
  }),

  // 我的订单: the tenant's orders (platform staff buy nothing: their list is empty).
  defineOperation('mall.myOrder.page', {
    paramSchema: MY_ORDERS.paramSchema,
    handler: async (context) => {
      requireMallReader(context);
      if (isPlatformStaff(context)) return pageOfItems(context, []);
      await buyingTenant(context);
      await closeOverdueOrders(context.db, context.now);
      const page = await MY_ORDERS.page(context);
      return { ...page, records: await withActions(context, page.records) };
    },
  }),

  defineOperation('mall.order.detail', {
    paramSchema: codeOnly,
    handler: async (context) => {
      requireMallReader(context);
      await closeOverdueOrders(context.db, context.now);
      return orderDetail(context, context.param.code);
    },
  }),

  defineOperation('mall.order.export', {
    paramSchema: ORDERS.paramSchema,
    handler: async (context) => {
      requireMallStaff(context);
      const rows = await ORDERS.rows(context);
      return exportFile(
        context,
        '商城订单',
        [
          { title: '订单编号', value: (r: MallOrderRecord) => r.code, width: 20 },
          { title: '租户', value: (r) => r.tenantName, width: 28 },
          { title: '下单组织', value: (r) => r.organizationName, width: 22 },
          { title: '商品', value: (r) => r.goodsSummary, width: 40 },
          { title: '件数', value: (r) => r.itemCount },
          { title: '商品金额（元）', value: (r) => r.goodsAmount },
          { title: '优惠（元）', value: (r) => r.discountAmount },
          { title: '运费（元）', value: (r) => r.freightAmount },
          { title: '实付（元）', value: (r) => r.payAmount },
          { title: '状态', value: (r) => MALL_ORDER_STATE_LABEL[r.state] },
          { title: '支付方式', value: (r) => PAY_METHOD_LABEL[r.payMethod] ?? '' },
          { title: '收货人', value: (r) => r.receiver },
          { title: '收货地址', value: (r) => r.address, width: 40 },
          { title: '快递公司', value: (r) => EXPRESS_COMPANY_LABEL[r.expressCompany] ?? '' },
          { title: '快递单号', value: (r) => r.expressNo, width: 22 },
          { title: '下单人', value: (r) => r.buyer },
          { title: '下单时间', value: (r) => (r.createTime ? new Date(r.createTime) : null), width: 20 },
          { title: '支付时间', value: (r) => (r.payTime ? new Date(r.payTime) : null), width: 20 },
        ],
        rows,
      );
    },
  }),

  // 确认订单: what the order would cost now, with the discounts it qualifies for.
  defineOperation('mall.order.preview', {
    paramSchema: objectOf({ items: itemsParam, discountCode: discountChoice, addressId: idParam }, ['items']),
    handler: async (context) => {
      const tenantCode = await buyingTenant(context);
      const priced = await priceOrder(context.db, context.param.items, context.param.discountCode, context.now);
      let address = null;
      if (context.param.addressId) address = addressRecord(await findAddress(context.db, tenantCode, context.param.addressId));
      else {
        const [row] = await context.db.query<{ id: number }>('SELECT id FROM mall_address WHERE tenant_code = $1 AND is_default', [tenantCode]);
        if (row) address = addressRecord(await findAddress(context.db, tenantCode, row.id));
      }
      return { ...previewOf(priced), address };
    },
  }),

  // Places the order awaiting payment, its quantities taken from stock. `expectedPayAmount` (what
  // the buyer saw) guards against a price or discount that changed meanwhile.
  defineOperation('mall.order.submit', {
    paramSchema: objectOf(
      { items: itemsParam, discountCode: discountChoice, addressId: idParam, remark: optionalPlainText(200), expectedPayAmount: moneyParam(0, 100_000_000) },
      ['items', 'addressId'],
    ),
    handler: async (context) => {
      const tenantCode = await buyingTenant(context);
      const caller = callerOf(context);
      const organizationCode = context.organizationCode ?? caller.organizationCodes[0] ?? tenantCode;
      await closeOverdueOrders(context.db, context.now);
      const code = await context.db.transaction(async (tx) => {
        const address = await findAddress(tx, tenantCode, context.param.addressId);
        const priced = await priceOrder(tx, context.param.items, context.param.discountCode, context.now, true);
        const { settlement } = priced;
        if (context.param.expectedPayAmount !== undefined && fenOf(context.param.expectedPayAmount) !== settlement.payFen) {
          throw fail.conflict(`订单金额已变化（应付 ¥${yuan(settlement.payFen)}），请重新确认订单`);
        }
        const [{ id }] = await tx.query<{ id: string | number }>(`SELECT nextval(pg_get_serial_sequence('mall_order', 'id')) AS id`);
        const orderCode = documentCode('MO', context.now, Number(id), context.config.timeZone);
        await tx.query(
          `INSERT INTO mall_order (id, code, tenant_code, organization_code, state, goods_amount, discount_amount, freight_amount, pay_amount, discount_code, discount_name,
                                   receiver, receiver_phone, address, remark, buyer, created_at, pay_deadline, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $17)`,
          [Number(id), orderCode, tenantCode, organizationCode, MALL_ORDER_STATE.pendingPayment, yuan(settlement.goodsFen), yuan(settlement.discountFen), yuan(settlement.freightFen),
            yuan(settlement.payFen), settlement.applied?.rule.code ?? null, settlement.applied ? `${settlement.applied.rule.name}（${ruleText(settlement.applied.rule)}）` : '',
            address.receiver, address.phone, `${address.region} ${address.detail}`, context.param.remark?.trim() ?? '', caller.loginName, context.now,
            new Date(context.now.getTime() + PAY_TIMEOUT_HOURS * 3_600_000)],
        );
        for (const line of priced.lines) {
          await tx.query(
            `INSERT INTO mall_order_item (order_code, goods_code, goods_name, category, spec, image, unit, unit_price, quantity, amount)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
            [orderCode, line.goods.code, line.goods.name, line.goods.category, line.goods.spec, line.goods.images[0] ?? '', line.goods.unit, yuan(line.unitPriceFen), line.quantity,
              yuan(line.unitPriceFen * line.quantity)],
          );
          const taken = await tx.query('UPDATE mall_goods SET stock = stock - $2, updated_at = $3 WHERE code = $1 AND stock >= $2 RETURNING code', [line.goods.code, line.quantity, context.now]);
          if (taken.length === 0) throw fail.conflict(`商品「${line.goods.name}」库存不足，请调整数量`);
        }
        return orderCode;
      });
      return orderDetail(context, code);
    },
  }),

  // The simulated online payment: the channel answers at once and the order is paid.
  defineOperation('mall.order.pay', {
    paramSchema: objectOf({ code: orderCodeParam, payMethod: enumOf(PAY_METHODS) }, ['code', 'payMethod']),
    handler: async (context) => {
      await buyingTenant(context);
      await closeOverdueOrders(context.db, context.now);
      const order = await findOrder(context, context.param.code);
      requireState(order.state, [MALL_ORDER_STATE.pendingPayment], MALL_ORDER_STATE_LABEL, '支付');
      await context.db.transaction(async (tx) => {
        // Paid once: a payment at the same time waits here and then finds the order paid.
        requireState(await lockedState(tx, 'mall_order', order.code, NOT_FOUND), [MALL_ORDER_STATE.pendingPayment], MALL_ORDER_STATE_LABEL, '支付');
        const paid = await tx.query(
          `UPDATE mall_order SET state = $2, pay_method = $3, pay_no = $4, paid_at = $5, updated_at = $5 WHERE code = $1 AND state = $6 RETURNING code`,
          [order.code, MALL_ORDER_STATE.paid, context.param.payMethod, transactionNo(context.param.payMethod, context.now, order.id, context.config.timeZone), context.now, MALL_ORDER_STATE.pendingPayment],
        );
        if (paid.length === 0) throw fail.conflict('订单状态已变化，请刷新后重试');
        await tx.query(
          `UPDATE mall_goods g SET sales = g.sales + i.quantity FROM (SELECT goods_code, sum(quantity)::int AS quantity FROM mall_order_item WHERE order_code = $1 GROUP BY goods_code) i
            WHERE g.code = i.goods_code`,
          [order.code],
        );
      });
      return paymentOf(await findOrder(context, order.code));
    },
  }),

  defineOperation('pay.query', {
    paramSchema: codeOnly,
    handler: async (context) => {
      requireMallReader(context);
      await closeOverdueOrders(context.db, context.now);
      return paymentOf(await findOrder(context, context.param.code));
    },
  }),

  // Unpaid: closed. Paid, not shipped: refunded to where it came from. Either way the stock comes back.
  defineOperation('mall.order.cancel', {
    paramSchema: objectOf({ code: orderCodeParam, reason: optionalPlainText(200) }, ['code']),
    handler: async (context) => {
      requireMallReader(context);
      await closeOverdueOrders(context.db, context.now);
      const order = await findOrder(context, context.param.code);
      requireState(order.state, CANCELLABLE, MALL_ORDER_STATE_LABEL, '取消');
      if (invoiceHolds(order)) throw fail.conflict(INVOICE_REFUSES_CANCEL);
      const reason = context.param.reason?.trim() || (isPlatformStaff(context) ? '平台取消' : '买家取消');
      await context.db.transaction(async (tx) => {
        // The state and the invoice as they are now (a payment, a cancellation or an invoice application may have come first).
        const state = await lockedState(tx, 'mall_order', order.code, NOT_FOUND);
        requireState(state, CANCELLABLE, MALL_ORDER_STATE_LABEL, '取消');
        const [held] = await tx.query(`SELECT 1 FROM invoice WHERE order_code = $1 AND state IN ('applied', 'issued')`, [order.code]);
        if (held) throw fail.conflict(INVOICE_REFUSES_CANCEL);
        const wasPaid = state === MALL_ORDER_STATE.paid;
        const moved = await tx.query(
          `UPDATE mall_order SET state = $2, cancelled_at = $3, cancelled_by = $4, cancel_reason = $5, refunded_at = CASE WHEN $6::boolean THEN $3::timestamptz ELSE NULL END, updated_at = $3
            WHERE code = $1 AND state = $7 RETURNING code`,
          [order.code, wasPaid ? MALL_ORDER_STATE.refunded : MALL_ORDER_STATE.cancelled, context.now, loginNameOf(context), reason, wasPaid, state],
        );
        if (moved.length === 0) throw fail.conflict('订单状态已变化，请刷新后重试');
        await tx.query(
          `UPDATE mall_goods g SET stock = g.stock + i.quantity, sales = GREATEST(0, g.sales - CASE WHEN $2::boolean THEN i.quantity ELSE 0 END), updated_at = $3
             FROM (SELECT goods_code, sum(quantity)::int AS quantity FROM mall_order_item WHERE order_code = $1 GROUP BY goods_code) i
            WHERE g.code = i.goods_code`,
          [order.code, wasPaid, context.now],
        );
      });
      return orderDetail(context, order.code);
    },
  }),

  // The platform ships a paid order: the IoT cards its goods carry leave the card stock for the tenant.
  defineOperation('mall.order.ship', {
    paramSchema: objectOf(
      {
        code: orderCodeParam,
        expressCompany: enumOf(EXPRESS_COMPANIES),
        // SPEC §5: letters, digits and commas (several parcels: several numbers)
        expressNo: schemaOf<string>({ type: 'string', minLength: 6, maxLength: 200, pattern: EXPRESS_NO_PATTERN }),
      },
      ['code', 'expressCompany', 'expressNo'],
    ),
    handler: async (context) => {
      requireMallStaff(context);
      const order = await findOrder(context, context.param.code);
      requireState(order.state, [MALL_ORDER_STATE.paid], MALL_ORDER_STATE_LABEL, '发货');
      const expressNo = context.param.expressNo.split(',').filter(Boolean).join(',');
      if (!expressNo) throw fail.badField('expressNo（格式不正确）');
      await context.db.transaction(async (tx) => {
        // Shipped once: the cards leave the stock for one shipment only.
        requireState(await lockedState(tx, 'mall_order', order.code, NOT_FOUND), [MALL_ORDER_STATE.paid], MALL_ORDER_STATE_LABEL, '发货');
        const needs = await tx.query<{ goods_code: string; card_custom_code: string; custom_name: string; cards: number }>(
          `SELECT i.goods_code, g.card_custom_code, c.name AS custom_name, sum(i.quantity * g.cards_per_unit)::int AS cards
             FROM mall_order_item i JOIN mall_goods g ON g.code = i.goods_code JOIN card_custom c ON c.code = g.card_custom_code
            WHERE i.order_code = $1 AND g.cards_per_unit > 0 GROUP BY i.goods_code, g.card_custom_code, c.name ORDER BY i.goods_code`,
          [order.code],
        );
        for (const need of needs) {
          const cards = await tx.query<{ iccid: string }>(
            `SELECT iccid FROM sim_card WHERE custom_code = $1 AND state = $2 AND delivery_code IS NULL AND alter_code IS NULL ORDER BY iccid LIMIT $3 FOR UPDATE`,
            [need.card_custom_code, CARD_STATE.inStock, need.cards],
          );
          if (cards.length < need.cards) throw fail.conflict(`物联网卡库存不足：${need.custom_name} 需要 ${need.cards} 张，库存 ${cards.length} 张，请先入库`);
          const iccids = cards.map((card) => card.iccid);
          await tx.query(
            `UPDATE sim_card SET state = $2, tenant_code = $3, organization_code = $4, test_until = $5, remark = $6, updated_at = $7 WHERE iccid = ANY($1::text[]) AND state = 'in_stock'`,
            [iccids, CARD_STATE.testing, order.tenantCode, order.organizationCode, addDays(context.now, TEST_PERIOD_DAYS), `商城订单 ${order.code} 随货发出`, context.now],
          );
          await tx.query(
            `INSERT INTO mall_order_card (order_code, iccid, goods_code, assigned_at) SELECT $1, iccid, $2, $3 FROM unnest($4::text[]) AS iccid`,
            [order.code, need.goods_code, context.now, iccids],
          );
        }
        const shipped = await tx.query(
          `UPDATE mall_order SET state = $2, express_company = $3, express_no = $4, shipped_at = $5, shipped_by = $6, updated_at = $5 WHERE code = $1 AND state = $7 RETURNING code`,
          [order.code, MALL_ORDER_STATE.shipped, context.param.expressCompany, expressNo, context.now, loginNameOf(context), MALL_ORDER_STATE.paid],
        );
        if (shipped.length === 0) throw fail.conflict('订单状态已变化，请刷新后重试');
      });
      return orderDetail(context, order.code);
    },
  }),

  defineOperation('mall.order.confirmReceipt', {
    paramSchema: codeOnly,
    handler: async (context) => {
      await buyingTenant(context);
      const order = await findOrder(context, context.param.code);
      requireState(order.state, [MALL_ORDER_STATE.shipped], MALL_ORDER_STATE_LABEL, '确认收货');
      await context.db.transaction(async (tx) => {
        requireState(await lockedState(tx, 'mall_order', order.code, NOT_FOUND), [MALL_ORDER_STATE.shipped], MALL_ORDER_STATE_LABEL, '确认收货');
        const moved = await tx.query(`UPDATE mall_order SET state = $2, received_at = $3, updated_at = $3 WHERE code = $1 AND state = $4 RETURNING code`, [
          order.code,
          MALL_ORDER_STATE.completed,
          context.now,
          MALL_ORDER_STATE.shipped,
        ]);
        if (moved.length === 0) throw fail.conflict('订单状态已变化，请刷新后重试');
      });
      return orderDetail(context, order.code);
    },
  }),

  // 订单信息及物流: the order's delivery and the carrier's tracking history (none before it ships).
  defineOperation('mall.order.expressInfo', {
    paramSchema: codeOnly,
    handler: async (context) => {
      requireMallReader(context);
      const order = await findOrder(context, context.param.code);
      const shipped = order.shipTime !== null && order.expressNo !== '';
      const traces = shipped
        ? expressTraces({
            orderCode: order.code,
            expressCompany: order.expressCompany,
            region: order.address,
            receiver: order.receiver,
            shippedAt: new Date(order.shipTime as string),
            receivedAt: order.receiveTime ? new Date(order.receiveTime) : null,
            now: context.now,
          })
        : [];
      return {
        code: order.code,
        state: order.state,
        stateName: order.stateName,
        receiver: order.receiver,
        receiverPhone: order.receiverPhone,
        address: order.address,
        expressCompany: order.expressCompany,
        expressCompanyName: EXPRESS_COMPANY_LABEL[order.expressCompany] ?? '',
        expressNo: order.expressNo,
        shipTime: order.shipTime,
        receiveTime: order.receiveTime,
        // 待发货 · 运输中 · 派送中 · 已签收 (the newest trace), or what the order's state says
        expressState: traces[0]?.status ?? (shipped ? '已发货' : order.state === MALL_ORDER_STATE.paid ? '待发货' : order.stateName),
        traces,
      };
    },
  }),

  // The IoT cards that left with an order (a device's built-in card, a card package's cards), as they stand now.
  defineOperation('device.orderCard.get', {
    paramSchema: objectOf({ orderCode: orderCodeParam }, ['orderCode']),
    handler: async (context) => {
      requireMallReader(context);
      const order = await findOrder(context, context.param.orderCode);
      const rows = await context.db.query<{
        iccid: string;
        msisdn: string;
        operator: string;
        package_name: string | null;
        flow_mb: number;
        state: string;
        goods_code: string;
        goods_name: string | null;
        assigned_at: Date;
        test_until: Date | null;
        device_code: string | null;
      }>(
        `SELECT c.iccid, s.msisdn, s.operator, p.name AS package_name, s.flow_mb, s.state, c.goods_code, i.goods_name, c.assigned_at, s.test_until, s.device_code
           FROM mall_order_card c JOIN sim_card s ON s.iccid = c.iccid
           LEFT JOIN card_charge_standard p ON p.code = s.package_code
           LEFT JOIN LATERAL (SELECT goods_name FROM mall_order_item WHERE order_code = c.order_code AND goods_code = c.goods_code LIMIT 1) i ON true
          WHERE c.order_code = $1 ORDER BY c.goods_code, c.iccid`,
        [order.code],
      );
      return rows.map((row) => ({
        iccid: row.iccid,
        msisdn: row.msisdn,
        operator: row.operator,
        operatorName: CARD_OPERATOR_LABEL[row.operator] ?? '',
        packageName: row.package_name ?? '',
        flowMb: row.flow_mb,
        state: row.state,
        goodsCode: row.goods_code,
        goodsName: row.goods_name ?? '',
        deviceCode: row.device_code ?? '',
        assignTime: isoOrNull(row.assigned_at),
        testUntil: isoOrNull(row.test_until),
      }));
    },
  }),
];
