import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

// Dates in Chinese (weekday and month names, the week starting on Monday) for every formatter and
// date picker. Set where dates are used, not by the console's entry: the sign-in page has none
// (issue 8's first-paint budget). Import dayjs from here, never from 'dayjs' directly.
dayjs.locale('zh-cn');

export default dayjs;
export type { Dayjs } from 'dayjs';
