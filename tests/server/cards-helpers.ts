// Shared by the card tests (tests/server/cards-*.test.ts): paged calls, file answers, sign-ins
// and a few look-ups of seeded records.
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { Envelope } from '../../server/http/envelope';
import { ADMIN_PASSWORD, catalogue, type TestServer } from './harness';
import { upload } from './frame-helpers';

export interface Page<T> {
  records: T[];
  total: number;
  pageNumber: number;
  pageSize: number;
}

export interface Tokens {
  admin: string;
  operator: string;
  tadmin: string;
  badmin: string;
  tuser: string;
}

export async function signIn(server: TestServer): Promise<Tokens> {
  const [admin, operator, tadmin, badmin, tuser] = await Promise.all([
    server.login('admin', ADMIN_PASSWORD),
    server.login('operator'),
    server.login('tadmin'),
    server.login('badmin'),
    server.login('tuser'),
  ]);
  return { admin, operator, tadmin, badmin, tuser };
}

/** A paged answer: its records when "200" (a refusal has none: the test fails on the code first). */
export interface PageReply<T> {
  code: string;
  message: string;
  data: Page<T>;
}

/** A paged call as the console makes it. */
export async function page<T>(
  server: TestServer,
  name: string,
  token: string,
  param: Record<string, unknown> = {},
  options: { pageSize?: number; pageNumber?: number; sort?: Array<{ field: string; order: 'asc' | 'desc' }> } = {},
): Promise<PageReply<T>> {
  const { body } = await server.post(
    catalogue[name].path,
    { pageParam: { pageNumber: options.pageNumber ?? 1, pageSize: options.pageSize ?? 20 }, param, sortParamList: options.sort ?? [] },
    { token },
  );
  return body as PageReply<T>;
}

/** Calls and expects "200", answering the data. */
export async function ok<T>(server: TestServer, name: string, param: unknown, token: string): Promise<T> {
  const reply = await server.call<T>(name, param, { token });
  expect(reply, `${name} ${JSON.stringify(param).slice(0, 200)}`).toMatchObject({ code: '200' });
  return reply.data as T;
}

/** The code (and message) an operation answers. */
export async function codeOf(server: TestServer, name: string, param: unknown, token: string): Promise<string> {
  return (await server.call(name, param, { token })).code;
}

export interface FileReply {
  status: number;
  contentType: string;
  fileName: string;
  body: Buffer;
  envelope: Envelope | null;
}

/** A blob operation: the file, or the envelope of a refusal. */
export async function download(server: TestServer, name: string, param: unknown, token: string): Promise<FileReply> {
  const response = await server.app.inject({
    method: 'POST',
    url: `/api${catalogue[name].path}`,
    headers: { 'content-type': 'application/json', token },
    payload: { param },
  });
  const contentType = String(response.headers['content-type'] ?? '');
  const disposition = String(response.headers['content-disposition'] ?? '');
  const match = /filename\*=UTF-8''([^;]+)/.exec(disposition);
  return {
    status: response.statusCode,
    contentType,
    fileName: match ? decodeURIComponent(match[1]) : '',
    body: response.rawPayload,
    envelope: contentType.includes('json') ? (response.json() as Envelope) : null,
  };
}

/** The rows of the first sheet of a workbook, as text. */
export async function sheetRows(body: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const rows: string[][] = [];
  workbook.worksheets[0].eachRow((row) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell) => cells.push(cell.text));
    rows.push(cells);
  });
  return rows;
}

export async function one<T>(server: TestServer, sql: string, params: unknown[] = []): Promise<T> {
  const [row] = await server.db.query<T>(sql, params as never[]);
  if (!row) throw new Error(`no row for ${sql}`);
  return row;
}

/** Uploads a file as `token` and answers its stored url. */
export async function uploaded(server: TestServer, fileName: string, content: Buffer, token: string): Promise<string> {
  const reply = await upload(server, fileName, content, { token });
  expect(reply.code).toBe('200');
  return reply.data?.url ?? '';
}
