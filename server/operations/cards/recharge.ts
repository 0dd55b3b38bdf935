import ExcelJS from 'exceljs';
import type { Queryable } from '../../db/database';
import { businessDay } from '../../domain/businessTime';
import {
  CARD_ACTIONS,
  CARD_STATE_LABEL,
  documentCode,
  PAYMENT_METHODS,
  RECHARGE_ACTIONS,
  RECHARGE_STATE,
  RECHARGE_STATE_LABEL,
  requireState,
  type RechargeState,
} from '../../domain/cards';
import { STORED_FILE_PATH } from '../../domain/files';
import { organizationsWithin } from '../../domain/organizations';
import { fail } from '../../http/envelope';
import { FileAnswer, XLSX_TYPE } from '../../http/spreadsheet';
import { exportFile } from '../../core/exports';
import { defineOperation } from '../../core/operation';
import { enumParam, keywordParam, objectOf, optionalPlainText, organizationParam, schemaOf } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { isPlatformStaff, actingTenant } from '../../core/access';
import { Conditions, containing } from '../../core/listQuery';
import { column, custom, derived, equals, listing, textColumn, type ItemOf } from '../../core/listing';
import { BY_TENANT } from '../../core/scope';
import { cardScope, codeParam, iccidList, loginNameOf, moneyColumn, nextId, nullableTimeColumn, requireCardStaff, yearsParam } from './access';
import { calculate, pricesFor, type Calculation } from './pricing';
import { findCards, type CardRecord } from './sims';
import { cardWorkflow } from './cardWorkflow';

/**
 * Recharge (充值订单): service years a tenant buys for its cards. Paid online it is confirmed at
 * once; by corporate transfer it waits for the transfer voucher (合同/凭证) and the platform's
 * check that the money arrived (刷新). Confirmation extends every card's service.
 */

const RECHARGES = listing({
  from: 'card_recharge c LEFT JOIN organization t ON t.code = c.tenant_code LEFT JOIN organization g ON g.code = c.organization_code',
  narrowFrom: 'card_recharge c',
  key: 'c.id',
  scope: async (where, context) => where.scope(await cardScope(context), 'c', BY_TENANT),
  filters: {
    keyword: custom(keywordParam, (where, keyword) => {
      where.add('(c.code ILIKE $? OR EXISTS (SELECT 1 FROM card_recharge_item i WHERE i.recharge_code = c.code AND i.iccid ILIKE $?))', containing(keyword));
    }),
    state: equals('c.state', enumParam(Object.values(RECHARGE_STATE))),
    paymentMethod: equals('c.payment_method', enumParam(PAYMENT_METHODS)),
    tenantCode: equals('c.tenant_code', organizationParam),
  },
  columns: {
    id: column<number>('c.id'),
    code: column<string>('c.code'),
    tenantCode: column<string>('c.tenant_code'),
    tenantName: textColumn('t.name'),
    organizationCode: column<string>('c.organization_code'),
    organizationName: textColumn('g.name'),
    state: column<RechargeState>('c.state'),
    paymentMethod: column<string>('c.payment_method'),
    corporate: column('c.payment_method', (method: string) => method === 'corporate'),
    years: column<number>('c.years'),
    cardCount: column<number>('c.card_count'),
    amount: moneyColumn('c.amount'),
    contractUrl: textColumn('c.contract_url'),
    createdBy: column<string>('c.created_by'),
    createTime: nullableTimeColumn('c.created_at'),
    payTime: nullableTimeColumn('c.paid_at'),
    confirmedBy: textColumn('c.confirmed_by'),
    confirmTime: nullableTimeColumn('c.confirmed_at'),
    cancelTime: nullableTimeColumn('c.cancelled_at'),
    cancelReason: textColumn('c.cancel_reason'),
  },
  sorts: ['code', 'createTime', 'amount', 'cardCount', 'confirmTime'],
  fallback: 'c.created_at DESC, c.id DESC',
});
export type RechargeRecord = ItemOf<typeof RECHARGES>;

const NOT_FOUND = '充值订单不存在';

export async function findRecharge(context: OperationContext<unknown>, code: string, db: Queryable = context.db): Promise<RechargeRecord> {
  const where = new Conditions().scope(await cardScope(context), 'c', BY_TENANT).add('c.code = $?', code);
  const recharge = await RECHARGES.find(context, where, '', db);
  if (!recharge) throw fail.notFound(NOT_FOUND);
  return recharge;
}

const RECHARGE = cardWorkflow({ table: 'card_recharge', labels: RECHARGE_STATE_LABEL, missing: NOT_FOUND, changed: '充值订单状态已变化，请刷新后重试', find: findRecharge });

/** The cards of a recharge, with what each costs and its service end before and after. */
const RECHARGE_ITEMS = listing({
  from: 'card_recharge_item i JOIN sim_card s ON s.iccid = i.iccid LEFT JOIN organization g ON g.code = s.organization_code LEFT JOIN card_charge_standard p ON p.code = s.package_code',
  filters: {},
  columns: {
    iccid: column<string>('i.iccid'),
    msisdn: column<string>('s.msisdn'),
    organizationName: textColumn('g.name'),
    packageName: textColumn('p.name'),
    unitPrice: moneyColumn('i.unit_price'),
    amount: moneyColumn('i.amount'),
    expireBefore: nullableTimeColumn('i.expires_before'),
    expireAfter: nullableTimeColumn('i.expires_after'),
  },
  sorts: [],
  fallback: 'i.iccid',
});

async function rechargeItems(context: OperationContext<unknown>, code: string) {
  return RECHARGE_ITEMS.findAll(context, new Conditions().add('i.recharge_code = $?', code), ' ORDER BY i.iccid');
}

/** Extends the service of every card of a recharge from its end (or from now, when it has ended). */
export async function applyRecharge(db: Queryable, code: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE card_recharge_item i SET expires_before = s.expires_at,
            expires_after = GREATEST(COALESCE(s.expires_at, $2::timestamptz), $2::timestamptz) + make_interval(years => c.years)
       FROM sim_card s, card_recharge c WHERE i.recharge_code = $1 AND c.code = i.recharge_code AND s.iccid = i.iccid`,
    [code, now],
  );
  await db.query(
    `UPDATE sim_card s SET expires_at = i.expires_after,
            state = CASE WHEN s.state = 'suspended' AND s.cease_reason = 'expired' THEN 'active' ELSE s.state END,
            suspended_at = CASE WHEN s.state = 'suspended' AND s.cease_reason = 'expired' THEN NULL ELSE s.suspended_at END,
            cease_reason = CASE WHEN s.state = 'suspended' AND s.cease_reason = 'expired' THEN NULL ELSE s.cease_reason END,
            updated_at = $2
       FROM card_recharge_item i WHERE i.recharge_code = $1 AND s.iccid = i.iccid AND s.state IN ('active', 'suspended')`,
    [code, now],
  );
}

/** The cards of a recharge: in scope, of the acting tenant, rechargeable and in no unfinished recharge. */
export async function rechargeableCards(context: OperationContext<unknown>, tenant: string, iccids: readonly string[]): Promise<CardRecord[]> {
  const cards = await findCards(context, iccids);
  for (const card of cards) {
    if (card.tenantCode !== tenant) throw fail.notFound('物联网卡不存在');
    requireState(card.state, CARD_ACTIONS.recharge, CARD_STATE_LABEL, `充值（${card.iccid}）`);
  }
  await refuseBusyCards(context.db, iccids);
  return cards;
}

/** "409" when one of the cards is in an unfinished recharge (the first in the caller's order, whichever plan the database picks). */
async function refuseBusyCards(db: Queryable, iccids: readonly string[]): Promise<void> {
  const [busy] = await db.query<{ iccid: string; code: string }>(
    `SELECT i.iccid, c.code FROM card_recharge_item i JOIN card_recharge c ON c.code = i.recharge_code
      WHERE i.iccid = ANY($1::text[]) AND c.state IN ('pending_payment', 'paid')
      ORDER BY array_position($1::text[], i.iccid), c.code LIMIT 1`,
    [[...iccids]],
  );
  if (busy) throw fail.conflict(`卡片 ${busy.iccid} 已在未完成的充值订单 ${busy.code} 中`);
}

/**
 * Locks the cards of a recharge being created and checks them again: a recharge created since they
 * were read (the same cards, at the same time) has made them busy, or a step has moved their state.
 */
async function lockRechargeable(tx: Queryable, iccids: readonly string[]): Promise<void> {
  const rows = await tx.query<{ iccid: string; state: string }>('SELECT iccid, state FROM sim_card WHERE iccid = ANY($1::text[]) ORDER BY iccid FOR UPDATE', [[...iccids]]);
  const states = new Map(rows.map((row) => [row.iccid, row.state]));
  for (const iccid of iccids) requireState(states.get(iccid) ?? '', CARD_ACTIONS.recharge, CARD_STATE_LABEL, `充值（${iccid}）`);
  await refuseBusyCards(tx, iccids);
}

/** The tenant of a set of cards (one tenant, or "409"). */
export function tenantOfCards(cards: readonly CardRecord[]): string {
  const tenants = new Set(cards.map((card) => card.tenantCode));
  if (tenants.size !== 1 || tenants.has('')) throw fail.conflict('所选卡片须属于同一租户');
  return [...tenants][0];
}

export interface RechargeRequest {
  iccids: string[];
  years: number;
  amount?: number;
}

/** Creates a recharge order for the acting tenant; online payment confirms it at once. */
export async function createRecharge(context: OperationContext<RechargeRequest>, paymentMethod: (typeof PAYMENT_METHODS)[number]): Promise<RechargeRecord & { calculation: Calculation }> {
  const tenant = await actingTenant(context);
  const cards = await rechargeableCards(context, tenant, context.param.iccids);
  const calculation = await calculate(context.db, tenant, cards.map((card) => ({ iccid: card.iccid, packageCode: card.packageCode })), context.param.years);
  if (context.param.amount !== undefined && Math.round(context.param.amount * 100) !== Math.round(calculation.amount * 100)) {
    throw fail.conflict(`充值金额已变化，请重新计算（应付 ${calculation.amount.toFixed(2)} 元）`);
  }
  const owners = new Set(cards.map((card) => card.organizationCode));
  const owner = owners.size === 1 ? [...owners][0] : tenant;
  const online = paymentMethod !== 'corporate';
  const code = await context.db.transaction(async (tx) => {
    await lockRechargeable(tx, context.param.iccids);
    const id = await nextId(tx, 'card_recharge');
    const rechargeCode = documentCode('CZ', context.now, id, context.config.timeZone);
    await tx.query(
      `INSERT INTO card_recharge (id, code, tenant_code, organization_code, state, payment_method, years, card_count, amount, created_by, created_at, paid_at, confirmed_by, confirmed_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $12, $11)`,
      [id, rechargeCode, tenant, owner, online ? RECHARGE_STATE.confirmed : RECHARGE_STATE.pendingPayment, paymentMethod, context.param.years, cards.length, calculation.amount,
        loginNameOf(context), context.now, online ? context.now : null, online ? loginNameOf(context) : null],
    );
    await tx.query(
      `INSERT INTO card_recharge_item (recharge_code, iccid, unit_price, amount, expires_before)
       SELECT $1, x.iccid, x.unit_price, x.amount, s.expires_at FROM json_to_recordset($2::json) AS x (iccid text, unit_price numeric, amount numeric) JOIN sim_card s ON s.iccid = x.iccid`,
      [rechargeCode, JSON.stringify(calculation.cards.map((card) => ({ iccid: card.iccid, unit_price: card.unitPrice, amount: card.amount })))],
    );
    if (online) await applyRecharge(tx, rechargeCode, context.now);
    return rechargeCode;
  });
  return { ...(await findRecharge(context, code)), calculation };
}

/** Cancels an order not yet paid. */
export async function cancelRecharge(context: OperationContext<{ code: string; reason?: string }>): Promise<RechargeRecord> {
  return RECHARGE.step(context, context.param.code, RECHARGE_ACTIONS.cancel, '取消', (tx, recharge) =>
    RECHARGE.move(tx, recharge.code, {
      from: [RECHARGE_STATE.pendingPayment],
      to: RECHARGE_STATE.cancelled,
      set: { cancelled_at: context.now, cancel_reason: context.param.reason?.trim() || `${loginNameOf(context)} 取消`, updated_at: context.now },
      refuseMoved: true,
    }),
  );
}

/** A card as a choice of the recharge form. */
const CARD_OPTIONS = listing({
  from: 'sim_card s LEFT JOIN organization g ON g.code = s.organization_code LEFT JOIN card_charge_standard p ON p.code = s.package_code',
  filters: {},
  columns: {
    iccid: column<string>('s.iccid'),
    msisdn: column<string>('s.msisdn'),
    label: derived(
      (row, context) => `${String(row.iccid)} · ${(row.organizationName as string | null) ?? ''} · 到期 ${row.expireTime ? businessDay(row.expireTime as Date, context.config.timeZone) : '—'}`,
    ),
    organizationName: textColumn('g.name'),
    packageName: textColumn('p.name'),
    expireTime: nullableTimeColumn('s.expires_at'),
  },
  sorts: [],
  fallback: 's.expires_at, s.iccid',
});
export type CardOption = ItemOf<typeof CARD_OPTIONS>;

/** The cards of `where` a recharge may take (in service or suspended, of a tenant, with an end, in no unfinished recharge), the nearest end first. */
async function cardOptions(context: OperationContext<unknown>, where: Conditions, limit: number): Promise<CardOption[]> {
  where
    .add("s.state IN ('active', 'suspended')")
    .add('s.tenant_code IS NOT NULL')
    .add('s.expires_at IS NOT NULL')
    .add("NOT EXISTS (SELECT 1 FROM card_recharge_item i JOIN card_recharge c ON c.code = i.recharge_code WHERE i.iccid = s.iccid AND c.state IN ('pending_payment', 'paid'))");
  return CARD_OPTIONS.findAll(context, where, ` ORDER BY s.expires_at, s.iccid LIMIT ${limit}`);
}

/** The confirmation letter (充值确认函) of a paid recharge, as a workbook; its dates are business days (of `timeZone`). */
async function confirmationLetter(recharge: RechargeRecord, items: Awaited<ReturnType<typeof rechargeItems>>, now: Date, timeZone: string): Promise<FileAnswer> {
  const dayOf = (iso: string | null) => (iso ? businessDay(new Date(iso), timeZone) : '—');
  const workbook = new ExcelJS.Workbook();
  workbook.created = now;
  const sheet = workbook.addWorksheet('充值确认函');
  sheet.columns = [{ width: 26 }, { width: 16 }, { width: 22 }, { width: 24 }, { width: 14 }, { width: 14 }, { width: 14 }];
  sheet.addRow(['物联网卡服务充值确认函']).font = { bold: true, size: 16 };
  sheet.addRow([]);
  sheet.addRow([`致：${recharge.tenantName}`]);
  sheet.addRow([`兹确认贵司充值订单 ${recharge.code} 已${recharge.state === RECHARGE_STATE.confirmed ? '到账并生效' : '付款，待到账确认'}，明细如下：`]);
  sheet.addRow([`充值年限：${recharge.years} 年    卡片数量：${recharge.cardCount} 张    合计金额：¥${(recharge.amount ?? 0).toFixed(2)}`]);
  sheet.addRow([`支付方式：${recharge.corporate ? '对公转账' : '在线支付'}    付款时间：${dayOf(recharge.payTime)}    确认时间：${dayOf(recharge.confirmTime)}`]);
  sheet.addRow([]);
  const header = sheet.addRow(['ICCID', 'MSISDN', '组织', '资费套餐', '单价（元/年）', '金额（元）', '服务到期']);
  header.font = { bold: true };
  for (const item of items) sheet.addRow([item.iccid, item.msisdn, item.organizationName, item.packageName, item.unitPrice, item.amount, item.expireAfter ? new Date(item.expireAfter) : null]);
  sheet.addRow([]);
  sheet.addRow(['云联物联网平台（盖章）']);
  sheet.addRow([`日期：${businessDay(now, timeZone)}`]);
  return new FileAnswer(`充值确认函-${recharge.code}.xlsx`, XLSX_TYPE, Buffer.from(await workbook.xlsx.writeBuffer()));
}

const codeOnly = objectOf({ code: codeParam() }, ['code']);
const cardOptionFilter = { keyword: keywordParam, expiry: enumParam(['expiring30', 'expiring60', 'expired']) };

export const rechargeOperations = [
  defineOperation('card.rechargeOrder.page', {
    paramSchema: RECHARGES.paramSchema,
    handler: async (context) => {
      requireCardStaff(context);
      return RECHARGES.page(context);
    },
  }),

  defineOperation('card.rechargeOrder.detail', {
    paramSchema: codeOnly,
    handler: async (context) => {
      requireCardStaff(context);
      const recharge = await findRecharge(context, context.param.code);
      return { ...recharge, items: await rechargeItems(context, recharge.code) };
    },
  }),

  defineOperation('card.rechargeOrder.cancel', {
    paramSchema: objectOf({ code: codeParam(), reason: optionalPlainText(200) }, ['code']),
    handler: async (context) => cancelRecharge(context),
  }),

  defineOperation('card.rechargeOrder.export', {
    paramSchema: RECHARGES.paramSchema,
    handler: async (context) => {
      requireCardStaff(context);
      const rows = await RECHARGES.rows(context);
      const METHOD: Record<string, string> = { wechat: '微信支付', alipay: '支付宝', corporate: '对公转账' };
      return exportFile(
        context,
        '充值订单',
        [
          { title: '充值单号', value: (r: RechargeRecord) => r.code },
          { title: '租户', value: (r) => r.tenantName, width: 28 },
          { title: '组织', value: (r) => r.organizationName, width: 20 },
          { title: '卡数', value: (r) => r.cardCount },
          { title: '年限', value: (r) => r.years },
          { title: '金额（元）', value: (r) => r.amount },
          { title: '支付方式', value: (r) => METHOD[r.paymentMethod] ?? r.paymentMethod },
          { title: '状态', value: (r) => RECHARGE_STATE_LABEL[r.state] },
          { title: '创建时间', value: (r) => (r.createTime ? new Date(r.createTime) : null) },
          { title: '确认时间', value: (r) => (r.confirmTime ? new Date(r.confirmTime) : null) },
        ],
        rows,
      );
    },
  }),

  // The service terms on sale (the recharge form's choices), for the caller's tenant.
  defineOperation('card.recharge.yearList', {
    handler: async (context) => {
      requireCardStaff(context);
      const rows = await context.db.query<{ years: number }>('SELECT DISTINCT unnest(years) AS years FROM card_charge_standard WHERE enabled ORDER BY years');
      return rows.map((row) => ({ value: Number(row.years), label: `${row.years} 年` }));
    },
  }),

  // The terms a package is sold for, and its price for the tenant.
  defineOperation('card.recharge.standardYears', {
    paramSchema: objectOf({ packageCode: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 64 }), tenantCode: organizationParam }, ['packageCode']),
    handler: async (context) => {
      requireCardStaff(context);
      const tenant = isPlatformStaff(context) ? (context.param.tenantCode ?? '') : await actingTenant(context);
      const prices = await pricesFor(context.db, tenant, [context.param.packageCode]);
      const price = prices.get(context.param.packageCode);
      if (!price) throw fail.notFound('资费标准不存在');
      return { packageCode: context.param.packageCode, standardCode: price.standardCode, standardName: price.standardName, unitPrice: price.unitPrice, years: price.years };
    },
  }),

  // The projects whose cards may be recharged, with how many and how many end within 30 days.
  defineOperation('card.recharge.projectList', {
    handler: async (context) => {
      requireCardStaff(context);
      const where = new Conditions().scope(await cardScope(context), 's', BY_TENANT);
      const now = where.ref(context.now);
      const rows = await context.db.query<{ code: string; name: string; tenant_name: string; cards: number; expiring: number }>(
        `SELECT pr.code, pr.name, t.name AS tenant_name, count(*)::int AS cards,
                count(*) FILTER (WHERE s.expires_at <= ${now}::timestamptz + interval '30 days')::int AS expiring
           FROM sim_card s JOIN organization pr ON pr.type = 3 AND s.organization_code LIKE pr.code || '%' JOIN organization t ON t.code = s.tenant_code
          WHERE ${where.sql} AND s.state IN ('active', 'suspended') AND s.expires_at IS NOT NULL
          GROUP BY pr.code, pr.name, t.name ORDER BY pr.code`,
        where.params,
      );
      return rows.map((row) => ({ organizationCode: row.code, organizationName: row.name, tenantName: row.tenant_name, label: `${row.name}（${row.cards} 张）`, cardCount: row.cards, expiringCount: row.expiring }));
    },
  }),

  defineOperation('card.recharge.projectCard', {
    paramSchema: objectOf({ organizationCode: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9]+$' }), keyword: keywordParam }, ['organizationCode']),
    handler: async (context) => {
      requireCardStaff(context);
      const within = (await organizationsWithin(context.db, [context.param.organizationCode])).map((org) => org.code);
      const where = new Conditions().scope(await cardScope(context), 's', BY_TENANT).add('s.organization_code = ANY($?::text[])', within).when(context.param.keyword, '(s.iccid ILIKE $? OR s.msisdn ILIKE $?)', (v) => containing(String(v)));
      return cardOptions(context, where, 1000);
    },
  }),

  defineOperation('card.recharge.allCard', {
    paramSchema: objectOf(cardOptionFilter),
    handler: async (context) => {
      requireCardStaff(context);
      const where = new Conditions().scope(await cardScope(context), 's', BY_TENANT).when(context.param.keyword, '(s.iccid ILIKE $? OR s.msisdn ILIKE $?)', (v) => containing(String(v)));
      if (context.param.expiry === 'expired') where.add('s.expires_at <= $?', context.now);
      else if (context.param.expiry) where.add(`s.expires_at <= $?::timestamptz + interval '${context.param.expiry === 'expiring30' ? 30 : 60} days'`, context.now);
      return cardOptions(context, where, 500);
    },
  }),

  // What `years` more service costs for the cards, package by package.
  defineOperation('card.recharge.calculateAmount', {
    paramSchema: objectOf({ iccids: iccidList(5000), years: yearsParam }, ['iccids', 'years']),
    handler: async (context) => {
      requireCardStaff(context);
      const cards = await findCards(context, context.param.iccids);
      const tenant = tenantOfCards(cards);
      const calculation = await calculate(context.db, tenant, cards.map((card) => ({ iccid: card.iccid, packageCode: card.packageCode })), context.param.years);
      return { tenantCode: tenant, cardCount: calculation.cardCount, years: calculation.years, amount: calculation.amount, lines: calculation.lines };
    },
  }),

  // The tenant's transfer voucher or signed contract for a corporate-transfer recharge: it is then paid.
  defineOperation('card.recharge.contractUpload', {
    paramSchema: objectOf({ code: codeParam(), contractUrl: schemaOf<string>({ type: 'string', maxLength: 200, pattern: STORED_FILE_PATH.source }) }, ['code', 'contractUrl']),
    handler: async (context) => {
      const recharge = await findRecharge(context, context.param.code);
      if (!recharge.corporate) throw fail.conflict('在线支付的订单无需上传合同');
      RECHARGE.require(recharge, RECHARGE_ACTIONS.uploadContract, '上传合同');
      const [file] = await context.db.query<{ content_type: string }>('SELECT content_type FROM uploaded_file WHERE path = $1', [context.param.contractUrl]);
      if (!file) throw fail.badRequest('参数错误：contractUrl（文件不存在）');
      if (!['application/pdf', 'image/jpeg', 'image/png'].includes(file.content_type)) throw fail.badRequest('参数错误：contractUrl（仅支持 PDF、JPEG、PNG）');
      // A cancellation or an arrival check since the read decides: a cancelled order is not paid by a late voucher.
      await RECHARGE.take(context, recharge, RECHARGE_ACTIONS.uploadContract, '上传合同', async (tx) => {
        await tx.query(`UPDATE card_recharge SET contract_url = $2, state = $3, paid_at = COALESCE(paid_at, $4), updated_at = $4 WHERE code = $1 AND state = ANY($5::text[])`, [
          recharge.code,
          context.param.contractUrl,
          RECHARGE_STATE.paid,
          context.now,
          [...RECHARGE_ACTIONS.uploadContract],
        ]);
      });
      return findRecharge(context, recharge.code);
    },
  }),

  // The platform checks the transfer arrived: the order is confirmed and the cards extended.
  defineOperation('card.recharge.refresh', {
    paramSchema: codeOnly,
    handler: async (context) => {
      if (!isPlatformStaff(context)) throw fail.forbidden();
      return RECHARGE.step(context, context.param.code, RECHARGE_ACTIONS.refresh, '到账确认', async (tx, recharge) => {
        await RECHARGE.move(tx, recharge.code, {
          from: [RECHARGE_STATE.paid],
          to: RECHARGE_STATE.confirmed,
          set: { confirmed_by: loginNameOf(context), confirmed_at: context.now, updated_at: context.now },
          refuseMoved: true,
        });
        await applyRecharge(tx, recharge.code, context.now);
      });
    },
  }),

  defineOperation('card.recharge.generateConfirmation', {
    paramSchema: codeOnly,
    handler: async (context) => {
      const recharge = await findRecharge(context, context.param.code);
      RECHARGE.require(recharge, RECHARGE_ACTIONS.confirmationLetter, '生成确认函');
      return confirmationLetter(recharge, await rechargeItems(context, recharge.code), context.now, context.config.timeZone);
    },
  }),
];

export { rechargeItems };
