// Shared by catalogue.test.ts, menus.test.ts and dictionaries.test.ts: the data files under
// schemas/ and what the tests derive from them. The data contracts under schemas/: the operation catalogue, the seed menu tree and the seed
// dictionaries. Each file against its JSON Schema, then what a JSON Schema cannot say: the
// catalogue covers every call of SPEC §7 in SPEC's spellings, menu buttons name button-gated
// operations (and every button-gated operation has a button), the menu covers every view area and
// embedded route of SPEC §2, roles narrow down the tree, and dictionaries are unambiguous.
import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';

export const root = new URL('../..', import.meta.url).pathname;

export function readJson(file: string): unknown {
  return JSON.parse(readFileSync(`${root}${file}`, 'utf8')) as unknown;
}

export type Role =
  | 'TENANT_ADMIN'
  | 'ROLE_TENANT_ORDINARY'
  | 'ROLE_TENANT_REPAIR'
  | 'ROLE_TENANT_PATROL'
  | 'ROLE_REPAIR_IMPLEMENT'
  | 'PLATFORM_ADMIN'
  | 'PLATFORM_OPERATOR';

export interface Operation {
  path: string;
  kind: 'call' | 'page' | 'blob' | 'upload' | 'get';
  title: string;
  access?: 'public' | 'token' | 'dev';
  param?: 'string';
  button?: boolean;
}

export interface MenuButton {
  code: string;
  name: string;
  url: string;
  roles?: Role[];
}

export interface MenuEntry {
  code: string;
  name: string;
  icon?: string;
  group?: string;
  roles?: Role[];
  url?: string;
  view?: string;
  shown?: boolean;
  cached?: boolean;
  buttons?: MenuButton[];
  children?: MenuEntry[];
}

export interface Dictionary {
  dictType: string;
  dictName: string;
  items: Array<{ value: string; label: string }>;
}

export const operations = readJson('schemas/operations.json') as Record<string, Operation>;
export const menus = (readJson('schemas/menus.json') as { menus: MenuEntry[] }).menus;
export const dictionaries = (readJson('schemas/dictionaries.json') as { dictionaries: Dictionary[] }).dictionaries;

export const ROLES: Role[] = ['TENANT_ADMIN', 'ROLE_TENANT_ORDINARY', 'ROLE_TENANT_REPAIR', 'ROLE_TENANT_PATROL', 'ROLE_REPAIR_IMPLEMENT', 'PLATFORM_ADMIN', 'PLATFORM_OPERATOR'];
export const GROUPS = ['internet', 'project', 'platform', 'system', 'basics', 'mall'];

/** A menu entry with what it inherits resolved: its group, its roles and its parent. */
export interface ResolvedEntry {
  entry: MenuEntry;
  group: string;
  roles: Role[];
  parent: ResolvedEntry | null;
  pointer: string;
}

export function resolveMenus(entries: MenuEntry[]): ResolvedEntry[] {
  const out: ResolvedEntry[] = [];
  const walk = (list: MenuEntry[], parent: ResolvedEntry | null, pointer: string) =>
    list.forEach((entry, index) => {
      const resolved: ResolvedEntry = {
        entry,
        group: parent?.group ?? entry.group ?? '',
        roles: entry.roles ?? parent?.roles ?? [],
        parent,
        pointer: `${pointer}/${index}`,
      };
      out.push(resolved);
      walk(entry.children ?? [], resolved, `${resolved.pointer}/children`);
    });
  walk(entries, null, '/menus');
  return out;
}

export const resolved = resolveMenus(menus);
export const leaves = resolved.filter((r) => r.entry.url !== undefined);
export const buttons = resolved.flatMap((r) => (r.entry.buttons ?? []).map((button) => ({ button, menu: r, roles: button.roles ?? r.roles })));
export const byUrl = new Map(leaves.map((r) => [r.entry.url, r]));

export function validator(schemaFile: string) {
  // strict: the schemas themselves must be free of unknown keywords and loose types.
  return new Ajv2020({ allErrors: true, strict: true, strictRequired: false }).compile(readJson(schemaFile) as object);
}

export function errorsOf(schemaFile: string, value: unknown): string[] {
  const validate = validator(schemaFile);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

export const clone = <T>(value: T): T => structuredClone(value);
