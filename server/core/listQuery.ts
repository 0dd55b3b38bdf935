import type { Queryable, SqlParam } from '../db/database';
import { bind } from '../db/parameters';
import { parseBusinessTime } from '../domain/businessTime';
import { fail } from '../http/envelope';
import { EXPORT_ROW_LIMIT } from '../http/spreadsheet';
import type { OperationContext } from './context';
import { scopeCondition, type OrganizationScope, type ScopeColumns } from './scope';

/**
 * The one way a list is read (issue 19): every `page` operation and every export goes through
 * here, so what makes one list fast or correct reaches all of them.
 *
 * - **Scope**: the organisations a request works over (core/scope.ts) become a WHERE
 *   an index can use — nothing at the platform root, `tenant_code = $t` for a tenant's whole tree
 *   (every scoped table's index leads with the tenant), and the tenant plus the organisation list
 *   below a tenant's root.
 * - **Filters**: {@link Conditions}, whose `$?` placeholders are numbered as they are added.
 * - **Sort**: only the listing's whitelisted fields, then its fallback order, which must end in a
 *   unique key so that pages never overlap.
 * - **Count**: exact up to {@link EXACT_COUNT_LIMIT} rows (counting stops there), the planner's
 *   estimate past it, with `totalAtLeast` (the rows counted) so that the console shows
 *   共 10,000+ 条 and the pager still reaches any page; a list found that long is not counted
 *   again for LONG_LIST_SECONDS.
 * - **Paging**: the page's rows are chosen over the tables the WHERE and the ORDER BY need and
 *   joined to the rest afterwards (only the page's rows pay for the joins).
 */

/** Lists count their rows exactly up to this many; past it the total is an estimate. */
export const EXACT_COUNT_LIMIT = 10_000;

/**
 * The rows an export reads: one more than a spreadsheet takes (EXPORT_ROW_LIMIT), so that
 * spreadsheet() refuses a longer list with its message rather than cutting it short.
 */
export const EXPORT_LIMIT = EXPORT_ROW_LIMIT + 1;

// ── filters ────────────────────────────────────────────────────────────────────────────────────

/** A WHERE under construction: its conditions and their parameters. */
export class Conditions {
  readonly params: SqlParam[];
  private readonly parts: string[] = [];

  /** `params` already holds values that other parts of the statement refer to by number. */
  constructor(params: SqlParam[] = []) {
    this.params = params;
  }

  /** Adds `sql`, where every `$?` stands for the parameter `value`. */
  add(sql: string, value?: SqlParam): this {
    if (value === undefined) {
      this.parts.push(sql);
      return this;
    }
    const placeholder = bind(this.params, value);
    this.parts.push(sql.replace(/\$\?/g, placeholder));
    return this;
  }

  /**
   * Adds `value` to the parameters and answers its placeholder (`$3`), for a part of the statement
   * outside the WHERE that refers to a value (a LIMIT, a join's condition, a CTE's bounds). Like
   * {@link add}'s `$?`, it is numbered by db/parameters.ts's `bind`, the one place that numbers.
   */
  ref(value: SqlParam): string {
    return bind(this.params, value);
  }

  /** Adds `sql` only when `value` is given (not undefined, null or ''). */
  when(value: SqlParam | undefined, sql: string, convert: (value: SqlParam) => SqlParam = (v) => v): this {
    if (value === undefined || value === null || value === '') return this;
    return this.add(sql, convert(value));
  }

  /** Adds the scope of `alias` (see {@link scopeCondition}). */
  scope(scope: OrganizationScope, alias: string, columns?: ScopeColumns): this {
    this.parts.push(scopeCondition(scope, this.params, alias, columns));
    return this;
  }

  get sql(): string {
    return this.parts.length ? this.parts.join(' AND ') : 'TRUE';
  }
}

/** `%keyword%` for ILIKE, its wildcards escaped. */
export function containing(keyword: string): string {
  return `%${keyword.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
}

// ── sort and paging ────────────────────────────────────────────────────────────────────────────

/** ORDER BY from the page's sortParamList, only over whitelisted fields, then `fallback`. */
export function orderBy(context: OperationContext<unknown>, columns: Readonly<Record<string, string>>, fallback: string): string {
  const sorts = (context.page?.sortParamList ?? [])
    .filter((sort) => Object.prototype.hasOwnProperty.call(columns, sort.field))
    .map((sort) => `${columns[sort.field]} ${sort.order === 'asc' ? 'ASC' : 'DESC'}`);
  if (sorts.length === 0) return fallback;
  // A fallback term on an expression the caller already sorts by orders nothing more: left out,
  // so the ORDER BY stays the one an index was made for (triggered_at DESC, id DESC, not
  // triggered_at DESC, triggered_at DESC, id DESC).
  const sorted = new Set(sorts.map(sortExpression));
  return [...sorts, ...sortTerms(fallback).filter((term) => !sorted.has(sortExpression(term)))].join(', ');
}

/** The terms of an ORDER BY list, split at the commas outside parentheses. */
function sortTerms(list: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const char = list[i];
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ',' && depth === 0) {
      terms.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  terms.push(list.slice(start).trim());
  return terms.filter(Boolean);
}

/** The expression an ORDER BY term sorts by, without its direction and NULLS placement. */
function sortExpression(term: string): string {
  return term.replace(/\s+NULLS\s+(FIRST|LAST)\s*$/i, '').replace(/\s+(ASC|DESC)\s*$/i, '').replace(/\s+/g, ' ').trim();
}

export function paging(context: OperationContext<unknown>): { limit: number; offset: number; pageNumber: number; pageSize: number } {
  const pageNumber = context.page?.pageNumber ?? 1;
  const pageSize = context.page?.pageSize ?? 20;
  return { limit: pageSize, offset: (pageNumber - 1) * pageSize, pageNumber, pageSize };
}

/**
 * `sql` with only the parameters it refers to, renumbered: a count or a page's choice of rows may
 * leave out a join whose parameter the full statement needs, and PostgreSQL refuses a parameter
 * that no placeholder names.
 */
export function usedParameters(sql: string, params: readonly SqlParam[]): { sql: string; params: SqlParam[] } {
  const used = new Map<number, string>();
  const kept: SqlParam[] = [];
  const renumbered = sql.replace(/\$(\d+)\b/g, (_, digits: string) => {
    const index = Number(digits);
    let placeholder = used.get(index);
    if (placeholder === undefined) {
      placeholder = bind(kept, params[index - 1]);
      used.set(index, placeholder);
    }
    return placeholder;
  });
  return { sql: renumbered, params: kept };
}

async function run<T>(db: Queryable, sql: string, params: readonly SqlParam[]): Promise<T[]> {
  const statement = usedParameters(sql, params);
  return db.query<T>(statement.sql, statement.params);
}

// ── counting ───────────────────────────────────────────────────────────────────────────────────

export interface Count {
  total: number;
  /** The total is the planner's estimate of a list longer than EXACT_COUNT_LIMIT. */
  estimated: boolean;
}

/** How long a list found longer than EXACT_COUNT_LIMIT is taken to stay so without counting again. */
export const LONG_LIST_SECONDS = 30;
/** Long lists remembered per database at most (past it the memory starts over). */
const LONG_LISTS_KEPT = 2_000;
const longLists = new WeakMap<Queryable, Map<string, { total: number; until: number }>>();

/** Forgets which lists of `db` were found long (after the whole database was put back to the seed). */
export function forgetLongLists(db: Queryable): void {
  longLists.delete(db);
}

/**
 * The rows of `FROM from WHERE where`: counted while there are at most EXACT_COUNT_LIMIT (the
 * count stops at one more), the planner's estimate past that (never below the limit). A list
 * found longer than the limit is taken to stay so for LONG_LIST_SECONDS (the same statement and
 * values: the same scope, filter and caller's rows), so that paging through it or many people
 * reading it do not count the same 10,001 rows each time: what the console shows of it,
 * 共 10,000+ 条, and an estimate do not change with a few rows more or less.
 */
export async function countRows(db: Queryable, from: string, where: string, params: readonly SqlParam[]): Promise<Count> {
  const statement = usedParameters(`SELECT 1 FROM ${from} WHERE ${where}`, params);
  const key = `${statement.sql}\u0000${JSON.stringify(statement.params)}`;
  let known = longLists.get(db);
  const remembered = known?.get(key);
  if (remembered && remembered.until > Date.now()) return { total: remembered.total, estimated: true };
  const [{ total }] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM (${statement.sql} LIMIT ${EXACT_COUNT_LIMIT + 1}) counted`, statement.params);
  if (total <= EXACT_COUNT_LIMIT) {
    known?.delete(key);
    return { total, estimated: false };
  }
  const [plan] = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${statement.sql}`, statement.params);
  const estimate = Math.max(EXACT_COUNT_LIMIT + 1, plannedRows(plan?.['QUERY PLAN']));
  if (!known || known.size >= LONG_LISTS_KEPT) longLists.set(db, (known = new Map()));
  known.set(key, { total: estimate, until: Date.now() + LONG_LIST_SECONDS * 1000 });
  return { total: estimate, estimated: true };
}

/** The row estimate of an EXPLAIN (FORMAT JSON) answer (text on some drivers, parsed on others). */
function plannedRows(explained: unknown): number {
  const parsed: unknown = typeof explained === 'string' ? JSON.parse(explained) : explained;
  const first = Array.isArray(parsed) ? (parsed[0] as { Plan?: { 'Plan Rows'?: unknown } } | undefined) : undefined;
  const rows = Number(first?.Plan?.['Plan Rows']);
  return Number.isFinite(rows) ? Math.round(rows) : 0;
}

// ── listings ───────────────────────────────────────────────────────────────────────────────────

/** A list over SQL. */
export interface Listing<Row, Item> {
  /** The FROM with every join the columns need. */
  from: string;
  /**
   * The FROM of the count and of the page's choice of rows, when the WHERE and the sort need fewer
   * joins than the columns: it must contain the tables the WHERE and the whitelisted sorts name.
   * A function gets the SQL it must serve (the WHERE, and the ORDER BY of a page) and answers the
   * joins that SQL names.
   */
  narrowFrom?: string | ((needed: string) => string);
  /** The unique key of a row of the narrow FROM (`d.id`): the page's rows are chosen by it, then joined to `from`. */
  key?: string;
  columns: string;
  /** Sortable fields → SQL expressions. */
  sorts: Readonly<Record<string, string>>;
  /** The order after the chosen sorts; ends with a unique key. */
  fallback: string;
  /** The answer's item of a row; the request's context for what a row alone does not hold (the time now, the caller). */
  record: (row: Row, context: OperationContext<unknown>) => Item;
}

export interface Page<Item> {
  records: Item[];
  total: number;
  pageNumber: number;
  pageSize: number;
  /**
   * Present when the list is longer than EXACT_COUNT_LIMIT: the rows counted (the limit) — the
   * console shows 共 10,000+ 条 —, while `total` is the planner's estimate, for the pager.
   */
  totalAtLeast?: number;
}

/** One page of a listing and its count. */
export async function pageOf<Row, Item>(context: OperationContext<unknown>, listing: Listing<Row, Item>, where: Conditions): Promise<Page<Item>> {
  const { limit, offset, pageNumber, pageSize } = paging(context);
  const count = await countRows(context.db, narrowFromOf(listing, where.sql), where.sql, where.params);
  const rows = count.total > offset || count.estimated ? await runPage<Row>(context, listing, where, limit, offset) : [];
  // An estimate never hides the page the caller stands on (a page past the end leaves it be).
  const total = count.estimated && rows.length > 0 ? Math.max(count.total, offset + rows.length + (rows.length === limit ? 1 : 0)) : count.total;
  return { records: rows.map((row) => listing.record(row, context)), total, pageNumber, pageSize, ...(count.estimated ? { totalAtLeast: EXACT_COUNT_LIMIT } : {}) };
}

/** The rows of a listing for an export (at most `limit`), in the list's order. */
export async function exportOf<Row, Item>(context: OperationContext<unknown>, listing: Listing<Row, Item>, where: Conditions, limit = EXPORT_LIMIT): Promise<Item[]> {
  return (await runPage<Row>(context, listing, where, limit, 0)).map((row) => listing.record(row, context));
}

/** The narrow FROM that serves `needed` (a WHERE, and an ORDER BY). */
function narrowFromOf<Row, Item>(listing: Listing<Row, Item>, needed: string): string {
  const narrow = listing.narrowFrom;
  return narrow === undefined ? listing.from : typeof narrow === 'string' ? narrow : narrow(needed);
}

/**
 * The page's rows. The offset is a parameter, so that every page of a list is one statement (the
 * PostgreSQL adapter prepares a statement once per connection: server/db/postgres.ts); the limit,
 * a page size of a handful of values, stays in the text, where the planner reads it. PostgreSQL
 * keeps a statement's generic plan only where it costs no more than the plans made for the values,
 * and a generic plan priced for an unknown offset rarely does: a deep page is usually planned for
 * its values on each call (the EXPLAIN test checks both kinds of plan). Forcing generic plans was
 * tried and undone: 网关管理's generic plan reads a million devices to find twenty gateways.
 */
async function runPage<Row>(context: OperationContext<unknown>, listing: Listing<Row, unknown>, where: Conditions, limit: number, offset: number): Promise<Row[]> {
  const order = orderBy(context, listing.sorts, listing.fallback);
  const params = [...where.params];
  const skip = bind(params, offset);
  if (!listing.narrowFrom || !listing.key) {
    return run<Row>(context.db, `SELECT ${listing.columns} FROM ${listing.from} WHERE ${where.sql} ORDER BY ${order} LIMIT ${limit} OFFSET ${skip}`, params);
  }
  // The page's keys over the narrow FROM (an index walk in the list's order), then everything
  // else for those rows only; the outer ORDER BY puts them back in the chosen order.
  const sql = `SELECT ${listing.columns} FROM ${listing.from}
           WHERE ${listing.key} IN (SELECT ${listing.key} FROM ${narrowFromOf(listing, `${where.sql} ORDER BY ${order}`)} WHERE ${where.sql} ORDER BY ${order} LIMIT ${limit} OFFSET ${skip})
           ORDER BY ${order}`;
  return run<Row>(context.db, sql, params);
}

/**
 * One page of a list that is not a query (a few hundred rows built in memory: a tree flattened, a
 * file read): the same paging and answer as {@link pageOf}, counted exactly.
 */
export function pageOfItems<Item>(context: OperationContext<unknown>, items: readonly Item[]): Page<Item> {
  const { limit, offset, pageNumber, pageSize } = paging(context);
  return { records: items.slice(offset, offset + limit), total: items.length, pageNumber, pageSize };
}

/** Adds `column BETWEEN start AND end` for a range picker's pair, read on the business zone's clock ("400" for a date that is none). */
export function addTimeRange(clause: Conditions, column: string, range: readonly string[] | undefined, field: string, timeZone: string): void {
  if (!range) return;
  const [start, end] = range.map((value) => parseBusinessTime(value, timeZone));
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) throw fail.badField(field);
  if (start.getTime() > end.getTime()) throw fail.badRequest(`参数错误：${field}（开始时间不能晚于结束时间）`);
  clause.add(`${column} >= $?`, start);
  clause.add(`${column} <= $?`, end);
}
