// `npm run check` (after tsc and eslint): the data files under schemas/ against their JSON Schemas,
// then every page schema against schemas/page.schema.json and what a JSON Schema cannot say:
// operations exist with the right kind, dictionaries are served, validators, displays and
// components are registered, and the pages and routes that actions name exist.
// One line per problem: file, JSON pointer, sentence. Exit code 1 when there is any.
import Ajv2020 from 'ajv/dist/2020.js';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { unregisteredDisplays } from '../renderers/schema/displays';
import type { PageSchema } from '../renderers/schema/types';
import { COMPONENT_OPERATION_PROPS, FORM_COMPONENT_NAMES } from '../renderers/form/componentNames';
import { expressionProblem } from '../renderers/form/expressions';
import { VALIDATOR_NAMES } from '../src/validation/named';

export interface Problem {
  file: string;
  pointer: string;
  message: string;
}

interface OperationSpec {
  kind: string;
}

export interface CheckContext {
  root: string;
  pagesDir: string;
  operations: Record<string, OperationSpec>;
  dictTypes: Set<string>;
  routes: Set<string>;
  pages: Set<string>;
}

const projectRoot = new URL('..', import.meta.url).pathname;
const LAYOUT_ROUTES = ['/dashboard', '/gateway/details', '/dynamic/form/1/config', '/dynamic/form/2/config', '/dynamic/form/3/config', '/my/order', '/card/order/user', '/system/daily/read', '/system/message'];

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8')) as unknown;
}

function listJson(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listJson(path) : name.endsWith('.json') ? [path] : [];
  });
}

function ajv() {
  return new Ajv2020({ allErrors: true, strict: false, discriminator: true });
}

/** The data files: operations.json, menus.json, dictionaries.json against their schemas. */
export function checkDataFiles(root = projectRoot): Problem[] {
  const problems: Problem[] = [];
  for (const name of ['operations', 'menus', 'dictionaries']) {
    const file = `schemas/${name}.json`;
    const schemaFile = join(root, `schemas/${name}.schema.json`);
    if (!existsSync(join(root, file))) {
      problems.push({ file, pointer: '/', message: '文件不存在' });
      continue;
    }
    if (!existsSync(schemaFile)) {
      problems.push({ file: `schemas/${name}.schema.json`, pointer: '/', message: '缺少 JSON Schema' });
      continue;
    }
    let value: unknown;
    try {
      value = readJson(join(root, file));
    } catch (error) {
      problems.push({ file, pointer: '/', message: `不是合法的 JSON：${(error as Error).message}` });
      continue;
    }
    const validate = ajv().compile(readJson(schemaFile) as object);
    if (!validate(value)) {
      for (const error of validate.errors ?? []) problems.push({ file, pointer: error.instancePath || '/', message: error.message ?? '不合法' });
    }
  }
  return problems;
}

interface MenuEntry {
  url?: string;
  view?: string;
  buttons?: Array<{ url: string }>;
  children?: MenuEntry[];
}

export function loadContext(root = projectRoot, pagesDir = join(root, 'schemas/pages')): CheckContext {
  const operations = readJson(join(root, 'schemas/operations.json')) as Record<string, OperationSpec>;
  const dictionaries = existsSync(join(root, 'schemas/dictionaries.json'))
    ? (readJson(join(root, 'schemas/dictionaries.json')) as { dictionaries: Array<{ dictType: string }> }).dictionaries
    : [];
  const routes = new Set(LAYOUT_ROUTES);
  const walk = (entries: MenuEntry[]) =>
    entries.forEach((entry) => {
      if (entry.url) routes.add(entry.url);
      walk(entry.children ?? []);
    });
  if (existsSync(join(root, 'schemas/menus.json'))) walk((readJson(join(root, 'schemas/menus.json')) as { menus: MenuEntry[] }).menus);
  const pages = new Set(listJson(pagesDir).map((path) => relative(pagesDir, path).replace(/\.json$/, '')));
  return { root, pagesDir, operations, dictTypes: new Set(dictionaries.map((d) => d.dictType)), routes, pages };
}

/** Menu buttons name catalogued operations. */
export function checkMenus(context: CheckContext): Problem[] {
  const problems: Problem[] = [];
  const file = 'schemas/menus.json';
  if (!existsSync(join(context.root, file))) return problems;
  const walk = (entries: MenuEntry[], pointer: string) =>
    entries.forEach((entry, index) => {
      entry.buttons?.forEach((button, b) => {
        if (!context.operations[button.url]) problems.push({ file, pointer: `${pointer}/${index}/buttons/${b}/url`, message: `按钮指向未登记的接口操作 ${button.url}` });
      });
      walk(entry.children ?? [], `${pointer}/${index}/children`);
    });
  walk((readJson(join(context.root, file)) as { menus: MenuEntry[] }).menus, '/menus');
  return problems;
}

type Json = Record<string, unknown>;

/** One page schema: the JSON Schema, then the references it makes. */
export function checkPage(file: string, value: unknown, context: CheckContext): Problem[] {
  const problems: Problem[] = [];
  const add = (pointer: string, message: string) => problems.push({ file, pointer, message });
  const validate = ajv().compile(readJson(join(projectRoot, 'schemas/page.schema.json')) as object);
  if (!validate(value)) {
    for (const error of validate.errors ?? []) add(error.instancePath || '/', error.message ?? '不合法');
    return problems;
  }
  // The rule the renderer applies too (an unregistered display shows its error panel).
  for (const problem of unregisteredDisplays(value as PageSchema)) add(problem.pointer, problem.message);
  const operation = (pointer: string, name: unknown, kinds: string[]) => {
    if (typeof name !== 'string') return;
    const spec = context.operations[name];
    if (!spec) add(pointer, `接口操作 ${name} 未在 schemas/operations.json 中登记`);
    else if (!kinds.includes(spec.kind)) add(pointer, `接口操作 ${name} 的类型是 ${spec.kind}，此处需要 ${kinds.join(' 或 ')}`);
  };
  const dictType = (pointer: string, type: unknown) => {
    if (typeof type === 'string' && !context.dictTypes.has(type)) add(pointer, `字典类型 ${type} 未在 schemas/dictionaries.json 中提供`);
  };
  const column = (pointer: string, col: Json) => {
    if (col.dictType) dictType(`${pointer}/dictType`, col.dictType);
    if ((col.display === 'dict' || col.display === 'tag') && !col.dictType && col.display === 'dict') add(pointer, 'display 为 dict 时需要 dictType');
  };
  const action = (pointer: string, act: Json) => {
    if (act.type === 'call') operation(`${pointer}/operation`, act.operation, ['call']);
    if (act.type === 'download') operation(`${pointer}/operation`, act.operation, ['blob']);
    if (act.type === 'openForm' && !context.pages.has(String(act.page))) add(`${pointer}/page`, `表单页面 ${String(act.page)} 不存在（schemas/pages/${String(act.page)}.json）`);
    if (act.type === 'navigate' && !context.routes.has(String(act.to))) add(`${pointer}/to`, `路由 ${String(act.to)} 不在菜单或布局路由中`);
  };
  const formily = (pointer: string, schema: unknown) => {
    if (Array.isArray(schema)) return schema.forEach((item, i) => formily(`${pointer}/${i}`, item));
    // A Formily expression must be in the language the console evaluates without eval.
    const expression = typeof schema === 'string' ? /^\s*\{\{([\s\S]*)\}\}\s*$/.exec(schema) : null;
    if (expression) {
      const problem = expressionProblem(expression[1]);
      if (problem) add(pointer, problem);
      return;
    }
    if (!schema || typeof schema !== 'object') return;
    for (const [key, item] of Object.entries(schema as Json)) {
      const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if ((key === 'x-component' || key === 'x-decorator') && typeof item === 'string') {
        const base = item.split('.')[0];
        if (!(FORM_COMPONENT_NAMES as readonly string[]).includes(base)) add(at, `未注册的组件 ${item}`);
        const props = (schema as Json)['x-component-props'] as Json | undefined;
        const needs = COMPONENT_OPERATION_PROPS[base];
        if (key === 'x-component' && needs && props?.[needs.prop]) operation(`${pointer}/x-component-props/${needs.prop}`, props[needs.prop], [...needs.kinds]);
        if (key === 'x-component' && base === 'DictSelect') dictType(`${pointer}/x-component-props/dictType`, props?.dictType ?? '(缺少)');
      } else if (key === 'x-validator') {
        const entries = Array.isArray(item) ? item : [item];
        entries.forEach((entry, i) => {
          const name = typeof entry === 'string' ? entry : (entry as Json | null)?.name;
          if (typeof name === 'string' && !VALIDATOR_NAMES.includes(name)) add(Array.isArray(item) ? `${at}/${i}` : at, `未注册的校验器 ${name}`);
        });
      } else formily(at, item);
    }
  };
  const page = value as Json;
  const each = (key: string, fn: (pointer: string, item: Json) => void) =>
    ((page[key] as Json[] | undefined) ?? []).forEach((item, i) => fn(`/${key}/${i}`, item));
  switch (page.kind) {
    case 'list':
      operation('/operation', page.operation, ['page']);
      each('columns', column);
      for (const key of ['toolbar', 'rowActions', 'batchActions']) each(key, action);
      if (page.export) operation('/export/operation', (page.export as Json).operation, ['blob']);
      if (page.filters) formily('/filters', page.filters);
      break;
    case 'form':
      if (page.load) operation('/load/operation', (page.load as Json).operation, ['call', 'get']);
      operation('/submit/operation', (page.submit as Json).operation, ['call']);
      if ((page.submit as Json).createOperation) operation('/submit/createOperation', (page.submit as Json).createOperation, ['call']);
      formily('/schema', page.schema);
      break;
    case 'detail':
      operation('/load/operation', (page.load as Json).operation, ['call', 'get']);
      each('actions', action);
      each('sections', (pointer, section) => {
        if (section.operation) operation(`${pointer}/operation`, section.operation, ['call', 'get']);
        ((section.fields as Json[] | undefined) ?? []).forEach((f, i) => column(`${pointer}/fields/${i}`, f));
        ((section.columns as Json[] | undefined) ?? []).forEach((c, i) => column(`${pointer}/columns/${i}`, c));
        if (section.page && !context.pages.has(String(section.page))) add(`${pointer}/page`, `列表页面 ${String(section.page)} 不存在`);
      });
      break;
    case 'dashboard':
      each('widgets', (pointer, widget) => {
        operation(`${pointer}/operation`, widget.operation, ['call', 'get']);
        ((widget.columns as Json[] | undefined) ?? []).forEach((c, i) => column(`${pointer}/columns/${i}`, c));
      });
      break;
  }
  return problems;
}

export function checkPages(context: CheckContext): Problem[] {
  return listJson(context.pagesDir).flatMap((path) => {
    const file = relative(context.root, path);
    try {
      return checkPage(file, readJson(path), context);
    } catch (error) {
      return [{ file, pointer: '/', message: `不是合法的 JSON：${(error as Error).message}` }];
    }
  });
}

export function formatProblem(problem: Problem): string {
  return `${problem.file} ${problem.pointer || '/'} ${problem.message}`;
}

export function checkAll(root = projectRoot, pagesDir?: string): Problem[] {
  const data = checkDataFiles(root);
  const context = loadContext(root, pagesDir);
  return [...data, ...checkMenus(context), ...checkPages(context)];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = checkAll();
  for (const problem of problems) console.error(formatProblem(problem));
  if (problems.length) {
    console.error(`共 ${problems.length} 个问题`);
    process.exit(1);
  }
  console.log('schemas/ 检查通过：数据文件与页面模式');
}
