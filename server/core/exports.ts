import { spreadsheet, type FileAnswer, type SheetColumn } from '../http/spreadsheet';
import type { OperationContext } from './context';

/**
 * An export's file: the rows as a spreadsheet made at the request's time, its times written on the
 * business zone's clock (http/spreadsheet.ts; a list past its limit refused with its message).
 */
export function exportFile<R>(context: OperationContext<unknown>, title: string, columns: readonly SheetColumn<R>[], rows: readonly R[]): Promise<FileAnswer> {
  return spreadsheet(title, columns, rows, context.now, context.config.timeZone);
}
