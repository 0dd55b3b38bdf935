import ExcelJS from 'exceljs';
import type { Database, Queryable } from '../../db/database';
import { CARD_FORM_FACTORS, CARD_GRADES, CARD_NETWORKS, CARD_OPERATOR_LABEL, CARD_OPERATORS, documentCode, ICCID_PATTERN, MAX_BATCH_CARDS } from '../../domain/cards';
import { STORED_FILE_PATH } from '../../domain/files';
import { ORGANIZATION_TYPE } from '../../domain/organizations';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { defineOperation } from '../../core/operation';
import { objectOf, optionalPlainText, plainText, enumParam, keywordParam, organizationParam, enumOf, schemaOf, type ParamOf } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { isPlatformStaff, stewardOf } from '../../core/access';
import { conflictOnClash } from '../../core/conflicts';
import { Conditions, exportOf, pageOf } from '../../core/listQuery';
import { column, contains, derived, equals, listing, textColumn, type ItemOf } from '../../core/listing';
import { loginNameOf, moneyColumn, nextId, nullableTimeColumn, platformCode, requireCardStaff, requireSupplyStaff } from './access';

/** Card supply (卡片供应, platform staff): fee standards, custom card specifications, warehousing. */

// ── fee standards (资费标准) ────────────────────────────────────────────────────────────────────

const STANDARDS = listing({
  from: 'card_charge_standard s LEFT JOIN organization t ON t.code = s.tenant_code',
  filters: {
    keyword: contains(['s.code', 's.name'], keywordParam),
    operator: equals('s.operator', enumParam(CARD_OPERATORS)),
    network: equals('s.network', enumParam(CARD_NETWORKS)),
    tenantCode: equals('s.tenant_code', organizationParam),
    enabled: equals('s.enabled', enumParam(['true', 'false']), (enabled) => enabled === 'true'),
  },
  columns: {
    id: column<number>('s.id'),
    code: column<string>('s.code'),
    name: column<string>('s.name'),
    operator: column<string>('s.operator'),
    network: column<string>('s.network'),
    flowMb: column<number>('s.flow_mb'),
    unitPrice: moneyColumn('s.unit_price'),
    years: column('s.years', (years: number[]) => years.map(Number)),
    yearsText: derived((row) => (row.years as number[]).map((y) => `${Number(y)} 年`).join('、')),
    tenantCode: textColumn('s.tenant_code'),
    tenantName: column('t.name', (name: string | null) => name ?? '全部租户（标准价）'),
    enabled: column<boolean>('s.enabled'),
    remark: column<string>('s.remark'),
    cardCount: column<number>('COALESCE((SELECT k.cards FROM sim_card_package_tally k WHERE k.package_code = s.code), 0)'),
    createTime: nullableTimeColumn('s.created_at'),
    updateTime: nullableTimeColumn('s.updated_at'),
  },
  sorts: ['code', 'unitPrice', 'flowMb', 'createTime', 'cardCount'],
  fallback: 's.operator, s.network, s.flow_mb, s.tenant_code NULLS FIRST, s.code',
});

async function findStandard(context: OperationContext<unknown>, code: string, db: Queryable = context.db) {
  const standard = await STANDARDS.find(context, new Conditions().add('s.code = $?', code), '', db);
  if (!standard) throw fail.notFound('资费标准不存在');
  return standard;
}

const CODE = '^[A-Z][A-Z0-9-]{2,39}$';
const standardFields = objectOf(
  {
    code: schemaOf<string>({ type: 'string', pattern: CODE }),
    name: plainText(64),
    operator: enumOf(CARD_OPERATORS),
    network: enumOf(CARD_NETWORKS),
    flowMb: schemaOf<number>({ type: 'integer', minimum: 1, maximum: 1_048_576 }),
    unitPrice: schemaOf<number>({ type: 'number', minimum: 0, maximum: 100_000 }),
    years: schemaOf<number[]>({ type: 'array', minItems: 1, maxItems: 10, uniqueItems: true, items: { type: 'integer', minimum: 1, maximum: 10 } }),
    tenantCode: organizationParam,
    enabled: schemaOf<boolean>({ type: 'boolean' }),
    remark: optionalPlainText(200),
  },
  ['code', 'name', 'operator', 'network', 'flowMb', 'unitPrice', 'years'],
);

async function checkTenant(db: Queryable, tenantCode: string | undefined): Promise<string | null> {
  if (!tenantCode) return null;
  const [row] = await db.query('SELECT 1 FROM organization WHERE code = $1 AND type = $2', [tenantCode, ORGANIZATION_TYPE.tenant]);
  if (!row) throw fail.badRequest('参数错误：tenantCode（租户不存在）');
  return tenantCode;
}

const PACKAGE_CLASH = '已有相同运营商、网络与流量的资费标准';

// ── custom cards (定制卡) ───────────────────────────────────────────────────────────────────────

const CUSTOMS = listing({
  from: 'card_custom c LEFT JOIN card_supplier sp ON sp.code = c.supplier_code LEFT JOIN card_charge_standard p ON p.code = c.package_code',
  filters: {
    keyword: contains(['c.code', 'c.name'], keywordParam),
    operator: equals('c.operator', enumParam(CARD_OPERATORS)),
    formFactor: equals('c.form_factor', enumParam(CARD_FORM_FACTORS)),
    grade: equals('c.grade', enumParam(CARD_GRADES)),
  },
  columns: {
    id: column<number>('c.id'),
    code: column<string>('c.code'),
    name: column<string>('c.name'),
    operator: column<string>('c.operator'),
    formFactor: column<string>('c.form_factor'),
    grade: column<string>('c.grade'),
    supplierCode: column<string>('c.supplier_code'),
    supplierName: textColumn('sp.name'),
    packageCode: column<string>('c.package_code'),
    packageName: textColumn('p.name'),
    unitCost: moneyColumn('c.unit_cost'),
    minOrder: column<number>('c.min_order'),
    leadDays: column<number>('c.lead_days'),
    enabled: column<boolean>('c.enabled'),
    remark: column<string>('c.remark'),
    stockCount: column<number>("(SELECT count(*)::int FROM sim_card s WHERE s.custom_code = c.code AND s.state = 'in_stock' AND s.delivery_code IS NULL AND s.alter_code IS NULL)"),
    cardCount: column<number>('(SELECT count(*)::int FROM sim_card s WHERE s.custom_code = c.code)'),
    createTime: nullableTimeColumn('c.created_at'),
  },
  sorts: ['code', 'unitCost', 'createTime', 'stockCount'],
  fallback: 'c.id',
});

async function findCustom(context: OperationContext<unknown>, code: string, db: Queryable = context.db) {
  const custom = await CUSTOMS.find(context, new Conditions().add('c.code = $?', code), '', db);
  if (!custom) throw fail.notFound('定制卡不存在');
  return custom;
}

type CustomFields = ParamOf<typeof customFields>;
const customFields = objectOf(
  {
    code: schemaOf<string>({ type: 'string', pattern: CODE }),
    name: plainText(64),
    operator: enumOf(CARD_OPERATORS),
    formFactor: enumOf(CARD_FORM_FACTORS),
    grade: enumOf(CARD_GRADES),
    supplierCode: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 40 }),
    packageCode: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 40 }),
    unitCost: schemaOf<number>({ type: 'number', minimum: 0, maximum: 10_000 }),
    minOrder: schemaOf<number>({ type: 'integer', minimum: 1, maximum: 1_000_000 }),
    leadDays: schemaOf<number>({ type: 'integer', minimum: 0, maximum: 365 }),
    enabled: schemaOf<boolean>({ type: 'boolean' }),
    remark: optionalPlainText(200),
  },
  ['code', 'name', 'operator', 'formFactor', 'grade', 'supplierCode', 'packageCode', 'unitCost'],
);

/** The supplier and the package must be of the card's operator. */
async function checkCustomFields(db: Queryable, fields: CustomFields): Promise<void> {
  const [supplier] = await db.query<{ operator: string }>('SELECT operator FROM card_supplier WHERE code = $1', [fields.supplierCode]);
  if (!supplier) throw fail.badRequest('参数错误：supplierCode（供应商不存在）');
  if (supplier.operator !== fields.operator) throw fail.badRequest('参数错误：supplierCode（供应商与运营商不一致）');
  const [standard] = await db.query<{ operator: string; tenant_code: string | null }>('SELECT operator, tenant_code FROM card_charge_standard WHERE code = $1', [fields.packageCode]);
  if (!standard) throw fail.badRequest('参数错误：packageCode（资费标准不存在）');
  if (standard.operator !== fields.operator) throw fail.badRequest('参数错误：packageCode（资费套餐与运营商不一致）');
  if (standard.tenant_code) throw fail.badRequest('参数错误：packageCode（须为标准价套餐）');
}

// ── warehousing (入库管理) ──────────────────────────────────────────────────────────────────────

const BATCHES = listing({
  from: 'card_stock_batch b LEFT JOIN card_custom c ON c.code = b.custom_code LEFT JOIN card_supplier sp ON sp.code = b.supplier_code',
  narrowFrom: 'card_stock_batch b',
  key: 'b.id',
  filters: {
    keyword: contains(['b.code', 'b.remark', 'b.iccid_first', 'b.iccid_last'], keywordParam),
    customCode: equals('b.custom_code', schemaOf<string>({ type: 'string', maxLength: 40 })),
    operator: equals('b.operator', enumParam(CARD_OPERATORS)),
    supplierCode: equals('b.supplier_code', schemaOf<string>({ type: 'string', maxLength: 40 })),
  },
  columns: {
    id: column<number>('b.id'),
    code: column<string>('b.code'),
    customCode: column<string>('b.custom_code'),
    customName: textColumn('c.name'),
    supplierCode: column<string>('b.supplier_code'),
    supplierName: textColumn('sp.name'),
    operator: column<string>('b.operator'),
    quantity: column<number>('b.quantity'),
    inStock: column<number>("(SELECT count(*)::int FROM sim_card s WHERE s.batch_code = b.code AND s.state = 'in_stock')"),
    outbound: derived((row) => (row.quantity as number) - (row.inStock as number)),
    iccidFirst: column<string>('b.iccid_first'),
    iccidLast: column<string>('b.iccid_last'),
    createdBy: column<string>('b.created_by'),
    remark: column<string>('b.remark'),
    createTime: nullableTimeColumn('b.created_at'),
  },
  sorts: ['code', 'createTime', 'quantity'],
  fallback: 'b.created_at DESC, b.id DESC',
});
type BatchRecord = ItemOf<typeof BATCHES>;

/** The warehousing list's WHERE: its filters, but an ICCID typed whole finds the batch whose range holds it (and only that). */
async function batchConditions(context: Parameters<typeof BATCHES.where>[0]): Promise<Conditions> {
  const keyword = context.param.keyword;
  if (keyword && ICCID.test(keyword)) return new Conditions().add('EXISTS (SELECT 1 FROM sim_card s WHERE s.batch_code = b.code AND s.iccid = $?)', keyword);
  return BATCHES.where(context);
}

/**
 * Deletes the fee standard or custom card `code` unless a row of one of `uses` names it in its
 * column `by`: checked and deleted in one transaction, "409" `inUse` when used, "404" `missing`
 * when deleted meanwhile.
 */
async function deleteUnused(
  db: Database,
  table: 'card_charge_standard' | 'card_custom',
  code: string,
  { uses, by, inUse, missing }: { uses: readonly string[]; by: 'package_code' | 'custom_code'; inUse: string; missing: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [used] = await tx.query(`SELECT 1 WHERE ${uses.map((use) => `EXISTS (SELECT 1 FROM ${use} WHERE ${by} = $1)`).join(' OR ')}`, [code]);
    if (used) throw fail.conflict(inUse);
    const deleted = await tx.query(`DELETE FROM ${table} WHERE code = $1 RETURNING code`, [code]);
    if (deleted.length === 0) throw fail.notFound(missing);
  });
}

const IMSI_PREFIX: Record<string, string> = { cmcc: '46004', cucc: '46006', ctcc: '46011', cbn: '46015' };

interface NewCard {
  iccid: string;
  msisdn: string;
}

/** Puts new cards of a custom card specification into stock as one batch ("409" on a known ICCID or MSISDN). */
async function warehouse(context: OperationContext<unknown>, customCode: string, cards: readonly NewCard[], remark: string): Promise<BatchRecord> {
  const custom = await findCustom(context, customCode);
  if (!custom.enabled) throw fail.conflict('该定制卡已停用，不能入库');
  if (new Set(cards.map((card) => card.iccid)).size !== cards.length) throw fail.badRequest('参数错误：iccid（存在重复的 ICCID）');
  if (new Set(cards.map((card) => card.msisdn)).size !== cards.length) throw fail.badRequest('参数错误：msisdn（存在重复的 MSISDN）');
  const code = await context.db.transaction(async (tx) => {
    const [clash] = await tx.query<{ iccid: string; msisdn: string }>('SELECT iccid, msisdn FROM sim_card WHERE iccid = ANY($1::text[]) OR msisdn = ANY($2::text[]) ORDER BY LEAST(array_position($1::text[], iccid), array_position($2::text[], msisdn)) LIMIT 1', [
      cards.map((card) => card.iccid),
      cards.map((card) => card.msisdn),
    ]);
    if (clash) throw fail.conflict(cards.some((card) => card.iccid === clash.iccid) ? `ICCID ${clash.iccid} 已入库` : `MSISDN ${clash.msisdn} 已被使用`);
    const [standard] = await tx.query<{ flow_mb: number }>('SELECT flow_mb FROM card_charge_standard WHERE code = $1', [custom.packageCode]);
    const id = await nextId(tx, 'card_stock_batch');
    const batchCode = documentCode('RK', context.now, id, context.config.timeZone);
    const sorted = cards.map((card) => card.iccid).sort();
    await tx.query(
      `INSERT INTO card_stock_batch (id, code, custom_code, supplier_code, operator, quantity, iccid_first, iccid_last, created_by, remark, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [id, batchCode, custom.code, custom.supplierCode, custom.operator, cards.length, sorted[0], sorted[sorted.length - 1], loginNameOf(context), remark, context.now],
    );
    await tx.query(
      `INSERT INTO sim_card (iccid, msisdn, imsi, operator, supplier_code, custom_code, batch_code, package_code, flow_mb, state, organization_code, created_at, updated_at)
       SELECT x.iccid, x.msisdn, $1 || right(x.iccid, 10), $2, $3, $4, $5, $6, $7, 'in_stock', $8, $9, $9 FROM json_to_recordset($10::json) AS x (iccid text, msisdn text)`,
      [IMSI_PREFIX[custom.operator] ?? '46000', custom.operator, custom.supplierCode, custom.code, batchCode, custom.packageCode, standard.flow_mb, await platformCode(tx), context.now, JSON.stringify(cards)],
    );
    return batchCode;
  });
  const batch = await BATCHES.find(context, new Conditions().add('b.code = $?', code));
  if (!batch) throw new Error(`入库批次 ${code} 写入后未读到`);
  return batch;
}

/** A default IoT number for a card without one: 1064 and the ICCID's last nine digits. */
const defaultMsisdn = (iccid: string) => `1064${iccid.slice(-9)}`;
const MSISDN = /^1\d{10,12}$/;
const ICCID = new RegExp(ICCID_PATTERN);

/** ICCID (and optionally MSISDN) lines of a pasted list or of the first sheet of an uploaded workbook. */
async function importedCards(context: OperationContext<{ iccidText?: string; fileUrl?: string }>): Promise<NewCard[]> {
  const lines: string[][] = [];
  if (context.param.fileUrl) {
    const content = await context.files.read(context.param.fileUrl);
    if (!content) throw fail.badRequest('参数错误：fileUrl（文件不存在）');
    const workbook = new ExcelJS.Workbook();
    try {
      await workbook.xlsx.load(content as unknown as ArrayBuffer);
    } catch {
      throw fail.badRequest('参数错误：fileUrl（不是 Excel 工作簿）');
    }
    workbook.worksheets[0]?.eachRow((row) => {
      const cells = [row.getCell(1).text.trim(), row.getCell(2).text.trim()];
      if (cells[0]) lines.push(cells);
    });
  } else {
    for (const line of (context.param.iccidText ?? '').split(/\r?\n/)) {
      const cells = line.split(/[\s,，;；]+/).filter(Boolean);
      if (cells.length) lines.push(cells);
    }
  }
  // A header row of a workbook is skipped.
  const rows = lines.filter((cells, index) => !(index === 0 && !/^\d/.test(cells[0])));
  if (rows.length === 0) throw fail.badRequest('参数错误：iccidText（没有 ICCID）');
  if (rows.length > MAX_BATCH_CARDS) throw fail.badRequest(`参数错误：iccidText（一次最多入库 ${MAX_BATCH_CARDS} 张）`);
  return rows.map((cells, index) => {
    const [iccid, msisdn] = cells;
    if (!ICCID.test(iccid)) throw fail.badRequest(`参数错误：第 ${index + 1} 行 ICCID ${iccid.slice(0, 24)} 格式不正确`);
    if (msisdn && !MSISDN.test(msisdn)) throw fail.badRequest(`参数错误：第 ${index + 1} 行 MSISDN ${msisdn.slice(0, 16)} 格式不正确`);
    return { iccid, msisdn: msisdn || defaultMsisdn(iccid) };
  });
}

export const supplyOperations = [
  defineOperation('card.chargeStandard.page', {
    paramSchema: STANDARDS.paramSchema,
    handler: async (context) => {
      requireSupplyStaff(context);
      return STANDARDS.page(context);
    },
  }),

  defineOperation('card.chargeStandard.detail', {
    paramSchema: objectOf({ code: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 40 }) }, ['code']),
    handler: async (context) => {
      requireCardStaff(context);
      const standard = await findStandard(context, context.param.code);
      // Tenant staff see list prices and their own, never another tenant's negotiated price.
      if (!isPlatformStaff(context) && standard.tenantCode) {
        const steward = await stewardOf(context);
        if (steward.kind === 'tenant' && steward.tenantCode !== standard.tenantCode) throw fail.notFound('资费标准不存在');
      }
      return standard;
    },
  }),

  // The fee standards in force for a tenant (the caller's, or the one platform staff name): its
  // own negotiated ones and the list prices they do not replace.
  defineOperation('card.chargeStandard.get', {
    paramSchema: objectOf({ tenantCode: organizationParam, operator: enumParam(CARD_OPERATORS) }),
    handler: async (context) => {
      requireCardStaff(context);
      const steward = await stewardOf(context);
      const tenant = steward.kind === 'tenant' ? steward.tenantCode : (context.param.tenantCode ?? '');
      const where = new Conditions();
      const tenantCode = where.ref(tenant);
      const operator = where.ref(context.param.operator ?? '');
      where
        .add('s.enabled')
        .add(`(s.tenant_code = ${tenantCode} OR (s.tenant_code IS NULL AND NOT EXISTS (
                 SELECT 1 FROM card_charge_standard o WHERE o.tenant_code = ${tenantCode} AND o.enabled AND o.operator = s.operator AND o.network = s.network AND o.flow_mb = s.flow_mb)))`)
        .add(`(${operator} = '' OR s.operator = ${operator})`);
      const standards = await STANDARDS.findAll(context, where, ' ORDER BY s.operator, s.network, s.flow_mb');
      return standards.map((standard) => ({ ...standard, label: `${standard.name}（¥${(standard.unitPrice ?? 0).toFixed(2)}/年）` }));
    },
  }),

  defineOperation('card.chargeStandard.insert', {
    paramSchema: objectOf({ standard: standardFields }, ['standard']),
    handler: async (context) => {
      requireSupplyStaff(context);
      const s = context.param.standard;
      const tenant = await checkTenant(context.db, s.tenantCode);
      const [taken] = await context.db.query('SELECT 1 FROM card_charge_standard WHERE code = $1', [s.code]);
      if (taken) throw fail.conflict('资费标准编码已存在');
      await conflictOnClash(
        () =>
          context.db.query(
            `INSERT INTO card_charge_standard (code, name, operator, network, flow_mb, unit_price, years, tenant_code, enabled, remark, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)`,
            [s.code, s.name, s.operator, s.network, s.flowMb, s.unitPrice, [...s.years].sort((a, b) => a - b), tenant, s.enabled ?? true, s.remark ?? '', context.now],
          ),
        { unique: PACKAGE_CLASH },
      );
      return findStandard(context, s.code);
    },
  }),

  defineOperation('card.chargeStandard.modify', {
    paramSchema: objectOf({ code: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 40 }), standard: standardFields }, ['code', 'standard']),
    handler: async (context) => {
      requireSupplyStaff(context);
      const { code, standard: s } = context.param;
      if (s.code !== code) throw fail.badRequest('参数错误：code（编码不能修改）');
      const tenant = await checkTenant(context.db, s.tenantCode);
      // "In use" is checked in the transaction that changes the package: a card warehoused at the
      // same time either counts, or waits (on PostgreSQL the serializable transaction runs again).
      return context.db.transaction(async (tx) => {
        const current = await findStandard(context, code, tx);
        const repackaged = current.operator !== s.operator || current.network !== s.network || current.flowMb !== s.flowMb;
        if (repackaged && current.cardCount > 0) throw fail.conflict('该资费标准已有物联网卡使用，不能修改运营商、网络或流量');
        await conflictOnClash(
          () =>
            tx.query(
              `UPDATE card_charge_standard SET name = $2, operator = $3, network = $4, flow_mb = $5, unit_price = $6, years = $7, tenant_code = $8, enabled = $9, remark = $10, updated_at = $11 WHERE code = $1`,
              [code, s.name, s.operator, s.network, s.flowMb, s.unitPrice, [...s.years].sort((a, b) => a - b), tenant, s.enabled ?? current.enabled, s.remark ?? '', context.now],
            ),
          { unique: PACKAGE_CLASH },
        );
        if (repackaged) await tx.query('UPDATE sim_card SET flow_mb = $2 WHERE package_code = $1', [code, s.flowMb]);
        return findStandard(context, code, tx);
      });
    },
  }),

  defineOperation('card.chargeStandard.delete', {
    paramSchema: objectOf({ code: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 40 }) }, ['code']),
    handler: async (context) => {
      requireSupplyStaff(context);
      const standard = await findStandard(context, context.param.code);
      // A use recorded at the same time keeps the standard.
      await deleteUnused(context.db, 'card_charge_standard', standard.code, {
        uses: ['sim_card', 'card_custom', 'card_order', 'card_sale_order'],
        by: 'package_code',
        inUse: '该资费标准已被物联网卡、定制卡或订单使用，请改为停用',
        missing: '资费标准不存在',
      });
      return null;
    },
  }),

  defineOperation('card.customCard.page', {
    paramSchema: CUSTOMS.paramSchema,
    handler: async (context) => {
      requireSupplyStaff(context);
      return CUSTOMS.page(context);
    },
  }),

  // The enabled custom cards with their free stock (the warehousing forms' choices).
  defineOperation('card.customCard.list', {
    handler: async (context) => {
      requireSupplyStaff(context);
      const customs = await CUSTOMS.findAll(context, new Conditions().add('c.enabled'), ' ORDER BY c.id');
      return customs.map((custom) => ({ ...custom, label: `${custom.name}（${custom.code}，可用库存 ${custom.stockCount}）` }));
    },
  }),

  defineOperation('card.customCard.detail', {
    paramSchema: objectOf({ code: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 40 }) }, ['code']),
    handler: async (context) => {
      requireSupplyStaff(context);
      return findCustom(context, context.param.code);
    },
  }),

  defineOperation('card.customCard.insert', {
    paramSchema: objectOf({ card: customFields }, ['card']),
    handler: async (context) => {
      requireSupplyStaff(context);
      const c = context.param.card;
      await checkCustomFields(context.db, c);
      await conflictOnClash(
        () =>
          context.db.query(
            `INSERT INTO card_custom (code, name, operator, form_factor, grade, supplier_code, package_code, unit_cost, min_order, lead_days, enabled, remark, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
            [c.code, c.name, c.operator, c.formFactor, c.grade, c.supplierCode, c.packageCode, c.unitCost, c.minOrder ?? 100, c.leadDays ?? 7, c.enabled ?? true, c.remark ?? '', context.now],
          ),
        { unique: '定制卡编码已存在' },
      );
      return findCustom(context, c.code);
    },
  }),

  defineOperation('card.customCard.modify', {
    paramSchema: objectOf({ code: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 40 }), card: customFields }, ['code', 'card']),
    handler: async (context) => {
      requireSupplyStaff(context);
      const { code, card: c } = context.param;
      if (c.code !== code) throw fail.badRequest('参数错误：code（编码不能修改）');
      await checkCustomFields(context.db, c);
      // "Has warehoused cards" is checked in the transaction that changes the card's operator or supplier.
      return context.db.transaction(async (tx) => {
        const current = await findCustom(context, code, tx);
        if (current.cardCount > 0 && (current.operator !== c.operator || current.supplierCode !== c.supplierCode)) throw fail.conflict('该定制卡已有入库卡片，不能修改运营商或供应商');
        await tx.query(
          `UPDATE card_custom SET name = $2, operator = $3, form_factor = $4, grade = $5, supplier_code = $6, package_code = $7, unit_cost = $8, min_order = $9, lead_days = $10, enabled = $11, remark = $12, updated_at = $13 WHERE code = $1`,
          [code, c.name, c.operator, c.formFactor, c.grade, c.supplierCode, c.packageCode, c.unitCost, c.minOrder ?? current.minOrder, c.leadDays ?? current.leadDays, c.enabled ?? current.enabled, c.remark ?? '', context.now],
        );
        return findCustom(context, code, tx);
      });
    },
  }),

  defineOperation('card.customCard.delete', {
    paramSchema: objectOf({ code: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 40 }) }, ['code']),
    handler: async (context) => {
      requireSupplyStaff(context);
      const custom = await findCustom(context, context.param.code);
      // A warehousing or an order at the same time keeps the card.
      await deleteUnused(context.db, 'card_custom', custom.code, {
        uses: ['card_stock_batch', 'card_order', 'card_sale_order'],
        by: 'custom_code',
        inUse: '该定制卡已有入库或订单，请改为停用',
        missing: '定制卡不存在',
      });
      return null;
    },
  }),

  defineOperation('card.warehousing.page', {
    paramSchema: BATCHES.paramSchema,
    handler: async (context) => {
      requireSupplyStaff(context);
      return pageOf(context, BATCHES.listing, await batchConditions(context));
    },
  }),

  // A run of cards with consecutive ICCIDs (and MSISDNs) received from the supplier.
  defineOperation('card.warehousing.insert', {
    paramSchema: objectOf(
      {
        customCode: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 40 }),
        iccidStart: schemaOf<string>({ type: 'string', pattern: ICCID_PATTERN }),
        quantity: schemaOf<number>({ type: 'integer', minimum: 1, maximum: MAX_BATCH_CARDS }),
        msisdnStart: { type: 'string', pattern: '^1\\d{10,12}$' },
        remark: optionalPlainText(200),
      },
      ['customCode', 'iccidStart', 'quantity'],
    ),
    handler: async (context) => {
      requireSupplyStaff(context);
      const { iccidStart, quantity, msisdnStart } = context.param;
      const width = iccidStart.length;
      const first = BigInt(iccidStart);
      const cards: NewCard[] = [];
      for (let i = 0; i < quantity; i += 1) {
        const iccid = String(first + BigInt(i)).padStart(width, '0');
        if (!ICCID.test(iccid)) throw fail.badRequest('参数错误：quantity（ICCID 号段溢出）');
        const msisdn = msisdnStart ? String(BigInt(msisdnStart) + BigInt(i)) : defaultMsisdn(iccid);
        if (msisdnStart && msisdn.length !== msisdnStart.length) throw fail.badRequest('参数错误：quantity（MSISDN 号段溢出）');
        cards.push({ iccid, msisdn });
      }
      return warehouse(context, context.param.customCode, cards, context.param.remark?.trim() || `号段入库 ${quantity} 张`);
    },
  }),

  // A list of ICCIDs pasted (one a line, optionally followed by the MSISDN) or an uploaded workbook.
  defineOperation('card.warehousing.import', {
    paramSchema: objectOf(
      {
        customCode: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 40 }),
        iccidText: schemaOf<string>({ type: 'string', maxLength: 250_000, pattern: '^[0-9\\s,，;；]*$' }),
        fileUrl: schemaOf<string>({ type: 'string', maxLength: 200, pattern: STORED_FILE_PATH.source.replace('(jpg|png|gif|webp|pdf|xlsx|svg)', 'xlsx') }),
        remark: optionalPlainText(200),
      },
      ['customCode'],
    ),
    handler: async (context) => {
      requireSupplyStaff(context);
      if (!context.param.iccidText?.trim() && !context.param.fileUrl) throw fail.badRequest('参数错误：iccidText（请粘贴 ICCID 或上传文件）');
      const cards = await importedCards(context);
      return warehouse(context, context.param.customCode, cards, context.param.remark?.trim() || `批量导入入库 ${cards.length} 张`);
    },
  }),

  defineOperation('card.warehousing.export', {
    paramSchema: BATCHES.paramSchema,
    handler: async (context) => {
      requireSupplyStaff(context);
      const rows = await exportOf(context, BATCHES.listing, await batchConditions(context));
      return exportFile(
        context,
        '入库记录',
        [
          { title: '入库单号', value: (r: BatchRecord) => r.code },
          { title: '定制卡', value: (r) => r.customName, width: 26 },
          { title: '供应商', value: (r) => r.supplierName, width: 26 },
          { title: '运营商', value: (r) => CARD_OPERATOR_LABEL[r.operator] ?? '' },
          { title: '入库数量', value: (r) => r.quantity },
          { title: '在库数量', value: (r) => r.inStock },
          { title: '起始 ICCID', value: (r) => r.iccidFirst, width: 24 },
          { title: '结束 ICCID', value: (r) => r.iccidLast, width: 24 },
          { title: '操作人', value: (r) => r.createdBy },
          { title: '入库时间', value: (r) => (r.createTime ? new Date(r.createTime) : null) },
        ],
        rows,
      );
    },
  }),
];

