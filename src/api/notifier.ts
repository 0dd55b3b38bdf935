/**
 * How the console tells the user about the outcome of a call. One small interface (as in
 * react-admin's notification provider) so that the http client can be tested without antd.
 */
export interface Notifier {
  success(text: string): void;
  error(text: string): void;
  warning(text: string): void;
  info(text: string): void;
}

type Kind = keyof Notifier;

/**
 * What was said before the shell installed its notifier (a call that failed while the page was
 * still mounting: the "301" of a reload with an expired session came back before the effect that
 * installs antd's message API had run, and 用户失效，请重新登录 was lost). Said once installed.
 */
let waiting: Array<{ kind: Kind; text: string }> = [];
/** Enough for a page's first calls; older ones give way (nothing installs a notifier in some tests). */
const WAITING_LIMIT = 20;
const wait = (kind: Kind, text: string) => {
  waiting.push({ kind, text });
  if (waiting.length > WAITING_LIMIT) waiting.shift();
};
const queueing: Notifier = {
  success: (text) => wait('success', text),
  error: (text) => wait('error', text),
  warning: (text) => wait('warning', text),
  info: (text) => wait('info', text),
};
let current: Notifier = queueing;

export function setNotifier(notifier: Notifier): void {
  current = notifier;
  const said = waiting;
  waiting = [];
  for (const { kind, text } of said) notifier[kind](text);
}

/** The notifier in force; the shell installs antd's message API at start. */
export const notify: Notifier = {
  success: (text) => current.success(text),
  error: (text) => current.error(text),
  warning: (text) => current.warning(text),
  info: (text) => current.info(text),
};
