import { createElement, type ComponentType, type ReactElement } from 'react';
import { lazyView } from '../../renderers/runtime/lazyView';
import type { MenuResource } from '../session/types';

/** What a hand-written menu screen receives: the menu resource that opened it (its buttons…). */
export interface ScreenProps {
  menu: MenuResource;
}

/**
 * The hand-written screens a menu resource's view file may name (DESIGN.md, "Menus and routes"):
 * consulted before the page schemas, each screen its own lazy chunk.
 */
const SCREENS: Readonly<Record<string, ComponentType<ScreenProps>>> = {
  'device/distribution': lazyView(() => import('./device/DistributionPage')),
  'shopping/list': lazyView(() => import('./shopping/ShoppingListPage')),
  'shopping/itemDetail': lazyView(() => import('./shopping/GoodsDetailPage')),
  'shopping/confirmOrder': lazyView(() => import('./shopping/ConfirmOrderPage')),
  'dynamic/form/config': lazyView(() => import('./dynamicForm/FormTemplatePage')),
};

/** The hand-written screen registered for a view file, if any. */
export function screenFor(view: string | null | undefined): ComponentType<ScreenProps> | undefined {
  return view && Object.hasOwn(SCREENS, view) ? SCREENS[view] : undefined;
}

/** The hand-written screen of a menu resource, rendered, or null when its view has none. */
export function renderScreen(menu: MenuResource): ReactElement | null {
  const Screen = screenFor(menu.fileUrl);
  return Screen ? createElement(Screen, { menu }) : null;
}

/** Every view file with a hand-written screen. */
export function registeredViews(): string[] {
  return Object.keys(SCREENS);
}
