import { ORGANIZATION_TYPE } from '../../domain/organizations';
import { fail } from '../../http/envelope';
import { callerOf } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, text } from '../../core/params';
import { Conditions, containing } from '../../core/listQuery';
import { stewardOf } from '../../core/access';

/**
 * Tenants (type 2 organisations) and their regions (the 区域 organisations, type 4, below their
 * projects). Platform staff see every tenant; tenant staff only their own, and only the regions
 * within their organisations.
 */

interface TenantRow {
  code: string;
  name: string;
  created_at: Date;
  project_count: number;
  region_count: number;
  user_count: number;
}

interface RegionRow {
  code: string;
  name: string;
  parent_code: string;
  parent_name: string;
  tenant_code: string;
  tenant_name: string;
  project_code: string | null;
  project_name: string | null;
}

/** Every organisation below the tenants, with the tenant and the nearest project above it. */
const LINEAGE = `
  WITH RECURSIVE lineage (code, tenant_code, project_code) AS (
    SELECT code, code, NULL::text FROM organization WHERE type = ${ORGANIZATION_TYPE.tenant}
    UNION ALL
    SELECT o.code, l.tenant_code, CASE WHEN o.type = ${ORGANIZATION_TYPE.project} THEN o.code ELSE l.project_code END
      FROM organization o JOIN lineage l ON o.parent_code = l.code
  )`;

export const tenantOperations = [
  defineOperation('tenant.list', {
    paramSchema: objectOf({ keyword: text(64) }),
    handler: async (context) => {
      const steward = await stewardOf(context);
      const where = new Conditions().add(`t.type = ${ORGANIZATION_TYPE.tenant}`);
      if (steward.kind === 'tenant') where.add('t.code = $?', steward.tenantCode);
      where.when(context.param.keyword, '(t.code ILIKE $? OR t.name ILIKE $?)', (keyword) => containing(String(keyword)));
      const rows = await context.db.query<TenantRow>(
        `${LINEAGE}
         SELECT t.code, t.name, t.created_at,
                (SELECT count(*)::int FROM lineage l JOIN organization o ON o.code = l.code WHERE l.tenant_code = t.code AND o.type = ${ORGANIZATION_TYPE.project}) AS project_count,
                (SELECT count(*)::int FROM lineage l JOIN organization o ON o.code = l.code WHERE l.tenant_code = t.code AND o.type = ${ORGANIZATION_TYPE.area}) AS region_count,
                (SELECT count(DISTINCT uo.user_id)::int FROM lineage l JOIN user_organization uo ON uo.organization_code = l.code WHERE l.tenant_code = t.code) AS user_count
           FROM organization t WHERE ${where.sql} ORDER BY t.sort, t.id`,
        where.params,
      );
      return rows.map((row) => ({
        tenantCode: row.code,
        tenantName: row.name,
        projectCount: row.project_count,
        regionCount: row.region_count,
        userCount: row.user_count,
        createTime: row.created_at.toISOString(),
      }));
    },
  }),

  defineOperation('tenant.region.list', {
    paramSchema: objectOf({ tenantCode: text(64), keyword: text(64) }),
    handler: async (context) => {
      const steward = await stewardOf(context);
      const { tenantCode, keyword } = context.param;
      if (steward.kind === 'tenant' && tenantCode && tenantCode !== steward.tenantCode) throw fail.forbidden('无权访问该组织');
      const where = new Conditions().add(`o.type = ${ORGANIZATION_TYPE.area}`);
      if (steward.kind === 'tenant') where.add('o.code = ANY($?::text[])', callerOf(context).accessibleOrganizationCodes);
      where.when(tenantCode, 'l.tenant_code = $?').when(keyword, '(o.code ILIKE $? OR o.name ILIKE $?)', (value) => containing(String(value)));
      const rows = await context.db.query<RegionRow>(
        `${LINEAGE}
         SELECT o.code, o.name, o.parent_code, p.name AS parent_name, l.tenant_code, t.name AS tenant_name, l.project_code, pr.name AS project_name
           FROM lineage l
           JOIN organization o ON o.code = l.code
           JOIN organization p ON p.code = o.parent_code
           JOIN organization t ON t.code = l.tenant_code
           LEFT JOIN organization pr ON pr.code = l.project_code
          WHERE ${where.sql}
          ORDER BY t.sort, o.sort, o.id`,
        where.params,
      );
      return rows.map((row) => ({
        regionCode: row.code,
        regionName: row.name,
        parentCode: row.parent_code,
        parentName: row.parent_name,
        tenantCode: row.tenant_code,
        tenantName: row.tenant_name,
        projectCode: row.project_code ?? '',
        projectName: row.project_name ?? '',
      }));
    },
  }),
];
