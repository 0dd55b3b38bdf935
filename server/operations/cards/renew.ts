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
import { spreadsheet } from '../../http/spreadsheet';
import { defineOperation } from '../../core/operation';
import { enumParam, keywordParam, objectOf, organizationParam, plainText, schemaOf, type ParamOf } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { Conditions, containing, exportOf, pageOf, type Listing } from '../../core/listQuery';
import { type OrganizationScope, BY_TENANT } from '../../core/scope';
import { cardScope, codeParam, daysUntil, idList, loginNameOf, money, nextId, requireCardStaff, yearsParam } from './access';
import { isoOrNull } from '../../core/values';
import { pricesFor } from './pricing';
import { EXPIRY_WINDOWS } from './sims';
import { expiryClause } from '../../core/simCards';
import { cardWorkflow } from './cardWorkflow';

/**
 * Renewal (续费卡, 续费订单): cards whose service ends within the renewal window. The platform
 * registers a term and price, the tenant confirms (the confirmed cards become a renewal order) or
 * the platform locks the card out of renewal; confirming the renewal order extends each card.
 */

interface RenewRow {
  id: number;
  iccid: string;
  msisdn: string;
  tenant_code: string;
  tenant_name: string | null;
  organization_name: string | null;
  operator: string;
  package_code: string;
  package_name: string | null;
  card_state: CardState;
  card_expires_at: Date | null;
  state: RenewState;
  expires_at: Date;
  years: number | null;
  unit_price: string | null;
  amount: string | null;
  order_code: string | null;
  registered_by: string | null;
  registered_at: Date | null;
  confirmed_by: string | null;
  confirmed_at: Date | null;
  locked_by: string | null;
  locked_at: Date | null;
  lock_reason: string | null;
}

function renewRecord(row: RenewRow, now: Date) {
  return {
    id: row.id,
    iccid: row.iccid,
    msisdn: row.msisdn,
    tenantCode: row.tenant_code,
    tenantName: row.tenant_name ?? '',
    organizationName: row.organization_name ?? '',
    operator: row.operator,
    packageCode: row.package_code,
    packageName: row.package_name ?? '',
    cardState: row.card_state,
    expireTime: isoOrNull(row.expires_at),
    cardExpireTime: isoOrNull(row.card_expires_at),
    daysLeft: daysUntil(row.expires_at, now),
    state: row.state,
    years: row.years,
    unitPrice: money(row.unit_price),
    amount: money(row.amount),
    orderCode: row.order_code ?? '',
    registeredBy: row.registered_by ?? '',
    registerTime: isoOrNull(row.registered_at),
    confirmedBy: row.confirmed_by ?? '',
    confirmTime: isoOrNull(row.confirmed_at),
    lockedBy: row.locked_by ?? '',
    lockTime: isoOrNull(row.locked_at),
    lockReason: row.lock_reason ?? '',
  };
}
type RenewRecord = ReturnType<typeof renewRecord>;

const RENEW_FROM = `card_renew r JOIN sim_card s ON s.iccid = r.iccid
    LEFT JOIN organization t ON t.code = r.tenant_code
    LEFT JOIN organization g ON g.code = s.organization_code
    LEFT JOIN card_charge_standard p ON p.code = s.package_code`;
const RENEW_COLUMNS = `r.id, r.iccid, s.msisdn, r.tenant_code, t.name AS tenant_name, g.name AS organization_name, s.operator, s.package_code, p.name AS package_name,
    s.state AS card_state, s.expires_at AS card_expires_at, r.state, r.expires_at, r.years, r.unit_price, r.amount, r.order_code,
    r.registered_by, r.registered_at, r.confirmed_by, r.confirmed_at, r.locked_by, r.locked_at, r.lock_reason`;

function renewListing(now: Date): Listing<RenewRow, RenewRecord> {
  return {
    from: RENEW_FROM,
    // The card is read when the scope or the keyword needs it; the names are joined for the page's rows.
    narrowFrom: (needed) => (/\bs\./.test(needed) ? 'card_renew r JOIN sim_card s ON s.iccid = r.iccid' : 'card_renew r'),
    key: 'r.id',
    columns: RENEW_COLUMNS,
    sorts: { expireTime: 'r.expires_at', iccid: 'r.iccid', amount: 'r.amount', registerTime: 'r.registered_at' },
    fallback: 'r.expires_at, r.id',
    record: (row) => renewRecord(row, now),
  };
}

interface RenewFilter {
  keyword?: string;
  state?: string;
  tenantCode?: string;
  expiry?: string;
  orderCode?: string;
}
const filterProperties = {
  keyword: keywordParam,
  state: enumParam(Object.values(RENEW_STATE)),
  tenantCode: organizationParam,
  expiry: enumParam(EXPIRY_WINDOWS),
  orderCode: schemaOf<string>({ type: 'string', maxLength: 32 }),
};

/**
 * The renewals a request sees: its tenant's own (a card sold on to another tenant leaves its
 * renewals with the tenant that had them, and the new one does not see them), and below a tenant's
 * root those of cards now in the working organisations. By the renewal's tenant, the count and the
 * page walk card_renew's tenant index in the list's order without reading the cards.
 */
function renewScope(scope: OrganizationScope): Conditions {
  const where = new Conditions();
  if (scope.coverage === 'everything') return where;
  if (scope.tenantCode) where.add('r.tenant_code = $?', scope.tenantCode);
  if (scope.coverage === 'part' || !scope.tenantCode) where.add('s.organization_code = ANY($?::text[])', scope.organizationCodes);
  return where;
}

async function renewConditions(context: OperationContext<RenewFilter>): Promise<Conditions> {
  const filter = context.param;
  const where = renewScope(await cardScope(context))
    .when(filter.keyword, '(r.iccid ILIKE $? OR s.msisdn ILIKE $? OR COALESCE(r.order_code, \'\') ILIKE $?)', (v) => containing(String(v)))
    .when(filter.state, 'r.state = $?')
    .when(filter.tenantCode, 'r.tenant_code = $?')
    .when(filter.orderCode, 'r.order_code = $?');
  expiryClause(where, filter.expiry, context.now, 'r');
  return where;
}

async function findRenews(context: OperationContext<unknown>, ids: readonly number[], db: Queryable = context.db): Promise<RenewRecord[]> {
  const where = renewScope(await cardScope(context)).add('r.id = ANY($?::int[])', [...ids]);
  const rows = await db.query<RenewRow>(`SELECT ${RENEW_COLUMNS} FROM ${RENEW_FROM} WHERE ${where.sql} ORDER BY r.id`, where.params);
  if (rows.length !== new Set(ids).size) throw fail.notFound('续费记录不存在');
  return rows.map((row) => renewRecord(row, context.now));
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

interface RenewOrderRow {
  id: number;
  code: string;
  tenant_code: string;
  tenant_name: string | null;
  state: RenewOrderState;
  card_count: number;
  amount: string;
  created_by: string;
  created_at: Date;
  confirmed_by: string | null;
  confirmed_at: Date | null;
}

function renewOrderRecord(row: RenewOrderRow) {
  return {
    id: row.id,
    code: row.code,
    tenantCode: row.tenant_code,
    tenantName: row.tenant_name ?? '',
    state: row.state,
    cardCount: row.card_count,
    amount: money(row.amount),
    createdBy: row.created_by,
    createTime: isoOrNull(row.created_at),
    confirmedBy: row.confirmed_by ?? '',
    confirmTime: isoOrNull(row.confirmed_at),
  };
}
type RenewOrderRecord = ReturnType<typeof renewOrderRecord>;

const RENEW_ORDERS: Listing<RenewOrderRow, RenewOrderRecord> = {
  from: 'card_renew_order o LEFT JOIN organization t ON t.code = o.tenant_code',
  narrowFrom: 'card_renew_order o',
  key: 'o.id',
  columns: 'o.id, o.code, o.tenant_code, t.name AS tenant_name, o.state, o.card_count, o.amount, o.created_by, o.created_at, o.confirmed_by, o.confirmed_at',
  sorts: { code: 'o.code', createTime: 'o.created_at', amount: 'o.amount', cardCount: 'o.card_count' },
  fallback: 'o.created_at DESC, o.id DESC',
  record: renewOrderRecord,
};

type RenewOrderFilter = ParamOf<typeof orderFilterSchema>;
const orderFilterSchema = objectOf({ keyword: keywordParam, state: enumParam(Object.values(RENEW_ORDER_STATE)), tenantCode: organizationParam });

async function renewOrderConditions(context: OperationContext<RenewOrderFilter>): Promise<Conditions> {
  return new Conditions()
    .scope(await cardScope(context), 'o', BY_TENANT)
    .when(context.param.keyword, 'o.code ILIKE $?', (v) => containing(String(v)))
    .when(context.param.state, 'o.state = $?')
    .when(context.param.tenantCode, 'o.tenant_code = $?');
}

async function findRenewOrder(context: OperationContext<unknown>, code: string): Promise<RenewOrderRecord> {
  const where = new Conditions().scope(await cardScope(context), 'o', BY_TENANT).add('o.code = $?', code);
  const [row] = await context.db.query<RenewOrderRow>(`SELECT ${RENEW_ORDERS.columns} FROM ${RENEW_ORDERS.from} WHERE ${where.sql}`, where.params);
  if (!row) throw fail.notFound('续费订单不存在');
  return renewOrderRecord(row);
}

const RENEW_ORDER = cardWorkflow({ table: 'card_renew_order', labels: RENEW_ORDER_STATE_LABEL, missing: '续费订单不存在', changed: '续费订单状态已变化，请刷新后重试', find: findRenewOrder });

function renewSheet(title: string, rows: readonly RenewRecord[], now: Date, timeZone: string) {
  return spreadsheet(
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
    now,
    timeZone,
  );
}

export const renewOperations = [
  defineOperation('card.renew.page', {
    paramSchema: objectOf(filterProperties),
    handler: async (context) => {
      requireCardStaff(context);
      return pageOf(context, renewListing(context.now), await renewConditions(context));
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
    paramSchema: objectOf(filterProperties),
    handler: async (context) => {
      requireCardStaff(context);
      return renewSheet('续费卡', await exportOf(context, renewListing(context.now), await renewConditions(context)), context.now, context.config.timeZone);
    },
  }),

  defineOperation('card.renewOrder.page', {
    paramSchema: orderFilterSchema,
    handler: async (context) => {
      requireCardStaff(context);
      return pageOf(context, RENEW_ORDERS, await renewOrderConditions(context));
    },
  }),

  defineOperation('card.renewOrder.detail', {
    paramSchema: objectOf({ code: codeParam() }, ['code']),
    handler: async (context) => {
      requireCardStaff(context);
      const order = await findRenewOrder(context, context.param.code);
      const rows = await context.db.query<RenewRow>(`SELECT ${RENEW_COLUMNS} FROM ${RENEW_FROM} WHERE r.order_code = $1 ORDER BY r.iccid`, [order.code]);
      return { ...order, items: rows.map((row) => renewRecord(row, context.now)) };
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
    paramSchema: orderFilterSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const rows = await exportOf(context, RENEW_ORDERS, await renewOrderConditions(context));
      return spreadsheet(
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
        context.now,
        context.config.timeZone,
      );
    },
  }),
];
