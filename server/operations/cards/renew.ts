import type { Queryable } from '../../db/database';
import {
  CARD_OPERATOR_LABEL,
  CARD_STATE_LABEL,
  documentCode,
  fenOf,
  RENEW_ACTIONS,
  RENEW_ORDER_STATE,
  RENEW_ORDER_STATE_LABEL,
  RENEW_STATE,
  RENEW_STATE_LABEL,
  requireState,
  yuan,
  type CardState,
  type RenewOrderState,
  type RenewState,
} from '../../domain/cards';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { defineOperation } from '../../core/operation';
import { enumParam, keywordParam, objectOf, organizationParam, plainText, schemaOf } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { Conditions } from '../../core/listQuery';
import { column, contains, custom, derived, equals, listing, textColumn, type ItemOf } from '../../core/listing';
import { type OrganizationScope, BY_TENANT } from '../../core/scope';
import { cardScope, codeParam, daysUntil, idList, loginNameOf, moneyColumn, nextId, nullableTimeColumn, requireCardStaff, yearsParam } from './access';
import { pricesFor } from './pricing';
import { EXPIRY_WINDOWS, expiryClause } from '../../core/simCards';
import { cardWorkflow } from './cardWorkflow';

/**
 * Renewal (续费卡, 续费订单): cards whose service ends within the renewal window. The platform
 * registers a term and price, the tenant confirms (the confirmed cards become a renewal order) or
 * the platform locks the card out of renewal; confirming the renewal order extends each card.
 */

/**
 * The renewals a request sees: its tenant's own (a card sold on to another tenant leaves its
 * renewals with the tenant that had them, and the new one does not see them), and below a tenant's
 * root those of cards now in the working organisations. By the renewal's tenant, the count and the
 * page walk card_renew's tenant index in the list's order without reading the cards.
 */
function renewScope(where: Conditions, scope: OrganizationScope): Conditions {
  if (scope.coverage === 'everything') return where;
  if (scope.tenantCode) where.add('r.tenant_code = $?', scope.tenantCode);
  if (scope.coverage === 'part' || !scope.tenantCode) where.add('s.organization_code = ANY($?::text[])', scope.organizationCodes);
  return where;
}

const RENEWS = listing({
  from: `card_renew r JOIN sim_card s ON s.iccid = r.iccid
    LEFT JOIN organization t ON t.code = r.tenant_code
    LEFT JOIN organization g ON g.code = s.organization_code
    LEFT JOIN card_charge_standard p ON p.code = s.package_code`,
  // The card is read when the scope or the keyword needs it; the names are joined for the page's rows.
  narrowFrom: (needed) => (/\bs\./.test(needed) ? 'card_renew r JOIN sim_card s ON s.iccid = r.iccid' : 'card_renew r'),
  key: 'r.id',
  scope: async (where, context) => renewScope(where, await cardScope(context)),
  filters: {
    keyword: contains(['r.iccid', 's.msisdn', "COALESCE(r.order_code, '')"], keywordParam),
    state: equals('r.state', enumParam(Object.values(RENEW_STATE))),
    tenantCode: equals('r.tenant_code', organizationParam),
    expiry: custom(enumParam(EXPIRY_WINDOWS), (where, expiry, context) => expiryClause(where, expiry, context.now, 'r')),
    orderCode: equals('r.order_code', schemaOf<string>({ type: 'string', maxLength: 32 })),
  },
  columns: {
    id: column<number>('r.id'),
    iccid: column<string>('r.iccid'),
    msisdn: column<string>('s.msisdn'),
    tenantCode: column<string>('r.tenant_code'),
    tenantName: textColumn('t.name'),
    organizationName: textColumn('g.name'),
    operator: column<string>('s.operator'),
    packageCode: column<string>('s.package_code'),
    packageName: textColumn('p.name'),
    cardState: column<CardState>('s.state'),
    expireTime: nullableTimeColumn('r.expires_at'),
    cardExpireTime: nullableTimeColumn('s.expires_at'),
    daysLeft: derived((row, context) => daysUntil(row.expireTime as Date, context.now)),
    state: column<RenewState>('r.state'),
    years: column<number | null>('r.years'),
    unitPrice: moneyColumn('r.unit_price'),
    amount: moneyColumn('r.amount'),
    orderCode: textColumn('r.order_code'),
    registeredBy: textColumn('r.registered_by'),
    registerTime: nullableTimeColumn('r.registered_at'),
    confirmedBy: textColumn('r.confirmed_by'),
    confirmTime: nullableTimeColumn('r.confirmed_at'),
    lockedBy: textColumn('r.locked_by'),
    lockTime: nullableTimeColumn('r.locked_at'),
    lockReason: textColumn('r.lock_reason'),
  },
  sorts: ['expireTime', 'iccid', 'amount', 'registerTime'],
  fallback: 'r.expires_at, r.id',
});
type RenewRecord = ItemOf<typeof RENEWS>;

async function findRenews(context: OperationContext<unknown>, ids: readonly number[]): Promise<RenewRecord[]> {
  const where = renewScope(new Conditions(), await cardScope(context)).add('r.id = ANY($?::int[])', [...ids]);
  const renews = await RENEWS.findAll(context, where, ' ORDER BY r.id');
  if (renews.length !== new Set(ids).size) throw fail.notFound('续费记录不存在');
  return renews;
}

/**
 * Locks the renewals and checks each still allows `action` (what was read before the transaction
 * may have moved since): "409" naming the card otherwise.
 */
async function lockRenews(tx: Queryable, renews: readonly RenewRecord[], allowed: readonly RenewState[], action: string): Promise<void> {
  const rows = await tx.query<{ id: number; state: string }>('SELECT id, state FROM card_renew WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE', [renews.map((renew) => renew.id)]);
  const states = new Map(rows.map((row) => [row.id, row.state]));
  for (const renew of renews) requireState(states.get(renew.id) ?? '', allowed, RENEW_STATE_LABEL, `${action}（${renew.iccid}）`);
}

async function register(context: OperationContext<unknown>, ids: readonly number[], years: number) {
  const renews = await findRenews(context, ids);
  for (const renew of renews) requireState(renew.state, RENEW_ACTIONS.register, RENEW_STATE_LABEL, `登记（${renew.iccid}）`);
  await context.db.transaction(async (tx) => {
    await lockRenews(tx, renews, RENEW_ACTIONS.register, '登记');
    const byTenant = new Map<string, RenewRecord[]>();
    for (const renew of renews) byTenant.set(renew.tenantCode, [...(byTenant.get(renew.tenantCode) ?? []), renew]);
    for (const [tenant, group] of byTenant) {
      const prices = await pricesFor(tx, tenant, group.map((renew) => renew.packageCode));
      for (const renew of group) {
        const price = prices.get(renew.packageCode);
        if (!price) throw fail.conflict(`卡片 ${renew.iccid} 的资费套餐没有资费标准`);
        if (!price.years.includes(years)) throw fail.badRequest(`参数错误：years（${price.standardName} 可选年限为 ${price.years.join('、')} 年）`);
        await tx.query(
          `UPDATE card_renew SET state = $2, years = $3, unit_price = $4, amount = $5, registered_by = $6, registered_at = $7, updated_at = $7 WHERE id = $1 AND state = ANY($8::text[])`,
          [renew.id, RENEW_STATE.registered, years, price.unitPrice, yuan(fenOf(price.unitPrice) * years), loginNameOf(context), context.now, [...RENEW_ACTIONS.register]],
        );
      }
    }
  });
  return { registered: renews.length };
}

/** Confirms registered renewals: one renewal order per tenant holds them. */
async function confirm(context: OperationContext<unknown>, ids: readonly number[]) {
  const renews = await findRenews(context, ids);
  for (const renew of renews) requireState(renew.state, RENEW_ACTIONS.confirm, RENEW_STATE_LABEL, `确认续费（${renew.iccid}）`);
  const codes = await context.db.transaction(async (tx) => {
    await lockRenews(tx, renews, RENEW_ACTIONS.confirm, '确认续费');
    const byTenant = new Map<string, RenewRecord[]>();
    for (const renew of renews) byTenant.set(renew.tenantCode, [...(byTenant.get(renew.tenantCode) ?? []), renew]);
    const created: string[] = [];
    for (const [tenant, group] of byTenant) {
      const id = await nextId(tx, 'card_renew_order');
      const code = documentCode('XF', context.now, id, context.config.timeZone);
      const amount = yuan(group.reduce((sum, renew) => sum + fenOf(renew.amount ?? 0), 0));
      await tx.query(
        `INSERT INTO card_renew_order (id, code, tenant_code, organization_code, state, card_count, amount, created_by, created_at) VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8)`,
        [id, code, tenant, RENEW_ORDER_STATE.pendingConfirm, group.length, amount, loginNameOf(context), context.now],
      );
      const moved = await tx.query(
        `UPDATE card_renew SET state = $2, order_code = $3, confirmed_by = $4, confirmed_at = $5, updated_at = $5 WHERE id = ANY($1::int[]) AND state = $6 RETURNING id`,
        [group.map((renew) => renew.id), RENEW_STATE.confirmed, code, loginNameOf(context), context.now, RENEW_STATE.registered],
      );
      if (moved.length !== group.length) throw fail.conflict('续费状态已变化，请刷新后重试');
      created.push(code);
    }
    return created;
  });
  return { confirmed: renews.length, orderCodes: codes };
}

async function lock(context: OperationContext<unknown>, ids: readonly number[], reason: string) {
  const renews = await findRenews(context, ids);
  for (const renew of renews) requireState(renew.state, RENEW_ACTIONS.lock, RENEW_STATE_LABEL, `锁定（${renew.iccid}）`);
  const locked = await context.db.transaction(async (tx) => {
    await lockRenews(tx, renews, RENEW_ACTIONS.lock, '锁定');
    return tx.query<{ id: number }>(
      `UPDATE card_renew SET state = $2, locked_by = $3, locked_at = $4, lock_reason = $5, updated_at = $4 WHERE id = ANY($1::int[]) AND state = ANY($6::text[]) RETURNING id`,
      [renews.map((renew) => renew.id), RENEW_STATE.locked, loginNameOf(context), context.now, reason, [...RENEW_ACTIONS.lock]],
    );
  });
  return { locked: locked.length };
}

const idParam = schemaOf<number>({ type: 'integer', minimum: 1 });

// ── renewal orders ─────────────────────────────────────────────────────────────────────────────

const RENEW_ORDERS = listing({
  from: 'card_renew_order o LEFT JOIN organization t ON t.code = o.tenant_code',
  narrowFrom: 'card_renew_order o',
  key: 'o.id',
  scope: async (where, context) => where.scope(await cardScope(context), 'o', BY_TENANT),
  filters: {
    keyword: contains('o.code', keywordParam),
    state: equals('o.state', enumParam(Object.values(RENEW_ORDER_STATE))),
    tenantCode: equals('o.tenant_code', organizationParam),
  },
  columns: {
    id: column<number>('o.id'),
    code: column<string>('o.code'),
    tenantCode: column<string>('o.tenant_code'),
    tenantName: textColumn('t.name'),
    state: column<RenewOrderState>('o.state'),
    cardCount: column<number>('o.card_count'),
    amount: moneyColumn('o.amount'),
    createdBy: column<string>('o.created_by'),
    createTime: nullableTimeColumn('o.created_at'),
    confirmedBy: textColumn('o.confirmed_by'),
    confirmTime: nullableTimeColumn('o.confirmed_at'),
  },
  sorts: ['code', 'createTime', 'amount', 'cardCount'],
  fallback: 'o.created_at DESC, o.id DESC',
});
type RenewOrderRecord = ItemOf<typeof RENEW_ORDERS>;

async function findRenewOrder(context: OperationContext<unknown>, code: string): Promise<RenewOrderRecord> {
  const where = new Conditions().scope(await cardScope(context), 'o', BY_TENANT).add('o.code = $?', code);
  const order = await RENEW_ORDERS.find(context, where);
  if (!order) throw fail.notFound('续费订单不存在');
  return order;
}

const RENEW_ORDER = cardWorkflow({ table: 'card_renew_order', labels: RENEW_ORDER_STATE_LABEL, missing: '续费订单不存在', changed: '续费订单状态已变化，请刷新后重试', find: findRenewOrder });

function renewSheet(context: OperationContext<unknown>, title: string, rows: readonly RenewRecord[]) {
  return exportFile(
    context,
    title,
    [
      { title: 'ICCID', value: (r: RenewRecord) => r.iccid, width: 24 },
      { title: 'MSISDN', value: (r) => r.msisdn, width: 16 },
      { title: '租户', value: (r) => r.tenantName, width: 28 },
      { title: '运营商', value: (r) => CARD_OPERATOR_LABEL[r.operator] ?? '' },
      { title: '资费套餐', value: (r) => r.packageName, width: 24 },
      { title: '卡状态', value: (r) => CARD_STATE_LABEL[r.cardState] },
      { title: '到期时间', value: (r) => (r.expireTime ? new Date(r.expireTime) : null) },
      { title: '续费状态', value: (r) => RENEW_STATE_LABEL[r.state] },
      { title: '续费年限', value: (r) => r.years },
      { title: '金额（元）', value: (r) => r.amount },
      { title: '续费订单', value: (r) => r.orderCode },
    ],
    rows,
  );
}

export const renewOperations = [
  defineOperation('card.renew.page', {
    paramSchema: RENEWS.paramSchema,
    handler: async (context) => {
      requireCardStaff(context);
      return RENEWS.page(context);
    },
  }),

  defineOperation('card.renew.register', {
    paramSchema: objectOf({ id: idParam, years: yearsParam }, ['id', 'years']),
    handler: async (context) => register(context, [context.param.id], context.param.years),
  }),
  defineOperation('card.renew.batchRegister', {
    paramSchema: objectOf({ ids: idList(1000), years: yearsParam }, ['ids', 'years']),
    handler: async (context) => register(context, context.param.ids, context.param.years),
  }),
  defineOperation('card.renew.confirm', {
    paramSchema: objectOf({ id: idParam }, ['id']),
    handler: async (context) => confirm(context, [context.param.id]),
  }),
  defineOperation('card.renew.batchConfirm', {
    paramSchema: objectOf({ ids: idList(1000) }, ['ids']),
    handler: async (context) => confirm(context, context.param.ids),
  }),
  defineOperation('card.renew.onLock', {
    paramSchema: objectOf({ id: idParam, reason: plainText(200) }, ['id', 'reason']),
    handler: async (context) => lock(context, [context.param.id], context.param.reason),
  }),
  defineOperation('card.renew.batchOnLock', {
    paramSchema: objectOf({ ids: idList(1000), reason: plainText(200) }, ['ids', 'reason']),
    handler: async (context) => lock(context, context.param.ids, context.param.reason),
  }),

  defineOperation('card.renew.export', {
    paramSchema: RENEWS.paramSchema,
    handler: async (context) => {
      requireCardStaff(context);
      return renewSheet(context, '续费卡', await RENEWS.rows(context));
    },
  }),

  defineOperation('card.renewOrder.page', {
    paramSchema: RENEW_ORDERS.paramSchema,
    handler: async (context) => {
      requireCardStaff(context);
      return RENEW_ORDERS.page(context);
    },
  }),

  defineOperation('card.renewOrder.detail', {
    paramSchema: objectOf({ code: codeParam() }, ['code']),
    handler: async (context) => {
      requireCardStaff(context);
      const order = await findRenewOrder(context, context.param.code);
      const items = await RENEWS.findAll(context, new Conditions().add('r.order_code = $?', order.code), ' ORDER BY r.iccid');
      return { ...order, items };
    },
  }),

  // Settles a renewal order: each card's service runs `years` more from the end being renewed;
  // a card suspended at that end is back in service.
  defineOperation('card.renewOrder.confirm', {
    paramSchema: objectOf({ code: codeParam() }, ['code']),
    handler: async (context) => {
      const order = await findRenewOrder(context, context.param.code);
      const extended = await RENEW_ORDER.take(context, order, [RENEW_ORDER_STATE.pendingConfirm], '确认', async (tx) => {
        await RENEW_ORDER.move(tx, order.code, {
          from: [RENEW_ORDER_STATE.pendingConfirm],
          to: RENEW_ORDER_STATE.confirmed,
          set: { confirmed_by: loginNameOf(context), confirmed_at: context.now },
          refuseMoved: true,
        });
        return tx.query(
          `UPDATE sim_card s SET expires_at = r.expires_at + make_interval(years => r.years),
                  state = CASE WHEN s.state = 'suspended' AND s.cease_reason = 'expired' AND r.expires_at + make_interval(years => r.years) > $2 THEN 'active' ELSE s.state END,
                  cease_reason = CASE WHEN s.state = 'suspended' AND s.cease_reason = 'expired' AND r.expires_at + make_interval(years => r.years) > $2 THEN NULL ELSE s.cease_reason END,
                  suspended_at = CASE WHEN s.state = 'suspended' AND s.cease_reason = 'expired' AND r.expires_at + make_interval(years => r.years) > $2 THEN NULL ELSE s.suspended_at END,
                  updated_at = $2
             FROM card_renew r
            WHERE r.order_code = $1 AND s.iccid = r.iccid AND s.expires_at = r.expires_at AND s.state IN ('active', 'suspended')
            RETURNING s.iccid`,
          [order.code, context.now],
        );
      });
      return { ...(await findRenewOrder(context, order.code)), extendedCards: extended.length };
    },
  }),

  defineOperation('card.renewOrder.export', {
    paramSchema: RENEW_ORDERS.paramSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const rows = await RENEW_ORDERS.rows(context);
      return exportFile(
        context,
        '续费订单',
        [
          { title: '续费订单号', value: (r: RenewOrderRecord) => r.code },
          { title: '租户', value: (r) => r.tenantName, width: 28 },
          { title: '卡数', value: (r) => r.cardCount },
          { title: '金额（元）', value: (r) => r.amount },
          { title: '状态', value: (r) => RENEW_ORDER_STATE_LABEL[r.state] },
          { title: '创建人', value: (r) => r.createdBy },
          { title: '创建时间', value: (r) => (r.createTime ? new Date(r.createTime) : null) },
          { title: '确认时间', value: (r) => (r.confirmTime ? new Date(r.confirmTime) : null) },
        ],
        rows,
      );
    },
  }),
];
