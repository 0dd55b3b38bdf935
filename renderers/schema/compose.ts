// Reuse in the schema language (issue 20): what a page schema file may say once and have repeated
// for it. A file is *composed* into the page the renderers see, in three steps:
//
// 1. `$ref` (at build time, scripts/pageComposePlugin.ts; `npm run check` and the tests the same
//    way): `{ "$ref": "../../fragments/card.json#/columns/iccid" }` stands for the value at that
//    JSON pointer of that file, the path relative to the file that holds the `$ref`. Properties
//    beside the `$ref` are laid over the referenced object (`{ "$ref": "…", "width": 120 }`); the
//    referenced properties stand where the `$ref` stands among them (so a form's fields keep their
//    order); a `$ref` item of an array whose target is an array is spread into it (a run of columns).
//    Fragments may refer to fragments.
// 2. Page parameters (when the page is opened): a view reference may carry parameters,
//    `feedback/list?feedbackType=app` (a menu's view file, an `openForm`'s page, a layout route's
//    view). The page declares each parameter with its values and, per value, named constants:
//    `"parameters": { "feedbackType": { "app": { "title": "APP反馈" }, "other": { … } } }`.
//    `{ "$param": "feedbackType" }` stands for the value given, `{ "$param": "title" }` for the
//    constant of that name; a constant that is `null` removes the property or item it stands in,
//    an array constant in an array is spread into it.
// 3. Column filters: a list column with `"search": true` derives its filter field from itself
//    (ProTable's way): a dict, tag or boolean column with a dictType → DictSelect of that
//    dictionary; datetime → a time range (DatePicker.RangePicker, showTime, timeRange); a text
//    column → Input. `search` may be an object laid over the derived field (`{ "title": "…" }`).
//    Derived fields come first, in column order, then the explicit `filters.properties`; or in
//    the order `filters.order` names.
// 4. The entity: a page naming `"entity": "<area>/<entity>"` takes its fields' titles, rules,
//    components and displays from schemas/entities/<area>/<entity>.json (renderers/schema/entity.ts),
//    after the parameters and before the column filters.
// All of them happen when the console is built (scripts/pageComposePlugin.ts: a page with parameters
// becomes each combination's page), and the same way in `npm run check`, the playground and the
// tests (scripts/pageSources.ts). Nothing of them is left for the renderers: `$ref`, `$param`,
// `parameters`, `search` and `filters.order` are gone from a composed page (`entity` stays, as a note).

export interface ComposeProblem {
  /** The file, from the project root (`schemas/pages/feedback/list.json`). */
  file: string;
  pointer: string;
  message: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => Boolean(value) && typeof value === 'object' && !Array.isArray(value);
const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

// ---------------------------------------------------------------------------------------------
// View references (renderers/schema/viewRef.ts: the console's part, without the composing)

export { formatViewRef, parseViewRef, type ViewRef } from './viewRef.ts';
import { formatViewRef } from './viewRef.ts';
import { applyEntityFields, entityFile, type EntityDefinition } from './entity.ts';

// ---------------------------------------------------------------------------------------------
// 1. $ref

/** Reads a schema file by its path from the project root; undefined when there is none. */
export type ReadSchemaFile = (file: string) => unknown;

/** `a/b/c.json` + `../d.json` → `a/d.json` (paths from the project root, `/`-separated). */
export function resolvePath(from: string, relativePath: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const part of relativePath.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

function atPointer(value: unknown, pointer: string): { found: true; value: unknown } | { found: false } {
  if (pointer === '' || pointer === '/') return { found: true, value };
  if (!pointer.startsWith('/')) return { found: false };
  let at = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at) && /^\d+$/.test(key) && Number(key) < at.length) at = at[Number(key)];
    else if (isObject(at) && Object.prototype.hasOwnProperty.call(at, key)) at = at[key];
    else return { found: false };
  }
  return { found: true, value: at };
}

export interface Resolved {
  value: unknown;
  problems: ComposeProblem[];
  /** The fragment files read (a build watches them). */
  files: string[];
}

/** Replaces every `$ref` in `value`, a value of `file`, by what it refers to. */
export function resolveRefs(value: unknown, file: string, read: ReadSchemaFile): Resolved {
  const problems: ComposeProblem[] = [];
  const files = new Set<string>();
  const fileCache = new Map<string, unknown>();
  const load = (path: string) => {
    if (!fileCache.has(path)) fileCache.set(path, read(path));
    return fileCache.get(path);
  };

  /** What `{ $ref }` at `pointer` of `inFile` refers to, resolved; undefined after a problem. */
  const target = (ref: unknown, inFile: string, pointer: string, stack: readonly string[]): { ok: true; value: unknown } | { ok: false } => {
    const fail = (message: string) => {
      problems.push({ file: inFile, pointer: `${pointer}/$ref`, message });
      return { ok: false as const };
    };
    if (typeof ref !== 'string') return fail('$ref 必须是字符串：片段文件的相对路径加 #/JSON 指针');
    const hash = ref.indexOf('#');
    const pathPart = hash < 0 ? ref : ref.slice(0, hash);
    const fragmentPointer = hash < 0 ? '' : decodeURI(ref.slice(hash + 1));
    const targetFile = pathPart ? resolvePath(inFile, pathPart) : inFile;
    const key = `${targetFile}#${fragmentPointer}`;
    if (stack.includes(key)) return fail(`$ref ${ref} 循环引用：${[...stack, key].join(' → ')}`);
    let content: unknown;
    try {
      content = load(targetFile);
    } catch (error) {
      return fail(`$ref ${ref} 指向的 ${targetFile} 不是合法的 JSON：${(error as Error).message}`);
    }
    if (content === undefined) return fail(`$ref ${ref} 指向的文件 ${targetFile} 不存在`);
    if (targetFile !== inFile) files.add(targetFile);
    const found = atPointer(content, fragmentPointer);
    if (!found.found) return fail(`$ref ${ref} 指向的 ${targetFile} 中没有 ${fragmentPointer || '/'}`);
    return { ok: true, value: walk(found.value, targetFile, fragmentPointer || '', [...stack, key]) };
  };

  const walk = (node: unknown, inFile: string, pointer: string, stack: readonly string[]): unknown => {
    if (Array.isArray(node)) {
      const out: unknown[] = [];
      node.forEach((item, i) => {
        const at = `${pointer}/${i}`;
        if (isObject(item) && '$ref' in item && Object.keys(item).length === 1) {
          const got = target(item.$ref, inFile, at, stack);
          if (!got.ok) return;
          if (Array.isArray(got.value)) out.push(...(got.value as unknown[]));
          else out.push(got.value);
        } else out.push(walk(item, inFile, at, stack));
      });
      return out;
    }
    if (!isObject(node)) return node;
    if ('$ref' in node) {
      const { $ref: ref, ...siblings } = node;
      const got = target(ref, inFile, pointer, stack);
      if (!got.ok) return undefined;
      if (Object.keys(siblings).length === 0) return got.value;
      if (!isObject(got.value)) {
        problems.push({ file: inFile, pointer: `${pointer}/$ref`, message: `$ref ${String(ref)} 指向的不是对象，旁边不能再写属性` });
        return undefined;
      }
      // The referenced object's properties stand where the $ref stands among its siblings (a
      // Formily `properties` map keeps its order); a sibling it also has replaces it in place.
      const laid = walk(siblings, inFile, pointer, stack) as Json;
      const out: Json = {};
      for (const key of Object.keys(node)) {
        if (key === '$ref') for (const [name, value] of Object.entries(got.value)) out[name] = Object.prototype.hasOwnProperty.call(laid, name) ? laid[name] : value;
        else if (!Object.prototype.hasOwnProperty.call(got.value, key) && Object.prototype.hasOwnProperty.call(laid, key)) out[key] = laid[key];
      }
      return out;
    }
    const out: Json = {};
    for (const [key, item] of Object.entries(node)) {
      const resolved = walk(item, inFile, `${pointer}/${escape(key)}`, stack);
      if (resolved !== undefined) out[key] = resolved;
    }
    return out;
  };

  const resolved = walk(value, file, '', []);
  return { value: resolved, problems, files: [...files] };
}

// ---------------------------------------------------------------------------------------------
// 2. Page parameters

/** Every view reference of a page file: one per combination of its parameters' values. */
export function pageVariants(view: string, page: unknown): string[] {
  const parameters = isObject(page) && isObject(page.parameters) ? page.parameters : {};
  let combos: Array<Record<string, string>> = [{}];
  for (const [name, values] of Object.entries(parameters)) {
    const options = isObject(values) ? Object.keys(values) : [];
    combos = combos.flatMap((combo) => options.map((option) => ({ ...combo, [name]: option })));
  }
  return combos.map((combo) => formatViewRef(view, combo));
}

const REMOVE = Symbol('remove');

/** Gives `page` the parameters of its view reference and drops `parameters`. */
export function applyParams(page: unknown, params: Record<string, string>, file: string): { value: unknown; problems: ComposeProblem[] } {
  const problems: ComposeProblem[] = [];
  const add = (pointer: string, message: string) => problems.push({ file, pointer, message });
  if (!isObject(page)) return { value: page, problems };
  const { parameters: declared, ...rest } = page;
  const parameters = isObject(declared) ? declared : {};
  if (declared !== undefined && !isObject(declared)) add('/parameters', 'parameters 必须是对象：参数名 → 取值 → 常量');
  const scope = new Map<string, unknown>();
  for (const [name, values] of Object.entries(parameters)) {
    const options = isObject(values) ? values : {};
    const given = params[name];
    const names = Object.keys(options).join('、');
    if (given === undefined) add(`/parameters/${escape(name)}`, `打开页面时缺少参数 ${name}（可选：${names}），在视图引用中写出，如 ?${name}=${Object.keys(options)[0] ?? '…'}`);
    else if (!Object.prototype.hasOwnProperty.call(options, given)) add(`/parameters/${escape(name)}`, `参数 ${name} 的取值 ${given} 不在 ${names} 之中`);
    else {
      scope.set(name, given);
      const constants = options[given];
      if (isObject(constants)) for (const [constant, value] of Object.entries(constants)) if (!scope.has(constant)) scope.set(constant, value);
    }
  }
  for (const name of Object.keys(params)) if (!Object.prototype.hasOwnProperty.call(parameters, name)) add('/parameters', `页面没有参数 ${name}`);

  const walk = (node: unknown, pointer: string): unknown => {
    if (Array.isArray(node)) {
      const out: unknown[] = [];
      node.forEach((item, i) => {
        const value = walk(item, `${pointer}/${i}`);
        if (value === REMOVE) return;
        if (Array.isArray(value) && isObject(item) && '$param' in item) out.push(...(value as unknown[]));
        else out.push(value);
      });
      return out;
    }
    if (!isObject(node)) return node;
    if ('$param' in node) {
      const name = node.$param;
      if (typeof name !== 'string' || Object.keys(node).length !== 1) {
        add(pointer, '$param 只写参数或常量的名称：{ "$param": "名称" }');
        return REMOVE;
      }
      if (!scope.has(name)) {
        // Missing only because a parameter was not given: that problem is told already.
        if (Object.keys(parameters).every((p) => scope.has(p))) add(`${pointer}/$param`, `页面参数或常量 ${name} 未在 parameters 中为取值 ${Object.keys(parameters).map((p) => params[p]).join('、') || '（无参数）'} 声明`);
        return REMOVE;
      }
      const value = scope.get(name);
      return value === null ? REMOVE : value;
    }
    const out: Json = {};
    for (const [key, item] of Object.entries(node)) {
      const value = walk(item, `${pointer}/${escape(key)}`);
      if (value !== REMOVE) out[key] = value;
    }
    return out;
  };
  return { value: walk(rest, ''), problems };
}

// ---------------------------------------------------------------------------------------------
// 3. Column filters

/** The filter field a column derives (`search: true`), or why it cannot. */
export function columnFilter(column: Json): { field: Json } | { problem: string } {
  const title = column.title;
  const display = typeof column.display === 'string' ? column.display : 'text';
  const base = { 'x-decorator': 'FormItem' };
  let field: Json;
  if (typeof column.dictType === 'string' && ['dict', 'tag', 'boolean'].includes(display))
    field = { type: 'string', title, ...base, 'x-component': 'DictSelect', 'x-component-props': { dictType: column.dictType } };
  else if (display === 'datetime')
    field = { type: 'array', title, ...base, 'x-component': 'DatePicker.RangePicker', 'x-component-props': { showTime: true }, 'x-validator': 'timeRange' };
  else if (display === 'text' || display === 'phone') field = { type: 'string', title, ...base, 'x-component': 'Input' };
  else return { problem: `显示为 ${display} 的列推不出筛选字段（dict、tag、boolean 列要有 dictType）：在 filters 中写出这个字段` };
  const search = column.search;
  if (isObject(search)) {
    const props = isObject(search['x-component-props']) ? { ...(field['x-component-props'] as Json | undefined), ...search['x-component-props'] } : field['x-component-props'];
    field = { ...field, ...search, ...(props ? { 'x-component-props': props } : {}) };
  }
  return { field };
}

/** Derives the filters of the `search` columns of a list page and drops `search` and `filters.order`. */
export function deriveFilters(page: unknown, file: string): { value: unknown; problems: ComposeProblem[] } {
  const problems: ComposeProblem[] = [];
  if (!isObject(page) || !Array.isArray(page.columns)) return { value: page, problems };
  const derived: Array<[string, Json]> = [];
  const columns = page.columns.map((column: unknown, i) => {
    if (!isObject(column) || column.search === undefined) return column;
    const { search, ...plain } = column;
    if (search === false) return plain;
    if (search !== true && !isObject(search)) {
      problems.push({ file, pointer: `/columns/${i}/search`, message: 'search 是 true，或叠加到推出的筛选字段上的属性对象' });
      return plain;
    }
    const got = columnFilter(column);
    if ('problem' in got) problems.push({ file, pointer: `/columns/${i}/search`, message: got.problem });
    else derived.push([String(column.field), got.field]);
    return plain;
  });
  const filters = isObject(page.filters) ? page.filters : undefined;
  if (!derived.length && !(filters && 'order' in filters)) return { value: page, problems };
  const { order, ...filterRest } = filters ?? {};
  const explicit = isObject(filterRest.properties) ? filterRest.properties : {};
  const fields = new Map<string, unknown>();
  for (const [name, field] of derived) {
    if (Object.prototype.hasOwnProperty.call(explicit, name)) problems.push({ file, pointer: `/filters/properties/${escape(name)}`, message: `筛选字段 ${name} 已由列的 search 推出，不要再写` });
    fields.set(name, field);
  }
  for (const [name, field] of Object.entries(explicit)) if (!fields.has(name)) fields.set(name, field);
  let names = [...fields.keys()];
  if (order !== undefined) {
    const listed = Array.isArray(order) ? order.filter((name): name is string => typeof name === 'string') : [];
    const unknown = listed.filter((name) => !fields.has(name));
    const missing = names.filter((name) => !listed.includes(name));
    if (unknown.length) problems.push({ file, pointer: '/filters/order', message: `order 中的 ${unknown.join('、')} 不是筛选字段` });
    if (missing.length) problems.push({ file, pointer: '/filters/order', message: `order 缺少筛选字段 ${missing.join('、')}` });
    names = [...listed.filter((name) => fields.has(name)), ...missing];
  }
  const properties = Object.fromEntries(names.map((name) => [name, fields.get(name)]));
  return { value: { ...page, columns, filters: { type: 'object', ...filterRest, properties } }, problems };
}

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// 4. The entity (renderers/schema/entity.ts): a page naming `"entity": "<area>/<entity>"` gets its
//    fields' titles, rules, components and displays, before the column filters are derived.

/** A page with its entity's fields applied; a page without `entity`, or no reader, as it is. */
export function applyEntity(page: unknown, file: string, read?: ReadSchemaFile): { value: unknown; problems: ComposeProblem[] } {
  if (!isObject(page) || page.entity === undefined || !read) return { value: page, problems: [] };
  const fail = (message: string) => ({ value: page, problems: [{ file, pointer: '/entity', message }] });
  if (typeof page.entity !== 'string' || !/^[a-z][A-Za-z0-9]*(\/[a-z][A-Za-z0-9]*)+$/.test(page.entity)) return fail('entity 写实体文件的 <area>/<entity>，如 supply/supplier');
  let definition: unknown;
  try {
    definition = read(entityFile(page.entity));
  } catch (error) {
    return fail(`实体文件 ${entityFile(page.entity)} 不是合法的 JSON：${(error as Error).message}`);
  }
  if (!isObject(definition) || !isObject(definition.fields)) return fail(`实体 ${page.entity} 不存在（${entityFile(page.entity)}）`);
  const applied = applyEntityFields(page, definition as unknown as EntityDefinition);
  return { value: applied.value, problems: applied.problems.map((problem) => ({ file, ...problem })) };
}

/** Steps 2-4: a page file with its `$ref`s resolved → the page its view reference opens. */
export function composePage(source: unknown, params: Record<string, string>, file: string, read?: ReadSchemaFile): { value: unknown; problems: ComposeProblem[] } {
  const withParams = applyParams(source, params, file);
  const withEntity = applyEntity(withParams.value, file, read);
  const withFilters = deriveFilters(withEntity.value, file);
  return { value: withFilters.value, problems: [...withParams.problems, ...withEntity.problems, ...withFilters.problems] };
}

/** All three steps, for a reader of the files (npm run check, the tests). */
export function composeFile(source: unknown, file: string, params: Record<string, string>, read: ReadSchemaFile): { value: unknown; problems: ComposeProblem[] } {
  const resolved = resolveRefs(source, file, read);
  const composed = composePage(resolved.value, params, file, read);
  return { value: composed.value, problems: [...resolved.problems, ...composed.problems] };
}
