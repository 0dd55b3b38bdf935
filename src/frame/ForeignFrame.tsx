import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { findMenuByUrl } from '../session/menu';
import { sessionAtom } from '../session/session';
import { ConsoleApp } from './ConsoleApp';
import { MenuContent } from './MenuView';
import { documentTitleOf } from './navigation';
import { NetworkBanner } from './NetworkBanner';

/** SPEC §2: the embedded routes under /foreign and the normal path each one stands for. */
export const FOREIGN_PATHS: readonly string[] = [
  'repair', 'report', 'online/configuration', 'alarm/record', 'monitoring/alarm', 'upgrade/package', 'upgrade/task',
  'feedback/app', 'feedback/other', 'product/list', 'category/list', 'device', 'device/detail', 'device/health',
  'device/health/detail', 'product/device/setting', 'patrol', 'patrol/board', 'device/card', 'device/battery',
  'system/user', 'device/recycle', 'device/all', 'device/recycle/detail', 'device/sleep/detail', 'construction',
  'exploration', 'batch/repair', 'batch/see',
];

/** The foreign-url meta: the normal path whose menu resource (and button list) an embedded route uses. */
export function foreignUrl(pathname: string): string | null {
  const rest = pathname.replace(/^\/foreign\/?/, '').replace(/\/+$/, '');
  return FOREIGN_PATHS.includes(rest) ? `/${rest}` : null;
}

/** An embedded page: no menu frame, the normal route's page and buttons. */
export default function ForeignFrame() {
  const session = useAtomValue(sessionAtom);
  const { pathname } = useLocation();
  const normalPath = foreignUrl(pathname);
  const menu = session && normalPath ? findMenuByUrl(session.menus, normalPath) : undefined;
  const name = menu?.resourceName;
  useEffect(() => {
    if (name) document.title = documentTitleOf(name);
  }, [name]);
  if (!session) return null;
  if (!menu) return <Navigate to="/404" replace />;
  return (
    <ConsoleApp>
      <div style={{ padding: 16 }} data-foreign-url={normalPath}>
        <NetworkBanner />
        <MenuContent menu={menu} />
      </div>
    </ConsoleApp>
  );
}
