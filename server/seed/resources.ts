import type { Row } from '../db/bulk';
import type { MenuEntry } from '../domain/schemaFiles';

export interface ResourceTables {
  resources: Row[];
  grants: Row[];
}

/**
 * Menu and button resources from the seed menu tree, in its order, and the role grants: roles
 * inherit from the parent when omitted, buttons inherit their menu's roles.
 */
export function resourceTables(menus: readonly MenuEntry[]): ResourceTables {
  const resources: Row[] = [];
  const grants: Row[] = [];
  const grant = (code: string, roles: readonly string[]) => roles.forEach((role) => grants.push({ role_code: role, resource_code: code }));

  const walk = (entry: MenuEntry, parentCode: string | null, group: string, inheritedRoles: readonly string[]) => {
    const roles = entry.roles ?? inheritedRoles;
    resources.push({
      code: entry.code,
      parent_code: parentCode,
      kind: 'menu',
      name: entry.name,
      url: entry.url ?? '',
      view: entry.view ?? '',
      icon: entry.icon ?? '',
      classification: group,
      shown: entry.shown ?? true,
      cached: entry.cached ?? false,
      client_type: 1,
      sort: resources.length + 1,
    });
    grant(entry.code, roles);
    for (const button of entry.buttons ?? []) {
      resources.push({
        code: button.code,
        parent_code: entry.code,
        kind: 'button',
        name: button.name,
        url: button.url,
        view: '',
        icon: '',
        classification: group,
        shown: true,
        cached: false,
        client_type: 1,
        sort: resources.length + 1,
      });
      grant(button.code, button.roles ?? roles);
    }
    entry.children?.forEach((child) => walk(child, entry.code, group, roles));
  };
  menus.forEach((entry) => walk(entry, null, entry.group ?? '', entry.roles ?? []));
  return { resources, grants };
}
