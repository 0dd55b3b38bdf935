import { useEffect, type RefObject } from 'react';

/**
 * A table that scrolls sideways (or inside a fixed height) is a named region the keyboard can
 * reach: its scrolling box takes focus, which antd's Table offers no prop for (axe:
 * scrollable-region-focusable). Applied after every render, since the table may draw that box anew.
 * With `whenScrolling`, only once the box does scroll (a list that fits adds no Tab stop).
 */
export function useScrollRegion(holder: RefObject<HTMLElement | null>, label: string, selector = '.ant-table-content, .ant-table-body', whenScrolling = false): void {
  useEffect(() => {
    const scrolling = holder.current?.querySelector<HTMLElement>(selector);
    if (!scrolling) return;
    if (whenScrolling && scrolling.scrollWidth <= scrolling.clientWidth) return;
    scrolling.tabIndex = 0;
    scrolling.setAttribute('role', 'region');
    scrolling.setAttribute('aria-label', label);
  });
}
