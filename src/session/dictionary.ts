import type { Dictionary } from './types';

/** SPEC §5: a value the dictionary does not know shows 未知. */
export const UNKNOWN_LABEL = '未知';

export function dictionaryLabel(dictionaries: Readonly<Record<string, Dictionary>>, dictType: string, value: unknown): string {
  const wanted = value === null || value === undefined ? '' : String(value);
  const item = dictionaries[dictType]?.children.find((entry) => String(entry.dictValue) === wanted);
  return item?.dictLabel ?? UNKNOWN_LABEL;
}

/** The colour a dictionary item carries by what it means; `default` for an item without one or a value it does not know. */
export function dictionaryColour(dictionaries: Readonly<Record<string, Dictionary>>, dictType: string, value: unknown): NonNullable<Dictionary['children'][number]['dictColor']> {
  const wanted = value === null || value === undefined ? '' : String(value);
  return dictionaries[dictType]?.children.find((entry) => String(entry.dictValue) === wanted)?.dictColor ?? 'default';
}
