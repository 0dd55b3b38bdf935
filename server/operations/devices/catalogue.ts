import type { Queryable, SqlParam } from '../../db/database';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, flag, integerIn, numberIn, objectOf, schemaOf, text, optionalPlainText, plainText, sortOrder, type ParamOf, type ParamSchema, orBlank } from '../../core/params';
import { isPlatformStaff, tenantInScope } from '../../core/access';
import { Conditions, containing, pageOf, type Listing } from '../../core/listQuery';
import { scopeCondition } from '../../core/scope';
import { conflictOnClash } from '../../core/conflicts';
import { deviceScope } from '../../core/deviceScope';
import { catalogueClause, checkCatalogueEditable, ownerName, ownerType } from './tenancy';

/**
 * The product catalogue: categories (a tree), products (device models) and the device settings
 * pushed to every device of a product. Entries with a null tenant are the platform's shared
 * catalogue, which every tenant sees and only platform staff change ("403" for tenant staff);
 * a tenant's own entries are its staff's to manage. A tenant's settings for a shared product are
 * its own (product_tenant_setting) and leave the platform's defaults alone.
 */

const PROTOCOLS = ['mqtt', 'coap', 'http', 'modbus'] as const;
const NODE_TYPES = ['direct', 'gateway', 'sub'] as const;
const OWNER_TYPES = ['platform', 'tenant'] as const;
const PRODUCT_CODE = schemaOf<string>({ type: 'string', minLength: 3, maxLength: 32, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$' });
const CATEGORY_CODE = schemaOf<string>({ type: 'string', minLength: 2, maxLength: 32, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$' });
const codeParam = <Code extends ParamSchema>(schema: Code) => objectOf({ code: schema }, ['code']);

// ---------------------------------------------------------------------------------------------
// Device settings

export const settingsSchema = objectOf(
  {
    reportIntervalMinutes: integerIn(1, 1440),
    heartbeatMinutes: integerIn(1, 1440),
    lowBatteryPercent: integerIn(5, 50),
    temperatureHigh: numberIn(-40, 125),
    temperatureLow: numberIn(-40, 125),
  },
  ['reportIntervalMinutes', 'heartbeatMinutes', 'lowBatteryPercent', 'temperatureHigh', 'temperatureLow'],
);

/** What a product's devices are set to (report and heartbeat intervals, battery and temperature limits). */
export type DeviceSettings = ParamOf<typeof settingsSchema>;

/** The settings a new product starts with: battery devices report hourly, mains-powered ones every 5 minutes. */
export function defaultSettings(batteryPowered: boolean): DeviceSettings {
  return batteryPowered
    ? { reportIntervalMinutes: 60, heartbeatMinutes: 240, lowBatteryPercent: 20, temperatureHigh: 60, temperatureLow: -10 }
    : { reportIntervalMinutes: 5, heartbeatMinutes: 10, lowBatteryPercent: 20, temperatureHigh: 60, temperatureLow: -10 };
}

/** Stored settings completed with the defaults (older rows may lack a key). */
function completeSettings(stored: Partial<DeviceSettings> | null, batteryPowered: boolean): DeviceSettings {
  return { ...defaultSettings(batteryPowered), ...(stored ?? {}) };
}

/** What JSON Schema cannot say: the heartbeat is not shorter than the report interval, low < high. */
function checkSettings(settings: DeviceSettings): void {
  if (settings.heartbeatMinutes < settings.reportIntervalMinutes) throw fail.badRequest('心跳周期不能短于上报周期');
  if (settings.temperatureLow >= settings.temperatureHigh) throw fail.badRequest('温度下限须低于温度上限');
}

// ---------------------------------------------------------------------------------------------
// Categories

interface CategoryRow {
  id: number;
  code: string;
  name: string;
  parent_code: string | null;
  parent_name: string | null;
  tenant_code: string | null;
  tenant_name: string | null;
  sort: number;
  remark: string;
  created_at: Date;
  product_count: number;
  child_count: number;
}

const PRODUCT_COUNT = '(SELECT count(*)::int FROM product p WHERE p.category_code = c.code)';
const CATEGORY_COLUMNS = `
  c.id, c.code, c.name, c.parent_code, pc.name AS parent_name, c.tenant_code, t.name AS tenant_name, c.sort, c.remark, c.created_at,
  ${PRODUCT_COUNT} AS product_count,
  (SELECT count(*)::int FROM device_category k WHERE k.parent_code = c.code) AS child_count`;
const CATEGORY_FROM = `
  device_category c
  LEFT JOIN device_category pc ON pc.code = c.parent_code
  LEFT JOIN organization t ON t.code = c.tenant_code`;
const CATEGORY_SELECT = `SELECT ${CATEGORY_COLUMNS} FROM ${CATEGORY_FROM}`;

function categoryRecord(context: OperationContext<unknown>, row: CategoryRow) {
  return {
    id: row.id,
    categoryCode: row.code,
    categoryName: row.name,
    parentCode: row.parent_code ?? '',
    parentName: row.parent_name ?? '',
    tenantCode: row.tenant_code ?? '',
    tenantName: row.tenant_name ?? '',
    ownerType: ownerType(row.tenant_code),
    ownerName: ownerName(row.tenant_code),
    sort: row.sort,
    remark: row.remark,
    productCount: row.product_count,
    childCount: row.child_count,
    editable: isPlatformStaff(context) || row.tenant_code !== null,
    createTime: row.created_at.toISOString(),
  };
}

/** The category `code` visible to the caller ("404" 产品分类不存在 otherwise). */
async function findCategory(context: OperationContext<unknown>, db: Queryable, code: string): Promise<CategoryRow> {
  const params: SqlParam[] = [code];
  const visible = catalogueClause(await tenantInScope(context), params, 'c');
  const [row] = await db.query<CategoryRow>(`${CATEGORY_SELECT} WHERE c.code = $1 AND ${visible}`, params);
  if (!row) throw fail.notFound('产品分类不存在');
  return row;
}

/** `code` and every category below it. */
const SUBTREE = (placeholder: string) => `(
  WITH RECURSIVE sub (code) AS (
    SELECT code FROM device_category WHERE code = ${placeholder}
    UNION SELECT k.code FROM device_category k JOIN sub ON k.parent_code = sub.code
  ) SELECT code FROM sub)`;

const categoryFields = objectOf(
  {
    categoryCode: CATEGORY_CODE,
    categoryName: plainText(32),
    parentCode: orBlank(CATEGORY_CODE),
    sort: sortOrder,
    remark: optionalPlainText(200),
  },
  ['categoryCode', 'categoryName'],
);

/**
 * The parent a category may hang under: a visible one; a shared category only under a shared one;
 * never itself or one of its own descendants.
 */
async function checkParent(context: OperationContext<unknown>, parentCode: string | null, ownTenant: string | null, selfCode: string | null): Promise<void> {
  if (!parentCode) return;
  let parent: CategoryRow;
  try {
    parent = await findCategory(context, context.db, parentCode);
  } catch {
    throw fail.badField('parentCode');
  }
  if (ownTenant === null && parent.tenant_code !== null) throw fail.badRequest('平台分类不能挂在租户分类下');
  if (ownTenant !== null && parent.tenant_code !== null && parent.tenant_code !== ownTenant) throw fail.badField('parentCode');
  if (selfCode) {
    const [cycle] = await context.db.query(`SELECT 1 WHERE $2 IN ${SUBTREE('$1')}`, [selfCode, parentCode]);
    if (cycle) throw fail.badRequest('上级分类不能是本分类或其下级分类');
  }
}

// ---------------------------------------------------------------------------------------------
// Products

interface ProductRow {
  id: number;
  code: string;
  name: string;
  model: string;
  category_code: string;
  category_name: string;
  tenant_code: string | null;
  tenant_name: string | null;
  protocol: string;
  node_type: string;
  battery_powered: boolean;
  manufacturer: string;
  description: string;
  published: boolean;
  settings: Partial<DeviceSettings>;
  tenant_settings: Partial<DeviceSettings> | null;
  settings_updated_by: string | null;
  settings_updated_at: Date | null;
  created_at: Date;
  device_count: number;
  online_count: number;
}

const PRODUCT_COLUMNS = `
  p.id, p.code, p.name, p.model, p.category_code, c.name AS category_name, p.tenant_code, t.name AS tenant_name,
  p.protocol, p.node_type, p.battery_powered, p.manufacturer, p.description, p.published, p.settings,
  s.settings AS tenant_settings, s.updated_by AS settings_updated_by, s.updated_at AS settings_updated_at, p.created_at`;

function productRecord(context: OperationContext<unknown>, row: ProductRow) {
  const settings = completeSettings(row.tenant_settings ?? row.settings, row.battery_powered);
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    model: row.model,
    categoryCode: row.category_code,
    categoryName: row.category_name,
    tenantCode: row.tenant_code ?? '',
    tenantName: row.tenant_name ?? '',
    ownerType: ownerType(row.tenant_code),
    ownerName: ownerName(row.tenant_code),
    protocol: row.protocol,
    nodeType: row.node_type,
    batteryPowered: row.battery_powered,
    manufacturer: row.manufacturer,
    description: row.description,
    published: row.published,
    deviceCount: row.device_count,
    onlineCount: row.online_count,
    settings,
    settingsSource: row.tenant_settings ? 'tenant' : 'product',
    editable: isPlatformStaff(context) || row.tenant_code !== null,
    createTime: row.created_at.toISOString(),
  };
}

/**
 * The products the caller sees (`where`, to narrow further) and how they are read: with their
 * live devices within the device scope (`devices`, also the sort by it) and the settings of the
 * tenant in scope, which override the product's. The devices are summed from device_tally
 * (migration 092: live and online devices per product and organisation, kept by triggers on
 * device), over the rows of the scope — the same scope condition as on device itself.
 */
async function productBase(context: OperationContext<unknown>): Promise<{ where: Conditions; from: string; columns: string; devices: string }> {
  const scope = await deviceScope(context);
  const tenantCode = await tenantInScope(context);
  const where = new Conditions();
  const params = where.params;
  const deviceCount = (counted: 'devices' | 'online') =>
    `(SELECT coalesce(sum(k.${counted}), 0)::int FROM device_tally k WHERE k.product_code = p.code AND ${scopeCondition(scope, params, 'k', { tenant: 'tenant_code' })})`;
  const devices = deviceCount('devices');
  const columns = `${PRODUCT_COLUMNS}, ${devices} AS device_count, ${deviceCount('online')} AS online_count`;
  const from = `product p
    JOIN device_category c ON c.code = p.category_code
    LEFT JOIN organization t ON t.code = p.tenant_code
    LEFT JOIN product_tenant_setting s ON s.product_code = p.code AND s.tenant_code = ${where.ref(tenantCode)}::text`;
  where.add(catalogueClause(tenantCode, params, 'p'));
  return { where, from, columns, devices };
}

/** The product `code` visible to the caller ("404" 产品不存在 otherwise). */
export async function findProduct(context: OperationContext<unknown>, db: Queryable, code: string): Promise<ProductRow> {
  const { where, from, columns } = await productBase(context);
  where.add('p.code = $?', code);
  const [row] = await db.query<ProductRow>(`SELECT ${columns} FROM ${from} WHERE ${where.sql}`, where.params);
  if (!row) throw fail.notFound('产品不存在');
  return row;
}

const productFilter = objectOf({
  keyword: text(64),
  categoryCode: text(32),
  nodeType: enumOf(NODE_TYPES),
  protocol: enumOf(PROTOCOLS),
  ownerType: enumOf(OWNER_TYPES),
  published: flag,
});
type ProductFilter = ParamOf<typeof productFilter>;

/** Narrows `where` (over product `p`) by the filter. */
function productWhere(filter: ProductFilter, where: Conditions): Conditions {
  if (filter.keyword) where.add('(p.code ILIKE $? OR p.name ILIKE $? OR p.model ILIKE $?)', containing(filter.keyword));
  if (filter.categoryCode) where.add(`p.category_code IN ${SUBTREE('$?')}`, filter.categoryCode);
  if (filter.nodeType) where.add('p.node_type = $?', filter.nodeType);
  if (filter.protocol) where.add('p.protocol = $?', filter.protocol);
  if (filter.ownerType) where.add(filter.ownerType === 'platform' ? 'p.tenant_code IS NULL' : 'p.tenant_code IS NOT NULL');
  if (filter.published !== undefined) where.add('p.published = $?', filter.published);
  return where;
}

const productFields = objectOf(
  {
    code: PRODUCT_CODE,
    name: plainText(64),
    model: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9][A-Za-z0-9 ._/-]*$' }),
    categoryCode: CATEGORY_CODE,
    protocol: enumOf(PROTOCOLS),
    nodeType: enumOf(NODE_TYPES),
    batteryPowered: flag,
    manufacturer: optionalPlainText(64),
    description: optionalPlainText(500),
    published: flag,
  },
  ['code', 'name', 'model', 'categoryCode', 'protocol', 'nodeType'],
);

/** A product's category: visible to the caller, and a shared one for a shared product. */
async function checkProductCategory(context: OperationContext<unknown>, categoryCode: string, productTenant: string | null): Promise<void> {
  let category: CategoryRow;
  try {
    category = await findCategory(context, context.db, categoryCode);
  } catch {
    throw fail.badField('categoryCode');
  }
  if (productTenant === null && category.tenant_code !== null) throw fail.badRequest('平台产品只能使用平台分类');
  if (productTenant !== null && category.tenant_code !== null && category.tenant_code !== productTenant) throw fail.badField('categoryCode');
}

/** Who a new catalogue entry belongs to: the platform for platform staff, the tenant otherwise. */
async function newEntryTenant(context: OperationContext<unknown>): Promise<string | null> {
  if (isPlatformStaff(context)) return null;
  const tenantCode = await tenantInScope(context);
  if (!tenantCode) throw fail.forbidden();
  return tenantCode;
}

const PRODUCT_SORTS = { code: 'p.code', name: 'p.name', model: 'p.model', createTime: 'p.created_at' };

export const catalogueOperations = [
  // ----- products -----
  defineOperation('product.page', {
    paramSchema: productFilter,
    handler: async (context) => {
      const { where, from, columns, devices } = await productBase(context);
      // Counted and chosen over the products alone (every product has its category); the device
      // counts, category, owner and settings are read for the page's rows.
      const listing: Listing<ProductRow, ReturnType<typeof productRecord>> = {
        from,
        narrowFrom: 'product p',
        key: 'p.id',
        columns,
        sorts: { ...PRODUCT_SORTS, deviceCount: devices },
        fallback: 'p.tenant_code NULLS FIRST, p.code',
        record: (row) => productRecord(context, row),
      };
      return pageOf(context, listing, productWhere(context.param, where));
    },
  }),

  defineOperation('product.detail', {
    paramSchema: codeParam(text(32, 1)),
    handler: async (context) => productRecord(context, await findProduct(context, context.db, context.param.code)),
  }),

  defineOperation('product.list', {
    paramSchema: objectOf({ categoryCode: text(32), nodeType: enumOf(NODE_TYPES), keyword: text(64) }),
    handler: async (context) => {
      const visible = new Conditions();
      visible.add(catalogueClause(await tenantInScope(context), visible.params, 'p'));
      const where = productWhere({ ...context.param, published: undefined }, visible);
      const rows = await context.db.query<{ code: string; name: string; model: string; category_code: string; node_type: string; protocol: string }>(
        `SELECT p.code, p.name, p.model, p.category_code, p.node_type, p.protocol FROM product p WHERE ${where.sql} ORDER BY p.tenant_code NULLS FIRST, p.code`,
        where.params,
      );
      return rows.map((row) => ({ code: row.code, name: row.name, model: row.model, categoryCode: row.category_code, nodeType: row.node_type, protocol: row.protocol }));
    },
  }),

  defineOperation('product.insert', {
    paramSchema: objectOf({ product: productFields }, ['product']),
    handler: async (context) => {
      const fields = context.param.product;
      const tenantCode = await newEntryTenant(context);
      await checkProductCategory(context, fields.categoryCode, tenantCode);
      const batteryPowered = fields.batteryPowered ?? fields.nodeType !== 'gateway';
      await conflictOnClash(
        () =>
          context.db.query(
            `INSERT INTO product (code, name, model, category_code, tenant_code, protocol, node_type, battery_powered, manufacturer, description, settings, published, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
            [
              fields.code,
              fields.name,
              fields.model,
              fields.categoryCode,
              tenantCode,
              fields.protocol,
              fields.nodeType,
              batteryPowered,
              fields.manufacturer ?? '',
              fields.description ?? '',
              JSON.stringify(defaultSettings(batteryPowered)),
              fields.published ?? true,
              context.now,
            ],
          ),
        { unique: '产品编码已存在' },
      );
      return { code: fields.code };
    },
  }),

  defineOperation('product.modify', {
    paramSchema: objectOf({ code: text(32, 1), product: productFields }, ['code', 'product']),
    handler: async (context) => {
      const { code, product: fields } = context.param;
      if (fields.code !== code) throw fail.badRequest('参数错误：code（产品编码不能修改）');
      const row = await findProduct(context, context.db, code);
      checkCatalogueEditable(context, row.tenant_code, '平台产品不能修改');
      await checkProductCategory(context, fields.categoryCode, row.tenant_code);
      if (row.device_count > 0 && fields.nodeType !== row.node_type) throw fail.conflict('该产品下已有设备，不能修改节点类型');
      await context.db.query(
        `UPDATE product SET name = $2, model = $3, category_code = $4, protocol = $5, node_type = $6, battery_powered = $7,
                manufacturer = $8, description = $9, published = $10 WHERE code = $1`,
        [
          code,
          fields.name,
          fields.model,
          fields.categoryCode,
          fields.protocol,
          fields.nodeType,
          fields.batteryPowered ?? row.battery_powered,
          fields.manufacturer ?? '',
          fields.description ?? '',
          fields.published ?? row.published,
        ],
      );
      return null;
    },
  }),

  defineOperation('product.delete', {
    paramSchema: codeParam(text(32, 1)),
    handler: async (context) => {
      const row = await findProduct(context, context.db, context.param.code);
      checkCatalogueEditable(context, row.tenant_code, '平台产品不能删除');
      // Any device at all (another tenant's, or in the recycle bin) keeps the product.
      const [used] = await context.db.query('SELECT 1 FROM device WHERE product_code = $1 LIMIT 1', [row.code]);
      if (used) throw fail.conflict('该产品下仍有设备');
      const [ruled] = await context.db.query('SELECT 1 FROM alarm_rule WHERE product_code = $1 LIMIT 1', [row.code]);
      if (ruled) throw fail.conflict('该产品仍被告警配置使用');
      await conflictOnClash(() => context.db.query('DELETE FROM product WHERE code = $1', [row.code]), { reference: '该产品仍被其他数据引用' });
      return null;
    },
  }),

  // ----- device settings -----
  defineOperation('product.deviceSetting.get', {
    paramSchema: objectOf({ productCode: text(32, 1) }, ['productCode']),
    handler: async (context) => {
      const row = await findProduct(context, context.db, context.param.productCode);
      const record = productRecord(context, row);
      return {
        productCode: row.code,
        productName: row.name,
        batteryPowered: row.battery_powered,
        deviceCount: row.device_count,
        ...record.settings,
        settingsSource: record.settingsSource,
        updatedBy: row.settings_updated_by ?? '',
        updateTime: row.settings_updated_at?.toISOString() ?? '',
      };
    },
  }),

  defineOperation('product.deviceSetting.save', {
    paramSchema: objectOf({ productCode: text(32, 1), settings: settingsSchema }, ['productCode', 'settings']),
    handler: async (context) => {
      const { productCode, settings } = context.param;
      checkSettings(settings);
      const row = await findProduct(context, context.db, productCode);
      const settingsJson = JSON.stringify({
        reportIntervalMinutes: settings.reportIntervalMinutes,
        heartbeatMinutes: settings.heartbeatMinutes,
        lowBatteryPercent: settings.lowBatteryPercent,
        temperatureHigh: settings.temperatureHigh,
        temperatureLow: settings.temperatureLow,
      });
      if (isPlatformStaff(context) || row.tenant_code !== null) {
        // The product's own settings: platform staff for the shared defaults, a tenant for its product.
        await context.db.query('UPDATE product SET settings = $2::jsonb WHERE code = $1', [row.code, settingsJson]);
        return { settingsSource: 'product' };
      }
      const tenantCode = await tenantInScope(context);
      if (!tenantCode) throw fail.forbidden();
      await context.db.query(
        `INSERT INTO product_tenant_setting (product_code, tenant_code, settings, updated_by, updated_at) VALUES ($1, $2, $3::jsonb, $4, $5)
         ON CONFLICT (product_code, tenant_code) DO UPDATE SET settings = EXCLUDED.settings, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
        [row.code, tenantCode, settingsJson, callerOf(context).loginName, context.now],
      );
      return { settingsSource: 'tenant' };
    },
  }),

  // ----- categories -----
  defineOperation('category.page', {
    paramSchema: objectOf({ keyword: text(64), parentCode: text(32), ownerType: enumOf(OWNER_TYPES) }),
    handler: async (context) => {
      const where = new Conditions();
      where.add(catalogueClause(await tenantInScope(context), where.params, 'c'));
      const filter = context.param;
      if (filter.keyword) where.add('(c.code ILIKE $? OR c.name ILIKE $?)', containing(filter.keyword));
      if (filter.parentCode) where.add('c.parent_code = $?', filter.parentCode);
      if (filter.ownerType) where.add(filter.ownerType === 'platform' ? 'c.tenant_code IS NULL' : 'c.tenant_code IS NOT NULL');
      const listing: Listing<CategoryRow, ReturnType<typeof categoryRecord>> = {
        from: CATEGORY_FROM,
        narrowFrom: 'device_category c',
        key: 'c.id',
        columns: CATEGORY_COLUMNS,
        sorts: { categoryCode: 'c.code', categoryName: 'c.name', sort: 'c.sort', productCount: PRODUCT_COUNT, createTime: 'c.created_at' },
        fallback: 'c.tenant_code NULLS FIRST, c.sort, c.code',
        record: (row) => categoryRecord(context, row),
      };
      return pageOf(context, listing, where);
    },
  }),

  defineOperation('category.detail', {
    paramSchema: codeParam(text(32, 1)),
    handler: async (context) => categoryRecord(context, await findCategory(context, context.db, context.param.code)),
  }),

  defineOperation('category.list', {
    handler: async (context) => {
      const params: SqlParam[] = [];
      const visible = catalogueClause(await tenantInScope(context), params, 'c');
      const rows = await context.db.query<CategoryRow>(`${CATEGORY_SELECT} WHERE ${visible} ORDER BY c.tenant_code NULLS FIRST, c.sort, c.code`, params);
      interface Node {
        categoryCode: string;
        categoryName: string;
        parentCode: string;
        ownerType: 'platform' | 'tenant';
        productCount: number;
        children: Node[];
      }
      const nodes = new Map<string, Node>(
        rows.map((row) => [row.code, { categoryCode: row.code, categoryName: row.name, parentCode: row.parent_code ?? '', ownerType: ownerType(row.tenant_code), productCount: row.product_count, children: [] }]),
      );
      const roots: Node[] = [];
      for (const row of rows) {
        const node = nodes.get(row.code)!;
        const parent = row.parent_code ? nodes.get(row.parent_code) : undefined;
        if (parent) parent.children.push(node);
        else roots.push(node);
      }
      return roots;
    },
  }),

  defineOperation('category.insert', {
    paramSchema: objectOf({ category: categoryFields }, ['category']),
    handler: async (context) => {
      const fields = context.param.category;
      const tenantCode = await newEntryTenant(context);
      await checkParent(context, fields.parentCode || null, tenantCode, null);
      await conflictOnClash(
        () =>
          context.db.query(
            `INSERT INTO device_category (code, name, parent_code, tenant_code, sort, remark, created_at)
             VALUES ($1, $2, $3, $4, COALESCE($5, (SELECT COALESCE(max(sort), 0) + 1 FROM device_category)), $6, $7)`,
            [fields.categoryCode, fields.categoryName, fields.parentCode || null, tenantCode, fields.sort ?? null, fields.remark ?? '', context.now],
          ),
        { unique: '分类编码已存在' },
      );
      return { categoryCode: fields.categoryCode };
    },
  }),

  defineOperation('category.modify', {
    paramSchema: objectOf({ code: text(32, 1), category: categoryFields }, ['code', 'category']),
    handler: async (context) => {
      const { code, category: fields } = context.param;
      if (fields.categoryCode !== code) throw fail.badRequest('参数错误：categoryCode（分类编码不能修改）');
      const row = await findCategory(context, context.db, code);
      checkCatalogueEditable(context, row.tenant_code, '平台分类不能修改');
      await checkParent(context, fields.parentCode || null, row.tenant_code, code);
      await context.db.query('UPDATE device_category SET name = $2, parent_code = $3, sort = COALESCE($4, sort), remark = $5 WHERE code = $1', [
        code,
        fields.categoryName,
        fields.parentCode || null,
        fields.sort ?? null,
        fields.remark ?? '',
      ]);
      return null;
    },
  }),

  defineOperation('category.delete', {
    paramSchema: codeParam(text(32, 1)),
    handler: async (context) => {
      const row = await findCategory(context, context.db, context.param.code);
      checkCatalogueEditable(context, row.tenant_code, '平台分类不能删除');
      if (row.child_count > 0) throw fail.conflict('该分类下仍有子分类');
      if (row.product_count > 0) throw fail.conflict('该分类下仍有产品');
      await conflictOnClash(() => context.db.query('DELETE FROM device_category WHERE code = $1', [row.code]), { reference: '该分类仍被其他数据引用' });
      return null;
    },
  }),
];
