import { ConfigProvider, message } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { Provider as StoreProvider } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { useReducedMotion } from '../../renderers/runtime/motion';
import { setSessionInvalidHandler } from '../api/client';
import { notify, setNotifier } from '../api/notifier';
import { createConsoleRouter } from '../router/routes';
import { consoleStore, currentSession, endSession } from '../session/session';
import { consoleTheme } from './theme';
// Before the router is created: pages learn whether Back or Forward brought them (historyMoves.ts).
import './historyMoves';

/**
 * Installs antd's message API (inside the ConfigProvider, so it follows the locale and theme).
 * Only the message API: antd's App, which also brings Modal and notification, is mounted by the
 * frames that need a confirm dialog (`ConsoleApp`), so that the sign-in page does not download
 * them (issue 8's first-paint budget).
 */
/** How long an error or a warning stays (success and info keep antd's 3 s). */
const ERROR_SECONDS = 6;

function NotifierBridge() {
  const [messages, holder] = message.useMessage();
  useEffect(() => {
    setNotifier({
      success: (text) => void messages.success(text),
      // What went wrong stays long enough to be read (antd's 3 s went by while a slow page was
      // still taking the user to /login after 用户失效，请重新登录).
      error: (text) => void messages.error({ content: text, duration: ERROR_SECONDS }),
      warning: (text) => void messages.warning({ content: text, duration: ERROR_SECONDS }),
      info: (text) => void messages.info(text),
    });
  }, [messages]);
  return holder;
}

export function App() {
  const [router] = useState(createConsoleRouter);
  // Users who ask their system for less motion get none of antd's transitions (drawers, modals, menus).
  const reducedMotion = useReducedMotion();
  const theme = useMemo(() => consoleTheme(!reducedMotion), [reducedMotion]);
  // Unexpected errors: logged once with the page they happened on, and a friendly notice. Loaded
  // after the first paint (the list page's first-paint budget); until then they are logged plainly.
  useEffect(() => {
    let uninstall: (() => void) | undefined;
    let gone = false;
    void import('./errorReporting').then(({ installErrorReporting, pageContext }) => {
      if (!gone) uninstall = installErrorReporting({ notify, page: () => pageContext(currentSession()?.menus ?? [], window.location) });
    });
    return () => {
      gone = true;
      uninstall?.();
    };
  }, []);
  useEffect(() => {
    setSessionInvalidHandler(() => {
      endSession();
      void router.navigate('/login', { replace: true });
    });
  }, [router]);
  return (
    <StoreProvider store={consoleStore}>
      <ConfigProvider locale={zhCN} theme={theme}>
        <NotifierBridge />
        <RouterProvider router={router} />
      </ConfigProvider>
    </StoreProvider>
  );
}
