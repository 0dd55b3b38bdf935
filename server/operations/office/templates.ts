import type { Queryable } from '../../db/database';
import { fail } from '../../http/envelope';
import { isPlatformStaff } from '../administration/scope';
import { callerOf, defineOperation, objectOf, text, type OperationContext, type ParamSchema } from '../define';
import { Conditions, containing, exportOf, pageOf, type Listing } from '../listQuery';
import { conflictOnClash, optionalPlainText, plainText } from '../system/shared';
import { optionalEnumOf } from '../work/workOrders';
import { recordId, tenantScope, type TenantScope } from './scope';

/**
 * 模板管理: message and work-order text templates, their content written with ${变量}
 * placeholders that the sending or filling side replaces (${设备名称}, ${工单编号} …). A tenant
 * keeps its own templates; the platform's (no tenant) are offered to every tenant, read-only to
 * them. Pickers elsewhere read the enabled ones through template.list.
 */

export const TEMPLATE_TYPES = ['message', 'work_order'] as const;
/** A placeholder: ${name}, the name in letters, digits, underscores or Chinese characters. */
const PLACEHOLDER = /\$\{([A-Za-z_\u4e00-\u9fa5][A-Za-z0-9_\u4e00-\u9fa5]{0,31})\}/g;

/** The placeholders of `content` in order of first use ("400" for a `${` that does not close into one). */
export function placeholdersOf(content: string): string[] {
  if (content.replace(PLACEHOLDER, '').includes('${')) throw fail.badRequest('参数错误：content（占位符格式应为 ${变量名}）');
  return [...new Set([...content.matchAll(PLACEHOLDER)].map((match) => match[1]))];
}

interface TemplateRow {
  id: number;
  tenant_code: string | null;
  tenant_name: string | null;
  type: string;
  name: string;
  content: string;
  enabled: boolean;
  remark: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

const FROM = 'text_template tt LEFT JOIN organization tn ON tn.code = tt.tenant_code';
const SELECT = 'tt.id, tt.tenant_code, tn.name AS tenant_name, tt.type, tt.name, tt.content, tt.enabled, tt.remark, tt.created_by, tt.created_at, tt.updated_at';

/** The templates, the platform's first (text_template alone for the count and the page's choice of rows). */
const LISTING: Listing<TemplateRow, TemplateRow> = {
  from: FROM,
  narrowFrom: 'text_template tt',
  key: 'tt.id',
  columns: SELECT,
  sorts: { name: 'tt.name', type: 'tt.type', createTime: 'tt.created_at', updateTime: 'tt.updated_at' },
  fallback: 'tt.tenant_code NULLS FIRST, tt.type, tt.name, tt.id',
  record: (row) => row,
};

/** Whether the caller may change `row`: a tenant's template within the scope, the platform's only from the platform root. */
function changeable(context: OperationContext<unknown>, scope: TenantScope, row: Pick<TemplateRow, 'tenant_code'>): boolean {
  return row.tenant_code === null ? scope.home === null && isPlatformStaff(context) : scope.tenantCodes.includes(row.tenant_code);
}

function templateRecord(row: TemplateRow, canModify: boolean) {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    content: row.content,
    variables: placeholdersOf(row.content),
    enabled: row.enabled,
    remark: row.remark,
    tenantCode: row.tenant_code ?? '',
    ownerName: row.tenant_code === null ? '平台通用' : (row.tenant_name ?? ''),
    createdBy: row.created_by,
    createTime: row.created_at.toISOString(),
    updateTime: row.updated_at.toISOString(),
    canModify,
    canDelete: canModify,
  };
}

/**
 * The templates the scope sees: its tenants' and the platform's (tenant_code null: the platform's,
 * offered to every tenant; no organisation column, so the whole tenant's whichever is selected).
 */
const visible = (scope: TenantScope) => new Conditions().add('(tt.tenant_code IS NULL OR tt.tenant_code = ANY($?::text[]))', scope.tenantCodes);

async function visibleTemplate(db: Queryable, scope: TenantScope, id: number): Promise<TemplateRow> {
  const clause = visible(scope).add('tt.id = $?', id);
  const [row] = await db.query<TemplateRow>(`SELECT ${SELECT} FROM ${FROM} WHERE ${clause.sql}`, clause.params);
  if (!row) throw fail.notFound('模板不存在');
  return row;
}

/** A template the caller may change ("404" unseen, "403" the platform's to a tenant). */
async function changeableTemplate(context: OperationContext<unknown>, scope: TenantScope, id: number): Promise<TemplateRow> {
  const row = await visibleTemplate(context.db, scope, id);
  if (!changeable(context, scope, row)) throw fail.forbidden('平台通用模板不能修改或删除');
  return row;
}

interface TemplateFilter {
  keyword?: string;
  type?: string;
  enabled?: string;
}

const filterSchema: Record<string, ParamSchema> = {
  keyword: text(64),
  type: optionalEnumOf(TEMPLATE_TYPES),
  enabled: optionalEnumOf(['1', '0']),
};

function filterClause(scope: TenantScope, filter: TemplateFilter): Conditions {
  return visible(scope)
    .when(filter.keyword?.trim(), '(tt.name ILIKE $? OR tt.content ILIKE $?)', (keyword) => containing(String(keyword)))
    .when(filter.type, 'tt.type = $?')
    .when(filter.enabled, 'tt.enabled = $?', (enabled) => enabled === '1');
}

interface TemplateFields {
  type: (typeof TEMPLATE_TYPES)[number];
  name: string;
  content: string;
  enabled?: boolean;
  remark?: string;
}

const templateFields = objectOf(
  {
    type: { type: 'string', enum: [...TEMPLATE_TYPES] },
    name: plainText(64),
    content: plainText(2000),
    enabled: { type: 'boolean' },
    remark: optionalPlainText(200),
  },
  ['type', 'name', 'content'],
);

const NAME_TAKEN = '同类模板中已有同名模板';

export const templateOperations = [
  defineOperation<TemplateFilter>('template.page', {
    paramSchema: objectOf(filterSchema),
    handler: async (context) => {
      const scope = await tenantScope(context);
      const page = await pageOf(context, LISTING, filterClause(scope, context.param));
      return { ...page, records: page.records.map((row) => templateRecord(row, changeable(context, scope, row))) };
    },
  }),

  /** The enabled templates the caller may pick (of one type when given), for other screens' pickers. */
  defineOperation<TemplateFilter>('template.list', {
    paramSchema: objectOf({ keyword: text(64), type: optionalEnumOf(TEMPLATE_TYPES) }),
    handler: async (context) => {
      const where = filterClause(await tenantScope(context), { ...context.param, enabled: '1' });
      const rows = await exportOf(context, { ...LISTING, fallback: 'tt.type, tt.name, tt.id' }, where, 500);
      return rows.map((row) => ({ id: row.id, type: row.type, name: row.name, content: row.content, variables: placeholdersOf(row.content), ownerName: row.tenant_code === null ? '平台通用' : (row.tenant_name ?? '') }));
    },
  }),

  defineOperation<{ id: number }>('template.detail', {
    paramSchema: objectOf({ id: recordId }, ['id']),
    handler: async (context) => {
      const scope = await tenantScope(context);
      const row = await visibleTemplate(context.db, scope, context.param.id);
      return templateRecord(row, changeable(context, scope, row));
    },
  }),

  defineOperation<{ template: TemplateFields }>('template.insert', {
    paramSchema: objectOf({ template: templateFields }, ['template']),
    handler: async (context) => {
      const scope = await tenantScope(context);
      const fields = context.param.template;
      placeholdersOf(fields.content);
      // Above the tenants only platform staff write, and what they write is the platform's.
      if (scope.home === null && !isPlatformStaff(context)) throw fail.forbidden();
      const [row] = await conflictOnClash(
        () =>
          context.db.query<{ id: number }>(
            `INSERT INTO text_template (tenant_code, type, name, content, enabled, remark, created_by, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id`,
            [scope.home, fields.type, fields.name.trim(), fields.content.trim(), fields.enabled ?? true, fields.remark?.trim() ?? '', callerOf(context).loginName, context.now],
          ),
        { unique: NAME_TAKEN },
      );
      return { id: row.id };
    },
  }),

  defineOperation<{ id: number; template: TemplateFields }>('template.modify', {
    paramSchema: objectOf({ id: recordId, template: templateFields }, ['id', 'template']),
    handler: async (context) => {
      const scope = await tenantScope(context);
      const { id, template: fields } = context.param;
      placeholdersOf(fields.content);
      const row = await changeableTemplate(context, scope, id);
      await conflictOnClash(
        () =>
          context.db.query('UPDATE text_template SET type = $2, name = $3, content = $4, enabled = $5, remark = $6, updated_at = $7 WHERE id = $1', [
            row.id,
            fields.type,
            fields.name.trim(),
            fields.content.trim(),
            fields.enabled ?? row.enabled,
            fields.remark?.trim() ?? '',
            context.now,
          ]),
        { unique: NAME_TAKEN },
      );
      return { id: row.id };
    },
  }),

  defineOperation<{ id: number }>('template.delete', {
    paramSchema: objectOf({ id: recordId }, ['id']),
    handler: async (context) => {
      const row = await changeableTemplate(context, await tenantScope(context), context.param.id);
      await context.db.query('DELETE FROM text_template WHERE id = $1', [row.id]);
      return null;
    },
  }),
];
