import type { PageKind } from '../schema/types';
import * as dashboard from './dashboard';
import * as detail from './detail';
import * as form from './form';
import * as list from './list';
import type { PageKindModule } from './types';

/**
 * The page kinds (issue 20): each one module, renderers/kinds/<kind>.ts. A new kind is a module
 * listed here (and its model in renderers/schema/types.ts, its branch in page.schema.json).
 * `npm run check` and `npm run new:page` iterate PAGE_KIND_MODULES.
 */
export const PAGE_KIND_MODULES: Readonly<Record<PageKind, PageKindModule>> = { list, form, detail, dashboard };

/**
 * The renderers' loaders alone, for the console (renderers/PageRenderer.tsx): read member by member,
 * so that the bundle keeps the loaders and leaves the check references and starters out.
 */
export const KIND_LOADERS: Readonly<Record<PageKind, PageKindModule['load']>> = { list: list.load, form: form.load, detail: detail.load, dashboard: dashboard.load };

export const PAGE_KIND_NAMES = Object.keys(KIND_LOADERS) as PageKind[];

/** The module of a kind named in a page (none for a kind that does not exist). */
export function pageKindModule(kind: unknown): PageKindModule | undefined {
  return typeof kind === 'string' && Object.prototype.hasOwnProperty.call(PAGE_KIND_MODULES, kind) ? PAGE_KIND_MODULES[kind as PageKind] : undefined;
}

export type { KindProps, KindReferences, PageKindModule } from './types';
export { ROOTS } from './types';
