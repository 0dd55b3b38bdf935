import { pageExists } from '../../renderers/pages';
import { lazyView } from '../../renderers/runtime/lazyView';
import { ConsolePage } from '../renderer/ConsolePage';
import { useAtomValue } from 'jotai';
import { Navigate, useLocation } from 'react-router-dom';
import { isKnownMenuPath } from '../router/knownPaths';
import { renderScreen } from '../screens/registry';
import { findMenuByUrl } from '../session/menu';
import { sessionAtom } from '../session/session';
import type { MenuResource } from '../session/types';

// Shown only when they are the page (issue 35: a list's first paint fetched antd's Result and
// Descriptions for them): the 403 page, and the card of a view whose page schema is not written.
const ForbiddenPage = lazyView(async () => ({ default: (await import('./ForbiddenPage')).ForbiddenPage }));
const MenuViewCard = lazyView(async () => ({ default: (await import('./MenuViewCard')).MenuViewCard }));

/**
 * Any layout path not fixed in the router is a menu route from the server; a page of the platform
 * outside the role's menu answers 403 inside the frame; anything else is unknown (/404).
 */
export default function MenuView() {
  const session = useAtomValue(sessionAtom);
  const { pathname } = useLocation();
  const menu = session ? findMenuByUrl(session.menus, pathname) : undefined;
  if (!session) return null;
  if (!menu) return isKnownMenuPath(pathname) ? <ForbiddenPage /> : <Navigate to="/404" replace />;
  return <MenuContent menu={menu} />;
}

/** The view of a menu resource: its hand-written screen, else its page schema when there is one. */
export function MenuContent({ menu }: { menu: MenuResource }) {
  const screen = renderScreen(menu);
  if (screen) return screen;
  return pageExists(menu.fileUrl) ? <ConsolePage view={menu.fileUrl} menu={menu} /> : <MenuViewCard menu={menu} />;
}
