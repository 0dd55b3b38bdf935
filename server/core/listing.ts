import type { Queryable, SqlParam } from '../db/database';
import { parseBusinessTime } from '../domain/businessTime';
import { fail } from '../http/envelope';
import type { OperationContext } from './context';
import { Conditions, containing, exportOf, pageOf, type Listing, type Page } from './listQuery';
import { objectOf, pickedRangeOf, timeRange, type ParamOf, type ParamSchema, type Typed } from './params';
import { isoOrEmpty } from './values';
import type { TObject, TOptional } from 'typebox';

/**
 * A list declared once (issue 32): its filters and its columns in one place, and from them the
 * param schema (and so the handler's param type), the WHERE with its parameters numbered by
 * {@link Conditions}, the sort whitelist and the record each row becomes.
 *
 * ```ts
 * const USAGE = listing({
 *   from: 'usage_message m LEFT JOIN app_user u ON u.id = m.user_id',
 *   scope: async (where, context) => where.scope(await organizationScope(context), 'm'),
 *   filters: { loginName: contains(['u.login_name', 'u.user_name'], text(64)), platform: equals('m.platform', enumOf(PLATFORMS)), activeTime: between('m.active_time') },
 *   columns: { id: column<number>('m.id'), loginName: textColumn('u.login_name'), activeTime: timeColumn('m.active_time') },
 *   sorts: ['activeTime'],
 *   fallback: 'm.active_time DESC, m.id DESC',
 * });
 * defineOperation('usage.message.page', { paramSchema: USAGE.paramSchema, handler: (context) => USAGE.page(context) });
 * ```
 *
 * The list is read through core/listQuery.ts (its count, narrow FROM and paging) as before.
 */

// ── filters ────────────────────────────────────────────────────────────────────────────────────

/** One filter of a list: the schema of its value, and what it adds to the WHERE once given. */
export interface Filter<S extends ParamSchema = ParamSchema> {
  schema: S;
  /** Adds the condition for `value` (never undefined, null or ''); `field` is the filter's name, for "400" 参数错误：field. */
  apply: (where: Conditions, value: ParamOf<S>, context: OperationContext<unknown>, field: string) => void | Promise<void>;
}

const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/** `column = value`; `convert` turns the value into the column's (a '0'/'1' select into a number). */
export function equals<S extends ParamSchema>(column: string, schema: S, convert: (value: ParamOf<S>) => SqlParam = (value) => value as SqlParam): Filter<S> {
  return { schema, apply: (where, value) => void where.add(`${column} = $?`, convert(value)) };
}

/**
 * Any of `columns` contains the text, its wildcards escaped (ILIKE '%…%'); with `trim`, the text
 * without its surrounding spaces, and no condition for spaces alone.
 */
export function contains<S extends ParamSchema>(columns: string | readonly string[], schema: S, { trim = false } = {}): Filter<S> {
  const list = typeof columns === 'string' ? [columns] : columns;
  const sql = list.length === 1 ? `${list[0]} ILIKE $?` : `(${list.map((column) => `${column} ILIKE $?`).join(' OR ')})`;
  return {
    schema,
    apply: (where, value) => {
      const text = trim ? String(value).trim() : String(value);
      if (text) where.add(sql, containing(text));
    },
  };
}

/** How a range picker's [from, to] becomes two times ("400" for a time that is none). */
export type RangeReading = (pair: readonly [string, string], field: string, timeZone: string) => [Date, Date];

/** Each bound on the business zone's clock, as given ("400" 参数错误：field for a time that is none). */
export const givenRange: RangeReading = (pair, field, timeZone) => {
  const [from, to] = pair.map((time) => parseBusinessTime(time, timeZone));
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw fail.badField(field);
  return [from, to];
};

/** As {@link givenRange}, reversed bounds swapped. */
export const swappedRange: RangeReading = (pair, field, timeZone) => {
  const [from, to] = givenRange(pair, field, timeZone);
  return from <= to ? [from, to] : [to, from];
};

/** As {@link givenRange}, reversed bounds refused ("400" 参数错误：field（开始时间不能晚于结束时间）). */
export const orderedRange: RangeReading = (pair, field, timeZone) => {
  const [from, to] = givenRange(pair, field, timeZone);
  if (from.getTime() > to.getTime()) throw fail.badRequest(`参数错误：${field}（开始时间不能晚于结束时间）`);
  return [from, to];
};

/** As pickedRangeOf reads a range picker's pair: reversed bounds swapped, equal ones "400" 请输入不同的时间. */
export const pickedRange: RangeReading = (pair, _field, timeZone) => pickedRangeOf(pair, timeZone);

/** `column >= from AND column <= to` for a range picker's pair, read by `read` (reversed bounds swapped unless told). */
export function between(column: string, read: RangeReading = swappedRange): Filter<typeof timeRange> {
  return {
    schema: timeRange,
    apply: (where, value, context, field) => {
      const [from, to] = read(value, field, context.config.timeZone);
      where.add(`${column} >= $?`, from).add(`${column} <= $?`, to);
    },
  };
}

/** A filter whose condition is the list's own (a subquery, several columns). */
export const custom = <S extends ParamSchema>(schema: S, apply: Filter<S>['apply']): Filter<S> => ({ schema, apply });

// ── columns ────────────────────────────────────────────────────────────────────────────────────

/**
 * A field of the record: the SQL that reads it (aliased by the field's name) and how the driver's
 * value becomes the answer's; or, with no SQL, a value derived from the row's other fields (as the
 * driver read them, by their names) and the request (the time now, the business zone).
 */
export interface Column<T> {
  sql?: string;
  read: (value: never, row: Readonly<Record<string, unknown>>, context: OperationContext<unknown>) => T;
}

/** The value as the driver reads it. */
export const column = <T>(sql: string, read: (value: never) => T = (value) => value as T): Column<T> => ({ sql, read });
/** Text, '' for null. */
export const textColumn = (sql: string): Column<string> => ({ sql, read: (value: string | null) => value ?? '' });
/** A time as ISO 8601 text, '' for null. */
export const timeColumn = (sql: string): Column<string> => ({ sql, read: (value: Date | null) => isoOrEmpty(value) });
/**
 * A field no SQL reads: derived from the row's fields as the driver read them (`row.expireTime` is
 * the Date the `expireTime` column selected) and the request; it stands where it is declared.
 */
export const derived = <T>(derive: (row: Readonly<Record<string, unknown>>, context: OperationContext<unknown>) => T): Column<T> => ({
  read: (_value, row, context) => derive(row, context),
});

type Columns = Record<string, Column<unknown>>;
/** The record a row of `C` becomes. */
export type RecordOf<C extends Columns> = { [K in keyof C]: C[K] extends Column<infer T> ? T : never };

// ── the declaration ────────────────────────────────────────────────────────────────────────────

/** Any filter, its value's type aside (`apply` takes the value its schema admits). */
type AnyFilter = { schema: ParamSchema; apply: (where: Conditions, value: never, context: OperationContext<unknown>, field: string) => void | Promise<void> };
type Filters = Record<string, AnyFilter>;
type FilterSchemas<F extends Filters> = { [K in keyof F]: F[K]['schema'] };
/** The param of a list: each filter optional but those `R` names, which the request must give. */
export type ListParam<F extends Filters, R extends keyof F = never> = { [K in Exclude<keyof F, R>]?: ParamOf<F[K]['schema']> } & { [K in R]: ParamOf<F[K]['schema']> };

export interface ListDeclaration<F extends Filters, C extends Columns, R extends Extract<keyof F, string>> extends Omit<Listing<Record<string, unknown>, RecordOf<C>>, 'columns' | 'sorts' | 'record'> {
  /** What every request's WHERE starts with (the scope, a check of the caller or the parent the list is of), before the filters. */
  scope?: (where: Conditions, context: OperationContext<ListParam<F, R>>) => unknown;
  filters: F;
  /** The filters a request must give (a list of one dictionary's items): required in the param schema. */
  required?: readonly R[];
  columns: C;
  /** The fields the console may sort by: columns by name, or a field and the SQL it sorts by. */
  sorts: ReadonlyArray<Extract<keyof C, string>> | Readonly<Record<string, string>>;
}

export interface DeclaredList<F extends Filters, C extends Columns, R extends keyof F = never> {
  /** The param schema: the filters' schemas, each optional but the required ones, nothing else. */
  paramSchema: Typed<TObject<{ [K in keyof F]: K extends R ? FilterSchemas<F>[K] : TOptional<FilterSchemas<F>[K]> }>>;
  listing: Listing<Record<string, unknown>, RecordOf<C>>;
  /** The WHERE of a request: the scope, then each filter given, in the declaration's order. */
  where: (context: OperationContext<ListParam<F, R>>) => Promise<Conditions>;
  page: (context: OperationContext<ListParam<F, R>>) => Promise<Page<RecordOf<C>>>;
  rows: (context: OperationContext<ListParam<F, R>>) => Promise<Array<RecordOf<C>>>;
  /**
   * The record of the row `where` picks (a detail answering what the list answers), or undefined;
   * neither the scope nor the filters apply. `suffix` follows the WHERE (` FOR UPDATE OF d`); `db`
   * a transaction's connection, the request's by default.
   */
  find: (context: OperationContext<unknown>, where: Conditions, suffix?: string, db?: Queryable) => Promise<RecordOf<C> | undefined>;
  /** As {@link find}, every row `where` picks (a batch action's rows, a document's items); `suffix` may hold the ORDER BY. */
  findAll: (context: OperationContext<unknown>, where: Conditions, suffix?: string, db?: Queryable) => Promise<Array<RecordOf<C>>>;
}

/** The record a declared list answers for each row (for a type other modules name). */
export type ItemOf<L> = L extends DeclaredList<infer _F, infer C, infer _R> ? RecordOf<C> : never;

/**
 * The records of a listing's rows that `where` picks, neither its scope nor its filters applied
 * (a declared list's find() and findAll(); a listing put together for one request, such as one
 * with the caller's counts); `suffix` follows the WHERE, `db` a transaction's connection.
 */
export async function recordsWhere<Item>(context: OperationContext<unknown>, listing: Listing<Record<string, unknown>, Item>, where: Conditions, suffix = '', db: Queryable = context.db): Promise<Item[]> {
  const rows = await db.query<Record<string, unknown>>(`SELECT ${listing.columns} FROM ${listing.from} WHERE ${where.sql}${suffix}`, where.params);
  return rows.map((row) => listing.record(row, context));
}

/** The SQL a sortable column reads (a derived one has none to sort by: a programming error). */
function sqlOf(columns: Columns, name: string): string {
  const sql = columns[name]?.sql;
  if (sql === undefined) throw new Error(`列 ${name} 没有 SQL，不能排序`);
  return sql;
}

/** A list from its one declaration (see the module's comment). */
export function listing<F extends Filters, C extends Columns, R extends Extract<keyof F, string> = never>(declaration: ListDeclaration<F, C, R>): DeclaredList<F, C, R> {
  const { scope, filters, required = [], columns, sorts, ...rest } = declaration;
  const schemas = Object.fromEntries(Object.entries(filters).map(([name, filter]) => [name, filter.schema])) as FilterSchemas<F>;
  const fields = Object.entries(columns);
  const selected = fields.filter(([, { sql }]) => sql !== undefined);
  const listed: Listing<Record<string, unknown>, RecordOf<C>> = {
    ...rest,
    columns: selected.map(([name, { sql }]) => `${sql} AS "${name}"`).join(', '),
    sorts: Array.isArray(sorts) ? Object.fromEntries(sorts.map((name: string) => [name, sqlOf(columns, name)])) : (sorts as Readonly<Record<string, string>>),
    record: (row, context) => Object.fromEntries(fields.map(([name, { read }]) => [name, (read as (value: unknown, row: Readonly<Record<string, unknown>>, context: OperationContext<unknown>) => unknown)(row[name], row, context)])) as RecordOf<C>,
  };
  const where = async (context: OperationContext<ListParam<F, R>>): Promise<Conditions> => {
    const conditions = new Conditions();
    await scope?.(conditions, context);
    const param = context.param as Record<string, unknown>;
    for (const [name, filter] of Object.entries(filters)) {
      if (given(param[name])) await filter.apply(conditions, param[name] as never, context, name);
    }
    return conditions;
  };
  const findAll = (context: OperationContext<unknown>, where: Conditions, suffix = '', db: Queryable = context.db) => recordsWhere(context, listed, where, suffix, db);
  return {
    paramSchema: objectOf(schemas, [...required]) as DeclaredList<F, C, R>['paramSchema'],
    listing: listed,
    where,
    page: async (context) => pageOf(context, listed, await where(context)),
    rows: async (context) => exportOf(context, listed, await where(context)),
    find: async (context, where, suffix = '', db = context.db) => (await findAll(context, where, suffix, db))[0],
    findAll,
  };
}
