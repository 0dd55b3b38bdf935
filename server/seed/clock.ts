/** The seed's units of time and how its times and numbers are written, shared by every generator. */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** An instant as the ISO text the rows carry. */
export const iso = (time: Date | number) => new Date(time).toISOString();
/** A number with leading zeros to `width` digits. */
export const pad = (value: number, width: number) => String(value).padStart(width, '0');
/** A counter by key from 1 (a business day's running number in the codes the rows carry). */
export function counter(): (key: string) => number {
  const counts = new Map<string, number>();
  return (key) => {
    const next = (counts.get(key) ?? 0) + 1;
    counts.set(key, next);
    return next;
  };
}
