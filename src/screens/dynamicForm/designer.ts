import { DEFAULT_PHOTO_COUNT, MAX_PHOTO_COUNT, TEXT_LIMITS, type TemplateField, type TemplateFieldType } from '../../../renderers/form/templateSchema';

/**
 * The template designer's state, free of React: the fields being edited (each with a stable uid
 * for the list), adding one of a type with a fresh key and label, moving, removing and changing
 * fields, the problems a save would meet (the server's rules, said before it is asked), and the
 * fields as insert/modify send them.
 */

/** The kind in a designer url: /dynamic/form/1/config (survey), /2/ (construction), /3/ (operations). */
export type FormKind = 1 | 2 | 3;

export const KIND_TITLES: Readonly<Record<FormKind, string>> = { 1: '勘察模板设置', 2: '施工模板设置', 3: '运维模板设置' };
export const KIND_NAMES: Readonly<Record<FormKind, string>> = { 1: '勘察模板', 2: '施工模板', 3: '运维模板' };

/** The kind a path names, or null. */
export function kindOfPath(path: string): FormKind | null {
  const match = /\/dynamic\/form\/([123])\/config\/?$/.exec(path);
  return match ? (Number(match[1]) as FormKind) : null;
}

/** The palette, in its order, with what each type is for. */
export const FIELD_TYPES: ReadonlyArray<{ type: TemplateFieldType; label: string; hint: string }> = [
  { type: 'text', label: '单行文本', hint: '编号、名称等短文本' },
  { type: 'textarea', label: '多行文本', hint: '说明、建议等长文本' },
  { type: 'number', label: '数字', hint: '读数、电压，可设范围与单位' },
  { type: 'select', label: '单项选择', hint: '从选项中选一个' },
  { type: 'checkbox', label: '多项选择', hint: '勾选多个选项' },
  { type: 'date', label: '日期', hint: '年-月-日' },
  { type: 'photo', label: '现场照片', hint: '上传 JPG、PNG 照片' },
];

export const typeLabel = (type: TemplateFieldType): string => FIELD_TYPES.find((entry) => entry.type === type)?.label ?? type;

export interface DesignerField extends TemplateField {
  /** Stable identity in the editor (keys change while typing). */
  uid: string;
}

let uidCounter = 0;
const nextUid = () => `f${Date.now().toString(36)}${(uidCounter += 1).toString(36)}`;

/** Gives loaded fields their editor identities. */
export const withUids = (fields: readonly TemplateField[]): DesignerField[] => fields.map((field) => ({ ...field, uid: nextUid() }));

/** The first `<prefix><n>` not taken (keys compared without case, as the server does). */
function fresh(prefix: string, taken: readonly string[], caseless = false): string {
  const used = new Set(taken.map((value) => (caseless ? value.toLowerCase() : value)));
  for (let n = 1; ; n += 1) {
    const candidate = `${prefix}${n}`;
    if (!used.has(caseless ? candidate.toLowerCase() : candidate)) return candidate;
  }
}

/** A new field of a type with a free key (field1…) and label (单行文本1…) and its type's defaults. */
export function newField(type: TemplateFieldType, existing: readonly TemplateField[]): DesignerField {
  const key = fresh('field', existing.map((field) => field.key), true);
  const label = fresh(typeLabel(type), existing.map((field) => field.label));
  const field: DesignerField = { uid: nextUid(), key, label, type, required: false };
  if (type === 'select' || type === 'checkbox') field.options = [{ value: 'o1', label: '选项1' }, { value: 'o2', label: '选项2' }];
  if (type === 'photo') field.maxCount = DEFAULT_PHOTO_COUNT;
  return field;
}

/** Inserts a field after `afterUid` (at the end when absent). */
export function insertField(fields: readonly DesignerField[], field: DesignerField, afterUid?: string | null): DesignerField[] {
  const at = afterUid ? fields.findIndex((item) => item.uid === afterUid) : -1;
  if (at < 0) return [...fields, field];
  return [...fields.slice(0, at + 1), field, ...fields.slice(at + 1)];
}

/** Moves a field one place up (-1) or down (+1); unchanged at either end. */
export function moveField(fields: readonly DesignerField[], uid: string, delta: -1 | 1): DesignerField[] {
  const from = fields.findIndex((field) => field.uid === uid);
  const to = from + delta;
  if (from < 0 || to < 0 || to >= fields.length) return [...fields];
  const next = [...fields];
  [next[from], next[to]] = [next[to], next[from]];
  return next;
}

export const removeField = (fields: readonly DesignerField[], uid: string): DesignerField[] => fields.filter((field) => field.uid !== uid);

export function updateField(fields: readonly DesignerField[], uid: string, patch: Partial<TemplateField>): DesignerField[] {
  return fields.map((field) => (field.uid === uid ? { ...field, ...patch } : field));
}

/** A fresh option for a choice field (value o<n>, label 选项<n>). */
export function newOption(field: TemplateField): { value: string; label: string } {
  const options = field.options ?? [];
  return { value: fresh('o', options.map((option) => option.value)), label: fresh('选项', options.map((option) => option.label)) };
}

const KEY = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
const OPTION_VALUE = /^[A-Za-z0-9_.-]{1,32}$/;
const PLAIN = /^[^<>]*$/;
const RESERVED = new Set(Object.getOwnPropertyNames(Object.prototype).map((key) => key.toLowerCase()));
const isSet = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/** What is wrong with one field on its own and against the others (the server's rules). */
export function fieldProblem(field: TemplateField, all: readonly TemplateField[]): string | null {
  if (!KEY.test(field.key)) return '字段标识须以字母开头，仅含字母、数字和下划线，最多 32 个字符';
  if (RESERVED.has(field.key.toLowerCase())) return `字段标识 ${field.key} 是保留字，请换一个`;
  if (all.filter((other) => other.key.toLowerCase() === field.key.toLowerCase()).length > 1) return `字段标识 ${field.key} 重复`;
  const label = field.label.trim();
  if (!label) return '请填写字段名称';
  if ([...label].length > 32 || !PLAIN.test(label)) return '字段名称最多 32 个字，且不能包含 < 或 >';
  if (all.filter((other) => other.label.trim() === label).length > 1) return `字段名称“${label}”重复`;
  if (field.placeholder && ([...field.placeholder].length > 64 || !PLAIN.test(field.placeholder))) return '填写提示最多 64 个字，且不能包含 < 或 >';
  if (field.help && ([...field.help].length > 200 || !PLAIN.test(field.help))) return '说明最多 200 个字，且不能包含 < 或 >';
  if (field.type === 'select' || field.type === 'checkbox') {
    const options = field.options ?? [];
    if (options.length === 0) return '至少需要一个选项';
    if (options.length > 50) return '最多 50 个选项';
    if (options.some((option) => !option.label.trim() || [...option.label.trim()].length > 32 || !PLAIN.test(option.label))) return '选项名称不能为空，最多 32 个字';
    if (options.some((option) => !OPTION_VALUE.test(option.value))) return '选项值仅含字母、数字、下划线、点和横线';
    if (new Set(options.map((option) => option.value)).size !== options.length) return '选项值重复';
    if (new Set(options.map((option) => option.label.trim())).size !== options.length) return '选项名称重复';
  }
  if (field.type === 'number') {
    if (isSet(field.min) && isSet(field.max) && (field.min as number) > (field.max as number)) return '最小值不能大于最大值';
    if (field.unit && ([...field.unit].length > 8 || !PLAIN.test(field.unit))) return '单位最多 8 个字';
  }
  if ((field.type === 'text' || field.type === 'textarea') && isSet(field.maxLength) && (field.maxLength as number) > TEXT_LIMITS[field.type]) {
    return `最多可设 ${TEXT_LIMITS[field.type]} 个字`;
  }
  if (field.type === 'photo' && isSet(field.maxCount) && ((field.maxCount as number) < 1 || (field.maxCount as number) > MAX_PHOTO_COUNT)) return `照片数量为 1 到 ${MAX_PHOTO_COUNT} 张`;
  return null;
}

/** Every field's problem, by uid (fields without one left out). */
export function designProblems(fields: readonly DesignerField[]): Map<string, string> {
  const problems = new Map<string, string>();
  for (const field of fields) {
    const problem = fieldProblem(field, fields);
    if (problem) problems.set(field.uid, problem);
  }
  return problems;
}

/** The settings each type keeps; the rest (left from another type) are not sent. */
const SETTINGS: Readonly<Record<TemplateFieldType, ReadonlyArray<keyof TemplateField>>> = {
  text: ['maxLength'],
  textarea: ['maxLength'],
  number: ['min', 'max', 'precision', 'unit'],
  select: ['options'],
  checkbox: ['options'],
  date: [],
  photo: ['maxCount'],
};

/** A field as insert/modify take it: its type's settings only, nothing empty, labels trimmed. */
export function toPayloadField(field: TemplateField): TemplateField {
  const payload: TemplateField = { key: field.key, label: field.label.trim(), type: field.type, required: field.required === true };
  if (field.placeholder?.trim()) payload.placeholder = field.placeholder.trim();
  if (field.help?.trim()) payload.help = field.help.trim();
  for (const setting of SETTINGS[field.type]) {
    const value = field[setting];
    if (setting === 'options') {
      if (field.options?.length) payload.options = field.options.map((option) => ({ value: option.value, label: option.label.trim() }));
    } else if (value !== undefined && value !== null && value !== '') (payload as unknown as Record<string, unknown>)[setting] = value;
  }
  return payload;
}

export const toPayload = (fields: readonly DesignerField[]): TemplateField[] => fields.map(toPayloadField);

/** Whether two field lists say the same (unsaved changes). */
export const sameFields = (a: readonly DesignerField[], b: readonly DesignerField[]): boolean => JSON.stringify(toPayload(a)) === JSON.stringify(toPayload(b));
