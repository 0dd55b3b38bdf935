import { useEffect, useState } from 'react';
import type { LiveMark } from '../schema/types';
import type { LiveFeed, LiveNotice } from '../services';

/**
 * A list's new rows (issue 22: 告警记录 and 监控告警 mark what arrived without a reload): the keys
 * of the rows that live events named since the page was opened (`liveMark` of the list schema),
 * each with when it arrived, so the row shows 新 and a highlight that fades from then.
 */

/** The most rows a page remembers as new (the oldest are forgotten first). */
export const LIVE_MARK_LIMIT = 500;
/** How long a new row's highlight takes to fade (its 新 tag stays while the page is open). */
export const LIVE_MARK_FADE_MS = 8_000;

/** The key of the row `event` announces under `mark`, or null when it announces none. */
export function markedKey(mark: LiveMark, event: LiveNotice): string | null {
  const kinds: readonly string[] = Array.isArray(mark.event) ? mark.event : [mark.event];
  if (!kinds.includes(event.kind)) return null;
  const value = event.payload[mark.key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

/** `marks` with `key` arrived at `at`: the newest last, at most `limit`. Unchanged (the same map) for a key already marked. */
export function withMark(marks: ReadonlyMap<string, number>, key: string, at: number, limit = LIVE_MARK_LIMIT): ReadonlyMap<string, number> {
  if (marks.has(key)) return marks;
  const next = new Map(marks);
  next.set(key, at);
  for (const oldest of next.keys()) {
    if (next.size <= limit) break;
    next.delete(oldest);
  }
  return next;
}

/** The row's value its mark is read by (a dotted field reads inside the row). */
export function rowMarkKey(row: Readonly<Record<string, unknown>>, field: string): string | null {
  let value: unknown = row;
  for (const part of field.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

/** The rows marked new while this page is open: key → when its event arrived (ms). */
export function useLiveMarks(mark: LiveMark | undefined, live: LiveFeed | undefined): ReadonlyMap<string, number> {
  const [marks, setMarks] = useState<ReadonlyMap<string, number>>(() => new Map());
  useEffect(() => {
    if (!mark || !live) return;
    return live.subscribe((event) => {
      const key = markedKey(mark, event);
      if (key !== null) setMarks((current) => withMark(current, key, Date.now()));
    });
  }, [mark, live]);
  return marks;
}
