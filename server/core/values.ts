import { readDictionaries } from '../domain/schemaFiles';

/** How an answer writes a value (issue 32): one definition for every area. */

/** A time as ISO 8601 text (a driver's Date, or a time already text), null for none. */
export const isoOrNull = (value: Date | string | null | undefined): string | null => (value === null || value === undefined ? null : new Date(value).toISOString());
/** A time as ISO 8601 text, the empty string for none (the fields the console shows blank). */
export const isoOrEmpty = (value: Date | null): string => (value ? value.toISOString() : '');

const DICTIONARIES = new Map(readDictionaries().map((entry) => [entry.dictType, new Map(entry.items.map((item) => [item.value, item.label]))]));
/** The label of a shipped dictionary value (exports); 未知 as the console shows an unknown one. */
export function dictLabel(dictType: string, value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  return DICTIONARIES.get(dictType)?.get(value) ?? '未知';
}
