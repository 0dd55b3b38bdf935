/**
 * The business time zone (ServerConfig.timeZone, TIME_ZONE, default Asia/Shanghai): the users'
 * days and months. Statistics bucket by it, "today" is its today, codes and export names carry its
 * date, and a time the console sends without an offset ("2026-11-24 08:00:00", a picker's wall
 * clock) is read in it. Everything here goes through Intl with the zone named, never through the
 * process's zone (Date's getHours, getDate, setDate…), so the answers do not depend on where the
 * server runs. The database sessions are pinned to the same zone, so SQL's date_trunc and to_char
 * agree with these.
 */

const DAY_MS = 86_400_000;

/** A wall-clock reading in a zone: month 1–12, weekday 0 (Sunday) – 6. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

const WEEKDAYS: Readonly<Record<string, number>> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock in `timeZone` at instant `at`. */
export function wallClockOf(at: Date, timeZone: string): WallClock {
  const parts: Record<string, string> = {};
  for (const part of formatterOf(timeZone).formatToParts(at)) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    // Some runtimes print midnight as 24 even with h23.
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS[parts.weekday] ?? 0,
  };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `at`, in ms (+8 h for Asia/Shanghai). */
export function zoneOffsetMs(at: Date, timeZone: string): number {
  const wall = wallClockOf(at, timeZone);
  const seconds = at.getTime() - at.getUTCMilliseconds();
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) - seconds;
}

const pad2 = (value: number) => String(value).padStart(2, '0');
const year4 = (value: number) => String(value).padStart(4, '0');

/** The business day of an instant: `YYYY-MM-DD` (2026-01-01T17:30Z is 2026-01-02 in Asia/Shanghai). */
export function businessDay(at: Date, timeZone: string): string {
  const wall = wallClockOf(at, timeZone);
  return `${year4(wall.year)}-${pad2(wall.month)}-${pad2(wall.day)}`;
}

/** The business day of an instant as codes carry it: `YYYYMMDD`. */
export function businessDayStamp(at: Date, timeZone: string): string {
  return businessDay(at, timeZone).replace(/-/g, '');
}

/** The business month of an instant: `YYYY-MM`. */
export function businessMonth(at: Date, timeZone: string): string {
  return businessDay(at, timeZone).slice(0, 7);
}

/** `YYYY-MM-DD HH:mm` in the business zone, as messages and tags print a time. */
export function businessMinute(at: Date, timeZone: string): string {
  return businessSecond(at, timeZone).slice(0, 16);
}

/** `YYYY-MM-DD HH:mm:ss` in the business zone, as the date pickers show a time. */
export function businessSecond(at: Date, timeZone: string): string {
  const wall = wallClockOf(at, timeZone);
  return `${year4(wall.year)}-${pad2(wall.month)}-${pad2(wall.day)} ${pad2(wall.hour)}:${pad2(wall.minute)}:${pad2(wall.second)}`;
}

/**
 * The instant the wall clock in `timeZone` reads the given time (month 1–12). A time that a
 * daylight-saving change skips is read with the offset before the change.
 */
export function instantOfWallClock(timeZone: string, year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): Date {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const first = asUtc - zoneOffsetMs(new Date(asUtc), timeZone);
  return new Date(asUtc - zoneOffsetMs(new Date(first), timeZone));
}

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayParts(day: string): [number, number, number] {
  const match = DAY_TEXT.exec(day);
  if (!match) throw new Error(`not a day (YYYY-MM-DD): ${day}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** The instant the business day `YYYY-MM-DD` starts. */
export function startOfDay(day: string, timeZone: string): Date {
  const [year, month, date] = dayParts(day);
  return instantOfWallClock(timeZone, year, month, date);
}

/** The instant the business day of `at` started (its midnight in the zone). */
export function startOfBusinessDay(at: Date, timeZone: string): Date {
  return startOfDay(businessDay(at, timeZone), timeZone);
}

/** The instant the business year `year` starts (1 January, 00:00 in the zone). */
export function startOfBusinessYear(year: number, timeZone: string): Date {
  return instantOfWallClock(timeZone, year, 1, 1);
}

/** The calendar day `days` after `day` (before, when negative): plain date arithmetic, no zone. */
export function addDays(day: string, days: number): string {
  const [year, month, date] = dayParts(day);
  return new Date(Date.UTC(year, month - 1, date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The weekday of a calendar day: 0 Sunday … 6 Saturday. */
export function weekdayOf(day: string): number {
  const [year, month, date] = dayParts(day);
  return new Date(Date.UTC(year, month - 1, date)).getUTCDay();
}

/** Every business day from the day of `start` to the day of `end`, both included, in order. */
export function businessDaysBetween(start: Date, end: Date, timeZone: string): string[] {
  const last = businessDay(end, timeZone);
  const days: string[] = [];
  for (let day = businessDay(start, timeZone); day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}

/** Whether `year`-`month`-`day` is a day of the calendar (2026-02-31 is not). */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A date or date-time as the console's pickers send it, or an ISO 8601 time with its offset. */
const TIME_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * The instant a time text names: with `Z` or an offset, as written; without one, as the wall
 * clock of the business zone (a date alone is the start of that day). An Invalid Date for anything
 * else, a day the calendar lacks (2026-02-31) or an hour past 23. Never the process's zone, as
 * `new Date("2026-11-24 08:00:00")` would be.
 */
export function parseBusinessTime(text: string, timeZone: string): Date {
  const match = TIME_TEXT.exec(text.trim());
  if (!match) return new Date(Number.NaN);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const [hour, minute, second] = [Number(match[4] ?? 0), Number(match[5] ?? 0), Number(match[6] ?? 0)];
  const ms = match[7] ? Number(match[7].padEnd(3, '0').slice(0, 3)) : 0;
  if (!isCalendarDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return new Date(Number.NaN);
  const offset = match[8];
  if (offset === undefined) return instantOfWallClock(timeZone, year, month, day, hour, minute, second, ms);
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  if (offset === 'Z') return new Date(wall);
  const digits = offset.replace(':', '');
  const offsetMinutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  if (Number(digits.slice(1, 3)) > 23 || Number(digits.slice(3, 5)) > 59) return new Date(Number.NaN);
  return new Date(wall - (digits.startsWith('-') ? -1 : 1) * offsetMinutes * 60_000);
}
