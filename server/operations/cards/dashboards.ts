import { parseBusinessTime } from '../../domain/businessTime';
import { CARD_OPERATOR_LABEL } from '../../domain/cards';
import { defineOperation } from '../../core/operation';
import { objectOf, schemaOf, TIME_PATTERN, type ParamOf } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { Conditions } from '../../core/listQuery';
import { type ScopeColumns, BY_TENANT } from '../../core/scope';
import { cardOrderScope, cardScope, mb, money, requireCardStaff } from './access';

/**
 * The card dashboards (营收看板): card counts, data use, deliveries, purchases (warehousing),
 * revenue, order completion, tenants by size and unpaid sales. Each answers for the working
 * organisations and, where it has one, the time range (param.startTime / param.endTime, the last
 * 30 days by default).
 */

const rangeTime = schemaOf<string>({ type: 'string', maxLength: 32, pattern: TIME_PATTERN });
const rangeSchema = objectOf({ startTime: rangeTime, endTime: rangeTime });
type Range = ParamOf<typeof rangeSchema>;
const DAY_MS = 86_400_000;

function rangeOf(context: OperationContext<Range>, defaultDays = 30): [Date, Date] {
  // A time without an offset is read on the business zone's clock.
  const end = context.param.endTime ? parseBusinessTime(context.param.endTime, context.config.timeZone) : context.now;
  const start = context.param.startTime ? parseBusinessTime(context.param.startTime, context.config.timeZone) : new Date(end.getTime() - defaultDays * DAY_MS);
  const valid = (date: Date) => !Number.isNaN(date.getTime());
  const [a, b] = [valid(start) ? start : new Date(context.now.getTime() - defaultDays * DAY_MS), valid(end) ? end : context.now];
  return a <= b ? [a, b] : [b, a];
}

/** A conditions object scoped on `alias`, with the range appended: its two placeholders. */
async function scoped(context: OperationContext<Range>, alias: string, columns: ScopeColumns, defaultDays = 30): Promise<{ where: Conditions; from: string; to: string }> {
  const where = new Conditions().scope(await cardScope(context), alias, columns);
  const [start, end] = rangeOf(context, defaultDays);
  return { where, from: where.ref(start), to: where.ref(end) };
}

const level = (cards: number) => (cards >= 5000 ? 'A' : cards >= 1000 ? 'B' : 'C');
const LEVEL_NAME: Record<string, string> = { A: 'A 级（≥5000 张）', B: 'B 级（1000–4999 张）', C: 'C 级（<1000 张）' };

export const dashboardOperations = [
  defineOperation('card.dashboard.statistics', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const where = new Conditions().scope(await cardScope(context), 's', BY_TENANT);
      const now = where.ref(context.now);
      const [row] = await context.db.query<Record<string, number | string>>(
        `SELECT count(*)::int AS total,
                count(*) FILTER (WHERE state = 'in_stock')::int AS in_stock,
                count(*) FILTER (WHERE state = 'testing')::int AS testing,
                count(*) FILTER (WHERE state = 'active')::int AS active,
                count(*) FILTER (WHERE state = 'suspended')::int AS suspended,
                count(*) FILTER (WHERE state = 'deactivated')::int AS deactivated,
                count(*) FILTER (WHERE state = 'replaced')::int AS replaced,
                count(*) FILTER (WHERE state IN ('active', 'suspended') AND expires_at > ${now} AND expires_at <= ${now}::timestamptz + interval '30 days')::int AS expiring30,
                count(DISTINCT tenant_code)::int AS tenants,
                COALESCE(sum(month_used_mb) FILTER (WHERE state IN ('active', 'testing')), 0) AS month_used_mb
           FROM sim_card s WHERE ${where.sql}`,
        where.params,
      );
      const total = Number(row.total);
      const serving = Number(row.active) + Number(row.testing);
      return {
        totalCards: total,
        inStock: row.in_stock,
        testing: row.testing,
        active: row.active,
        suspended: row.suspended,
        deactivated: row.deactivated,
        replaced: row.replaced,
        expiring30: row.expiring30,
        tenants: row.tenants,
        monthUsedGb: Math.round((Number(row.month_used_mb) / 1024) * 100) / 100,
        activeRate: total ? Math.round((serving / total) * 1000) / 10 : 0,
      };
    },
  }),

  // Data used per business day in the range (the days of its bounds in the session's zone, which is the business zone).
  defineOperation('card.dashboard.flowMonitor', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      requireCardStaff(context);
      // The daily figures are per tenant: scoped by their tenant as if it were an organisation.
      const { where, from, to } = await scoped(context, 'f', {});
      const rows = await context.db.query<{ day: string; used_mb: string; active_cards: number }>(
        `SELECT to_char(f.day, 'YYYY-MM-DD') AS day, sum(f.used_mb) AS used_mb, sum(f.active_cards)::int AS active_cards
           FROM (SELECT day, tenant_code AS organization_code, used_mb, active_cards FROM card_flow_daily) f
          WHERE ${where.sql} AND f.day BETWEEN ${from}::timestamptz::date AND ${to}::timestamptz::date GROUP BY f.day ORDER BY f.day`,
        where.params,
      );
      return rows.map((row) => ({ day: row.day, usedGb: Math.round((Number(row.used_mb) / 1024) * 100) / 100, activeCards: row.active_cards }));
    },
  }),

  // The cards using the most data this month.
  defineOperation('card.dashboard.flowTop', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const where = new Conditions().scope(await cardScope(context), 's', BY_TENANT);
      const rows = await context.db.query<{ iccid: string; msisdn: string; tenant_name: string | null; device_code: string | null; month_used_mb: string; flow_mb: number }>(
        `SELECT s.iccid, s.msisdn, t.name AS tenant_name, s.device_code, s.month_used_mb, s.flow_mb FROM sim_card s LEFT JOIN organization t ON t.code = s.tenant_code
          WHERE ${where.sql} AND s.state IN ('active', 'testing') ORDER BY s.month_used_mb DESC, s.iccid LIMIT 10`,
        where.params,
      );
      return rows.map((row, index) => ({
        rank: index + 1,
        iccid: row.iccid,
        msisdn: row.msisdn,
        tenantName: row.tenant_name ?? '',
        deviceCode: row.device_code ?? '',
        monthUsedMb: mb(row.month_used_mb),
        flowMb: row.flow_mb,
        usagePercent: Math.round((mb(row.month_used_mb) / row.flow_mb) * 1000) / 10,
      }));
    },
  }),

  defineOperation('card.dashboard.deliveryStatistics', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const { where, from, to } = await scoped(context, 'd', BY_TENANT);
      const [row] = await context.db.query<{ shipped: number; shipped_cards: number; pending: number; pending_cards: number; awaiting: number; revoked: number }>(
        `SELECT count(*) FILTER (WHERE d.state IN ('shipped', 'received') AND d.shipped_at BETWEEN ${from} AND ${to})::int AS shipped,
                COALESCE(sum(d.card_count) FILTER (WHERE d.state IN ('shipped', 'received') AND d.shipped_at BETWEEN ${from} AND ${to}), 0)::int AS shipped_cards,
                count(*) FILTER (WHERE d.state = 'created')::int AS pending,
                COALESCE(sum(d.card_count) FILTER (WHERE d.state = 'created'), 0)::int AS pending_cards,
                count(*) FILTER (WHERE d.state = 'shipped')::int AS awaiting,
                count(*) FILTER (WHERE d.state = 'revoked' AND d.revoked_at BETWEEN ${from} AND ${to})::int AS revoked
           FROM card_delivery d WHERE ${where.sql}`,
        where.params,
      );
      const orders = cardOrderScope(new Conditions(), await cardScope(context));
      const [waiting] = await context.db.query<{ n: number; cards: number }>(
        `SELECT count(*)::int AS n, COALESCE(sum(card_count), 0)::int AS cards FROM card_order o WHERE ${orders.sql} AND o.state = 'pending_delivery'`,
        orders.params,
      );
      return {
        shippedDeliveries: row.shipped,
        shippedCards: row.shipped_cards,
        pendingDeliveries: row.pending,
        pendingCards: row.pending_cards,
        awaitingConfirmation: row.awaiting,
        revokedDeliveries: row.revoked,
        ordersAwaitingDelivery: waiting.n,
        cardsAwaitingDelivery: waiting.cards,
      };
    },
  }),

  // Cards shipped per month (the range, at least the last twelve months).
  defineOperation('card.dashboard.deliveryBar', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const { where, from, to } = await scoped(context, 'd', BY_TENANT, 365);
      const rows = await context.db.query<{ month: string; deliveries: number; cards: number }>(
        `SELECT to_char(date_trunc('month', d.shipped_at), 'YYYY-MM') AS month, count(*)::int AS deliveries, sum(d.card_count)::int AS cards
           FROM card_delivery d WHERE ${where.sql} AND d.state IN ('shipped', 'received')
            AND d.shipped_at BETWEEN LEAST(${from}::timestamptz, ${to}::timestamptz - interval '365 days') AND ${to}
          GROUP BY 1 ORDER BY 1`,
        where.params,
      );
      return rows;
    },
  }),

  // Cards warehoused per operator in the range (platform purchases).
  defineOperation('card.dashboard.purchasePie', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const [start, end] = rangeOf(context, 365);
      const rows = await context.db.query<{ operator: string; cards: number }>(
        `SELECT b.operator, sum(b.quantity)::int AS cards FROM card_stock_batch b WHERE b.created_at BETWEEN $1 AND $2 AND $3 GROUP BY b.operator ORDER BY cards DESC`,
        [start, end, await seesPurchases(context)],
      );
      return rows.map((row) => ({ operatorName: CARD_OPERATOR_LABEL[row.operator] ?? row.operator, cards: row.cards }));
    },
  }),

  defineOperation('card.dashboard.purchaseList', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const [start, end] = rangeOf(context, 365);
      const rows = await context.db.query<{ supplier_name: string; batches: number; cards: number; cost: string }>(
        `SELECT sp.name AS supplier_name, count(*)::int AS batches, sum(b.quantity)::int AS cards, sum(b.quantity * c.unit_cost) AS cost
           FROM card_stock_batch b JOIN card_supplier sp ON sp.code = b.supplier_code JOIN card_custom c ON c.code = b.custom_code
          WHERE b.created_at BETWEEN $1 AND $2 AND $3 GROUP BY sp.name ORDER BY cards DESC`,
        [start, end, await seesPurchases(context)],
      );
      return rows.map((row) => ({ supplierName: row.supplier_name, batches: row.batches, cards: row.cards, cost: money(row.cost) }));
    },
  }),

  defineOperation('card.dashboard.purchaseBar', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const [start, end] = rangeOf(context, 365);
      return context.db.query<{ month: string; cards: number; batches: number }>(
        `SELECT to_char(date_trunc('month', b.created_at), 'YYYY-MM') AS month, sum(b.quantity)::int AS cards, count(*)::int AS batches
           FROM card_stock_batch b WHERE b.created_at BETWEEN LEAST($1::timestamptz, $2::timestamptz - interval '365 days') AND $2 AND $3 GROUP BY 1 ORDER BY 1`,
        [start, end, await seesPurchases(context)],
      );
    },
  }),

  // Revenue per month: card orders signed, recharges and renewals confirmed.
  defineOperation('card.dashboard.revenueStatistics', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const scope = (await cardScope(context)).organizationCodes;
      const [start, end] = rangeOf(context, 365);
      const rows = await context.db.query<{ month: string; order_amount: string; recharge_amount: string; renew_amount: string }>(
        `WITH months AS (
           SELECT to_char(m, 'YYYY-MM') AS month FROM generate_series(date_trunc('month', LEAST($2::timestamptz, $3::timestamptz - interval '330 days')), date_trunc('month', $3::timestamptz), interval '1 month') m
         )
         SELECT m.month,
                (SELECT COALESCE(sum(o.amount), 0) FROM card_order o WHERE COALESCE(o.organization_code, o.tenant_code) = ANY($1::text[]) AND o.state <> 'cancelled' AND to_char(o.created_at, 'YYYY-MM') = m.month) AS order_amount,
                (SELECT COALESCE(sum(c.amount), 0) FROM card_recharge c WHERE c.organization_code = ANY($1::text[]) AND c.state = 'confirmed' AND to_char(c.confirmed_at, 'YYYY-MM') = m.month) AS recharge_amount,
                (SELECT COALESCE(sum(r.amount), 0) FROM card_renew_order r WHERE r.organization_code = ANY($1::text[]) AND r.state = 'confirmed' AND to_char(r.confirmed_at, 'YYYY-MM') = m.month) AS renew_amount
           FROM months m ORDER BY m.month`,
        [scope, start, end],
      );
      return rows.map((row) => {
        const orderAmount = money(row.order_amount) ?? 0;
        const rechargeAmount = money(row.recharge_amount) ?? 0;
        const renewAmount = money(row.renew_amount) ?? 0;
        return { month: row.month, orderAmount, rechargeAmount, renewAmount, totalAmount: Math.round((orderAmount + rechargeAmount + renewAmount) * 100) / 100 };
      });
    },
  }),

  // Of the orders placed in the range (not cancelled), the share completed.
  defineOperation('card.dashboard.completeRate', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const [start, end] = rangeOf(context, 365);
      const [row] = await context.db.query<{ total: number; completed: number; confirmed: number }>(
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE state = 'completed')::int AS completed, count(*) FILTER (WHERE state IN ('confirmed', 'completed'))::int AS confirmed
           FROM card_order o WHERE COALESCE(o.organization_code, o.tenant_code) = ANY($1::text[]) AND o.state <> 'cancelled' AND o.created_at BETWEEN LEAST($2::timestamptz, $3::timestamptz - interval '365 days') AND $3`,
        [(await cardScope(context)).organizationCodes, start, end],
      );
      return { total: row.total, completed: row.completed, confirmed: row.confirmed, rate: row.total ? Math.round((row.completed / row.total) * 1000) / 10 : 0 };
    },
  }),

  // Tenants by the cards they hold.
  defineOperation('card.dashboard.tenantLevel', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const where = new Conditions().scope(await cardScope(context), 's', BY_TENANT);
      const rows = await context.db.query<{ tenant_code: string; tenant_name: string; cards: number; active: number }>(
        `SELECT s.tenant_code, t.name AS tenant_name, count(*)::int AS cards, count(*) FILTER (WHERE s.state = 'active')::int AS active
           FROM sim_card s JOIN organization t ON t.code = s.tenant_code WHERE ${where.sql} AND s.state IN ('testing', 'active', 'suspended')
          GROUP BY s.tenant_code, t.name ORDER BY cards DESC`,
        where.params,
      );
      return rows.map((row) => ({ tenantCode: row.tenant_code, tenantName: row.tenant_name, cards: row.cards, activeCards: row.active, level: level(row.cards), levelName: LEVEL_NAME[level(row.cards)] }));
    },
  }),

  // Salespeople by what their customers still owe on card orders.
  defineOperation('card.dashboard.unreceivedSalesRank', {
    paramSchema: rangeSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const rows = await context.db.query<{ salesperson: string; orders: number; amount: string; received: string }>(
        `SELECT o.salesperson, count(*)::int AS orders, sum(o.amount) AS amount, sum(o.received_amount) AS received
           FROM card_order o WHERE COALESCE(o.organization_code, o.tenant_code) = ANY($1::text[]) AND o.state <> 'cancelled' AND o.salesperson <> '' AND o.amount > o.received_amount
          GROUP BY o.salesperson ORDER BY sum(o.amount - o.received_amount) DESC LIMIT 10`,
        [(await cardScope(context)).organizationCodes],
      );
      return rows.map((row, index) => ({
        rank: index + 1,
        salesperson: row.salesperson,
        orders: row.orders,
        amount: money(row.amount),
        receivedAmount: money(row.received),
        unreceivedAmount: Math.round((Number(row.amount) - Number(row.received)) * 100) / 100,
      }));
    },
  }),
];

/** Purchases (warehousing) are the platform's business: tenant staff see none. */
async function seesPurchases(context: OperationContext<unknown>): Promise<boolean> {
  const scope = (await cardScope(context)).organizationCodes;
  const [platform] = await context.db.query<{ code: string }>('SELECT code FROM organization WHERE type = 1 AND code = ANY($1::text[]) LIMIT 1', [scope]);
  return platform !== undefined;
}
