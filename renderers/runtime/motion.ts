import { useSyncExternalStore } from 'react';

/** The user's system setting asking for less motion (WCAG 2.3.3). */
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function query(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(REDUCED_MOTION) : null;
}

function subscribe(onChange: () => void): () => void {
  const list = query();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

export function prefersReducedMotion(): boolean {
  return query()?.matches ?? false;
}

/** Whether the user asked for reduced motion; follows the setting while the page is open. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
}
