import dayjs from '../../renderers/runtime/dayjs';
import { formatCount, formatDuration, formatNumber } from './numbers';
import { maskPhone } from './phone';

export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DATE_FORMAT = 'YYYY-MM-DD';

function formatTime(value: unknown, pattern: string): string {
  const time = dayjs(value as string | number | Date);
  return time.isValid() ? time.format(pattern) : String(value);
}

/** The named text formats page schemas use in `display` (SPEC §5 and §9). */
export const FORMATS: Readonly<Record<string, (value: unknown) => string>> = {
  count: (value) => formatCount(Number(value)),
  number: (value) => formatNumber(value),
  duration: (value) => formatDuration(Number(value)),
  phone: (value) => maskPhone(value === null || value === undefined ? '' : String(value)),
  datetime: (value) => formatTime(value, DATETIME_FORMAT),
  date: (value) => formatTime(value, DATE_FORMAT),
  money: (value) => `¥${Number(value).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
  percent: (value) => `${(Number(value) * 100).toFixed(1)}%`,
};

/** Files the platform stores are served under this prefix (SPEC §7: when the url lacks https); their urls: src/format/fileTicket.ts. */
export { FILE_PATH_PREFIX } from '../../renderers/data/filePaths';
