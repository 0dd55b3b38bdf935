import type { Queryable } from '../db/database';
import { insertRows, type Row } from '../db/bulk';
import { resourceTables } from './resources';
import { readDictionaries, readMenus } from '../domain/schemaFiles';

/**
 * Menus, buttons, their role grants and dictionaries reach an existing database on start (issue
 * 25): what schemas/menus.json and schemas/dictionaries.json hold and the database lacks is added,
 * so a new screen appears on a data folder seeded by an older build, not only on an empty one.
 *
 * Each entry is delivered once. `catalogue_delivery` (migration 098) remembers every menu,
 * button, grant, dictionary and dictionary item the database has had, whether from the seed or
 * from here; an entry staff deleted since (菜单管理, 权限设置, 字典管理) is therefore not brought back,
 * and nothing present is changed (a renamed menu or a relabelled item stays as staff left it).
 * A grant comes with a new menu or button, or when menus.json gives an existing one to a role
 * that never had it. Run under the migration lock, after the migrations and the seed.
 */

export interface CatalogueChanges {
  menus: string[];
  buttons: string[];
  grants: string[];
  dictionaries: string[];
  dictionaryItems: string[];
}

type DeliveryKind = 'resource' | 'grant' | 'dict_type' | 'dict_item';

interface Entry {
  kind: DeliveryKind;
  key: string;
  row: Row;
}

const grantKey = (role: string, resource: string) => `${role} ${resource}`;
const itemKey = (type: string, value: string) => `${type} ${value}`;

/** What the schema files say the catalogue holds, in an order that inserts parents first. */
function expectedEntries(): Entry[] {
  const { resources, grants } = resourceTables(readMenus());
  const dictionaries = readDictionaries();
  return [
    ...resources.map((row): Entry => ({ kind: 'resource', key: String(row.code), row })),
    ...grants.map((row): Entry => ({ kind: 'grant', key: grantKey(String(row.role_code), String(row.resource_code)), row })),
    ...dictionaries.map((d, index): Entry => ({ kind: 'dict_type', key: d.dictType, row: { type: d.dictType, name: d.dictName, sort: index + 1 } })),
    ...dictionaries.flatMap((d) =>
      d.items.map((item, index): Entry => ({ kind: 'dict_item', key: itemKey(d.dictType, item.value), row: { type: d.dictType, value: item.value, label: item.label, sort: index + 1 } })),
    ),
  ];
}

async function presentKeys(db: Queryable): Promise<Record<DeliveryKind, Set<string>>> {
  // One after another: `db` is a transaction's one connection (pg 9 refuses overlapping queries on it).
  const resources = await db.query<{ key: string }>('SELECT code AS key FROM resource');
  const grants = await db.query<{ key: string }>(`SELECT role_code || ' ' || resource_code AS key FROM role_resource`);
  const types = await db.query<{ key: string }>('SELECT type AS key FROM dict_type');
  const items = await db.query<{ key: string }>(`SELECT type || ' ' || value AS key FROM dict_item`);
  const keys = (rows: Array<{ key: string }>) => new Set(rows.map((row) => row.key));
  return { resource: keys(resources), grant: keys(grants), dict_type: keys(types), dict_item: keys(items) };
}

/** Adds what the schema files hold and the database never had; answers what was added. */
export async function syncCatalogue(db: Queryable): Promise<CatalogueChanges> {
  const expected = expectedEntries();
  const delivered = new Set(
    (await db.query<{ kind: string; key: string }>('SELECT kind, key FROM catalogue_delivery')).map((row) => `${row.kind}:${row.key}`),
  );
  const present = await presentKeys(db);
  const roles = new Set((await db.query<{ code: string }>('SELECT code FROM role')).map((row) => row.code));
  const fresh = expected.filter((entry) => !delivered.has(`${entry.kind}:${entry.key}`));
  const missing = fresh.filter((entry) => !present[entry.kind].has(entry.key));
  // A new grant needs its resource (present, or added now) and its role; a new item its dictionary.
  const resourceAfter = new Set([...present.resource, ...missing.filter((e) => e.kind === 'resource').map((e) => e.key)]);
  const typeAfter = new Set([...present.dict_type, ...missing.filter((e) => e.kind === 'dict_type').map((e) => e.key)]);
  const added = missing.filter((entry) => {
    if (entry.kind === 'grant') return roles.has(String(entry.row.role_code)) && resourceAfter.has(String(entry.row.resource_code));
    if (entry.kind === 'dict_item') return typeAfter.has(String(entry.row.type));
    return true;
  });
  const rowsOf = (kind: DeliveryKind) => added.filter((entry) => entry.kind === kind).map((entry) => entry.row);
  await insertRows(db, 'resource', rowsOf('resource'));
  await insertRows(db, 'role_resource', rowsOf('grant'));
  await insertRows(db, 'dict_type', rowsOf('dict_type'));
  await insertRows(db, 'dict_item', rowsOf('dict_item'));
  // Everything the database now has from the files counts as delivered (added now, or there already).
  const recorded = fresh.filter((entry) => added.includes(entry) || present[entry.kind].has(entry.key));
  await insertRows(
    db,
    'catalogue_delivery',
    recorded.map((entry) => ({ kind: entry.kind, key: entry.key })),
  );
  const resourceRows = rowsOf('resource');
  return {
    menus: resourceRows.filter((row) => row.kind === 'menu').map((row) => String(row.code)),
    buttons: resourceRows.filter((row) => row.kind === 'button').map((row) => String(row.code)),
    grants: added.filter((entry) => entry.kind === 'grant').map((entry) => entry.key),
    dictionaries: added.filter((entry) => entry.kind === 'dict_type').map((entry) => entry.key),
    dictionaryItems: added.filter((entry) => entry.kind === 'dict_item').map((entry) => entry.key),
  };
}

/** The start-up log line for what a sync added, or null when it added nothing. */
export function catalogueChangesLine(changes: CatalogueChanges): string | null {
  const parts = [
    [changes.menus.length, '个菜单'],
    [changes.buttons.length, '个按钮'],
    [changes.grants.length, '项角色授权'],
    [changes.dictionaries.length, '个字典'],
    [changes.dictionaryItems.length, '个字典项'],
  ]
    .filter(([count]) => Number(count) > 0)
    .map(([count, what]) => `${count} ${what}`);
  if (parts.length === 0) return null;
  const named = [...changes.menus, ...changes.buttons].slice(0, 10);
  return `菜单与字典同步：新增 ${parts.join('、')}${named.length ? `（${named.join('、')}${changes.menus.length + changes.buttons.length > named.length ? ' 等' : ''}）` : ''}`;
}
