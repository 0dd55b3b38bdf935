import { App as AntdApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { Provider as StoreProvider } from 'jotai';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { useReducedMotion } from '../../renderers/runtime/motion';
import { setSessionInvalidHandler } from '../api/client';
import { setNotifier } from '../api/notifier';
import { createConsoleRouter } from '../router/routes';
import { consoleStore, endSession } from '../session/session';

/** Installs antd's message API (inside the ConfigProvider, so it follows the locale and theme). */
function NotifierBridge() {
  const { message } = AntdApp.useApp();
  useEffect(() => {
    setNotifier({
      success: (text) => void message.success(text),
      error: (text) => void message.error(text),
      warning: (text) => void message.warning(text),
      info: (text) => void message.info(text),
    });
  }, [message]);
  return null;
}

export function App() {
  const [router] = useState(createConsoleRouter);
  // Users who ask their system for less motion get none of antd's transitions (drawers, modals, menus).
  const reducedMotion = useReducedMotion();
  useEffect(() => {
    setSessionInvalidHandler(() => {
      endSession();
      void router.navigate('/login', { replace: true });
    });
  }, [router]);
  return (
    <StoreProvider store={consoleStore}>
      <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: '#1677ff', borderRadius: 6, motion: !reducedMotion } }}>
        <AntdApp>
          <NotifierBridge />
          <RouterProvider router={router} />
        </AntdApp>
      </ConfigProvider>
    </StoreProvider>
  );
}
