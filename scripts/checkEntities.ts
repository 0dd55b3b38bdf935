// The checks of issue 25 that `npm run check` runs besides scripts/check.ts's:
// - entity definitions (schemas/entities): the file against schemas/entity.schema.json and what the
//   server refuses to start with (server/entities/definition.ts reads them: dictionaries, patterns,
//   states, seed rows), then what only the console side knows: the validator is one the form has,
//   a pattern has the message the form shows, the default sort is a sortable field, the seed rows
//   pass the named validators, and every operation the entity serves is catalogued with its kind
//   (the write operations and export `"button": true`, as the server checks the button);
// - pages naming an entity: the filters a column derives are parameters the entity's page takes;
// - menus: a record's detail page has a hidden entry (`"shown": false`);
// - schemas/names.schema.json (the names editors complete, scripts/metaSchema.ts) is up to date.
// Each part runs whatever another finds, so a structural problem hides no semantic one.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { ENTITY_OPERATIONS, type EntityDefinition } from '../renderers/schema/entity';
import { NAMED_VALIDATORS, VALIDATOR_NAMES } from '../src/validation/named';
import { readEntities } from '../server/entities/definition';
import type { Problem } from './check';
import { NAMES_SCHEMA_FILE, namesSchemaText } from './metaSchema';
import { listJson } from './pageSources';
import { relaxedNamesSchema } from './relaxedNames';
import { readJsonFile } from './checkFiles';
import { dictionaryValues, seedDictionaryProblems } from './checkSeeds';

export { relaxedNamesSchema };

const projectRoot = new URL('..', import.meta.url).pathname;
type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => Boolean(value) && typeof value === 'object' && !Array.isArray(value);


function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The entity files under `root`: reference (`supply/supplier`) → file and content. */
function entityFiles(root: string): Array<{ ref: string; file: string; value: unknown }> {
  const dir = join(root, 'schemas/entities');
  return listJson(dir).map((path) => ({ ref: relative(dir, path).split(sep).join('/').replace(/\.json$/, ''), file: relative(root, path).split(sep).join('/'), value: readJson(path) }));
}

const RECORD_SORTS = ['createTime', 'updateTime', 'id'];
const KIND: Record<string, string> = { page: 'page', detail: 'call', insert: 'call', modify: 'call', delete: 'call', export: 'blob' };
const BUTTON = new Set(['insert', 'modify', 'delete', 'export']);

/** What the console side knows of one entity file (the server's reading is checked apart). */
function consoleProblems(file: string, entity: Json, operations: Record<string, Json>): Problem[] {
  const problems: Problem[] = [];
  const add = (pointer: string, message: string) => problems.push({ file, pointer, message });
  const fields = isObject(entity.fields) ? (entity.fields as EntityDefinition['fields']) : {};
  for (const [name, field] of Object.entries(fields)) {
    if (!isObject(field)) continue;
    if (typeof field.validator === 'string' && !VALIDATOR_NAMES.includes(field.validator)) add(`/fields/${name}/validator`, `未注册的校验器 ${field.validator}：控制台的表单没有它（src/validation/named.ts）`);
    if (typeof field.pattern === 'string' && !field.message) add(`/fields/${name}/pattern`, `写了 pattern 的字段要写 message：表单与服务端都以它提示（如 请输入 2 至 32 位字母、数字或 -）`);
  }
  const sort = isObject(entity.defaultSort) ? entity.defaultSort.field : undefined;
  if (typeof sort === 'string' && fields[sort] && !fields[sort].sortable) add('/defaultSort/field', `默认排序字段 ${sort} 不可排序：在字段上写 "sortable": true`);
  if (typeof sort === 'string' && !fields[sort] && !RECORD_SORTS.includes(sort)) add('/defaultSort/field', `默认排序字段 ${sort} 不是实体的字段（也不是 ${RECORD_SORTS.join('、')}）`);
  (Array.isArray(entity.seed) ? entity.seed : []).forEach((row: unknown, index) => {
    if (!isObject(row)) return;
    for (const [name, value] of Object.entries(row)) {
      const validator = fields[name]?.validator;
      const named = validator ? NAMED_VALIDATORS[validator] : undefined;
      const message = named?.(value, row);
      if (message) add(`/seed/${index}/${name}`, `演示数据不符合 ${validator}：${message}`);
    }
  });
  if (typeof entity.name !== 'string') return problems;
  const served = Array.isArray(entity.operations) ? (entity.operations as string[]) : [...ENTITY_OPERATIONS];
  const transitions = isObject(entity.states) && isObject(entity.states.transitions) ? Object.keys(entity.states.transitions) : [];
  for (const verb of [...served, ...transitions]) {
    const name = `${entity.name}.${verb}`;
    const entry = operations[name];
    const kind = KIND[verb] ?? 'call';
    const button = BUTTON.has(verb) || !KIND[verb];
    if (!entry) add('/name', `实体提供的接口操作 ${name} 未在 schemas/operations.json 中登记（控制台与菜单按钮按名称引用它）`);
    else if (entry.kind !== kind) add('/name', `接口操作 ${name} 在 schemas/operations.json 中的类型是 ${String(entry.kind)}，实体的 ${verb} 是 ${kind}`);
    else if (button && entry.button !== true) add('/name', `接口操作 ${name} 改动数据（或导出），在 schemas/operations.json 中要写 "button": true，服务端才核对按钮权限`);
  }
  return problems;
}

/** A list page naming an entity: a filter its columns derive is a parameter the entity's page takes. */
function pageProblems(root: string, entities: Map<string, Json>): Problem[] {
  const problems: Problem[] = [];
  for (const path of listJson(join(root, 'schemas/pages'))) {
    const page = readJson(path);
    if (!isObject(page) || typeof page.entity !== 'string') continue;
    const file = relative(root, path).split(sep).join('/');
    const entity = entities.get(page.entity);
    if (!entity) continue; // composing the page says the entity does not exist
    const fields = (isObject(entity.fields) ? entity.fields : {}) as EntityDefinition['fields'];
    if (page.kind !== 'list') continue;
    (Array.isArray(page.columns) ? page.columns : []).forEach((column: unknown, i) => {
      if (!isObject(column) || column.search === undefined || column.search === false || typeof column.field !== 'string') return;
      const field = fields[column.field];
      if (!field?.filter) problems.push({ file, pointer: `/columns/${i}/search`, message: `列 ${column.field} 推出的筛选参数不是实体 ${page.entity} 的筛选字段：在实体字段上写 "filter": true，否则服务端拒绝这个参数` });
    });
    const filters = isObject(page.filters) && isObject(page.filters.properties) ? page.filters.properties : {};
    if ('keyword' in filters && !Object.values(fields).some((field) => field.keyword))
      problems.push({ file, pointer: '/filters/properties/keyword', message: `实体 ${page.entity} 没有关键字字段（"keyword": true）：服务端拒绝 keyword 参数` });
  }
  return problems;
}

interface MenuEntry {
  view?: string;
  shown?: boolean;
  children?: MenuEntry[];
}

/**
 * A record's detail page (its load reads `params`, the record's id) has a hidden menu entry
 * (`"shown": false`): shown in the menu it would open with no record. A detail page with no entry
 * at all is named by check.ts (页面没有入口).
 */
export function checkDetailRoutes(root = projectRoot): Problem[] {
  const problems: Problem[] = [];
  const tree = readJson(join(root, 'schemas/menus.json'));
  if (!isObject(tree) || !Array.isArray(tree.menus)) return problems;
  const recordDetail = (view: string): boolean => {
    const page = readJson(join(root, 'schemas/pages', `${view.split('?')[0]}.json`));
    return isObject(page) && page.kind === 'detail' && isObject(page.load) && /\{\{\s*params\./.test(JSON.stringify(page.load.param ?? {}));
  };
  const walk = (items: MenuEntry[], pointer: string) =>
    items.forEach((entry, index) => {
      const at = `${pointer}/${index}`;
      if (entry.view && entry.shown !== false && recordDetail(entry.view))
        problems.push({ file: 'schemas/menus.json', pointer: `${at}/shown`, message: `${entry.view} 是记录的详情页（加载参数读 params）：它的菜单项要写 "shown": false，由列表带着记录编号打开，菜单中不显示` });
      walk(entry.children ?? [], `${at}/children`);
    });
  walk(tree.menus as MenuEntry[], '/menus');
  return problems;
}

/** Every entity file: the server's reading (schema and meaning), then the console's. */
export function checkEntityFiles(root = projectRoot): Problem[] {
  const operations = (readJson(join(root, 'schemas/operations.json')) ?? {}) as Record<string, Json>;
  const dictionaries = dictionaryValues(root);
  const files = entityFiles(root);
  const problems: Problem[] = [];
  if (files.length && !existsSync(join(root, 'schemas/entity.schema.json'))) problems.push({ file: 'schemas/entity.schema.json', pointer: '/', message: '缺少实体定义的 JSON Schema' });
  else if (files.length) {
    // A file that is not JSON is told here with its line and column, not by the server's reading.
    const broken = new Map(files.flatMap(({ file }) => {
      const read = readJsonFile(root, file);
      return read.ok ? [] : [[file, read.problem] as const];
    }));
    problems.push(...broken.values());
    problems.push(
      // The server names files from its own project: the same as `root`, or a copy's.
      ...readEntities(join(root, 'schemas/entities'), join(root, 'schemas/entity.schema.json'), join(root, 'schemas/dictionaries.json'))
        .problems.map((problem) => ({ ...problem, file: relative(root, resolve(projectRoot, problem.file)).split(sep).join('/') }))
        .filter((problem) => !broken.has(problem.file)),
    );
  }
  const entities = new Map<string, Json>();
  for (const { ref, file, value } of files) {
    if (!isObject(value)) continue; // the reading above names a file that is not JSON
    entities.set(ref, value);
    try {
      problems.push(...consoleProblems(file, value, operations), ...seedDictionaryProblems(file, value, dictionaries));
    } catch {
      // The structural problems say what is wrong.
    }
  }
  return [...problems, ...pageProblems(root, entities)];
}

/** schemas/names.schema.json says the names schemas/ has now (editors complete from it). */
export function checkNamesSchema(root = projectRoot): Problem[] {
  const path = join(root, NAMES_SCHEMA_FILE);
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  let expected: string;
  try {
    expected = namesSchemaText(root);
  } catch {
    return []; // a data file it is made of is broken: checkDataFiles says which and where
  }
  if (current === expected) return [];
  return [{ file: NAMES_SCHEMA_FILE, pointer: '/', message: `${current ? '已过期' : '不存在'}：编辑器补全的接口操作、权限、字典、页面、路由或实体与 schemas/ 不一致，运行 npm run schemas 重新生成` }];
}

/** All of this module's checks. */
export function checkIssue25(root = projectRoot): Problem[] {
  return [...checkEntityFiles(root), ...checkDetailRoutes(root), ...checkNamesSchema(root)];
}
