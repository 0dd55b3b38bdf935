import { loadCatalogue } from '../../catalogue';
import type { Queryable } from '../../db/database';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, plainText, schemaOf, text, type ParamOf, orNull } from '../../core/params';
import { isPlatformStaff, requirePlatformStaff } from '../../core/access';
import { pageOfItems } from '../../core/listQuery';

/**
 * Menu and button resources (SPEC §3 "Menu resource"): the tree the role settings check, and the
 * menu administration (platform staff). A button's resourceUrl names the button-gated catalogue
 * operation it permits; a menu's names its route.
 */

const CATALOGUE = loadCatalogue();

/** Values of the resource_type dictionary. */
export const RESOURCE_TYPE = { menu: '1', button: '2' } as const;
type ResourceType = (typeof RESOURCE_TYPE)[keyof typeof RESOURCE_TYPE];

export interface ResourceRow {
  code: string;
  parent_code: string | null;
  kind: 'menu' | 'button';
  name: string;
  url: string;
  view: string;
  icon: string;
  classification: string;
  shown: boolean;
  cached: boolean;
  client_type: number;
  sort: number;
}

const RESOURCE_COLUMNS = 'code, parent_code, kind, name, url, view, icon, classification, shown, cached, client_type, sort';

/** Every resource of a client type, in menu order. */
export async function resourceRows(db: Queryable, clientType: number): Promise<ResourceRow[]> {
  return db.query<ResourceRow>(`SELECT ${RESOURCE_COLUMNS} FROM resource WHERE client_type = $1 ORDER BY sort, code`, [clientType]);
}

/** `codes` and every ancestor of them among `rows`. */
export function withAncestors(codes: Iterable<string>, rows: readonly ResourceRow[]): Set<string> {
  const parentOf = new Map(rows.map((row) => [row.code, row.parent_code]));
  const out = new Set<string>();
  for (const code of codes) {
    for (let current: string | null | undefined = code; current && !out.has(current); current = parentOf.get(current)) out.add(current);
  }
  return out;
}

/** `code` and everything below it among `rows`. */
function subtreeOf(code: string, rows: readonly ResourceRow[]): Set<string> {
  const out = new Set([code]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (row.parent_code && out.has(row.parent_code) && !out.has(row.code)) {
        out.add(row.code);
        grew = true;
      }
    }
  }
  return out;
}

/**
 * The resources the caller may hand to a role: everything for platform staff (null), else what
 * the caller's own roles hold, with the menus above them.
 */
export async function grantableResources(context: OperationContext<unknown>, rows: readonly ResourceRow[]): Promise<Set<string> | null> {
  if (isPlatformStaff(context)) return null;
  const held = await context.db.query<{ resource_code: string }>('SELECT DISTINCT resource_code FROM role_resource WHERE role_code = ANY($1::text[])', [
    callerOf(context).roles,
  ]);
  return withAncestors(
    held.map((row) => row.resource_code),
    rows,
  );
}

/** A node of `resource/tree/_list`: menus with their sub-menus and buttons. */
export interface ResourceNode {
  resourceCode: string;
  resourceName: string;
  resourceType: ResourceType;
  parentCode: string | null;
  resourceUrl: string;
  children: ResourceNode[];
}

function typeOf(row: ResourceRow): ResourceType {
  return row.kind === 'button' ? RESOURCE_TYPE.button : RESOURCE_TYPE.menu;
}

export function resourceTree(rows: readonly ResourceRow[]): ResourceNode[] {
  const nodes = new Map<string, ResourceNode>();
  for (const row of rows) {
    nodes.set(row.code, { resourceCode: row.code, resourceName: row.name, resourceType: typeOf(row), parentCode: row.parent_code, resourceUrl: row.url, children: [] });
  }
  const roots: ResourceNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.code)!;
    const parent = row.parent_code ? nodes.get(row.parent_code) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** A row of the menu administration list and the menu form (SPEC §3 field names). */
export interface ResourceRecord {
  resourceCode: string;
  parentCode: string | null;
  parentName: string;
  resourceName: string;
  resourceType: ResourceType;
  resourceUrl: string;
  fileUrl: string;
  resourceIcon: string;
  menuClassificationCode: string;
  isShown: boolean;
  isCached: boolean;
  clientType: number;
  sort: number;
  /** How many roles hold it. */
  roleCount: number;
  /** Sub-menus and buttons (omitted when none, so the table draws no expander). */
  children?: ResourceRecord[];
}

function toRecord(row: ResourceRow, names: ReadonlyMap<string, string>, roleCounts: ReadonlyMap<string, number>): ResourceRecord {
  return {
    resourceCode: row.code,
    parentCode: row.parent_code,
    parentName: row.parent_code ? (names.get(row.parent_code) ?? '') : '',
    resourceName: row.name,
    resourceType: typeOf(row),
    resourceUrl: row.url,
    fileUrl: row.view,
    resourceIcon: row.icon,
    menuClassificationCode: row.classification,
    isShown: row.shown,
    isCached: row.cached,
    clientType: row.client_type,
    sort: row.sort,
    roleCount: roleCounts.get(row.code) ?? 0,
  };
}

async function roleCounts(db: Queryable): Promise<Map<string, number>> {
  const rows = await db.query<{ resource_code: string; roles: number }>('SELECT resource_code, count(*)::int AS roles FROM role_resource GROUP BY resource_code');
  return new Map(rows.map((row) => [row.resource_code, row.roles]));
}

const CODE = '^[A-Za-z][A-Za-z0-9_.-]*$';
const ROUTE = '^/[A-Za-z0-9/_:.-]*$';
const clientTypeSchema = schemaOf<number>({ type: 'integer', minimum: 1, maximum: 9 });

const SORTABLE: Record<string, (row: ResourceRow) => string | number> = {
  resourceCode: (row) => row.code,
  resourceName: (row) => row.name,
  sort: (row) => row.sort,
};

function sortRows(context: OperationContext<unknown>, rows: ResourceRow[]): ResourceRow[] {
  const sorts = (context.page?.sortParamList ?? []).filter((sort) => Object.prototype.hasOwnProperty.call(SORTABLE, sort.field));
  if (!sorts.length) return rows;
  return [...rows].sort((a, b) => {
    for (const sort of sorts) {
      const [x, y] = [SORTABLE[sort.field](a), SORTABLE[sort.field](b)];
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'zh-CN');
      if (order !== 0) return sort.order === 'asc' ? order : -order;
    }
    return a.sort - b.sort;
  });
}

type ResourceFields = ParamOf<typeof resourceFields>;
const resourceFields = objectOf(
  {
    resourceType: schemaOf<ResourceType>({ type: 'string', enum: [RESOURCE_TYPE.menu, RESOURCE_TYPE.button] }),
    parentCode: orNull(schemaOf<string>({ type: 'string', maxLength: 64 })),
    resourceCode: schemaOf<string>({ type: 'string', minLength: 1, maxLength: 64, pattern: CODE }),
    resourceName: plainText(32),
    resourceUrl: schemaOf<string>({ type: 'string', maxLength: 200, pattern: '^[^<>\\s]*$' }),
    // A page with parameters takes them after ? (feedback/list?feedbackType=app, renderers/schema/compose.ts).
    fileUrl: schemaOf<string>({ type: 'string', maxLength: 128, pattern: '^([A-Za-z][A-Za-z0-9_-]*(/[A-Za-z0-9_-]+)*(\\?[A-Za-z0-9_=&-]+)?)?$' }),
    resourceIcon: schemaOf<string>({ type: 'string', maxLength: 64, pattern: '^[A-Za-z0-9]*$' }),
    menuClassificationCode: text(32),
    isShown: schemaOf<boolean>({ type: 'boolean' }),
    isCached: schemaOf<boolean>({ type: 'boolean' }),
    clientType: clientTypeSchema,
  },
  ['resourceType', 'resourceCode', 'resourceName'],
);

/** The row to write for `fields`, checked against the tree, the catalogue and the menu groups. */
async function settle(db: Queryable, fields: ResourceFields, current: ResourceRow | null): Promise<Omit<ResourceRow, 'sort'>> {
  const all = await db.query<ResourceRow>(`SELECT ${RESOURCE_COLUMNS} FROM resource`);
  const byCode = new Map(all.map((row) => [row.code, row]));
  const parentCode = fields.parentCode || null;
  const kind = fields.resourceType === RESOURCE_TYPE.button ? 'button' : 'menu';
  const parent = parentCode ? byCode.get(parentCode) : undefined;
  if (parentCode && !parent) throw fail.badRequest('参数错误：parentCode（上级资源不存在）');
  if (parent?.kind === 'button') throw fail.badRequest('参数错误：parentCode（按钮下不能再有下级）');
  if (current && parentCode && subtreeOf(current.code, all).has(parentCode)) throw fail.badRequest('参数错误：parentCode（不能选择自己或下级）');
  const others = all.filter((row) => row.code !== current?.code);
  const url = fields.resourceUrl ?? '';

  if (kind === 'button') {
    if (!parent) throw fail.badRequest('参数错误：parentCode（按钮须属于一个菜单）');
    if (!CATALOGUE[url]?.button) throw fail.badRequest('参数错误：resourceUrl（须为需要按钮权限的接口操作）');
    if (others.some((row) => row.kind === 'button' && row.parent_code === parentCode && row.url === url)) throw fail.conflict('该菜单已有指向此接口操作的按钮');
    if (current && all.some((row) => row.parent_code === current.code)) throw fail.conflict('该菜单下还有下级，不能改为按钮');
  } else {
    if (url && !new RegExp(ROUTE).test(url)) throw fail.badRequest('参数错误：resourceUrl（菜单路由须以 / 开头）');
    if (url && !fields.fileUrl) throw fail.badRequest('参数错误：fileUrl（有路由的菜单须指明视图文件）');
    if (url && others.some((row) => row.kind === 'menu' && row.url === url)) throw fail.conflict('该路由已被其他菜单使用');
  }

  let classification = parent?.classification ?? '';
  if (!parent) {
    const group = fields.menuClassificationCode ?? '';
    const [known] = await db.query(`SELECT 1 FROM dict_item WHERE type = 'menu_classification' AND value = $1`, [group]);
    if (!known) throw fail.badRequest('参数错误：menuClassificationCode（顶级菜单须选择菜单分类）');
    classification = group;
  }
  const isMenu = kind === 'menu';
  return {
    code: fields.resourceCode,
    parent_code: parentCode,
    kind,
    name: fields.resourceName,
    url,
    view: isMenu ? (fields.fileUrl ?? '') : '',
    icon: isMenu ? (fields.resourceIcon ?? '') : '',
    classification,
    shown: isMenu ? (fields.isShown ?? true) : true,
    cached: isMenu ? (fields.isCached ?? false) : false,
    client_type: parent?.client_type ?? fields.clientType ?? current?.client_type ?? 1,
  };
}

async function findResource(db: Queryable, code: string): Promise<ResourceRow> {
  const [row] = await db.query<ResourceRow>(`SELECT ${RESOURCE_COLUMNS} FROM resource WHERE code = $1`, [code]);
  if (!row) throw fail.notFound('菜单资源不存在');
  return row;
}

const codeParam = objectOf({ resourceCode: text(64, 1) }, ['resourceCode']);

export const resourceOperations = [
  /** The resource tree for the role settings: all of it for platform staff, else what the caller may grant. */
  defineOperation('resource.tree', {
    paramSchema: objectOf({ clientType: clientTypeSchema }),
    handler: async (context) => {
      const rows = await resourceRows(context.db, context.param.clientType ?? 1);
      const grantable = await grantableResources(context, rows);
      return resourceTree(grantable ? rows.filter((row) => grantable.has(row.code)) : rows);
    },
  }),

  /**
   * The menu administration list: top-level menus with their sub-menus and buttons nested
   * (paged by top-level entry), or a flat list of matches when filtered.
   */
  defineOperation('resource.menu.page', {
    paramSchema: objectOf({
      keyword: text(64),
      resourceType: schemaOf<ResourceType | ''>({ type: 'string', enum: ['', RESOURCE_TYPE.menu, RESOURCE_TYPE.button] }),
      menuClassificationCode: text(32),
      clientType: clientTypeSchema,
    }),
    handler: async (context) => {
      requirePlatformStaff(context);
      const { keyword, resourceType, menuClassificationCode } = context.param;
      const rows = await resourceRows(context.db, context.param.clientType ?? 1);
      const names = new Map(rows.map((row) => [row.code, row.name]));
      const counts = await roleCounts(context.db);
      const filtered = Boolean(keyword || resourceType || menuClassificationCode);
      if (filtered) {
        const needle = keyword?.trim().toLowerCase() ?? '';
        const matches = sortRows(
          context,
          rows.filter(
            (row) =>
              (!needle || [row.name, row.code, row.url].some((value) => value.toLowerCase().includes(needle))) &&
              (!resourceType || typeOf(row) === resourceType) &&
              (!menuClassificationCode || row.classification === menuClassificationCode),
          ),
        );
        const page = pageOfItems(context, matches);
        return { ...page, records: page.records.map((row) => toRecord(row, names, counts)) };
      }
      const childrenOf = new Map<string, ResourceRow[]>();
      for (const row of rows) if (row.parent_code) childrenOf.set(row.parent_code, [...(childrenOf.get(row.parent_code) ?? []), row]);
      const build = (row: ResourceRow): ResourceRecord => {
        const children = (childrenOf.get(row.code) ?? []).map(build);
        return children.length ? { ...toRecord(row, names, counts), children } : toRecord(row, names, counts);
      };
      const roots = sortRows(
        context,
        rows.filter((row) => !row.parent_code),
      );
      const page = pageOfItems(context, roots);
      return { ...page, records: page.records.map(build) };
    },
  }),

  /** One resource: any for platform staff, else only one the caller's roles hold ("404" otherwise). */
  defineOperation('resource.menu.detail', {
    paramSchema: codeParam,
    handler: async (context) => {
      const row = await findResource(context.db, context.param.resourceCode);
      const rows = await resourceRows(context.db, row.client_type);
      const grantable = await grantableResources(context, rows);
      if (grantable && !grantable.has(row.code)) throw fail.notFound('菜单资源不存在');
      return toRecord(row, new Map(rows.map((r) => [r.code, r.name])), await roleCounts(context.db));
    },
  }),

  defineOperation('resource.menu.insert', {
    paramSchema: objectOf({ resource: resourceFields }, ['resource']),
    handler: async (context) => {
      requirePlatformStaff(context);
      return context.db.transaction(async (tx) => {
        const fields = context.param.resource;
        const [taken] = await tx.query('SELECT 1 FROM resource WHERE code = $1', [fields.resourceCode]);
        if (taken) throw fail.conflict('资源编码已存在');
        const row = await settle(tx, fields, null);
        await tx.query(
          `INSERT INTO resource (code, parent_code, kind, name, url, view, icon, classification, shown, cached, client_type, sort)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, (SELECT COALESCE(max(sort), 0) + 1 FROM resource))`,
          [row.code, row.parent_code, row.kind, row.name, row.url, row.view, row.icon, row.classification, row.shown, row.cached, row.client_type],
        );
        return { resourceCode: row.code };
      });
    },
  }),

  defineOperation('resource.menu.modify', {
    paramSchema: objectOf({ resourceCode: text(64, 1), resource: resourceFields }, ['resourceCode', 'resource']),
    handler: async (context) => {
      requirePlatformStaff(context);
      const { resourceCode, resource: fields } = context.param;
      if (fields.resourceCode !== resourceCode) throw fail.badRequest('参数错误：resourceCode（资源编码不能修改）');
      await context.db.transaction(async (tx) => {
        const current = await findResource(tx, resourceCode);
        const row = await settle(tx, fields, current);
        await tx.query(
          `UPDATE resource SET parent_code = $2, kind = $3, name = $4, url = $5, view = $6, icon = $7, classification = $8,
                  shown = $9, cached = $10, client_type = $11 WHERE code = $1`,
          [row.code, row.parent_code, row.kind, row.name, row.url, row.view, row.icon, row.classification, row.shown, row.cached, row.client_type],
        );
        // The group and client type of a menu hold for everything below it.
        await tx.query(
          `WITH RECURSIVE below (code) AS (
             SELECT code FROM resource WHERE parent_code = $1
             UNION SELECT r.code FROM resource r JOIN below b ON r.parent_code = b.code
           )
           UPDATE resource SET classification = $2, client_type = $3 WHERE code IN (SELECT code FROM below)`,
          [row.code, row.classification, row.client_type],
        );
      });
      return null;
    },
  }),

  /** Deletes a menu with its buttons (and their grants); "409" while it has sub-menus. */
  defineOperation('resource.menu.delete', {
    paramSchema: codeParam,
    handler: async (context) => {
      requirePlatformStaff(context);
      await context.db.transaction(async (tx) => {
        const row = await findResource(tx, context.param.resourceCode);
        const [menus] = await tx.query(`SELECT 1 FROM resource WHERE parent_code = $1 AND kind = 'menu' LIMIT 1`, [row.code]);
        if (menus) throw fail.conflict('该菜单下还有子菜单，不能删除');
        await tx.query(`DELETE FROM resource WHERE parent_code = $1 AND kind = 'button'`, [row.code]);
        await tx.query('DELETE FROM resource WHERE code = $1', [row.code]);
      });
      return null;
    },
  }),
];
