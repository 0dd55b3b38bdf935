import { DatePicker } from 'antd';
import type { RangePickerProps } from 'antd/es/date-picker';
import { useMemo } from 'react';
import dayjs, { type Dayjs } from '../runtime/dayjs';

type Props = Omit<RangePickerProps, 'value' | 'onChange'> & {
  value?: readonly [string, string] | null;
  onChange?: (value: [string, string] | undefined) => void;
};

/**
 * A date (or date and time) range whose value is two formatted strings, as the console's filters
 * send them: `YYYY-MM-DD HH:mm:ss` with `showTime`, `YYYY-MM-DD` without, or the schema's `format`.
 */
export default function DateRange({ value, onChange, format, showTime, ...props }: Props) {
  const pattern = typeof format === 'string' ? format : showTime ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD';
  const range = useMemo(
    () => (value && value[0] && value[1] ? ([dayjs(value[0], pattern), dayjs(value[1], pattern)] as [Dayjs, Dayjs]) : null),
    [value, pattern],
  );
  return (
    <DatePicker.RangePicker
      style={{ width: '100%' }}
      {...props}
      showTime={showTime}
      format={pattern}
      value={range}
      onChange={(dates) => onChange?.(dates && dates[0] && dates[1] ? [dates[0].format(pattern), dates[1].format(pattern)] : undefined)}
    />
  );
}
