// `npm run new:page -- <area>/<view> --kind list|form|detail|dashboard [--entity <area>/<entity>]`:
// writes a starting page schema under schemas/pages, ready to edit (the editor completes it through
// $schema). It names its own operations, which npm run check flags until they exist, or, with
// --entity, the operations the server serves for that entity definition.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { composeFile } from '../renderers/schema/compose';
import { entityFile, type EntityDefinition } from '../renderers/schema/entity';
import { PAGE_KIND_MODULES, PAGE_KIND_NAMES } from '../renderers/kinds';
import type { PageKind } from '../renderers/schema/types';
import { checkPage, formatProblem, loadContext } from './check';
import { schemaFileReader } from './pageSources';

const root = new URL('..', import.meta.url).pathname;
const KINDS = PAGE_KIND_NAMES;
type Kind = PageKind;

/**
 * The operations a starter names: its own, `<area>.<view>.<verb>` (the list's `page`, the form's
 * `detail` and `save`, the detail's `detail`, the dashboard's `statistics`). None exists yet, so
 * `npm run check` names each one until it is catalogued and served — a starter never points at an
 * unrelated real operation. `--entity <area>/<entity>` writes the page from an entity definition
 * instead (schemas/entities), wired to the operations the server serves for it.
 * Each kind's starter lives with the kind (renderers/kinds/<kind>.ts).
 */
function starterOperations(view: string, kind: Kind): Record<string, string> {
  return PAGE_KIND_MODULES[kind].starterOperations(view);
}

function starter(kind: Kind, title: string, view: string): Record<string, unknown> {
  return PAGE_KIND_MODULES[kind].starter(title, view);
}

/** A starter wired to an entity's operations, its fields taken from the entity (renderers/schema/entity.ts). */
function entityStarter(kind: Kind, title: string, ref: string, entity: EntityDefinition): Record<string, unknown> {
  const op = (verb: string) => `${entity.name}.${verb}`;
  const fields = Object.keys(entity.fields);
  switch (kind) {
    case 'list':
      return { title, entity: ref, operation: op('page'), rowKey: 'id', columns: [...fields.map((field) => ({ field })), { field: 'updateTime' }], export: { operation: op('export') } };
    case 'form':
      return {
        title,
        entity: ref,
        load: { operation: op('detail'), param: { id: '{{params.id | number}}' } },
        submit: { operation: op('modify'), createOperation: op('insert'), param: { id: '{{params.id | number}}', ...(entity.param ? { [entity.param]: '{{values}}' } : {}) }, successMessage: '设置成功！' },
        schema: { type: 'object', properties: Object.fromEntries(fields.filter((field) => !entity.fields[field].readOnly).map((field) => [field, {}])) },
      };
    case 'detail':
      return { title, entity: ref, load: { operation: op('detail'), param: { id: '{{params.id | number}}' } }, sections: [{ title: '基本信息', type: 'descriptions', fields: [...fields.map((field) => ({ field })), { field: 'createTime' }] }] };
    case 'dashboard':
      throw new Error('仪表盘没有实体：去掉 --entity');
  }
}

const args = process.argv.slice(2);
const view = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
const kindIndex = args.indexOf('--kind');
const kind = (kindIndex >= 0 ? args[kindIndex + 1] : 'list') as Kind;
const titleIndex = args.indexOf('--title');
const title = titleIndex >= 0 ? args[titleIndex + 1] : '新页面';
const entityIndex = args.indexOf('--entity');
const entityRef = entityIndex >= 0 ? args[entityIndex + 1] : undefined;
if (!view || !/^[a-z][A-Za-z0-9]*(\/[a-z][A-Za-z0-9]*)+$/.test(view) || !KINDS.includes(kind)) {
  console.error('用法：npm run new:page -- <area>/<view> --kind list|form|detail|dashboard [--title 标题] [--entity <area>/<entity>]');
  process.exit(2);
}
const file = join(root, 'schemas/pages', `${view}.json`);
if (existsSync(file)) {
  console.error(`已存在：${relative(root, file)}`);
  process.exit(1);
}
let body: Record<string, unknown>;
if (entityRef) {
  const entityPath = join(root, entityFile(entityRef));
  if (!existsSync(entityPath)) {
    console.error(`实体 ${entityRef} 不存在（${entityFile(entityRef)}）：用 npm run new:screen 生成它`);
    process.exit(1);
  }
  body = entityStarter(kind, title, entityRef, JSON.parse(readFileSync(entityPath, 'utf8')) as EntityDefinition);
} else body = starter(kind, title, view);
const depth = view.split('/').length;
const page = { $schema: `${'../'.repeat(depth)}page.schema.json`, schemaVersion: 1, kind, ...body };
const composed = composeFile(page, relative(root, file), {}, schemaFileReader(root));
// The starter's own operations are to be added: check names them as the work left, nothing else.
const todo = entityRef ? [] : Object.values(starterOperations(view, kind));
const problems = [...composed.problems, ...checkPage(relative(root, file), composed.value, loadContext(root))];
const left = problems.filter((problem) => todo.some((name) => problem.message.startsWith(`接口操作 ${name} 未在`)));
const wrong = problems.filter((problem) => !left.includes(problem));
if (wrong.length) {
  for (const problem of wrong) console.error(formatProblem(problem));
  process.exit(1);
}
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(page, null, 2)}\n`);
console.log(`已创建 ${relative(root, file)}（${kind}）。在菜单资源的视图文件中填写 ${view} 即可打开。`);
if (left.length) {
  console.log(`还要登记并实现这些接口操作（npm run check 在此之前指出它们）：${todo.join('、')}`);
  console.log('标准的增删改查不必手写：npm run new:screen 从一行描述生成实体、页面、目录、菜单与字典。');
}
