import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE } from '../../server/db/database';
import { businessMonth } from '../../server/domain/businessTime';
import { FILE_CONTENT_SECURITY_POLICY } from '../../server/http/files';
import { catalogue, startServer, type TestServer } from './harness';
import { fetchFile, GIF, JPEG, PDF, PNG, upload, WEBP } from './frame-helpers';

let server: TestServer;
let token: string;
let fileDir: string;
beforeAll(async () => {
  fileDir = mkdtempSync(join(tmpdir(), 'frame-files-'));
  server = await startServer({ config: { fileDir } });
  token = await server.login('tuser');
});
afterAll(async () => {
  await server.close();
  rmSync(fileDir, { recursive: true, force: true });
});

const URL_PATTERN = /^upload\/\d{4}\/\d{2}\/[0-9a-f]{32}\.(png|jpg|gif|webp|pdf|xlsx|svg)$/;

async function xlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('设备').addRow(['设备编码', 'HZ0000000001']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('system.file.upload', () => {
  it('stores a PNG by its content whatever its name, under the file folder, and answers {url}', async () => {
    const reply = await upload(server, 'notes.txt', PNG, { token, contentType: 'text/plain' });
    expect(reply.code).toBe('200');
    expect(Object.keys(reply.data!)).toEqual(['url']);
    const { url } = reply.data!;
    expect(url).toMatch(URL_PATTERN);
    expect(url.endsWith('.png')).toBe(true);
    // Filed under the business month (Asia/Shanghai, the server's zone).
    expect(url.startsWith(`upload/${businessMonth(new Date(), DEFAULT_TIME_ZONE).replace('-', '/')}/`)).toBe(true);
    expect(readFileSync(join(fileDir, url))).toEqual(PNG);
    const [row] = await server.db.query<{ content_type: string; size_bytes: number; original_name: string }>(
      'SELECT content_type, size_bytes, original_name FROM uploaded_file WHERE path = $1',
      [url],
    );
    expect(row).toEqual({ content_type: 'image/png', size_bytes: PNG.length, original_name: 'notes.txt' });
  });

  it('serves the file read-only with its sniffed type, nosniff and a sandboxing CSP', async () => {
    const { url } = (await upload(server, 'avatar.exe', PNG, { token })).data!;
    const response = await fetchFile(server, url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(FILE_CONTENT_SECURITY_POLICY).toBe(response.headers['content-security-policy']);
    expect(response.rawPayload).toEqual(PNG);
    // Read-only: nothing but GET and HEAD.
    expect((await server.app.inject({ method: 'HEAD', url: `/files/${url}` })).statusCode).toBe(200);
    for (const method of ['PUT', 'DELETE', 'POST'] as const) expect((await server.app.inject({ method, url: `/files/${url}` })).statusCode).toBe(404);
  });

  it('accepts JPEG, GIF, WebP, PDF and XLSX, each served as what it is', async () => {
    const cases: Array<[string, Buffer, string, string]> = [
      ['a.png', JPEG, 'jpg', 'image/jpeg'],
      ['b.jpg', GIF, 'gif', 'image/gif'],
      ['c', WEBP, 'webp', 'image/webp'],
      ['d.doc', PDF, 'pdf', 'application/pdf'],
      ['e.csv', await xlsx(), 'xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ];
    for (const [name, content, extension, contentType] of cases) {
      const reply = await upload(server, name, content, { token });
      expect(reply.code, name).toBe('200');
      expect(reply.data!.url.endsWith(`.${extension}`)).toBe(true);
      const response = await fetchFile(server, reply.data!.url);
      expect(response.headers['content-type']).toBe(contentType);
    }
    const spreadsheet = (await upload(server, 'e.xlsx', await xlsx(), { token })).data!.url;
    expect((await fetchFile(server, spreadsheet)).headers['content-disposition']).toBe('attachment');
  });

  it('refuses HTML named .png, scripts, text and archives by their content', async () => {
    const refused: Array<[string, Buffer]> = [
      ['photo.png', Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>')],
      ['photo.jpg', Buffer.from('<html><img src=x onerror=alert(1)></html>')],
      ['image.svg', Buffer.from('<div><svg xmlns="http://www.w3.org/2000/svg"/></div>')],
      ['app.js', Buffer.from('alert(document.cookie)')],
      ['readme.txt', Buffer.from('设备清单')],
      ['data.zip', Buffer.from('504b0304140000000800000000000000000000000000000000000000', 'hex')],
      ['binary.png', Buffer.from([0x00, 0xff, 0xfe, 0x01, 0x02])],
    ];
    for (const [name, content] of refused) {
      expect(await upload(server, name, content, { token }), name).toEqual({ code: '400', message: '参数错误：仅支持 JPEG、PNG、GIF、WebP、PDF、XLSX 和 SVG 文件', data: null });
    }
  });

  it('sanitises an SVG before storing it and serves it as image/svg+xml under the CSP', async () => {
    const hostile =
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY e "x">]><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)">' +
      '<script>alert(2)</script><foreignObject><iframe src="javascript:alert(3)"></iframe></foreignObject>' +
      '<a xlink:href="javascript:alert(4)"><circle r="4" onclick="alert(5)"/></a><image href="data:image/svg+xml;base64,PHN2Zy8+"/>' +
      '<rect width="10" height="10" fill="#1677ff"/></svg>';
    const reply = await upload(server, 'logo.png', Buffer.from(hostile), { token });
    expect(reply.code).toBe('200');
    expect(reply.data!.url.endsWith('.svg')).toBe(true);
    const response = await fetchFile(server, reply.data!.url);
    expect(response.headers['content-type']).toBe('image/svg+xml');
    expect(response.headers['content-security-policy']).toBe(FILE_CONTENT_SECURITY_POLICY);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.body).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a><circle r="4"/></a><image/><rect width="10" height="10" fill="#1677ff"/></svg>',
    );
  });

  it('refuses a file over 5 MB and takes one of exactly 5 MB', async () => {
    const limit = 5 * 1024 * 1024;
    const padded = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]);
    expect(await upload(server, 'big.png', padded(limit + 1), { token })).toEqual({ code: '400', message: '参数错误：文件大小不能超过5MB', data: null });
    expect((await upload(server, 'max.png', padded(limit), { token })).code).toBe('200');
  });

  it('refuses a request without the file, an empty file, or another body with "400"', async () => {
    expect(await upload(server, 'a.png', PNG, { token, field: 'avatar' })).toEqual({ code: '400', message: '参数错误：file（不能为空）', data: null });
    expect((await upload(server, 'empty.png', Buffer.alloc(0), { token })).code).toBe('400');
    const json = await server.post(catalogue['system.file.upload'].path, { param: {} }, { token });
    expect(json.body).toMatchObject({ code: '400', message: '参数错误：file（不能为空）' });
    const cutOff = await server.app.inject({
      method: 'POST',
      url: `/api${catalogue['system.file.upload'].path}`,
      headers: { token, 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG',
    });
    expect(cutOff.statusCode).toBe(200);
    expect(cutOff.json()).toMatchObject({ code: '400' });
  });

  it('needs a session', async () => {
    expect((await upload(server, 'a.png', PNG)).code).toBe('301');
  });
});

describe('GET /files/', () => {
  it('answers 404 for anything but a stored upload path, never a file outside the folder', async () => {
    for (const path of [
      'upload/2026/01/00000000000000000000000000000000.png',
      '../package.json',
      '..%2f..%2fpackage.json',
      'upload/2026/01/../../../package.json',
      `upload/${'a'.repeat(10)}`,
      '',
    ]) {
      const response = await fetchFile(server, path);
      expect(response.statusCode, path).toBe(404);
      expect(response.body).toBe('Not Found');
    }
  });

  it('keeps uploads of an in-memory server in a temporary folder it removes on close', async () => {
    const memory = await startServer();
    try {
      const reply = await upload(memory, 'a.png', PNG, { token: await memory.login('tuser') });
      expect((await fetchFile(memory, reply.data!.url)).statusCode).toBe(200);
      expect(existsSync(join(fileDir, reply.data!.url))).toBe(false);
    } finally {
      await memory.close();
    }
  });
});
