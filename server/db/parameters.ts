import type { SqlParam } from './database';

/**
 * How a statement refers to a value (issue 32): `bind` appends it to the statement's parameters and
 * answers its placeholder (`$3`). It is the one place a parameter is numbered; every statement
 * built from parts (core/listQuery.ts's Conditions, the scopes, the entity engine's writes) numbers
 * through it, so no caller counts `params.length` by hand.
 */
export function bind(params: SqlParam[], value: SqlParam): string {
  params.push(value);
  return `$${params.length}`;
}

/** The placeholders of `values`, appended in order, joined for a VALUES list or a column list (`$2, $3`). */
export function bindAll(params: SqlParam[], values: readonly SqlParam[]): string[] {
  return values.map((value) => bind(params, value));
}
