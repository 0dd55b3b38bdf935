import { DISPLAY_KINDS } from '../displays/displays';
import type { Action, ChainStep, Column, PageSchema } from './types';
import type { SchemaProblem } from './validate';

/**
 * The displays a page names that the renderer does not have (未注册的展示方式): the columns of a
 * list, a detail section's fields and columns, a dashboard widget and its columns, the fields a
 * showResult action shows (a chain's steps too). The JSON Schema
 * leaves `display` a string; the names are the display registry's (DISPLAY_KINDS, built-ins and
 * what the console registered), so the renderer checks them.
 */
export function unregisteredDisplays(page: PageSchema): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const check = (pointer: string, display: string | undefined) => {
    if (display !== undefined && !DISPLAY_KINDS.has(display)) problems.push({ pointer: `${pointer}/display`, message: `未注册的展示方式 ${display}（可用：${DISPLAY_KINDS.names().join('、')}）` });
  };
  const columns = (pointer: string, list: readonly Column[] | undefined) => list?.forEach((column, index) => check(`${pointer}/${index}`, column.display));
  const actions = (pointer: string, list: ReadonlyArray<Action | ChainStep> | undefined): void =>
    list?.forEach((action, index) => {
      if (action.type === 'showResult') columns(`${pointer}/${index}/fields`, action.fields);
      if (action.type === 'chain') actions(`${pointer}/${index}/steps`, action.steps);
    });
  if (page.kind === 'list') {
    columns('/columns', page.columns);
    actions('/toolbar', page.toolbar);
    actions('/rowActions', page.rowActions);
    actions('/batchActions', page.batchActions);
  }
  if (page.kind === 'detail') {
    actions('/actions', page.actions);
    page.sections.forEach((section, index) => {
      columns(`/sections/${index}/fields`, section.fields);
      columns(`/sections/${index}/columns`, section.columns);
    });
  }
  if (page.kind === 'dashboard') {
    page.widgets.forEach((widget, index) => {
      check(`/widgets/${index}`, widget.display);
      columns(`/widgets/${index}/columns`, widget.columns);
    });
  }
  return problems;
}
