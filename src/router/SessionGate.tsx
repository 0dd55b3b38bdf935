import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { PageLoading } from '../../renderers/runtime/lazyView';
import { documentTitleOf } from '../frame/navigation';
import { endSession, sessionAtom, startSession, TOKEN_INIT_DELAY_MS } from '../session/session';
import { hasToken, isForeignSession, readSession, writeSession } from '../session/storage';
import { forgetSessionStart, useSessionStart } from './sessionStart';

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

function withoutQueryParam(search: string, name: string): string {
  const params = new URLSearchParams(search);
  params.delete(name);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/** The navigation a `dlmToken` entry made: its location's state names the entry until init has run. */
interface TokenEntryState {
  tokenEntry?: number;
}

let entries = 0;

/**
 * The route guard of SPEC §4: public routes, the `dlmToken` entry, init on first use,
 * the forced password change, and leaving the forced change. Init is loaded by the console's data
 * layer (useSessionStart); the guard's effects only decide where to go with what it answered.
 */
export function SessionGate() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useAtomValue(sessionAtom);
  // The token entry whose init delay has passed (set by its timer).
  const [dueEntry, setDueEntry] = useState<number | null>(null);
  const previousPath = useRef<string | null>(null);
  const { pathname, search } = location;
  const entry = (location.state as TokenEntryState | null)?.tokenEntry;
  const isPublic = PUBLIC_PATHS.includes(pathname);
  const standaloneTitle = STANDALONE_TITLES[pathname];
  const tokenInAddress = new URLSearchParams(search).has('dlmToken');
  // Init is wanted on a guarded route with a token and no session; a token entry waits for its delay.
  const wanted = !session && !tokenInAddress && (entry !== undefined ? entry === dueEntry : !isPublic && hasToken());
  const start = useSessionStart(wanted);

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
      const tokenEntry = ++entries;
      navigate(target, { replace: true, state: { tokenEntry } satisfies TokenEntryState });
      setTimeout(() => setDueEntry(tokenEntry), TOKEN_INIT_DELAY_MS);
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
    if (isPublic || entry !== undefined) return;
    if (!hasToken()) navigate('/login', { replace: true, state: { from: `${pathname}${search}` } });
  }, [pathname, search, isPublic, entry, navigate]);

  // What init answered: the session, then where it leads (not a load: the answers are here).
  const { answers, failed } = start;
  useEffect(() => {
    if (failed) {
      // SPEC §8: a failed start (dictionary or init) goes to /login; nothing asks it again.
      forgetSessionStart();
      endSession();
      navigate('/login', { replace: true });
      return;
    }
    if (!answers) return;
    const ready = startSession(answers);
    // A token entry retries its navigation (its location without the entry's mark).
    if (entry !== undefined) navigate(`${pathname}${search}`, { replace: true });
    else if (ready.user.needModifyPassword && !isForeignSession() && pathname !== INIT_PASSWORD_PATH) navigate(INIT_PASSWORD_PATH, { replace: true });
  }, [answers, failed, entry, pathname, search, navigate]);

  if (isPublic) return <Outlet />;
  if (!session || tokenInAddress) return <PageLoading />;
  return <Outlet />;
}
