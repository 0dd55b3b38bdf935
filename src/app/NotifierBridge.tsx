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
    // A message said again while it is still shown is the one notice, shown for its full time
    // again (antd updates the notice of the same key): two steps that both end in 设置成功！, or a
    // page and its dialog both telling one failure, showed the words twice, one under the other.
    const key = (kind: string, text: string) => `${kind}:${text}`;
    setNotifier({
      success: (text) => void messages.success({ content: text, key: key('success', text) }),
      // What went wrong stays long enough to be read (antd's 3 s went by while a slow page was
      // still taking the user to /login after 用户失效，请重新登录).
      error: (text) => void messages.error({ content: text, key: key('error', text), duration: ERROR_SECONDS }),
      warning: (text) => void messages.warning({ content: text, key: key('warning', text), duration: ERROR_SECONDS }),
      info: (text) => void messages.info({ content: text, key: key('info', text) }),
    });
  }, [messages]);
  return holder;
}
