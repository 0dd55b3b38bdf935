import { menuTreeFor, type MenuResource } from '../domain/menus';
import { filterWithAncestors, organizationsWithin, organizationTree, type OrganizationNode } from '../domain/organizations';
import { callerOf } from '../core/context';
import { defineOperation } from '../core/operation';
import { objectOf, schemaOf, text } from '../core/params';
import { readDictionaries, type DictionaryColour } from '../domain/schemaFiles';

export const menuList = defineOperation('resource.menu.list', {
  paramSchema: objectOf({ clientType: schemaOf<number>({ type: 'integer', minimum: 1, maximum: 9 }) }),
  async handler(context): Promise<MenuResource[]> {
    return menuTreeFor(context.db, callerOf(context).roles, context.param.clientType ?? 1);
  },
});

export interface DictionaryTree {
  dictType: string;
  dictName: string;
  children: Array<{ dictValue: string; dictLabel: string; dictColor?: DictionaryColour }>;
}

/** The colour each shipped item carries (schemas/dictionaries.json), by type and value: a state keeps it when relabelled. */
const SHIPPED_COLOURS = new Map(readDictionaries().flatMap((dictionary) => dictionary.items.flatMap((item) => (item.color ? [[`${dictionary.dictType}\u0000${item.value}`, item.color] as const] : []))));

export const dictTree = defineOperation('dict.tree', {
  paramSchema: objectOf({ dictTypeList: schemaOf<string[]>({ type: 'array', maxItems: 200, items: text(64, 1) }) }),
  async handler({ db, param }): Promise<DictionaryTree[]> {
    const wanted = param.dictTypeList && param.dictTypeList.length > 0 ? param.dictTypeList : null;
    const rows = await db.query<{ type: string; name: string; value: string | null; label: string | null }>(
      `SELECT t.type, t.name, i.value, i.label
         FROM dict_type t LEFT JOIN dict_item i ON i.type = t.type
        WHERE $1::text[] IS NULL OR t.type = ANY($1::text[])
        ORDER BY t.sort, t.type, i.sort, i.value`,
      [wanted],
    );
    const byType = new Map<string, DictionaryTree>();
    for (const row of rows) {
      let entry = byType.get(row.type);
      if (!entry) byType.set(row.type, (entry = { dictType: row.type, dictName: row.name, children: [] }));
      if (row.value === null || row.label === null) continue;
      const colour = SHIPPED_COLOURS.get(`${row.type}\u0000${row.value}`);
      entry.children.push(colour ? { dictValue: row.value, dictLabel: row.label, dictColor: colour } : { dictValue: row.value, dictLabel: row.label });
    }
    return [...byType.values()];
  },
});

/** The caller's organisations and their descendants as a tree (type 5 included: the console filters it). */
export const organizationTreeList = defineOperation('organization.tree', {
  paramSchema: objectOf({ keyword: text(64) }),
  async handler(context): Promise<OrganizationNode[]> {
    const rows = await organizationsWithin(context.db, callerOf(context).organizationCodes);
    return organizationTree(filterWithAncestors(rows, context.param.keyword ?? ''));
  },
});

export const NAVIGATION_OPERATIONS = [menuList, dictTree, organizationTreeList];
