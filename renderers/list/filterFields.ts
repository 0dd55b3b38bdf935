/**
 * What a list page's filter may hold: a control of the filter registry (FILTER_COMPONENT_KINDS in
 * ./FilterForm.tsx, each a plain antd one: the list loads no Formily); `npm run check` refuses
 * another name, and the filter says so in its place.
 */
export type FilterComponent = string;

/** A named SPEC §5 rule (`"deviceCode"`, `{ "name": …, "field": … }`) or a pattern with its message. */
export type FilterValidator = string | { name: string; field?: string; message?: string } | { pattern: string; message: string };

/** One filter field as a page schema writes it (Formily's field shape, limited to what filters use). */
export interface FilterField {
  type?: string;
  title: string;
  'x-decorator'?: 'FormItem';
  'x-component': FilterComponent;
  'x-component-props'?: Record<string, unknown>;
  'x-validator'?: FilterValidator | FilterValidator[];
  /** Options of a `Select`: `{ label, value }` items or plain values. */
  enum?: unknown[];
  /** Where the filter starts, and where 重置 puts it back. */
  default?: unknown;
  description?: string;
}
