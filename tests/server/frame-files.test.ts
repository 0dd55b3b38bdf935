import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { configFromEnv, defaultConfig } from '../../server/config';
import { DEFAULT_TIME_ZONE } from '../../server/db/database';
import { FILE_TICKET_SECONDS, FILE_TICKET_STEP_SECONDS } from '../../server/domain/fileAccess';
import { businessMonth } from '../../server/domain/businessTime';
import { FILE_CONTENT_SECURITY_POLICY } from '../../server/http/files';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';
import { fetchFile, fetchFileAs, fileTicketOf, fileUrlOf, GIF, JPEG, PDF, PNG, upload, WEBP } from './frame-helpers';

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
    const ticket = await fileTicketOf(server, token, url);
    const response = await fetchFile(server, url, ticket);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(FILE_CONTENT_SECURITY_POLICY).toBe(response.headers['content-security-policy']);
    expect(response.rawPayload).toEqual(PNG);
    // Read-only: nothing but GET and HEAD.
    expect((await server.app.inject({ method: 'HEAD', url: `/files/${url}?ticket=${ticket}` })).statusCode).toBe(200);
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
      const response = await fetchFileAs(server, token, reply.data!.url);
      expect(response.headers['content-type']).toBe(contentType);
    }
    const spreadsheet = (await upload(server, 'e.xlsx', await xlsx(), { token })).data!.url;
    expect((await fetchFileAs(server, token, spreadsheet)).headers['content-disposition']).toBe('attachment');
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
    const response = await fetchFileAs(server, token, reply.data!.url);
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

  it('refuses files past the limit however their bytes arrive, several at once, and stores none of them (issue 18, finding 7)', async () => {
    const limit = 5 * 1024 * 1024;
    const boundary = 'frame18limit';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const far = Buffer.concat([PNG, Buffer.alloc(50 * 1024 * 1024 - PNG.length)]);
    const justOver = far.subarray(0, limit + 1);
    /** The body as a stream of `chunk`-byte pieces: with 64 KiB or 1 MiB pieces one ends exactly at the limit. */
    const send = (content: Buffer, chunk: number) => {
      const pieces: Buffer[] = [head];
      for (let at = 0; at < content.length; at += chunk) pieces.push(content.subarray(at, at + chunk));
      pieces.push(tail);
      return server.app.inject({
        method: 'POST',
        url: `/api${catalogue['system.file.upload'].path}`,
        headers: { token, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Readable.from(pieces),
      });
    };
    const filesOnDisk = () => readdirSync(fileDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
    const onDisk = filesOnDisk();
    const [{ count: before }] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM uploaded_file');
    const answers = await Promise.all([
      send(justOver, 64 * 1024),
      send(justOver, limit),
      send(justOver, limit + 1),
      send(far, 64 * 1024),
      send(far, 1024 * 1024),
      send(far, limit),
      send(far, far.length),
    ]);
    for (const answer of answers) expect(answer.json()).toEqual({ code: '400', message: '参数错误：文件大小不能超过5MB', data: null });
    const [{ count: after }] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM uploaded_file');
    expect(after).toBe(before);
    // Not a byte of them written either (no copy cut to the limit, no part file left behind).
    expect(filesOnDisk()).toBe(onDisk);
    // A file of exactly the limit, sent in pieces that end at it, is still taken whole.
    const exact = await send(far.subarray(0, limit), 64 * 1024);
    expect(exact.json<{ code: string }>().code).toBe('200');
  }, 60_000);

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
  it('answers 404 for anything but a stored upload path, never a file outside the folder (with a valid ticket of another file; 403 without one)', async () => {
    const ticket = await fileTicketOf(server, token, (await upload(server, 'a.png', PNG, { token })).data!.url);
    for (const path of [
      'upload/2026/01/00000000000000000000000000000000.png',
      '../package.json',
      '..%2f..%2fpackage.json',
      'upload/2026/01/../../../package.json',
      `upload/${'a'.repeat(10)}`,
      '',
    ]) {
      // A well-formed path is refused without a ticket for it (that ticket opens only its own file):
      // 403 whether it exists or not. Anything else is not a stored path: 404.
      const wellFormed = path.startsWith('upload/2026/01/0');
      const response = await fetchFile(server, path, ticket);
      expect(response.statusCode, path).toBe(wellFormed ? 403 : 404);
      expect(response.body).toBe(wellFormed ? 'Forbidden' : 'Not Found');
      expect((await fetchFile(server, path)).statusCode, path).toBe(wellFormed ? 403 : 404);
    }
  });

  it('keeps uploads of an in-memory server in a temporary folder it removes on close', async () => {
    const memory = await startServer();
    try {
      const memoryToken = await memory.login('tuser');
      const reply = await upload(memory, 'a.png', PNG, { token: memoryToken });
      expect((await fetchFileAs(memory, memoryToken, reply.data!.url)).statusCode).toBe(200);
      expect(existsSync(join(fileDir, reply.data!.url))).toBe(false);
    } finally {
      await memory.close();
    }
  });
});

describe('who may read a file (issue 18, finding 9)', () => {
  it('serves a tenant file to its tenant and platform staff at their url; another tenant (no url), no ticket and a forged one are refused', async () => {
    const { url } = (await upload(server, 'contract.pdf', PDF, { token })).data!;
    const [[row], tadmin, badmin, admin] = await Promise.all([
      server.db.query<{ tenant_code: string | null; public: boolean }>('SELECT tenant_code, public FROM uploaded_file WHERE path = $1', [url]),
      server.login('tadmin'),
      server.login('badmin'),
      server.login('admin', ADMIN_PASSWORD),
    ]);
    expect(row.public).toBe(false);
    expect(row.tenant_code).not.toBeNull();
    // The owner's tenant (uploader and colleague) and platform staff.
    for (const caller of [token, tadmin, admin]) {
      const response = await fetchFileAs(server, caller, url);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload).toEqual(PDF);
      expect(response.headers['cache-control']).toBe('private, no-cache');
    }
    // Another tenant's caller is given no url for it; the plain path is refused as any other.
    expect(await fileUrlOf(server, badmin, url)).toBeUndefined();
    const theirs = await fetchFile(server, url, await fileTicketOf(server, badmin, (await upload(server, 'b.png', PNG, { token: badmin })).data!.url));
    expect([theirs.statusCode, theirs.body]).toEqual([403, 'Forbidden']);
    // Anonymous: no ticket, a ticket that is not one, a ticket altered in its session, expiry or signature.
    const own = await fileTicketOf(server, token, url);
    const [session, expiry, signature] = own.split('.');
    for (const forged of [undefined, '', 'x', `s${Number(session.slice(1)) + 1}.${expiry}.${signature}`, `${session}.${Number(expiry) + 1}.${signature}`, `${session}.${expiry}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`]) {
      const response = await fetchFile(server, url, forged);
      expect([response.statusCode, response.body], String(forged)).toEqual([403, 'Forbidden']);
    }
    // The ticket is no token: the API does not take it.
    expect((await server.call('auth.init', {}, { token: own })).code).toBe('301');
  });

  it('a url names its expiry and is the same within its ten-minute step', async () => {
    const { url: path } = (await upload(server, 'step.png', PNG, { token })).data!;
    const ask = () => server.call<{ urls: Record<string, string>; expiresAt: string }>('system.file.ticket', { paths: [path] }, { token });
    const [first, second] = [await ask(), await ask()];
    // (Unless the two calls straddle the end of a step, a millisecond in ten minutes.)
    if (second.data!.expiresAt === first.data!.expiresAt) expect(second.data!.urls[path]).toBe(first.data!.urls[path]);
    const left = Date.parse(first.data!.expiresAt) - Date.now();
    expect(left).toBeGreaterThan(FILE_TICKET_SECONDS * 1000 - 5_000);
    expect(left).toBeLessThanOrEqual((FILE_TICKET_SECONDS + FILE_TICKET_STEP_SECONDS) * 1000);
    expect((await server.call('system.file.ticket', { paths: [path] })).code).toBe('301');
  });

  it('serves a goods picture to anyone once goods take it (the public flag), and nothing else of the uploader', async () => {
    const operator = await server.login('operator');
    const picture = (await upload(server, 'meter.png', PNG, { token: operator })).data!.url;
    const other = (await upload(server, 'note.png', PNG, { token: operator })).data!.url;
    expect((await fetchFile(server, picture)).statusCode).toBe(403);
    const goods = {
      name: '公开图片测试表', category: 'device', model: 'PUB-1', spec: '测试', unit: '台', price: 10, marketPrice: 12, stock: 1, freight: 0,
      images: [picture], description: '<p>x</p>', cardCustomCode: 'DZ-CMCC-NB-MP1', cardsPerUnit: 1,
    };
    expect((await server.call('mall.goods.insert', { goods }, { token: operator })).code).toBe('200');
    const anonymous = await fetchFile(server, picture);
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await server.db.query<{ public: boolean }>('SELECT public FROM uploaded_file WHERE path = $1', [other]))[0].public).toBe(false);
    expect((await fetchFile(server, other)).statusCode).toBe(403);
  });

  it('two servers on one database sign alike (the secret is stored once), and FILES_SECRET overrides it', async () => {
    const other = await buildApp({ db: server.db, config: defaultConfig({ fileDir, now: () => new Date() }) });
    try {
      const { url } = (await upload(server, 'shared.png', PNG, { token })).data!;
      const own = await fileTicketOf(server, token, url);
      const served = await other.inject({ method: 'GET', url: `/files/${url}?ticket=${own}` });
      expect(served.statusCode).toBe(200);
      const answer = (await other.inject({ method: 'POST', url: `/api${catalogue['system.file.ticket'].path}`, headers: { token }, payload: { param: { paths: [url] } } })).json<{
        data: { urls: Record<string, string> };
      }>();
      expect((await server.app.inject({ method: 'GET', url: answer.data.urls[url] })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
    const configured = await buildApp({ db: server.db, config: defaultConfig({ fileDir, filesSecret: 'k'.repeat(40) }) });
    try {
      const { url } = (await upload(server, 'keyed.png', PNG, { token })).data!;
      expect((await configured.inject({ method: 'GET', url: `/files/${url}?ticket=${await fileTicketOf(server, token, url)}` })).statusCode).toBe(403);
    } finally {
      await configured.close();
    }
    expect(() => configFromEnv({ FILES_SECRET: 'short' })).toThrow(/FILES_SECRET/);
  });

  it('refuses a ticket past its expiry (the server clock moved on)', async () => {
    const { url } = (await upload(server, 'late.png', PNG, { token })).data!;
    const own = await fileTicketOf(server, token, url);
    expect((await fetchFile(server, url, own)).statusCode).toBe(200);
    server.advance(FILE_TICKET_SECONDS + FILE_TICKET_STEP_SECONDS + 1);
    expect([(await fetchFile(server, url, own)).statusCode]).toEqual([403]);
    // A fresh one works again.
    expect((await fetchFileAs(server, await server.login('tuser'), url)).statusCode).toBe(200);
  });
});
