// `npm run schemas`: writes schemas/page.schema.json from the page model (scripts/pageModel.ts) and
// schemas/names.schema.json, the names a page or entity file may use, as
// enums an editor completes (issue 25): operation names (schemas/operations.json), permissions (the
// operations some menu button grants), dictionary types, named validators (src/validation/named.ts),
// displays, form components and their members, page views, routes and entities — and a typed Formily
// form field. schemas/page.schema.json and schemas/entity.schema.json refer to its `$defs`, so an
// editor that follows a file's `$schema` completes every one of them.
// `npm run check` and the console's page validator read the names relaxed to plain strings
// (scripts/relaxedNames.ts): a wrong name there is told by the semantic check, in its own sentence, once.
// tests/contract/namesSchema.test.ts fails when the file is stale; `npm run new:screen` rewrites it.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DISPLAY_KINDS } from '../renderers/displays/displays.tsx';
import { FORM_COMPONENT_KINDS } from '../renderers/form/formily.tsx';
import { FILTER_COMPONENT_KINDS } from '../renderers/list/FilterForm.tsx';
import { ACTION_NAMES, widgetTypes } from './check/registered.ts';
import { pageVariants } from '../renderers/schema/compose.ts';
import { VALIDATOR_NAMES } from '../src/validation/named.ts';
import { PAGE_SCHEMA_FILE, writePageSchema } from './pageModel.ts';
import { NAMES_SCHEMA_FILE } from './relaxedNames.ts';

export { NAMES_SCHEMA_FILE };

const projectRoot = new URL('..', import.meta.url).pathname;
export const NAMES_SCHEMA_ID = 'https://iot-console.local/schemas/names.schema.json';

/** The views and routes of the layout (scripts/check.ts says the same for its checks). */
const LAYOUT_ROUTES = ['/dashboard', '/gateway/details', '/dynamic/form/1/config', '/dynamic/form/2/config', '/dynamic/form/3/config', '/my/order', '/card/order/user', '/system/daily/read', '/system/message'];


type Json = Record<string, unknown>;
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8')) as unknown;

/** The JSON files under `dir`, as paths relative to it, in a stable order. */
function listJson(dir: string, base = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      const rel = base ? `${base}/${name}` : name;
      return statSync(path).isDirectory() ? listJson(path, rel) : name.endsWith('.json') ? [rel] : [];
    });
}

interface MenuEntry {
  url?: string;
  buttons?: Array<{ url: string }>;
  children?: MenuEntry[];
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();
/** A list of names; none yet is any string (an empty enum is no JSON Schema). */
const names = (values: Iterable<string>, description: string) => {
  const list = sorted(values);
  return list.length ? { description, enum: list } : { description, type: 'string' };
};

/** The contents of schemas/names.schema.json for the files under `root`. */
export function namesSchema(root = projectRoot): Json {
  const operations = Object.keys(readJson(join(root, 'schemas/operations.json')) as Json);
  const permissions: string[] = [];
  const routes = [...LAYOUT_ROUTES];
  const walk = (entries: MenuEntry[]) =>
    entries.forEach((entry) => {
      if (entry.url) routes.push(entry.url);
      entry.buttons?.forEach((button) => permissions.push(button.url));
      walk(entry.children ?? []);
    });
  walk((readJson(join(root, 'schemas/menus.json')) as { menus: MenuEntry[] }).menus);
  const dictTypes = (readJson(join(root, 'schemas/dictionaries.json')) as { dictionaries: Array<{ dictType: string }> }).dictionaries.map((d) => d.dictType);
  const pages = listJson(join(root, 'schemas/pages')).flatMap((file) => {
    const view = file.replace(/\.json$/, '');
    try {
      return pageVariants(view, readJson(join(root, 'schemas/pages', file)));
    } catch {
      return [view];
    }
  });
  const entities = listJson(join(root, 'schemas/entities')).map((file) => file.replace(/\.json$/, ''));
  // Each registered form component, and the members its entry offers as `Base.Member`.
  const components = FORM_COMPONENT_KINDS.list().flatMap(([name, kind]) => [name, ...(kind.members ?? []).map((member) => `${name}.${member}`)]);
  const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
  const validatorRule = {
    anyOf: [
      ref('validator'),
      {
        type: 'object',
        description: '命名校验器及其参数 { name, field }，或正则 { pattern, message }，或 Formily 规则（minLength、maximum …）及其 message。',
        properties: { name: ref('validator'), field: { type: 'string' }, pattern: { type: 'string' }, message: { type: 'string' }, required: { type: 'boolean' } },
      },
    ],
  };
  const text = { anyOf: [{ type: 'string' }, { type: 'object', required: ['$param'] }] };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: NAMES_SCHEMA_ID,
    title: '页面与实体文件可用的名称（npm run schemas 生成，勿手改）',
    description:
      '接口操作、按钮权限、字典类型、命名校验器、展示方式、表单组件、页面、路由与实体的名称，以及带类型的 Formily 表单字段。schemas/page.schema.json 与 schemas/entity.schema.json 引用这里的 $defs，编辑器据此补全与提示；npm run check 以自己的句子指出错误的名称。',
    $defs: {
      operation: names(operations, '接口操作名（schemas/operations.json）。'),
      permission: names(permissions, '按钮权限：某个菜单按钮授予的接口操作名（schemas/menus.json 的 buttons[].url）；别的名称让按钮对所有人都不显示。'),
      dictType: names(dictTypes, '字典类型（schemas/dictionaries.json）。'),
      validator: names(VALIDATOR_NAMES, '命名校验器（src/validation/named.ts，SPEC §5 的规则与提示）。'),
      display: names(DISPLAY_KINDS.names(), '命名的展示方式（renderers/displays/displays.tsx 的 DISPLAY_KINDS）。'),
      component: names(components, '已注册的表单组件（renderers/form/formily.tsx 的 FORM_COMPONENT_KINDS），可带成员：Input.TextArea、DatePicker.RangePicker …'),
      filterComponent: names(FILTER_COMPONENT_KINDS.names(), '列表筛选控件（renderers/list/FilterForm.tsx 的 FILTER_COMPONENT_KINDS）。'),
      consoleAction: names(ACTION_NAMES, '控制台注册的操作（src/renderer/actions.ts 的 CONSOLE_ACTIONS），名称带点号。'),
      widget: names(widgetTypes(), '仪表盘组件类型（renderers/dashboard/widgetKinds.tsx 的 WIDGET_KINDS 与 src/renderer/widgets.tsx）。'),
      page: names(pages, '页面：schemas/pages 下的 <area>/<view>，带参数的页面写出参数组合。'),
      route: names(routes, '路由：菜单项或布局路由的地址。'),
      entity: names(entities, '实体：schemas/entities 下的 <area>/<entity>，字段的标题、规则、组件与展示取自它。'),
      validatorRule,
      componentProps: {
        type: 'object',
        description: '控件属性。',
        properties: {
          dictType: ref('dictType'),
          operation: ref('operation'),
          placeholder: { type: 'string' },
          maxLength: { type: 'integer', minimum: 1 },
          min: { type: 'number' },
          max: { type: 'number' },
          precision: { type: 'integer', minimum: 0 },
          rows: { type: 'integer', minimum: 1 },
          showTime: { type: 'boolean' },
          mode: { enum: ['multiple', 'tags'] },
          allowClear: { type: 'boolean' },
        },
      },
      formField: {
        description: 'Formily 表单字段。表单页写了 entity 时，实体字段只需写 {}（标题、必填、长度、正则与提示、命名校验器、字典选择与控件都取自实体），写出的属性覆盖实体的。',
        if: { type: 'object', anyOf: [{ required: ['$ref'] }, { required: ['$param'] }] },
        then: { type: 'object' },
        else: {
          type: 'object',
          properties: {
            type: { enum: ['string', 'number', 'integer', 'boolean', 'array', 'object', 'void'], description: '值的类型；void 为不取值的布局容器。' },
            title: { ...text, description: '标签（中文），也是必填提示中的名称：请输入<标签>。' },
            description: { type: 'string', description: '字段下方的说明。' },
            required: { type: ['boolean', 'array'], description: '必填（对象字段写必填子字段名的数组）。' },
            default: { description: '初始值。' },
            enum: { type: 'array', description: 'Select、Radio 的选项：{ label, value } 或值。' },
            pattern: { type: 'string' },
            'x-decorator': { enum: ['FormItem', 'FormGrid', 'FormLayout', 'Space'], description: '外层装饰，通常为 FormItem。' },
            'x-decorator-props': { type: 'object' },
            'x-component': ref('component'),
            'x-component-props': ref('componentProps'),
            'x-validator': { anyOf: [validatorRule, { type: 'array', items: validatorRule }], description: '校验：命名校验器、正则及提示，或它们的数组。' },
            'x-reactions': { type: ['object', 'array'], description: '联动（表达式在 {{…}} 中）。' },
            'x-display': { enum: ['visible', 'hidden', 'none'] },
            'x-pattern': { enum: ['editable', 'disabled', 'readOnly', 'readPretty'] },
            'x-read-pretty': { type: 'boolean' },
            'x-visible': { type: ['boolean', 'string'] },
            properties: { type: 'object', additionalProperties: ref('formField'), description: '子字段（对象或布局容器）。' },
            items: { anyOf: [ref('formField'), { type: 'array', items: ref('formField') }] },
          },
        },
      },
    },
  };
}

export const namesSchemaText = (root = projectRoot): string => `${JSON.stringify(namesSchema(root), null, 2)}\n`;

/** Writes schemas/names.schema.json; answers whether it changed. */
export function writeNamesSchema(root = projectRoot): boolean {
  const path = join(root, NAMES_SCHEMA_FILE);
  const text = namesSchemaText(root);
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return false;
  writeFileSync(path, text);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [file, write] of [
    [NAMES_SCHEMA_FILE, writeNamesSchema],
    [PAGE_SCHEMA_FILE, writePageSchema],
  ] as const)
    console.log(write() ? `已更新 ${file}` : `${file} 已是最新`);
}
