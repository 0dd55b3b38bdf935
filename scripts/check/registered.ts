// What `npm run check` knows of the renderer's registries (issue 33, "built-ins registered like
// extensions"): the names a page may use and the props each entry takes are read from the
// registries themselves — ACTION_KINDS, WIDGET_KINDS, DISPLAY_KINDS, FORM_COMPONENT_KINDS and
// FILTER_COMPONENT_KINDS — with what the console registers, never from a list of its own.
import { ACTION_KINDS, actionKindOf } from '../../renderers/actions/actionKinds';
import { WIDGET_KINDS } from '../../renderers/dashboard/widgetKinds';
import { DISPLAY_KINDS } from '../../renderers/displays/displays';
import { FORM_COMPONENT_KINDS } from '../../renderers/form/formily';
import { FILTER_COMPONENT_KINDS } from '../../renderers/list/FilterForm';
import type { PropSpecs } from '../../renderers/registry';
import { CONSOLE_ACTIONS } from '../../src/renderer/actions';
import { CONSOLE_WIDGETS } from '../../src/renderer/widgets';
import { allowedHint } from '../checkSuggest';

export { ACTION_KINDS };

type Json = Record<string, unknown>;
type Add = (pointer: string, message: string) => void;

/** The checks of the names an entry's props hold (the catalogue's operations, the dictionaries). */
export interface PropChecks {
  add: Add;
  operation: (pointer: string, name: unknown, kinds: string[]) => void;
  dictType: (pointer: string, type: unknown) => void;
}

/** The dashboard widget types: the registry's (built-ins and extensions) and those the console hands the renderer. */
export function widgetTypes(): string[] {
  return [...new Set([...WIDGET_KINDS.names(), ...Object.keys(CONSOLE_WIDGETS)])];
}

/** The actions the console adds (`{"type": "map.locate", "params": …}`: a name with a dot). */
export const ACTION_NAMES: readonly string[] = Object.keys(CONSOLE_ACTIONS);

/** The fields an action's kind resolves as templates (its registry entry), with the conditions every action has. */
export function resolvedFields(type: unknown): string[] {
  return [...(actionKindOf(String(type))?.templates ?? []), 'visibleWhen', 'disabledWhen'];
}

/**
 * The props `specs` names, where a page gave them in `props` (at `pointer`/`prefix`name): a
 * required one missing, an operation of the wrong kind or uncatalogued, a dictionary not served.
 */
export function propProblems(entry: string, specs: PropSpecs | undefined, props: Json | undefined, at: { pointer: string; prefix: string }, checks: PropChecks): void {
  for (const [name, spec] of Object.entries(specs ?? {})) {
    const value = props?.[name];
    const pointer = `${at.pointer}/${at.prefix ? `${at.prefix}/` : ''}${name}`;
    if (value === undefined) {
      if (spec.required) checks.add(at.pointer, `${entry} 需要 ${at.prefix ? `${at.prefix}.` : ''}${name}`);
      continue;
    }
    if (spec.operation) checks.operation(pointer, value, [...spec.operation]);
    if (spec.dictType) checks.dictType(pointer, value);
  }
}

/** A column's display: what it requires of the column (`display 为 dict 时需要 dictType`). */
export function displayProblems(pointer: string, column: Json, add: Add): void {
  const display = typeof column.display === 'string' ? column.display : 'text';
  for (const [name, spec] of Object.entries(DISPLAY_KINDS.get(display)?.props ?? {}))
    if (spec.required && column[name] === undefined) add(pointer, `display 为 ${display} 时需要 ${name}`);
}

/** The members each registered form component offers as `Base.Member` (its entry's `members`). */
export function formMembers(base: string): readonly string[] {
  return FORM_COMPONENT_KINDS.get(base)?.members ?? [];
}

/**
 * A component a Formily schema names (`x-component` / `x-decorator` at `at`): a list's filter
 * control from the filter registry, any other from the form components' (with its members); the
 * props its entry takes, checked in `x-component-props`.
 */
export function componentProblems(at: string, key: string, name: string, node: Json, inFilter: boolean, checks: PropChecks): void {
  const props = node['x-component-props'] as Json | undefined;
  const pointer = at.slice(0, at.lastIndexOf('/'));
  if (inFilter && key === 'x-component') {
    const kind = FILTER_COMPONENT_KINDS.get(name);
    if (!kind) checks.add(at, `未注册的筛选组件 ${name}${allowedHint(FILTER_COMPONENT_KINDS.names())}`);
    else propProblems(`筛选组件 ${name}`, kind.props, props, { pointer, prefix: 'x-component-props' }, checks);
    return;
  }
  const [base, ...members] = name.split('.');
  const kind = FORM_COMPONENT_KINDS.get(base);
  if (!kind) return checks.add(at, `未注册的组件 ${name}${allowedHint(FORM_COMPONENT_KINDS.names())}`);
  const offered = formMembers(base);
  if (members.length && (members.length > 1 || !offered.includes(members[0])))
    checks.add(at, `组件 ${base} 没有 ${members.join('.')}${offered.length ? `（可用：${offered.map((m) => `${base}.${m}`).join('、')}）` : ''}`);
  if (key === 'x-component') propProblems(`组件 ${base}`, kind.props, props, { pointer, prefix: 'x-component-props' }, checks);
}

/** A widget type the console hands the renderer (src/renderer/widgets.tsx) under a name the registry already holds. */
export function consoleClashes(): Array<{ file: string; pointer: string; message: string }> {
  return Object.keys(CONSOLE_WIDGETS)
    .filter((name) => WIDGET_KINDS.has(name))
    .map((name) => ({
      file: 'src/renderer/widgets.tsx',
      pointer: `/${name}`,
      message: `仪表盘组件类型 ${name} 已注册（WIDGET_KINDS，内置或扩展），控制台的同名组件不会被用到：请换一个名称`,
    }));
}
