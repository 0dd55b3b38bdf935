import { clearSession, readSession, writeSession } from '../session/storage';
import { reportReachable } from './connectivity';
import { createHttpClient } from './http';
import { SESSION_INVALID_MESSAGE } from './messages';
import { notify } from './notifier';

let sessionInvalidHandler: (() => void) | null = null;
/** A "301" came back before the shell was mounted; the shell is told when it installs its handler. */
let endedBeforeShell = false;

/**
 * What a "301" does, once for a burst of them (the client latches): say 用户失效，请重新登录 (SPEC
 * §8; the data layer's error policy leaves "301" to this handler), then the shell's handler (end
 * the session, go to /login through the router).
 * Before the shell has mounted (a reload's first calls can answer that soon on a busy machine) the
 * session ends at once and the shell goes to /login as it mounts. Not a full reload to /login: that
 * dropped 用户失效，请重新登录, which the notifier was holding for the shell (it failed so in CI).
 */
export function sessionInvalid(): void {
  notify.error(SESSION_INVALID_MESSAGE);
  if (sessionInvalidHandler) return sessionInvalidHandler();
  clearSession();
  endedBeforeShell = true;
}

/** The shell's way to end a session (a router navigation); a "301" met before it runs now. */
export function setSessionInvalidHandler(handler: () => void): void {
  sessionInvalidHandler = handler;
  if (!endedBeforeShell) return;
  endedBeforeShell = false;
  handler();
}

/**
 * The console's one http client, bound to the session in session storage. It transports and tells
 * nobody: screens read through src/api/data.ts, whose cache tells; a call made outside it says so
 * (src/api/failures.ts).
 */
export const api = createHttpClient({
  readHeader: (name) => readSession(name === 'token' ? 'accessToken' : 'orgCode'),
  onSessionInvalid: sessionInvalid,
  onReachability: reportReachable,
  readRefreshToken: () => readSession('refreshToken'),
  storeTokens: (tokens) => {
    writeSession('accessToken', tokens.accessToken);
    writeSession('refreshToken', tokens.refreshToken);
  },
});
