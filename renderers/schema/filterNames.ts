import { FILTER_COMPONENT_KINDS } from '../list/FilterForm';
import type { PageSchema } from './types';
import type { SchemaProblem } from './validate';

/**
 * The controls a list's filter names that the filter registry (FILTER_COMPONENT_KINDS, built-ins
 * and what the console registered) does not hold (未注册的筛选组件). The JSON Schema leaves
 * `x-component` a string; the names are the renderer's. Only the validator (loaded for a schema the
 * console was not built with, in development and tests) asks: a bundled page was checked by
 * `npm run check`, and its filter says so in its place.
 */
export function unregisteredFilterComponents(page: PageSchema): SchemaProblem[] {
  if (page.kind !== 'list' || !page.filters) return [];
  const fields = Object.entries((page.filters.properties ?? {}) as Record<string, { 'x-component'?: unknown }>);
  return fields
    .filter(([, field]) => typeof field['x-component'] === 'string' && !FILTER_COMPONENT_KINDS.has(field['x-component']))
    .map(([name, field]) => ({
      pointer: `/filters/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}/x-component`,
      message: `未注册的筛选组件 ${String(field['x-component'])}（可用：${FILTER_COMPONENT_KINDS.names().join('、')}）`,
    }));
}
