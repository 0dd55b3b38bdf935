// Firmware images on the platform and their downloads (issue 31): upgrade.package.upload stores an
// image and reads its size and SHA-256; a package takes them from the upload; an upgrade task's
// `ota` command carries a download signed for that image and that target, which serves HTTP Range
// requests (206 with Content-Range) while the target is upgrading and until its deadline, and
// nothing else: another image, a changed signature, an expired ticket, a cancelled target, a
// console session's ticket.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD } from './harness';
import { firmwareImage, idleDevice, otaCommandOfTarget, packageWith, startOtaServer, taskDetail, uploadFirmware, type OtaServer } from './device-ota-helpers';

let server: OtaServer;
let tadmin: string;
let tuser: string;
let badmin: string;

beforeAll(async () => {
  server = await startOtaServer();
  [tadmin, tuser, badmin] = await Promise.all([server.login('tadmin'), server.login('tuser'), server.login('badmin')]);
});
afterAll(() => server.close());

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => fetch(url, { method, headers });

/** A task of one device pushing a package made of `content`; answers the command's download and what it was made of. */
async function taskFor(content: Buffer, version: string, timeLimitMinutes?: number) {
  const pkg = await packageWith(server, tadmin, 'PRD-FM-4G', version, content);
  const device = await idleDevice(server, tadmin, 'T0001', 'PRD-FM-4G');
  const reply = await server.call<{ id: number; code: string }>(
    'upgrade.task.insert',
    { task: { name: `下载测试 ${version}`, packageId: pkg.id, organizationCode: 'T0001', deviceCodes: [device.code], ...(timeLimitMinutes ? { timeLimitMinutes } : {}) } },
    { token: tadmin },
  );
  expect(reply.code, reply.message).toBe('200');
  const command = await otaCommandOfTarget(server, reply.data!.id, device.code);
  return { task: reply.data!, device, pkg, command, url: String(command.parameters.url) };
}

describe('upgrade.package.upload', () => {
  it('stores the image as it is, owner-only, and answers its path, size and SHA-256 as the platform read them', async () => {
    const image = firmwareImage(70_000);
    const reply = await uploadFirmware(server, tadmin, 'YL-FM310_v9.0.0.bin', image.content);
    expect(reply).toMatchObject({ code: '200', data: { fileName: 'YL-FM310_v9.0.0.bin', fileSize: 70_000, checksumAlgorithm: 'SHA256', checksum: image.sha256 } });
    expect(reply.data!.url).toMatch(/^firmware\/\d{4}\/\d{2}\/[0-9a-f]{32}\.bin$/);
    expect(statSync(join(server.fileDir, reply.data!.url)).mode & 0o777).toBe(0o600);
    const [row] = await server.db.query<{ tenant_code: string; size_bytes: number; sha256: string }>('SELECT tenant_code, size_bytes, sha256 FROM firmware_file WHERE path = $1', [reply.data!.url]);
    expect(row).toEqual({ tenant_code: 'T0001', size_bytes: 70_000, sha256: image.sha256 });
  });

  it('refuses an empty file ("400"), a caller who may not add or change packages ("403")', async () => {
    expect(await uploadFirmware(server, tadmin, 'empty.bin', Buffer.alloc(0))).toMatchObject({ code: '400', message: '参数错误：file（文件为空）' });
    expect((await uploadFirmware(server, tuser, 'a.bin', firmwareImage(10).content)).code).toBe('403');
  });
});

describe('a package of an uploaded image', () => {
  it('takes its size, name and SHA-256 from the upload, and refuses a checksum or size that is not the image’s', async () => {
    const image = firmwareImage(4096);
    const { id, path } = await packageWith(server, tadmin, 'PRD-FM-4G', '9.0.1', image.content);
    const detail = await server.call<Record<string, unknown>>('upgrade.package.detail', { id }, { token: tadmin });
    expect(detail.data).toMatchObject({ filePath: path, fileUrl: '', fileName: 'fw_9.0.1.bin', fileSize: 4096, checksumAlgorithm: 'SHA256', checksum: image.sha256 });
    const base = { name: '校验', productCode: 'PRD-FM-4G', version: '9.0.2', packageType: 'full', filePath: path };
    expect((await server.call('upgrade.package.insert', { package: { ...base, checksumAlgorithm: 'SHA256', checksum: 'a'.repeat(64) } }, { token: tadmin })).message).toBe('参数错误：checksum（与上传的固件文件不符）');
    expect((await server.call('upgrade.package.insert', { package: { ...base, fileSize: 4095 } }, { token: tadmin })).message).toBe('参数错误：fileSize（与上传的固件文件不符）');
    // Without an image or an address there is nothing to download.
    expect((await server.call('upgrade.package.insert', { package: { ...base, filePath: null } }, { token: tadmin })).message).toBe('参数错误：filePath（请上传固件文件，或填写固件下载地址）');
  });

  it('does not let another tenant use the image (nor platform staff, whose images are the platform’s)', async () => {
    const { path } = await packageWith(server, tadmin, 'PRD-FM-4G', '9.0.3', firmwareImage(100).content);
    const theirs = { name: '越权', productCode: 'PRD-FM-4G', version: '9.0.4', packageType: 'full', filePath: path };
    expect(await server.call('upgrade.package.insert', { package: theirs }, { token: badmin })).toMatchObject({ code: '400', message: '参数错误：filePath（固件文件不存在，请重新上传）' });
    const admin = await server.login('admin', ADMIN_PASSWORD);
    expect((await server.call('upgrade.package.insert', { package: theirs }, { token: admin })).code).toBe('400');
  });
});

describe('the ota command’s download', () => {
  it('is a url under PUBLIC_URL signed for the image and the target, with the package’s version, size and SHA-256, expiring at the deadline', async () => {
    const image = firmwareImage(50_000);
    const { task, command, url, device } = await taskFor(image.content, '9.1.0', 90);
    expect(command.parameters).toEqual({ version: '9.1.0', url, size: 50_000, sha256: image.sha256, taskCode: task.code });
    expect(url).toMatch(new RegExp(`^${server.origin}/files/firmware/\\d{4}/\\d{2}/[0-9a-f]{32}\\.bin\\?ticket=t${task.id}\\.${device.code}\\.1\\.\\d+\\.[A-Za-z0-9_-]{43}$`));
    expect(command.expiresAt.getTime() - server.now().getTime()).toBeGreaterThan(89 * 60_000);
    expect(command.expiresAt.getTime() - server.now().getTime()).toBeLessThanOrEqual(90 * 60_000);
    const whole = await get(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await whole.arrayBuffer()).equals(image.content)).toBe(true);
  });

  it('serves a Range request 206 with Content-Range, resumes from an offset, and answers an unsatisfiable range 416', async () => {
    const image = firmwareImage(30_000);
    const { url } = await taskFor(image.content, '9.2.0');
    const piece = await get(url, { range: 'bytes=1000-1999' });
    expect(piece.status).toBe(206);
    expect(piece.headers.get('content-range')).toBe('bytes 1000-1999/30000');
    expect(piece.headers.get('content-length')).toBe('1000');
    expect(Buffer.from(await piece.arrayBuffer()).equals(image.content.subarray(1000, 2000))).toBe(true);
    const rest = await get(url, { range: 'bytes=29000-' });
    expect(rest.status).toBe(206);
    expect(Buffer.from(await rest.arrayBuffer()).equals(image.content.subarray(29_000))).toBe(true);
    const past = await get(url, { range: 'bytes=40000-40010' });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */30000');
    const head = await get(url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('30000');
  });

  it('opens its own image only: another image’s path, a changed signature or no ticket is 403', async () => {
    const first = await taskFor(firmwareImage(2000).content, '9.3.0');
    const second = await taskFor(firmwareImage(2000).content, '9.3.1');
    const ticketOf = (url: string) => new URL(url).searchParams.get('ticket')!;
    const pathOf = (url: string) => new URL(url).pathname;
    expect((await get(`${server.origin}${pathOf(second.url)}?ticket=${ticketOf(first.url)}`)).status).toBe(403);
    const ticket = ticketOf(first.url);
    const changed = `${ticket.slice(0, -1)}${ticket.endsWith('A') ? 'B' : 'A'}`;
    expect((await get(`${server.origin}${pathOf(first.url)}?ticket=${changed}`)).status).toBe(403);
    expect((await get(`${server.origin}${pathOf(first.url)}`)).status).toBe(403);
    // Another device of the same task would need its own: the device's code is part of what is signed.
    const other = ticket.replace(first.device.code, second.device.code);
    expect((await get(`${server.origin}${pathOf(first.url)}?ticket=${other}`)).status).toBe(403);
    // The console's file tickets are for stored uploads, not for firmware.
    expect((await get(`${server.origin}${pathOf(first.url)}?ticket=s1.9999999999.${'A'.repeat(43)}`)).status).toBe(403);
    expect((await get(first.url)).status).toBe(200);
  });

  it('stops working when the target is cancelled, and the command not yet out is withdrawn', async () => {
    const { task, url, device } = await taskFor(firmwareImage(2000).content, '9.4.0');
    expect((await get(url, { range: 'bytes=0-9' })).status).toBe(206);
    expect((await server.call('upgrade.task.cancel', { id: task.id }, { token: tadmin })).code).toBe('200');
    expect((await get(url, { range: 'bytes=0-9' })).status).toBe(403);
    // Its command had not gone out (no device was connected): it expires now, so a device that connects later is not sent it.
    const command = await otaCommandOfTarget(server, task.id, device.code);
    expect(command.state).toBe('pending');
    expect(command.expiresAt.getTime()).toBeLessThanOrEqual(server.now().getTime());
  });

  it('stops working at the target’s deadline, with the task’s time limit', async () => {
    const { task, url } = await taskFor(firmwareImage(2000).content, '9.5.0', 30);
    expect((await taskDetail(server, tadmin, task.id)).state).toBe('pending');
    server.advance(29 * 60);
    expect((await get(url)).status).toBe(200);
    server.advance(2 * 60);
    expect((await get(url)).status).toBe(403);
  });
});
