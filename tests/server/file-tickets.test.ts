import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_TICKET_SECONDS, FILE_TICKET_STEP_SECONDS } from '../../server/domain/fileAccess';
import { FILE_URL_BATCH_MAX } from '../../server/operations/frame/files';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';
import { PDF, PNG, upload } from './frame-helpers';

/**
 * File urls open one file for one session (issue 30, "Files, backups and dependencies"): before,
 * a ticket opened every file of its tenant for up to 70 minutes and kept working after logout.
 * Now a page asks for the urls of the paths it shows in one call (system.file.ticket
 * {paths} → {urls: {path: url}, expiresAt}); each url opens its own file only, and only while the
 * session it was issued to is alive: a sign-out, a refresh, an access token past its expiry or made
 * to expire, a disabled user end it. Public files (goods pictures) stay public. On both engines.
 */

let server: TestServer;
let fileDir: string;

interface FileUrls {
  urls: Record<string, string>;
  expiresAt: string;
}

beforeAll(async () => {
  fileDir = mkdtempSync(join(tmpdir(), 'file-tickets-'));
  server = await startServer({ config: { fileDir } });
});
afterAll(async () => {
  await server.close();
  rmSync(fileDir, { recursive: true, force: true });
});

async function urlsFor(token: string, paths: string[]): Promise<FileUrls> {
  const reply = await server.call<FileUrls>('system.file.ticket', { paths }, { token });
  if (reply.code !== '200' || !reply.data) throw new Error(`system.file.ticket answered ${reply.code} ${reply.message}`);
  return reply.data;
}

const get = (url: string) => server.app.inject({ method: 'GET', url });
const status = async (url: string) => (await get(url)).statusCode;
/** The url with another file's path in place of its own (the ticket kept). */
const swapped = (url: string, path: string) => url.replace(/upload\/[^?]+/, path);

async function uploaded(token: string, name = 'photo.png', content = PNG): Promise<string> {
  const reply = await upload(server, name, content, { token });
  if (reply.code !== '200') throw new Error(`upload answered ${reply.code}`);
  return reply.data!.url;
}

describe('a file url opens its one file', () => {
  it('one call answers the url of every path asked that the caller may read; each url opens only its own file', async () => {
    const token = await server.login('tuser');
    const [photo, contract, spare] = [await uploaded(token), await uploaded(token, 'contract.pdf', PDF), await uploaded(token)];
    const { urls, expiresAt } = await urlsFor(token, [photo, contract]);
    expect(Object.keys(urls).sort()).toEqual([photo, contract].sort());
    expect(urls[photo]).toMatch(new RegExp(`^/files/${photo}\\?ticket=s\\d+\\.\\d+\\.[A-Za-z0-9_-]{43}$`));
    const served = await get(urls[photo]);
    expect([served.statusCode, served.rawPayload]).toEqual([200, PNG]);
    expect((await get(urls[contract])).rawPayload).toEqual(PDF);
    // The same ticket on another file of the same tenant (the tenant-wide ticket of before): refused.
    expect(await status(swapped(urls[photo], spare))).toBe(403);
    expect(await status(swapped(urls[photo], contract))).toBe(403);
    // A ticket altered in its session, expiry or signature: refused.
    const [, session, expiry, signature] = /ticket=s(\d+)\.(\d+)\.(.+)$/.exec(urls[photo])!;
    for (const forged of [`s${Number(session) + 1}.${expiry}.${signature}`, `s${session}.${Number(expiry) + 600}.${signature}`, `s${session}.${expiry}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`, '', 'x']) {
      expect(await status(`/files/${photo}?ticket=${forged}`), forged).toBe(403);
    }
    // Good for a while, never past its step; no longer than the session (its access token).
    const left = Date.parse(expiresAt) - server.now().getTime();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual((FILE_TICKET_SECONDS + FILE_TICKET_STEP_SECONDS) * 1000);
  });

  it('another tenant and paths nobody stored get no url; platform staff get every one; a public picture a plain url', async () => {
    const token = await server.login('tuser');
    const own = await uploaded(token);
    const nobody = 'upload/2026/01/00000000000000000000000000000000.png';
    expect((await urlsFor(await server.login('badmin'), [own, nobody])).urls).toEqual({});
    expect(Object.keys((await urlsFor(await server.login('admin', ADMIN_PASSWORD), [own, nobody])).urls)).toEqual([own]);
    // A url asked by the right tenant works for nobody else's path, and no path is served without one.
    expect(await status(`/files/${own}`)).toBe(403);
    expect(await status(`/files/${nobody}`)).toBe(403);

    const operator = await server.login('operator');
    const picture = await uploaded(operator, 'meter.png');
    const goods = {
      name: '票据测试表', category: 'device', model: 'TK-1', spec: '测试', unit: '台', price: 10, marketPrice: 12, stock: 1, freight: 0,
      images: [picture], description: '<p>x</p>', cardCustomCode: 'DZ-CMCC-NB-MP1', cardsPerUnit: 1,
    };
    expect((await server.call('mall.goods.insert', { goods }, { token: operator })).code).toBe('200');
    expect((await urlsFor(token, [picture])).urls).toEqual({ [picture]: `/files/${picture}` });
    expect(await status(`/files/${picture}`)).toBe(200);
  });

  it('takes a page of paths at once, and refuses what is not a stored path', async () => {
    const token = await server.login('tuser');
    const paths = Array.from({ length: FILE_URL_BATCH_MAX }, (_, index) => `upload/2026/01/${index.toString(16).padStart(32, '0')}.png`);
    expect((await server.call('system.file.ticket', { paths }, { token })).code).toBe('200');
    for (const param of [{ paths: [...paths, 'upload/2026/01/ffffffffffffffffffffffffffffffff.png'] }, { paths: [] }, { paths: ['../package.json'] }, { paths: ['/files/upload/2026/01/00000000000000000000000000000000.png'] }, {}]) {
      expect((await server.call('system.file.ticket', param, { token })).code, JSON.stringify(param).slice(0, 80)).toBe('400');
    }
    expect((await server.call('system.file.ticket', { paths: paths.slice(0, 1) })).code).toBe('301');
  });
});

describe('a file url ends with its session', () => {
  it('after sign-out', async () => {
    const token = await server.login('tuser');
    const url = (await urlsFor(token, [await uploaded(token)])).urls;
    const [only] = Object.values(url);
    expect(await status(only)).toBe(200);
    expect((await server.call('auth.logout', {}, { token })).code).toBe('200');
    expect(await status(only)).toBe(403);
  });

  it('after a refresh (a new session), whose own urls work', async () => {
    const pair = await server.loginPair('tuser');
    const path = await uploaded(pair.accessToken);
    const before = (await urlsFor(pair.accessToken, [path])).urls[path];
    const renewed = await server.call<{ accessToken: string }>('auth.refresh', { refreshToken: pair.refreshToken });
    expect(renewed.code).toBe('200');
    expect(await status(before)).toBe(403);
    expect(await status((await urlsFor(renewed.data!.accessToken, [path])).urls[path])).toBe(200);
  });

  it('when its user is disabled', async () => {
    const token = await server.login('hz01');
    const path = await uploaded(token);
    const url = (await urlsFor(token, [path])).urls[path];
    expect(await status(url)).toBe(200);
    const [{ id }] = await server.db.query<{ id: number }>('SELECT id FROM app_user WHERE login_name = $1', ['hz01']);
    expect((await server.call('system.user.changeStatus', { id, status: '0' }, { token: await server.login('tadmin') })).code).toBe('200');
    expect(await status(url)).toBe(403);
    expect((await server.call('system.user.changeStatus', { id, status: '1' }, { token: await server.login('tadmin') })).code).toBe('200');
  });

  it('when its access token expires, even if the ticket has time left', async () => {
    const token = await server.login('tuser');
    const path = await uploaded(token);
    const url = (await urlsFor(token, [path])).urls[path];
    await server.db.query("UPDATE auth_session SET access_expires_at = $1::timestamptz + interval '1 minute' WHERE access_hash = encode(sha256(convert_to($2, 'UTF8')), 'hex')", [server.now(), token]);
    const { expiresAt } = await urlsFor(token, [path]);
    expect(Date.parse(expiresAt) - server.now().getTime()).toBeLessThanOrEqual(60_000);
    expect(await status(url)).toBe(200);
    server.advance(61);
    expect(await status(url)).toBe(403);
  });

  it('a private file is asked for again whenever shown (no-cache, 304 when unchanged), a public one is kept', async () => {
    const token = await server.login('tuser');
    const path = await uploaded(token);
    const url = (await urlsFor(token, [path])).urls[path];
    const first = await get(url);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const tag = String(first.headers.etag);
    const again = await server.app.inject({ method: 'GET', url, headers: { 'if-none-match': tag } });
    expect([again.statusCode, again.body]).toEqual([304, '']);
    // Revalidation is a request like any other: refused once the session is gone.
    expect((await server.call('auth.logout', {}, { token })).code).toBe('200');
    expect((await server.app.inject({ method: 'GET', url, headers: { 'if-none-match': tag } })).statusCode).toBe(403);
  });
});
