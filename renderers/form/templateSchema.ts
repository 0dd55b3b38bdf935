import type { FormilySchema } from '../schema/types';

/**
 * Dynamic form templates (the survey, construction and operations forms of issue 6) as the
 * console draws them: a template is a list of fields (key, label, type, required, options,
 * limits); `templateToFormily` turns it into a Formily JSON schema that the form renderer's own
 * SchemaField draws — in the designer's live preview, in the fill-in of an order and, read-only,
 * on the administrator's audit. The server checks the same rules (server/domain/formTemplates.ts).
 */

export const TEMPLATE_FIELD_TYPES = ['text', 'textarea', 'number', 'select', 'checkbox', 'date', 'photo'] as const;
export type TemplateFieldType = (typeof TEMPLATE_FIELD_TYPES)[number];

export interface TemplateFieldOption {
  value: string;
  label: string;
}

export interface TemplateField {
  key: string;
  label: string;
  type: TemplateFieldType;
  required?: boolean;
  placeholder?: string;
  help?: string;
  /** select, checkbox */
  options?: TemplateFieldOption[];
  /** number */
  min?: number | null;
  max?: number | null;
  precision?: number | null;
  unit?: string;
  /** text, textarea */
  maxLength?: number | null;
  /** photo */
  maxCount?: number | null;
}

/** The longest text of each text type (and its limit when the template sets none). */
export const TEXT_LIMITS: Readonly<Record<'text' | 'textarea', number>> = { text: 200, textarea: 2000 };
export const DEFAULT_PHOTO_COUNT = 3;
export const MAX_PHOTO_COUNT = 9;
/** The photo types a photo field takes. */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
export const PHOTO_TYPE_MESSAGE = '只可以上传 JPG、PNG 或 WEBP 格式的照片';

export interface TemplateSchemaOptions {
  /** readPretty shows the values as text (the audit); editable by default. */
  pattern?: 'editable' | 'readPretty';
}

const isSet = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/** The Formily JSON schema of one field. */
export function fieldToFormily(field: TemplateField, index: number, options: TemplateSchemaOptions = {}): FormilySchema {
  const required = field.required === true;
  const node: FormilySchema = {
    title: field.label,
    'x-index': index,
    'x-decorator': 'FormItem',
    ...(field.help ? { 'x-decorator-props': { extra: field.help } } : {}),
    ...(options.pattern === 'readPretty' ? { 'x-pattern': 'readPretty' } : {}),
  };
  const validators: Array<Record<string, unknown>> = [];
  if (required) {
    node.required = true;
    validators.push({ required: true, message: `请填写“${field.label}”` });
  }
  const props: Record<string, unknown> = {};
  if (field.placeholder) props.placeholder = field.placeholder;
  switch (field.type) {
    case 'text':
    case 'textarea': {
      const limit = field.maxLength ?? TEXT_LIMITS[field.type];
      node.type = 'string';
      node['x-component'] = field.type === 'text' ? 'Input' : 'Input.TextArea';
      Object.assign(props, field.type === 'text' ? { allowClear: true } : { rows: 3, showCount: true }, { maxLength: limit });
      validators.push({ maxLength: limit, message: `“${field.label}”不能超过 ${limit} 个字` });
      break;
    }
    case 'number': {
      node.type = 'number';
      node['x-component'] = 'NumberPicker';
      Object.assign(props, { style: { width: '100%' } });
      if (isSet(field.min)) props.min = field.min;
      if (isSet(field.max)) props.max = field.max;
      if (isSet(field.precision)) props.precision = field.precision;
      if (field.unit) props.addonAfter = field.unit;
      const low = isSet(field.min) ? (field.min as number) : null;
      const high = isSet(field.max) ? (field.max as number) : null;
      const range = low !== null && high !== null ? `应在 ${low} 到 ${high} 之间` : low !== null ? `不能小于 ${low}` : `不能大于 ${String(high)}`;
      if (low !== null) validators.push({ minimum: low, message: `“${field.label}”${range}` });
      if (high !== null) validators.push({ maximum: high, message: `“${field.label}”${range}` });
      break;
    }
    case 'select':
      node.type = 'string';
      node['x-component'] = 'Select';
      node.enum = (field.options ?? []).map((option) => ({ label: option.label, value: option.value }));
      Object.assign(props, { allowClear: true, placeholder: field.placeholder || '请选择' });
      break;
    case 'checkbox':
      node.type = 'array';
      node['x-component'] = 'Checkbox.Group';
      node.enum = (field.options ?? []).map((option) => ({ label: option.label, value: option.value }));
      break;
    case 'date':
      node.type = 'string';
      node['x-component'] = 'DatePicker';
      Object.assign(props, { format: 'YYYY-MM-DD', style: { width: '100%' }, placeholder: field.placeholder || '请选择日期' });
      break;
    case 'photo':
      node.type = 'array';
      node['x-component'] = 'FileUpload';
      Object.assign(props, {
        multiple: true,
        maxCount: field.maxCount ?? DEFAULT_PHOTO_COUNT,
        accept: PHOTO_TYPES.join(','),
        allowedTypes: PHOTO_TYPES,
        typeMessage: PHOTO_TYPE_MESSAGE,
        listType: 'picture-card',
      });
      break;
  }
  if (Object.keys(props).length) node['x-component-props'] = props;
  if (validators.length) node['x-validator'] = validators;
  return node;
}

/** A template's fields as a Formily object schema, one property per field key, in the template's order. */
export function templateToFormily(fields: readonly TemplateField[], options: TemplateSchemaOptions = {}): FormilySchema {
  return { type: 'object', properties: Object.fromEntries(fields.map((field, index) => [field.key, fieldToFormily(field, index, options)])) };
}
