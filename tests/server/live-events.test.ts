// The live console's stream (issue 22): a signed-in tab is told, without asking, when a device of
// its organisations comes online and when an alarm is raised or recovered; another tenant is told
// nothing; a tab that reconnects catches up from its last event id; and an event reaches the
// streams of another instance on the same database (PostgreSQL: through LISTEN/NOTIFY).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { defaultConfig } from '../../server/config';
import type { Database, SqlParam } from '../../server/db/database';
import type { DeviceCredential } from '../../server/operations/devices/credentials';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let base: string;
let tadmin: string;
let badmin: string;
let device: { code: string; secret: string };
const open: AbortController[] = [];

interface Received {
  id: string;
  event: string;
  data: { kind: string; organizationCode: string; payload: Record<string, unknown> };
}

/** Opens a stream as the console does (fetch with the token header) and collects its events. */
async function subscribe(url: string, token: string | null, lastEventId?: string) {
  const controller = new AbortController();
  open.push(controller);
  const headers: Record<string, string> = {};
  if (token) headers.token = token;
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const response = await fetch(url, { headers, signal: controller.signal });
  const received: Received[] = [];
  if (response.ok && response.body) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const field = (name: string) => block.split('\n').find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
            const data = field('data');
            if (data) received.push({ id: field('id') ?? '', event: field('event') ?? '', data: JSON.parse(data) as Received['data'] });
          }
        }
      } catch {
        // aborted
      }
    })();
  }
  return { response, received, close: () => controller.abort() };
}

async function until(check: () => boolean): Promise<void> {
  const limit = Date.now() + 10_000;
  while (!check() && Date.now() < limit) await new Promise((resolve) => setTimeout(resolve, 25));
}

const report = (body: object) =>
  server.app.inject({
    method: 'POST',
    url: '/api/device/telemetry/_report',
    headers: { 'x-device-code': device.code, 'x-device-secret': device.secret, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

beforeAll(async () => {
  server = await startServer();
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  [tadmin, badmin] = await Promise.all([server.login('tadmin'), server.login('badmin')]);
  const [row] = await server.db.query<{ code: string }>(
    "SELECT code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL AND online_state = 'offline' ORDER BY code LIMIT 1 OFFSET 3",
  );
  const answer = await server.call<DeviceCredential & { secret: string }>('device.credential.reset', { code: row.code }, { token: tadmin });
  device = { code: row.code, secret: answer.data!.secret };
  const insert = await server.call(
    'alarm.config.insert',
    { rule: { name: '实时推送测试', alarmType: 'threshold', level: 1, metric: 'smoke', operator: 'ge', threshold: 30, notifyChannels: [] } },
    { token: tadmin },
  );
  expect(insert.code, insert.message).toBe('200');
});
afterAll(async () => {
  for (const controller of open) controller.abort();
  await server.close();
});

describe('the live stream', () => {
  it('is refused without a session', async () => {
    const { response } = await subscribe(`${base}/api/live/events`, null);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: '301', message: '用户失效，请重新登录', data: null });
    // An EventSource (it asks for text/event-stream) is told in the stream, which the browser does not report as a failed load.
    const told = await fetch(`${base}/api/live/events?token=expired-or-unknown`, { headers: { accept: 'text/event-stream' } });
    expect(told.status).toBe(200);
    expect(told.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await told.text()).toBe('retry: 60000\nevent: session\ndata: {"code":"301"}\n\n');
  });

  it('tells the tenant’s tab of a device coming online and of an alarm raised and recovered, and another tenant nothing', async () => {
    const mine = await subscribe(`${base}/api/live/events`, tadmin);
    const theirs = await subscribe(`${base}/api/live/events`, badmin);
    expect(mine.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect((await report({ metrics: { smoke: 45 } })).statusCode).toBe(200);
    expect((await report({ metrics: { smoke: 5 } })).statusCode).toBe(200);
    await until(() => mine.received.length >= 3);
    expect(mine.received.map((event) => event.event)).toEqual(['device.online', 'alarm.raised', 'alarm.recovered']);
    expect(mine.received[0].data.payload).toEqual({ deviceCode: device.code });
    expect(mine.received[1].data.payload).toMatchObject({ deviceCode: device.code, alarmCode: expect.stringMatching(/^AL\d{13}$/) });
    expect(Number(mine.received[2].id)).toBeGreaterThan(Number(mine.received[1].id));
    expect(theirs.received).toEqual([]);
    mine.close();
    theirs.close();
  });

  it('a tab that reconnects is sent what it missed since its last event id', async () => {
    // A tab that stays open sees every event, so what the reconnecting tab missed is known exactly
    // (whatever else the platform announces meanwhile).
    const watcher = await subscribe(`${base}/api/live/events`, tadmin);
    const first = await subscribe(`${base}/api/live/events`, tadmin);
    await report({ metrics: { smoke: 50 } });
    await until(() => first.received.some((event) => event.event === 'alarm.raised'));
    const seen = first.received[first.received.length - 1];
    first.close();
    // What it missed straddles a power of ten (…99 then 100…): ids sent as text must still
    // come oldest first ('100' sorts before '99' as text).
    const [sequence] = await server.db.query<{ last: string }>('SELECT last_value::text AS last FROM live_event_id_seq');
    await server.db.query("SELECT setval('live_event_id_seq', $1::bigint)", [String(10n ** BigInt(sequence.last.length + 1) - 2n)]);
    await report({ metrics: { smoke: 1 } });
    await report({ metrics: { smoke: 60 } });
    const after = () => watcher.received.filter((event) => BigInt(event.id) > BigInt(seen.id));
    await until(() => after().some((event, index, all) => event.event === 'alarm.raised' && all.slice(0, index).some((earlier) => earlier.event === 'alarm.recovered')));
    const missed = after();
    expect(missed.map((event) => event.event)).toEqual(expect.arrayContaining(['alarm.recovered', 'alarm.raised']));
    const again = await subscribe(`${base}/api/live/events`, tadmin, seen.id);
    await until(() => again.received.length >= missed.length);
    // Exactly those, oldest first, and nothing from before the last one it saw.
    expect(again.received.slice(0, missed.length).map((event) => [event.id, event.event])).toEqual(missed.map((event) => [event.id, event.event]));
    expect(again.received.every((event) => BigInt(event.id) > BigInt(seen.id))).toBe(true);
    watcher.close();
    again.close();
  });

  it('reaches the streams of another instance on the same database', async () => {
    let other: FastifyInstance | null = null;
    try {
      other = await buildApp({ db: server.db, config: defaultConfig({ dev: true }) });
      await other.listen({ port: 0, host: '127.0.0.1' });
      const address = other.server.address();
      const there = await subscribe(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/live/events`, tadmin);
      await report({ metrics: { smoke: 2 } });
      await until(() => there.received.length >= 1);
      expect(there.received.map((event) => event.event)).toEqual(['alarm.recovered']);
      there.close();
    } finally {
      await other?.close();
    }
  });

  it('a stream whose session watch is slow still gets what is announced after its head went out', async () => {
    // The session watch asks the database once more after it is registered; here that question is
    // held until an event has been announced, so the event falls between the 200 head and the
    // stream being ready (it was lost while the stream was listed only after its watch).
    let hold = () => {};
    const held = new Promise<void>((resolve) => {
      hold = resolve;
    });
    let watchAsked = false;
    const slowWatch: Database = new Proxy(server.db, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (name !== 'query' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return async (sql: string, params?: readonly SqlParam[]) => {
          if (sql.includes('SELECT s.id, s.user_id, s.access_expires_at FROM auth_session')) {
            watchAsked = true;
            await held;
          }
          return target.query(sql, params);
        };
      },
    });
    let other: FastifyInstance | null = null;
    try {
      other = await buildApp({ db: slowWatch, config: defaultConfig({ dev: true }) });
      await other.listen({ port: 0, host: '127.0.0.1' });
      const address = other.server.address();
      const there = await subscribe(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/live/events`, tadmin);
      expect(there.response.status).toBe(200);
      await until(() => watchAsked);
      expect(watchAsked).toBe(true);
      expect((await report({ metrics: { smoke: 70 } })).statusCode).toBe(200);
      // Given time to arrive at the held stream before its watch is answered.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(there.received).toEqual([]);
      hold();
      const kinds = () => there.received.map((event) => event.event);
      await until(() => kinds().includes('alarm.raised'));
      expect(kinds()).toContain('alarm.raised');
      await report({ metrics: { smoke: 3 } });
      await until(() => kinds().includes('alarm.recovered'));
      expect(kinds().indexOf('alarm.recovered')).toBeGreaterThan(kinds().indexOf('alarm.raised'));
      there.close();
    } finally {
      hold();
      await other?.close();
    }
  });
});
