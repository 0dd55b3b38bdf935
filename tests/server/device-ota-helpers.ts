import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { deviceBrokerOf } from '../../server/app';
import { defaultConfig, type ServerConfig } from '../../server/config';
import { fileSecretOf } from '../../server/domain/fileAccess';
import type { Envelope } from '../../server/http/envelope';
import { listenForRevocations } from '../../server/ingest/deviceSessions';
import { runFirmwareChecks } from '../../server/ingest/firmwareDelivery';
import { multipartBody } from './frame-helpers';
import { catalogue, startServer, type TestServer } from './harness';

/**
 * What the firmware-over-the-air tests share (issue 31): a server that listens on a real port (a
 * device downloads its image over HTTP, PUBLIC_URL points there) with its embedded broker and a
 * file folder of the test's own, an image uploaded as a package, a task, and the periodic check.
 */

export interface OtaServer extends TestServer {
  /** The server's HTTP origin (its PUBLIC_URL). */
  origin: string;
  /** The embedded broker, mqtt://127.0.0.1:port. */
  brokerUrl: string;
  /** Where the server keeps its files. */
  fileDir: string;
}

/** A free TCP port on the loopback (the server is told it before it listens: its PUBLIC_URL names it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startOtaServer(config: Partial<ServerConfig> = {}): Promise<OtaServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const fileDir = mkdtempSync(join(tmpdir(), 'ota-files-'));
  const server = await startServer({ config: { mqttPort: 0, mqttHost: '127.0.0.1', publicUrl: origin, fileDir, otaCheckSeconds: 0, ...config } });
  await server.app.listen({ port, host: '127.0.0.1' });
  return { ...server, origin, brokerUrl: `mqtt://127.0.0.1:${deviceBrokerOf(server.app)!.port}`, fileDir };
}

async function ok<T>(server: TestServer, name: string, param: unknown, token: string): Promise<T> {
  const reply = await server.call<T>(name, param, { token });
  expect(reply, `${name} ${JSON.stringify(param)}`).toMatchObject({ code: '200' });
  return reply.data as T;
}

/** A firmware image of `size` random bytes and its SHA-256. */
export function firmwareImage(size: number): { content: Buffer; sha256: string } {
  const content = randomBytes(size);
  return { content, sha256: createHash('sha256').update(content).digest('hex') };
}

export interface UploadAnswer {
  url: string;
  fileName: string;
  fileSize: number;
  checksumAlgorithm: string;
  checksum: string;
}

/** upgrade.package.upload as the package form sends it (multipart field `file`). */
export async function uploadFirmware(server: TestServer, token: string, fileName: string, content: Buffer): Promise<Envelope<UploadAnswer>> {
  const { body, contentType } = multipartBody(fileName, content);
  const response = await server.app.inject({ method: 'POST', url: `/api${catalogue['upgrade.package.upload'].path}`, headers: { 'content-type': contentType, token }, payload: body });
  return response.json<Envelope<UploadAnswer>>();
}

/** A tenant's own package of `productCode` at `version` holding `content` (uploaded first); answers its id and the image's path. */
export async function packageWith(server: TestServer, token: string, productCode: string, version: string, content: Buffer): Promise<{ id: number; path: string }> {
  const uploaded = await uploadFirmware(server, token, `fw_${version}.bin`, content);
  expect(uploaded.code, uploaded.message).toBe('200');
  const { id } = await ok<{ id: number }>(server, 'upgrade.package.insert', { package: { name: `测试固件 v${version}`, productCode, version, packageType: 'full', filePath: uploaded.data!.url } }, token);
  return { id, path: uploaded.data!.url };
}

/**
 * A live device of the tenant and product that no unfinished task holds, with a fresh credential.
 * Answers once the reset's announcement was heard (it closes the device's sessions on every
 * instance: heard after the device signed in with its new secret, on PostgreSQL, it would close that one too).
 */
export async function idleDevice(server: TestServer, token: string, tenantCode: string, productCode: string, skip: readonly string[] = []): Promise<{ id: number; code: string; secret: string; firmware: string }> {
  const [row] = await server.db.query<{ id: number; code: string; firmware_version: string }>(
    `SELECT id, code, firmware_version FROM device d
      WHERE tenant_code = $1 AND product_code = $2 AND deleted_at IS NULL AND online_state <> 'inactive' AND NOT (code = ANY($3::text[]))
        AND NOT EXISTS (SELECT 1 FROM upgrade_task_device td WHERE td.device_code = d.code AND td.state IN ('pending', 'upgrading'))
      ORDER BY code LIMIT 1`,
    [tenantCode, productCode, [...skip]],
  );
  let heard: () => void = () => undefined;
  const announced = new Promise<void>((resolve) => {
    heard = resolve;
  });
  const stop = await listenForRevocations(server.db, (ids) => ids.includes(row.id) && heard());
  const credential = await ok<{ secret: string }>(server, 'device.credential.reset', { code: row.code }, token);
  await announced;
  await stop();
  return { id: row.id, code: row.code, secret: credential.secret, firmware: row.firmware_version };
}

export interface TaskCounts {
  id: number;
  code: string;
  state: string;
  deviceCount: number;
  pendingCount: number;
  upgradingCount: number;
  succeededCount: number;
  failedCount: number;
}

export interface TargetRow {
  deviceCode: string;
  state: string;
  phase: string;
  progress: number;
  attempts: number;
  errorMessage: string;
  currentVersion: string;
  commandId: number | null;
}

export const taskDetail = (server: TestServer, token: string, id: number) => ok<TaskCounts>(server, 'upgrade.task.detail', { id }, token);

export async function targetOf(server: TestServer, token: string, taskId: number, deviceCode: string): Promise<TargetRow> {
  const reply = await server.app.inject({
    method: 'POST',
    url: `/api${catalogue['upgrade.task.device.page'].path}`,
    headers: { token },
    payload: { param: { taskId, keyword: deviceCode }, pageParam: { pageNumber: 1, pageSize: 10 }, sortParamList: [] },
  });
  const [row] = reply.json<Envelope<{ records: TargetRow[] }>>().data!.records;
  return row;
}

/** The `ota` command a target was offered, as it went on the wire. */
export async function otaCommandOfTarget(server: TestServer, taskId: number, deviceCode: string): Promise<{ id: number; state: string; parameters: Record<string, unknown>; expiresAt: Date }> {
  const [row] = await server.db.query<{ id: number; state: string; parameters: Record<string, unknown>; expires_at: Date }>(
    `SELECT c.id, c.state, c.parameters, c.expires_at FROM upgrade_task_device td JOIN device_command c ON c.id = td.command_id WHERE td.task_id = $1 AND td.device_code = $2`,
    [taskId, deviceCode],
  );
  return { id: row.id, state: row.state, parameters: row.parameters, expiresAt: new Date(row.expires_at) };
}

/** One run of the server's periodic firmware check at the server's clock. */
export async function runChecks(server: OtaServer): Promise<{ offered: number; failed: number }> {
  return runFirmwareChecks(server.db, { now: server.now(), config: defaultConfig({ publicUrl: server.origin }), fileSecret: await fileSecretOf(server.db, undefined) });
}

/** Waits until `check` holds (polled), or fails after `ms`. */
export async function until<T>(what: string, read: () => Promise<T>, check: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
