// One validation source (issue 25): a page that names its entity (`"entity": "supply/supplier"`,
// the file schemas/entities/supply/supplier.json, format in schemas/entities/FORMAT.md) gets each
// entity field's title, required, length, pattern and message, named validator, dictionary select
// and a default component by type, unless the page states its own. The same field gives the server
// its param JSON Schema, so the form and the server refuse the same values.
//
// Composed when the console is built, like fragments and parameters (renderers/schema/compose.ts):
// - a form page's `schema.properties.<name>` that is an entity field becomes the derived Formily
//   field with the page's own properties laid over it (`{}` takes the field as the entity says);
// - a list page's `columns` and a detail page's section `fields` and `columns` that name an entity
//   field (or a record field every entity has: createTime, updateTime, createdBy, tenantName …) get
//   its title, display, dictType and sortable unless they state them.

export type EntityFieldType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime';

export interface EntityField {
  title: string;
  type: EntityFieldType;
  column?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  message?: string;
  validator?: string;
  dictType?: string;
  default?: unknown;
  multiline?: boolean;
  unique?: boolean;
  sortable?: boolean;
  keyword?: boolean;
  filter?: boolean;
  readOnly?: boolean;
}

export interface EntityDefinition {
  $schema?: string;
  name: string;
  title: string;
  table: string;
  managed?: boolean;
  scope: 'tenant' | 'organization' | 'platform';
  fields: Record<string, EntityField>;
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  operations?: string[];
  param?: string;
  export?: { title?: string };
  states?: { field: string; transitions: Record<string, { from: string[]; to: string }> };
  seed?: Array<Record<string, unknown>>;
}

export const ENTITY_OPERATIONS = ['page', 'detail', 'insert', 'modify', 'delete', 'export'] as const;

/** The entity file of a reference: `supply/supplier` → `schemas/entities/supply/supplier.json`. */
export const entityFile = (ref: string): string => `schemas/entities/${ref}.json`;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** The record fields every entity answers besides its own (FORMAT.md): how a column shows them. */
export const RECORD_FIELDS: Readonly<Record<string, Json>> = {
  id: { title: '编号' },
  createTime: { title: '创建时间', display: 'datetime', sortable: true },
  updateTime: { title: '更新时间', display: 'datetime', sortable: true },
  createdBy: { title: '创建人' },
  tenantCode: { title: '租户编码' },
  tenantName: { title: '所属租户' },
  organizationCode: { title: '组织编码' },
  organizationName: { title: '所属组织' },
};

/** How a list column or a detail field shows an entity field. */
export function entityColumn(field: EntityField): Json {
  const column: Json = { title: field.title };
  if (field.dictType) Object.assign(column, { display: 'tag', dictType: field.dictType });
  else if (field.type === 'datetime') column.display = 'datetime';
  else if (field.type === 'date') column.display = 'date';
  else if (field.type === 'boolean') column.display = 'boolean';
  else if (field.type === 'integer' || field.type === 'number') column.display = 'number';
  if (field.sortable) column.sortable = true;
  return column;
}

/** The Formily field a form edits an entity field with. */
export function entityFormField(field: EntityField): Json {
  const props: Json = {};
  let component = 'Input';
  let type = 'string';
  if (field.dictType) {
    component = 'DictSelect';
    props.dictType = field.dictType;
  } else if (field.type === 'boolean') {
    component = 'Switch';
    type = 'boolean';
  } else if (field.type === 'integer' || field.type === 'number') {
    component = 'NumberPicker';
    type = 'number';
    if (field.minimum !== undefined) props.min = field.minimum;
    if (field.maximum !== undefined) props.max = field.maximum;
    if (field.type === 'integer') props.precision = 0;
    props.style = { width: '100%' };
  } else if (field.type === 'date') {
    component = 'DatePicker';
  } else if (field.type === 'datetime') {
    component = 'DatePicker';
    props.showTime = true;
  } else if (field.multiline) component = 'Input.TextArea';
  if (type === 'string' && !field.dictType && field.maxLength !== undefined && (component === 'Input' || component === 'Input.TextArea')) props.maxLength = field.maxLength;
  if (component === 'Input.TextArea' && field.maxLength !== undefined) props.showCount = true;
  const validators: unknown[] = [];
  if (field.validator) validators.push(field.validator);
  if (field.pattern) validators.push({ pattern: field.pattern, message: field.message ?? `${field.title}格式不正确` });
  // The server's default for text (server/entities/schemas.ts, patternsOf): a string field with no
  // rule of its own and no dictionary refuses < and >, and so does its form.
  if (field.type === 'string' && !field.validator && !field.pattern && !field.dictType) validators.push('plainText');
  if (field.minLength !== undefined && field.minLength > 1) validators.push({ minLength: field.minLength, message: `${field.title}至少 ${field.minLength} 个字符` });
  const out: Json = { type, title: field.title };
  if (field.required) out.required = true;
  if (field.default !== undefined) out.default = field.default;
  Object.assign(out, { 'x-decorator': 'FormItem', 'x-component': component });
  if (Object.keys(props).length) out['x-component-props'] = props;
  if (validators.length) out['x-validator'] = validators.length === 1 ? validators[0] : validators;
  return out;
}

/** `derived` with `own` laid over it; `x-component-props` merged property by property. */
function layOver(derived: Json, own: Json): Json {
  const props = isObject(own['x-component-props']) && isObject(derived['x-component-props']) ? { ...derived['x-component-props'], ...own['x-component-props'] } : undefined;
  // A page that changes the component keeps none of the derived component's props.
  const componentChanged = own['x-component'] !== undefined && own['x-component'] !== derived['x-component'];
  const base = componentChanged ? Object.fromEntries(Object.entries(derived).filter(([key]) => key !== 'x-component-props')) : derived;
  return { ...base, ...own, ...(props && !componentChanged ? { 'x-component-props': props } : {}) };
}

export interface EntityProblem {
  pointer: string;
  message: string;
}

/**
 * The page with its entity's fields applied (see the top of this file). `entity` is the loaded
 * definition of `page.entity`; problems name the page's pointer.
 */
export function applyEntityFields(page: Json, entity: EntityDefinition): { value: Json; problems: EntityProblem[] } {
  const problems: EntityProblem[] = [];
  const ref = String(page.entity);
  const fields = isObject(entity.fields) ? entity.fields : {};
  const column = (pointer: string, item: unknown): unknown => {
    if (!isObject(item) || typeof item.field !== 'string') return item;
    const field = fields[item.field];
    const derived = field ? entityColumn(field) : RECORD_FIELDS[item.field];
    if (!derived) {
      if (item.title === undefined) problems.push({ pointer: `${pointer}/field`, message: `字段 ${item.field} 不是实体 ${ref} 的字段，写出它的 title` });
      return item;
    }
    // A page's own display drops the derived dictType unless it says one.
    const own = item.display !== undefined && item.dictType === undefined ? Object.fromEntries(Object.entries(derived).filter(([key]) => key !== 'dictType' && key !== 'display')) : derived;
    return { field: item.field, ...own, ...item };
  };
  const columns = (pointer: string, list: unknown) => (Array.isArray(list) ? list.map((item, i) => column(`${pointer}/${i}`, item)) : list);
  const out: Json = { ...page };
  if (page.kind === 'list') out.columns = columns('/columns', page.columns);
  if (page.kind === 'detail' && Array.isArray(page.sections))
    out.sections = page.sections.map((section: unknown, s) => {
      if (!isObject(section)) return section;
      const next: Json = { ...section };
      if (section.fields !== undefined) next.fields = columns(`/sections/${s}/fields`, section.fields);
      if (section.columns !== undefined) next.columns = columns(`/sections/${s}/columns`, section.columns);
      return next;
    });
  if (page.kind === 'form' && isObject(page.schema) && isObject(page.schema.properties)) {
    const properties: Json = {};
    for (const [name, own] of Object.entries(page.schema.properties)) {
      const field = fields[name];
      if (!field || !isObject(own)) {
        properties[name] = own;
        continue;
      }
      if (field.readOnly) problems.push({ pointer: `/schema/properties/${name}`, message: `实体 ${ref} 的字段 ${name} 是只读的（readOnly）：新增与修改都不写它，表单不要编辑它` });
      properties[name] = layOver(entityFormField(field), own);
    }
    out.schema = { ...page.schema, properties };
  }
  return { value: out, problems };
}
