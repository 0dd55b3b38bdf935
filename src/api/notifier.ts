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

let current: Notifier = {
  success: () => undefined,
  error: () => undefined,
  warning: () => undefined,
  info: () => undefined,
};

export function setNotifier(notifier: Notifier): void {
  current = notifier;
}

/** The notifier in force; the shell installs antd's message API at start. */
export const notify: Notifier = {
  success: (text) => current.success(text),
  error: (text) => current.error(text),
  warning: (text) => current.warning(text),
  info: (text) => current.info(text),
};
