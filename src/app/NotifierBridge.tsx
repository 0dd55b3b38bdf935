import { message } from 'antd';
import { useEffect } from 'react';
import { setNotifier } from '../api/notifier';

/** How long an error or a warning stays (success and info keep antd's 3 s). */
const ERROR_SECONDS = 6;

/**
 * Installs antd's message API (inside the ConfigProvider, so it follows the locale and theme).
 * Its own chunk, mounted after the first page has painted (App.tsx, issue 35): what is said
 * before waits in src/api/notifier.ts and is said then.
 */
export function NotifierBridge() {
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
