import { schemaOf } from '../../core/params';

/** A positive record id. */
export const recordId = schemaOf<number>({ type: 'integer', minimum: 1, maximum: 2_147_483_647 });

/** An amount of money or stock, bounded (stored rounded to two decimals, see `cents`). */
export const quantity = (maximum: number, positive = false) =>
  schemaOf<number>(positive ? { type: 'number', exclusiveMinimum: 0, maximum } : { type: 'number', minimum: 0, maximum });

/** A quantity rounded to the two decimals a numeric(12, 2) column keeps. */
export const cents = (value: number): number => Math.round(value * 100) / 100;

/** numeric columns come back from PostgreSQL as strings. */
export const numberOrNull = (value: string | number | null): number | null => (value === null ? null : Number(value));
