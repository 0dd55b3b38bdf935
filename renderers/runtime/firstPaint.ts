import { useLayoutEffect } from 'react';

/**
 * The page's first paint, for what a frame draws around it and the page does not need (issue 35:
 * the bell's popover and its daily-read modal were in a list's first paint): those wait until the
 * page has painted what it came for, then load. A page holds the first paint back while it shows
 * a loading state of its own (a chunk on its way, a schema loading, a list's first rows); the
 * first paint is done once nothing has held it back for two frames in a row, or after
 * FIRST_PAINT_MAX_WAIT_MS whatever the page is doing (a page that never settles, a hidden tab).
 */
export const FIRST_PAINT_MAX_WAIT_MS = 4_000;

let holds = 0;
let painted: Promise<void> | null = null;

/** Holds the first paint back while `active` (a loading state on screen). */
export function useFirstPaintHold(active = true): void {
  useLayoutEffect(() => {
    if (!active) return;
    holds += 1;
    return () => {
      holds -= 1;
    };
  }, [active]);
}

/** Resolves once the first page has painted (for the rest of the session it has). */
export function afterFirstPaint(): Promise<void> {
  painted ??= new Promise<void>((resolve) => {
    const cap = setTimeout(resolve, FIRST_PAINT_MAX_WAIT_MS);
    let quietFrames = 0;
    const check = () => {
      quietFrames = holds === 0 ? quietFrames + 1 : 0;
      if (quietFrames < 2) return void requestAnimationFrame(check);
      clearTimeout(cap);
      resolve();
    };
    requestAnimationFrame(check);
  });
  return painted;
}
