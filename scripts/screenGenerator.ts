// What `npm run new:screen` writes (issue 25), as data: a screen description (the command line or
// a `--from` file) → the entity definition, the list, form and detail page schemas, the catalogue
// entries, the menu entries with their buttons and the dictionaries. scripts/new-screen.ts checks
// and writes them; the server serves the operations from the entity (schemas/entities/FORMAT.md).
import type { EntityDefinition, EntityField, EntityFieldType } from '../renderers/schema/entity';
import type { MenuButtonEntry, MenuEntry } from '../server/domain/schemaFiles';

export const PLATFORM_ROLES = ['PLATFORM_ADMIN', 'PLATFORM_OPERATOR'] as const;
export const ROLES = ['TENANT_ADMIN', 'ROLE_TENANT_ORDINARY', 'ROLE_TENANT_REPAIR', 'ROLE_TENANT_PATROL', 'ROLE_REPAIR_IMPLEMENT', ...PLATFORM_ROLES] as const;
export const MENU_GROUPS = ['internet', 'project', 'platform', 'system', 'basics', 'mall'] as const;
export const FIELD_TYPES = ['text', 'code', 'phone', 'mail', 'number', 'integer', 'date', 'datetime', 'boolean', 'textarea', 'dict(<字典类型>)'] as const;

/** A screen description: what the command line says, or a `--from` file (the same keys). */
export interface ScreenDescription {
  /** `<area>/<entity>`: schemas/entities/<area>/<entity>.json, pages under schemas/pages/<area>/. */
  entity: string;
  /** The menu and list title: 供应商管理. */
  title: string;
  /** The record's noun in titles and messages (新增供应商, 供应商不存在); default: the title without 管理. */
  noun?: string;
  /** `name[:type][!][=标题]`, comma-separated or one per item; or name → shorthand or a full entity field. */
  fields: string | string[] | Record<string, string | EntityField>;
  /** Dictionaries to add: type → `value:标签,…` (or `{ name, items }`). */
  dicts?: Record<string, string | { name?: string; items: string }>;
  /** Roles that see the menu; default platform staff. */
  roles?: string[];
  /** Roles that hold 新增/编辑/删除; default the roles. */
  writeRoles?: string[];
  /** The top-level menu group (dictionary menu_classification); default platform. */
  group?: string;
  /** Code of an existing menu folder to put the entries in; default a top-level entry. */
  parent?: string;
  /** Route of the list; default /<area>/<entity in kebab case>. */
  url?: string;
  icon?: string;
  /** tenant | organization | platform; default platform when only platform staff see it, else tenant. */
  scope?: 'tenant' | 'organization' | 'platform';
  /** Demo rows: a count (made up from the field types) or the rows; default 3. */
  seed?: number | Array<Record<string, unknown>>;
}

export interface Dictionary {
  dictType: string;
  dictName: string;
  items: Array<{ value: string; label: string }>;
}

export type MenuButton = MenuButtonEntry;
export type { MenuEntry };

export interface OperationEntry {
  path: string;
  kind: 'page' | 'call' | 'blob';
  title: string;
  button?: true;
}

export interface ScreenFiles {
  entityRef: string;
  entity: EntityDefinition;
  /** View → page schema (list, form, detail). */
  pages: Record<string, Record<string, unknown>>;
  operations: Record<string, OperationEntry>;
  /** The list entry and the hidden detail entry. */
  menus: MenuEntry[];
  parent?: string;
  dictionaries: Dictionary[];
  views: { list: string; form: string; detail: string };
  routes: { list: string; detail: string };
}

export class DescriptionError extends Error {}

const NAME = /^[a-z][A-Za-z0-9]*$/;
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const capital = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** Titles of the field names most screens have, so the command line need not say them. */
export function defaultTitle(name: string, noun: string): string | undefined {
  const known: Record<string, string> = {
    code: `${noun}编码`,
    name: `${noun}名称`,
    contact: '联系人',
    phone: '联系电话',
    mobile: '手机号码',
    mail: '邮箱',
    email: '邮箱',
    address: '地址',
    remark: '备注',
    description: '描述',
    status: '状态',
    type: '类型',
    amount: '金额',
    quantity: '数量',
  };
  return known[name];
}

/** The entity field a shorthand type stands for (FORMAT.md); `!` = required. */
export function fieldOf(type: string, title: string, required: boolean): EntityField {
  const dict = /^dict\(([a-z][a-z0-9]*(?:_[a-z0-9]+)*)\)$/.exec(type);
  const kinds: Record<string, EntityFieldType> = { number: 'number', integer: 'integer', date: 'date', datetime: 'datetime', boolean: 'boolean' };
  const kind: EntityFieldType = (!dict && kinds[type]) || 'string';
  const base = { title, type: kind, ...(required ? { required: true } : {}) };
  if (dict) return { ...base, dictType: dict[1], filter: true };
  switch (type) {
    case 'text':
      return { ...base, type: 'string', maxLength: 64, validator: 'plainText', keyword: true, sortable: true };
    case 'code':
      return { ...base, type: 'string', maxLength: 32, pattern: '^[A-Za-z0-9-]{2,32}$', message: '请输入 2 至 32 位字母、数字或 -', unique: true, keyword: true, sortable: true };
    case 'phone':
      // The named `phone` asks for a value itself (请输入手机号); an optional phone is `phoneOrEmpty`.
      return { ...base, type: 'string', maxLength: 11, validator: required ? 'phone' : 'phoneOrEmpty', keyword: true };
    case 'mail':
      return { ...base, type: 'string', maxLength: 64, validator: 'mail', keyword: true };
    case 'number':
      return { ...base, type: 'number', minimum: 0, maximum: 1_000_000_000, sortable: true };
    case 'integer':
      return { ...base, type: 'integer', minimum: 0, maximum: 1_000_000_000, sortable: true };
    case 'date':
      return { ...base, type: 'date', sortable: true };
    case 'datetime':
      return { ...base, type: 'datetime', sortable: true };
    case 'boolean':
      return { ...base, type: 'boolean', filter: true };
    case 'textarea':
      return { ...base, type: 'string', maxLength: 200, multiline: true, validator: 'plainText' };
    default:
      throw new DescriptionError(`未知的字段类型 ${type}（可用：${FIELD_TYPES.join('、')}）`);
  }
}

/** `status:dict(supplier_status)!=合作状态` → the field's name and definition. */
export function parseField(spec: string, noun: string): [string, EntityField] {
  const match = /^([a-z][A-Za-z0-9]*)(?::([a-z]+(?:\([a-z0-9_]+\))?))?(!)?(?:=(.+))?$/.exec(spec.trim());
  if (!match) throw new DescriptionError(`字段 ${spec} 的写法是 名称[:类型][!][=标题]，如 phone:phone!=联系电话`);
  const [, name, type = 'text', bang, titled] = match;
  const title = titled?.trim() || defaultTitle(name, noun);
  if (!title) throw new DescriptionError(`字段 ${name} 需要中文标题：写成 ${spec.trim()}=标题`);
  return [name, fieldOf(type, title, Boolean(bang))];
}

/** A comma-separated list whose items may hold parentheses (`dict(a_b)`). */
function splitList(text: string): string[] {
  return text
    .split(/,(?![^(]*\))/)
    .map((item) => item.trim())
    .filter(Boolean);
}

export function parseItems(text: string, dictType: string): Array<{ value: string; label: string }> {
  return splitList(text).map((item) => {
    const at = item.indexOf(':');
    if (at <= 0 || at === item.length - 1) throw new DescriptionError(`字典 ${dictType} 的项 ${item} 的写法是 值:标签，如 active:合作中`);
    return { value: item.slice(0, at).trim(), label: item.slice(at + 1).trim() };
  });
}

const SAMPLE_WORDS = ['华东', '华南', '华北', '西南', '东北', '华中'];

/** Demo rows made up from the field types, one for each of `count`. */
export function sampleRows(fields: Record<string, EntityField>, count: number, prefix: string, noun: string, dictionaries: Map<string, Dictionary>): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, index) => {
    const n = index + 1;
    const row: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(fields)) {
      if (field.readOnly) continue;
      if (field.dictType) {
        const items = dictionaries.get(field.dictType)?.items ?? [];
        if (items.length) row[name] = items[index % items.length].value;
      } else if (field.pattern) row[name] = `${prefix}-${String(n).padStart(3, '0')}`;
      else if (field.validator === 'phone' || field.validator === 'phoneOrEmpty') row[name] = `1380000${String(1000 + n).slice(-4)}`;
      else if (field.validator === 'mail') row[name] = `contact${n}@example.com`;
      else if (field.type === 'integer' || field.type === 'number') row[name] = n * 10;
      else if (field.type === 'boolean') row[name] = n % 2 === 1;
      else if (field.type === 'date') row[name] = `2026-0${Math.min(n, 9)}-15`;
      else if (field.type === 'datetime') row[name] = `2026-0${Math.min(n, 9)}-15T09:00:00+08:00`;
      else if (field.multiline) row[name] = `${field.title}示例 ${n}`;
      else if (field.title === `${noun}名称`) row[name] = `${SAMPLE_WORDS[index % SAMPLE_WORDS.length]}${noun}${n}`;
      else row[name] = `${field.title}${n}`;
    }
    return row;
  });
}

function fieldsOf(description: ScreenDescription, noun: string): Record<string, EntityField> {
  const { fields } = description;
  if (typeof fields === 'string' || Array.isArray(fields)) {
    const specs = typeof fields === 'string' ? splitList(fields) : fields;
    return Object.fromEntries(specs.map((spec) => parseField(spec, noun)));
  }
  if (!fields || typeof fields !== 'object') throw new DescriptionError('fields 是 名称[:类型][!][=标题] 的列表，或 名称 → 写法或实体字段');
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => {
      if (!NAME.test(name)) throw new DescriptionError(`字段名 ${name} 须为小驼峰（如 contactPhone）`);
      return typeof value === 'string' ? [name, parseField(`${name}:${value}`, noun)[1]] : [name, value];
    }),
  );
}

/** The whole screen of a description. Throws DescriptionError with a sentence. */
export function generateScreen(description: ScreenDescription): ScreenFiles {
  const ref = description.entity;
  if (typeof ref !== 'string' || !/^[a-z][A-Za-z0-9]*\/[a-z][A-Za-z0-9]*$/.test(ref)) throw new DescriptionError(`实体写成 <area>/<entity>（小驼峰），如 supply/supplier，而不是 ${String(ref)}`);
  const [area, entity] = ref.split('/');
  const title = description.title?.trim();
  if (!title) throw new DescriptionError('需要 --title（菜单与列表的中文标题，如 供应商管理）');
  const noun = description.noun?.trim() || title.replace(/(管理|列表|维护)$/, '') || title;
  const roles = description.roles?.length ? description.roles : [...PLATFORM_ROLES];
  const writeRoles = description.writeRoles?.length ? description.writeRoles : roles;
  for (const role of [...roles, ...writeRoles]) if (!(ROLES as readonly string[]).includes(role)) throw new DescriptionError(`未知的角色 ${role}（可用：${ROLES.join('、')}）`);
  const stray = writeRoles.filter((role) => !roles.includes(role));
  if (stray.length) throw new DescriptionError(`写权限的角色 ${stray.join('、')} 看不到菜单：先加到 roles 中`);
  const group = description.group ?? 'platform';
  if (!(MENU_GROUPS as readonly string[]).includes(group)) throw new DescriptionError(`未知的菜单分组 ${group}（可用：${MENU_GROUPS.join('、')}）`);
  const scope = description.scope ?? (roles.every((role) => (PLATFORM_ROLES as readonly string[]).includes(role)) ? 'platform' : 'tenant');

  const fields = fieldsOf(description, noun);
  if (!Object.keys(fields).length) throw new DescriptionError('至少需要一个字段（--fields）');
  const dictionaries = Object.entries(description.dicts ?? {}).map(([dictType, value]): Dictionary => {
    if (!/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(dictType)) throw new DescriptionError(`字典类型 ${dictType} 须为小写下划线（如 supplier_status）`);
    const items = parseItems(typeof value === 'string' ? value : value.items, dictType);
    const field = Object.values(fields).find((f) => f.dictType === dictType);
    // Named after its field, with the noun once: 供应商状态 for 状态, 备件类别 (not 备件备件类别) for 备件类别.
    const dictName = (typeof value === 'object' && value.name) || (field ? (field.title.startsWith(noun) ? field.title : `${noun}${field.title}`) : dictType);
    return { dictType, dictName, items };
  });
  const dictMap = new Map(dictionaries.map((d) => [d.dictType, d]));
  // A new dictionary's first value is where its field starts (合作中 for a new supplier).
  for (const field of Object.values(fields)) if (field.dictType && field.default === undefined && dictMap.get(field.dictType)) field.default = dictMap.get(field.dictType)?.items[0].value;

  const name = area === entity ? entity : `${area}.${entity}`;
  const param = entity;
  const table = area === entity ? snake(entity) : `${snake(area)}_${snake(entity)}`;
  const prefix = (entity.replace(/[^A-Za-z]/g, '').slice(0, 3) || 'REC').toUpperCase();
  const seed = Array.isArray(description.seed) ? description.seed : sampleRows(fields, description.seed ?? 3, prefix, noun, dictMap);
  const sortField = Object.entries(fields).find(([, f]) => f.unique && f.sortable)?.[0];
  const definition: EntityDefinition = {
    $schema: '../../entity.schema.json',
    name,
    title: noun,
    table,
    managed: true,
    scope,
    fields,
    defaultSort: sortField ? { field: sortField, order: 'asc' } : { field: 'createTime', order: 'desc' },
    param,
    export: { title: `${noun}清单` },
    seed,
  };

  const op = (verb: string) => `${name}.${verb}`;
  const path = (verb: string) => `/${area === entity ? entity : `${area}/${entity}`}/_${verb}`;
  const operations: Record<string, OperationEntry> = {
    [op('page')]: { path: path('page'), kind: 'page', title: `${noun}分页列表` },
    [op('detail')]: { path: path('detail'), kind: 'call', title: `${noun}详情` },
    [op('insert')]: { path: path('insert'), kind: 'call', title: `新增${noun}`, button: true },
    [op('modify')]: { path: path('modify'), kind: 'call', title: `修改${noun}`, button: true },
    [op('delete')]: { path: path('delete'), kind: 'call', title: `删除${noun}`, button: true },
    [op('export')]: { path: path('export'), kind: 'blob', title: `导出${noun}`, button: true },
  };

  const views = { list: `${area}/${entity}`, form: `${area}/${entity}Form`, detail: `${area}/${entity}Detail` };
  const listUrl = description.url ?? `/${kebab(area)}${area === entity ? '' : `/${kebab(entity)}`}`;
  if (!/^(\/[a-z0-9][a-zA-Z0-9_-]*)+$/.test(listUrl)) throw new DescriptionError(`路由 ${listUrl} 须为 /小写路径，如 /supply/supplier`);
  const routes = { list: listUrl, detail: `${listUrl}/detail` };
  const keywordFields = Object.entries(fields).filter(([, f]) => f.keyword && !f.readOnly);
  const columnFields = Object.entries(fields).filter(([, f]) => !f.multiline);
  const ownColumn = ([field, f]: [string, EntityField]) => ({ field, ...(f.filter ? { search: true } : {}) });
  const tenantColumn = scope === 'platform' ? [] : [{ field: scope === 'organization' ? 'organizationName' : 'tenantName' }];
  const list: Record<string, unknown> = {
    $schema: '../../page.schema.json',
    schemaVersion: 1,
    kind: 'list',
    title,
    entity: ref,
    operation: op('page'),
    rowKey: 'id',
    defaultSort: definition.defaultSort,
    ...(keywordFields.length
      ? {
          filters: {
            type: 'object',
            ...(columnFields.some(([, f]) => f.filter) ? { order: ['keyword', ...columnFields.filter(([, f]) => f.filter).map(([field]) => field)] } : {}),
            properties: {
              keyword: {
                type: 'string',
                title: '关键字',
                'x-decorator': 'FormItem',
                'x-component': 'Input',
                'x-component-props': { placeholder: keywordFields.map(([, f]) => f.title).join('、'), maxLength: 64 },
              },
            },
          },
        }
      : {}),
    columns: [...columnFields.map(ownColumn), ...tenantColumn, { field: 'updateTime' }],
    toolbar: [{ type: 'openForm', label: `新增${noun}`, page: views.form, container: 'drawer', permission: op('insert'), primary: true, icon: 'PlusOutlined', width: 600 }],
    rowActions: [
      // Reading is the menu's own right (as every screen's 查看): no button, so the detail stays ungated.
      { type: 'navigate', label: '查看', to: routes.detail, query: { id: '{{record.id}}' } },
      { type: 'openForm', label: '编辑', page: views.form, container: 'drawer', params: { id: '{{record.id}}' }, permission: op('modify'), width: 600 },
      { type: 'call', label: '删除', operation: op('delete'), param: { id: '{{record.id}}' }, confirm: `确认删除该${noun}？删除后不可恢复。`, danger: true, permission: op('delete'), successMessage: '已删除' },
    ],
    export: { operation: op('export'), permission: op('export') },
  };
  const form: Record<string, unknown> = {
    $schema: '../../page.schema.json',
    schemaVersion: 1,
    kind: 'form',
    title: noun,
    entity: ref,
    load: { operation: op('detail'), param: { id: '{{params.id | number}}' } },
    submit: { operation: op('modify'), createOperation: op('insert'), param: { id: '{{params.id | number}}', [param]: '{{values}}' }, successMessage: '设置成功！' },
    schema: { type: 'object', properties: Object.fromEntries(Object.entries(fields).filter(([, f]) => !f.readOnly).map(([field]) => [field, {}])) },
  };
  const detail: Record<string, unknown> = {
    $schema: '../../page.schema.json',
    schemaVersion: 1,
    kind: 'detail',
    title: `${noun}详情`,
    entity: ref,
    load: { operation: op('detail'), param: { id: '{{params.id | number}}' } },
    sections: [
      {
        title: `${noun}信息`,
        type: 'descriptions',
        column: 2,
        fields: [...Object.keys(fields).map((field) => ({ field })), ...tenantColumn, { field: 'createdBy' }, { field: 'createTime' }, { field: 'updateTime' }],
      },
    ],
  };

  const code = description.parent ? `${description.parent}.${entity}` : area === entity ? entity : `${area}${capital(entity)}`;
  const writers = writeRoles.length === roles.length ? undefined : writeRoles;
  const button = (suffix: string, label: string, verb: string, who?: string[]): MenuButton => ({ code: `${code}.${suffix}`, name: label, url: op(verb), ...(who ? { roles: who } : {}) });
  const top = description.parent ? {} : { group };
  const listEntry: MenuEntry = {
    code,
    name: title,
    // Without --icon, new:screen gives it one its siblings do not use (withMenuIcons).
    ...(description.icon ? { icon: description.icon } : {}),
    ...top,
    roles,
    url: routes.list,
    view: views.list,
    buttons: [button('add', '新增', 'insert', writers), button('edit', '编辑', 'modify', writers), button('delete', '删除', 'delete', writers), button('export', '导出', 'export')],
  };
  const detailEntry: MenuEntry = { code: `${code}Detail`, name: `${noun}详情`, ...top, roles, url: routes.detail, view: views.detail, shown: false };
  return {
    entityRef: ref,
    entity: definition,
    pages: { [views.list]: list, [views.form]: form, [views.detail]: detail },
    operations,
    menus: [listEntry, detailEntry],
    parent: description.parent,
    dictionaries,
    views,
    routes,
  };
}

/**
 * The icons a record's list is drawn with, tried first: a new screen's entry takes one of these its
 * siblings do not use (from a place its code picks, so two new screens seldom get the same), then
 * any other the frame draws, never the generic icon an unknown name falls back to.
 */
const LIST_ICONS = ['InboxOutlined', 'DatabaseOutlined', 'ContainerOutlined', 'TableOutlined', 'UnorderedListOutlined', 'OrderedListOutlined', 'ProductOutlined', 'BookOutlined', 'FileTextOutlined', 'HddOutlined', 'TagsOutlined', 'ReconciliationOutlined'];
/** A record's detail route: ProfileOutlined, else the next of these that is free. */
const DETAIL_ICONS = ['ProfileOutlined', 'FileSearchOutlined', 'IdcardOutlined', 'SnippetsOutlined', 'FileTextOutlined'];

/** A number of a code (its characters' sum), to start a screen's search for a free icon somewhere of its own. */
const placeOf = (code: string) => [...code].reduce((sum, char) => sum + char.charCodeAt(0), 0);

function freeIcon(preferred: readonly string[], drawable: readonly string[], taken: Set<string>, code: string | null): string | undefined {
  const rotated = (list: readonly string[]) => (code === null ? list : list.map((_, i) => list[(placeOf(code) + i) % list.length]));
  return [...rotated(preferred.filter((icon) => drawable.includes(icon))), ...rotated(drawable)].find((icon) => !taken.has(icon));
}

/**
 * The screen's menu entries with an icon each where the description named none: one that no
 * sibling (`siblingIcons`, the entries of the folder or the top level it goes into) nor the other
 * new entry uses, of `drawable` (the icons the frame draws, src/frame/menuIconSet.tsx) without
 * `generic`. An icon the description named is kept.
 */
export function withMenuIcons(menus: readonly MenuEntry[], siblingIcons: readonly string[], drawable: readonly string[], generic: string): MenuEntry[] {
  const usable = drawable.filter((icon) => icon !== generic).sort();
  const taken = new Set([...siblingIcons, ...menus.flatMap((entry) => (entry.icon ? [entry.icon] : []))]);
  return menus.map((entry) => {
    if (entry.icon) return entry;
    // A list's icon from a place of its code's; a detail route's ProfileOutlined when it is free.
    const icon = entry.shown === false ? freeIcon(DETAIL_ICONS, usable, taken, null) : freeIcon(LIST_ICONS, usable, taken, entry.code);
    if (!icon) return entry;
    taken.add(icon);
    return { ...entry, icon };
  });
}
