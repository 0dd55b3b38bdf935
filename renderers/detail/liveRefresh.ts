import { useEffect, useRef } from 'react';
import type { LiveRefresh } from '../schema/types';
import type { LiveFeed, LiveNotice } from '../services';

/**
 * A detail section that follows the live stream (`live` of a section: 设备详情's 数据趋势 loads
 * again when its device reports an alarm or comes online): which events concern it, and a reload
 * that runs at most once every few seconds however many arrive.
 */

/** The least time between two live reloads of one section. */
export const LIVE_RELOAD_MS = 3_000;

/** Whether `event` is one the section waits for: of its kinds, and its payload holding every value of `match`. */
export function concerns(live: LiveRefresh, match: Readonly<Record<string, unknown>>, event: LiveNotice): boolean {
  if (!(live.events as readonly string[]).includes(event.kind)) return false;
  return Object.entries(match).every(([field, value]) => value !== undefined && value !== null && value !== '' && String(event.payload[field]) === String(value));
}

export interface Throttled {
  /** Asks for a run: now when the last was long enough ago, else once when it is. */
  (): void;
  cancel(): void;
}

/** `run` at most once every `ms`: the first call at once, the calls within the pause as one at its end. */
export function throttled(run: () => void, ms: number, clock: () => number = Date.now): Throttled {
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    timer = null;
    last = clock();
    run();
  };
  const ask = (() => {
    if (timer) return;
    const wait = last + ms - clock();
    if (wait <= 0) fire();
    else timer = setTimeout(fire, wait);
  }) as Throttled;
  ask.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return ask;
}

/**
 * Reloads through `reload` (the latest one given) when the live stream tells of an event that
 * concerns the section, at most once every LIVE_RELOAD_MS; while `recent` (the range runs up to
 * now), also every `live.everySeconds` while it is `shown` (not in a hidden page tab) in a
 * visible browser tab.
 */
export function useLiveRefresh(
  live: LiveRefresh | undefined,
  match: Readonly<Record<string, unknown>>,
  feed: LiveFeed | undefined,
  reload: () => void,
  recent: boolean,
  shown: () => boolean = () => true,
): void {
  const latest = useRef(reload);
  const isShown = useRef(shown);
  useEffect(() => {
    latest.current = reload;
    isShown.current = shown;
  });
  const matchKey = JSON.stringify(match);
  useEffect(() => {
    if (!live || !feed) return;
    const wanted = JSON.parse(matchKey) as Record<string, unknown>;
    const ask = throttled(() => latest.current(), LIVE_RELOAD_MS);
    const off = feed.subscribe((event) => {
      if (concerns(live, wanted, event)) ask();
    });
    return () => {
      off();
      ask.cancel();
    };
  }, [live, feed, matchKey]);
  const every = live?.everySeconds;
  useEffect(() => {
    if (!recent || !every) return;
    const timer = setInterval(() => {
      if ((typeof document === 'undefined' || document.visibilityState === 'visible') && isShown.current()) latest.current();
    }, every * 1000);
    return () => clearInterval(timer);
  }, [recent, every]);
}
