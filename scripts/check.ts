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
import { isTemplate, RESULT_ROOT } from '../renderers/schema/template';
import { templateTextProblems } from '../renderers/schema/templateCheck';
import { pageKindModule, ROOTS } from '../renderers/kinds';
import { ACTION_NAMES, componentProblems, consoleClashes, displayProblems, resolvedFields, widgetTypes } from './check/registered';
import { CONSOLE_ACTION_NAME } from '../renderers/actions/actionKinds';
import { registeredViews } from '../src/screens/registry';
import { VALIDATOR_NAMES } from '../src/validation/named';
import { checkContracts } from './checkContracts';
import { formatReuse, reuseFigures } from './schemaReuse';
import { composeFile, pageVariants, parseViewRef } from '../renderers/schema/compose';
import { schemaFileReader } from './pageSources';
import { checkIssue25, relaxedNamesSchema } from './checkEntities';
import { checkDataFiles, guarded, readJsonFile } from './checkFiles';
import { checkButtonPermissions } from './checkPermissions';
import { checkServerSeeds } from './checkSeeds';
import { checkPageSchemaFile } from './pageModel';
import { allowedHint, closeHint } from './checkSuggest';
import { describeSchemaErrors } from '../renderers/schema/describeError';

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
  /** The operations some menu button grants: an action's `permission` must be one of them. */
  permissions: Set<string>;
  /** The view files the menus and the layout routes open. */
  views: Set<string>;
}

const projectRoot = new URL('..', import.meta.url).pathname;

/** The views of the layout routes (src/router/layoutRoutes.tsx) and of the dashboard. */
const LAYOUT_VIEWS = ['dashboard', 'gateway/details', 'system/myOrder?buttons=none', 'card/order/user', 'system/notices?tab=daily', 'system/notices?tab=system'];
const LAYOUT_ROUTES = ['/dashboard', '/gateway/details', '/dynamic/form/1/config', '/dynamic/form/2/config', '/dynamic/form/3/config', '/my/order', '/card/order/user', '/system/daily/read', '/system/message'];

/** A data file's value, or `fallback` when it is missing or broken (checkDataFiles says which and where). */
function readJsonOr<T>(path: string, fallback: T): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return fallback;
  }
}
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8')) as unknown;

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

export { checkDataFiles };

interface MenuEntry {
  url?: string;
  view?: string;
  buttons?: Array<{ url: string }>;
  children?: MenuEntry[];
}

export function loadContext(root = projectRoot, pagesDir = join(root, 'schemas/pages')): CheckContext {
  // A missing or broken data file is told by checkDataFiles; the rest is checked without it.
  const operations = readJsonOr<Record<string, OperationSpec>>(join(root, 'schemas/operations.json'), {});
  const dictionaryFile = readJsonOr<{ dictionaries?: Array<{ dictType: string }> }>(join(root, 'schemas/dictionaries.json'), {});
  const dictionaries = Array.isArray(dictionaryFile.dictionaries) ? dictionaryFile.dictionaries : [];
  const routes = new Set(LAYOUT_ROUTES);
  const permissions = new Set<string>();
  const views = new Set([...LAYOUT_VIEWS, ...registeredViews()]);
  const walk = (entries: MenuEntry[]) =>
    entries.forEach((entry) => {
      if (entry.url) routes.add(entry.url);
      if (entry.view) views.add(entry.view);
      entry.buttons?.forEach((button) => permissions.add(button.url));
      walk(entry.children ?? []);
    });
  const menus = readJsonOr<{ menus?: MenuEntry[] }>(join(root, 'schemas/menus.json'), {}).menus;
  if (Array.isArray(menus)) walk(menus);
  // Every view reference a page file answers: its name, and each combination of its parameters.
  const pages = new Set(
    listJson(pagesDir).flatMap((path) => {
      const view = relative(pagesDir, path).replace(/\.json$/, '');
      try {
        return pageVariants(view, readJson(path));
      } catch {
        return [view];
      }
    }),
  );
  return { root, pagesDir, operations, dictTypes: new Set(dictionaries.map((d) => d.dictType)), routes, pages, permissions, views };
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
      // A view with parameters must be one its page declares (a view without may be a screen to come).
      if (entry.view?.includes('?') && !context.pages.has(entry.view))
        problems.push({ file, pointer: `${pointer}/${index}/view`, message: `视图 ${entry.view} 不是页面模式声明的参数组合（schemas/pages/${parseViewRef(entry.view).view}.json 的 parameters）` });
      walk(entry.children ?? [], `${pointer}/${index}/children`);
    });
  const menus = readJsonOr<{ menus?: MenuEntry[] }>(join(context.root, file), {}).menus;
  if (Array.isArray(menus)) walk(menus, '/menus');
  return problems;
}

type Json = Record<string, unknown>;

let compiledPageSchema: ReturnType<ReturnType<typeof ajv>['compile']> | null = null;
/** schemas/page.schema.json compiled once a run (compiling it took longer than checking a page). */
function pageValidator() {
  compiledPageSchema ??= ajv().addSchema(relaxedNamesSchema(projectRoot)).compile(readJson(join(projectRoot, 'schemas/page.schema.json')) as object);
  return compiledPageSchema;
}

/** One page schema: the JSON Schema, then the references it makes. */
export function checkPage(file: string, value: unknown, context: CheckContext): Problem[] {
  const problems: Problem[] = [];
  const add = (pointer: string, message: string) => problems.push({ file, pointer, message });
  const validate = pageValidator();
  if (!validate(value)) for (const problem of describeSchemaErrors(validate.errors)) add(problem.pointer, problem.message);
  // What a JSON Schema cannot say is checked also when the structure is wrong somewhere else: a
  // misspelt operation should not hide behind a missing title. A part too malformed to read is
  // left to the structural message.
  if (!value || typeof value !== 'object') return problems;
  try {
    semanticProblems(value as Json, context, add);
  } catch {
    // The structural problems above say what is wrong.
  }
  return problems;
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The problems of the `{{…}}` templates in `value` (any depth), which may read `roots` only: each
 * one is parsed by the renderer's evaluator (syntax, filters, names). `covered` collects the
 * pointers looked at, so that a template anywhere else is named too.
 */
function templateProblems(pointer: string, value: unknown, roots: readonly string[], add: (pointer: string, message: string) => void, options: { formily?: boolean } = {}): void {
  if (Array.isArray(value)) return value.forEach((item, i) => templateProblems(`${pointer}/${i}`, item, roots, add, options));
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) templateProblems(`${pointer}/${escapePointer(key)}`, item, roots, add, options);
    return;
  }
  if (!isTemplate(value)) return;
  for (const message of templateTextProblems(value, roots, options)) add(pointer, message);
}

function semanticProblems(page: Json, context: CheckContext, report: (pointer: string, message: string) => void): void {
  // Every pointer a template check looked at: a template anywhere else is never resolved.
  const covered: string[] = [];
  const add = report;
  const templates = (pointer: string, value: unknown, roots: readonly string[], options: { formily?: boolean } = {}) => {
    covered.push(pointer);
    templateProblems(pointer, value, roots, add, options);
  };
  // The rule the renderer applies too (an unregistered display shows its error panel).
  for (const problem of unregisteredDisplays(page as unknown as PageSchema)) add(problem.pointer, problem.message);
  const operation = (pointer: string, name: unknown, kinds: string[]) => {
    if (typeof name !== 'string') return;
    const spec = context.operations[name];
    if (!spec) add(pointer, `接口操作 ${name} 未在 schemas/operations.json 中登记${closeHint(name, Object.keys(context.operations))}`);
    else if (!kinds.includes(spec.kind)) add(pointer, `接口操作 ${name} 的类型是 ${spec.kind}，此处需要 ${kinds.join(' 或 ')}`);
  };
  // What a change declares stale must be an answer the renderer caches: a catalogued query operation.
  const invalidates = (pointer: string, names: unknown) => {
    if (Array.isArray(names)) names.forEach((name, i) => operation(`${pointer}/${i}`, name, ['call', 'get', 'page']));
  };
  const dictType = (pointer: string, type: unknown) => {
    if (typeof type === 'string' && !context.dictTypes.has(type)) add(pointer, `字典类型 ${type} 未在 schemas/dictionaries.json 中提供${closeHint(type, context.dictTypes)}`);
  };
  const column = (pointer: string, col: Json, conditionRoots: readonly string[] = ROOTS.listColumnCondition) => {
    // A link and the row rules (value, color, cellVisibleWhen) read the row.
    for (const key of ['to', 'value', 'color', 'cellVisibleWhen']) if (col[key] !== undefined) templates(`${pointer}/${key}`, col[key], ROOTS.column);
    if (col.visibleWhen !== undefined) templates(`${pointer}/visibleWhen`, col.visibleWhen, conditionRoots);
    if (col.dictType) dictType(`${pointer}/dictType`, col.dictType);
    // What its display requires of it (its DISPLAY_KINDS entry's props: a dict's dictType).
    displayProblems(pointer, col, add);
  };
  const permission = (pointer: string, name: unknown) => {
    if (typeof name === 'string' && !context.permissions.has(name)) add(pointer, `权限 ${name} 不是任何菜单按钮授予的接口操作：这个按钮对所有人都不显示${closeHint(name, context.permissions)}`);
  };
  const action = (pointer: string, act: Json, roots: readonly string[] = ROOTS.rowAction): void => {
    permission(`${pointer}/permission`, act.permission);
    // What the action's kind resolves (its entry in renderers/actions/actionKinds.ts), and the conditions every action has.
    for (const key of resolvedFields(act.type)) if (act[key] !== undefined) templates(`${pointer}/${key}`, act[key], roots);
    // A chain's later steps read what the step before answered as `result`.
    if (act.type === 'chain' && Array.isArray(act.steps)) (act.steps as Json[]).forEach((step, i) => action(`${pointer}/steps/${i}`, step, i === 0 ? roots : [...roots, RESULT_ROOT]));
    if (act.type === 'showResult') ((act.fields as Json[] | undefined) ?? []).forEach((f, i) => column(`${pointer}/fields/${i}`, f));
    if (typeof act.type === 'string' && CONSOLE_ACTION_NAME.test(act.type) && !ACTION_NAMES.includes(act.type)) add(`${pointer}/type`, `未注册的操作 ${act.type}（控制台的操作在 src/renderer/actions.ts${ACTION_NAMES.length ? `：${ACTION_NAMES.join('、')}` : '，目前没有'}）`);
    if (act.type === 'openPage' && !context.pages.has(String(act.page))) add(`${pointer}/page`, `页面 ${String(act.page)} 不存在（schemas/pages/${String(act.page)}.json）${closeHint(String(act.page), context.pages)}`);
    if (act.type === 'call') operation(`${pointer}/operation`, act.operation, ['call']);
    if (act.type === 'call') invalidates(`${pointer}/invalidates`, act.invalidates);
    if (act.type === 'download') operation(`${pointer}/operation`, act.operation, ['blob']);
    if (act.type === 'openForm' && !context.pages.has(String(act.page))) add(`${pointer}/page`, `表单页面 ${String(act.page)} 不存在（schemas/pages/${String(act.page)}.json）${closeHint(String(act.page), context.pages)}`);
    if (act.type === 'navigate' && !context.routes.has(String(act.to))) add(`${pointer}/to`, `路由 ${String(act.to)} 不在菜单或布局路由中${closeHint(String(act.to), context.routes)}`);
  };
  const submitResult = (shown: Json | undefined) => {
    if (!shown) return;
    if (shown.value !== undefined) templates('/submit/showResult/value', shown.value, [...ROOTS.formSubmit, RESULT_ROOT]);
    ((shown.fields as Json[] | undefined) ?? []).forEach((f, i) => column(`/submit/showResult/fields/${i}`, f));
  };
  const formily = (pointer: string, schema: unknown, roots: readonly string[]) => {
    if (Array.isArray(schema)) return schema.forEach((item, i) => formily(`${pointer}/${i}`, item, roots));
    // A Formily expression is in the one template language, evaluated without eval, over the
    // form's scope and Formily's own `$` names ($deps, $self, $form, $values …).
    if (typeof schema === 'string') {
      if (isTemplate(schema)) templates(pointer, schema, roots, { formily: true });
      return;
    }
    if (!schema || typeof schema !== 'object') return;
    for (const [key, item] of Object.entries(schema as Json)) {
      const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if ((key === 'x-component' || key === 'x-decorator') && typeof item === 'string') {
        // A list's filter names a control of the filter registry, a form a component of the form's (renderers' registries).
        componentProblems(at, key, item, schema as Json, pointer.startsWith('/filters/'), { add, operation, dictType });
      } else if (key === 'x-validator') {
        const entries = Array.isArray(item) ? item : [item];
        entries.forEach((entry, i) => {
          const name = typeof entry === 'string' ? entry : (entry as Json | null)?.name;
          if (typeof name === 'string' && !VALIDATOR_NAMES.includes(name)) add(Array.isArray(item) ? `${at}/${i}` : at, `未注册的校验器 ${name}${allowedHint(VALIDATOR_NAMES)}`);
        });
      } else formily(at, item, roots);
    }
  };
  const each = (key: string, fn: (pointer: string, item: Json) => void) =>
    ((page[key] as Json[] | undefined) ?? []).forEach((item, i) => fn(`/${key}/${i}`, item));
  // What a page of its kind names (renderers/kinds/<kind>.ts).
  pageKindModule(page.kind)?.references(page, {
    add,
    operation,
    templates,
    column,
    action,
    permission,
    invalidates,
    formily,
    submitResult,
    each,
    pageExists: (ref) => context.pages.has(ref),
    widgetTypes: widgetTypes(),
  });
  // A template nowhere the renderer resolves one would be shown or sent as it is written.
  const stray = (pointer: string, value: unknown): void => {
    if (covered.some((at) => pointer === at || pointer.startsWith(`${at}/`))) return;
    if (Array.isArray(value)) return value.forEach((item, i) => stray(`${pointer}/${i}`, item));
    if (value && typeof value === 'object') return Object.entries(value).forEach(([key, item]) => stray(`${pointer}/${escapePointer(key)}`, item));
    if (isTemplate(value)) add(pointer, `模板 ${value} 在此处不会被解析：会原样显示或发送`);
  };
  stray('', page);
}

/**
 * Every page file as the console composes it (renderers/schema/compose.ts): a `$ref` that names
 * nothing, a parameter or a column filter that does not compose, then each composed page, once per
 * combination of its parameters (a problem of one combination says which).
 */
export function checkPages(context: CheckContext): Problem[] {
  const read = schemaFileReader(context.root);
  return listJson(context.pagesDir).flatMap((path) => {
    const file = relative(context.root, path);
    const file_ = readJsonFile(context.root, file);
    if (!file_.ok) return [file_.problem];
    const source = file_.value;
    const view = relative(context.pagesDir, path).replace(/\.json$/, '');
    const seen = new Set<string>();
    return pageVariants(view, source).flatMap((ref) => {
      const { params } = parseViewRef(ref);
      const { value, problems } = composeFile(source, file, params, read);
      const named = Object.keys(params).length ? `（${ref.slice(view.length + 1)}）` : '';
      return [...problems, ...checkPage(file, value, context).map((problem) => ({ ...problem, message: `${problem.message}${named}` }))].filter((problem) => {
        const key = `${problem.file} ${problem.pointer} ${problem.message.replace(named, '')}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    });
  });
}

/** Page schemas nothing opens: no menu entry or layout route names them, no page opens or embeds them. */
export function checkReachable(context: CheckContext): Problem[] {
  const opened = new Set<string>();
  // Fragments too: an action taken from schemas/fragments opens its page from every page using it.
  for (const path of [...listJson(context.pagesDir), ...listJson(join(context.root, 'schemas/fragments'))]) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    for (const match of text.matchAll(/"page"\s*:\s*"([^"]+)"/g)) opened.add(parseViewRef(match[1]).view);
  }
  const reached = new Set([...context.views].map((view) => parseViewRef(view).view));
  return [...new Set([...context.pages].map((ref) => parseViewRef(ref).view))]
    .filter((view) => !reached.has(view) && !opened.has(view))
    .sort()
    .map((view) => ({
      file: relative(context.root, join(context.pagesDir, `${view}.json`)),
      pointer: '/',
      message: '页面没有入口：没有菜单项打开它（详情页要有一个 "shown": false 的隐藏菜单项），也没有页面用 openForm 或 page 引用它',
    }));
}

/** Catalogued operations the reference server has no handler for (the console would get 501). */
export async function checkHandlers(context: CheckContext): Promise<Problem[]> {
  const { OPERATIONS } = await import('../server/operations/index');
  const handled = new Set(OPERATIONS.map((operation) => operation.name));
  return Object.keys(context.operations)
    .filter((name) => !handled.has(name))
    .map((name) => ({ file: 'schemas/operations.json', pointer: `/${name}`, message: `接口操作 ${name} 在参考服务端没有实现（调用得到 501）：在 server/operations 中定义它` }));
}

export function formatProblem(problem: Problem): string {
  return `${problem.file} ${problem.pointer || '/'} ${problem.message}`;
}

/** Every check; each part runs whatever another finds or however it fails (checkFiles.ts's guarded). */
export async function checkAll(root = projectRoot, pagesDir?: string): Promise<Problem[]> {
  const data = await guarded('数据文件检查', 'schemas/', () => checkDataFiles(root));
  const context = loadContext(root, pagesDir);
  const parts: Array<[string, string, () => Problem[] | Promise<Problem[]>]> = [
    ['页面模式生成检查', 'schemas/page.schema.json', () => checkPageSchemaFile(root)],
    ['菜单检查', 'schemas/menus.json', () => checkMenus(context)],
    ['页面模式检查', 'schemas/pages', () => checkPages(context)],
    ['页面入口检查', 'schemas/pages', () => checkReachable(context)],
    ['按钮权限检查', 'schemas/pages', () => checkButtonPermissions(context)],
    ['实体与名称检查', 'schemas/entities', () => checkIssue25(root)],
    ['接口契约检查', 'schemas/contracts.json', () => checkContracts(root, context.pagesDir)],
    ['参考服务端检查', 'server/operations', () => checkHandlers(context)],
    ['演示数据的字典检查', 'server/seed', () => checkServerSeeds(root)],
    ['扩展注册检查', 'src/renderer', () => consoleClashes()],
  ];
  const results = await Promise.all(parts.map(([part, file, run]) => guarded(part, file, run)));
  return [...data, ...results.flat()];
}

/** The reuse figures of the hand-written schema files (scripts/schemaReuse.ts defines the measure). */
export function reuseSummary(root = projectRoot): string {
  const files = ['schemas/pages', 'schemas/fragments'].flatMap((dir) => listJson(join(root, dir)));
  return formatReuse(reuseFigures(files.sort().map((path) => ({ file: relative(root, path), text: readFileSync(path, 'utf8') }))));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = await checkAll();
  console.log(reuseSummary());
  for (const problem of problems) console.error(formatProblem(problem));
  if (problems.length) {
    console.error(`共 ${problems.length} 个问题`);
    process.exit(1);
  }
  console.log('schemas/ 检查通过：数据文件与页面模式');
}
