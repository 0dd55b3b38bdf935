import { clearSession, readSession, writeSession } from '../session/storage';
import { reportReachable } from './connectivity';
import { createHttpClient } from './http';
import { notify } from './notifier';

let sessionInvalidHandler: () => void = () => {
  clearSession();
  window.location.assign('/login');
};

/** The shell replaces the default (a full reload) with a router navigation once it is mounted. */
export function setSessionInvalidHandler(handler: () => void): void {
  sessionInvalidHandler = handler;
}

/** The console's one http client, bound to the session in session storage. */
export const api = createHttpClient({
  notifier: notify,
  readHeader: (name) => readSession(name === 'token' ? 'accessToken' : 'orgCode'),
  onSessionInvalid: () => sessionInvalidHandler(),
  onReachability: reportReachable,
  readRefreshToken: () => readSession('refreshToken'),
  storeTokens: (tokens) => {
    writeSession('accessToken', tokens.accessToken);
    writeSession('refreshToken', tokens.refreshToken);
  },
});
