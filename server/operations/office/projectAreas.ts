import type { Queryable } from '../../db/database';
import { lockOrganizationTree, ORGANIZATION_TYPE, subtreeOf } from '../../domain/organizations';
import { fail } from '../../http/envelope';
import { workingOrganizations } from '../../core/access';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, schemaOf, text, optionalPlainText, plainText, referenceCode, phoneOrEmpty, type ParamOf, optionalLongitude, optionalLatitude, orNull } from '../../core/params';
import { Conditions, exportOf } from '../../core/listQuery';
import { column, contains, custom, derived, equals, listing, textColumn, timeColumn, type ItemOf } from '../../core/listing';
import { organizationScope } from '../../core/scope';
import { conflictOnClash } from '../../core/conflicts';
import { cents, numberOrNull, quantity } from './scope';

/**
 * 项目区域: the areas inside a tenant's projects. An area is an organisation of type 4 below a
 * project (type 3) or below another area, so devices, cameras and work orders placed there refer
 * to it as to any organisation; project_area holds what an area has besides: its kind, manager,
 * address, position and size. Only areas within the working organisations (the selected one and
 * below) are read or written: another tenant's area answers "404", a parent outside "403".
 */

const AREA_TYPES = ['district', 'station', 'plant', 'building'] as const;

/** Every area with the project it lies in and its depth below it (1: directly under the project). */
const AREA_TREE = `(
  WITH RECURSIVE area_tree (code, project_code, depth) AS (
    SELECT code, code, 0 FROM organization WHERE type = ${ORGANIZATION_TYPE.project}
    UNION ALL
    SELECT c.code, t.project_code, t.depth + 1 FROM organization c JOIN area_tree t ON c.parent_code = t.code WHERE c.type = ${ORGANIZATION_TYPE.area}
  )
  SELECT code, project_code, depth FROM area_tree WHERE depth > 0
) t`;

const FROM = `${AREA_TREE}
  JOIN organization a ON a.code = t.code
  JOIN organization up ON up.code = a.parent_code
  JOIN organization pr ON pr.code = t.project_code
  LEFT JOIN project_area pa ON pa.organization_code = a.code`;

/** An area's live devices, summed from device_tally (migration 092), not counted on device. */
const DEVICE_COUNT = '(SELECT coalesce(sum(k.devices), 0)::int FROM device_tally k WHERE k.organization_code = a.code)';
const optionalCode = schemaOf<string>({ anyOf: [referenceCode, { type: 'string', maxLength: 0 }] });

/**
 * The areas within the working organisations (an area is an organisation: no tenant column): the
 * count joins the project and the area's details only when the filter names them. The page is one
 * statement (no key: choosing its rows apart would walk the tree twice).
 */
const AREAS = listing({
  from: FROM,
  narrowFrom: (needed) =>
    [
      `${AREA_TREE} JOIN organization a ON a.code = t.code`,
      /\bpr\./.test(needed) ? 'JOIN organization pr ON pr.code = t.project_code' : '',
      /\bpa\./.test(needed) ? 'LEFT JOIN project_area pa ON pa.organization_code = a.code' : '',
    ]
      .filter(Boolean)
      .join(' '),
  scope: async (where, context) => where.scope(await organizationScope(context), 'a', { organization: 'code' }),
  filters: {
    keyword: contains(['a.code', 'a.name', "coalesce(pa.manager_name, '')", "coalesce(pa.address, '')"], text(64), { trim: true }),
    projectCode: equals('t.project_code', optionalCode),
    areaType: equals("coalesce(pa.area_type, 'district')", schemaOf<string>({ anyOf: [{ type: 'string', enum: AREA_TYPES }, { type: 'string', maxLength: 0 }] })),
    parentCode: custom(optionalCode, async (where, code, context) => void where.add('a.code = ANY($?::text[])', await subtreeOf(context.db, code))),
  },
  columns: {
    id: column<number>('a.id'),
    code: column<string>('a.code'),
    name: column<string>('a.name'),
    parentCode: column<string>('a.parent_code'),
    parentName: column<string>('up.name'),
    projectCode: column<string>('t.project_code'),
    projectName: column<string>('pr.name'),
    /** 项目 / 上级区域 / 区域, for pickers. */
    fullName: derived((row) => (row.level === 1 ? `${String(row.projectName)} / ${String(row.name)}` : `${String(row.projectName)} / ${String(row.parentName)} / ${String(row.name)}`)),
    level: column<number>('t.depth'),
    areaType: column('pa.area_type', (type: string | null) => type ?? 'district'),
    managerName: textColumn('pa.manager_name'),
    managerPhone: textColumn('pa.manager_phone'),
    address: textColumn('pa.address'),
    longitude: column<number | null>('pa.longitude'),
    latitude: column<number | null>('pa.latitude'),
    acreage: column('pa.acreage', numberOrNull),
    remark: textColumn('pa.remark'),
    childCount: column<number>('(SELECT count(*)::int FROM organization c WHERE c.parent_code = a.code)'),
    deviceCount: column<number>(DEVICE_COUNT),
    createdBy: textColumn('pa.created_by'),
    createTime: timeColumn('a.created_at'),
    updateTime: timeColumn('coalesce(pa.updated_at, a.created_at)'),
    canDelete: derived((row) => row.childCount === 0 && row.deviceCount === 0),
  },
  sorts: { code: 'a.code', name: 'a.name', projectName: 'pr.name', deviceCount: DEVICE_COUNT, createTime: 'a.created_at', sort: 'a.sort' },
  fallback: 'a.code',
});
type AreaRecord = ItemOf<typeof AREAS>;

/** The area `code` within the working organisations ("404" 区域不存在 otherwise). */
async function scopedArea(context: OperationContext<unknown>, scope: readonly string[], code: string, db: Queryable = context.db): Promise<AreaRecord> {
  const area = scope.includes(code) ? await AREAS.find(context, new Conditions().add('a.code = $?', code), '', db) : undefined;
  if (!area) throw fail.notFound('区域不存在');
  return area;
}

const areaFields = objectOf(
  {
    name: plainText(64),
    parentCode: referenceCode,
    areaType: enumOf(AREA_TYPES),
    managerName: optionalPlainText(32),
    managerPhone: phoneOrEmpty,
    address: optionalPlainText(128),
    longitude: optionalLongitude,
    latitude: optionalLatitude,
    acreage: orNull(quantity(100_000_000)),
    remark: optionalPlainText(200),
  },
  ['name', 'parentCode', 'areaType'],
);
type AreaFields = ParamOf<typeof areaFields>;

/** Where a new area goes: a project or an area within the scope ("403" outside, "400" any other organisation). */
async function checkParent(db: Queryable, scope: readonly string[], parentCode: string): Promise<{ code: string; type: number }> {
  const [parent] = await db.query<{ code: string; type: number }>('SELECT code, type FROM organization WHERE code = $1', [parentCode]);
  if (!parent) throw fail.badRequest('参数错误：parentCode（上级不存在）');
  if (!scope.includes(parentCode)) throw fail.forbidden('无权访问该组织');
  const inProject = parent.type === ORGANIZATION_TYPE.project || (await db.query(`SELECT 1 FROM ${AREA_TREE} WHERE t.code = $1`, [parentCode])).length > 0;
  if (!inProject) throw fail.badRequest('参数错误：parentCode（请选择项目或区域）');
  return parent;
}

async function checkSiblingName(db: Queryable, parentCode: string, name: string, exceptCode: string): Promise<void> {
  const [clash] = await db.query('SELECT 1 FROM organization WHERE parent_code = $1 AND name = $2 AND code <> $3', [parentCode, name, exceptCode]);
  if (clash) throw fail.conflict('同一上级下已有同名区域');
}

/** The next free code below `parent`: T0001P01 → T0001P01A03, T0001P01A01 → T0001P01A0102. */
async function nextAreaCode(db: Queryable, parent: { code: string; type: number }): Promise<string> {
  const prefix = parent.type === ORGANIZATION_TYPE.area ? parent.code : `${parent.code}A`;
  const [row] = await db.query<{ last: number | null }>('SELECT max(substring(code FROM $1::int)::int) AS last FROM organization WHERE code ~ $2', [
    prefix.length + 1,
    `^${prefix}[0-9]{2}$`,
  ]);
  const next = (row?.last ?? 0) + 1;
  if (next > 99) throw fail.conflict('下级区域数量已达上限');
  return `${prefix}${String(next).padStart(2, '0')}`;
}

async function writeDetails(db: Queryable, code: string, fields: AreaFields, by: string, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO project_area (organization_code, area_type, manager_name, manager_phone, address, longitude, latitude, acreage, remark, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
     ON CONFLICT (organization_code) DO UPDATE SET area_type = EXCLUDED.area_type, manager_name = EXCLUDED.manager_name, manager_phone = EXCLUDED.manager_phone,
       address = EXCLUDED.address, longitude = EXCLUDED.longitude, latitude = EXCLUDED.latitude, acreage = EXCLUDED.acreage, remark = EXCLUDED.remark,
       updated_at = EXCLUDED.updated_at`,
    [
      code,
      fields.areaType,
      fields.managerName?.trim() ?? '',
      fields.managerPhone ?? '',
      fields.address?.trim() ?? '',
      fields.longitude ?? null,
      fields.latitude ?? null,
      fields.acreage === undefined || fields.acreage === null ? null : cents(fields.acreage),
      fields.remark?.trim() ?? '',
      by,
      now,
    ],
  );
}

const codeParam = objectOf({ code: referenceCode }, ['code']);

export const projectAreaOperations = [
  defineOperation('project.area.page', { paramSchema: AREAS.paramSchema, handler: (context) => AREAS.page(context) }),

  /** The areas of the scope for pickers (at most 1,000), in tree order. */
  defineOperation('project.area.list', {
    paramSchema: AREAS.paramSchema,
    handler: async (context) => {
      const areas = await exportOf(context, AREAS.listing, await AREAS.where(context), 1000);
      return areas.map(({ code, name, fullName, projectCode, projectName, areaType, level }) => ({ code, name, fullName, projectCode, projectName, areaType, level }));
    },
  }),

  defineOperation('project.area.detail', {
    paramSchema: codeParam,
    handler: async (context) => scopedArea(context, await workingOrganizations(context), context.param.code),
  }),

  defineOperation('project.area.insert', {
    paramSchema: objectOf({ area: areaFields }, ['area']),
    handler: async (context) => {
      const scope = await workingOrganizations(context);
      const fields = context.param.area;
      const name = fields.name.trim();
      // One organisation added at a time (lockOrganizationTree): areas sent at once get their own codes.
      return context.db.transaction(async (tx) => {
        await lockOrganizationTree(tx);
        const parent = await checkParent(tx, scope, fields.parentCode);
        await checkSiblingName(tx, parent.code, name, '');
        const code = await nextAreaCode(tx, parent);
        await conflictOnClash(
          () =>
            tx.query(
              `INSERT INTO organization (code, name, type, parent_code, sort, created_at)
               VALUES ($1, $2, $3, $4, (SELECT COALESCE(max(sort), 0) + 1 FROM organization), $5)`,
              [code, name, ORGANIZATION_TYPE.area, parent.code, context.now],
            ),
          { unique: '区域编码冲突，请重试' },
        );
        await writeDetails(tx, code, fields, callerOf(context).loginName, context.now);
        return { code };
      });
    },
  }),

  /** Renames an area and rewrites its details; it stays where it is (moving is the organisation screen's). */
  defineOperation('project.area.modify', {
    paramSchema: objectOf({ code: referenceCode, area: areaFields }, ['code', 'area']),
    handler: async (context) => {
      const scope = await workingOrganizations(context);
      const { code, area: fields } = context.param;
      const name = fields.name.trim();
      await context.db.transaction(async (tx) => {
        await lockOrganizationTree(tx);
        const row = await scopedArea(context, scope, code, tx);
        if (fields.parentCode !== row.parentCode) throw fail.badRequest('参数错误：parentCode（区域不能移动，请在组织管理中调整）');
        await checkSiblingName(tx, row.parentCode, name, row.code);
        await tx.query('UPDATE organization SET name = $2 WHERE code = $1', [row.code, name]);
        await writeDetails(tx, row.code, fields, row.createdBy || callerOf(context).loginName, context.now);
      });
      return { code };
    },
  }),

  /** "409" while the area holds sub-areas, devices, users or other records. */
  defineOperation('project.area.delete', {
    paramSchema: codeParam,
    handler: async (context) => {
      const scope = await workingOrganizations(context);
      await context.db.transaction(async (tx) => {
        const row = await scopedArea(context, scope, context.param.code, tx);
        if (callerOf(context).organizationCodes.includes(row.code) || row.code === context.organizationCode) throw fail.conflict('不能删除当前所在的区域');
        if (row.childCount > 0) throw fail.conflict('该区域下还有下级区域，不能删除');
        const [device] = await tx.query('SELECT 1 FROM device WHERE organization_code = $1 LIMIT 1', [row.code]);
        if (device) throw fail.conflict('该区域下还有设备，不能删除');
        const [user] = await tx.query('SELECT 1 FROM user_organization WHERE organization_code = $1 LIMIT 1', [row.code]);
        if (user) throw fail.conflict('该区域下还有用户，不能删除');
        await conflictOnClash(() => tx.query('DELETE FROM organization WHERE code = $1', [row.code]), { reference: '该区域仍有业务数据，不能删除' });
      });
      return null;
    },
  }),
];
