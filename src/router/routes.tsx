import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { lazyView } from '../../renderers/runtime/lazyView';
import { SessionGate } from './SessionGate';

const LoginPage = lazyView(() => import('../screens/public/LoginPage'));
const ForgotPasswordPage = lazyView(() => import('../screens/public/ForgotPasswordPage'));
const InitPasswordPage = lazyView(() => import('../screens/public/InitPasswordPage'));
const MainFrame = lazyView(() => import('../frame/MainFrame'));
const ForeignFrame = lazyView(() => import('../frame/ForeignFrame'));
const BigScreenPage = lazyView(() => import('../screens/bigScreen/BigScreenPage'));
export const routes: RouteObject[] = [
  {
    element: <SessionGate />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/forgot/password', element: <ForgotPasswordPage /> },
      { path: '/init/password', element: <InitPasswordPage /> },
      { path: '/foreign/*', element: <ForeignFrame /> },
      // The personal big screen (SPEC §6): full screen, outside the main frame; the top bar opens
      // it in a new tab carrying the token as dlmToken, which the session gate takes in.
      { path: '/big-screen', element: <BigScreenPage /> },
      // The layout pages (src/router/layoutRoutes), /404 among them (inside the frame: its menu,
      // tabs and top bar stay, issue 34), are matched by the frame itself, once per open
      // page tab (PageTabs' useRoutes): its route ends in "*" so that those descendant routes match
      // (a plain "/" made React Router warn on every load that they never would).
      {
        path: '/*',
        element: <MainFrame />,
        handle: { title: '控制台' },
      },
    ],
  },
];

export function createConsoleRouter() {
  return createBrowserRouter(routes);
}
