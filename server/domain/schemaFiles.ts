import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `schemas/menus.json` (its own JSON Schema is schemas/menus.schema.json). */
export interface MenuButtonEntry {
  code: string;
  name: string;
  /** The catalogue operation the button permits. */
  url: string;
  roles?: string[];
}

export interface MenuEntry {
  code: string;
  name: string;
  icon?: string;
  /** Only on top-level entries; children inherit it. */
  group?: string;
  /** Omitted = the parent's roles. */
  roles?: string[];
  url?: string;
  view?: string;
  shown?: boolean;
  cached?: boolean;
  buttons?: MenuButtonEntry[];
  children?: MenuEntry[];
}

/** `schemas/dictionaries.json`. */
export interface DictionaryEntry {
  dictType: string;
  dictName: string;
  /** An item's colour is named by what it means (schemas/dictionaries.schema.json). */
  items: Array<{ value: string; label: string; color?: DictionaryColour }>;
}

/** The colours a dictionary item may carry, by meaning. */
export type DictionaryColour = 'success' | 'processing' | 'warning' | 'error' | 'default';

function readSchemaFile<T>(name: string): T {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../../schemas/${name}`, import.meta.url)), 'utf8')) as T;
}

export const readMenus = () => readSchemaFile<{ menus: MenuEntry[] }>('menus.json').menus;
export const readDictionaries = () => readSchemaFile<{ dictionaries: DictionaryEntry[] }>('dictionaries.json').dictionaries;
