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
    const file = await spreadsheet('设备列表', columns, rowsOf(EXPORT_ROW_LIMIT), now);
    expect(file.fileName).toBe('设备列表-20261123.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.body as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('设备列表');
    expect(sheet?.rowCount).toBe(EXPORT_ROW_LIMIT + 1);
    expect(sheet?.getRow(1).getCell(1).value).toBe('序号');
    expect(sheet?.getRow(EXPORT_ROW_LIMIT + 1).getCell(1).value).toBe(EXPORT_ROW_LIMIT);
  });

  it('refuses one row more, with the message to narrow the query', async () => {
    const refused = await spreadsheet('设备列表', columns, rowsOf(EXPORT_ROW_LIMIT + 1), now).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiFailure);
    expect(refused).toMatchObject({ code: '400', message: '导出数据超过 10000 条，请缩小查询范围后再导出' });
  });
});
