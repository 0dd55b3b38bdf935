// `npm run check`, the contracts part (issue 23): every field a page schema names must be one its
// operation really takes or returns, by schemas/contracts.json (generated from the server):
// a list's filters and base param, a call's param, a form's fields and params (what is submitted),
// and the columns, detail fields and dashboard fields (what is shown). An operation whose contract
// does not describe a side is not judged on that side. One problem a line: file, pointer, sentence.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { composeFile, pageVariants, parseViewRef } from '../renderers/schema/compose';
import { loadContracts, type ContractsFile, type JsonSchema } from '../server/contracts';
import { schemaFileReader } from './pageSources';
import { scopePaths } from '../renderers/form/expressions';
import { compile, TEMPLATE } from '../renderers/schema/template';

export interface ContractProblem {
  file: string;
  pointer: string;
  message: string;
}

type Json = Record<string, unknown>;

/** The names a schema's object admits, or null when it admits any name (or is not described). */
function namesOf(schema: unknown): Set<string> | null {
  if (!schema || typeof schema !== 'object') return null;
  const node = schema as JsonSchema;
  const branches = [node.anyOf, node.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (branches) {
    const names = new Set<string>();
    for (const branch of branches) {
      if ((branch as JsonSchema | null)?.type === 'null') continue;
      const found = namesOf(branch);
      if (!found) return null;
      found.forEach((name) => names.add(name));
    }
    return names;
  }
  const properties = node.properties as Record<string, unknown> | undefined;
  if (!properties || node.additionalProperties !== false) return null;
  return new Set(Object.keys(properties));
}

/** The schema of property `name` (across union branches); undefined when unknown. */
function propertyOf(schema: unknown, name: string): unknown {
  if (!schema || typeof schema !== 'object') return undefined;
  const node = schema as JsonSchema;
  const branches = [node.anyOf, node.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (branches) return branches.map((branch) => propertyOf(branch, name)).find((found) => found !== undefined);
  return (node.properties as Record<string, unknown> | undefined)?.[name];
}

/** The rows of an answer: an array's items, or a page's records. */
function rowsOf(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object') return undefined;
  const node = schema as JsonSchema;
  const branches = [node.anyOf, node.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (branches) {
    const found = branches.map(rowsOf).filter((rows) => rows !== undefined);
    return found.length ? { anyOf: found } : undefined;
  }
  if (node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'))) return node.items;
  const records = propertyOf(node, 'records') as JsonSchema | undefined;
  return records?.items;
}

/** Follows a dotted path (`a.b`); undefined past a part that is not described. */
function pathOf(schema: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, part) => (node === undefined ? undefined : propertyOf(node, part)), schema);
}

function listed(names: Set<string>): string {
  const all = [...names];
  return all.length > 12 ? `${all.slice(0, 12).join('、')} 等 ${all.length} 个` : all.join('、') || '无';
}

/**
 * A form's declared fields, as renderers/form/FormRenderer.tsx's declaredFields reads them: the
 * top-level properties, with those of `void` containers (layout) taken as their parent's.
 */
function formFields(schema: unknown, pointer: string): Array<[string, string]> {
  const properties = (schema as { properties?: Record<string, unknown> } | null)?.properties ?? {};
  return Object.entries(properties).flatMap(([name, child]): Array<[string, string]> => {
    const at = `${pointer}/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    return (child as { type?: string } | null)?.type === 'void' ? formFields(child, at) : [[name, at]];
  });
}

/** A schema with its `$ref`s to its own `$defs` (a tree) written out, a few levels deep. */
function expandRefs(schema: unknown, defs: Record<string, unknown>, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((item) => expandRefs(item, defs, depth));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as JsonSchema).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) return depth > 3 ? {} : expandRefs(defs[ref.slice('#/$defs/'.length)], defs, depth + 1);
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$defs').map(([key, value]) => [key, expandRefs(value, defs, depth)]));
}

export function checkPageContracts(file: string, page: Json, contracts: ContractsFile): ContractProblem[] {
  const problems: ContractProblem[] = [];
  const add = (pointer: string, message: string) => problems.push({ file, pointer, message });
  const contractOf = (name: unknown) => {
    const contract = typeof name === 'string' ? contracts.operations[name] : undefined;
    const defs = contract?.data?.$defs as Record<string, unknown> | undefined;
    return contract && defs ? { ...contract, data: expandRefs(contract.data, defs) as JsonSchema } : contract;
  };

  /** Each name must be a param field of `operation` (within `within`, a dotted param path). */
  const paramNames = (operation: unknown, entries: Array<[string, string]>, what: string, within = '') => {
    const contract = contractOf(operation);
    if (!contract?.param) return;
    const schema = within ? pathOf(contract.param, within) : contract.param;
    const names = namesOf(schema);
    if (!names) return;
    const taken = within ? `的参数 ${within} 接受的字段` : '接受的参数';
    for (const [name, pointer] of entries) {
      if (!names.has(name)) add(pointer, `${what} ${name} 不是接口操作 ${String(operation)} ${taken}（可用：${listed(names)}）`);
    }
  };
  const keysOf = (value: unknown, pointer: string): Array<[string, string]> =>
    value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).map((key) => [key, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`]) : [];

  /** Each field (a dotted path) must be one `schema` describes; `answer` names what it is. */
  const shownFields = (schema: unknown, entries: Array<[string, string]>, what: string, answer: string) => {
    for (const [field, pointer] of entries) {
      const parts = field.split('.');
      let node = schema;
      for (let i = 0; i < parts.length; i++) {
        const names = namesOf(node);
        if (!names) break;
        if (!names.has(parts[i])) {
          add(pointer, `${what} ${field} 不在${answer}中（有：${listed(names)}）`);
          break;
        }
        node = propertyOf(node, parts[i]);
      }
    }
  };
  /**
   * The `{{record.…}}` fields the templates in `value` read (any depth: a row action's param, query,
   * conditions, a chain's steps, a column's link) must be fields of the record `rows` describes.
   */
  const recordTemplates = (value: unknown, pointer: string, rows: unknown, answer: string): void => {
    if (Array.isArray(value)) return value.forEach((item, i) => recordTemplates(item, `${pointer}/${i}`, rows, answer));
    if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) recordTemplates(item, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, rows, answer);
      return;
    }
    if (typeof value !== 'string' || !value.includes('{{') || rows === undefined) return;
    for (const match of value.matchAll(TEMPLATE)) {
      let paths: string[];
      try {
        paths = scopePaths(compile(match[1]).expression);
      } catch {
        continue; // check.ts names a template that does not parse
      }
      for (const path of paths) {
        if (!path.startsWith('record.')) continue;
        const parts = path.split('.').slice(1);
        let node: unknown = rows;
        for (let i = 0; i < parts.length; i++) {
          const names = namesOf(node);
          if (!names) break;
          if (!names.has(parts[i])) {
            add(pointer, `模板 ${value} 读取的 record.${parts.slice(0, i + 1).join('.')} 不在${answer}中（有：${listed(names)}）`);
            break;
          }
          node = propertyOf(node, parts[i]);
        }
      }
    }
  };
  const columnFields = (columns: unknown, pointer: string): Array<[string, string]> =>
    // A computed column (`value`, a row rule) reads no field of its own: its field is only its key.
    (Array.isArray(columns) ? (columns as Json[]) : []).flatMap((column, i): Array<[string, string]> => (typeof column?.field === 'string' && column.value === undefined ? [[column.field, `${pointer}/${i}/field`]] : []));

  const callActions = (key: string) =>
    ((page[key] as Json[] | undefined) ?? []).forEach((action, i) => {
      if (action?.type === 'call') paramNames(action.operation, keysOf(action.param, `/${key}/${i}/param`), '参数');
    });

  switch (page.kind) {
    case 'list': {
      const contract = contractOf(page.operation);
      paramNames(page.operation, formFields(page.filters, '/filters'), '筛选字段');
      paramNames(page.operation, keysOf(page.param, '/param'), '参数');
      const rows = rowsOf(contract?.data);
      const answer = `接口操作 ${String(page.operation)} 返回的记录`;
      shownFields(rows, columnFields(page.columns, '/columns'), '列字段', answer);
      if (typeof page.rowKey === 'string') shownFields(rows, [[page.rowKey, '/rowKey']], '行键', answer);
      const liveMark = page.liveMark as Json | undefined;
      if (typeof liveMark?.field === 'string') shownFields(rows, [[liveMark.field, '/liveMark/field']], '实时标记的行字段', answer);
      for (const key of ['rowActions', 'toolbar', 'batchActions']) callActions(key);
      // A row's actions and a column's link read the row as `record`.
      recordTemplates(page.rowActions, '/rowActions', rows, answer);
      ((page.columns as Json[] | undefined) ?? []).forEach((column, i) => {
        for (const key of ['to', 'value', 'color', 'cellVisibleWhen']) recordTemplates(column?.[key], `/columns/${i}/${key}`, rows, answer);
      });
      break;
    }
    case 'form': {
      const load = page.load as Json | undefined;
      const submit = (page.submit as Json | undefined) ?? {};
      if (load) paramNames(load.operation, keysOf(load.param, '/load/param'), '参数');
      const fields = formFields(page.schema, '/schema');
      for (const operation of [submit.operation, submit.createOperation]) {
        if (operation === undefined) continue;
        const param = submit.param as Json | undefined;
        if (param === undefined) {
          paramNames(operation, fields, '表单字段');
          continue;
        }
        // Creating, the record's params are absent: a key that is only `{{params.…}}` is not sent.
        const creating = operation === submit.createOperation && operation !== submit.operation;
        const sent = keysOf(param, '/submit/param').filter(([key]) => !(creating && typeof param[key] === 'string' && /^\{\{\s*params\./.test(param[key])));
        paramNames(operation, sent, '参数');
        // The form's values go where `{{values}}` stands, whole.
        const slot = Object.entries(param && typeof param === 'object' ? param : {}).find(([, value]) => typeof value === 'string' && /^\{\{\s*values\s*\}\}$/.test(value));
        if (slot) paramNames(operation, fields, '表单字段', slot[0]);
      }
      break;
    }
    case 'detail': {
      const load = (page.load as Json | undefined) ?? {};
      paramNames(load.operation, keysOf(load.param, '/load/param'), '参数');
      const loaded = contractOf(load.operation)?.data;
      ((page.sections as Json[] | undefined) ?? []).forEach((section, i) => {
        const at = `/sections/${i}`;
        let data: unknown = loaded;
        let answer = `接口操作 ${String(load.operation)} 的应答`;
        if (section.operation) {
          paramNames(section.operation, keysOf(section.param, `${at}/param`), '参数');
          data = contractOf(section.operation)?.data;
          answer = `接口操作 ${String(section.operation)} 的应答`;
        }
        if (typeof section.source === 'string') {
          shownFields(data, [[section.source, `${at}/source`]], '数据来源', answer);
          data = pathOf(data, section.source);
          answer = `${answer}的 ${section.source} `;
        }
        shownFields(data, columnFields(section.fields, `${at}/fields`), '字段', answer);
        shownFields(rowsOf(data), columnFields(section.columns, `${at}/columns`), '列字段', `${answer}的行`);
        // A series section sends its range as the last minutes or a start and an end, and draws `series`.
        if (section.type === 'series' && section.operation) {
          paramNames(section.operation, ['lastMinutes', 'startTime', 'endTime'].map((name): [string, string] => [name, `${at}/type`]), 'series 区块发送的参数');
          shownFields(data, [['series', `${at}/type`]], 'series 区块画出的字段', answer);
        }
      });
      ((page.actions as Json[] | undefined) ?? []).forEach((action, i) => {
        if (action?.type === 'call') paramNames(action.operation, keysOf(action.param, `/actions/${i}/param`), '参数');
      });
      // The page's actions and its sections' params read the loaded answer as `record`.
      const record = `接口操作 ${String(load.operation)} 的应答`;
      recordTemplates(page.actions, '/actions', loaded, record);
      ((page.sections as Json[] | undefined) ?? []).forEach((section, i) => recordTemplates(section.param, `/sections/${i}/param`, loaded, record));
      break;
    }
    case 'dashboard':
      ((page.widgets as Json[] | undefined) ?? []).forEach((widget, i) => {
        const at = `/widgets/${i}`;
        paramNames(widget.operation, keysOf(widget.param, `${at}/param`), '参数');
        const data = contractOf(widget.operation)?.data;
        const answer = `接口操作 ${String(widget.operation)} 的应答`;
        if (typeof widget.valueField === 'string') shownFields(data, [[widget.valueField, `${at}/valueField`]], '取值字段', answer);
        let rows = rowsOf(data);
        if (typeof widget.rowsField === 'string') {
          shownFields(data, [[widget.rowsField, `${at}/rowsField`]], '行字段', answer);
          rows = rowsOf(pathOf(data, widget.rowsField));
        }
        const rowFields: Array<[string, string]> = [];
        for (const key of ['x', 'name']) if (typeof widget[key] === 'string') rowFields.push([widget[key], `${at}/${key}`]);
        if (typeof widget.y === 'string') rowFields.push([widget.y, `${at}/y`]);
        if (Array.isArray(widget.y)) widget.y.forEach((y, j) => typeof y === 'string' && rowFields.push([y, `${at}/y/${j}`]));
        shownFields(rows, [...rowFields, ...columnFields(widget.columns, `${at}/columns`)], '字段', `${answer}的行`);
      });
      break;
  }
  return problems;
}

function listJson(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listJson(path) : name.endsWith('.json') ? [path] : [];
  });
}

/**
 * Every page schema under `pagesDir` against schemas/contracts.json, as the console composes it
 * (renderers/schema/compose.ts: fragments by $ref, filters declared on columns, each combination of
 * its parameters), so a field taken from a fragment is judged where it is used. A page that does not
 * compose is left to checkPages, which says why.
 */
export function checkContracts(root: string, pagesDir = join(root, 'schemas/pages')): ContractProblem[] {
  const file = join(root, 'schemas/contracts.json');
  if (!existsSync(file)) return [{ file: 'schemas/contracts.json', pointer: '/', message: '文件不存在：运行 npm run contracts 生成' }];
  const contracts = loadContracts(file);
  const read = schemaFileReader(root);
  return listJson(pagesDir).flatMap((path) => {
    let source: unknown;
    try {
      source = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      return []; // checkPages says the file is not JSON.
    }
    const name = relative(root, path);
    const view = relative(pagesDir, path).replace(/\.json$/, '');
    const seen = new Set<string>();
    return pageVariants(view, source).flatMap((ref) => {
      const { value } = composeFile(source, name, parseViewRef(ref).params, read);
      if (!value || typeof value !== 'object') return [];
      return checkPageContracts(name, value as Json, contracts).filter((problem) => {
        const key = `${problem.pointer} ${problem.message}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    });
  });
}
