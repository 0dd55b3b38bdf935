import ExcelJS from 'exceljs';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { businessDayStamp, zoneOffsetMs } from '../domain/businessTime';
import { fail } from './envelope';

/** A file answer of a `blob` operation: the route sends it with its type and file name. */
export class FileAnswer {
  constructor(
    readonly fileName: string,
    readonly contentType: string,
    readonly body: Buffer,
  ) {}
}

export interface SheetColumn<R> {
  title: string;
  value: (row: R) => string | number | Date | null;
  width?: number;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The most rows one export writes. A larger result is refused with a message rather than cut
 * short without a word: each workbook is built in the server's memory, and a caller may not have
 * it build tens of thousands of rows on every request.
 */
export const EXPORT_ROW_LIMIT = 10_000;
export const EXPORT_TOO_LARGE = `导出数据超过 ${EXPORT_ROW_LIMIT} 条，请缩小查询范围后再导出`;

/** How a time cell reads in the sheet. */
const TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/**
 * A spreadsheet time has no zone: Excel shows the date-time that exceljs writes from a Date's UTC
 * fields. A time is therefore written as the business zone's wall clock (10:00 in Shanghai, not
 * 02:00), as the console shows it.
 */
function cellValue(value: string | number | Date | null, timeZone: string): string | number | Date | null {
  return value instanceof Date ? new Date(value.getTime() + zoneOffsetMs(value, timeZone)) : value;
}

/**
 * A real .xlsx workbook: one sheet, a bold header row, one row per record. Written with exceljs's
 * streaming writer and the fastest deflate: 5,000 rows in about 460 ms instead of 750 for the
 * in-memory workbook, for a file a fifth larger. Strings stay in the shared table: written inline,
 * an empty text was no cell at all. The file is named by its title and the business day of `now`
 * (in `timeZone`): 设备列表-20261124.xlsx.
 */
export async function spreadsheet<R>(title: string, columns: readonly SheetColumn<R>[], rows: readonly R[], now: Date, timeZone: string): Promise<FileAnswer> {
  if (rows.length > EXPORT_ROW_LIMIT) throw fail.badRequest(EXPORT_TOO_LARGE);
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: true, zip: { zlib: { level: 1 } } });
  workbook.created = now;
  const sheet = workbook.addWorksheet(title);
  sheet.columns = columns.map((column) => ({ header: column.title, width: column.width ?? 18 }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) {
    const written = sheet.addRow(columns.map((column) => cellValue(column.value(row), timeZone)));
    written.eachCell((cell) => {
      if (cell.value instanceof Date) cell.numFmt = TIME_FORMAT;
    });
    written.commit();
  }
  sheet.commit();
  await workbook.commit();
  // The writer resolves when the stream has taken the last bytes; they are read out by 'end'.
  if (!stream.readableEnded) await once(stream, 'end');
  const stamp = businessDayStamp(now, timeZone);
  return new FileAnswer(`${title}-${stamp}.xlsx`, XLSX_TYPE, Buffer.concat(chunks));
}
