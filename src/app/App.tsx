import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { Provider as StoreProvider } from 'jotai';
import { useEffect, useMemo, useState, type ComponentType } from 'react';
import { RouterProvider } from 'react-router-dom';
import { loadChunk } from '../../renderers/runtime/chunks';
import { afterFirstPaint } from '../../renderers/runtime/firstPaint';
import { useReducedMotion } from '../../renderers/runtime/motion';
import { setSessionInvalidHandler } from '../api/client';
import { notify } from '../api/notifier';
import { createConsoleRouter } from '../router/routes';
import { consoleStore, currentSession, endSession } from '../session/session';
import { consoleTheme } from './theme';
// Before the router is created: pages learn whether Back or Forward brought them (historyMoves.ts).
import './historyMoves';

/** A failed load of the message API's chunk is tried again after this long (what is said meanwhile waits). */
const NOTIFIER_RETRY_MS = 5_000;

/**
 * antd's message API (./NotifierBridge), loaded once the first page has painted: the sign-in page
 * and every page in the frame painted antd's message and its notification machinery first (issue
 * 35). Only the message API: antd's App, which also brings Modal and notification, is not mounted
 * (the frames give their confirm dialogs through ConsoleApp); messages go through `notify` everywhere.
 */
function DeferredNotifierBridge() {
  const [Bridge, setBridge] = useState<ComponentType | null>(null);
  useEffect(() => {
    let alive = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      afterFirstPaint()
        .then(() => loadChunk(() => import('./NotifierBridge')))
        .then(
          (module) => alive && setBridge(() => module.NotifierBridge),
          () => {
            if (alive) retry = setTimeout(load, NOTIFIER_RETRY_MS);
          },
        );
    void load();
    return () => {
      alive = false;
      clearTimeout(retry);
    };
  }, []);
  return Bridge ? <Bridge /> : null;
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
        <DeferredNotifierBridge />
        <RouterProvider router={router} />
      </ConfigProvider>
    </StoreProvider>
  );
}
