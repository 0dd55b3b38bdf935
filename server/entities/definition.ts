import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Entity definitions (issue 25): one JSON file per standard CRUD entity under schemas/entities/,
 * in the format of schemas/entities/FORMAT.md, validated by schemas/entity.schema.json. The server
 * serves page/detail/insert/modify/delete/export and the state transitions of each from it
 * (server/entities/operations.ts) and, for a managed one, keeps its table (server/entities/tables.ts);
 * the console composes its forms, lists and details from the same fields.
 */

export type EntityFieldType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime';
export type EntityScope = 'tenant' | 'organization' | 'platform';
export type StandardOperation = 'page' | 'detail' | 'insert' | 'modify' | 'delete' | 'export';
export const STANDARD_OPERATIONS: readonly StandardOperation[] = ['page', 'detail', 'insert', 'modify', 'delete', 'export'];
export const NAMED_VALIDATORS = ['plainText', 'phone', 'phoneOrEmpty', 'mail', 'genericCode', 'deviceCode'] as const;
export type NamedValidator = (typeof NAMED_VALIDATORS)[number];

/** A field as the file gives it. */
export interface EntityFieldFile {
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
  validator?: NamedValidator;
  dictType?: string;
  default?: unknown;
  multiline?: boolean;
  unique?: boolean;
  sortable?: boolean;
  keyword?: boolean;
  filter?: boolean;
  readOnly?: boolean;
  nullable?: boolean;
}

/** An entity file as written. */
export interface EntityFile {
  $schema?: string;
  name: string;
  title: string;
  table: string;
  managed?: boolean;
  scope: EntityScope;
  fields: Record<string, EntityFieldFile>;
  defaultSort?: { field: string; order?: 'asc' | 'desc'; then?: Array<{ field: string; order?: 'asc' | 'desc' }> };
  operations?: StandardOperation[];
  shared?: boolean;
  uniqueKeys?: Array<{ fields: string[]; message: string }>;
  answers?: { insert?: 'id' | 'record'; modify?: 'id' | 'record' | 'null'; delete?: 'null' | 'id' };
  param?: string;
  export?: { title?: string };
  states?: { field: string; transitions: Record<string, { title?: string; from: string[]; to: string }> };
  seed?: Array<Record<string, unknown>>;
}

/** A field with its defaults filled in. */
export interface EntityField extends EntityFieldFile {
  /** The field's name: the record's and the param's key. */
  name: string;
  /** Its SQL column. */
  column: string;
}

export interface EntityTransition {
  name: string;
  title: string;
  from: string[];
  to: string;
}

/** A loaded entity, ready for the engine. */
export interface Entity {
  /** `supply/supplier`: the file under schemas/entities without `.json`. */
  ref: string;
  /** The file, relative to the project. */
  file: string;
  name: string;
  title: string;
  table: string;
  managed: boolean;
  scope: EntityScope;
  fields: EntityField[];
  field: ReadonlyMap<string, EntityField>;
  /** The default order: its first key, then the others (`then`). */
  defaultSort: { field: string; order: 'asc' | 'desc' };
  thenSort: Array<{ field: string; order: 'asc' | 'desc' }>;
  operations: ReadonlySet<StandardOperation>;
  /** Tenant scope: rows with no tenant are the platform's, read by every tenant, written only at the platform root. */
  shared: boolean;
  /** Values unique together within the scope, with the sentence of a clash. */
  uniqueKeys: Array<{ fields: EntityField[]; message: string }>;
  /** What insert, modify and delete answer. */
  answers: { insert: 'id' | 'record'; modify: 'id' | 'record' | 'null'; delete: 'null' | 'id' };
  param: string | null;
  exportTitle: string;
  states: { field: EntityField; transitions: EntityTransition[] } | null;
  seed: Array<Record<string, unknown>>;
}

export interface EntityProblem {
  file: string;
  /** JSON pointer into the file. */
  pointer: string;
  message: string;
}

// A file: URL's path (as scripts/check.ts reads its root): the console's jsdom tests import this
// module through scripts/check.ts, where import.meta.url is not a file: URL and fileURLToPath throws.
const projectRoot = decodeURIComponent(new URL('../..', import.meta.url).pathname);
export const ENTITY_DIR = join(projectRoot, 'schemas/entities');
export const ENTITY_SCHEMA_FILE = join(projectRoot, 'schemas/entity.schema.json');

/** snake_case of a camelCase name: contactPhone → contact_phone. */
export const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Columns every table of an entity has besides its fields (and those of its scope). */
export const RESERVED_COLUMNS = ['id', 'tenant_code', 'organization_code', 'created_by', 'created_at', 'updated_at'];

/** The entity files under `dir`, recursively, in a stable order. */
function entityFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return entityFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

let validateFile: ReturnType<Ajv2020['compile']> | undefined;

function schemaProblems(file: string, value: unknown, schemaFile: string): EntityProblem[] {
  if (!validateFile) {
    const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
    validateFile = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as object);
  }
  if (validateFile(value)) return [];
  return (validateFile.errors ?? []).map((error: ErrorObject) => ({
    file,
    pointer: error.instancePath || '/',
    message: error.keyword === 'additionalProperties' ? `不认识的键 ${String((error.params as { additionalProperty: string }).additionalProperty)}` : `${error.message ?? '不符合 entity.schema.json'}`,
  }));
}

/** Semantic problems of one (structurally valid) file; a problem found here does not hide another. */
function meaningProblems(file: string, entity: EntityFile, dictionaries: ReadonlyMap<string, ReadonlySet<string>> | null): EntityProblem[] {
  const problems: EntityProblem[] = [];
  const say = (pointer: string, message: string) => problems.push({ file, pointer, message });
  const fields = Object.entries(entity.fields ?? {});
  const columns = new Map<string, string>();
  for (const [name, field] of fields) {
    const column = field.column ?? snakeCase(name);
    const at = `/fields/${name}`;
    if (RESERVED_COLUMNS.includes(column) && !(entity.scope !== 'platform' && column === 'tenant_code' && field.readOnly)) say(`${at}/column`, `列 ${column} 由平台维护，请换一个字段名或 column`);
    const other = columns.get(column);
    if (other) say(`${at}/column`, `列 ${column} 已被字段 ${other} 使用`);
    columns.set(column, name);
    if (field.type !== 'string' && (field.minLength !== undefined || field.maxLength !== undefined || field.pattern !== undefined || field.validator !== undefined || field.multiline))
      say(at, `只有 string 字段可以写 minLength、maxLength、pattern、validator、multiline（此字段为 ${field.type}）`);
    if (field.type !== 'integer' && field.type !== 'number' && (field.minimum !== undefined || field.maximum !== undefined)) say(at, `只有 integer、number 字段可以写 minimum、maximum（此字段为 ${field.type}）`);
    if (field.keyword && field.type !== 'string') say(`${at}/keyword`, '只有 string 字段可以按关键字查询');
    if (field.pattern !== undefined) {
      try {
        new RegExp(field.pattern, 'u');
      } catch {
        say(`${at}/pattern`, `正则表达式无效：${field.pattern}`);
      }
    }
    if (field.dictType && dictionaries && !dictionaries.has(field.dictType)) say(`${at}/dictType`, `字典 ${field.dictType} 不在 schemas/dictionaries.json 中`);
    if (field.dictType && field.type !== 'string') say(`${at}/dictType`, '字典字段应为 string');
    if (field.readOnly && field.required) say(at, 'readOnly 字段不能 required（它从不由新增、修改写入）');
    if (field.nullable && (field.type !== 'string' || field.required)) say(`${at}/nullable`, '只有非必填的 string 字段可以 nullable（清空时存 NULL）');
    if (field.default !== undefined && valueProblem(normalizeField(name, field), field.default)) say(`${at}/default`, `默认值不符合字段：${valueProblem(normalizeField(name, field), field.default)}`);
    if (field.default !== undefined && field.dictType && dictionaries?.get(field.dictType) && !dictionaries.get(field.dictType)!.has(String(field.default)))
      say(`${at}/default`, `默认值 ${String(field.default)} 不在字典 ${field.dictType} 中`);
  }
  const sort = entity.defaultSort?.field;
  if (sort && !entity.fields?.[sort] && !['createTime', 'updateTime', 'id'].includes(sort)) say('/defaultSort/field', `没有字段 ${sort}`);
  (entity.defaultSort?.then ?? []).forEach((then, index) => {
    if (!entity.fields?.[then.field] && !['createTime', 'updateTime', 'id'].includes(then.field)) say(`/defaultSort/then/${index}/field`, `没有字段 ${then.field}`);
  });
  if (entity.shared && entity.scope !== 'tenant') say('/shared', '只有 tenant 范围的实体可以 shared（平台数据为没有租户的行）');
  if (entity.shared && entity.managed) say('/shared', 'shared 实体的表由迁移维护（tenant_code 可为空）');
  (entity.uniqueKeys ?? []).forEach((key, index) => {
    key.fields.forEach((name, at) => {
      if (!entity.fields?.[name]) say(`/uniqueKeys/${index}/fields/${at}`, `没有字段 ${name}`);
    });
    if (entity.managed) say(`/uniqueKeys/${index}`, 'uniqueKeys 的唯一索引由迁移建立（托管表请用字段的 unique）');
  });
  if (entity.states) {
    const field = entity.fields?.[entity.states.field];
    if (!field) say('/states/field', `没有字段 ${entity.states.field}`);
    else {
      if (field.type !== 'string') say('/states/field', '状态字段应为 string');
      const values = field.dictType ? dictionaries?.get(field.dictType) : undefined;
      for (const [name, transition] of Object.entries(entity.states.transitions ?? {})) {
        for (const value of [...(transition.from ?? []), transition.to]) {
          if (values && !values.has(value)) say(`/states/transitions/${name}`, `状态 ${value} 不在字典 ${field.dictType} 中`);
        }
      }
    }
  }
  (entity.seed ?? []).forEach((row, index) => {
    for (const [key, value] of Object.entries(row)) {
      const field = entity.fields?.[key];
      if (!field) say(`/seed/${index}/${key}`, `没有字段 ${key}`);
      else {
        const problem = valueProblem(normalizeField(key, field), value);
        if (problem) say(`/seed/${index}/${key}`, problem);
      }
    }
    for (const [key, field] of fields) if (field.required && row[key] === undefined && field.default === undefined) say(`/seed/${index}`, `缺少必填字段 ${key}`);
  });
  if (entity.seed?.length && !entity.managed) say('/seed', '只有 managed 实体的演示数据由平台插入（迁移维护的表请在种子数据中写）');
  return problems;
}

function normalizeField(name: string, field: EntityFieldFile): EntityField {
  return { ...field, name, column: field.column ?? snakeCase(name) };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Why `value` is not a value of `field` (its type, bounds and pattern), or null. */
export function valueProblem(field: EntityField, value: unknown): string | null {
  if (value === null) return field.required ? '必填' : null;
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return '应为字符串';
      if (field.maxLength !== undefined && [...value].length > field.maxLength) return `最多 ${field.maxLength} 个字符`;
      if (field.minLength !== undefined && value !== '' && [...value].length < field.minLength) return `至少 ${field.minLength} 个字符`;
      if (field.pattern && value !== '' && !new RegExp(field.pattern, 'u').test(value)) return field.message ?? '格式不正确';
      return null;
    }
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value) || (field.type === 'integer' && !Number.isInteger(value))) return `应为${field.type === 'integer' ? '整数' : '数字'}`;
      if (field.minimum !== undefined && value < field.minimum) return `不能小于 ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `不能大于 ${field.maximum}`;
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : '应为 true 或 false';
    case 'date':
      return typeof value === 'string' && DATE.test(value) ? null : '应为 YYYY-MM-DD';
    case 'datetime':
      return typeof value === 'string' && DATETIME.test(value) ? null : '应为日期时间';
  }
}

/** The dictionaries the project's entities are checked against. */
export const DICTIONARIES_FILE = join(projectRoot, 'schemas/dictionaries.json');

/** The dictionaries of `path` (a project's schemas/dictionaries.json): type → values. */
function shippedDictionaries(path: string): Map<string, Set<string>> | null {
  try {
    const file = JSON.parse(readFileSync(path, 'utf8')) as { dictionaries?: Array<{ dictType: string; items: Array<{ value: string }> }> } | Array<{ dictType: string; items: Array<{ value: string }> }>;
    const list = Array.isArray(file) ? file : (file.dictionaries ?? []);
    return new Map(list.map((entry) => [entry.dictType, new Set(entry.items.map((item) => item.value))]));
  } catch {
    return null;
  }
}

function toEntity(ref: string, file: string, raw: EntityFile): Entity {
  const fields = Object.entries(raw.fields).map(([name, field]) => normalizeField(name, field));
  const field = new Map(fields.map((item) => [item.name, item]));
  const statesField = raw.states ? field.get(raw.states.field) : undefined;
  return {
    ref,
    file,
    name: raw.name,
    title: raw.title,
    table: raw.table,
    managed: raw.managed === true,
    scope: raw.scope,
    fields,
    field,
    defaultSort: { field: raw.defaultSort?.field ?? 'createTime', order: raw.defaultSort?.order ?? 'desc' },
    thenSort: (raw.defaultSort?.then ?? []).map((then) => ({ field: then.field, order: then.order ?? 'asc' })),
    operations: new Set(raw.operations ?? STANDARD_OPERATIONS),
    shared: raw.shared === true,
    answers: { insert: raw.answers?.insert ?? 'id', modify: raw.answers?.modify ?? 'id', delete: raw.answers?.delete ?? 'null' },
    uniqueKeys: (raw.uniqueKeys ?? []).map((key) => ({ fields: key.fields.map((name) => field.get(name)!), message: key.message })),
    param: raw.param ?? null,
    exportTitle: raw.export?.title ?? `${raw.title}列表`,
    states:
      raw.states && statesField
        ? { field: statesField, transitions: Object.entries(raw.states.transitions).map(([name, t]) => ({ name, title: t.title ?? name, from: [...t.from], to: t.to })) }
        : null,
    seed: raw.seed ?? [],
  };
}

export interface LoadedEntities {
  entities: Entity[];
  problems: EntityProblem[];
}

/**
 * Reads every entity file under `dir`: the well-formed ones as entities, and every problem found
 * (schema and meaning, each file's all of them; names and tables used twice across files).
 */
export function readEntities(dir = ENTITY_DIR, schemaFile = ENTITY_SCHEMA_FILE, dictionariesFile = DICTIONARIES_FILE): LoadedEntities {
  const problems: EntityProblem[] = [];
  const entities: Entity[] = [];
  const dictionaries = shippedDictionaries(dictionariesFile);
  for (const path of entityFiles(dir)) {
    const file = relative(projectRoot, path);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      problems.push({ file, pointer: '/', message: `不是合法的 JSON：${(error as Error).message}` });
      continue;
    }
    const structural = schemaProblems(file, raw, schemaFile);
    problems.push(...structural);
    // The meaning is checked too when the structure is wrong elsewhere, as far as it can be read.
    const candidate = raw as EntityFile;
    const readable = typeof candidate === 'object' && candidate !== null && typeof candidate.fields === 'object' && candidate.fields !== null;
    let meaning: EntityProblem[] = [];
    if (readable) {
      try {
        meaning = meaningProblems(file, candidate, dictionaries);
      } catch {
        meaning = [];
      }
    }
    problems.push(...meaning);
    if (structural.length === 0 && meaning.length === 0) entities.push(toEntity(relative(dir, path).replace(/\.json$/, '').split('\\').join('/'), file, candidate));
  }
  const names = new Map<string, string>();
  const tables = new Map<string, string>();
  for (const entity of entities) {
    const sameName = names.get(entity.name);
    if (sameName) problems.push({ file: entity.file, pointer: '/name', message: `操作前缀 ${entity.name} 已由 ${sameName} 使用` });
    names.set(entity.name, entity.file);
    const sameTable = tables.get(entity.table);
    if (sameTable) problems.push({ file: entity.file, pointer: '/table', message: `表 ${entity.table} 已由 ${sameTable} 使用` });
    tables.set(entity.table, entity.file);
  }
  return { entities, problems };
}

/** The entity files' problems as one message, for a refusal to start. */
export function problemsMessage(problems: readonly EntityProblem[]): string {
  return `实体定义有误：\n${problems.map((problem) => `  ${problem.file}#${problem.pointer}：${problem.message}`).join('\n')}`;
}

let loaded: Entity[] | undefined;

/** The entities of schemas/entities, read once a process; a broken file stops the server with its problems. */
export function loadEntities(): Entity[] {
  if (loaded) return loaded;
  const { entities, problems } = readEntities();
  if (problems.length) throw new Error(problemsMessage(problems));
  loaded = entities;
  return loaded;
}

/** The operation names an entity serves: its standard ones and its transitions. */
export function entityOperationNames(entity: Entity): string[] {
  return [...STANDARD_OPERATIONS.filter((operation) => entity.operations.has(operation)), ...(entity.states?.transitions.map((t) => t.name) ?? [])].map(
    (operation) => `${entity.name}.${operation}`,
  );
}

/** The name of a managed table's index (PostgreSQL keeps 63 bytes of a name). */
export const entityIndexName = (table: string, suffix: string): string => `${table}_${suffix}`.slice(0, 63);

/** The unique index a managed entity's unique field has (server/entities/tables.ts creates it). */
export const uniqueIndexName = (entity: Entity, field: EntityField): string => entityIndexName(entity.table, `${field.column}_key`);

/**
 * The sentence of each managed entity's unique index, for the central mapping of unique clashes
 * (server/http/constraints.ts): <field title>已存在, as the entity's own check answers it.
 */
export function entityUniqueMessages(entities: readonly Entity[] = loadEntities()): Record<string, string> {
  return Object.fromEntries(entities.filter((entity) => entity.managed).flatMap((entity) => entity.fields.filter((field) => field.unique).map((field) => [uniqueIndexName(entity, field), `${field.title}已存在`])));
}
