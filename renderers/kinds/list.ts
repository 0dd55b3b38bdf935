import { ROOTS, type Json, type KindReferences, type PageKindModule } from './types';

/** The list kind: a filter form, a table of columns, toolbar, row and batch actions, export. */
export type { ListPage as Page } from '../schema/types';

export const load: PageKindModule['load'] = () => import('../list/ListRenderer') as ReturnType<PageKindModule['load']>;

export function references(page: Json, check: KindReferences): void {
  const { operation, templates, each, action, permission, formily } = check;
  operation('/operation', page.operation, ['page']);
  if (page.param !== undefined) templates('/param', page.param, ROOTS.listParam);
  each('columns', (pointer, column) => check.column(pointer, column));
  each('toolbar', (pointer, act) => action(pointer, act, ROOTS.toolbar));
  each('rowActions', (pointer, act) => action(pointer, act, ROOTS.rowAction));
  each('batchActions', (pointer, act) => action(pointer, act, ROOTS.batchAction));
  if (page.export) {
    operation('/export/operation', (page.export as Json).operation, ['blob']);
    permission('/export/permission', (page.export as Json).permission);
  }
  if (page.filters) formily('/filters', page.filters, ROOTS.filterFields);
}

export function starterOperations(view: string): Record<string, string> {
  const base = view.replace(/\//g, '.');
  return { page: `${base}.page` };
}

export function starter(title: string, view: string): Json {
  const ops = starterOperations(view);
  return {
    title,
    operation: ops.page,
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
}
