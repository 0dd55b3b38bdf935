import { api } from '../api/client';
import { readSession } from '../session/storage';
import { reportError } from '../../renderers/runtime/errorReporter';
import { LIVE_EVENT_KINDS, type LiveEventKind } from '../../renderers/schema/types';

/**
 * The console's end of the platform's live stream (GET /api/live/events, server-sent events): one
 * EventSource per tab while a session is signed in, told of devices coming online and alarms
 * raised or recovered within the selected organisation. The browser reconnects by itself and sends
 * the last event id, so the server catches the tab up; a stream that the server refused or closed
 * is opened again with the session's current token after a pause that grows, up to a minute. A
 * stream whose session ended (told as a `session` event, then closed) is not opened again with its
 * dead token: the session is asked first (renewed, or ended and the tab sent to the login page).
 * Whoever needs to know subscribes by kind.
 */

// The kinds are the page schema language's too (a list's liveMark, a section's live refresh name them).
export { LIVE_EVENT_KINDS, type LiveEventKind } from '../../renderers/schema/types';

export interface LiveEvent {
  id: string;
  kind: LiveEventKind;
  organizationCode: string;
  payload: Record<string, unknown>;
  at: string;
}

type Listener = (event: LiveEvent) => void;

const listeners = new Set<Listener>();

/** Calls `listener` with every live event until the answer is called. */
export function onLiveEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Hands an event to every subscriber (what the stream does; tests call it too). */
export function announce(event: LiveEvent): void {
  for (const listener of [...listeners]) listener(event);
}

/** EventSource.CLOSED (read as a number: not every runtime that loads this module has EventSource). */
const CLOSED = 2;
const FIRST_RETRY_MS = 2_000;
const LAST_RETRY_MS = 60_000;

export interface LiveConnection {
  close(): void;
}

/** The stream's address for the session in storage; null without one. */
export function liveAddress(base = '/api'): string | null {
  const token = readSession('accessToken');
  if (!token) return null;
  const query = new URLSearchParams({ token });
  const orgCode = readSession('orgCode');
  if (orgCode) query.set('orgCode', orgCode);
  return `${base}/live/events?${query.toString()}`;
}

/**
 * Asks the platform whether the session holds: a call through the console's http client outside
 * the cache, told to nobody (the client tells nobody), which renews an expired access token with
 * the refresh token, or ends the session ("301", through the session handler).
 */
const askSession = async (): Promise<void> => {
  await api.call('auth.init', {});
};

/**
 * Opens the stream (EventSource cannot send headers: the token goes in the address). `checkSession`
 * is asked when the server says the stream's token no longer holds (tests give their own).
 */
export function connectLive(createSource: (url: string) => EventSource = (url) => new EventSource(url), checkSession: () => Promise<void> = askSession): LiveConnection {
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let pause = FIRST_RETRY_MS;
  let closed = false;
  let lastId: string | null = null;

  const open = () => {
    retry = null;
    const address = liveAddress();
    if (closed || !address) return;
    const usedToken = readSession('accessToken');
    const next = createSource(lastId ? `${address}&lastEventId=${encodeURIComponent(lastId)}` : address);
    source = next;
    next.onopen = () => {
      pause = FIRST_RETRY_MS;
    };
    for (const kind of LIVE_EVENT_KINDS) {
      next.addEventListener(kind, (message) => {
        const { data, lastEventId } = message as MessageEvent<string>;
        if (lastEventId) lastId = lastEventId;
        let event: LiveEvent;
        try {
          event = JSON.parse(data) as LiveEvent;
        } catch (error) {
          // A frame this console does not understand is skipped.
          if (error instanceof SyntaxError) return;
          throw error;
        }
        try {
          announce(event);
        } catch (error) {
          // A listener's failure is a programming error: reported, and the stream goes on.
          reportError(error, '实时事件');
        }
      });
    }
    // The session's token was refused, or its session ended while the stream was open (signed
    // out elsewhere, its user disabled, its token expired). Opened again with the same token it
    // would be refused again: the session is asked first, through the http client, which renews
    // an expired token or, for a session that ended, goes to the login page (用户失效，请重新登录);
    // then the stream is opened with whatever token the session holds by then (none: it stays closed).
    next.addEventListener('session', () => {
      next.close();
      if (closed || source !== next) return;
      source = null;
      const reopenLater = () => {
        if (closed || source !== null || retry !== null) return;
        retry = setTimeout(open, pause);
        pause = Math.min(pause * 2, LAST_RETRY_MS);
      };
      if (readSession('accessToken') !== usedToken) return reopenLater();
      void checkSession().then(
        () => (readSession('accessToken') !== usedToken && !closed && source === null && retry === null ? open() : reopenLater()),
        reopenLater,
      );
    });
    next.onerror = () => {
      // The browser retries a dropped connection itself; a refused one (CLOSED) is ours to reopen.
      if (next.readyState !== CLOSED || closed || source !== next) return;
      source = null;
      retry = setTimeout(open, pause);
      pause = Math.min(pause * 2, LAST_RETRY_MS);
    };
  };
  open();
  return {
    close() {
      closed = true;
      if (retry) clearTimeout(retry);
      source?.close();
    },
  };
}
