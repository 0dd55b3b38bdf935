import { createElement, useLayoutEffect, useMemo, useState, type ComponentType } from 'react';
import type { OpenFormAction, OpenPageAction } from '../schema/types';
import type { ShownResult } from '../actions/runAction';
import type { PageHost } from '../form/FormHost';
import { loadChunk } from './chunks';

type Bridge = ComponentType<{ onSaved: () => void; bind: (host: PageHost) => void }>;

let loaded: Bridge | null = null;
let loading: Promise<Bridge> | null = null;

/** The host's chunk, loaded once (a failed load is tried again on the next call). */
function loadBridge(): Promise<Bridge> {
  loading ??= loadChunk(() => import('./PageHostBridge')).then(
    (module) => (loaded = module.default),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

interface Waiting {
  run: (host: PageHost) => void;
  /** What the call answers when the host's chunk could not be loaded. */
  fail: () => void;
}

/** Between a page and its host: the calls made before the host is mounted wait here. */
class HostChannel {
  private host: PageHost | null = null;
  private waiting: Waiting[] = [];
  private onLoadFailed: (error: Error) => void = () => undefined;

  constructor(private readonly mount: (bridge: Bridge) => void) {}

  /** Who is told when the host's chunk could not be loaded (the page's latest notifier). */
  tellFailuresTo(onLoadFailed: (error: Error) => void): void {
    this.onLoadFailed = onLoadFailed;
  }

  /** The mounted host hands its functions over after every render; waiting calls run then. */
  readonly bind = (host: PageHost): void => {
    this.host = host;
    const calls = this.waiting;
    this.waiting = [];
    calls.forEach((call) => call.run(host));
  };

  private withHost(call: Waiting): void {
    if (this.host) return call.run(this.host);
    this.waiting.push(call);
    if (loaded) return this.mount(loaded);
    loadBridge().then(this.mount, (error: Error) => {
      const calls = this.waiting;
      this.waiting = [];
      calls.forEach((waited) => waited.fail());
      this.onLoadFailed(error);
    });
  }

  readonly openForm = (action: OpenFormAction | OpenPageAction, params: Record<string, unknown>): void =>
    this.withHost({ run: (host) => host.openForm(action, params), fail: () => undefined });

  readonly showResult = (shown: ShownResult): Promise<void> =>
    new Promise<void>((resolve) => this.withHost({ run: (host) => void host.showResult(shown).then(resolve), fail: resolve }));

  readonly confirm = (text: string, danger?: boolean): Promise<boolean> =>
    new Promise<boolean>((resolve) => this.withHost({ run: (host) => void host.confirm(text, danger).then(resolve), fail: () => resolve(false) }));
}

/**
 * The page host of `useFormHost` (drawers and modals for forms and pages, the dialogs of action
 * chains), loaded when a page first needs it rather than with the page: a list's first paint
 * draws no drawer, modal or form (issue 35). Calls made before the host has arrived wait for it;
 * when its chunk cannot be loaded they are told so (`onLoadFailed`, with the chunk's 页面资源加载失败):
 * an opening does nothing, a confirmation answers no, and the next call tries the chunk again.
 */
export function useLazyPageHost(onSaved: () => void, onLoadFailed: (error: Error) => void): PageHost {
  const [Bridge, setBridge] = useState<Bridge | null>(null);
  const [channel] = useState(() => new HostChannel((bridge) => setBridge(() => bridge)));
  useLayoutEffect(() => {
    channel.tellFailuresTo(onLoadFailed);
  });
  const host = useMemo(() => (Bridge ? createElement(Bridge, { onSaved, bind: channel.bind }) : null), [Bridge, onSaved, channel]);
  return { openForm: channel.openForm, showResult: channel.showResult, confirm: channel.confirm, host };
}
