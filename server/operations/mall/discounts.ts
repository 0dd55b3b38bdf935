import type { Queryable } from '../../db/database';
import { businessSecond } from '../../domain/businessTime';
import { DISCOUNT_SCOPES, DISCOUNT_STATE_LABEL, DISCOUNT_STATES, DISCOUNT_TYPES, discountState, fenOf, ruleText, yuan, type DiscountRule, type DiscountState } from '../../domain/mall';
import { fail } from '../../http/envelope';
import { enumOf, enumParam, keywordParam, objectOf, optionalPlainText, plainText, schemaOf, type ParamOf, orNull, numberIn } from '../../core/params';
import { isoOrNull } from '../../core/values';
import { defineOperation } from '../../core/operation';
import { Conditions, containing, pageOf, type Listing } from '../../core/listQuery';
import { conflictOnClash } from '../../core/conflicts';
import { discountCodeParam, goodsCodeParam, loginNameOf, moneyParam, parseTime, requireMallStaff, timeParam } from './access';

/**
 * 优惠管理: the platform's discounts — 满减 or 折扣, over given goods or whole orders, within a
 * validity period. Their state (not yet started, running, ended) follows from the time.
 */

interface DiscountRow {
  id: number;
  code: string;
  name: string;
  type: 'amount' | 'rate';
  scope: 'goods' | 'order';
  goods_codes: string[];
  goods_names: string[] | null;
  threshold: string;
  reduce_amount: string | null;
  rate: string | null;
  start_at: Date;
  end_at: Date;
  remark: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  used_count: number;
}

/** A discount row as the amounts module reads it. */
export function ruleOf(row: Pick<DiscountRow, 'code' | 'name' | 'type' | 'scope' | 'goods_codes' | 'threshold' | 'reduce_amount' | 'rate'>): DiscountRule {
  return {
    code: row.code,
    name: row.name,
    type: row.type,
    scope: row.scope,
    goodsCodes: row.goods_codes,
    thresholdFen: fenOf(row.threshold),
    reduceFen: row.reduce_amount === null ? null : fenOf(row.reduce_amount),
    rate: row.rate === null ? null : Number(row.rate),
  };
}

/** A time as the date pickers show it, on the business zone's clock (China time by default). */
export function localTime(time: Date, timeZone: string): string {
  return businessSecond(time, timeZone);
}

function discountRecord(row: DiscountRow, now: Date, timeZone: string) {
  const rule = ruleOf(row);
  const state = discountState(row.start_at, row.end_at, now);
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    type: row.type,
    scope: row.scope,
    goodsCodes: row.goods_codes,
    goodsNames: (row.goods_names ?? []).join('、'),
    threshold: yuan(rule.thresholdFen),
    reduceAmount: rule.reduceFen === null ? null : yuan(rule.reduceFen),
    /** 折 (8.5 = 八五折). */
    rate: rule.rate === null ? null : Number((rule.rate * 10).toFixed(1)),
    ruleText: ruleText(rule),
    startTime: row.start_at.toISOString(),
    endTime: row.end_at.toISOString(),
    timeRange: [localTime(row.start_at, timeZone), localTime(row.end_at, timeZone)],
    state,
    stateName: DISCOUNT_STATE_LABEL[state],
    usedCount: row.used_count,
    remark: row.remark,
    createdBy: row.created_by,
    createTime: isoOrNull(row.created_at),
    updateTime: isoOrNull(row.updated_at),
  };
}
export type DiscountRecord = ReturnType<typeof discountRecord>;

const COLUMNS = `d.id, d.code, d.name, d.type, d.scope, d.goods_codes,
  (SELECT array_agg(g.name ORDER BY array_position(d.goods_codes, g.code)) FROM mall_goods g WHERE g.code = ANY(d.goods_codes)) AS goods_names,
  d.threshold, d.reduce_amount, d.rate, d.start_at, d.end_at, d.remark, d.created_by, d.created_at, d.updated_at,
  (SELECT count(*)::int FROM mall_order o WHERE o.discount_code = d.code) AS used_count`;

/** The discounts running at `now`, as rules. */
export async function runningRules(db: Queryable, now: Date): Promise<DiscountRule[]> {
  const rows = await db.query<DiscountRow>(`SELECT ${COLUMNS} FROM mall_discount d WHERE d.start_at <= $1 AND d.end_at > $1 ORDER BY d.code`, [now]);
  return rows.map(ruleOf);
}

/** The discount `code` ("404" 优惠不存在). */
const USED_REFUSES_DELETE = '已有订单使用该优惠，不能删除；可修改结束时间提前结束';

async function findDiscount(db: Queryable, code: string, now: Date, timeZone: string): Promise<DiscountRecord> {
  const [row] = await db.query<DiscountRow>(`SELECT ${COLUMNS} FROM mall_discount d WHERE d.code = $1`, [code]);
  if (!row) throw fail.notFound('优惠不存在');
  return discountRecord(row, now, timeZone);
}

type DiscountFields = ParamOf<typeof discountFields>;

const discountFields = objectOf(
  {
    name: plainText(64),
    type: enumOf(DISCOUNT_TYPES),
    scope: enumOf(DISCOUNT_SCOPES),
    goodsCodes: schemaOf<string[]>({ type: 'array', maxItems: 50, uniqueItems: true, items: goodsCodeParam }),
    threshold: orNull(moneyParam(0, 10_000_000)),
    reduceAmount: orNull(moneyParam(0.01, 10_000_000)),
    // 折: 1 (一折) to 9.9 (九九折)
    rate: orNull(numberIn(1, 9.9)),
    timeRange: schemaOf<[string, string]>({ type: 'array', minItems: 2, maxItems: 2, items: timeParam }),
    remark: optionalPlainText(200),
  },
  ['name', 'type', 'scope', 'timeRange'],
);

interface CheckedDiscount {
  name: string;
  type: 'amount' | 'rate';
  scope: 'goods' | 'order';
  goodsCodes: string[];
  thresholdFen: number;
  reduceFen: number | null;
  rate: number | null;
  startAt: Date;
  endAt: Date;
  remark: string;
}

/** The rule's own consistency and its goods ("400" naming what is wrong). */
async function checkDiscount(db: Queryable, fields: DiscountFields, timeZone: string): Promise<CheckedDiscount> {
  const startAt = parseTime(fields.timeRange[0], 'timeRange', timeZone);
  const endAt = parseTime(fields.timeRange[1], 'timeRange', timeZone);
  if (endAt.getTime() <= startAt.getTime()) throw fail.badField('timeRange（结束时间应晚于开始时间）');
  const thresholdFen = fenOf(fields.threshold ?? 0);
  let reduceFen: number | null = null;
  let rate: number | null = null;
  if (fields.type === 'amount') {
    if (!fields.reduceAmount) throw fail.badField('reduceAmount（满减优惠需要减免金额）');
    reduceFen = fenOf(fields.reduceAmount);
    if (thresholdFen > 0 && reduceFen >= thresholdFen) throw fail.badField('reduceAmount（减免金额应小于门槛金额）');
  } else {
    if (!fields.rate) throw fail.badField('rate（折扣优惠需要折扣）');
    rate = Math.round(fields.rate * 10) / 100;
  }
  let goodsCodes: string[] = [];
  if (fields.scope === 'goods') {
    goodsCodes = fields.goodsCodes ?? [];
    if (goodsCodes.length === 0) throw fail.badField('goodsCodes（指定商品优惠需要选择商品）');
    const found = await db.query<{ code: string }>('SELECT code FROM mall_goods WHERE code = ANY($1::text[]) AND deleted_at IS NULL', [goodsCodes]);
    const missing = goodsCodes.filter((code) => !found.some((row) => row.code === code));
    if (missing.length) throw fail.badField(`goodsCodes（商品 ${missing.join('、')} 不存在）`);
  }
  return { name: fields.name.trim(), type: fields.type, scope: fields.scope, goodsCodes, thresholdFen, reduceFen, rate, startAt, endAt, remark: fields.remark?.trim() ?? '' };
}

const LISTING: Listing<DiscountRow, DiscountRow> = {
  from: 'mall_discount d',
  columns: COLUMNS,
  sorts: { code: 'd.code', startTime: 'd.start_at', endTime: 'd.end_at', createTime: 'd.created_at', threshold: 'd.threshold' },
  fallback: 'd.start_at DESC, d.id DESC',
  record: (row) => row,
};

function stateCondition(where: Conditions, state: string | undefined, now: Date): Conditions {
  if (state === 'not_started') return where.add('d.start_at > $?', now);
  if (state === 'active') return where.add('d.start_at <= $?', now).add('d.end_at > $?', now);
  if (state === 'ended') return where.add('d.end_at <= $?', now);
  return where;
}

const codeOnly = objectOf({ code: discountCodeParam }, ['code']);

export const discountOperations = [
  defineOperation('mall.discount.page', {
    paramSchema: objectOf({ keyword: keywordParam, type: enumParam([...DISCOUNT_TYPES]), scope: enumParam([...DISCOUNT_SCOPES]), state: enumParam([...DISCOUNT_STATES]) }),
    handler: async (context) => {
      requireMallStaff(context);
      const filter = context.param;
      const where = new Conditions()
        .when(filter.keyword?.trim(), '(d.code ILIKE $? OR d.name ILIKE $? OR d.remark ILIKE $?)', (v) => containing(String(v)))
        .when(filter.type, 'd.type = $?')
        .when(filter.scope, 'd.scope = $?');
      stateCondition(where, filter.state as DiscountState | undefined, context.now);
      const page = await pageOf(context, LISTING, where);
      return { ...page, records: page.records.map((row) => discountRecord(row, context.now, context.config.timeZone)) };
    },
  }),

  defineOperation('mall.discount.detail', {
    paramSchema: codeOnly,
    handler: async (context) => {
      requireMallStaff(context);
      return findDiscount(context.db, context.param.code, context.now, context.config.timeZone);
    },
  }),

  defineOperation('mall.discount.insert', {
    paramSchema: objectOf({ discount: discountFields }, ['discount']),
    handler: async (context) => {
      requireMallStaff(context);
      const checked = await checkDiscount(context.db, context.param.discount, context.config.timeZone);
      if (checked.endAt.getTime() <= context.now.getTime()) throw fail.badField('timeRange（结束时间应晚于当前时间）');
      const code = await context.db.transaction(async (tx) => {
        const [{ last }] = await tx.query<{ last: number | null }>(`SELECT max(substring(code FROM 3)::int) AS last FROM mall_discount WHERE code ~ '^YH[0-9]{5}$'`);
        const next = `YH${String((last ?? 0) + 1).padStart(5, '0')}`;
        await conflictOnClash(
          () =>
            tx.query(
              `INSERT INTO mall_discount (code, name, type, scope, goods_codes, threshold, reduce_amount, rate, start_at, end_at, remark, created_by, created_at, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
              [next, checked.name, checked.type, checked.scope, checked.goodsCodes, yuan(checked.thresholdFen), checked.reduceFen === null ? null : yuan(checked.reduceFen), checked.rate,
                checked.startAt, checked.endAt, checked.remark, loginNameOf(context), context.now],
            ),
          { unique: '优惠编码冲突，请重试' },
        );
        return next;
      });
      return findDiscount(context.db, code, context.now, context.config.timeZone);
    },
  }),

  // An ended discount is history (orders name it); one running or ahead may change.
  defineOperation('mall.discount.modify', {
    paramSchema: objectOf({ code: discountCodeParam, discount: discountFields }, ['code', 'discount']),
    handler: async (context) => {
      requireMallStaff(context);
      const current = await findDiscount(context.db, context.param.code, context.now, context.config.timeZone);
      if (current.state === 'ended') throw fail.conflict(`当前状态（${DISCOUNT_STATE_LABEL.ended}）不允许修改`);
      const checked = await checkDiscount(context.db, context.param.discount, context.config.timeZone);
      await context.db.query(
        `UPDATE mall_discount SET name = $2, type = $3, scope = $4, goods_codes = $5, threshold = $6, reduce_amount = $7, rate = $8, start_at = $9, end_at = $10,
                remark = $11, updated_at = $12 WHERE code = $1`,
        [current.code, checked.name, checked.type, checked.scope, checked.goodsCodes, yuan(checked.thresholdFen), checked.reduceFen === null ? null : yuan(checked.reduceFen), checked.rate,
          checked.startAt, checked.endAt, checked.remark, context.now],
      );
      return findDiscount(context.db, current.code, context.now, context.config.timeZone);
    },
  }),

  // A discount orders were placed with stays (their amounts name it): end it early instead.
  defineOperation('mall.discount.delete', {
    paramSchema: codeOnly,
    handler: async (context) => {
      requireMallStaff(context);
      const current = await findDiscount(context.db, context.param.code, context.now, context.config.timeZone);
      if (current.usedCount > 0) throw fail.conflict(USED_REFUSES_DELETE);
      await context.db.transaction(async (tx) => {
        // Counted again under the lock: an order placed with it since the read keeps it.
        const [locked] = await tx.query<{ used: number }>(
          'SELECT (SELECT count(*)::int FROM mall_order o WHERE o.discount_code = d.code) AS used FROM mall_discount d WHERE d.code = $1 FOR UPDATE',
          [current.code],
        );
        if (!locked) throw fail.notFound('优惠不存在');
        if (locked.used > 0) throw fail.conflict(USED_REFUSES_DELETE);
        await tx.query('DELETE FROM mall_discount WHERE code = $1', [current.code]);
      });
      return { code: current.code };
    },
  }),
];
