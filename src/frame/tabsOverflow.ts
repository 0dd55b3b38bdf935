import { useLayoutEffect, type RefObject } from 'react';

/**
 * antd's tab strip folds the tabs that do not fit under a … button that rc-tabs draws inside the
 * strip's role="tablist", where only tabs may be (axe aria-required-children), named by its icon
 * alone (button-name): the page tabs at 390 px, the group tabs at 768 px. Every tab it lists is
 * reachable in the strip itself (the arrow keys move along all of them and scroll the one focused
 * into view), so the button is the mouse's: hidden from assistive technology and out of the Tab
 * order. Runs after each render of the component holding the strips; rc-tabs keeps the button and
 * sets none of these attributes itself.
 */
export function useTabsOverflowForPointer(holder: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    holder.current?.querySelectorAll<HTMLElement>('.ant-tabs-nav-more').forEach((button) => {
      button.setAttribute('aria-hidden', 'true');
      button.tabIndex = -1;
    });
  });
}
