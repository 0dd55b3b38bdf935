import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { PageLoading } from '../../renderers/runtime/lazyView';
import { documentTitleOf } from '../frame/navigation';
import { endSession, initialiseSession, sessionAtom, TOKEN_INIT_DELAY_MS, type Session } from '../session/session';
import { hasToken, isForeignSession, readSession, writeSession } from '../session/storage';
import { expectedFailures } from '../../renderers/runtime/errorReporter';

/** SPEC §4: with no token only these are reachable. */
export const PUBLIC_PATHS: readonly string[] = ['/login', '/forgot/password'];
export const INIT_PASSWORD_PATH = '/init/password';
export const HOME_PATH = '/dashboard';

/**
 * The browser titles of the pages outside the frames (`页面名 - 物联网设备平台`); the main and
 * embedded frames title their own pages after the menu.
 */
export const STANDALONE_TITLES: Readonly<Record<string, string>> = {
  '/login': '登录',
  '/forgot/password': '找回密码',
  [INIT_PASSWORD_PATH]: '修改初始密码',
  '/404': '页面不存在',
  '/big-screen': '个人大屏',
};

let initInFlight: Promise<Session> | null = null;

/** One init at a time, however many effects ask for it. */
function ensureSession(): Promise<Session> {
  initInFlight ??= initialiseSession().finally(() => {
    initInFlight = null;
  });
  return initInFlight;
}

function withoutQueryParam(search: string, name: string): string {
  const params = new URLSearchParams(search);
  params.delete(name);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/**
 * The route guard of SPEC §4: public routes, the `dlmToken` entry, init on first use,
 * the forced password change, and leaving the forced change.
 */
export function SessionGate() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useAtomValue(sessionAtom);
  const tokenEntryPending = useRef(false);
  const previousPath = useRef<string | null>(null);
  const { pathname, search } = location;
  const isPublic = PUBLIC_PATHS.includes(pathname);
  const standaloneTitle = STANDALONE_TITLES[pathname];

  useEffect(() => {
    if (standaloneTitle) document.title = documentTitleOf(standaloneTitle);
  }, [standaloneTitle]);

  useEffect(() => {
    const dlmToken = new URLSearchParams(search).get('dlmToken');
    if (dlmToken) {
      const target = `${pathname}${withoutQueryParam(search, 'dlmToken')}`;
      if (dlmToken === readSession('accessToken')) {
        navigate(target, { replace: true });
        return;
      }
      // A new token from the embedding shell: store it, keep it out of the address bar, and
      // after the token-init delay load the user and menu, then retry the navigation.
      endSession();
      writeSession('accessToken', dlmToken);
      writeSession('isForeign', '1');
      tokenEntryPending.current = true;
      navigate(target, { replace: true });
      setTimeout(() => {
        ensureSession()
          .then(() => navigate(target, { replace: true }))
          .catch((error: unknown) => {
            expectedFailures('会话')(error);
            endSession();
            navigate('/login', { replace: true });
          })
          .finally(() => {
            tokenEntryPending.current = false;
          });
      }, TOKEN_INIT_DELAY_MS);
      return;
    }
    const previous = previousPath.current;
    previousPath.current = pathname;
    if (previous === INIT_PASSWORD_PATH && pathname !== INIT_PASSWORD_PATH && pathname !== HOME_PATH) {
      // SPEC §2: leaving the forced change for anything but /dashboard clears the session.
      endSession();
      if (!isPublic) navigate('/login', { replace: true });
      return;
    }
    if (isPublic || tokenEntryPending.current) return;
    if (!hasToken()) {
      navigate('/login', { replace: true, state: { from: `${pathname}${search}` } });
      return;
    }
    if (!session) {
      ensureSession()
        .then((ready) => {
          if (ready.user.needModifyPassword && !isForeignSession() && pathname !== INIT_PASSWORD_PATH) {
            navigate(INIT_PASSWORD_PATH, { replace: true });
          }
        })
        .catch((error: unknown) => {
          // SPEC §8: a failed start (dictionary or init) goes to /login.
          expectedFailures('会话')(error);
          endSession();
          navigate('/login', { replace: true });
        });
    }
  }, [pathname, search, isPublic, session, navigate]);

  if (isPublic) return <Outlet />;
  if (!session || new URLSearchParams(search).has('dlmToken')) return <PageLoading />;
  return <Outlet />;
}
