import { setValidateLanguage } from '@formily/core';
import { createSchemaField, Schema } from '@formily/react';
import { FormGrid, FormItem, FormLayout, Input, Select, Space } from '@formily/antd-v5';
import { lazy, type ComponentType } from 'react';
import { Registry, type PropSpecs } from '../registry';
import type { NamedValidator } from '../services';
import { evaluateTemplateExpression } from '../schema/template';
// Forms evaluate Formily's expressions ($deps, $form …): the engine comes with the form renderer.
import './expressions';
import { DictSelect } from './widgets/DictSelect';
import { OperationSelect } from './widgets/OperationSelect';

// STACK.md: Formily's messages follow the browser language unless told.
setValidateLanguage('zh-CN');
// Schema expressions are evaluated without eval, so the console runs under a CSP without
// 'unsafe-eval' and a schema cannot carry script (see expressions.ts).
// The one template language: the same evaluator, filters included (`{{params.id | number}}`),
// and the same reading of an empty path as the page's other templates (`{{values.area.code}}`
// before an area is chosen is nothing, not a failing reaction).
Schema.registerCompiler((expression: string, scope: Record<string, unknown> = {}) => evaluateTemplateExpression(expression, scope));

type AnyProps = Record<string, unknown>;

/**
 * A component loaded only when a schema uses it (the form and list renderers wrap fields in
 * Suspense): a form without a tree select does not download the tree, a filter without a date
 * does not download the date picker. Sub-components (`FormStep.StepPane`) resolve by name.
 */
function lazyWidget(load: () => Promise<unknown>, pick: (module: never) => unknown, statics: string[] = []): ComponentType<AnyProps> {
  const part = (name?: string) =>
    lazy(async () => {
      const root = pick((await load()) as never) as Record<string, unknown>;
      return { default: (name ? root[name] : root) as ComponentType<AnyProps> };
    });
  const widget = part() as unknown as ComponentType<AnyProps> & Record<string, unknown>;
  for (const name of statics) widget[name] = part(name);
  return widget;
}

/**
 * One component a Formily schema may name in `x-component` / `x-decorator`: the component, the
 * members a schema may name as `Base.Member` (`Input.TextArea`), the props `npm run check` reads
 * (an operation of the right kind, a dictionary type) and how a person gives its value (the
 * message of an empty required field: 请选择…, 请上传…, 请添加…; 请输入… otherwise).
 */
export interface FormComponentKind {
  component: ComponentType<AnyProps>;
  members?: readonly string[];
  props?: PropSpecs;
  filled?: 'chosen' | 'uploaded' | 'added';
}

/** What Formily draws from (createSchemaField): each entry's component, kept in step with the registry. */
const COMPONENTS: Record<string, ComponentType<AnyProps>> = {};

/**
 * The components a form schema may name: the built-ins below are entries like any other, so adding
 * one is one `register` and a test (tests/unit/renderer/registries.test.tsx); `npm run check` and
 * `npm run schemas` read the names, members and props from here. Formily's ArrayItems and
 * ArrayTable are left out on purpose: on React 19 their Addition renders nothing, so arrays use
 * ArrayList.
 */
export const FORM_COMPONENT_KINDS = new Registry<FormComponentKind>('表单组件', (name, kind) => {
  COMPONENTS[name] = kind.component;
});

const chosen = 'chosen' as const;
const operation = (...kinds: string[]): PropSpecs => ({ operation: { operation: kinds } });
const builtIns: Record<string, FormComponentKind> = {
  ArrayList: { component: lazyWidget(() => import('./widgets/ArrayList'), (m: { ArrayList: unknown }) => m.ArrayList), filled: 'added' },
  Checkbox: { component: lazyWidget(() => import('@formily/antd-v5/esm/checkbox'), (m: { Checkbox: unknown }) => m.Checkbox, ['Group']), members: ['Group'], filled: chosen },
  DatePicker: {
    component: lazyWidget(() => import('../runtime/dayjs').then(() => import('@formily/antd-v5/esm/date-picker')), (m: { DatePicker: unknown }) => m.DatePicker, ['RangePicker']),
    members: ['RangePicker'],
    filled: chosen,
  },
  DictSelect: { component: DictSelect as unknown as ComponentType<AnyProps>, props: { dictType: { required: true, dictType: true } }, filled: chosen },
  FileUpload: { component: lazyWidget(() => import('./widgets/FileUpload'), (m: { FileUpload: unknown }) => m.FileUpload), props: operation('upload'), filled: 'uploaded' },
  FormGrid: { component: FormGrid as ComponentType<AnyProps> },
  FormItem: { component: FormItem as ComponentType<AnyProps> },
  FormLayout: { component: FormLayout as ComponentType<AnyProps> },
  FormStep: { component: lazyWidget(() => import('./widgets/FormSteps'), (m: { FormSteps: unknown }) => m.FormSteps, ['StepPane']) },
  FormTab: { component: lazyWidget(() => import('@formily/antd-v5/esm/form-tab'), (m: { FormTab: unknown }) => m.FormTab, ['TabPane']) },
  Input: { component: Input as unknown as ComponentType<AnyProps>, members: ['TextArea'] },
  NumberPicker: { component: lazyWidget(() => import('@formily/antd-v5/esm/number-picker'), (m: { NumberPicker: unknown }) => m.NumberPicker) },
  OperationSelect: { component: OperationSelect as unknown as ComponentType<AnyProps>, props: operation('call', 'get'), filled: chosen },
  OperationTreeSelect: { component: lazyWidget(() => import('./widgets/OperationTreeSelect'), (m: { OperationTreeSelect: unknown }) => m.OperationTreeSelect), props: operation('call', 'get'), filled: chosen },
  Password: { component: lazyWidget(() => import('@formily/antd-v5/esm/password'), (m: { Password: unknown }) => m.Password) },
  Radio: { component: lazyWidget(() => import('@formily/antd-v5/esm/radio'), (m: { Radio: unknown }) => m.Radio, ['Group']), members: ['Group'], filled: chosen },
  // Tiptap and ProseMirror: downloaded only by a form with an HTML field.
  RichText: { component: lazyWidget(() => import('./widgets/RichText'), (m: { RichText: unknown }) => m.RichText) },
  Select: { component: Select as ComponentType<AnyProps>, filled: chosen },
  Space: { component: Space as ComponentType<AnyProps> },
  Switch: { component: lazyWidget(() => import('@formily/antd-v5/esm/switch'), (m: { Switch: unknown }) => m.Switch), filled: chosen },
  TemplateForm: { component: lazyWidget(() => import('./widgets/TemplateForm'), (m: { TemplateForm: unknown }) => m.TemplateForm), props: operation('call') },
  TimePicker: {
    component: lazyWidget(() => import('../runtime/dayjs').then(() => import('@formily/antd-v5/esm/time-picker')), (m: { TimePicker: unknown }) => m.TimePicker, ['RangePicker']),
    members: ['RangePicker'],
    filled: chosen,
  },
  TreeSelect: { component: lazyWidget(() => import('@formily/antd-v5/esm/tree-select'), (m: { TreeSelect: unknown }) => m.TreeSelect), filled: chosen },
};
for (const [name, kind] of Object.entries(builtIns)) FORM_COMPONENT_KINDS.register(name, kind);

/** The registered components by name (an entry added later is drawn too: the same object). */
export const FORM_COMPONENTS: Readonly<Record<string, ComponentType<AnyProps>>> = COMPONENTS;

export const SchemaField = createSchemaField({ components: COMPONENTS });

type FormilyValidatorFn = (value: unknown, rule: unknown, ctx: { form?: { values: Record<string, unknown> } }) => string | undefined;

/**
 * A named validator in a page schema: `"phone"`, or `{ "name": "passwordConfirm", "field":
 * "updatePassWord" }` for the rules that compare with another field.
 */
export type ValidatorReference = string | { name: string; field?: string; message?: string };

function isReference(entry: unknown, validators: Readonly<Record<string, NamedValidator>>): entry is ValidatorReference {
  if (typeof entry === 'string') return Object.prototype.hasOwnProperty.call(validators, entry);
  return typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string';
}

function toFormily(reference: ValidatorReference, validators: Readonly<Record<string, NamedValidator>>): FormilyValidatorFn | ValidatorReference {
  const name = typeof reference === 'string' ? reference : reference.name;
  const named = validators[name];
  if (!named) return reference;
  const field = typeof reference === 'string' ? undefined : reference.field;
  return (value, _rule, ctx) => {
    const values = { ...(ctx.form?.values ?? {}) };
    // Rules that compare with another field read it as `other`.
    if (field) values.other = values[field];
    return named(value, values);
  };
}

/**
 * Replaces named validators in a Formily JSON schema with functions bound to the console's
 * SPEC §5 rules, so their messages are the product's words, not Formily's.
 */
export function bindValidators<T>(schema: T, validators: Readonly<Record<string, NamedValidator>>): T {
  if (Array.isArray(schema)) return schema.map((item) => bindValidators(item, validators)) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (key === 'x-validator') {
      const list = Array.isArray(value) ? value : [value];
      const bound = list.map((entry) => (isReference(entry, validators) ? toFormily(entry, validators) : entry));
      out[key] = Array.isArray(value) ? bound : bound[0];
    } else {
      out[key] = bindValidators(value, validators);
    }
  }
  return out as T;
}

/**
 * Gives every titled field an accessible name (`aria-label` = its title): Formily's FormItem label
 * is not tied to its control, so screen readers and keyboard users would otherwise get none.
 */
export function withAccessibleNames<T>(schema: T): T {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const node: Record<string, unknown> = { ...(schema as Record<string, unknown>) };
  if (node.properties && typeof node.properties === 'object') {
    node.properties = Object.fromEntries(Object.entries(node.properties).map(([name, child]) => [name, withAccessibleNames(child)]));
  }
  if (node.items && typeof node.items === 'object') {
    node.items = Array.isArray(node.items) ? node.items.map((item: unknown) => withAccessibleNames(item)) : withAccessibleNames(node.items);
  }
  if (typeof node.title === 'string' && typeof node['x-component'] === 'string' && node.type !== 'void') {
    const props = (node['x-component-props'] ?? {}) as Record<string, unknown>;
    if (!('aria-label' in props)) node['x-component-props'] = { ...props, 'aria-label': node.title };
  }
  return node as T;
}

const FILLED_WORDS = { chosen: '请选择', uploaded: '请上传', added: '请添加' } as const;
/** A named rule's own word for an empty value (SPEC §5: 请输入手机号, 请输入新密码! …). */
const REQUIRED_WORDING = /^请(输入|选择|上传|添加)/;

/**
 * The message an empty required field shows, from its title and the kind of its component:
 * 请输入账号 for an input, 请选择角色 for a select, a picker or a tree, 请上传… for an upload.
 * A named validator that has its own word for an empty value (SPEC §5) keeps it.
 */
export function requiredMessage(title: string, component: string, validatorNames: readonly string[] = [], validators: Readonly<Record<string, NamedValidator>> = {}): string {
  for (const name of validatorNames) {
    const own = validators[name]?.('', {});
    if (own && REQUIRED_WORDING.test(own)) return own;
  }
  // How a person gives the component's value is its registry entry's (FORM_COMPONENT_KINDS).
  const filled = FORM_COMPONENT_KINDS.get(component.split('.')[0])?.filled;
  return `${filled ? FILLED_WORDS[filled] : '请输入'}${title}`;
}

function namesOf(validator: unknown): string[] {
  return (Array.isArray(validator) ? validator : [validator]).flatMap((entry) =>
    typeof entry === 'string' ? [entry] : entry && typeof entry === 'object' && typeof (entry as { name?: unknown }).name === 'string' ? [(entry as { name: string }).name] : [],
  );
}

/**
 * Gives every titled field a required rule carrying its own message (instead of Formily's
 * 该字段是必填字段). The rule is on for `required: true` and off otherwise; a field that becomes
 * required later (`x-reactions` setting `required`) switches this same rule on, message and all,
 * because Formily sets the `required` of an existing rule rather than adding one.
 */
export function withRequiredMessages<T>(schema: T, validators: Readonly<Record<string, NamedValidator>> = {}, requiredByParent = false): T {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const node: Record<string, unknown> = { ...(schema as Record<string, unknown>) };
  const listed = Array.isArray(node.required) ? (node.required as unknown[]) : [];
  if (node.properties && typeof node.properties === 'object') {
    node.properties = Object.fromEntries(Object.entries(node.properties).map(([name, child]) => [name, withRequiredMessages(child, validators, listed.includes(name))]));
  }
  if (node.items && typeof node.items === 'object') {
    node.items = Array.isArray(node.items) ? node.items.map((item: unknown) => withRequiredMessages(item, validators)) : withRequiredMessages(node.items, validators);
  }
  if (typeof node.title === 'string' && typeof node['x-component'] === 'string' && node.type !== 'void' && node.type !== 'object') {
    const existing = node['x-validator'];
    const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
    if (!list.some((entry) => entry && typeof entry === 'object' && 'required' in (entry as object))) {
      const rule = { required: node.required === true || requiredByParent, message: requiredMessage(node.title, node['x-component'], namesOf(existing), validators) };
      node['x-validator'] = [rule, ...list];
    }
  }
  return node as T;
}

/**
 * Field-specific required messages, named validators bound and accessible names given: the schema
 * as the renderers hand it to Formily.
 */
export function prepareSchema<T>(schema: T, validators: Readonly<Record<string, NamedValidator>>): T {
  return withAccessibleNames(bindValidators(withRequiredMessages(schema, validators), validators));
}

/** Names of the validators a Formily schema refers to (for `npm run check`). */
export function validatorNamesIn(schema: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((item) => validatorNamesIn(item, found));
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'x-validator') {
        for (const entry of Array.isArray(value) ? value : [value]) {
          if (typeof entry === 'string') found.add(entry);
          else if (entry && typeof entry === 'object' && typeof (entry as { name?: unknown }).name === 'string') found.add((entry as { name: string }).name);
        }
      } else validatorNamesIn(value, found);
    }
  }
  return found;
}

/** Names of the components a Formily schema refers to (for `npm run check`). */
export function componentNamesIn(schema: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((item) => componentNamesIn(item, found));
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if ((key === 'x-component' || key === 'x-decorator') && typeof value === 'string') found.add(value);
      else componentNamesIn(value, found);
    }
  }
  return found;
}
