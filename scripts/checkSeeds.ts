// `npm run check`: seeded values meet their dictionaries (issue 33). A field of an entity
// (schemas/entities) that names a dictType takes only that dictionary's values, in the entity's own
// seed rows and in the rows the reference server seeds into the entity's table (server/seed). A
// value outside it would show as 未知 in every list and detail that reads it.
import { join, relative, sep } from 'node:path';
import { readEntities, snakeCase } from '../server/entities/definition';
import type { Problem } from './check';
import { readJsonFile } from './checkFiles';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

export interface DictionaryValues {
  name: string;
  values: string[];
}

/** The dictionaries of schemas/dictionaries.json under `root`: type → name and values (none when it is broken). */
export function dictionaryValues(root: string): Map<string, DictionaryValues> {
  const read = readJsonFile(root, 'schemas/dictionaries.json');
  const list = read.ok && isObject(read.value) && Array.isArray(read.value.dictionaries) ? (read.value.dictionaries as unknown[]) : [];
  return new Map(
    list.filter(isObject).map((entry) => [
      String(entry.dictType),
      { name: String(entry.dictName ?? entry.dictType), values: (Array.isArray(entry.items) ? entry.items : []).filter(isObject).map((item) => String(item.value)) },
    ]),
  );
}

const allowed = (values: readonly string[]) => (values.length > 20 ? `${values.slice(0, 20).join('、')} 等 ${values.length} 个` : values.join('、'));

/** Why `value` is no value of the dictionary, or null (nothing and an empty text are no value). */
export function dictionaryMiss(value: unknown, dictType: string, dictionaries: ReadonlyMap<string, DictionaryValues>): string | null {
  const dictionary = dictionaries.get(dictType);
  if (!dictionary || value === null || value === undefined || value === '') return null;
  if (dictionary.values.includes(String(value))) return null;
  return `${JSON.stringify(value)} 不在字典 ${dictType}（${dictionary.name}）中（可用：${allowed(dictionary.values)}）`;
}

/** The dict-typed fields of an entity file: field name → dictType. */
function dictFields(entity: Json): Array<[string, string]> {
  const fields = isObject(entity.fields) ? entity.fields : {};
  return Object.entries(fields).flatMap(([name, field]): Array<[string, string]> => (isObject(field) && typeof field.dictType === 'string' ? [[name, field.dictType]] : []));
}

/** An entity file's own seed rows against the dictionaries of its fields. */
export function seedDictionaryProblems(file: string, entity: Json, dictionaries: ReadonlyMap<string, DictionaryValues>): Problem[] {
  const fields = dictFields(entity);
  return (Array.isArray(entity.seed) ? entity.seed : []).flatMap((row: unknown, index: number) =>
    isObject(row)
      ? fields.flatMap(([name, dictType]) => {
          const miss = dictionaryMiss(row[name], dictType, dictionaries);
          return miss ? [{ file, pointer: `/seed/${index}/${name}`, message: `演示数据的 ${name} ${miss}` }] : [];
        })
      : [],
  );
}

export interface SeedTable {
  table: string;
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>;
}

/**
 * The rows a seed writes into the tables of the entities, against the dictionaries of their
 * fields: one problem per table and column, naming the first rows and every value outside.
 */
export function seededTableProblems(entities: ReadonlyArray<{ file: string; entity: Json }>, tables: readonly SeedTable[], dictionaries: ReadonlyMap<string, DictionaryValues>): Problem[] {
  const problems: Problem[] = [];
  for (const { file, entity } of entities) {
    if (typeof entity.table !== 'string') continue;
    const rows = tables.filter((t) => t.table === entity.table).flatMap((t) => t.rows);
    const fields = isObject(entity.fields) ? entity.fields : {};
    for (const [name, dictType] of dictFields(entity)) {
      const field = fields[name] as Json;
      const column = typeof field.column === 'string' ? field.column : snakeCase(name);
      const misses = rows.map((row, index) => ({ index, value: row[column] })).filter(({ value }) => dictionaryMiss(value, dictType, dictionaries));
      if (!misses.length) continue;
      const values = [...new Set(misses.map(({ value }) => JSON.stringify(value)))].join('、');
      problems.push({
        file,
        pointer: `/fields/${name}/dictType`,
        message: `参考服务端的演示数据（server/seed）在表 ${entity.table} 的 ${column} 列写了 ${misses.length} 行字典外的值 ${values}（第 ${misses
          .slice(0, 3)
          .map(({ index }) => index + 1)
          .join('、')} 行…）：${dictionaryMiss(misses[0].value, dictType, dictionaries)}`,
      });
    }
  }
  return problems;
}

/** The reference server's seed (server/seed/seed.ts, built without a database) against the entities' dictionaries. */
export async function checkServerSeeds(root: string): Promise<Problem[]> {
  const { buildSeed } = await import('../server/seed/seed');
  const tables = await buildSeed();
  const dir = join(root, 'schemas/entities');
  const entities = readEntities(dir, join(root, 'schemas/entity.schema.json'), join(root, 'schemas/dictionaries.json')).entities.flatMap((loaded) => {
    const file = relative(root, join(dir, `${loaded.ref}.json`)).split(sep).join('/');
    const read = readJsonFile(root, file);
    return read.ok && isObject(read.value) ? [{ file, entity: read.value }] : [];
  });
  return seededTableProblems(entities, tables as readonly SeedTable[], dictionaryValues(root));
}
