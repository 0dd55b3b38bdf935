import type { Queryable } from '../../db/database';
import { sanitizeHtml } from '../../domain/html';
import { discountFen, GOODS_CATEGORIES, GOODS_STATE, GOODS_STATE_LABEL, isBuiltInPicture, moneyOf, ruleText, type DiscountRule } from '../../domain/mall';
import { requireState } from '../../domain/cards';
import { fail } from '../../http/envelope';
import { isPlatformStaff } from '../../core/access';
import { enumOf, enumParam, keywordParam, objectOf, optionalPlainText, plainText, schemaOf, sortOrder, orNull, textMatching, integerIn } from '../../core/params';
import { isoOrNull } from '../../core/values';
import { defineOperation } from '../../core/operation';
import type { OperationContext } from '../../core/context';
import { Conditions, containing, exportOf, pageOf, type Listing } from '../../core/listQuery';
import { conflictOnClash } from '../../core/conflicts';
import { goodsCodeParam, imageParam, loginNameOf, moneyParam, requireMallReader, requireMallStaff } from './access';
import { runningRules } from './discounts';

/**
 * 商品: what the platform sells — devices (each with its built-in IoT card), IoT card packages
 * and services — with price, stock, pictures and the shelf. Tenants see what is on the shelf;
 * platform staff manage everything.
 */

interface GoodsRow {
  id: number;
  code: string;
  name: string;
  category: string;
  model: string;
  spec: string;
  unit: string;
  price: string;
  market_price: string | null;
  stock: number;
  sales: number;
  freight: string;
  images: string[];
  description: string;
  card_custom_code: string | null;
  card_custom_name: string | null;
  cards_per_unit: number;
  state: string;
  sort: number;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  shelved_at: Date | null;
}

const COLUMNS = `g.id, g.code, g.name, g.category, g.model, g.spec, g.unit, g.price, g.market_price, g.stock, g.sales, g.freight, g.images, g.description,
  g.card_custom_code, c.name AS card_custom_name, g.cards_per_unit, g.state, g.sort, g.created_by, g.created_at, g.updated_at, g.shelved_at`;
const FROM = 'mall_goods g LEFT JOIN card_custom c ON c.code = g.card_custom_code';

/** What a goods' running discounts say, as tags: 满2000减200. */
function discountTags(code: string, rules: readonly DiscountRule[]): string[] {
  return rules.filter((rule) => rule.scope === 'order' || rule.goodsCodes.includes(code)).map((rule) => ruleText(rule));
}

function goodsSummary(row: GoodsRow, rules: readonly DiscountRule[]) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    category: row.category,
    model: row.model,
    spec: row.spec,
    unit: row.unit,
    price: moneyOf(row.price),
    marketPrice: row.market_price === null ? null : moneyOf(row.market_price),
    stock: row.stock,
    sales: row.sales,
    freight: moneyOf(row.freight),
    coverImage: row.images[0] ?? '',
    cardCustomCode: row.card_custom_code ?? '',
    cardCustomName: row.card_custom_name ?? '',
    cardsPerUnit: row.cards_per_unit,
    state: row.state,
    stateName: GOODS_STATE_LABEL[row.state] ?? row.state,
    sort: row.sort,
    discountTags: discountTags(row.code, rules),
    createdBy: row.created_by,
    createTime: isoOrNull(row.created_at),
    updateTime: isoOrNull(row.updated_at),
    shelfTime: isoOrNull(row.shelved_at),
  };
}
export type GoodsSummary = ReturnType<typeof goodsSummary>;

/** The goods `code`: platform staff find any not deleted, a tenant only what is on the shelf. */
async function findGoods(context: OperationContext<unknown>, code: string, db: Queryable = context.db): Promise<GoodsRow> {
  const where = new Conditions().add('g.deleted_at IS NULL').add('g.code = $?', code);
  if (!isPlatformStaff(context)) where.add('g.state = $?', GOODS_STATE.onShelf);
  const [row] = await db.query<GoodsRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE ${where.sql}`, where.params);
  if (!row) throw fail.notFound('商品不存在或已下架');
  return row;
}

/** The goods `code` as they are now, locked until the transaction ends ("404" when deleted meanwhile). */
async function lockGoods(tx: Queryable, code: string): Promise<{ state: string; stock: number; updated_at: Date }> {
  const [row] = await tx.query<{ state: string; stock: number; updated_at: Date }>('SELECT state, stock, updated_at FROM mall_goods WHERE code = $1 AND deleted_at IS NULL FOR UPDATE', [code]);
  if (!row) throw fail.notFound('商品不存在或已下架');
  return row;
}

const GOODS_CHANGED = '商品已被他人修改（库存可能已被订单占用），请刷新后重试';

/** "409" when the goods in `current` may not go on (or off) the shelf. */
function checkShelf(current: { state: string; stock: number }, onShelf: boolean): void {
  if (onShelf) {
    requireState(current.state, [GOODS_STATE.offShelf], GOODS_STATE_LABEL, '上架');
    if (current.stock <= 0) throw fail.conflict('库存为 0 的商品不能上架，请先补充库存');
  } else {
    requireState(current.state, [GOODS_STATE.onShelf], GOODS_STATE_LABEL, '下架');
  }
}

const ON_SHELF_NEEDS_STOCK = '上架中的商品库存不能为 0，请先下架';

async function goodsDetail(context: OperationContext<unknown>, code: string) {
  const row = await findGoods(context, code);
  const rules = await runningRules(context.db, context.now);
  const covering = rules.filter((rule) => rule.scope === 'order' || rule.goodsCodes.includes(row.code));
  const price = Math.round(Number(row.price) * 100);
  return {
    ...goodsSummary(row, rules),
    images: row.images,
    description: row.description,
    discounts: covering.map((rule) => ({
      code: rule.code,
      name: rule.name,
      scope: rule.scope,
      type: rule.type,
      ruleText: ruleText(rule),
      // what one unit alone would save (null when one unit does not reach the threshold)
      saving: (() => {
        const fen = discountFen(rule, [{ goodsCode: row.code, unitPriceFen: price, quantity: 1, freightFen: 0 }]);
        return fen === null ? null : fen / 100;
      })(),
    })),
  };
}

interface GoodsFilter {
  keyword?: string;
  category?: string;
  state?: string;
}

interface GoodsFields {
  name: string;
  category: (typeof GOODS_CATEGORIES)[number];
  model?: string;
  spec?: string;
  unit: string;
  price: number;
  marketPrice?: number | null;
  stock: number;
  freight?: number | null;
  images: string[];
  description?: string;
  cardCustomCode?: string | null;
  cardsPerUnit?: number | null;
  sort?: number | null;
  /**
   * The goods' updateTime as the editor loaded it: the save is refused ("409") when the goods
   * changed since, an order taking stock included, so an edit never writes back a stock that
   * orders have already taken from (the form sends it; an integrator may leave it out).
   */
  updateTime?: string | null;
}

const goodsFields = objectOf(
  {
    name: plainText(64),
    category: enumOf(GOODS_CATEGORIES),
    model: optionalPlainText(64),
    spec: optionalPlainText(128),
    unit: plainText(8),
    price: moneyParam(0.01, 9_999_999),
    marketPrice: orNull(moneyParam(0.01, 9_999_999)),
    stock: schemaOf<number>({ type: 'integer', minimum: 0, maximum: 1_000_000 }),
    freight: orNull(moneyParam(0, 10_000)),
    images: schemaOf<string[]>({ type: 'array', minItems: 1, maxItems: 6, items: imageParam }),
    description: schemaOf<string>({ type: 'string', maxLength: 20_000 }),
    cardCustomCode: orNull(textMatching(40, '^[A-Za-z0-9-]*$')),
    cardsPerUnit: orNull(integerIn(0, 1000)),
    sort: sortOrder,
    updateTime: orNull(textMatching(40, '^\\d{4}-\\d{2}-\\d{2}T[0-9:.]+(Z|[+-]\\d{2}:\\d{2})$')),
  },
  ['name', 'category', 'unit', 'price', 'stock', 'images'],
);

interface CheckedGoods {
  priceFen: number;
  marketPriceFen: number | null;
  freightFen: number;
  images: string[];
  description: string;
  cardCustomCode: string | null;
  cardsPerUnit: number;
}

/** Prices, pictures and the bundled card checked ("400" naming the field). */
async function checkGoods(db: Queryable, fields: GoodsFields, currentImages: readonly string[]): Promise<CheckedGoods> {
  const priceFen = Math.round(fields.price * 100);
  const marketPriceFen = fields.marketPrice === null || fields.marketPrice === undefined ? null : Math.round(fields.marketPrice * 100);
  if (marketPriceFen !== null && marketPriceFen < priceFen) throw fail.badField('marketPrice（划线价不能低于售价）');
  const images = [...new Set(fields.images)];
  const uploads = images.filter((url) => !isBuiltInPicture(url));
  if (images.some((url) => isBuiltInPicture(url) && !currentImages.includes(url))) throw fail.badField('images（请上传商品图片）');
  if (uploads.length) {
    const found = await db.query<{ path: string }>(`SELECT path FROM uploaded_file WHERE path = ANY($1::text[]) AND content_type LIKE 'image/%'`, [uploads]);
    if (found.length !== uploads.length) throw fail.badField('images（图片不存在，请重新上传）');
    // Goods pictures are for everyone who opens the mall, signed in or not (issue 18, finding 9).
    await db.query('UPDATE uploaded_file SET public = true WHERE path = ANY($1::text[]) AND NOT public', [uploads]);
  }
  const custom = fields.cardCustomCode?.trim() || null;
  let cardsPerUnit = fields.cardsPerUnit ?? 0;
  if (custom) {
    const [row] = await db.query<{ code: string }>('SELECT code FROM card_custom WHERE code = $1', [custom]);
    if (!row) throw fail.badField('cardCustomCode（定制卡不存在）');
    if (fields.category === 'service') throw fail.badField('cardCustomCode（服务类商品不随货发卡）');
    if (cardsPerUnit < 1) throw fail.badField('cardsPerUnit（随货卡数应大于 0）');
  } else {
    if (fields.category === 'card') throw fail.badField('cardCustomCode（物联网卡套餐需要选择定制卡）');
    cardsPerUnit = 0;
  }
  return {
    priceFen,
    marketPriceFen,
    freightFen: Math.round((fields.freight ?? 0) * 100),
    images,
    description: sanitizeHtml(fields.description ?? ''),
    cardCustomCode: custom,
    cardsPerUnit,
  };
}

const LISTING: Listing<GoodsRow, GoodsRow> = {
  from: FROM,
  narrowFrom: 'mall_goods g',
  key: 'g.id',
  columns: COLUMNS,
  sorts: { code: 'g.code', name: 'g.name', price: 'g.price', stock: 'g.stock', sales: 'g.sales', createTime: 'g.created_at', updateTime: 'g.updated_at', sort: 'g.sort' },
  fallback: 'g.sort, g.id',
  record: (row) => row,
};

function goodsConditions(context: OperationContext<GoodsFilter>): Conditions {
  const filter = context.param;
  const where = new Conditions()
    .add('g.deleted_at IS NULL')
    .when(filter.keyword?.trim(), '(g.code ILIKE $? OR g.name ILIKE $? OR g.model ILIKE $? OR g.spec ILIKE $?)', (v) => containing(String(v)))
    .when(filter.category, 'g.category = $?');
  // A tenant shops from the shelf; platform staff manage both.
  if (!isPlatformStaff(context)) where.add('g.state = $?', GOODS_STATE.onShelf);
  else where.when(filter.state, 'g.state = $?');
  return where;
}

const yuanOf = (fen: number | null): number | null => (fen === null ? null : fen / 100);
const codeOnly = objectOf({ code: goodsCodeParam }, ['code']);

export const goodsOperations = [
  defineOperation('mall.goods.page', {
    paramSchema: objectOf({ keyword: keywordParam, category: enumParam([...GOODS_CATEGORIES]), state: enumParam(Object.values(GOODS_STATE)) }),
    handler: async (context) => {
      requireMallReader(context);
      const page = await pageOf(context, LISTING, goodsConditions(context));
      const rules = await runningRules(context.db, context.now);
      return { ...page, records: page.records.map((row) => goodsSummary(row, rules)) };
    },
  }),

  // The goods a discount may name (the discount form's choices).
  defineOperation('mall.goods.list', {
    paramSchema: objectOf({ keyword: keywordParam }),
    handler: async (context) => {
      requireMallReader(context);
      // The goods list's own rows (its order, at most 500), as a picker takes them.
      const rows = await exportOf(context, LISTING, goodsConditions(context as OperationContext<GoodsFilter>), 500);
      return rows.map((row) => ({
        code: row.code,
        name: row.name,
        label: `${row.name}（${row.code}，¥${moneyOf(row.price)}${row.state === GOODS_STATE.offShelf ? '，已下架' : ''}）`,
        category: row.category,
        price: moneyOf(row.price),
        state: row.state,
      }));
    },
  }),

  defineOperation('mall.goods.detail', {
    paramSchema: codeOnly,
    handler: async (context) => {
      requireMallReader(context);
      return goodsDetail(context, context.param.code);
    },
  }),

  // New goods wait off the shelf until they are put on it.
  defineOperation('mall.goods.insert', {
    paramSchema: objectOf({ goods: goodsFields }, ['goods']),
    handler: async (context) => {
      requireMallStaff(context);
      const fields = context.param.goods;
      const checked = await checkGoods(context.db, fields, []);
      const code = await context.db.transaction(async (tx) => {
        const [{ last }] = await tx.query<{ last: number | null }>(`SELECT max(substring(code FROM 3)::int) AS last FROM mall_goods WHERE code ~ '^GD[0-9]{5}$'`);
        const next = `GD${String((last ?? 0) + 1).padStart(5, '0')}`;
        await conflictOnClash(
          () =>
            tx.query(
              `INSERT INTO mall_goods (code, name, category, model, spec, unit, price, market_price, stock, freight, images, description, card_custom_code, cards_per_unit,
                                       state, sort, created_by, created_at, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18)`,
              [next, fields.name.trim(), fields.category, fields.model?.trim() ?? '', fields.spec?.trim() ?? '', fields.unit.trim(), yuanOf(checked.priceFen), yuanOf(checked.marketPriceFen),
                fields.stock, yuanOf(checked.freightFen), checked.images, checked.description, checked.cardCustomCode, checked.cardsPerUnit, GOODS_STATE.offShelf, fields.sort ?? 0,
                loginNameOf(context), context.now],
            ),
          { unique: '商品编码冲突，请重试' },
        );
        return next;
      });
      return goodsDetail(context, code);
    },
  }),

  defineOperation('mall.goods.modify', {
    paramSchema: objectOf({ code: goodsCodeParam, goods: goodsFields }, ['code', 'goods']),
    handler: async (context) => {
      requireMallStaff(context);
      const current = await findGoods(context, context.param.code);
      const fields = context.param.goods;
      const checked = await checkGoods(context.db, fields, current.images);
      if (current.state === GOODS_STATE.onShelf && fields.stock === 0) throw fail.conflict(ON_SHELF_NEEDS_STOCK);
      await context.db.transaction(async (tx) => {
        // Put on the shelf since the read: it may not be left there without stock.
        const locked = await lockGoods(tx, current.code);
        if (fields.updateTime && Date.parse(fields.updateTime) !== Math.trunc(locked.updated_at.getTime())) throw fail.conflict(GOODS_CHANGED);
        if (locked.state === GOODS_STATE.onShelf && fields.stock === 0) throw fail.conflict(ON_SHELF_NEEDS_STOCK);
        await tx.query(
          `UPDATE mall_goods SET name = $2, category = $3, model = $4, spec = $5, unit = $6, price = $7, market_price = $8, stock = $9, freight = $10, images = $11,
                  description = $12, card_custom_code = $13, cards_per_unit = $14, sort = $15, updated_at = $16
            WHERE code = $1`,
          [current.code, fields.name.trim(), fields.category, fields.model?.trim() ?? '', fields.spec?.trim() ?? '', fields.unit.trim(), yuanOf(checked.priceFen), yuanOf(checked.marketPriceFen),
            fields.stock, yuanOf(checked.freightFen), checked.images, checked.description, checked.cardCustomCode, checked.cardsPerUnit, fields.sort ?? current.sort, context.now],
        );
      });
      return goodsDetail(context, current.code);
    },
  }),

  defineOperation('mall.goods.shelf', {
    paramSchema: objectOf({ code: goodsCodeParam, onShelf: schemaOf<boolean>({ type: 'boolean' }) }, ['code', 'onShelf']),
    handler: async (context) => {
      requireMallStaff(context);
      const current = await findGoods(context, context.param.code);
      checkShelf(current, context.param.onShelf);
      const state = context.param.onShelf ? GOODS_STATE.onShelf : GOODS_STATE.offShelf;
      await context.db.transaction(async (tx) => {
        // Of two at once, the second finds the goods already moved.
        checkShelf(await lockGoods(tx, current.code), context.param.onShelf);
        await tx.query('UPDATE mall_goods SET state = $2, shelved_at = CASE WHEN $3::boolean THEN $4::timestamptz ELSE shelved_at END, updated_at = $4 WHERE code = $1 AND state <> $2', [
          current.code,
          state,
          context.param.onShelf,
          context.now,
        ]);
      });
      return goodsDetail(context, current.code);
    },
  }),

  // Goods on the shelf are taken off it first; deleted goods stay for the orders that bought them.
  defineOperation('mall.goods.delete', {
    paramSchema: codeOnly,
    handler: async (context) => {
      requireMallStaff(context);
      const current = await findGoods(context, context.param.code);
      requireState(current.state, [GOODS_STATE.offShelf], GOODS_STATE_LABEL, '删除');
      await context.db.transaction(async (tx) => {
        // Locked: an order placed at the same time (it locks the goods it buys) is counted, and a second deletion finds none.
        requireState((await lockGoods(tx, current.code)).state, [GOODS_STATE.offShelf], GOODS_STATE_LABEL, '删除');
        const [pending] = await tx.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM mall_order_item i JOIN mall_order o ON o.code = i.order_code WHERE i.goods_code = $1 AND o.state IN ('pending_payment', 'paid')`,
          [current.code],
        );
        if (pending.n > 0) throw fail.conflict(`该商品有 ${pending.n} 笔订单尚未发货，不能删除`);
        await tx.query('UPDATE mall_goods SET deleted_at = $2, updated_at = $2 WHERE code = $1 AND deleted_at IS NULL', [current.code, context.now]);
      });
      return { code: current.code };
    },
  }),
];
