/**
 * Whether the platform can be reached: lost when the browser goes offline or a call gets no
 * answer at all, back when the browser is online again or any call is answered. The frame shows a
 * banner while it is lost; pages whose load failed retry once it is back.
 */
type Listener = () => void;

let reachable = typeof navigator === 'undefined' ? true : navigator.onLine !== false;
const changes = new Set<Listener>();
const recoveries = new Set<Listener>();

export function isReachable(): boolean {
  return reachable;
}

/** Records what was just learnt; listeners hear only real changes, recoveries only lost → back. */
export function reportReachable(now: boolean): void {
  if (now === reachable) return;
  reachable = now;
  for (const listener of [...changes]) listener();
  if (now) for (const listener of [...recoveries]) listener();
}

/** For useSyncExternalStore: called on every change of isReachable(). */
export function subscribeReachability(listener: Listener): () => void {
  changes.add(listener);
  return () => changes.delete(listener);
}

/** Called each time the platform is back after being lost. */
export function onReconnected(listener: Listener): () => void {
  recoveries.add(listener);
  return () => recoveries.delete(listener);
}

if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => reportReachable(false));
  window.addEventListener('online', () => reportReachable(true));
}
