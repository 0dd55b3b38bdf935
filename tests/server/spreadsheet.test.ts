// Every export is one .xlsx workbook of at most EXPORT_ROW_LIMIT rows (server/http/spreadsheet.ts).
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../../server/http/envelope';
import { EXPORT_ROW_LIMIT, spreadsheet } from '../../server/http/spreadsheet';

const columns = [{ title: '序号', value: (row: number) => row }];
const rowsOf = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const now = new Date('2026-11-23T08:00:00Z');

describe('spreadsheet exports', () => {
  it('writes up to 10,000 rows under a header, named by its title and date', async () => {
    const file = await spreadsheet('设备列表', columns, rowsOf(EXPORT_ROW_LIMIT), now, 'Asia/Shanghai');
    expect(file.fileName).toBe('设备列表-20261123.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.body as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('设备列表');
    expect(sheet?.rowCount).toBe(EXPORT_ROW_LIMIT + 1);
    expect(sheet?.getRow(1).getCell(1).value).toBe('序号');
    expect(sheet?.getRow(EXPORT_ROW_LIMIT + 1).getCell(1).value).toBe(EXPORT_ROW_LIMIT);
  });

  it('writes a time as the business zone shows it, with a date-time format', async () => {
    const at = new Date('2026-11-23T18:30:05Z');
    const timed = [{ title: '时间', value: (row: number) => (row === 1 ? at : null) }];
    for (const [zone, shown] of [
      ['Asia/Shanghai', '2026-11-24T02:30:05.000Z'],
      ['America/Los_Angeles', '2026-11-23T10:30:05.000Z'],
    ] as const) {
      const file = await spreadsheet('告警记录', timed, [1, 2], now, zone);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file.body as unknown as ArrayBuffer);
      const cell = workbook.getWorksheet('告警记录')!.getRow(2).getCell(1);
      // exceljs reads the sheet's date-time back as a Date whose UTC fields are what Excel shows.
      expect((cell.value as Date).toISOString(), zone).toBe(shown);
      expect(cell.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
      expect(workbook.getWorksheet('告警记录')!.getRow(3).getCell(1).value).toBeNull();
    }
  });

  it('refuses one row more, with the message to narrow the query', async () => {
    const refused = await spreadsheet('设备列表', columns, rowsOf(EXPORT_ROW_LIMIT + 1), now, 'Asia/Shanghai').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiFailure);
    expect(refused).toMatchObject({ code: '400', message: '导出数据超过 10000 条，请缩小查询范围后再导出' });
  });
});
