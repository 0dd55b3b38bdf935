/**
 * SPEC §9 count display: up to 1000 as it is; above 1000 floored to thousands with "+";
 * above 10000 in tens of thousands (万) with one decimal and "万+".
 */
export function formatCount(value: number | null | undefined): string {
  const count = Number(value ?? 0);
  if (!Number.isFinite(count)) return '0';
  if (count > 10_000) return `${(Math.floor(count / 1000) / 10).toFixed(1)}万+`;
  if (count > 1000) return `${Math.floor(count / 1000) * 1000}+`;
  return String(count);
}

const HOUR = 3600;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;
/** SPEC §9: years are capped at 3年. */
export const MAX_DURATION_YEARS = 3;

/**
 * SPEC §9 duration display from seconds: hours under a day; days plus hours under 30 days;
 * months plus days plus hours under a year; whole years above that, capped at 3年.
 */
export function formatDuration(seconds: number | null | undefined): string {
  const total = Math.max(0, Math.floor(Number(seconds ?? 0)) || 0);
  if (total < DAY) return `${Math.floor(total / HOUR)}小时`;
  if (total < MONTH) return `${Math.floor(total / DAY)}天${Math.floor((total % DAY) / HOUR)}小时`;
  if (total < YEAR) {
    const months = Math.floor(total / MONTH);
    const days = Math.floor((total % MONTH) / DAY);
    const hours = Math.floor((total % DAY) / HOUR);
    return `${months}个月${days}天${hours}小时`;
  }
  return `${Math.min(MAX_DURATION_YEARS, Math.floor(total / YEAR))}年`;
}

const GROUPED = new Map<number, Intl.NumberFormat>();

/**
 * A count or an amount as people read it: the exact value with thousand separators and at most
 * `maxDecimals` decimals (6,211; 1,234.57; 0.5). Badges use formatCount (SPEC §9's floored form);
 * lists, descriptions, KPI cards and chart axes use this. Not a number: a dash.
 */
export function formatNumber(value: unknown, maxDecimals = 2): string {
  if (value === null || value === undefined || value === '') return '-';
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) return typeof value === 'string' ? value : '-';
  let format = GROUPED.get(maxDecimals);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { maximumFractionDigits: maxDecimals });
    GROUPED.set(maxDecimals, format);
  }
  // -0 and values that round to zero read as 0, not -0.
  const text = format.format(number);
  return text === '-0' ? '0' : text;
}
