/**
 * Which history entry the browser's last Back or Forward landed on (popstate fires for those,
 * never for the router's own moves): its router key, null for the entry the console was loaded
 * on (the router keeps only its index there); `stateless` for an entry made outside the router,
 * which is no return to anything a page has shown.
 *
 * Listened to from the console's start, before the router listens: React renders the router's
 * update at the first microtask checkpoint, which comes between two listeners of the event, and
 * the pages rendered then must already know how they were reached.
 */
let popped: { key: string | null; stateless: boolean } | null = null;

window.addEventListener(
  'popstate',
  () => {
    const state = window.history.state as { key?: unknown } | null;
    popped = { key: typeof state?.key === 'string' ? state.key : null, stateless: state === null };
  },
  { capture: true },
);

/** Did Back or Forward bring the location of this router key (rather than a link, a menu or a tab click)? */
export function reachedByTraversal(key: string): boolean {
  if (!popped) return false;
  if (key !== 'default') return popped.key === key;
  return popped.key === null && !popped.stateless;
}
