import type { Queryable } from '../../db/database';
import {
  DEMO_TEMPLATES,
  FIELD_TYPES,
  FIELD_TYPE_NAMES,
  FORM_KINDS,
  KIND_NAMES,
  MAX_FIELDS,
  NUMBER_BOUND,
  limitText,
  templateProblem,
  type FormKind,
  type TemplateField,
} from '../../domain/formTemplates';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, schemaOf, text, type ParamSchema, optionalPlainText, plainText, orNull, numberIn, integerIn } from '../../core/params';
import { owningTenant, tenantInScope } from '../../core/access';
import { Conditions, exportOf } from '../../core/listQuery';
import { column, contains, derived, equals, listing, textColumn, timeColumn, type ItemOf } from '../../core/listing';
import { conflictOnClash } from '../../core/conflicts';
import { isoOrEmpty } from '../../core/values';

/**
 * 动态表单模板 (issue 6): the survey, construction and operations templates of a tenant, built
 * field by field in the designer (/dynamic/form/{1,2,3}/config) and filled in by the work orders
 * of the matching kind. A template lives in versions: the draft is edited, publishing freezes it
 * (the previous published version is superseded), editing a published template starts the next
 * draft, a copy starts a new template, and only a draft is ever deleted. Tenant staff see their
 * tenant's templates; platform staff above the tenants see every tenant's and must select a
 * tenant to create one. Another tenant's template is not acknowledged to exist ("404").
 */

const NOT_FOUND = '表单模板不存在';
const NAME_TAKEN = '同类模板中已有同名模板';

const kindSchema = schemaOf<FormKind>({ type: 'integer', enum: [...FORM_KINDS] });
const idSchema = schemaOf<number>({ type: 'integer', minimum: 1, maximum: 2_147_483_647 });
const versionSchema = schemaOf<number>({ type: 'integer', minimum: 1, maximum: 100_000 });
const nullableNumber = orNull(numberIn(-NUMBER_BOUND, NUMBER_BOUND));
const nullableInteger = (minimum: number, maximum: number) => orNull(integerIn(minimum, maximum));

const optionSchema = objectOf({ value: { type: 'string', minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_.-]+$' }, label: plainText(32) }, ['value', 'label']);

/** One field of a template: every string bounded, nothing but the known settings. */
export const templateFieldSchema: ParamSchema = objectOf(
  {
    key: { type: 'string', minLength: 1, maxLength: 32, pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
    label: plainText(32),
    type: { type: 'string', enum: [...FIELD_TYPES] },
    required: { type: 'boolean' },
    placeholder: optionalPlainText(64),
    help: optionalPlainText(200),
    options: { type: 'array', maxItems: 50, items: optionSchema },
    min: nullableNumber,
    max: nullableNumber,
    precision: nullableInteger(0, 4),
    unit: optionalPlainText(8),
    maxLength: nullableInteger(1, 2000),
    maxCount: nullableInteger(1, 9),
  },
  ['key', 'label', 'type'],
);

const templateProperties = {
  name: plainText(64),
  description: optionalPlainText(200),
  fields: schemaOf<TemplateField[]>({ type: 'array', maxItems: MAX_FIELDS, items: templateFieldSchema }),
};

/** A field as stored: labels trimmed, `required` always said, empty settings left out. */
export function storedField(field: TemplateField): TemplateField {
  const stored: TemplateField = { key: field.key, label: field.label.trim(), type: field.type, required: field.required === true };
  if (field.placeholder) stored.placeholder = field.placeholder;
  if (field.help) stored.help = field.help;
  if (field.options?.length) stored.options = field.options.map((option) => ({ value: option.value, label: option.label.trim() }));
  for (const setting of ['min', 'max', 'precision', 'maxLength', 'maxCount'] as const) {
    const value = field[setting];
    if (value !== undefined && value !== null) stored[setting] = value;
  }
  if (field.unit) stored.unit = field.unit;
  return stored;
}

/** The fields of a save, checked ("400" with the designer's sentence) and as stored. */
function checkedFields(fields: readonly TemplateField[], publishing = false): TemplateField[] {
  const stored = fields.map(storedField);
  const problem = templateProblem(stored, { publishing });
  if (problem) throw fail.badRequest(problem);
  return stored;
}

/** A template with its versions' state and use, as one row of `ft`. */
const TEMPLATE_FROM = `(
    SELECT t.id, t.tenant_code, org.name AS tenant_name, t.kind, t.name, t.description, u.user_name AS creator_name, t.created_at, t.updated_at,
           pub.version AS published_version, pub.published_at, dr.version AS draft_version,
           (SELECT max(v.version) FROM form_template_version v WHERE v.template_id = t.id)::int AS latest_version,
           jsonb_array_length(COALESCE(dr.fields, pub.fields, '[]'::jsonb))::int AS field_count,
           (SELECT count(*) FROM work_order o WHERE o.form_template_id = t.id)::int AS used_count,
           CASE WHEN pub.version IS NULL THEN 'draft' WHEN dr.version IS NULL THEN 'published' ELSE 'revising' END AS state
      FROM form_template t
      JOIN organization org ON org.code = t.tenant_code
      LEFT JOIN app_user u ON u.id = t.creator_id
      LEFT JOIN form_template_version pub ON pub.template_id = t.id AND pub.state = 'published'
      LEFT JOIN form_template_version dr ON dr.template_id = t.id AND dr.state = 'draft'
  ) ft`;

/** A template may be published and its draft deleted while it has a draft. */
const withDraft = derived((row) => row.draftVersion !== null);

/**
 * The templates, last changed first (form_template has a tenant and no organisation: the tenant
 * of the selected organisation, every tenant's for platform staff above the tenants).
 */
const TEMPLATES = listing({
  from: TEMPLATE_FROM,
  scope: async (where, context) => {
    const tenantCode = await tenantInScope(context);
    if (tenantCode !== null) where.add('ft.tenant_code = $?', tenantCode);
  },
  filters: {
    kind: equals('ft.kind', kindSchema),
    keyword: contains(['ft.name', 'ft.description'], text(64)),
    state: equals('ft.state', schemaOf<string>({ anyOf: [{ type: 'string', enum: ['draft', 'published', 'revising'] }, { type: 'string', maxLength: 0 }] })),
  },
  columns: {
    id: column<number>('ft.id'),
    kind: column<FormKind>('ft.kind'),
    tenantCode: column<string>('ft.tenant_code'),
    tenantName: column<string>('ft.tenant_name'),
    name: column<string>('ft.name'),
    description: column<string>('ft.description'),
    state: column<'draft' | 'published' | 'revising'>('ft.state'),
    publishedVersion: column<number | null>('ft.published_version'),
    draftVersion: column<number | null>('ft.draft_version'),
    latestVersion: column<number>('ft.latest_version'),
    fieldCount: column<number>('ft.field_count'),
    usedCount: column<number>('ft.used_count'),
    creatorName: textColumn('ft.creator_name'),
    createTime: timeColumn('ft.created_at'),
    updateTime: timeColumn('ft.updated_at'),
    publishTime: timeColumn('ft.published_at'),
    canModify: derived(() => true),
    canPublish: withDraft,
    canDelete: withDraft,
    canDuplicate: derived(() => true),
  },
  sorts: { name: 'ft.name', createTime: 'ft.created_at', updateTime: 'ft.updated_at', usedCount: 'ft.used_count' },
  fallback: 'ft.updated_at DESC, ft.id DESC',
});
type TemplateRecord = ItemOf<typeof TEMPLATES>;

/** A template the caller may see (null tenant: platform staff above the tenants see all), locked first in `db`'s transaction when asked. */
async function findTemplate(context: OperationContext<unknown>, tenantCode: string | null, id: number, db: Queryable = context.db, lock = false): Promise<TemplateRecord> {
  const where = new Conditions().add('ft.id = $?', id);
  if (tenantCode !== null) where.add('ft.tenant_code = $?', tenantCode);
  if (lock) await db.query(`SELECT 1 FROM form_template ft WHERE ${where.sql} FOR UPDATE`, where.params);
  const template = await TEMPLATES.find(context, where, '', db);
  if (!template) throw fail.notFound(NOT_FOUND);
  return template;
}

interface VersionRow {
  version: number;
  state: 'draft' | 'published' | 'superseded';
  fields: TemplateField[];
  editor_name: string | null;
  publisher_name: string | null;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
}

async function versionsOf(db: Queryable, templateId: number): Promise<VersionRow[]> {
  return db.query<VersionRow>(
    `SELECT v.version, v.state, v.fields, eu.user_name AS editor_name, pu.user_name AS publisher_name, v.created_at, v.updated_at, v.published_at
       FROM form_template_version v
       LEFT JOIN app_user eu ON eu.id = v.editor_id
       LEFT JOIN app_user pu ON pu.id = v.publisher_id
      WHERE v.template_id = $1 ORDER BY v.version DESC`,
    [templateId],
  );
}

/** The name a copy gets: 「名称（副本）」, then 「名称（副本2）」… within 64 characters. */
async function copyName(db: Queryable, tenantCode: string, kind: FormKind, name: string): Promise<string> {
  for (let n = 1; n <= 100; n += 1) {
    const suffix = n === 1 ? '（副本）' : `（副本${n}）`;
    const candidate = `${[...name].slice(0, 64 - suffix.length).join('')}${suffix}`;
    const [taken] = await db.query('SELECT 1 FROM form_template WHERE tenant_code = $1 AND kind = $2 AND name = $3', [tenantCode, kind, candidate]);
    if (!taken) return candidate;
  }
  throw fail.conflict(NAME_TAKEN);
}

/** A name Excel takes for a sheet (and a file): no \ / ? * [ ] :, at most 31 characters. */
const sheetTitle = (name: string): string => [...name.replace(/[\\/?*[\]:]/g, '_')].slice(0, 31).join('');

export const formTemplateOperations = [
  defineOperation('activeForm.template.page', { paramSchema: TEMPLATES.paramSchema, handler: (context) => TEMPLATES.page(context) }),

  defineOperation('activeForm.template.get', {
    paramSchema: objectOf({ id: idSchema, version: versionSchema, published: schemaOf<boolean>({ type: 'boolean' }) }, ['id']),
    handler: async (context) => {
      const template = await findTemplate(context, await tenantInScope(context), context.param.id);
      const versions = await versionsOf(context.db, template.id);
      const wanted = context.param.version ?? (context.param.published ? template.publishedVersion : (template.draftVersion ?? template.publishedVersion));
      const shown = versions.find((version) => version.version === wanted);
      if (!shown) throw fail.notFound(context.param.published ? '该模板尚未发布' : '模板版本不存在');
      return {
        ...template,
        version: shown.version,
        versionState: shown.state,
        fields: shown.fields,
        versions: versions.map((version) => ({
          version: version.version,
          state: version.state,
          fieldCount: version.fields.length,
          editorName: version.editor_name ?? '',
          publisherName: version.publisher_name ?? '',
          updateTime: isoOrEmpty(version.updated_at),
          publishTime: isoOrEmpty(version.published_at),
        })),
      };
    },
  }),

  defineOperation('activeForm.template.list', {
    paramSchema: objectOf({ kind: kindSchema }),
    handler: async (context) => {
      // The published templates, by name (the page's filters and columns, another order).
      const where = (await TEMPLATES.where(context)).add('ft.published_version IS NOT NULL');
      const templates = await exportOf(context, { ...TEMPLATES.listing, fallback: 'ft.name, ft.id' }, where, 500);
      return templates.map((template) => ({
        id: template.id,
        kind: template.kind,
        name: template.name,
        version: template.publishedVersion,
        label: `${template.name}（v${String(template.publishedVersion)}）`,
        tenantCode: template.tenantCode,
      }));
    },
  }),

  defineOperation('activeForm.template.insert', {
    paramSchema: objectOf({ kind: kindSchema, ...templateProperties }, ['kind', 'name', 'fields']),
    handler: async (context) => {
      const tenantCode = await owningTenant(context);
      const caller = callerOf(context);
      const fields = checkedFields(context.param.fields);
      return context.db.transaction(async (tx) => {
        const [template] = await conflictOnClash(
          () =>
            tx.query<{ id: number }>(
              `INSERT INTO form_template (tenant_code, kind, name, description, creator_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
              [tenantCode, context.param.kind, context.param.name.trim(), context.param.description ?? '', caller.userId, context.now],
            ),
          { unique: NAME_TAKEN },
        );
        await tx.query(
          `INSERT INTO form_template_version (template_id, version, state, fields, editor_id, created_at, updated_at) VALUES ($1, 1, 'draft', $2::jsonb, $3, $4, $4)`,
          [template.id, JSON.stringify(fields), caller.userId, context.now],
        );
        return { id: template.id, version: 1 };
      });
    },
  }),

  defineOperation('activeForm.template.modify', {
    paramSchema: objectOf({ id: idSchema, ...templateProperties }, ['id', 'name', 'fields']),
    handler: async (context) => {
      const tenantCode = await tenantInScope(context);
      const caller = callerOf(context);
      const fields = checkedFields(context.param.fields);
      return context.db.transaction(async (tx) => {
        const row = await findTemplate(context, tenantCode, context.param.id, tx, true);
        await conflictOnClash(
          () => tx.query('UPDATE form_template SET name = $2, description = $3, updated_at = $4 WHERE id = $1', [row.id, context.param.name.trim(), context.param.description ?? '', context.now]),
          { unique: NAME_TAKEN },
        );
        const json = JSON.stringify(fields);
        if (row.draftVersion !== null) {
          await tx.query(`UPDATE form_template_version SET fields = $3::jsonb, editor_id = $4, updated_at = $5 WHERE template_id = $1 AND version = $2`, [
            row.id,
            row.draftVersion,
            json,
            caller.userId,
            context.now,
          ]);
          return { id: row.id, version: row.draftVersion };
        }
        // The published version is frozen: changed fields start the next draft; a new name alone does not.
        const [published] = await tx.query<{ same: boolean }>(`SELECT fields = $3::jsonb AS same FROM form_template_version WHERE template_id = $1 AND version = $2`, [
          row.id,
          row.publishedVersion,
          json,
        ]);
        if (published?.same) return { id: row.id, version: row.publishedVersion };
        const version = row.latestVersion + 1;
        await tx.query(
          `INSERT INTO form_template_version (template_id, version, state, fields, editor_id, created_at, updated_at) VALUES ($1, $2, 'draft', $3::jsonb, $4, $5, $5)`,
          [row.id, version, json, caller.userId, context.now],
        );
        return { id: row.id, version };
      });
    },
  }),

  defineOperation('activeForm.template.publish', {
    paramSchema: objectOf({ id: idSchema }, ['id']),
    handler: async (context) => {
      const tenantCode = await tenantInScope(context);
      return context.db.transaction(async (tx) => {
        const row = await findTemplate(context, tenantCode, context.param.id, tx, true);
        if (row.draftVersion === null) throw fail.conflict('没有待发布的草稿：请先编辑模板');
        const [draft] = await tx.query<{ fields: TemplateField[] }>('SELECT fields FROM form_template_version WHERE template_id = $1 AND version = $2', [row.id, row.draftVersion]);
        checkedFields(draft.fields, true);
        await tx.query(`UPDATE form_template_version SET state = 'superseded' WHERE template_id = $1 AND state = 'published'`, [row.id]);
        const published = await tx.query<{ version: number }>(
          `UPDATE form_template_version SET state = 'published', published_at = $3, publisher_id = $4 WHERE template_id = $1 AND version = $2 AND state = 'draft' RETURNING version`,
          [row.id, row.draftVersion, context.now, callerOf(context).userId],
        );
        if (published.length === 0) throw fail.conflict('没有待发布的草稿：请先编辑模板');
        await tx.query('UPDATE form_template SET updated_at = $2 WHERE id = $1', [row.id, context.now]);
        return { id: row.id, version: row.draftVersion };
      });
    },
  }),

  defineOperation('activeForm.template.duplicate', {
    paramSchema: objectOf({ id: idSchema, version: versionSchema, name: plainText(64) }, ['id']),
    handler: async (context) => {
      const tenantCode = await tenantInScope(context);
      const caller = callerOf(context);
      return context.db.transaction(async (tx) => {
        const row = await findTemplate(context, tenantCode, context.param.id, tx);
        const wanted = context.param.version ?? row.draftVersion ?? row.publishedVersion;
        const [source] = await tx.query<{ fields: TemplateField[] }>('SELECT fields FROM form_template_version WHERE template_id = $1 AND version = $2', [row.id, wanted]);
        if (!source) throw fail.notFound('模板版本不存在');
        const name = context.param.name?.trim() || (await copyName(tx, row.tenantCode, row.kind, row.name));
        const [copy] = await conflictOnClash(
          () =>
            tx.query<{ id: number }>(
              `INSERT INTO form_template (tenant_code, kind, name, description, creator_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
              [row.tenantCode, row.kind, name, row.description, caller.userId, context.now],
            ),
          { unique: NAME_TAKEN },
        );
        await tx.query(
          `INSERT INTO form_template_version (template_id, version, state, fields, editor_id, created_at, updated_at) VALUES ($1, 1, 'draft', $2::jsonb, $3, $4, $4)`,
          [copy.id, JSON.stringify(source.fields), caller.userId, context.now],
        );
        return { id: copy.id, version: 1, name };
      });
    },
  }),

  defineOperation('activeForm.template.delete', {
    paramSchema: objectOf({ id: idSchema }, ['id']),
    handler: async (context) => {
      const tenantCode = await tenantInScope(context);
      return context.db.transaction(async (tx) => {
        const row = await findTemplate(context, tenantCode, context.param.id, tx, true);
        if (row.draftVersion === null) throw fail.conflict('已发布的模板不能删除，只能删除草稿');
        await tx.query('DELETE FROM form_template_version WHERE template_id = $1 AND version = $2', [row.id, row.draftVersion]);
        // A template never published goes with its only draft.
        if (row.publishedVersion === null) {
          await tx.query('DELETE FROM form_template WHERE id = $1', [row.id]);
          return { deleted: 'template' as const };
        }
        await tx.query('UPDATE form_template SET updated_at = $2 WHERE id = $1', [row.id, context.now]);
        return { deleted: 'draft' as const, version: row.publishedVersion };
      });
    },
  }),

  defineOperation('activeForm.template.demoDownload', {
    paramSchema: objectOf({ kind: kindSchema, id: idSchema, version: versionSchema }),
    handler: async (context) => {
      let title: string;
      let fields: readonly TemplateField[];
      if (context.param.id !== undefined) {
        const row = await findTemplate(context, await tenantInScope(context), context.param.id);
        const wanted = context.param.version ?? row.draftVersion ?? row.publishedVersion;
        const [version] = await context.db.query<{ fields: TemplateField[] }>('SELECT fields FROM form_template_version WHERE template_id = $1 AND version = $2', [row.id, wanted]);
        if (!version) throw fail.notFound('模板版本不存在');
        title = sheetTitle(`${row.name}-v${String(wanted)}`);
        fields = version.fields;
      } else {
        const kind = context.param.kind ?? 1;
        title = `${KIND_NAMES[kind]}示例`;
        fields = DEMO_TEMPLATES[kind].fields;
      }
      return exportFile(
        context,
        title,
        [
          { title: '序号', value: (field) => fields.indexOf(field) + 1, width: 8 },
          { title: '字段标识', value: (field) => field.key, width: 18 },
          { title: '字段名称', value: (field) => field.label, width: 18 },
          { title: '字段类型', value: (field) => FIELD_TYPE_NAMES[field.type], width: 12 },
          { title: '必填', value: (field) => (field.required ? '是' : '否'), width: 8 },
          { title: '选项', value: (field) => (field.options ?? []).map((option) => option.label).join('、'), width: 30 },
          { title: '取值限制', value: (field) => limitText(field), width: 28 },
          { title: '填写提示', value: (field) => field.help || field.placeholder || '', width: 36 },
        ],
        fields,
      );
    },
  }),
];
