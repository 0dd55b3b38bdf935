import type { Queryable } from '../../db/database';
import { lockOrganizationTree, ORGANIZATION_TYPE, tenantOf } from '../../domain/organizations';
import { fail } from '../../http/envelope';
import { callerOf } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, text, type ParamSchema, plainText, sortOrder } from '../../core/params';
import { workingOrganizations } from '../../core/access';
import { Conditions, containing, exportOf, pageOf, type Listing } from '../../core/listQuery';
import { organizationScope, type OrganizationScope } from '../../core/scope';
import { conflictOnClash } from '../../core/conflicts';

/**
 * Organisations (types of the organization_type dictionary): the working organisations (the
 * selected one and everything below it) listed, created, changed and deleted. Nothing outside
 * the working organisations is read or written: another tenant's nodes answer "404", a parent
 * outside them "403".
 */

const { platform, tenant, project, area, virtual, department } = ORGANIZATION_TYPE;

/** Which types a node of each type may hold directly (the shape of the seeded world). */
const CHILD_TYPES: Readonly<Record<number, readonly number[]>> = {
  [platform]: [tenant],
  [tenant]: [project, department, virtual],
  [project]: [area],
  [area]: [area],
  [virtual]: [],
  [department]: [department],
};

/** Code letters of a child of another type (T0001P01, T0001P01A01, T0001D01, T0001V01); same type nests digits. */
const CODE_LETTERS: Readonly<Record<number, string>> = { [project]: 'P', [area]: 'A', [virtual]: 'V', [department]: 'D' };

interface OrganizationRow {
  id: number;
  code: string;
  name: string;
  type: number;
  parent_code: string | null;
  parent_name: string | null;
  sort: number;
  created_at: Date;
  child_count: number;
  user_count: number;
}

export interface OrganizationRecord {
  id: number;
  organizationCode: string;
  organizationName: string;
  /** A value of the organization_type dictionary ('1'…'6'). */
  organizationType: string;
  parentCode: string;
  parentName: string;
  sort: number;
  childCount: number;
  userCount: number;
  createTime: string;
}

function toRecord(row: OrganizationRow): OrganizationRecord {
  return {
    id: row.id,
    organizationCode: row.code,
    organizationName: row.name,
    organizationType: String(row.type),
    parentCode: row.parent_code ?? '',
    parentName: row.parent_name ?? '',
    sort: row.sort,
    childCount: row.child_count,
    userCount: row.user_count,
    createTime: row.created_at.toISOString(),
  };
}

const COLUMNS = `o.id, o.code, o.name, o.type, o.parent_code, p.name AS parent_name, o.sort, o.created_at,
  (SELECT count(*)::int FROM organization c WHERE c.parent_code = o.code) AS child_count,
  (SELECT count(*)::int FROM user_organization uo WHERE uo.organization_code = o.code) AS user_count`;
const SELECT = `SELECT ${COLUMNS} FROM organization o LEFT JOIN organization p ON p.code = o.parent_code`;

interface OrganizationFilter {
  keyword?: string;
  organizationType?: string;
  parentCode?: string;
}

const TYPE_VALUES = ['1', '2', '3', '4', '5', '6'];

const filterSchema: Record<string, ParamSchema> = {
  keyword: text(64),
  organizationType: { type: 'string', enum: ['', ...TYPE_VALUES] },
  parentCode: text(64),
};

/**
 * The organisations of `scope` (the working organisations, or the caller's accessible ones as a
 * list), narrowed by the filter.
 */
function where(scope: OrganizationScope | readonly string[], filter: OrganizationFilter): Conditions {
  const where = new Conditions();
  if ('coverage' in scope) where.scope(scope, 'o', { organization: 'code' });
  else where.add('o.code = ANY($?::text[])', [...scope]);
  where.when(filter.keyword, '(o.name ILIKE $? OR o.code ILIKE $?)', (keyword) => containing(String(keyword)));
  where.when(filter.organizationType, 'o.type = $?', Number);
  where.when(filter.parentCode, 'o.parent_code = $?');
  return where;
}

/** The organisations with their parent's name: the count and the page's choice of rows read organization alone. */
const LISTING: Listing<OrganizationRow, OrganizationRecord> = {
  from: 'organization o LEFT JOIN organization p ON p.code = o.parent_code',
  narrowFrom: 'organization o',
  key: 'o.id',
  columns: COLUMNS,
  sorts: { organizationCode: 'o.code', organizationName: 'o.name', organizationType: 'o.type', sort: 'o.sort', createTime: 'o.created_at' },
  fallback: 'o.sort, o.id',
  record: toRecord,
};

/** A node of the working organisations `scope` ("404" 组织不存在 for anything else). */
async function workingNode(db: Queryable, scope: readonly string[], code: string): Promise<OrganizationRow> {
  const [row] = scope.includes(code) ? await db.query<OrganizationRow>(`${SELECT} WHERE o.code = $1`, [code]) : [];
  if (!row) throw fail.notFound('组织不存在');
  return row;
}

const organizationFields = objectOf(
  {
    organizationName: plainText(64),
    // Nobody creates a platform: the platform node is the root of everything.
    organizationType: { type: 'string', enum: TYPE_VALUES.slice(1) },
    parentCode: text(64, 1),
    sort: sortOrder,
  },
  ['organizationName', 'organizationType', 'parentCode'],
);

/** The parent, checked: inside the working organisations ("403") and able to hold the type ("400"). */
async function checkParent(db: Queryable, scope: readonly string[], parentCode: string, type: number): Promise<{ code: string; type: number }> {
  if (!scope.includes(parentCode)) throw fail.forbidden('无权访问该组织');
  const [parent] = await db.query<{ code: string; type: number }>('SELECT code, type FROM organization WHERE code = $1', [parentCode]);
  if (!parent) throw fail.forbidden('无权访问该组织');
  if (!(CHILD_TYPES[parent.type] ?? []).includes(type)) throw fail.badRequest('参数错误：organizationType（该上级组织下不能设立此类型的组织）');
  return parent;
}

async function checkSiblingName(db: Queryable, parentCode: string, name: string, exceptCode: string | null): Promise<void> {
  const [clash] = await db.query('SELECT 1 FROM organization WHERE parent_code = $1 AND name = $2 AND code <> $3', [parentCode, name, exceptCode ?? '']);
  if (clash) throw fail.conflict('同一上级组织下已有同名组织');
}

/** The next free code under `parent` for a child of `type`. */
async function nextCode(db: Queryable, parent: { code: string; type: number }, type: number): Promise<string> {
  const prefix = type === tenant ? 'T' : parent.type === type ? parent.code : `${parent.code}${CODE_LETTERS[type]}`;
  const digits = type === tenant ? 4 : 2;
  const [row] = await db.query<{ last: number | null }>(
    `SELECT max(substring(code FROM $1::int)::int) AS last FROM organization WHERE code ~ $2`,
    [prefix.length + 1, `^${prefix}[0-9]{${digits}}$`],
  );
  const next = (row?.last ?? 0) + 1;
  if (String(next).length > digits) throw fail.conflict('下级组织数量已达上限');
  return `${prefix}${String(next).padStart(digits, '0')}`;
}

export const organizationOperations = [
  defineOperation('organization.page', {
    paramSchema: objectOf(filterSchema),
    handler: async (context) => {
      return pageOf(context, LISTING, where(await organizationScope(context), context.param));
    },
  }),

  /** The working organisations (filtered), as a flat list. */
  defineOperation('organization.list', {
    paramSchema: objectOf(filterSchema),
    handler: async (context) => exportOf(context, LISTING, where(await organizationScope(context), context.param), 5000),
  }),

  /** Every organisation the caller belongs to or lies below them, whichever is selected. */
  defineOperation('organization.allList', {
    paramSchema: objectOf(filterSchema),
    handler: async (context) => exportOf(context, LISTING, where(callerOf(context).accessibleOrganizationCodes, context.param), 5000),
  }),

  defineOperation('organization.detail', {
    paramSchema: objectOf({ organizationCode: text(64, 1) }, ['organizationCode']),
    handler: async (context) => toRecord(await workingNode(context.db, await workingOrganizations(context), context.param.organizationCode)),
  }),

  defineOperation('organization.save', {
    paramSchema: objectOf({ organization: organizationFields }, ['organization']),
    handler: async (context) => {
      const fields = context.param.organization;
      const type = Number(fields.organizationType);
      const scope = await workingOrganizations(context);
      // One addition at a time (lockOrganizationTree): saves sent at once under one parent each get
      // the next free code, and of two with one name the second finds the first ("409").
      return context.db.transaction(async (tx) => {
        await lockOrganizationTree(tx);
        const parent = await checkParent(tx, scope, fields.parentCode, type);
        await checkSiblingName(tx, parent.code, fields.organizationName, null);
        const code = await nextCode(tx, parent, type);
        await tx.query(
          `INSERT INTO organization (code, name, type, parent_code, sort, created_at)
           VALUES ($1, $2, $3, $4, COALESCE($5, (SELECT COALESCE(max(sort), 0) + 1 FROM organization)), $6)`,
          [code, fields.organizationName, type, parent.code, fields.sort ?? null, context.now],
        );
        return { organizationCode: code };
      });
    },
  }),

  /**
   * Renames, retypes or moves a working organisation. The caller's own organisations (and the
   * selected one) keep their place and type; a node never moves below itself, and its children
   * must suit its new type.
   */
  defineOperation('organization.modify', {
    paramSchema: objectOf({ organizationCode: text(64, 1), organization: organizationFields }, ['organizationCode', 'organization']),
    handler: async (context) => {
      const { organizationCode, organization: fields } = context.param;
      const type = Number(fields.organizationType);
      const scope = await workingOrganizations(context);
      await context.db.transaction(async (tx) => {
        await lockOrganizationTree(tx);
        const row = await workingNode(tx, scope, organizationCode);
        const moved = fields.parentCode !== (row.parent_code ?? '') || type !== row.type;
        if (moved) {
          const anchors = new Set([...callerOf(context).organizationCodes, context.organizationCode ?? '']);
          if (anchors.has(row.code)) throw fail.forbidden('不能移动或更改所在组织的类型');
          const below = await tx.query<{ code: string }>(
            `WITH RECURSIVE below (code) AS (
               SELECT code FROM organization WHERE code = $1
               UNION SELECT o.code FROM organization o JOIN below b ON o.parent_code = b.code
             ) SELECT code FROM below`,
            [row.code],
          );
          if (below.some((node) => node.code === fields.parentCode)) throw fail.badRequest('参数错误：parentCode（不能选择自己或下级组织）');
          await checkParent(tx, scope, fields.parentCode, type);
          // Devices, alarms, orders and cards carry their tenant (the lists are scoped by it), and
          // what a tenant bought and was billed for stays its own: an organisation stays in its tenant.
          const tenantBefore = await tenantOf(tx, row.code);
          const tenantAfter = type === tenant ? row.code : await tenantOf(tx, fields.parentCode);
          if (tenantBefore !== tenantAfter) throw fail.badRequest('不能将组织移到其他租户');
          const children = await tx.query<{ type: number }>('SELECT DISTINCT type FROM organization WHERE parent_code = $1', [row.code]);
          if (children.some((child) => !(CHILD_TYPES[type] ?? []).includes(child.type))) throw fail.conflict('下级组织的类型与新类型不符');
        }
        await checkSiblingName(tx, fields.parentCode, fields.organizationName, row.code);
        await tx.query('UPDATE organization SET name = $2, type = $3, parent_code = $4, sort = COALESCE($5, sort) WHERE code = $1', [
          row.code,
          fields.organizationName,
          type,
          fields.parentCode,
          fields.sort ?? null,
        ]);
      });
      return null;
    },
  }),

  /** "409" for the caller's own organisation and one that still has sub-organisations, users, roles or data. */
  defineOperation('organization.delete', {
    paramSchema: objectOf({ organizationCode: text(64, 1) }, ['organizationCode']),
    handler: async (context) => {
      const scope = await workingOrganizations(context);
      await context.db.transaction(async (tx) => {
        await lockOrganizationTree(tx);
        const row = await workingNode(tx, scope, context.param.organizationCode);
        if (callerOf(context).organizationCodes.includes(row.code) || row.code === context.organizationCode) throw fail.conflict('不能删除当前所在的组织');
        if (row.child_count > 0) throw fail.conflict('该组织下还有下级组织，不能删除');
        if (row.user_count > 0) throw fail.conflict('该组织下还有用户，不能删除');
        const [roles] = await tx.query('SELECT 1 FROM role WHERE organization_code = $1 LIMIT 1', [row.code]);
        if (roles) throw fail.conflict('该组织下还有角色，不能删除');
        await conflictOnClash(() => tx.query('DELETE FROM organization WHERE code = $1', [row.code]), { reference: '该组织仍有业务数据，不能删除' });
      });
      return null;
    },
  }),
];
