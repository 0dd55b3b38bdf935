import { startOfBusinessYear, wallClockOf } from '../../domain/businessTime';
import { addDays, CARD_OPERATOR_LABEL, CARD_STATE_LABEL, EXPIRING_SOON_DAYS, fenOf, ONLINE_PAYMENT_METHODS, yuan } from '../../domain/cards';
import { exportFile } from '../../core/exports';
import { defineOperation } from '../../core/operation';
import { enumOf, enumParam, objectOf, optionalPlainText, type ParamSchema } from '../../core/params';
import { isPlatformStaff, stewardOf } from '../../core/access';
import { Conditions } from '../../core/listQuery';
import { column, custom, listing, textColumn, type ItemOf } from '../../core/listing';
import { amountParam, cardScope, codeParam, iccidList, iccidParam, money, moneyColumn, nullableTimeColumn, requireCardStaff, yearsParam } from './access';
import { BY_TENANT } from '../../core/scope';
import { calculate } from './pricing';
import { cancelRecharge, createRecharge, rechargeableCards } from './recharge';
import { CARD_COLUMNS, CARD_FROM, findCard } from './sims';
import { CARD_FILTERS, cardListScope, cardNarrowFrom } from '../../core/simCards';

/**
 * 充值管理, the tenant's side of recharge: its cards by service end, what a term costs, paying
 * online or by corporate transfer, and the reminder when cards come to their end.
 */

const UNFINISHED = `(SELECT c.code FROM card_recharge_item i JOIN card_recharge c ON c.code = i.recharge_code
   WHERE i.iccid = s.iccid AND c.state IN ('pending_payment', 'paid') ORDER BY c.created_at DESC LIMIT 1)`;

/** The tenant's cards with their recharge: a card's fields, its unfinished recharge and its last confirmed one. */
const RECHARGEABLE = listing({
  from: CARD_FROM,
  narrowFrom: cardNarrowFrom,
  key: 's.id',
  // The cards in service of a tenant, with an end to recharge past.
  scope: async (where, context) => {
    await cardListScope(where, context);
    where.add("s.state IN ('active', 'suspended')").add('s.tenant_code IS NOT NULL').add('s.expires_at IS NOT NULL');
  },
  filters: {
    keyword: CARD_FILTERS.keyword,
    operator: CARD_FILTERS.operator,
    organizationCode: CARD_FILTERS.organizationCode,
    expiry: CARD_FILTERS.expiry,
    rechargeState: custom(enumParam(['none', 'pending']), (where, state) => void where.add(state === 'pending' ? `${UNFINISHED} IS NOT NULL` : `${UNFINISHED} IS NULL`)),
  },
  columns: {
    ...CARD_COLUMNS,
    rechargeState: column(`(SELECT c.state FROM card_recharge c WHERE c.code = ${UNFINISHED})`, (state: string | null) => state ?? 'none'),
    pendingOrderCode: textColumn(UNFINISHED),
    lastRechargeTime: nullableTimeColumn("(SELECT max(c.confirmed_at) FROM card_recharge_item i JOIN card_recharge c ON c.code = i.recharge_code WHERE i.iccid = s.iccid AND c.state = 'confirmed')"),
  },
  sorts: ['iccid', 'expireTime', 'monthUsedMb'],
  fallback: 's.expires_at, s.iccid',
});
type RechargeableRecord = ItemOf<typeof RECHARGEABLE>;

/** A card's recharges (the 充值记录 of one card): each order, what the card cost in it and its service end before and after. */
const CARD_RECHARGES = listing({
  from: 'card_recharge_item i JOIN card_recharge c ON c.code = i.recharge_code',
  filters: {},
  columns: {
    code: column<string>('c.code'),
    state: column<string>('c.state'),
    paymentMethod: column<string>('c.payment_method'),
    years: column<number>('c.years'),
    amount: moneyColumn('i.amount'),
    createTime: nullableTimeColumn('c.created_at'),
    expireBefore: nullableTimeColumn('i.expires_before'),
    expireAfter: nullableTimeColumn('i.expires_after'),
  },
  sorts: [],
  fallback: 'c.created_at DESC',
});

const paymentSchema = <const E extends Record<string, ParamSchema>>(extra: E) => objectOf({ iccids: iccidList(5000), years: yearsParam, amount: amountParam, ...extra }, ['iccids', 'years']);

export const customerRechargeOperations = [
  defineOperation('card.customerRecharge.page', {
    paramSchema: RECHARGEABLE.paramSchema,
    handler: async (context) => {
      requireCardStaff(context);
      return RECHARGEABLE.page(context);
    },
  }),

  defineOperation('card.customerRecharge.export', {
    paramSchema: RECHARGEABLE.paramSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const rows = await RECHARGEABLE.rows(context);
      return exportFile(
        context,
        '充值管理',
        [
          { title: 'ICCID', value: (r: RechargeableRecord) => r.iccid, width: 24 },
          { title: 'MSISDN', value: (r) => r.msisdn, width: 16 },
          { title: '组织', value: (r) => r.organizationName, width: 20 },
          { title: '运营商', value: (r) => CARD_OPERATOR_LABEL[r.operator] ?? '' },
          { title: '资费套餐', value: (r) => r.packageName, width: 24 },
          { title: '卡状态', value: (r) => CARD_STATE_LABEL[r.state] },
          { title: '到期时间', value: (r) => (r.expireTime ? new Date(r.expireTime) : null) },
          { title: '剩余天数', value: (r) => r.daysLeft },
          { title: '待完成充值单', value: (r) => r.pendingOrderCode },
        ],
        rows,
      );
    },
  }),

  // A card's recharges (the 充值记录 of one card).
  defineOperation('card.customerRecharge.detail', {
    paramSchema: objectOf({ iccid: iccidParam }, ['iccid']),
    handler: async (context) => {
      requireCardStaff(context);
      const card = await findCard(context, context.param.iccid);
      return { ...card, recharges: await CARD_RECHARGES.findAll(context, new Conditions().add('i.iccid = $?', card.iccid), ' ORDER BY c.created_at DESC') };
    },
  }),

  // How many recharges a card has had, and for how much.
  defineOperation('card.customerRecharge.detailNum', {
    paramSchema: objectOf({ iccid: iccidParam }, ['iccid']),
    handler: async (context) => {
      requireCardStaff(context);
      const card = await findCard(context, context.param.iccid);
      const [row] = await context.db.query<{ total: number; confirmed: number; pending: number; years: number; amount: string }>(
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE c.state = 'confirmed')::int AS confirmed,
                count(*) FILTER (WHERE c.state IN ('pending_payment', 'paid'))::int AS pending,
                COALESCE(sum(c.years) FILTER (WHERE c.state = 'confirmed'), 0)::int AS years,
                COALESCE(sum(i.amount) FILTER (WHERE c.state = 'confirmed'), 0) AS amount
           FROM card_recharge_item i JOIN card_recharge c ON c.code = i.recharge_code WHERE i.iccid = $1`,
        [card.iccid],
      );
      return { iccid: card.iccid, rechargeCount: row.total, confirmedCount: row.confirmed, pendingCount: row.pending, totalYears: row.years, totalAmount: money(row.amount) };
    },
  }),

  // The recharge dashboard counts of the working organisations.
  defineOperation('card.customerRecharge.statisticsNum', {
    handler: async (context) => {
      requireCardStaff(context);
      const where = new Conditions().scope(await cardScope(context), 's', BY_TENANT);
      const now = context.now;
      const [from, in30, in60] = [where.ref(now), where.ref(addDays(now, 30)), where.ref(addDays(now, 60))];
      const [cards] = await context.db.query<{ total: number; expiring30: number; expiring60: number; expired: number }>(
        `SELECT count(*)::int AS total,
                count(*) FILTER (WHERE s.expires_at > ${from} AND s.expires_at <= ${in30})::int AS expiring30,
                count(*) FILTER (WHERE s.expires_at > ${from} AND s.expires_at <= ${in60})::int AS expiring60,
                count(*) FILTER (WHERE s.expires_at <= ${from})::int AS expired
           FROM sim_card s WHERE ${where.sql} AND s.state IN ('active', 'suspended') AND s.expires_at IS NOT NULL`,
        where.params,
      );
      const orders = new Conditions().scope(await cardScope(context), 'c', BY_TENANT);
      // Confirmed this business year (from 1 January in the configured zone).
      const yearStart = orders.ref(startOfBusinessYear(wallClockOf(now, context.config.timeZone).year, context.config.timeZone));
      const [recharges] = await context.db.query<{ pending: number; paid: number; amount: string }>(
        `SELECT count(*) FILTER (WHERE c.state = 'pending_payment')::int AS pending, count(*) FILTER (WHERE c.state = 'paid')::int AS paid,
                COALESCE(sum(c.amount) FILTER (WHERE c.state = 'confirmed' AND c.confirmed_at >= ${yearStart}), 0) AS amount
           FROM card_recharge c WHERE ${orders.sql}`,
        orders.params,
      );
      return {
        totalCards: cards.total,
        expiring30: cards.expiring30,
        expiring60: cards.expiring60,
        expired: cards.expired,
        pendingPayment: recharges.pending,
        awaitingArrival: recharges.paid,
        rechargedThisYear: money(recharges.amount),
      };
    },
  }),

  // Is a recharge of the tenant waiting for payment? (The console asks before starting another.)
  defineOperation('card.customerRecharge.isHaveOrder', {
    handler: async (context) => {
      requireCardStaff(context);
      const steward = await stewardOf(context);
      if (steward.kind === 'platform') return { haveOrder: false, code: '', amount: null, state: '' };
      const [row] = await context.db.query<{ code: string; amount: string; state: string }>(
        `SELECT code, amount, state FROM card_recharge WHERE tenant_code = $1 AND state IN ('pending_payment', 'paid') ORDER BY created_at DESC LIMIT 1`,
        [steward.tenantCode],
      );
      return row ? { haveOrder: true, code: row.code, amount: money(row.amount), state: row.state } : { haveOrder: false, code: '', amount: null, state: '' };
    },
  }),

  // Does the amount the console shows still hold (prices may have changed since it was calculated)?
  defineOperation('card.customerRecharge.checkAmount', {
    paramSchema: objectOf({ iccids: iccidList(5000), years: yearsParam, amount: amountParam }, ['iccids', 'years', 'amount']),
    handler: async (context) => {
      requireCardStaff(context);
      const steward = await stewardOf(context);
      const cards = steward.kind === 'tenant' ? await rechargeableCards(context, steward.tenantCode, context.param.iccids) : null;
      const tenant = steward.kind === 'tenant' ? steward.tenantCode : null;
      if (!cards || !tenant) return { matched: false, amount: null, message: '请在租户组织下充值' };
      const calculation = await calculate(context.db, tenant, cards.map((card) => ({ iccid: card.iccid, packageCode: card.packageCode })), context.param.years);
      const matched = fenOf(calculation.amount) === fenOf(context.param.amount);
      return { matched, amount: calculation.amount, message: matched ? '金额一致' : `金额已变化，应付 ${yuan(fenOf(calculation.amount)).toFixed(2)} 元` };
    },
  }),

  // Pays online (WeChat Pay, Alipay): the order is confirmed at once and the cards extended.
  defineOperation('card.customerRecharge.paymentAmount', {
    paramSchema: paymentSchema({ paymentMethod: enumOf(ONLINE_PAYMENT_METHODS) }),
    handler: async (context) => createRecharge(context, context.param.paymentMethod ?? 'wechat'),
  }),

  // Pays by corporate transfer: the order waits for the voucher and the platform's arrival check.
  defineOperation('card.customerRecharge.corporatePaymentAmount', {
    paramSchema: paymentSchema({}),
    handler: async (context) => createRecharge(context, 'corporate'),
  }),

  defineOperation('card.customerRecharge.cancel', {
    paramSchema: objectOf({ code: codeParam(), reason: optionalPlainText(200) }, ['code']),
    handler: async (context) => cancelRecharge(context),
  }),

  // "1" when cards of the caller's tenant end within 30 days with no recharge or renewal under way.
  defineOperation('card.customerRecharge.isBulletBox', {
    handler: async (context): Promise<'0' | '1'> => {
      if (isPlatformStaff(context)) return '0';
      const steward = await stewardOf(context).catch(() => null);
      if (!steward || steward.kind !== 'tenant') return '0';
      const rows = await context.db.query(
        `SELECT 1 FROM sim_card s
          WHERE s.tenant_code = $1 AND s.state = 'active' AND s.expires_at > $2 AND s.expires_at <= $3
            AND ${UNFINISHED} IS NULL
            AND NOT EXISTS (SELECT 1 FROM card_renew r WHERE r.iccid = s.iccid AND r.expires_at = s.expires_at AND r.state IN ('confirmed', 'locked'))
          LIMIT 1`,
        [steward.tenantCode, context.now, addDays(context.now, EXPIRING_SOON_DAYS)],
      );
      return rows.length > 0 ? '1' : '0';
    },
  }),
];
