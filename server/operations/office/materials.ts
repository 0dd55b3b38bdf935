import { fail } from '../../http/envelope';
import { spreadsheet } from '../../http/spreadsheet';
import { callerOf, defineOperation, objectOf, text, type OperationContext, type ParamSchema } from '../define';
import { Conditions, containing, exportOf, pageOf, type Listing } from '../listQuery';
import { conflictOnClash, optionalPlainText, plainText } from '../system/shared';
import { dictLabel, optionalEnumOf } from '../work/workOrders';
import { cents, homeTenant, numberOrNull, quantity, recordId, tenantScope } from './scope';

/**
 * 物料管理: the spare parts and materials a tenant keeps for repair and maintenance — batteries,
 * modules, seals, meters, tools — with their specification, unit, stock and the level below
 * which the stock warns (补货预警). Codes are the tenant's own and unique within it.
 */

export const MATERIAL_TYPES = ['device', 'accessory', 'consumable', 'tool'] as const;
const MATERIAL_CODE_PATTERN = '^[A-Za-z0-9][A-Za-z0-9-]{1,31}$';

interface MaterialRow {
  id: number;
  tenant_code: string;
  tenant_name: string;
  code: string;
  name: string;
  type: string;
  specification: string;
  unit: string;
  stock: string;
  warning_level: string;
  unit_price: string | null;
  supplier: string;
  location: string;
  remark: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

const FROM = 'material m JOIN organization tn ON tn.code = m.tenant_code';
const SELECT = `m.id, m.tenant_code, tn.name AS tenant_name, m.code, m.name, m.type, m.specification, m.unit, m.stock, m.warning_level, m.unit_price,
  m.supplier, m.location, m.remark, m.created_by, m.created_at, m.updated_at`;
/** At or below its warning level (a level of 0 never warns). */
const LOW_STOCK = '(m.warning_level > 0 AND m.stock <= m.warning_level)';

function materialRecord(row: MaterialRow) {
  const stock = Number(row.stock);
  const warningLevel = Number(row.warning_level);
  const unitPrice = numberOrNull(row.unit_price);
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    type: row.type,
    specification: row.specification,
    unit: row.unit,
    stock,
    warningLevel,
    lowStock: warningLevel > 0 && stock <= warningLevel,
    unitPrice,
    stockValue: unitPrice === null ? null : cents(unitPrice * stock),
    supplier: row.supplier,
    location: row.location,
    remark: row.remark,
    tenantCode: row.tenant_code,
    tenantName: row.tenant_name,
    createdBy: row.created_by,
    createTime: row.created_at.toISOString(),
    updateTime: row.updated_at.toISOString(),
  };
}

interface MaterialFilter {
  keyword?: string;
  type?: string;
  lowStock?: string;
}

const filterSchema: Record<string, ParamSchema> = {
  keyword: text(64),
  type: optionalEnumOf(MATERIAL_TYPES),
  lowStock: optionalEnumOf(['1', '0']),
};

/** The materials (material alone for the count and the page's choice of rows; the tenant's name for the page). */
const LISTING: Listing<MaterialRow, MaterialRow> = {
  from: FROM,
  narrowFrom: 'material m',
  key: 'm.id',
  columns: SELECT,
  sorts: { code: 'm.code', name: 'm.name', stock: 'm.stock', warningLevel: 'm.warning_level', unitPrice: 'm.unit_price', createTime: 'm.created_at', updateTime: 'm.updated_at' },
  fallback: 'm.code, m.id',
  record: (row) => row,
};

/**
 * The materials of the tenants in scope (material has a tenant and no organisation: the whole
 * tenant's store, whichever of its organisations is selected), narrowed by the filter.
 */
async function materialWhere(context: OperationContext<MaterialFilter>): Promise<Conditions> {
  const where = new Conditions().add('m.tenant_code = ANY($?::text[])', (await tenantScope(context)).tenantCodes);
  const filter = context.param;
  where.when(filter.keyword?.trim(), '(m.code ILIKE $? OR m.name ILIKE $? OR m.specification ILIKE $? OR m.supplier ILIKE $?)', (keyword) => containing(String(keyword)));
  where.when(filter.type, 'm.type = $?');
  if (filter.lowStock) where.add(filter.lowStock === '1' ? LOW_STOCK : `NOT ${LOW_STOCK}`);
  return where;
}

/** The material `id` of the scope ("404" 物料不存在 otherwise). */
async function scopedMaterial(context: OperationContext<unknown>, id: number): Promise<MaterialRow> {
  const clause = new Conditions().add('m.tenant_code = ANY($?::text[])', (await tenantScope(context)).tenantCodes).add('m.id = $?', id);
  const [row] = await context.db.query<MaterialRow>(`SELECT ${SELECT} FROM ${FROM} WHERE ${clause.sql}`, clause.params);
  if (!row) throw fail.notFound('物料不存在');
  return row;
}

interface MaterialFields {
  code: string;
  name: string;
  type: (typeof MATERIAL_TYPES)[number];
  specification?: string;
  unit: string;
  stock: number;
  warningLevel: number;
  unitPrice?: number | null;
  supplier?: string;
  location?: string;
  remark?: string;
}

const materialFields = objectOf(
  {
    code: { type: 'string', minLength: 2, maxLength: 32, pattern: MATERIAL_CODE_PATTERN },
    name: plainText(64),
    type: { type: 'string', enum: [...MATERIAL_TYPES] },
    specification: optionalPlainText(128),
    unit: plainText(8),
    stock: quantity(1_000_000_000),
    warningLevel: quantity(1_000_000_000),
    unitPrice: { anyOf: [quantity(10_000_000), { type: 'null' }] },
    supplier: optionalPlainText(64),
    location: optionalPlainText(64),
    remark: optionalPlainText(200),
  },
  ['code', 'name', 'type', 'unit', 'stock', 'warningLevel'],
);

const values = (fields: MaterialFields) => [
  fields.code,
  fields.name.trim(),
  fields.type,
  fields.specification?.trim() ?? '',
  fields.unit.trim(),
  cents(fields.stock),
  cents(fields.warningLevel),
  fields.unitPrice === undefined || fields.unitPrice === null ? null : cents(fields.unitPrice),
  fields.supplier?.trim() ?? '',
  fields.location?.trim() ?? '',
  fields.remark?.trim() ?? '',
];

const CODE_TAKEN = '物料编码已存在';

export const materialOperations = [
  defineOperation<MaterialFilter>('material.page', {
    paramSchema: objectOf(filterSchema),
    handler: async (context) => {
      const page = await pageOf(context, LISTING, await materialWhere(context));
      return { ...page, records: page.records.map(materialRecord) };
    },
  }),

  defineOperation<MaterialFilter>('material.export', {
    paramSchema: objectOf(filterSchema),
    handler: async (context) => {
      const rows = await exportOf(context, LISTING, await materialWhere(context));
      return spreadsheet(
        '物料清单',
        [
          { title: '物料编码', value: (r: MaterialRow) => r.code, width: 20 },
          { title: '物料名称', value: (r) => r.name, width: 24 },
          { title: '物料类型', value: (r) => dictLabel('material_type', r.type) },
          { title: '规格型号', value: (r) => r.specification, width: 28 },
          { title: '单位', value: (r) => r.unit, width: 8 },
          { title: '库存', value: (r) => Number(r.stock), width: 12 },
          { title: '预警库存', value: (r) => Number(r.warning_level), width: 12 },
          { title: '库存状态', value: (r) => (materialRecord(r).lowStock ? '低于预警' : '正常'), width: 12 },
          { title: '单价（元）', value: (r) => numberOrNull(r.unit_price), width: 12 },
          { title: '供应商', value: (r) => r.supplier, width: 24 },
          { title: '存放位置', value: (r) => r.location, width: 20 },
          { title: '所属租户', value: (r) => r.tenant_name, width: 24 },
          { title: '更新时间', value: (r) => r.updated_at },
        ],
        rows,
        context.now,
        context.config.timeZone,
      );
    },
  }),

  defineOperation<{ id: number }>('material.detail', {
    paramSchema: objectOf({ id: recordId }, ['id']),
    handler: async (context) => materialRecord(await scopedMaterial(context, context.param.id)),
  }),

  defineOperation<{ material: MaterialFields }>('material.insert', {
    paramSchema: objectOf({ material: materialFields }, ['material']),
    handler: async (context) => {
      const tenantCode = homeTenant(await tenantScope(context));
      const [row] = await conflictOnClash(
        () =>
          context.db.query<{ id: number }>(
            `INSERT INTO material (tenant_code, code, name, type, specification, unit, stock, warning_level, unit_price, supplier, location, remark, created_by, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) RETURNING id`,
            [tenantCode, ...values(context.param.material), callerOf(context).loginName, context.now],
          ),
        { unique: CODE_TAKEN },
      );
      return { id: row.id };
    },
  }),

  defineOperation<{ id: number; material: MaterialFields }>('material.modify', {
    paramSchema: objectOf({ id: recordId, material: materialFields }, ['id', 'material']),
    handler: async (context) => {
      const row = await scopedMaterial(context, context.param.id);
      await conflictOnClash(
        () =>
          context.db.query(
            `UPDATE material SET code = $2, name = $3, type = $4, specification = $5, unit = $6, stock = $7, warning_level = $8, unit_price = $9, supplier = $10,
                    location = $11, remark = $12, updated_at = $13
              WHERE id = $1`,
            [row.id, ...values(context.param.material), context.now],
          ),
        { unique: CODE_TAKEN },
      );
      return { id: row.id };
    },
  }),

  defineOperation<{ id: number }>('material.delete', {
    paramSchema: objectOf({ id: recordId }, ['id']),
    handler: async (context) => {
      const row = await scopedMaterial(context, context.param.id);
      await context.db.query('DELETE FROM material WHERE id = $1', [row.id]);
      return null;
    },
  }),
];
