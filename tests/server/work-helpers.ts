// Shared by the work-side server tests (issue 6): paged calls, spreadsheet downloads and finding
// seeded work by state and person.
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { Envelope } from '../../server/http/envelope';
import { catalogue, type TestServer } from './harness';

export interface Page<T> {
  records: T[];
  total: number;
  pageNumber: number;
  pageSize: number;
}

/** A paged call as the console makes it. */
export async function pageOf<T>(
  server: TestServer,
  name: string,
  token: string,
  param: Record<string, unknown> = {},
  options: { pageSize?: number; pageNumber?: number; sort?: Array<{ field: string; order: 'asc' | 'desc' }>; orgCode?: string } = {},
): Promise<Envelope<Page<T>>> {
  const response = await server.app.inject({
    method: 'POST',
    url: `/api${catalogue[name].path}`,
    headers: { 'content-type': 'application/json', token, ...(options.orgCode ? { orgCode: options.orgCode } : {}) },
    payload: { param, pageParam: { pageNumber: options.pageNumber ?? 1, pageSize: options.pageSize ?? 20 }, sortParamList: options.sort ?? [] },
  });
  expect(response.statusCode).toBe(200);
  return response.json<Envelope<Page<T>>>();
}

/** An export: the spreadsheet's header row and data rows (or the envelope when it failed). */
export async function download(
  server: TestServer,
  name: string,
  token: string,
  param: Record<string, unknown> = {},
): Promise<{ fileName: string; header: string[]; rows: unknown[][] } | { envelope: Envelope }> {
  const response = await server.app.inject({
    method: 'POST',
    url: `/api${catalogue[name].path}`,
    headers: { 'content-type': 'application/json', token },
    payload: { param },
  });
  expect(response.statusCode).toBe(200);
  if (!String(response.headers['content-type']).includes('spreadsheetml')) return { envelope: response.json<Envelope>() };
  expect(response.rawPayload.subarray(0, 2).toString()).toBe('PK');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const values = (index: number) => ((sheet.getRow(index).values as unknown[]) ?? []).slice(1);
  const rows: unknown[][] = [];
  for (let index = 2; index <= sheet.rowCount; index += 1) rows.push(values(index));
  const disposition = String(response.headers['content-disposition']);
  return { fileName: decodeURIComponent(disposition.split("UTF-8''")[1] ?? ''), header: values(1).map(String), rows };
}

export async function userId(server: TestServer, loginName: string): Promise<number> {
  const [row] = await server.db.query<{ id: number }>('SELECT id FROM app_user WHERE login_name = $1', [loginName]);
  return row.id;
}

/**
 * The code of a seeded work order of `type` in `state`, assigned to `assignee` (a login name,
 * null for unassigned, undefined for anyone) in `tenant`; `skip` passes over earlier matches.
 */
export async function orderCode(
  server: TestServer,
  type: string,
  state: string,
  options: { assignee?: string | null; tenant?: string; skip?: number; extra?: string } = {},
): Promise<string> {
  const params: unknown[] = [type, state, options.tenant ?? 'T0001'];
  let who = '';
  if (options.assignee === null) who = ' AND o.assignee_id IS NULL';
  else if (options.assignee !== undefined) {
    params.push(options.assignee);
    who = ` AND o.assignee_id = (SELECT id FROM app_user WHERE login_name = $${params.length})`;
  }
  const rows = await server.db.query<{ code: string }>(
    `SELECT o.code FROM work_order o WHERE o.type = $1 AND o.state = $2 AND o.tenant_code = $3${who}${options.extra ?? ''} ORDER BY o.id LIMIT 1 OFFSET ${options.skip ?? 0}`,
    params as string[],
  );
  if (!rows[0]) throw new Error(`no seeded ${type} order in ${state} for ${String(options.assignee)}`);
  return rows[0].code;
}

export async function stateOf(server: TestServer, code: string): Promise<string> {
  const [row] = await server.db.query<{ state: string }>('SELECT state FROM work_order WHERE code = $1', [code]);
  return row.state;
}

/** A live device of a tenant (optionally under an organisation prefix). */
export async function deviceOf(server: TestServer, tenant: string, skip = 0, organizationPrefix?: string): Promise<{ code: string; name: string; organization_code: string }> {
  const [row] = await server.db.query<{ code: string; name: string; organization_code: string }>(
    `SELECT code, name, organization_code FROM device WHERE tenant_code = $1 AND deleted_at IS NULL AND organization_code LIKE $2 ORDER BY id LIMIT 1 OFFSET ${skip}`,
    [tenant, `${organizationPrefix ?? tenant}%`],
  );
  return row;
}

/** A time `days` from now as the console's pickers send it. */
export function later(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString();
}
