import { ROOTS, type Json, type KindReferences, type PageKindModule } from './types';

/** The detail kind: sections of descriptions, tables, child lists and series over one load. */
export type { DetailPage as Page } from '../schema/types';

export const load: PageKindModule['load'] = () => import('../detail/DetailRenderer') as ReturnType<PageKindModule['load']>;

export function references(page: Json, check: KindReferences): void {
  const { operation, templates, column } = check;
  operation('/load/operation', (page.load as Json).operation, ['call', 'get']);
  templates('/load/param', (page.load as Json).param, ROOTS.detailLoad);
  check.each('actions', (pointer, act) => check.action(pointer, act, ROOTS.detailAction));
  check.each('sections', (pointer, section) => {
    if (section.operation) operation(`${pointer}/operation`, section.operation, ['call', 'get']);
    if (section.param !== undefined) templates(`${pointer}/param`, section.param, ROOTS.detailSection);
    const live = section.live as Json | undefined;
    if (live?.match !== undefined) templates(`${pointer}/live/match`, live.match, ROOTS.detailSection);
    ((section.fields as Json[] | undefined) ?? []).forEach((f, i) => column(`${pointer}/fields/${i}`, f, ROOTS.detailSection));
    ((section.columns as Json[] | undefined) ?? []).forEach((c, i) => column(`${pointer}/columns/${i}`, c));
    if (section.page && !check.pageExists(String(section.page))) check.add(`${pointer}/page`, `列表页面 ${String(section.page)} 不存在`);
  });
}

export function starterOperations(view: string): Record<string, string> {
  const base = view.replace(/\//g, '.');
  return { detail: `${base}.detail` };
}

export function starter(title: string, view: string): Json {
  const ops = starterOperations(view);
  return {
    title,
    load: { operation: ops.detail, param: { id: '{{params.id | number}}' } },
    sections: [{ title: '基本信息', type: 'descriptions', fields: [{ field: 'name', title: '名称' }] }],
  };
}
