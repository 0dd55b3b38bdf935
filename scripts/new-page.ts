// `npm run new:page -- <area>/<view> --kind list|form|detail|dashboard`: writes a valid starting
// page schema under schemas/pages, ready to edit (the editor completes it through $schema).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { checkPage, formatProblem, loadContext } from './check';

const root = new URL('..', import.meta.url).pathname;
const KINDS = ['list', 'form', 'detail', 'dashboard'] as const;
type Kind = (typeof KINDS)[number];

function starter(kind: Kind, title: string): Record<string, unknown> {
  switch (kind) {
    case 'list':
      return {
        title,
        operation: 'system.loginLog.page',
        filters: {
          type: 'object',
          properties: { keyword: { type: 'string', title: '关键字', 'x-decorator': 'FormItem', 'x-component': 'Input' } },
        },
        columns: [
          { field: 'id', title: '编号', width: 100 },
          { field: 'createTime', title: '创建时间', display: 'datetime', sortable: true, width: 180 },
        ],
        toolbar: [{ type: 'refresh', label: '刷新' }],
      };
    case 'form':
      return {
        title,
        submit: { operation: 'user.password.update', successMessage: '设置成功！' },
        schema: {
          type: 'object',
          properties: {
            name: { type: 'string', title: '名称', required: true, 'x-decorator': 'FormItem', 'x-component': 'Input', 'x-validator': 'genericCode' },
          },
        },
      };
    case 'detail':
      return {
        title,
        load: { operation: 'user.detail', param: { id: '{{params.id}}' } },
        sections: [{ title: '基本信息', type: 'descriptions', fields: [{ field: 'userName', title: '名称' }] }],
      };
    case 'dashboard':
      return {
        title,
        timeRange: { default: 'last7days' },
        widgets: [{ type: 'statistic', title: '总数', operation: 'notification.count', valueField: 'dailyCount', display: 'count' }],
      };
  }
}

const args = process.argv.slice(2);
const view = args.find((a) => !a.startsWith('--'));
const kindIndex = args.indexOf('--kind');
const kind = (kindIndex >= 0 ? args[kindIndex + 1] : 'list') as Kind;
const titleIndex = args.indexOf('--title');
const title = titleIndex >= 0 ? args[titleIndex + 1] : '新页面';
if (!view || !/^[a-z][A-Za-z0-9]*(\/[a-z][A-Za-z0-9]*)+$/.test(view) || !KINDS.includes(kind)) {
  console.error('用法：npm run new:page -- <area>/<view> --kind list|form|detail|dashboard [--title 标题]');
  process.exit(2);
}
const file = join(root, 'schemas/pages', `${view}.json`);
if (existsSync(file)) {
  console.error(`已存在：${relative(root, file)}`);
  process.exit(1);
}
const depth = view.split('/').length;
const page = { $schema: `${'../'.repeat(depth)}page.schema.json`, schemaVersion: 1, kind, ...starter(kind, title) };
const problems = checkPage(relative(root, file), page, loadContext(root));
if (problems.length) {
  for (const problem of problems) console.error(formatProblem(problem));
  process.exit(1);
}
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(page, null, 2)}\n`);
console.log(`已创建 ${relative(root, file)}（${kind}）。在菜单资源的视图文件中填写 ${view} 即可打开。`);
