import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { catalogue, type TestServer } from './harness';

/** Shared by the maintenance tests (health, recycle bin, sleep, errors, gateways, cameras). */

export interface Page<T> {
  records: T[];
  total: number;
  pageNumber: number;
  pageSize: number;
}

export interface PageOptions {
  pageNumber?: number;
  pageSize?: number;
  sort?: Array<{ field: string; order: 'asc' | 'desc' }>;
  orgCode?: string;
}

/** A paged call as the console makes it (pageParam, param, sortParamList). */
export async function pageCall<T>(server: TestServer, name: string, token: string, param: object = {}, options: PageOptions = {}) {
  const response = await server.app.inject({
    method: 'POST',
    url: `/api${catalogue[name].path}`,
    headers: { 'content-type': 'application/json', token, ...(options.orgCode ? { orgCode: options.orgCode } : {}) },
    payload: { param, pageParam: { pageNumber: options.pageNumber ?? 1, pageSize: options.pageSize ?? 20 }, sortParamList: options.sort ?? [] },
  });
  return response.json<{ code: string; message: string; data: Page<T> }>();
}

/** An export: answers the rows of its only sheet (header first), after checking it is a real .xlsx. */
export async function exportSheet(server: TestServer, name: string, token: string, param: object = {}): Promise<{ fileName: string; rows: unknown[][] }> {
  const response = await server.app.inject({
    method: 'POST',
    url: `/api${catalogue[name].path}`,
    headers: { 'content-type': 'application/json', token },
    payload: { param },
  });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('spreadsheetml');
  const disposition = decodeURIComponent(String(response.headers['content-disposition']));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { fileName: /filename\*=UTF-8''(.+)$/.exec(disposition)?.[1] ?? '', rows };
}

/** One column of a table as plain values. */
export async function column<T>(server: TestServer, sql: string, params: unknown[] = []): Promise<T[]> {
  const rows = await server.db.query<{ value: T }>(sql, params as never);
  return rows.map((row) => row.value);
}
