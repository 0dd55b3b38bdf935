/** How an answer writes a value (issue 32): one definition for every area. */

/** A time as ISO 8601 text (a driver's Date, or a time already text), null for none. */
export const isoOrNull = (value: Date | string | null | undefined): string | null => (value === null || value === undefined ? null : new Date(value).toISOString());
