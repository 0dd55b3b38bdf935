import type { Queryable } from '../../db/database';
import { fail } from '../../http/envelope';
import { readDictionaries } from '../../domain/schemaFiles';
import type { OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, plainText, schemaOf, sortOrder, text } from '../../core/params';
import { Conditions } from '../../core/listQuery';
import { column, contains, equals, listing, timeColumn, type ItemOf } from '../../core/listing';
import { requirePlatformStaff } from '../../core/access';

/**
 * Dictionaries and their items (served to the console by dict.tree at once), for platform staff.
 * The dictionaries shipped in schemas/dictionaries.json are built in: the console relies on them,
 * so they and their shipped items can be relabelled but not deleted. Names and labels are plain
 * text: '<' and '>' are refused, so no markup is ever stored.
 */

const SHIPPED = readDictionaries();
const BUILT_IN_TYPES = new Set(SHIPPED.map((dictionary) => dictionary.dictType));
const BUILT_IN_ITEMS = new Set(SHIPPED.flatMap((dictionary) => dictionary.items.map((item) => `${dictionary.dictType}\u0000${item.value}`)));

const TYPE_PATTERN = '^[a-z][a-z0-9_]*$';
const typeSchema = schemaOf<string>({ type: 'string', minLength: 2, maxLength: 64, pattern: TYPE_PATTERN });
const valueSchema = schemaOf<string>({ type: 'string', minLength: 1, maxLength: 64, pattern: '^[^<>\\s]+$' });

/** The dictionaries, in their order (platform staff only). */
const TYPES = listing({
  from: 'dict_type t',
  scope: (_where, context) => requirePlatformStaff(context),
  filters: { keyword: contains(['t.type', 't.name'], text(64)) },
  columns: {
    dictType: column<string>('t.type'),
    dictName: column<string>('t.name'),
    itemCount: column<number>('(SELECT count(*)::int FROM dict_item i WHERE i.type = t.type)'),
    builtIn: column('t.type', (type: string) => BUILT_IN_TYPES.has(type)),
    sort: column<number>('t.sort'),
    createTime: timeColumn('t.created_at'),
  },
  sorts: ['dictType', 'dictName', 'sort', 'createTime'],
  fallback: 't.sort, t.type',
});

/** The items of one dictionary ("404" 字典不存在 for none), in their order. */
const ITEMS = listing({
  from: 'dict_item i',
  scope: async (_where, context) => {
    requirePlatformStaff(context);
    await findType(context, context.param.dictType);
  },
  filters: {
    dictType: equals('i.type', text(64, 1)),
    keyword: contains(['i.value', 'i.label'], text(64)),
  },
  required: ['dictType'],
  columns: {
    dictType: column<string>('i.type'),
    dictValue: column<string>('i.value'),
    dictLabel: column<string>('i.label'),
    builtIn: column('json_build_array(i.type, i.value)', ([type, value]: [string, string]) => BUILT_IN_ITEMS.has(`${type}\u0000${value}`)),
    sort: column<number>('i.sort'),
    createTime: timeColumn('i.created_at'),
  },
  sorts: ['dictValue', 'dictLabel', 'sort', 'createTime'],
  fallback: 'i.sort, i.value',
});

type TypeRecord = ItemOf<typeof TYPES>;
type ItemRecord = ItemOf<typeof ITEMS>;

async function findType(context: OperationContext<unknown>, type: string, db: Queryable = context.db): Promise<TypeRecord> {
  const found = await TYPES.find(context, new Conditions().add('t.type = $?', type), '', db);
  if (!found) throw fail.notFound('字典不存在');
  return found;
}

async function findItem(context: OperationContext<unknown>, type: string, value: string, db: Queryable = context.db): Promise<ItemRecord> {
  await findType(context, type, db);
  const found = await ITEMS.find(context, new Conditions().add('i.type = $?', type).add('i.value = $?', value), '', db);
  if (!found) throw fail.notFound('字典项不存在');
  return found;
}

async function checkLabelFree(db: Queryable, type: string, label: string, exceptValue: string | null): Promise<void> {
  const [clash] = await db.query('SELECT 1 FROM dict_item WHERE type = $1 AND label = $2 AND value <> $3', [type, label, exceptValue ?? '']);
  if (clash) throw fail.conflict('该字典下已有相同标签的字典项');
}

const dictFields = objectOf({ dictType: typeSchema, dictName: plainText(32), sort: sortOrder }, ['dictType', 'dictName']);

const itemFields = objectOf({ dictValue: valueSchema, dictLabel: plainText(64), sort: sortOrder }, ['dictValue', 'dictLabel']);
const typeParam = objectOf({ dictType: text(64, 1) }, ['dictType']);
const itemKey = { dictType: text(64, 1), dictValue: text(64, 1) };

export const dictionaryOperations = [
  defineOperation('dict.page', {
    paramSchema: TYPES.paramSchema,
    handler: (context) => TYPES.page(context),
  }),

  defineOperation('dict.detail', {
    paramSchema: typeParam,
    handler: async (context) => {
      requirePlatformStaff(context);
      return findType(context, context.param.dictType);
    },
  }),

  defineOperation('dict.insert', {
    paramSchema: objectOf({ dict: dictFields }, ['dict']),
    handler: async (context) => {
      requirePlatformStaff(context);
      const { dictType, dictName, sort } = context.param.dict;
      const [taken] = await context.db.query('SELECT 1 FROM dict_type WHERE type = $1', [dictType]);
      if (taken) throw fail.conflict('字典类型已存在');
      // One added meanwhile breaks the key: "409" 字典类型已存在 (http/constraints.ts).
      await context.db.query(
        'INSERT INTO dict_type (type, name, sort, created_at) VALUES ($1, $2, COALESCE($3, (SELECT COALESCE(max(sort), 0) + 1 FROM dict_type)), $4)',
        [dictType, dictName, sort ?? null, context.now],
      );
      return { dictType };
    },
  }),

  defineOperation('dict.modify', {
    paramSchema: objectOf({ dictType: text(64, 1), dict: dictFields }, ['dictType', 'dict']),
    handler: async (context) => {
      requirePlatformStaff(context);
      const { dictType, dict } = context.param;
      if (dict.dictType !== dictType) throw fail.badRequest('参数错误：dictType（字典类型不能修改）');
      const updated = await context.db.query('UPDATE dict_type SET name = $2, sort = COALESCE($3, sort) WHERE type = $1 RETURNING type', [dictType, dict.dictName, dict.sort ?? null]);
      if (updated.length === 0) throw fail.notFound('字典不存在');
      return null;
    },
  }),

  defineOperation('dict.delete', {
    paramSchema: typeParam,
    handler: async (context) => {
      requirePlatformStaff(context);
      const found = await findType(context, context.param.dictType);
      if (found.builtIn) throw fail.conflict('系统内置字典不能删除');
      // Deleted once: a second deletion sent at once finds it gone ("404"), as a later one does.
      const deleted = await context.db.query('DELETE FROM dict_type WHERE type = $1 RETURNING type', [found.dictType]);
      if (deleted.length === 0) throw fail.notFound('字典不存在');
      return null;
    },
  }),

  defineOperation('dict.item.page', {
    paramSchema: ITEMS.paramSchema,
    handler: (context) => ITEMS.page(context),
  }),

  defineOperation('dict.item.detail', {
    paramSchema: objectOf(itemKey, ['dictType', 'dictValue']),
    handler: async (context) => {
      requirePlatformStaff(context);
      return findItem(context, context.param.dictType, context.param.dictValue);
    },
  }),

  defineOperation('dict.item.insert', {
    paramSchema: objectOf({ dictType: text(64, 1), item: itemFields }, ['dictType', 'item']),
    handler: async (context) => {
      requirePlatformStaff(context);
      const { dictType, item } = context.param;
      await context.db.transaction(async (tx) => {
        await findType(context, dictType, tx);
        const [taken] = await tx.query('SELECT 1 FROM dict_item WHERE type = $1 AND value = $2', [dictType, item.dictValue]);
        if (taken) throw fail.conflict('该字典下已有相同值的字典项');
        await checkLabelFree(tx, dictType, item.dictLabel, null);
        await tx.query(
          `INSERT INTO dict_item (type, value, label, sort, created_at)
           VALUES ($1, $2, $3, COALESCE($4, (SELECT COALESCE(max(sort), 0) + 1 FROM dict_item WHERE type = $1)), $5)`,
          [dictType, item.dictValue, item.dictLabel, item.sort ?? null, context.now],
        );
      });
      return { dictType, dictValue: item.dictValue };
    },
  }),

  defineOperation('dict.item.modify', {
    paramSchema: objectOf({ ...itemKey, item: itemFields }, ['dictType', 'dictValue', 'item']),
    handler: async (context) => {
      requirePlatformStaff(context);
      const { dictType, dictValue, item } = context.param;
      if (item.dictValue !== dictValue) throw fail.badRequest('参数错误：dictValue（字典值不能修改）');
      await context.db.transaction(async (tx) => {
        await findItem(context, dictType, dictValue, tx);
        await checkLabelFree(tx, dictType, item.dictLabel, dictValue);
        await tx.query('UPDATE dict_item SET label = $3, sort = COALESCE($4, sort) WHERE type = $1 AND value = $2', [dictType, dictValue, item.dictLabel, item.sort ?? null]);
      });
      return null;
    },
  }),

  defineOperation('dict.item.delete', {
    paramSchema: objectOf(itemKey, ['dictType', 'dictValue']),
    handler: async (context) => {
      requirePlatformStaff(context);
      const found = await findItem(context, context.param.dictType, context.param.dictValue);
      if (found.builtIn) throw fail.conflict('系统内置字典项不能删除');
      const deleted = await context.db.query('DELETE FROM dict_item WHERE type = $1 AND value = $2 RETURNING value', [found.dictType, found.dictValue]);
      if (deleted.length === 0) throw fail.notFound('字典项不存在');
      return null;
    },
  }),
];
