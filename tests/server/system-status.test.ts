// The system status page of platform staff (issue 24): system.status answers this instance's
// version, engine, uptime, database size, pool use, slowest operations of the last hour and outbox
// figure; tenant staff are refused "403" 无权限访问; the page is in platform staff's menu only.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuResource } from '../../server/domain/menus';
import { OperationDurations } from '../../server/http/operationDurations';
import type { SystemStatus } from '../../server/operations/system/status';
import { engine, startServer, type TestServer } from './harness';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

let server: TestServer;
let operator: string;
beforeAll(async () => {
  server = await startServer();
  operator = await server.login('operator');
});
afterAll(() => server.close());

const status = async (token: string) => server.call<SystemStatus>('system.status', {}, { token });

describe('system.status', () => {
  it('tells platform staff the version, engine, uptime, database size and pool of this instance', async () => {
    const reply = await status(operator);
    expect(reply.code).toBe('200');
    const data = reply.data!;
    expect(data.version).toBe(PACKAGE_VERSION);
    expect(data.engine).toBe(engine === 'postgres' ? 'postgresql' : 'pglite');
    expect(data.databaseVersion).toMatch(engine === 'postgres' ? /^PostgreSQL \d+(\.\d+)?/ : /^PostgreSQL \d+(\.\d+)? \(PGlite /);
    expect(data.databaseVersion).not.toMatch(/ on /);
    expect(new Date(data.startedAt).toISOString()).toBe(data.startedAt);
    expect(data.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(data.databaseBytes).toBeGreaterThan(1024 * 1024);
    expect(data.databaseMiB).toBeCloseTo(data.databaseBytes / 1024 / 1024, 0);
    if (engine === 'postgres') {
      expect(data.pool).toEqual({ total: expect.any(Number), idle: expect.any(Number), waiting: expect.any(Number) });
      expect(data.pool!.total).toBeGreaterThanOrEqual(1);
      expect(data.pool!.idle).toBeLessThanOrEqual(data.pool!.total);
    } else {
      expect(data.pool).toBeNull();
    }
    // The clock moves: so does the uptime, not the start.
    server.advance(90);
    const later = (await status(operator)).data!;
    expect(later.startedAt).toBe(data.startedAt);
    expect(later.uptimeSeconds).toBeGreaterThanOrEqual(data.uptimeSeconds + 90);
  });

  it('names the slowest operations of the last hour with their counts and times, and forgets them after the hour', async () => {
    const tadmin = await server.login('tadmin');
    for (let call = 0; call < 3; call += 1) expect((await server.call('auth.init', {}, { token: tadmin })).code).toBe('200');
    expect((await server.call('dict.tree', {}, { token: tadmin })).code).toBe('200');
    const slowest = (await status(operator)).data!.slowestOperations;
    expect(slowest.length).toBeLessThanOrEqual(10);
    const init = slowest.find((row) => row.operation === 'auth.init');
    expect(init).toMatchObject({ operation: 'auth.init', title: expect.any(String), count: 3 });
    expect(init!.title).not.toBe('auth.init');
    expect(init!.maxMs).toBeGreaterThan(0);
    expect(init!.averageMs).toBeLessThanOrEqual(init!.maxMs);
    expect(init!.p95Ms).toBeLessThanOrEqual(init!.maxMs);
    expect(slowest.find((row) => row.operation === 'dict.tree')).toMatchObject({ count: 1 });
    expect(slowest.some((row) => row.operation === 'auth.login')).toBe(true);
    // Ordered slowest first.
    expect(slowest.map((row) => row.p95Ms)).toEqual([...slowest.map((row) => row.p95Ms)].sort((a, b) => b - a));
    // An hour later (the access token still lives), what came before is gone.
    server.advance(3601);
    expect((await status(operator)).data!.slowestOperations).toEqual([]);
  });

  it('counts what the outbox took in the last hour', async () => {
    const reply = (await status(operator)).data!;
    const before = reply.outboxLastHour;
    // The server's clock (the tests move it): the start plus the uptime.
    const now = new Date(Date.parse(reply.startedAt) + reply.uptimeSeconds * 1000);
    await server.db.query('INSERT INTO outbox (channel, target, code, content, created_at) VALUES ($1, $2, $3, $4, $5)', ['mail', 'ops@example.com', '', '系统状态测试', now]);
    await server.db.query('INSERT INTO outbox (channel, target, code, content, created_at) VALUES ($1, $2, $3, $4, $5)', ['mail', 'ops@example.com', '', '两小时前', new Date(now.getTime() - 7_200_000)]);
    expect((await status(operator)).data!.outboxLastHour).toBe(before + 1);
  });

  it('refuses tenant staff "403" 无权限访问, and only platform staff have the page in their menu', async () => {
    for (const loginName of ['tadmin', 'tuser', 'badmin']) {
      expect(await status(await server.login(loginName)), loginName).toEqual({ code: '403', message: '无权限访问', data: null });
    }
    const pages = async (token: string) => {
      const flatten = (nodes: readonly MenuResource[]): MenuResource[] => nodes.flatMap((node) => [node, ...flatten(node.children)]);
      return flatten((await server.call<MenuResource[]>('resource.menu.list', { clientType: 1 }, { token })).data ?? []);
    };
    expect((await pages(operator)).find((node) => node.fileUrl === 'system/status')).toMatchObject({ resourceName: '系统状态', resourceUrl: '/system/status', parentCode: 'setting' });
    expect((await pages(await server.login('tadmin'))).some((node) => node.fileUrl === 'system/status')).toBe(false);
  });
});

describe('the record of operation times', () => {
  const at = (minute: number, second = 0) => new Date(Date.UTC(2026, 10, 25, 8, minute, second));

  it('keeps count, average, an approximate 95th percentile and the longest time per operation, slowest first', () => {
    const durations = new OperationDurations();
    for (let call = 1; call <= 100; call += 1) durations.record('device.page', call, at(0, call % 60));
    durations.record('auth.init', 5, at(1));
    durations.record('auth.init', 15, at(2));
    const [device, init] = durations.slowest(at(2, 30));
    expect(device).toMatchObject({ operation: 'device.page', count: 100, averageMs: 50.5, maxMs: 100 });
    // The bucket holding the 95th call (95 ms) ends at 1.5^12 ≈ 129.7 ms: capped by the longest.
    expect(device.p95Ms).toBe(100);
    expect(init).toMatchObject({ operation: 'auth.init', count: 2, averageMs: 10, maxMs: 15 });
    expect(init.p95Ms).toBeGreaterThanOrEqual(10);
    expect(init.p95Ms).toBeLessThanOrEqual(15);
  });

  it('remembers sixty minutes in sixty slots and answers at most the asked number', () => {
    const durations = new OperationDurations();
    durations.record('old.call', 500, at(0));
    for (let minute = 1; minute <= 60; minute += 1) durations.record(`op${minute}.call`, minute, at(minute));
    // At 09:00:30 the hour is 08:01 to 09:00: the call of 08:00 has gone, its slot reused at 09:00.
    const all = durations.slowest(at(60, 30), 100);
    expect(all.map((row) => row.operation)).not.toContain('old.call');
    expect(all).toHaveLength(60);
    expect(durations.slowest(at(60, 30))).toHaveLength(10);
    expect(durations.slowest(at(60, 30))[0].operation).toBe('op60.call');
    // Three hours later nothing is left.
    expect(durations.slowest(at(240))).toEqual([]);
  });
});
