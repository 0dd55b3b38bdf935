import type { Queryable, SqlParam } from '../db/database';
import { bind, bindAll } from '../db/parameters';
import { tenantOf } from '../domain/organizations';
import { isUniqueViolation } from '../http/constraints';
import { fail } from '../http/envelope';
import type { SheetColumn } from '../http/spreadsheet';
import { exportFile } from '../core/exports';
import { callerOf, type OperationContext } from '../core/context';
import { defineOperation, type OperationDefinition } from '../core/operation';
import type { ParamSchema } from '../core/params';
import { Conditions, containing, exportOf, pageOf, type Listing } from '../core/listQuery';
import { organizationScope } from '../core/scope';
import { homeTenant, isPlatformStaff, tenantScope } from '../core/access';
import { readDictionaries } from '../domain/schemaFiles';
import type { Entity, EntityField, EntityTransition } from './definition';
import { idParamSchema, insertParamSchema, isRequired, modifyParamSchema, pageParamSchema, patternsOf } from './schemas';

/**
 * The standard operations of an entity definition (issue 25): page, detail, insert, modify,
 * delete, export and its state transitions, over the shared list-query module (scope, filters,
 * whitelisted sorts, counting, paging) — no hand-written handler for a standard screen. A
 * hand-written operation of another name may sit beside them (the catalogue names both).
 *
 * Records: `{ id, <fields>, tenantCode, tenantName, [organizationCode, organizationName],
 * createdBy, createTime, updateTime }` (platform scope: no tenant or organisation).
 */

type Json = Record<string, unknown>;
type Row = Record<string, unknown>;

/**
 * What an area moved onto a definition keeps in code (the rest is the definition): fields worked
 * out from a record, filters that are not one field's exact match, its own spreadsheet columns.
 * A new screen needs none.
 */
export interface EntityExtension {
  /** Fields worked out from a record, answered with it: their answer schemas and how each is found. */
  computed?: { schema: Record<string, ParamSchema>; of: (record: Json) => Json };
  /** Page and export filters besides the fields': the param's schema and the condition a given value adds (alias `t`). */
  filters?: Record<string, { schema: ParamSchema; where: (value: unknown, where: Conditions) => void }>;
  /** The spreadsheet's columns, instead of one per field and the record's own. */
  exportColumns?: SheetColumn<Json>[];
  /** Refuses a caller before any standard operation or transition runs (e.g. platform staff only: fail.forbidden()). */
  access?: (context: OperationContext<unknown>, operation: string) => void | Promise<void>;
  /**
   * Tenant scope: the tenants a request reads (and, the first, writes into) instead of the caller's tenant
   * scope, by operation (page, detail, insert, …); it refuses (throws) a caller who has none.
   */
  tenants?: (context: OperationContext<unknown>, operation: string) => Promise<string[]>;
  /** Values worked out in SQL (a count, a joined name): name → expression over alias `t` and its answer schema; answered with the record. */
  columns?: Record<string, { sql: string; schema: ParamSchema }>;
  /** Sorts of the page besides (or instead of) the sortable fields': name → SQL expression (alias `t`). */
  sorts?: Record<string, string>;
  /** Record keys not answered (e.g. tenantName when a computed field says it otherwise). */
  omit?: string[];
  /** Completes the records page and detail answer, per request (e.g. what the caller may do with each); runs after `computed`, before `omit`. */
  answer?: (records: Json[], context: OperationContext<unknown>) => Promise<void> | void;
  /**
   * Checks before an insert or a modify writes (after the fields' own checks, before the unique ones), in its transaction (`db`): `values` the checked fields
   * about to be written (by field name), `current` the record a modify changes (null for an insert),
   * `tenantCode` the row's tenant. Throws the refusal (fail.badRequest, fail.conflict …); may answer fields to write
   * instead of those given (their normal form).
   */
  beforeWrite?: (write: { context: OperationContext<unknown>; db: Queryable; values: Json; current: Json | null; tenantCode: string | null }) => Promise<Json | void> | Json | void;
  /** Checks before a delete, in its transaction, the record locked: throws the refusal (e.g. 409 while others refer to it). */
  beforeDelete?: (remove: { context: OperationContext<unknown>; db: Queryable; current: Json }) => Promise<void> | void;
}

/** Each entity's extension, as entityOperations was given it (the helpers below read it). */
const EXTENSIONS = new WeakMap<Entity, EntityExtension>();
const extensionOf = (entity: Entity): EntityExtension => EXTENSIONS.get(entity) ?? {};

/** A quoted SQL identifier (names are checked by entity.schema.json; quoting keeps words like `order` usable). */
const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const col = (field: EntityField): string => `t.${q(field.column)}`;

/** The SELECT list: every field under its own (camelCase) name, dates as YYYY-MM-DD. */
function columnsOf(entity: Entity): string {
  const fields = entity.fields.map((field) => (field.type === 'date' ? `to_char(${col(field)}, 'YYYY-MM-DD') AS ${q(field.name)}` : `${col(field)} AS ${q(field.name)}`));
  const scope =
    entity.scope === 'tenant'
      ? ['t.tenant_code AS "tenantCode"', 'tn.name AS "tenantName"']
      : entity.scope === 'organization'
        ? ['t.tenant_code AS "tenantCode"', 'tn.name AS "tenantName"', 't.organization_code AS "organizationCode"', 'og.name AS "organizationName"']
        : [];
  const extra = Object.entries(extensionOf(entity).columns ?? {}).map(([name, column]) => `(${column.sql}) AS ${q(name)}`);
  return ['t.id AS "id"', ...fields, ...scope, 't.created_by AS "createdBy"', 't.created_at AS "createTime"', 't.updated_at AS "updateTime"', ...extra].join(', ');
}

function fromOf(entity: Entity): string {
  const table = `${q(entity.table)} t`;
  if (entity.scope === 'tenant') return `${table} LEFT JOIN organization tn ON tn.code = t.tenant_code`;
  if (entity.scope === 'organization') return `${table} LEFT JOIN organization tn ON tn.code = t.tenant_code LEFT JOIN organization og ON og.code = t.organization_code`;
  return table;
}

const iso = (value: unknown): string | null => (value instanceof Date ? value.toISOString() : value === null || value === undefined ? null : new Date(String(value)).toISOString());

/** A field's value as the record answers it. */
function answerOf(field: EntityField, value: unknown): unknown {
  if (value === null || value === undefined) return field.type === 'string' ? '' : null;
  switch (field.type) {
    case 'integer':
    case 'number':
      return Number(value);
    case 'boolean':
      return Boolean(value);
    case 'datetime':
      return iso(value);
    default:
      return String(value);
  }
}

/** A row as the record the console reads. */
export function recordOf(entity: Entity, row: Row, extension: EntityExtension = {}): Json {
  const record: Json = { id: Number(row.id) };
  for (const field of entity.fields) record[field.name] = answerOf(field, row[field.name]);
  if (entity.scope !== 'platform') {
    record.tenantCode = row.tenantCode ?? '';
    record.tenantName = row.tenantName ?? '';
  }
  if (entity.scope === 'organization') {
    record.organizationCode = row.organizationCode ?? '';
    record.organizationName = row.organizationName ?? '';
  }
  record.createdBy = row.createdBy ?? '';
  record.createTime = iso(row.createTime) ?? '';
  record.updateTime = iso(row.updateTime) ?? iso(row.createTime) ?? '';
  for (const name of Object.keys(extensionOf(entity).columns ?? {})) record[name] = row[name] ?? null;
  return extension.computed ? Object.assign(record, extension.computed.of(record)) : record;
}

/** The whitelisted sorts: sortable fields, createTime and updateTime. */
function sortsOf(entity: Entity, extension: EntityExtension): Record<string, string> {
  const sorts: Record<string, string> = { createTime: 't.created_at', updateTime: 't.updated_at' };
  for (const field of entity.fields) if (field.sortable) sorts[field.name] = col(field);
  return { ...sorts, ...extension.sorts };
}

function fallbackOf(entity: Entity): string {
  const expressionOf = (name: string): string => {
    const field = entity.field.get(name);
    return field ? col(field) : name === 'updateTime' ? 't.updated_at' : name === 'id' ? 't.id' : 't.created_at';
  };
  const order = entity.defaultSort.order === 'asc' ? 'ASC' : 'DESC';
  // A shared entity's platform rows (no tenant) come first.
  const keys = entity.shared ? ['t.tenant_code NULLS FIRST'] : [];
  for (const sort of [entity.defaultSort, ...entity.thenSort]) {
    const expression = expressionOf(sort.field);
    if (expression === 't.id') break;
    keys.push(`${expression} ${sort.order === 'asc' ? 'ASC' : 'DESC'}`);
  }
  return [...keys, `t.id ${order}`].join(', ');
}

function listingOf(entity: Entity, extension: EntityExtension): Listing<Row, Json> {
  return {
    from: fromOf(entity),
    narrowFrom: `${q(entity.table)} t`,
    key: 't.id',
    columns: columnsOf(entity),
    sorts: sortsOf(entity, extension),
    fallback: fallbackOf(entity),
    record: (row) => recordOf(entity, row, extension),
  };
}

// ── scope ──────────────────────────────────────────────────────────────────────────────────────

/** The rows of the entity the request may see. */
async function scopeWhere(entity: Entity, context: OperationContext<unknown>, operation = 'detail'): Promise<Conditions> {
  const where = new Conditions();
  const tenants = extensionOf(entity).tenants;
  if (entity.scope === 'tenant' && tenants) where.add('t.tenant_code = ANY($?::text[])', await tenants(context, operation));
  else if (entity.scope === 'tenant') where.add(entity.shared ? '(t.tenant_code IS NULL OR t.tenant_code = ANY($?::text[]))' : 't.tenant_code = ANY($?::text[])', (await tenantScope(context)).tenantCodes);
  else if (entity.scope === 'organization') where.scope(await organizationScope(context), 't', { tenant: 'tenant_code' });
  return where;
}

/** Where a new record goes: its tenant and organisation columns. */
async function placementOf(entity: Entity, context: OperationContext<unknown>, fields: Json): Promise<Record<string, string | null>> {
  const tenants = extensionOf(entity).tenants;
  if (entity.scope === 'tenant' && tenants) {
    const [tenant] = await tenants(context, 'insert');
    if (!tenant) throw fail.forbidden();
    return { tenant_code: tenant };
  }
  if (entity.scope === 'tenant' && entity.shared) {
    // Above the tenants only platform staff write, and what they write is the platform's.
    const scope = await tenantScope(context);
    if (scope.home !== null) return { tenant_code: scope.home };
    if (!isPlatformStaff(context)) throw fail.forbidden();
    return { tenant_code: null };
  }
  if (entity.scope === 'tenant') return { tenant_code: homeTenant(await tenantScope(context)) };
  if (entity.scope === 'organization') {
    const scope = await organizationScope(context);
    const caller = callerOf(context);
    const wanted = typeof fields.organizationCode === 'string' && fields.organizationCode !== '' ? fields.organizationCode : (context.organizationCode ?? caller.organizationCodes[0]);
    if (!wanted || !scope.organizationCodes.includes(wanted)) throw fail.forbidden('无权访问该组织');
    const tenant = await tenantOf(context.db, wanted);
    if (!tenant) throw fail.badRequest('请先在组织切换中选择租户下的组织');
    return { tenant_code: tenant, organization_code: wanted };
  }
  return {};
}

/**
 * The row `id` within the request's scope ("404" <title>不存在 otherwise). In a transaction, `scope`
 * is read before it: reading it takes the database, which the transaction holds (PGlite).
 */
async function scopedRow(entity: Entity, context: OperationContext<unknown>, id: number, db: Queryable = context.db, lock = false, scope?: Conditions): Promise<Row> {
  const where = (scope ?? (await scopeWhere(entity, context))).add('t.id = $?', id);
  const [row] = await db.query<Row>(`SELECT ${columnsOf(entity)} FROM ${fromOf(entity)} WHERE ${where.sql}${lock ? ' FOR UPDATE OF t' : ''}`, where.params);
  if (!row) throw fail.notFound(`${entity.title}不存在`);
  return row;
}

/** Whether the caller writes a shared entity's platform rows: platform staff at the platform root. */
async function writesPlatformRows(entity: Entity, context: OperationContext<unknown>): Promise<boolean> {
  return entity.shared && (await tenantScope(context)).home === null && isPlatformStaff(context);
}

/** "403" 平台通用<title>不能修改或删除 for a shared entity's platform row the caller may only read. */
function checkWritable(entity: Entity, row: Row, platformWriter: boolean): void {
  if (entity.shared && (row.tenantCode === null || row.tenantCode === undefined) && !platformWriter) throw fail.forbidden(`平台通用${entity.title}不能修改或删除`);
}

/** Completes page and detail records: the extension's `answer`, then its `omit`. */
async function finished(records: Json[], context: OperationContext<unknown>, extension: EntityExtension): Promise<Json[]> {
  if (extension.answer) await extension.answer(records, context);
  for (const key of extension.omit ?? []) for (const record of records) delete record[key];
  return records;
}

// ── writing ────────────────────────────────────────────────────────────────────────────────────

const writable = (entity: Entity): EntityField[] => entity.fields.filter((field) => !field.readOnly);

/** The value a field is written with: strings trimmed, empty text for a cleared string, null for a cleared other. */
function storedValue(field: EntityField, value: unknown): SqlParam {
  if (value === undefined || value === null || (value === '' && field.type !== 'string')) return field.type === 'string' && !field.nullable ? '' : null;
  if (field.type === 'string') return field.nullable && String(value).trim() === '' ? null : String(value).trim();
  // A time without a zone is the business zone's (PostgreSQL reads it in the zone each connection pins).
  if (field.type === 'datetime') return String(value);
  return value as SqlParam;
}

/** The fields of an insert or a modify, checked beyond their schema: not blank. */
function checkedValues(entity: Entity, given: Json, insert: boolean): Map<EntityField, SqlParam> {
  const values = new Map<EntityField, SqlParam>();
  for (const field of writable(entity)) {
    const present = Object.prototype.hasOwnProperty.call(given, field.name) && given[field.name] !== undefined;
    if (!present && !insert) continue;
    // A field with a default takes it when left out of an insert or sent empty (null).
    const raw = present && !(given[field.name] === null && field.default !== undefined) ? given[field.name] : field.default;
    const value = storedValue(field, raw);
    const path = entity.param ? `${entity.param}.${field.name}` : field.name;
    if (isRequired(field) && (value === null || value === '')) throw fail.badRequest(`参数错误：${path}（不能为空）`);
    if (typeof value === 'string' && value !== '' && field.type === 'string') {
      const broken = patternsOf(field).find((rule) => !rule.pattern.test(value));
      if (broken) throw fail.badRequest(`参数错误：${path}（${broken.message}）`);
    }
    values.set(field, value);
  }
  return values;
}

/** The scope a unique field is unique within: the tenant, or the whole table for platform data. */
function uniqueWithin(entity: Entity, placement: Record<string, string | null>): { sql: string; params: SqlParam[] } {
  if (entity.scope === 'platform') return { sql: 'TRUE', params: [] };
  // A shared entity's platform rows (no tenant) are unique among themselves.
  if (placement.tenant_code === null || placement.tenant_code === undefined) return { sql: 't.tenant_code IS NULL', params: [] };
  return { sql: 't.tenant_code = $?', params: [placement.tenant_code] };
}

/** "409" <field title>已存在 for a unique field whose value another record of the scope holds. */
async function checkUnique(entity: Entity, db: Queryable, values: Map<EntityField, SqlParam>, placement: Record<string, string | null>, exceptId: number | null): Promise<void> {
  for (const [field, value] of values) {
    if (!field.unique || value === null || value === '') continue;
    const within = uniqueWithin(entity, placement);
    const where = new Conditions().add(`${col(field)} = $?`, value);
    where.add(within.sql, within.params[0]);
    if (exceptId !== null) where.add('t.id <> $?', exceptId);
    const [clash] = await db.query(`SELECT 1 FROM ${q(entity.table)} t WHERE ${where.sql} LIMIT 1`, where.params);
    if (clash) throw fail.conflict(`${field.title}已存在`);
  }
}

/** "409" <message> for a unique key (uniqueKeys) whose values together another record of the scope holds. */
async function checkUniqueKeys(entity: Entity, db: Queryable, values: Json, placement: Record<string, string | null>, exceptId: number | null): Promise<void> {
  for (const key of entity.uniqueKeys) {
    const where = new Conditions();
    for (const field of key.fields) {
      const value = values[field.name];
      if (value === null || value === undefined) where.add(`${col(field)} IS NULL`);
      else where.add(`${col(field)} = $?`, value as SqlParam);
    }
    const within = uniqueWithin(entity, placement);
    where.add(within.sql, within.params[0]);
    if (exceptId !== null) where.add('t.id <> $?', exceptId);
    const [clash] = await db.query(`SELECT 1 FROM ${q(entity.table)} t WHERE ${where.sql} LIMIT 1`, where.params);
    if (clash) throw fail.conflict(key.message);
  }
}

/** The fields about to be written by name, over the current record's (a modify's fields left out keep theirs). */
function writtenRecord(values: Map<EntityField, SqlParam>, current: Json | null): Json {
  const record: Json = current ? { ...current } : {};
  for (const [field, value] of values) record[field.name] = value;
  return record;
}

/** A unique index's refusal (two writes at once) as the sentence of the entity's unique field. */
async function uniqueAsConflict<T>(entity: Entity, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const unique = entity.fields.filter((field) => field.unique);
    const constraint = String((error as { constraint?: unknown }).constraint ?? '');
    const named = unique.find((field) => constraint.includes(field.column)) ?? (unique.length === 1 && entity.uniqueKeys.length === 0 ? unique[0] : undefined);
    throw fail.conflict(named ? `${named.title}已存在` : (entity.uniqueKeys[0]?.message ?? `${entity.title}已存在`));
  }
}

const fieldsOfParam = (entity: Entity, param: Json): Json => ((entity.param ? param[entity.param] : param) as Json | undefined) ?? {};

// ── export ─────────────────────────────────────────────────────────────────────────────────────

/** The labels of the dictionaries the entity's fields name, as the database has them now. */
async function dictionaryLabels(db: Queryable, entity: Entity): Promise<Map<string, Map<string, string>>> {
  const types = [...new Set(entity.fields.flatMap((field) => (field.dictType ? [field.dictType] : [])))];
  const labels = new Map<string, Map<string, string>>(
    readDictionaries()
      .filter((entry) => types.includes(entry.dictType))
      .map((entry) => [entry.dictType, new Map(entry.items.map((item) => [item.value, item.label]))]),
  );
  if (types.length === 0) return labels;
  for (const row of await db.query<{ type: string; value: string; label: string }>('SELECT type, value, label FROM dict_item WHERE type = ANY($1::text[])', [types])) {
    if (!labels.has(row.type)) labels.set(row.type, new Map());
    labels.get(row.type)!.set(row.value, row.label);
  }
  return labels;
}

function exportColumns(entity: Entity, labels: Map<string, Map<string, string>>): SheetColumn<Json>[] {
  const cell = (field: EntityField) => (record: Json): string | number | Date | null => {
    const value = record[field.name];
    if (value === null || value === undefined || value === '') return field.type === 'string' ? '' : null;
    if (field.dictType) return labels.get(field.dictType)?.get(String(value)) ?? String(value);
    if (field.type === 'boolean') return value ? '是' : '否';
    if (field.type === 'datetime') return new Date(String(value));
    if (field.type === 'integer' || field.type === 'number') return Number(value);
    return String(value);
  };
  const columns: SheetColumn<Json>[] = entity.fields.map((field) => ({ title: field.title, value: cell(field), width: field.type === 'string' ? Math.min(40, Math.max(12, (field.maxLength ?? 20) / 2)) : 14 }));
  if (entity.scope === 'organization') columns.push({ title: '所属组织', value: (record) => String(record.organizationName ?? ''), width: 24 });
  if (entity.scope !== 'platform') columns.push({ title: '所属租户', value: (record) => String(record.tenantName ?? ''), width: 24 });
  columns.push({ title: '创建人', value: (record) => String(record.createdBy ?? ''), width: 14 });
  columns.push({ title: '创建时间', value: (record) => (record.createTime ? new Date(String(record.createTime)) : null) });
  columns.push({ title: '更新时间', value: (record) => (record.updateTime ? new Date(String(record.updateTime)) : null) });
  return columns;
}

// ── the page's filter ──────────────────────────────────────────────────────────────────────────

/** A filter's value as the column holds it, or undefined when the filter is not set. */
function filterValue(field: EntityField, value: unknown): SqlParam | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (field.type === 'boolean') return value === true || value === 'true' || value === '1';
  if ((field.type === 'integer' || field.type === 'number') && typeof value === 'string') return Number(value);
  if (field.type === 'datetime') return String(value);
  return value as SqlParam;
}

async function pageWhere(entity: Entity, context: OperationContext<unknown>, extension: EntityExtension): Promise<Conditions> {
  const where = await scopeWhere(entity, context, 'page');
  const param = (context.param ?? {}) as Json;
  const keyword = typeof param.keyword === 'string' ? param.keyword.trim() : '';
  const searched = entity.fields.filter((field) => field.keyword);
  if (keyword && searched.length) where.add(`(${searched.map((field) => `${col(field)} ILIKE $?`).join(' OR ')})`, containing(keyword));
  for (const field of entity.fields.filter((item) => item.filter)) {
    const value = filterValue(field, param[field.name]);
    if (value === undefined) continue;
    where.add(field.type === 'date' ? `${col(field)} = $?::date` : field.type === 'datetime' ? `${col(field)} = $?::timestamptz` : `${col(field)} = $?`, value);
  }
  for (const [name, filter] of Object.entries(extension.filters ?? {})) {
    const value = param[name];
    if (value !== undefined && value !== null && value !== '') filter.where(value, where);
  }
  return where;
}

// ── the operations ─────────────────────────────────────────────────────────────────────────────

function transitionOperation(entity: Entity, transition: EntityTransition): OperationDefinition {
  const states = entity.states!;
  return defineOperation(`${entity.name}.${transition.name}`, {
    paramSchema: idParamSchema,
    handler: async (context) => {
      const where = (await scopeWhere(entity, context)).add('t.id = $?', context.param.id);
      // A shared entity's platform rows move only at the platform root.
      const platformWriter = await writesPlatformRows(entity, context);
      if (entity.shared && !platformWriter) where.add('t.tenant_code IS NOT NULL');
      const params: SqlParam[] = [...where.params];
      const moved = await context.db.query<{ id: number }>(
        `UPDATE ${q(entity.table)} t SET ${q(states.field.column)} = ${bind(params, transition.to)}, updated_at = ${bind(params, context.now)}
          WHERE ${where.sql} AND t.${q(states.field.column)} = ANY(${bind(params, transition.from)}::text[]) RETURNING t.id`,
        params,
      );
      if (moved.length === 0) {
        // Not there, or another caller moved it first.
        checkWritable(entity, await scopedRow(entity, context, context.param.id), platformWriter);
        throw fail.conflict(`${entity.title}当前状态不能${transition.title}，请刷新后重试`);
      }
      return { id: context.param.id, [states.field.name]: transition.to };
    },
  });
}

/** The extension's checks of a write (beforeWrite), and the fields it writes instead of those given. */
async function rewritten(
  entity: Entity,
  extension: EntityExtension,
  values: Map<EntityField, SqlParam>,
  written: Json,
  current: Json | null,
  tenantCode: string | null,
  context: OperationContext<unknown>,
  db: Queryable,
): Promise<Json> {
  const replaced = await extension.beforeWrite?.({ context, db, values: written, current, tenantCode });
  for (const [name, value] of Object.entries(replaced ?? {})) {
    const field = entity.field.get(name);
    if (field && !field.readOnly) {
      values.set(field, value as SqlParam);
      written[name] = value;
    }
  }
  return written;
}

/** What an insert or a modify answers (entity.answers): the id, the record as detail answers it, or nothing. */
async function writeAnswer(entity: Entity, extension: EntityExtension, answer: 'id' | 'record' | 'null', id: number, context: OperationContext<unknown>): Promise<unknown> {
  if (answer === 'null') return null;
  if (answer === 'id') return { id };
  return (await finished([recordOf(entity, await scopedRow(entity, context, id), extension)], context, extension))[0];
}

/** `<entity>.insert`: the fields checked and rewritten by the extension, placed in the caller's organisation, unique ones refused with 409. */
function insertOperation(entity: Entity, extension: EntityExtension) {
  return defineOperation(`${entity.name}.insert`, {
    paramSchema: insertParamSchema(entity),
    handler: async (context) => {
      const given = fieldsOfParam(entity, context.param);
      const placement = await placementOf(entity, context, given);
      const loginName = callerOf(context).loginName;
      const id = await context.db.transaction(async (tx) => {
        const values = checkedValues(entity, given, true);
        const written = await rewritten(entity, extension, values, writtenRecord(values, null), null, placement.tenant_code ?? null, context, tx);
        await checkUnique(entity, tx, values, placement, null);
        await checkUniqueKeys(entity, tx, written, placement, null);
        const columns = [...Object.keys(placement), ...[...values.keys()].map((field) => field.column), 'created_by', 'created_at', 'updated_at'];
        const params: SqlParam[] = [];
        const placeholders = bindAll(params, [...Object.values(placement), ...values.values(), loginName, context.now, context.now]);
        const [row] = await uniqueAsConflict(entity, () =>
          tx.query<{ id: number }>(
            `INSERT INTO ${q(entity.table)} (${columns.map(q).join(', ')}) VALUES (${placeholders.join(', ')}) RETURNING id`,
            params,
          ),
        );
        return Number(row.id);
      });
      return writeAnswer(entity, extension, entity.answers.insert, id, context);
    },
  });
}

/** `<entity>.modify`: the row locked in scope, writable by the caller, the fields checked and rewritten by the extension. */
function modifyOperation(entity: Entity, extension: EntityExtension) {
  return defineOperation(`${entity.name}.modify`, {
    paramSchema: modifyParamSchema(entity),
    handler: async (context) => {
      const given = fieldsOfParam(entity, context.param);
      const scope = await scopeWhere(entity, context, 'modify');
      const platformWriter = await writesPlatformRows(entity, context);
      const id = await context.db.transaction(async (tx) => {
        const current = await scopedRow(entity, context, context.param.id, tx, true, scope);
        checkWritable(entity, current, platformWriter);
        const values = checkedValues(entity, given, false);
        const placement = { tenant_code: (current.tenantCode as string | undefined) ?? null };
        const record = recordOf(entity, current);
        const written = await rewritten(entity, extension, values, writtenRecord(values, record), record, placement.tenant_code, context, tx);
        await checkUnique(entity, tx, values, placement, Number(current.id));
        await checkUniqueKeys(entity, tx, written, placement, Number(current.id));
        const params: SqlParam[] = [Number(current.id)];
        const sets = [...values].map(([field, value]) => `${q(field.column)} = ${bind(params, value)}`);
        sets.push(`updated_at = ${bind(params, context.now)}`);
        await uniqueAsConflict(entity, () => tx.query(`UPDATE ${q(entity.table)} SET ${sets.join(', ')} WHERE id = $1`, params));
        return Number(current.id);
      });
      return writeAnswer(entity, extension, entity.answers.modify, id, context);
    },
  });
}

/** Every operation an entity serves: its standard ones, then its transitions. */
export function entityOperations(entity: Entity, extension: EntityExtension = {}): OperationDefinition[] {
  EXTENSIONS.set(entity, extension);
  const listing = listingOf(entity, extension);
  const has = (operation: string) => entity.operations.has(operation as never);
  const operations: OperationDefinition[] = [];
  if (has('page')) {
    operations.push(
      defineOperation(`${entity.name}.page`, {
        paramSchema: pageParamSchema(entity, extension.filters),
        handler: async (context) => {
          const page = await pageOf(context, listing, await pageWhere(entity, context, extension));
          return { ...page, records: await finished(page.records, context, extension) };
        },
      }),
    );
  }
  if (has('detail')) {
    operations.push(
      defineOperation(`${entity.name}.detail`, {
        paramSchema: idParamSchema,
        handler: async (context) => (await finished([recordOf(entity, await scopedRow(entity, context, context.param.id), extension)], context, extension))[0],
      }),
    );
  }
  if (has('insert')) operations.push(insertOperation(entity, extension));
  if (has('modify')) operations.push(modifyOperation(entity, extension));
  if (has('delete')) {
    operations.push(
      defineOperation(`${entity.name}.delete`, {
        paramSchema: idParamSchema,
        handler: async (context) => {
          const scope = await scopeWhere(entity, context, 'delete');
          const platformWriter = await writesPlatformRows(entity, context);
          await context.db.transaction(async (tx) => {
            const row = await scopedRow(entity, context, context.param.id, tx, true, scope);
            checkWritable(entity, row, platformWriter);
            await extension.beforeDelete?.({ context, db: tx, current: recordOf(entity, row) });
            await tx.query(`DELETE FROM ${q(entity.table)} WHERE id = $1`, [Number(row.id)]);
          });
          return entity.answers.delete === 'id' ? { id: context.param.id } : null;
        },
      }),
    );
  }
  if (has('export')) {
    operations.push(
      defineOperation(`${entity.name}.export`, {
        paramSchema: pageParamSchema(entity, extension.filters),
        handler: async (context) => {
          const records = await exportOf(context, listing, await pageWhere(entity, context, extension));
          const columns = extension.exportColumns ?? exportColumns(entity, await dictionaryLabels(context.db, entity));
          return exportFile(context, entity.exportTitle, columns, records);
        },
      }),
    );
  }
  for (const transition of entity.states?.transitions ?? []) operations.push(transitionOperation(entity, transition));
  const access = extension.access;
  if (!access) return operations;
  // The extension's refusal comes before anything else the operation does.
  return operations.map((operation) => ({
    ...operation,
    handler: async (context: OperationContext<unknown>) => {
      await access(context, operation.name);
      return operation.handler(context);
    },
  }));
}

