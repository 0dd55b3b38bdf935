import { theme } from 'antd';
import AppContext, { type useAppProps } from 'antd/es/app/context';
import type { HookAPI } from 'antd/es/modal/useModal';
import { createElement, useContext, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { loadChunk } from '../../renderers/runtime/chunks';
import { notify } from '../api/notifier';
import { lazyModalApi } from './lazyModal';

type Host = ComponentType<{ onReady: (modal: HookAPI) => void }>;

/** Loads the dialogs' holder once and mounts it; a failed load is tried again by the next dialog. */
class DialogChannel {
  private ready: Promise<HookAPI> | null = null;
  private resolve: ((modal: HookAPI) => void) | null = null;

  constructor(private readonly mount: (host: Host) => void) {}

  readonly load = (): Promise<HookAPI> => {
    this.ready ??= loadChunk(() => import('./ModalHost')).then(
      (module) =>
        new Promise<HookAPI>((resolve) => {
          this.resolve = resolve;
          this.mount(module.default);
        }),
      (error: unknown) => {
        this.ready = null;
        throw error;
      },
    );
    return this.ready;
  };

  readonly hostReady = (modal: HookAPI): void => {
    this.resolve?.(modal);
    this.resolve = null;
  };
}

/**
 * What antd's App gave the frames, without its weight on the first paint (issue 35): the text
 * styles of its root (the theme's colour, size, line height and font), and `App.useApp().modal`
 * for confirm dialogs, whose holder (antd's Modal) loads with the first dialog. Messages go
 * through `notify` everywhere; the App's `message` and `notification` stay antd's empty defaults.
 */
export function ConsoleApp({ children }: { children: ReactNode }) {
  const outer = useContext(AppContext);
  const { token } = theme.useToken();
  const [Host, setHost] = useState<Host | null>(null);
  const [channel] = useState(() => new DialogChannel((host) => setHost(() => host)));
  const value = useMemo<useAppProps>(() => ({ ...outer, modal: lazyModalApi(channel.load, (error) => notify.error(`${error.message}，请重试`)) }), [outer, channel]);
  return (
    <AppContext.Provider value={value}>
      <div className="console-app" style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}>
        {children}
        {Host && createElement(Host, { onReady: channel.hostReady })}
      </div>
    </AppContext.Provider>
  );
}

/** The frame's confirm dialogs (what `App.useApp().modal` gives, without importing antd's App). */
export function useConsoleModal(): HookAPI {
  return useContext(AppContext).modal;
}
