import type { Queryable } from '../db/database';
import { KIND_OF_ORDER_TYPE, checkFormData, valueText, type FormValues, type TemplateField } from './formTemplates';
import { fail } from '../http/envelope';

/**
 * The dynamic form of a survey, construction or maintenance order: which published template
 * (and which of its versions) the order fills, and the values filled in, checked on the server
 * against that very version — required fields, types, options and number limits.
 */

export type FormOrderType = keyof typeof KIND_OF_ORDER_TYPE;

/** What an order keeps of its form. */
export interface OrderForm {
  templateId: number | null;
  version: number | null;
  data: FormValues | null;
}

export const NO_FORM: OrderForm = { templateId: null, version: null, data: null };

interface TemplateVersion {
  name: string;
  tenant_code: string;
  fields: TemplateField[];
}

async function versionOf(db: Queryable, templateId: number, version: number): Promise<TemplateVersion | null> {
  const [row] = await db.query<TemplateVersion>(
    `SELECT t.name, t.tenant_code, v.fields FROM form_template t JOIN form_template_version v ON v.template_id = t.id WHERE t.id = $1 AND v.version = $2`,
    [templateId, version],
  );
  return row ?? null;
}

/**
 * The form an order keeps after a save. `templateId` undefined keeps the current template, null
 * detaches it, another id attaches that template's published version of the order's kind and
 * tenant ("400" when there is none) and clears the values. `data` undefined keeps the values
 * (unless the template changed), null clears them, an object is checked against the version
 * ("400" 表单填写有误：…). `finishing` (the work is being submitted as done) requires a filled form
 * when a template is attached.
 */
export async function resolveOrderForm(
  db: Queryable,
  input: {
    tenantCode: string;
    orderType: FormOrderType;
    current: OrderForm;
    templateId: number | null | undefined;
    data: FormValues | null | undefined;
    finishing: boolean;
  },
): Promise<OrderForm> {
  let { templateId, version, data } = input.current;
  if (input.templateId !== undefined && input.templateId !== templateId) {
    data = null;
    if (input.templateId === null) {
      templateId = null;
      version = null;
    } else {
      const [published] = await db.query<{ version: number }>(
        `SELECT v.version FROM form_template t JOIN form_template_version v ON v.template_id = t.id AND v.state = 'published'
          WHERE t.id = $1 AND t.tenant_code = $2 AND t.kind = $3`,
        [input.templateId, input.tenantCode, KIND_OF_ORDER_TYPE[input.orderType]],
      );
      if (!published) throw fail.badRequest('表单模板不存在或尚未发布');
      templateId = input.templateId;
      version = published.version;
    }
  }
  const template = templateId !== null && version !== null ? await versionOf(db, templateId, version) : null;
  if (template && template.tenant_code !== input.tenantCode) throw fail.badRequest('表单模板不属于该工单的租户');
  if (input.data !== undefined) {
    if (input.data === null) data = null;
    else {
      if (!template) throw fail.badRequest('未选择表单模板，不能填写表单');
      const checked = checkFormData(template.fields, input.data);
      if (!checked.ok) throw fail.badRequest(`表单填写有误：${checked.problem}`);
      data = checked.values;
    }
  }
  if (input.finishing && template && data === null) throw fail.badRequest(`请先填写表单“${template.name}”`);
  return { templateId, version, data };
}

/** The form an order row keeps. */
export const formOf = (row: { form_template_id: number | null; form_template_version: number | null; form_data: Record<string, unknown> | null }): OrderForm => ({
  templateId: row.form_template_id,
  version: row.form_template_version,
  data: row.form_data,
});

/**
 * The filled form as a detail page shows it: the template's name and version, and one row per
 * field in the template's order with its value as text (option labels) and its photos.
 */
export async function filledFormOf(db: Queryable, form: OrderForm) {
  const template = form.templateId !== null && form.version !== null ? await versionOf(db, form.templateId, form.version) : null;
  if (!template) return { formTemplateName: '', formTemplateLabel: '', filledForm: [] };
  const data = form.data ?? {};
  return {
    formTemplateName: template.name,
    formTemplateLabel: `${template.name}（v${String(form.version)}）`,
    filledForm: template.fields.map((field) => {
      const value = Object.hasOwn(data, field.key) ? data[field.key] : undefined;
      return {
        key: field.key,
        label: field.label,
        type: field.type,
        required: field.required === true,
        value: value ?? null,
        text: field.type === 'photo' ? '' : valueText(field, value),
        photos: field.type === 'photo' && Array.isArray(value) ? value : [],
      };
    }),
  };
}
