import { Button } from 'antd';
import { useId, type ReactNode } from 'react';

export const FILTERS_LABEL = '筛选';

/** How many filters hold a value (shown on the folded filters' button). */
export function activeFilters(filters: Readonly<Record<string, unknown>>): number {
  return Object.values(filters).filter((value) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)).length;
}

interface Props {
  /** At a phone's width: the form behind one button. */
  folded: boolean;
  open: boolean;
  onToggle: (open: boolean) => void;
  filters: Readonly<Record<string, unknown>>;
  children: ReactNode;
}

/**
 * The filter form, folded at a phone's width behind one 筛选 button (with the number of filters
 * in use) so that the first screen shows rows, open until a search is made; shown as it is otherwise.
 */
export function FilterToggle({ folded, open, onToggle, filters, children }: Props) {
  const id = useId();
  if (!folded) return <div style={{ marginBottom: 16 }}>{children}</div>;
  const used = activeFilters(filters);
  return (
    <div style={{ marginBottom: 12 }}>
      <Button autoInsertSpace={false} aria-expanded={open} aria-controls={id} onClick={() => onToggle(!open)} data-testid="filters-toggle">
        {used > 0 ? `${FILTERS_LABEL}（${used}）` : FILTERS_LABEL}
      </Button>
      <div id={id} hidden={!open} style={{ marginTop: 12 }}>
        {open && children}
      </div>
    </div>
  );
}
