import type { FilterDropdownProps } from 'antd/es/table/hooks/useFilter/FilterDropdown';
import type { ColumnFilterItem, FilterValue } from 'antd/es/table/interface';
import { lazy, Suspense } from 'react';

/**
 * antd's Table imports its column filter dropdown (and with it antd's Tree, rc-tree, Radio,
 * Dropdown and Empty: about 20 KiB gzip) whether any column filters or not; no table of the
 * console does (its lists filter in the form above the table). The production build gives antd's
 * table this module in its place (vite.config.ts, `lazyTableFilter`): the same component, loaded
 * when a column that filters is first drawn, its title shown meanwhile. Issue 35: what a route
 * does not draw it does not load.
 */
const RealFilterDropdown = lazy(() => import('antd/es/table/hooks/useFilter/FilterDropdown'));

/** antd's `flattenKeys` (table/hooks/useFilter/FilterDropdown), which its filter hook reads without drawing a dropdown. */
export function flattenKeys(filters?: ColumnFilterItem[]): FilterValue {
  const keys: FilterValue = [];
  for (const { value, children } of filters ?? []) {
    keys.push(value);
    if (children) keys.push(...flattenKeys(children));
  }
  return keys;
}

export default function FilterDropdown<RecordType extends object>(props: FilterDropdownProps<RecordType>) {
  return (
    <Suspense fallback={props.children}>
      <RealFilterDropdown {...props} />
    </Suspense>
  );
}
