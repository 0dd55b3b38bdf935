import { DEVICE_CODE_PATTERN, schemaOf, type ParamSchema, type Typed } from '../core/params';
import type { TUnsafe } from 'typebox';
import { readDictionaries } from '../domain/schemaFiles';
import type { Entity, EntityField, NamedValidator } from './definition';

/**
 * The JSON Schemas of an entity's operations (issue 25): the `param` the server validates, built
 * from the same field rules the console's form applies (required, lengths, bounds, pattern, the
 * named validator), and the answers' `data` for the generated contracts.
 */

/**
 * The named rules both halves know, as the patterns the server checks. They are the console's
 * (src/validation/rules.ts), which the server may not import; tests/server/entities.test.ts
 * proves them the same. `required`: the rule itself demands a value (the form's `phone`).
 */
export const VALIDATOR_RULES: Readonly<Record<NamedValidator, { pattern: string; message: string; required?: boolean }>> = {
  plainText: { pattern: '^[^<>]*$', message: '不能包含 < 或 >' },
  phone: { pattern: '^1[3-9]\\d{9}$', message: '请输入正确的手机号码', required: true },
  phoneOrEmpty: { pattern: '^1[3-9]\\d{9}$', message: '请输入正确的手机号码' },
  mail: { pattern: '^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}$', message: '请输入正确的邮箱格式' },
  genericCode: { pattern: '^[ -~]+$', message: '请输入数字,字母或者字符类型' },
  deviceCode: { pattern: DEVICE_CODE_PATTERN, message: '请输入正确的设备编码格式' },
};

/** Text with no '<' or '>': what a string field with no rule of its own (nor a dictionary) holds. */
const PLAIN_TEXT = VALIDATOR_RULES.plainText.pattern;
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
export const DATETIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?(Z|[+-]\\d{2}:?\\d{2})?$';
/** A string field's bound when the entity gives none. */
export const DEFAULT_MAX_LENGTH = 255;

/** A record id (the tables' ids are integers: a larger number would be refused by the column, not by the schema). */
export const idSchema: ParamSchema = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };
const EMPTY_TEXT: ParamSchema = { type: 'string', maxLength: 0 };
const NULL: ParamSchema = { type: 'null' };

/** Whether a value is demanded: the field says so, or its named rule does. */
export const isRequired = (field: EntityField): boolean => field.required === true || (field.validator ? VALIDATOR_RULES[field.validator].required === true : false);

/** The values of a dictionary of schemas/dictionaries.json (a definition may name no other: definition.ts). */
function dictionaryValues(dictType: string): string[] {
  return readDictionaries().find((entry) => entry.dictType === dictType)?.items.map((item) => item.value) ?? [];
}

/**
 * The patterns a string field's value must match, each with the sentence the form shows when it
 * does not: the field's own (its `message`), its named rule's, and for a field with neither (nor a
 * dictionary) plain text's. The handler checks them (server/entities/operations.ts), so that the
 * server refuses with the form's words: 参数错误：supplier.code（请输入 2 至 32 位字母、数字或 -）.
 */
export function patternsOf(field: EntityField): Array<{ pattern: RegExp; message: string }> {
  const known = compiled.get(field);
  if (known) return known;
  const patterns: Array<{ pattern: RegExp; message: string }> = [];
  if (field.pattern) patterns.push({ pattern: new RegExp(field.pattern, 'u'), message: field.message ?? '格式不正确' });
  if (field.validator) patterns.push({ pattern: new RegExp(VALIDATOR_RULES[field.validator].pattern, 'u'), message: VALIDATOR_RULES[field.validator].message });
  if (patterns.length === 0 && !field.dictType) patterns.push({ pattern: new RegExp(PLAIN_TEXT, 'u'), message: VALIDATOR_RULES.plainText.message });
  compiled.set(field, patterns);
  return patterns;
}
const compiled = new WeakMap<EntityField, Array<{ pattern: RegExp; message: string }>>();

/** The schema of one field's value in an insert or a modify. */
export function fieldParamSchema(field: EntityField): ParamSchema {
  const required = isRequired(field);
  let strict: Record<string, unknown>;
  switch (field.type) {
    case 'string': {
      if (field.dictType) {
        strict = { type: 'string', enum: dictionaryValues(field.dictType) };
        return required ? strict : { anyOf: [strict, EMPTY_TEXT, NULL] };
      }
      strict = { type: 'string', maxLength: field.maxLength ?? DEFAULT_MAX_LENGTH };
      const minLength = Math.max(field.minLength ?? 0, required ? 1 : 0);
      if (minLength > 0) strict.minLength = minLength;
      // Its patterns are checked by the handler, with their messages (patternsOf).
      return required ? strict : { anyOf: [strict, EMPTY_TEXT, NULL] };
    }
    case 'integer':
      strict = { type: 'integer', minimum: field.minimum ?? -2_147_483_648, maximum: field.maximum ?? 2_147_483_647 };
      break;
    case 'number':
      strict = { type: 'number', minimum: field.minimum ?? -1e15, maximum: field.maximum ?? 1e15 };
      break;
    case 'boolean':
      strict = { type: 'boolean' };
      break;
    case 'date':
      strict = { type: 'string', maxLength: 10, pattern: DATE_PATTERN };
      return required ? strict : { anyOf: [strict, EMPTY_TEXT, NULL] };
    case 'datetime':
      strict = { type: 'string', maxLength: 40, pattern: DATETIME_PATTERN };
      return required ? strict : { anyOf: [strict, EMPTY_TEXT, NULL] };
  }
  return required ? strict : { anyOf: [strict, NULL] };
}

/** The fields an insert or a modify writes, as an object. */
function fieldsObject(entity: Entity): ParamSchema {
  const writable = entity.fields.filter((field) => !field.readOnly);
  const properties: Record<string, ParamSchema> = Object.fromEntries(writable.map((field) => [field.name, fieldParamSchema(field)]));
  // An organisation's record may name its organisation (the selected one otherwise).
  if (entity.scope === 'organization') properties.organizationCode = { anyOf: [{ type: 'string', maxLength: 64 }, NULL] };
  return { type: 'object', properties, required: writable.filter(isRequired).map((field) => field.name), additionalProperties: false };
}

/** A record's values as the engine reads them: what the entity's JSON declares, known only when it is read. */
export type EntityParam = Record<string, unknown>;

/** The param of `{entity}.detail`, `.delete` and a transition: the row's id. */
export const idParamSchema = schemaOf<{ id: number }>({ type: 'object', properties: { id: idSchema }, required: ['id'], additionalProperties: false });

export function insertParamSchema(entity: Entity): Typed<TUnsafe<EntityParam>> {
  const fields = fieldsObject(entity);
  return schemaOf<EntityParam>(entity.param ? { type: 'object', properties: { [entity.param]: fields }, required: [entity.param], additionalProperties: false } : fields);
}

export function modifyParamSchema(entity: Entity): Typed<TUnsafe<EntityParam & { id: number }>> {
  const fields = fieldsObject(entity) as { properties: Record<string, ParamSchema>; required: string[] };
  if (entity.param) return schemaOf({ type: 'object', properties: { id: idSchema, [entity.param]: fields }, required: ['id', entity.param], additionalProperties: false });
  return schemaOf({ type: 'object', properties: { id: idSchema, ...fields.properties }, required: ['id', ...fields.required], additionalProperties: false });
}

/** The schema of a filter field's value in a page or an export: its value, or nothing ('' or null). */
export function filterParamSchema(field: EntityField): ParamSchema {
  switch (field.type) {
    case 'string':
      if (field.dictType) return { anyOf: [{ type: 'string', enum: dictionaryValues(field.dictType) }, EMPTY_TEXT, NULL] };
      return { anyOf: [{ type: 'string', maxLength: field.maxLength ?? DEFAULT_MAX_LENGTH }, NULL] };
    case 'integer':
    case 'number':
      return { anyOf: [{ type: field.type }, EMPTY_TEXT, NULL] };
    case 'boolean':
      return { anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['', 'true', 'false', '1', '0'] }, NULL] };
    case 'date':
      return { anyOf: [{ type: 'string', pattern: DATE_PATTERN }, EMPTY_TEXT, NULL] };
    case 'datetime':
      return { anyOf: [{ type: 'string', maxLength: 40, pattern: DATETIME_PATTERN }, EMPTY_TEXT, NULL] };
  }
}

/** A page's (and an export's) param: `keyword` when a field is searched, and the filter fields. */
export function pageParamSchema(entity: Entity, filters: Record<string, { schema: ParamSchema }> = {}): Typed<TUnsafe<EntityParam>> {
  const properties: Record<string, ParamSchema> = {};
  if (entity.fields.some((field) => field.keyword)) properties.keyword = { anyOf: [{ type: 'string', maxLength: 64 }, NULL] };
  for (const field of entity.fields) if (field.filter) properties[field.name] = filterParamSchema(field);
  for (const [name, filter] of Object.entries(filters)) properties[name] = filter.schema;
  return schemaOf<EntityParam>({ type: 'object', properties, additionalProperties: false });
}

// ── answers (schemas/contracts.json) ─────────────────────────────────────────────────────────

/** A field's value in a record: text is never null (empty), another value is null when left out (unless required). */
function answerSchema(field: EntityField): ParamSchema {
  if (field.type === 'string') return { type: 'string' };
  const type = field.type === 'integer' || field.type === 'number' ? 'number' : field.type === 'boolean' ? 'boolean' : 'string';
  // A field with a default is written with it when left empty: never null.
  return { type: isRequired(field) || (field.default !== undefined && field.default !== null) ? type : [type, 'null'] };
}

/** The record page and detail answer. */
export function recordSchema(entity: Entity, computed: Record<string, ParamSchema> = {}, omit: readonly string[] = []): ParamSchema {
  const properties: Record<string, ParamSchema> = { id: { type: 'number' } };
  for (const field of entity.fields) properties[field.name] = answerSchema(field);
  if (entity.scope !== 'platform') Object.assign(properties, { tenantCode: { type: 'string' }, tenantName: { type: 'string' } });
  if (entity.scope === 'organization') Object.assign(properties, { organizationCode: { type: 'string' }, organizationName: { type: 'string' } });
  Object.assign(properties, { createdBy: { type: 'string' }, createTime: { type: 'string' }, updateTime: { type: 'string' } }, computed);
  for (const key of omit) delete properties[key];
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/** The `data` of each of the entity's operations but the export (a file): for schemas/contracts.json. */
export function answerSchemas(entity: Entity, computed: Record<string, ParamSchema> = {}, omit: readonly string[] = []): Record<string, ParamSchema> {
  const record = recordSchema(entity, computed, omit);
  const id: ParamSchema = { type: 'object', properties: { id: { type: 'number' } }, required: ['id'], additionalProperties: false };
  const answers: Record<string, ParamSchema> = {};
  const has = (operation: string) => entity.operations.has(operation as never);
  if (has('page')) {
    answers[`${entity.name}.page`] = {
      type: 'object',
      properties: { records: { type: 'array', items: record }, total: { type: 'number' }, pageNumber: { type: 'number' }, pageSize: { type: 'number' }, totalAtLeast: { type: 'number' } },
      required: ['records', 'total', 'pageNumber', 'pageSize'],
      additionalProperties: false,
    };
  }
  if (has('detail')) answers[`${entity.name}.detail`] = record;
  const written = (answer: 'id' | 'record' | 'null'): ParamSchema => (answer === 'id' ? id : answer === 'record' ? record : { type: 'null' });
  if (has('insert')) answers[`${entity.name}.insert`] = written(entity.answers.insert);
  if (has('modify')) answers[`${entity.name}.modify`] = written(entity.answers.modify);
  if (has('delete')) answers[`${entity.name}.delete`] = entity.answers.delete === 'id' ? id : { type: 'null' };
  for (const transition of entity.states?.transitions ?? []) {
    answers[`${entity.name}.${transition.name}`] = {
      type: 'object',
      properties: { id: { type: 'number' }, [entity.states!.field.name]: { type: 'string' } },
      required: ['id', entity.states!.field.name],
      additionalProperties: false,
    };
  }
  return answers;
}
