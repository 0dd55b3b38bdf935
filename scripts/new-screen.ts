// `npm run new:screen -- <area>/<entity> --title 供应商管理 --fields "code:code!,name:text!,contact,phone:phone,status:dict(supplier_status)"
//   [--dict supplier_status=active:合作中,paused:暂停合作] [--roles PLATFORM_ADMIN,PLATFORM_OPERATOR] [--write-roles PLATFORM_ADMIN]
//   [--group platform | --parent <menu code>] [--url /supply/supplier] [--noun 供应商] [--scope platform|tenant|organization] [--seed 3] [--no-contracts]`
// or `npm run new:screen -- --from <description>.json` (the same keys, scripts/screenGenerator.ts):
// writes a working screen — the entity definition the server serves it from (no server code), the
// list, form and detail page schemas, the catalogue entries, the menu entries with their buttons
// and hidden detail route, and new dictionaries — then checks them as `npm run check` does and
// takes everything back when anything is wrong.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { checkEntityFiles } from './checkEntities';
import { checkDataFiles, checkMenus, checkPages, checkReachable, formatProblem, loadContext, type Problem } from './check';
import { DescriptionError, generateScreen, withMenuIcons, type MenuEntry, type ScreenDescription, type ScreenFiles } from './screenGenerator';
import { GENERIC_MENU_ICON, MENU_ICONS } from '../src/frame/menuIconSet';
import { writeNamesSchema } from './metaSchema';

const root = new URL('..', import.meta.url).pathname;

const USAGE = `用法：npm run new:screen -- <area>/<entity> --title 标题 --fields "名称[:类型][!][=标题],…" [--dict 类型=值:标签,…] [--roles 角色,…] [--write-roles 角色,…] [--group 分组 | --parent 菜单编码] [--url 路由] [--noun 名词] [--scope platform|tenant|organization] [--seed 行数]
   或：npm run new:screen -- --from 描述文件.json
   菜单树（找 --parent 的编码）：npm run new:screen -- --menus`;

/**
 * The menu tree as `--menus` prints it, to find the code `--parent` takes: one entry a line,
 * indented by depth, its name, code and route; a folder (an entry with children, what `--parent`
 * may name) says so, a hidden route (a detail page) too.
 */
export function menuTreeText(tree: { menus: MenuEntry[] }): string {
  const lines: string[] = [];
  const walk = (items: readonly MenuEntry[], depth: number) => {
    for (const item of items) {
      const what = item.children ? '目录，可作 --parent' : item.shown === false ? `${item.url ?? ''}（隐藏）` : (item.url ?? '');
      lines.push(`${'  '.repeat(depth)}${item.name}  ${item.code}  ${what}`.trimEnd());
      if (item.children) walk(item.children, depth + 1);
    }
  };
  walk(tree.menus, 0);
  return lines.join('\n');
}

/** What to do once a screen is written: see it, and run its server suites alone. */
export function nextSteps(operationPrefix: string): string {
  const suites = ['fuzz-1', 'fuzz-2', 'roles-matrix', 'isolation', 'nul-input', 'xss', 'entities'].map((name) => `tests/server/${name}.test.ts`).join(' ');
  return [
    '看到它：npm run dev 时页面随保存即时更新；npm start 启动时发现页面模式有变会重新构建控制台；生产环境运行 npm run build 后重新部署 dist/。',
    '服务端：重启后新表、菜单、按钮与字典进入已有数据库；npm run check 检查全部。',
    `只跑新屏幕的服务端测试：CATALOGUE_FOCUS=${operationPrefix} npx vitest run --project server ${suites}`,
  ].join('\n');
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}
const list = (text: string | undefined) => text?.split(',').map((s) => s.trim()).filter(Boolean);

export function describe(args: string[], cwd = process.cwd()): ScreenDescription {
  const from = option(args, 'from');
  const base: Partial<ScreenDescription> = from ? (JSON.parse(readFileSync(resolve(cwd, from), 'utf8')) as ScreenDescription) : {};
  const positional = args.find((arg, i) => !arg.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
  const dicts = { ...base.dicts };
  args.forEach((arg, i) => {
    if (arg !== '--dict') return;
    const value = args[i + 1] ?? '';
    const at = value.indexOf('=');
    if (at <= 0) throw new DescriptionError(`--dict 的写法是 类型=值:标签,…，而不是 ${value}`);
    dicts[value.slice(0, at)] = value.slice(at + 1);
  });
  const seed = option(args, 'seed');
  const description: ScreenDescription = {
    ...base,
    entity: positional ?? base.entity ?? '',
    title: option(args, 'title') ?? base.title ?? '',
    fields: option(args, 'fields') ?? base.fields ?? '',
    dicts,
  } as ScreenDescription;
  const set = <K extends keyof ScreenDescription>(key: K, value: ScreenDescription[K] | undefined) => {
    if (value !== undefined) description[key] = value;
  };
  set('noun', option(args, 'noun'));
  set('roles', list(option(args, 'roles')));
  set('writeRoles', list(option(args, 'write-roles')));
  set('group', option(args, 'group'));
  set('parent', option(args, 'parent'));
  set('url', option(args, 'url'));
  set('icon', option(args, 'icon'));
  set('scope', option(args, 'scope') as ScreenDescription['scope']);
  if (seed !== undefined) {
    if (!/^\d{1,2}$/.test(seed)) throw new DescriptionError('--seed 是 0 至 99 的行数');
    description.seed = Number(seed);
  }
  return description;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as unknown;

/** The operation catalogue with the entries added, in its one-line-per-operation layout. */
export function withOperations(text: string, operations: ScreenFiles['operations']): string {
  const lines = Object.entries(operations).map(([name, entry]) => `  ${JSON.stringify(name)}: ${JSON.stringify(entry).replace(/^\{/, '{ ').replace(/\}$/, ' }').replace(/,"/g, ', "').replace(/":/g, '": ')}`);
  return text.replace(/\s*\}\s*$/, `,\n${lines.join(',\n')}\n}\n`);
}

/** The dictionaries file with the dictionaries added, one line each. */
export function withDictionaries(text: string, dictionaries: ScreenFiles['dictionaries']): string {
  if (!dictionaries.length) return text;
  const lines = dictionaries.map((d) => `    { "dictType": ${JSON.stringify(d.dictType)}, "dictName": ${JSON.stringify(d.dictName)}, "items": [${d.items.map((i) => `{ "value": ${JSON.stringify(i.value)}, "label": ${JSON.stringify(i.label)} }`).join(', ')}] }`);
  return text.replace(/\s*\]\s*\}\s*$/, `,\n${lines.join(',\n')}\n  ]\n}\n`);
}

/** The menu tree with the entries added: at the end of the top level, or of the named folder. */
export function withMenus(tree: { menus: MenuEntry[] }, entries: MenuEntry[], parent?: string): { menus: MenuEntry[] } {
  if (!parent) return { menus: [...tree.menus, ...entries] };
  let found = false;
  const walk = (items: MenuEntry[]): MenuEntry[] =>
    items.map((item) => {
      if (item.code === parent) {
        if (!item.children) throw new DescriptionError(`菜单 ${parent} 不是目录（没有 children），不能放入子菜单`);
        found = true;
        return { ...item, children: [...item.children, ...entries] };
      }
      return item.children ? { ...item, children: walk(item.children) } : item;
    });
  const menus = walk(tree.menus);
  if (!found) throw new DescriptionError(`没有编码为 ${parent} 的菜单目录`);
  return { menus };
}

/** The icons of the entries the new ones go beside: the named folder's children, or the top level. */
export function siblingIcons(tree: { menus: MenuEntry[] }, parent?: string): string[] {
  const find = (items: MenuEntry[]): MenuEntry[] | undefined => {
    for (const item of items) {
      if (item.code === parent) return item.children ?? [];
      const below = item.children && find(item.children);
      if (below) return below;
    }
    return undefined;
  };
  const siblings = parent ? (find(tree.menus) ?? []) : tree.menus;
  return siblings.flatMap((entry) => (entry.icon ? [entry.icon] : []));
}

/** What the screen would clash with: an existing file, operation, menu code or route, dictionary. */
function clashes(files: ScreenFiles, at: string): string[] {
  const found: string[] = [];
  const operations = readJson(join(at, 'schemas/operations.json')) as Record<string, unknown>;
  for (const name of Object.keys(files.operations)) if (operations[name]) found.push(`接口操作 ${name} 已在 schemas/operations.json 中`);
  const entityPath = `schemas/entities/${files.entityRef}.json`;
  if (existsSync(join(at, entityPath))) found.push(`${entityPath} 已存在`);
  for (const view of Object.keys(files.pages)) if (existsSync(join(at, `schemas/pages/${view}.json`))) found.push(`schemas/pages/${view}.json 已存在`);
  const codes = new Set<string>();
  const urls = new Set<string>();
  const walk = (items: MenuEntry[]) =>
    items.forEach((item) => {
      codes.add(item.code);
      if (item.url) urls.add(item.url);
      walk(item.children ?? []);
    });
  walk((readJson(join(at, 'schemas/menus.json')) as { menus: MenuEntry[] }).menus);
  for (const entry of files.menus) {
    if (codes.has(entry.code)) found.push(`菜单编码 ${entry.code} 已存在`);
    if (entry.url && urls.has(entry.url)) found.push(`路由 ${entry.url} 已被其他菜单使用（用 --url 换一个）`);
  }
  const dictTypes = new Set((readJson(join(at, 'schemas/dictionaries.json')) as { dictionaries: Array<{ dictType: string }> }).dictionaries.map((d) => d.dictType));
  for (const d of files.dictionaries) if (dictTypes.has(d.dictType)) found.push(`字典 ${d.dictType} 已存在：不要在 --dict 中再写它`);
  for (const field of Object.values(files.entity.fields)) if (field.dictType && !dictTypes.has(field.dictType) && !files.dictionaries.some((d) => d.dictType === field.dictType)) found.push(`字典 ${field.dictType} 不存在：用 --dict ${field.dictType}=值:标签,… 写出它的项`);
  return found;
}

/** Writes the screen under `at`, checks it, and takes it back when the check finds a problem. */
export function writeScreen(generated: ScreenFiles, at = root): { written: string[]; problems: Problem[] } {
  const tree = readJson(join(at, 'schemas/menus.json')) as { menus: MenuEntry[] };
  // Each new entry an icon of its own among its siblings (unless the description named one).
  const files = { ...generated, menus: withMenuIcons(generated.menus, siblingIcons(tree, generated.parent), Object.keys(MENU_ICONS), GENERIC_MENU_ICON) };
  const found = clashes(files, at);
  if (found.length) throw new DescriptionError(found.join('\n'));
  const shared = ['schemas/operations.json', 'schemas/menus.json', 'schemas/dictionaries.json'];
  const before = new Map(shared.map((file) => [file, readFileSync(join(at, file), 'utf8')]));
  const created = [`schemas/entities/${files.entityRef}.json`, ...Object.keys(files.pages).map((view) => `schemas/pages/${view}.json`)];
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(at, file)), { recursive: true });
    writeFileSync(join(at, file), text);
  };
  write(created[0], `${JSON.stringify(files.entity, null, 2)}\n`);
  Object.entries(files.pages).forEach(([view, page]) => write(`schemas/pages/${view}.json`, `${JSON.stringify(page, null, 2)}\n`));
  write('schemas/operations.json', withOperations(before.get('schemas/operations.json') ?? '', files.operations));
  write('schemas/dictionaries.json', withDictionaries(before.get('schemas/dictionaries.json') ?? '', files.dictionaries));
  write('schemas/menus.json', `${JSON.stringify(withMenus(readJson(join(at, 'schemas/menus.json')) as { menus: MenuEntry[] }, files.menus, files.parent), null, 2)}\n`);
  const context = loadContext(at);
  const mine = (problem: Problem) => shared.includes(problem.file) || created.includes(problem.file);
  const problems = [...checkDataFiles(at), ...checkMenus(context), ...checkPages(context), ...checkReachable(context), ...checkEntityFiles(at)].filter(mine);
  if (problems.length) {
    for (const file of created) rmSync(join(at, file), { force: true });
    for (const [file, text] of before) writeFileSync(join(at, file), text);
    return { written: [], problems };
  }
  writeNamesSchema(at);
  return { written: [...created, ...shared.filter((file) => readFileSync(join(at, file), 'utf8') !== before.get(file)), 'schemas/names.schema.json'], problems: [] };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(root, 'scripts/new-screen.ts')) {
  const args = process.argv.slice(2);
  if (args.includes('--menus')) {
    console.log(menuTreeText(readJson(join(root, 'schemas/menus.json')) as { menus: MenuEntry[] }));
    process.exit(0);
  }
  if (!args.length || args.includes('--help')) {
    console.log(USAGE);
    process.exit(args.length ? 0 : 2);
  }
  try {
    const files = generateScreen(describe(args));
    const { written, problems } = writeScreen(files);
    if (problems.length) {
      for (const problem of problems) console.error(formatProblem(problem));
      console.error(`共 ${problems.length} 个问题，未写入任何文件`);
      process.exit(1);
    }
    console.log(`已生成 ${files.entity.title}（${files.entityRef}）：`);
    for (const file of written) console.log(`  ${relative(root, join(root, file))}`);
    console.log(`菜单 ${files.routes.list}（详情 ${files.routes.detail}，隐藏），接口操作 ${Object.keys(files.operations).join('、')}。`);
    // The contracts of the new operations (schemas/contracts.json, src/api/contracts.gen.ts), as
    // `npm run contracts` writes them: the server serves them from the entity definition.
    if (!args.includes('--no-contracts')) {
      const contracts = spawnSync(join(root, 'node_modules/.bin/tsx'), ['scripts/contracts.ts'], { cwd: root, stdio: 'inherit' });
      if (contracts.status !== 0) console.error('npm run contracts 失败：修好后再运行它');
    }
    console.log(nextSteps(`${files.entityRef.replace('/', '.')}.`));
  } catch (error) {
    if (!(error instanceof DescriptionError || error instanceof SyntaxError)) throw error;
    console.error(error.message);
    console.error(USAGE);
    process.exit(2);
  }
}
