/**
 * Dynamic form templates (issue 6), free of SQL: the kinds of template and the orders that fill
 * them, the field types a template is built from, the checks a template must pass beyond its JSON
 * schema (unique keys, options where a choice needs them, sensible limits), the checks a filled
 * form must pass against its template (required fields, types, options, number limits), and the
 * demo template of each kind (the demo download and the seed use them).
 */

/** dynamic_form_type: 1 survey (勘察), 2 construction (施工), 3 operations (运维, maintenance orders). */
export const FORM_KINDS = [1, 2, 3] as const;
export type FormKind = (typeof FORM_KINDS)[number];

/** The work order type that fills each kind of template. */
export const ORDER_TYPE_OF_KIND: Readonly<Record<FormKind, 'exploration' | 'construction' | 'maintenance'>> = {
  1: 'exploration',
  2: 'construction',
  3: 'maintenance',
};

export const KIND_OF_ORDER_TYPE: Readonly<Record<'exploration' | 'construction' | 'maintenance', FormKind>> = {
  exploration: 1,
  construction: 2,
  maintenance: 3,
};

/** dynamic_form_type labels. */
export const KIND_NAMES: Readonly<Record<FormKind, string>> = { 1: '勘察模板', 2: '施工模板', 3: '运维模板' };

/** form_field_type: what a field asks for. */
export const FIELD_TYPES = ['text', 'textarea', 'number', 'select', 'checkbox', 'date', 'photo'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const FIELD_TYPE_NAMES: Readonly<Record<FieldType, string>> = {
  text: '单行文本',
  textarea: '多行文本',
  number: '数字',
  select: '单项选择',
  checkbox: '多项选择',
  date: '日期',
  photo: '现场照片',
};

export interface FieldOption {
  value: string;
  label: string;
}

/** One field of a template, as stored (jsonb) and as the console edits it. */
export interface TemplateField {
  key: string;
  label: string;
  type: FieldType;
  required?: boolean;
  placeholder?: string;
  help?: string;
  /** select, checkbox */
  options?: FieldOption[];
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

/** Most fields a template holds. */
export const MAX_FIELDS = 50;
/** The longest text each text type takes (and takes when the template sets no limit). */
export const TEXT_LIMITS: Readonly<Record<'text' | 'textarea', number>> = { text: 200, textarea: 2000 };
/** Photos per photo field at most (and when the template sets no limit). */
export const MAX_PHOTOS = 9;
export const DEFAULT_PHOTOS = 3;
/** Number bounds a template may set. */
export const NUMBER_BOUND = 1_000_000_000;

/** Which of the optional settings each type may carry. */
const SETTINGS: Readonly<Record<FieldType, readonly (keyof TemplateField)[]>> = {
  text: ['maxLength'],
  textarea: ['maxLength'],
  number: ['min', 'max', 'precision', 'unit'],
  select: ['options'],
  checkbox: ['options'],
  date: [],
  photo: ['maxCount'],
};
const TYPE_SETTINGS: readonly (keyof TemplateField)[] = ['options', 'min', 'max', 'precision', 'unit', 'maxLength', 'maxCount'];

const isSet = (value: unknown): boolean => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
const name = (field: Pick<TemplateField, 'label'>) => `“${field.label}”`;

/** Keys a plain object already answers (toString, constructor…): never a field's key. */
const RESERVED_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype).map((key) => key.toLowerCase()));

/**
 * What is wrong with a template's fields beyond their JSON schema, as a sentence for the
 * designer; null when nothing is. A draft may be saved empty; a published version needs a field.
 * The JSON schema has already bounded every string and number.
 */
export function templateProblem(fields: readonly TemplateField[], options: { publishing?: boolean } = {}): string | null {
  if (fields.length === 0 && options.publishing) return '模板至少需要一个字段才能发布';
  if (fields.length > MAX_FIELDS) return `模板最多 ${MAX_FIELDS} 个字段`;
  const keys = new Set<string>();
  const labels = new Set<string>();
  for (const field of fields) {
    const key = field.key.toLowerCase();
    if (RESERVED_KEYS.has(key)) return `字段标识 ${field.key} 是保留字，请换一个`;
    if (keys.has(key)) return `字段标识 ${field.key} 重复`;
    keys.add(key);
    const label = field.label.trim();
    if (labels.has(label)) return `字段名称${name(field)}重复`;
    labels.add(label);
    for (const setting of TYPE_SETTINGS) {
      if (isSet(field[setting]) && !SETTINGS[field.type].includes(setting)) return `字段${name(field)}（${FIELD_TYPE_NAMES[field.type]}）不能设置 ${setting}`;
    }
    if (field.type === 'select' || field.type === 'checkbox') {
      const options = field.options ?? [];
      if (options.length === 0) return `字段${name(field)}至少需要一个选项`;
      const values = new Set(options.map((option) => option.value));
      const optionLabels = new Set(options.map((option) => option.label.trim()));
      if (values.size !== options.length) return `字段${name(field)}的选项值重复`;
      if (optionLabels.size !== options.length) return `字段${name(field)}的选项名称重复`;
    }
    if (field.type === 'number') {
      if (isSet(field.min) && isSet(field.max) && (field.min as number) > (field.max as number)) return `字段${name(field)}的最小值不能大于最大值`;
    }
    if ((field.type === 'text' || field.type === 'textarea') && isSet(field.maxLength) && (field.maxLength as number) > TEXT_LIMITS[field.type]) {
      return `字段${name(field)}最多可设 ${TEXT_LIMITS[field.type]} 个字`;
    }
  }
  return null;
}

/** A file the console uploaded (system/file/upload answers `upload/yyyy/mm/<name>.<ext>`) or an https address. */
const PHOTO_URL = /^(upload\/\d{4}\/\d{2}\/[A-Za-z0-9_-]{1,64}\.(png|jpe?g|webp|gif)|https:\/\/[A-Za-z0-9._~:/?#@!$&()*+,;=%-]{1,400})$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1900 && year <= 2100 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function decimals(value: number): number {
  const text = String(value);
  if (text.includes('e')) return 20;
  return text.includes('.') ? text.split('.')[1].length : 0;
}

/** Whether a value counts as not filled in. */
export const isEmptyValue = (value: unknown): boolean => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** What is wrong with one field's value (already known not to be empty). */
function valueProblem(field: TemplateField, value: unknown): string | null {
  switch (field.type) {
    case 'text':
    case 'textarea': {
      if (typeof value !== 'string') return `${name(field)}应为文本`;
      const limit = field.maxLength ?? TEXT_LIMITS[field.type];
      if ([...value].length > limit) return `${name(field)}不能超过 ${limit} 个字`;
      if (/[<>]/.test(value)) return `${name(field)}不能包含 < 或 >`;
      return null;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${name(field)}应为数字`;
      const low = field.min ?? null;
      const high = field.max ?? null;
      if ((low !== null && value < low) || (high !== null && value > high)) {
        if (low !== null && high !== null) return `${name(field)}应在 ${low} 到 ${high} 之间`;
        return low !== null ? `${name(field)}不能小于 ${low}` : `${name(field)}不能大于 ${high}`;
      }
      const precision = field.precision ?? null;
      if (precision !== null && decimals(value) > precision) return precision === 0 ? `${name(field)}应为整数` : `${name(field)}最多 ${precision} 位小数`;
      return null;
    }
    case 'select':
      if (typeof value !== 'string' || !(field.options ?? []).some((option) => option.value === value)) return `${name(field)}的选项无效`;
      return null;
    case 'checkbox': {
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) return `${name(field)}应为选项列表`;
      const allowed = new Set((field.options ?? []).map((option) => option.value));
      if (value.some((item) => !allowed.has(item as string))) return `${name(field)}的选项无效`;
      if (new Set(value).size !== value.length) return `${name(field)}的选项重复`;
      return null;
    }
    case 'date':
      if (typeof value !== 'string' || !isCalendarDate(value)) return `${name(field)}应为日期（年-月-日）`;
      return null;
    case 'photo': {
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || !PHOTO_URL.test(item))) return `${name(field)}的照片地址无效`;
      const limit = field.maxCount ?? DEFAULT_PHOTOS;
      if (value.length > limit) return `${name(field)}最多 ${limit} 张照片`;
      return null;
    }
  }
}

export type FormValues = Record<string, unknown>;

/**
 * Checks a filled form against its template: every key a field of the template, every required
 * field filled, every value of its field's type and within its options and limits. Answers the
 * values as they are kept (empty ones left out), or the first problem as a sentence.
 */
export function checkFormData(fields: readonly TemplateField[], data: FormValues): { ok: true; values: FormValues } | { ok: false; problem: string } {
  const byKey = new Map(fields.map((field) => [field.key, field]));
  const unknown = Object.keys(data).find((key) => !byKey.has(key));
  if (unknown !== undefined) return { ok: false, problem: `表单中没有字段 ${unknown}` };
  const values: FormValues = {};
  for (const field of fields) {
    const value = Object.hasOwn(data, field.key) ? data[field.key] : undefined;
    if (isEmptyValue(value)) {
      if (field.required) return { ok: false, problem: `请填写${name(field)}` };
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem) return { ok: false, problem };
    values[field.key] = value;
  }
  return { ok: true, values };
}

/** A field's value as text (exports, the filled form on a detail page): option labels, not values. */
export function valueText(field: TemplateField, value: unknown): string {
  if (isEmptyValue(value)) return '';
  const optionLabel = (item: unknown) => field.options?.find((option) => option.value === item)?.label ?? String(item);
  switch (field.type) {
    case 'select':
      return optionLabel(value);
    case 'checkbox':
      return (value as unknown[]).map(optionLabel).join('、');
    case 'number':
      return field.unit ? `${String(value)} ${field.unit}` : String(value);
    case 'photo':
      return `${(value as unknown[]).length} 张照片`;
    default:
      return String(value);
  }
}

/** The limits of a field in words (the demo download). */
export function limitText(field: TemplateField): string {
  switch (field.type) {
    case 'text':
    case 'textarea':
      return `最多 ${field.maxLength ?? TEXT_LIMITS[field.type]} 字`;
    case 'number': {
      const parts: string[] = [];
      if (isSet(field.min)) parts.push(`最小 ${String(field.min)}`);
      if (isSet(field.max)) parts.push(`最大 ${String(field.max)}`);
      if (isSet(field.precision)) parts.push(field.precision === 0 ? '整数' : `${String(field.precision)} 位小数`);
      if (field.unit) parts.push(`单位 ${field.unit}`);
      return parts.join('，');
    }
    case 'photo':
      return `最多 ${field.maxCount ?? DEFAULT_PHOTOS} 张`;
    case 'date':
      return '年-月-日';
    default:
      return '';
  }
}

const options = (...labels: string[]): FieldOption[] => labels.map((label, index) => ({ value: `o${index + 1}`, label }));

/**
 * The demo template of each kind: what a tenant starts from (the seed publishes them) and what the
 * demo download describes. Keys are the ones the seeded orders were filled with.
 */
export const DEMO_TEMPLATES: Readonly<Record<FormKind, { name: string; description: string; fields: readonly TemplateField[] }>> = {
  1: {
    name: '新装监测点勘察表',
    description: '安装前现场勘察：信号、供电、安装位置与照片。',
    fields: [
      { key: 'signalDbm', label: '信号强度', type: 'number', required: true, min: -140, max: -30, precision: 0, unit: 'dBm', help: '在安装位置用测试终端实测 RSRP' },
      { key: 'network', label: '通信方式', type: 'select', required: true, options: options('NB-IoT', '4G Cat.1', 'LoRa') },
      { key: 'powerSupply', label: '供电条件', type: 'select', required: true, options: options('市电', '电池', '太阳能') },
      { key: 'wellDepth', label: '表井深度', type: 'number', min: 0, max: 10, precision: 2, unit: 'm' },
      { key: 'risks', label: '现场风险', type: 'checkbox', options: options('积水', '无遮挡', '车辆碾压', '信号遮挡') },
      { key: 'surveyDate', label: '勘察日期', type: 'date', required: true },
      { key: 'sitePhotos', label: '现场照片', type: 'photo', maxCount: 6, help: '安装位置全景与近景各一张' },
      { key: 'suggestion', label: '安装建议', type: 'textarea', maxLength: 500, placeholder: '安装位置、天线与防护建议' },
    ],
  },
  2: {
    name: '智能水表安装施工记录',
    description: '施工完成后填写：安装位置、管径、铅封与照片。',
    fields: [
      { key: 'installPosition', label: '安装位置', type: 'select', required: true, options: options('表井内', '泵房墙面', '管廊支架') },
      { key: 'pipeDiameter', label: '管径', type: 'select', required: true, options: options('DN25', 'DN50', 'DN100', 'DN150') },
      { key: 'sealNumber', label: '铅封编号', type: 'text', required: true, maxLength: 20, placeholder: '例如 QF123456' },
      { key: 'initialReading', label: '初始读数', type: 'number', min: 0, max: 99999999, precision: 3, unit: 'm³' },
      { key: 'finishDate', label: '完工日期', type: 'date', required: true },
      { key: 'installPhotos', label: '安装照片', type: 'photo', maxCount: 6 },
      { key: 'remark', label: '施工说明', type: 'textarea', maxLength: 500 },
    ],
  },
  3: {
    name: '设备例行运维检查表',
    description: '运维人员逐项检查并记录电压与照片。',
    fields: [
      { key: 'checklist', label: '检查项目', type: 'checkbox', required: true, options: options('外观', '密封', '读数', '接地', '电池') },
      { key: 'batteryVoltage', label: '电池电压', type: 'number', required: true, min: 0, max: 5, precision: 2, unit: 'V' },
      { key: 'deviceStatus', label: '设备状态', type: 'select', required: true, options: options('正常', '需关注', '需维修') },
      { key: 'checkPhotos', label: '检查照片', type: 'photo', maxCount: 3 },
      { key: 'finding', label: '发现问题', type: 'textarea', maxLength: 500 },
    ],
  },
};
