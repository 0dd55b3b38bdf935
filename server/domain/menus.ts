import type { Queryable } from '../db/database';

/** A button of a menu resource (resourceUrl = the catalogue operation it permits). */
export interface MenuButton {
  resourceCode: string;
  resourceName: string;
  resourceUrl: string;
}

/** A menu resource of `resource/menu/_list` (SPEC §3). */
export interface MenuResource {
  resourceCode: string;
  parentCode: string | null;
  resourceName: string;
  /** The codes from the root down to this entry, joined by "/". */
  resourcePath: string;
  resourceUrl: string;
  resourceIcon: string;
  fileUrl: string;
  menuClassificationCode: string;
  isShown: boolean;
  isCached: boolean;
  buttonList: MenuButton[];
  children: MenuResource[];
}

interface ResourceRow {
  code: string;
  parent_code: string | null;
  kind: 'menu' | 'button';
  name: string;
  url: string;
  view: string;
  icon: string;
  classification: string;
  shown: boolean;
  cached: boolean;
  granted: boolean;
}

/**
 * The menu tree the given roles see, in seed order: the menus they are granted, the ancestors of
 * those, and on each menu only the buttons they hold. A folder left without children is dropped.
 */
export async function menuTreeFor(db: Queryable, roles: readonly string[], clientType = 1): Promise<MenuResource[]> {
  const rows = await db.query<ResourceRow>(
    `SELECT r.code, r.parent_code, r.kind, r.name, r.url, r.view, r.icon, r.classification, r.shown, r.cached,
            EXISTS (SELECT 1 FROM role_resource g WHERE g.resource_code = r.code AND g.role_code = ANY($1::text[])) AS granted
       FROM resource r WHERE r.client_type = $2 ORDER BY r.sort, r.code`,
    [roles, clientType],
  );
  const menus = rows.filter((row) => row.kind === 'menu');
  const childrenOf = new Map<string | null, ResourceRow[]>();
  for (const row of menus) childrenOf.set(row.parent_code, [...(childrenOf.get(row.parent_code) ?? []), row]);
  const buttonsOf = new Map<string, MenuButton[]>();
  for (const row of rows) {
    if (row.kind !== 'button' || !row.granted || !row.parent_code) continue;
    const button = { resourceCode: row.code, resourceName: row.name, resourceUrl: row.url };
    buttonsOf.set(row.parent_code, [...(buttonsOf.get(row.parent_code) ?? []), button]);
  }

  const build = (row: ResourceRow, ancestors: string[]): MenuResource | null => {
    const path = [...ancestors, row.code];
    const children = (childrenOf.get(row.code) ?? []).map((child) => build(child, path)).filter((node) => node !== null);
    const isFolder = (childrenOf.get(row.code) ?? []).length > 0 || !row.url;
    if (children.length === 0 && (!row.granted || isFolder)) return null;
    return {
      resourceCode: row.code,
      parentCode: row.parent_code,
      resourceName: row.name,
      resourcePath: path.join('/'),
      resourceUrl: row.url,
      resourceIcon: row.icon,
      fileUrl: row.view,
      menuClassificationCode: row.classification,
      isShown: row.shown,
      isCached: row.cached,
      buttonList: buttonsOf.get(row.code) ?? [],
      children,
    };
  };
  return (childrenOf.get(null) ?? []).map((row) => build(row, [])).filter((node) => node !== null);
}
