import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAILED_LOGINS } from '../../server/security/loginGuard';
import { adminQuery } from '../support/postgresCluster';
import { PNG, multipartBody } from './frame-helpers';
import { ADMIN_PASSWORD, catalogue, DEMO_PASSWORD, postgresCluster } from './harness';
import { startServerProcess, type ServerProcess } from './serverProcess';

/**
 * Two instances of the server as an operator runs them behind a load balancer: two processes on
 * one PostgreSQL database, uploads in one shared folder (FILES_DIR). Started together on an EMPTY
 * database, they migrate and seed it once between them (the advisory lock); afterwards whatever one
 * knows the other knows: sessions, lockouts, code limits, files.
 */

const DATABASE = `iot_instances_${process.pid}`;
let filesDir: string;
let first: ServerProcess;
let second: ServerProcess;

beforeAll(async () => {
  await adminQuery(postgresCluster, `CREATE DATABASE ${DATABASE} OWNER iot_app`);
  filesDir = mkdtempSync(join(tmpdir(), 'iot-instances-files-'));
  const env = { DATABASE_URL: postgresCluster.appUrl(DATABASE), FILES_DIR: filesDir, CONSOLE_DEV: '1', DATABASE_POOL_MAX: '4' };
  [first, second] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
}, 180_000);

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  rmSync(filesDir, { recursive: true, force: true });
  await adminQuery(postgresCluster, `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
});

/** An image captcha fetched from one instance and solved (dev.captcha): an anonymous code request carries it. */
async function solvedCaptcha(instance: ServerProcess): Promise<{ captchaUuid: string; captchaCode: string }> {
  const captcha = await instance.call<{ uuid: string }>('verification.captcha.get', {});
  const answer = await instance.call<string>('dev.captcha', { uuid: captcha.data!.uuid });
  return { captchaUuid: captcha.data!.uuid, captchaCode: answer.data! };
}

describe('two instances on one PostgreSQL database', () => {
  it('started together on an empty database, migrate and seed it exactly once', async () => {
    const [migrations] = await adminQuery<{ applied: number; distinct: number }>(
      postgresCluster,
      'SELECT count(*)::int AS applied, count(DISTINCT name)::int AS distinct FROM schema_migration',
      [],
      DATABASE,
    );
    expect(migrations.applied).toBeGreaterThan(0);
    expect(migrations.applied).toBe(migrations.distinct);
    const [platform] = await adminQuery<{ count: number }>(postgresCluster, "SELECT count(*)::int AS count FROM organization WHERE code = 'P0001'", [], DATABASE);
    expect(platform.count).toBe(1);
    // One of them seeded; the other found the world already there.
    const seeded = [first, second].filter((instance) => instance.output().includes('已写入演示数据'));
    expect(seeded).toHaveLength(1);
  });

  it('a session signed in on one instance works on the other, and signing out on the other ends it on both', async () => {
    const login = await first.call<{ accessToken: string }>('auth.login', { loginName: 'tadmin', password: DEMO_PASSWORD });
    expect(login.code).toBe('200');
    const token = login.data!.accessToken;
    const init = await second.call<{ userName: string }>('auth.init', {}, token);
    expect(init.code).toBe('200');
    expect((await second.call('auth.logout', {}, token)).code).toBe('200');
    expect((await first.call('auth.init', {}, token)).code).toBe('301');
  });

  it('wrong passwords spread over both instances lock the (name, address) pair on both', async () => {
    for (let attempt = 0; attempt < MAX_FAILED_LOGINS; attempt += 1) {
      const instance = attempt % 2 === 0 ? first : second;
      expect((await instance.call('auth.login', { loginName: 'patrol', password: 'Wrong@2026' })).code).not.toBe('200');
    }
    // Issue 18: the pair is locked ("429", was "423" for the whole account).
    for (const instance of [first, second]) {
      expect((await instance.call('auth.login', { loginName: 'patrol', password: DEMO_PASSWORD })).code).toBe('429');
    }
    // The platform admin lifts it on either.
    const admin = (await second.call<{ accessToken: string }>('auth.login', { loginName: 'admin', password: ADMIN_PASSWORD })).data!.accessToken;
    expect(admin).toBeTruthy();
  });

  it('a code sent through one instance holds the 60 s limit on the other; simultaneous requests on both send one code', async () => {
    expect((await first.call('verification.sms.send', { target: '13800000003', ...(await solvedCaptcha(first)) })).code).toBe('200');
    expect((await second.call('verification.sms.send', { target: '13800000003', ...(await solvedCaptcha(second)) })).code).toBe('429');
    const proofs = await Promise.all(Array.from({ length: 20 }, (_, index) => solvedCaptcha(index % 2 === 0 ? second : first)));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? first : second).call('verification.sms.send', { target: '13800000004', ...proofs[index] })),
    );
    expect(answers.filter((answer) => answer.code === '200')).toHaveLength(1);
    expect(answers.filter((answer) => answer.code !== '200').every((answer) => answer.code === '429')).toBe(true);
    const [outbox] = await adminQuery<{ count: number }>(postgresCluster, "SELECT count(*)::int AS count FROM outbox WHERE target = '13800000004'", [], DATABASE);
    expect(outbox.count).toBe(1);
  });

  it('a file uploaded through one instance is served by the other', async () => {
    const token = (await first.call<{ accessToken: string }>('auth.login', { loginName: 'tuser', password: DEMO_PASSWORD })).data!.accessToken;
    const { body, contentType } = multipartBody('logo.png', PNG);
    const response = await fetch(`${first.url}/api${catalogue['system.file.upload'].path}`, {
      method: 'POST',
      headers: { 'content-type': contentType, token },
      body: new Uint8Array(body),
    });
    const uploaded = (await response.json()) as { code: string; data: { url: string } };
    expect(uploaded.code).toBe('200');
    // Served only at a url with a file ticket (issues 18, 30): one issued by either instance works on
    // both, as the signing key is stored once in the database for all of them, and so is the session.
    expect((await fetch(`${second.url}/files/${uploaded.data.url}`)).status).toBe(403);
    const [fromFirst, fromSecond] = await Promise.all(
      [first, second].map(async (instance) => (await instance.call<{ urls: Record<string, string> }>('system.file.ticket', { paths: [uploaded.data.url] }, token)).data!.urls[uploaded.data.url]),
    );
    for (const [instance, url] of [[second, fromFirst], [first, fromSecond]] as const) {
      const served = await fetch(`${instance.url}${url}`);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    }
  });

  it('SIGTERM drains: the requests in flight are answered, then the process exits 0', async () => {
    const token = (await second.call<{ accessToken: string }>('auth.login', { loginName: 'tadmin', password: DEMO_PASSWORD })).data!.accessToken;
    const inFlight = Array.from({ length: 3 }, () =>
      fetch(`${second.url}/api${catalogue['device.export'].path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token },
        body: JSON.stringify({ param: {} }),
      }).then(async (response) => ({ status: response.status, type: response.headers.get('content-type') ?? '', size: (await response.arrayBuffer()).byteLength })),
    );
    // A call sent after them is answered only once the server has read them: they are in flight.
    // (A request still unread in a socket when the server stops is a lost race for any HTTP server.)
    expect((await second.call('auth.init', {}, token)).code).toBe('200');
    const exitCode = second.stop('SIGTERM');
    const answers = await Promise.all(inFlight);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.type).toContain('spreadsheetml');
      expect(answer.size).toBeGreaterThan(1000);
    }
    expect(await exitCode).toBe(0);
    expect(second.output()).toContain('SIGTERM');
    // The other instance goes on serving.
    expect((await first.call('auth.login', { loginName: 'tuser', password: DEMO_PASSWORD })).code).toBe('200');
  }, 120_000);
});
