import { ROOTS, type Json, type KindReferences, type PageKindModule } from './types';

/** The dashboard kind: a grid of statistic cards and charts, each fed by an operation. */
export type { DashboardPage as Page } from '../schema/types';

export const load: PageKindModule['load'] = () => import('../dashboard/DashboardRenderer') as ReturnType<PageKindModule['load']>;

export function references(_page: Json, check: KindReferences): void {
  const { operation, widgetTypes } = check;
  check.each('widgets', (pointer, widget) => {
    operation(`${pointer}/operation`, widget.operation, ['call', 'get']);
    if (typeof widget.type === 'string' && !widgetTypes.includes(widget.type)) check.add(`${pointer}/type`, `未注册的仪表盘组件 ${widget.type}（可用：${widgetTypes.join('、')}）`);
    if (widget.param !== undefined) check.templates(`${pointer}/param`, widget.param, ROOTS.widget);
    ((widget.columns as Json[] | undefined) ?? []).forEach((c, i) => check.column(`${pointer}/columns/${i}`, c));
  });
}

export function starterOperations(view: string): Record<string, string> {
  const base = view.replace(/\//g, '.');
  return { statistics: `${base}.statistics` };
}

export function starter(title: string, view: string): Json {
  const ops = starterOperations(view);
  return {
    title,
    timeRange: { default: 'last7days' },
    widgets: [{ type: 'statistic', title: '总数', operation: ops.statistics, valueField: 'total', display: 'count' }],
  };
}
