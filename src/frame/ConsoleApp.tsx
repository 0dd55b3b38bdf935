import { App } from 'antd';
import type { ReactNode } from 'react';

/**
 * antd's App around a frame: its confirm dialogs (`App.useApp().modal`) and its text styles. The
 * frames mount it, not the console's root, so that the public pages do not download Modal and
 * notification (issue 8's first-paint budget); messages go through `notify` everywhere.
 */
export function ConsoleApp({ children }: { children: ReactNode }) {
  return <App>{children}</App>;
}
