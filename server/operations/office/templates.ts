import { fail } from '../../http/envelope';
import type { EntityExtension } from '../../entities/operations';
import { isPlatformStaff, tenantScope } from '../../core/access';
import { defineOperation } from '../../core/operation';
import { objectOf, text, optionalEnumOf } from '../../core/params';
import { Conditions, containing } from '../../core/listQuery';

/**
 * 模板管理: message and work-order text templates, their content written with ${变量}
 * placeholders that the sending or filling side replaces (${设备名称}, ${工单编号} …). A tenant
 * keeps its own templates; the platform's (no tenant) are offered to every tenant, read-only to
 * them. Pickers elsewhere read the enabled ones through template.list.
 *
 * page/detail/insert/modify/delete are served from the entity definition (schemas/entities/office/
 * template.json, issue 25: a shared tenant entity); what stays here is the placeholders, the owner's
 * name, what the caller may do with each template, and the pickers' list.
 */

export const TEMPLATE_TYPES = ['message', 'work_order'] as const;
/** A placeholder: ${name}, the name in letters, digits, underscores or Chinese characters. */
const PLACEHOLDER = /\$\{([A-Za-z_\u4e00-\u9fa5][A-Za-z0-9_\u4e00-\u9fa5]{0,31})\}/g;

/** The placeholders of `content` in order of first use ("400" for a `${` that does not close into one). */
export function placeholdersOf(content: string): string[] {
  if (content.replace(PLACEHOLDER, '').includes('${')) throw fail.badRequest('参数错误：content（占位符格式应为 ${变量名}）');
  return [...new Set([...content.matchAll(PLACEHOLDER)].map((match) => match[1]))];
}

const ownerName = (tenantCode: string, tenantName: unknown): string => (tenantCode === '' ? '平台通用' : String(tenantName ?? ''));

export const templateExtension: EntityExtension = {
  computed: {
    schema: { variables: { type: 'array', items: { type: 'string' } }, ownerName: { type: 'string' }, canModify: { type: 'boolean' }, canDelete: { type: 'boolean' } },
    of: (record) => ({ variables: placeholdersOf(String(record.content)), ownerName: ownerName(String(record.tenantCode), record.tenantName), canModify: false, canDelete: false }),
  },
  // A tenant's template within the scope may be changed, the platform's only from the platform root.
  answer: async (records, context) => {
    const scope = await tenantScope(context);
    const platformWriter = scope.home === null && isPlatformStaff(context);
    for (const record of records) {
      const changeable = record.tenantCode === '' ? platformWriter : scope.tenantCodes.includes(String(record.tenantCode));
      Object.assign(record, { canModify: changeable, canDelete: changeable });
    }
  },
  omit: ['tenantName'],
  beforeWrite: ({ values }) => {
    placeholdersOf(String(values.content ?? ''));
  },
};

interface TemplateRow {
  id: number;
  type: string;
  name: string;
  content: string;
  tenant_code: string | null;
  tenant_name: string | null;
}

export const templateOperations = [
  /** The enabled templates the caller may pick (of one type when given), for other screens' pickers. */
  defineOperation('template.list', {
    paramSchema: objectOf({ keyword: text(64), type: optionalEnumOf(TEMPLATE_TYPES) }),
    handler: async (context) => {
      const where = new Conditions()
        .add('(tt.tenant_code IS NULL OR tt.tenant_code = ANY($?::text[]))', (await tenantScope(context)).tenantCodes)
        .add('tt.enabled')
        .when(context.param.keyword?.trim(), '(tt.name ILIKE $? OR tt.content ILIKE $?)', (keyword) => containing(String(keyword)))
        .when(context.param.type, 'tt.type = $?');
      const rows = await context.db.query<TemplateRow>(
        `SELECT tt.id, tt.type, tt.name, tt.content, tt.tenant_code, tn.name AS tenant_name
           FROM text_template tt LEFT JOIN organization tn ON tn.code = tt.tenant_code
          WHERE ${where.sql} ORDER BY tt.type, tt.name, tt.id LIMIT 500`,
        where.params,
      );
      return rows.map((row) => ({ id: row.id, type: row.type, name: row.name, content: row.content, variables: placeholdersOf(row.content), ownerName: ownerName(row.tenant_code ?? '', row.tenant_name) }));
    },
  }),
];
