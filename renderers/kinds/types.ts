import type { ComponentType } from 'react';
import type { PageSchema } from '../schema/types';

/**
 * One page kind (issue 20: "one module per page kind"): renderers/kinds/<kind>.ts holds what a kind
 * is beside its TypeScript model (renderers/schema/types.ts) and its meta-schema branch: its renderer
 * (loaded lazily: a list page does not download echarts), the references `npm run check` follows
 * in a page of the kind, and the starting page `npm run new:page` writes. PageRenderer, check and
 * new:page iterate the registry (renderers/kinds/index.ts); none names a kind.
 */
export interface PageKindModule {
  /** The renderer's chunk: imported only when a page of the kind is first shown. */
  load: () => Promise<{ default: ComponentType<KindProps> }>;
  /** What `npm run check` checks in a page of this kind that its JSON Schema cannot say. */
  references: (page: Json, check: KindReferences) => void;
  /**
   * The operations a starter names: its own, `<area>.<view>.<verb>`. None exists yet, so
   * `npm run check` names each one until it is catalogued and served.
   */
  starterOperations: (view: string) => Record<string, string>;
  /** The page `npm run new:page -- <area>/<view> --kind <kind>` writes (after $schema, schemaVersion, kind). */
  starter: (title: string, view: string) => Json;
}

/** What a kind's renderer is given. */
export interface KindProps {
  page: PageSchema;
  view: string;
  params?: Record<string, unknown>;
}

export type Json = Record<string, unknown>;

/**
 * Where a template stands decides what of the one scope (params, record, values, selection, user)
 * is filled there: the scopes the renderers build.
 */
export const ROOTS = {
  listParam: ['params', 'user'],
  column: ['record', 'user'],
  listColumnCondition: ['params', 'user'],
  toolbar: ['params', 'values', 'user'],
  rowAction: ['params', 'record', 'user'],
  batchAction: ['params', 'values', 'selection', 'user'],
  formLoad: ['params', 'user'],
  formSubmit: ['params', 'values', 'user'],
  /** A form's Formily schema: its own `$` names besides. */
  formFields: ['params', 'values', 'user'],
  /** A list's filter fields (a select's param following another filter). */
  filterFields: ['params', 'values', 'user'],
  detailLoad: ['params', 'user'],
  detailSection: ['params', 'record', 'user'],
  detailAction: ['params', 'record', 'user'],
  widget: ['params', 'user'],
} as const satisfies Record<string, readonly string[]>;

export type Roots = readonly string[];

/**
 * The checks a kind's `references` calls (scripts/check.ts gives them: they know the operation
 * catalogue, the dictionaries, the pages and routes, the registries of the console). Each adds its
 * problems at the JSON pointer given.
 */
export interface KindReferences {
  add: (pointer: string, message: string) => void;
  /** A catalogued operation of one of these kinds (call, page, get, blob, upload). */
  operation: (pointer: string, name: unknown, kinds: string[]) => void;
  /** The `{{…}}` templates in `value` (any depth), which may read `roots` only. */
  templates: (pointer: string, value: unknown, roots: Roots, options?: { formily?: boolean }) => void;
  /** A column (or a field shown like one): its link, condition and dictionary. */
  column: (pointer: string, column: Json, conditionRoots?: Roots) => void;
  /** An action and what it names (operation, page, route, permission, chain steps). */
  action: (pointer: string, action: Json, roots?: Roots) => void;
  /** A button permission some menu grants. */
  permission: (pointer: string, name: unknown) => void;
  /** Operations a change declares stale: catalogued queries. */
  invalidates: (pointer: string, names: unknown) => void;
  /** A Formily schema: components, validators, operation props, expressions. */
  formily: (pointer: string, schema: unknown, roots: Roots) => void;
  /** A form's `submit.showResult`. */
  submitResult: (shown: Json | undefined) => void;
  /** Each item of the page's array `key`, with its pointer. */
  each: (key: string, fn: (pointer: string, item: Json) => void) => void;
  /** A view reference some page file answers. */
  pageExists: (ref: string) => boolean;
  /** The dashboard widget types: the renderer's own and those the console registers. */
  widgetTypes: readonly string[];
}
