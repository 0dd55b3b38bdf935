// A live event's id is a place in the stream: the server passes each id on once (it drops what it
// has passed on already, so that a catch-up never sends an event twice) and a tab that reconnects
// asks for what came after its last id. dev.reset puts the seeded tables back before every browser
// test; it must not give the ids out again, or an open tab is told nothing of what happens next
// (工作台's figures stood still in tests/browser/home.spec.ts: the device's coming online had the id
// of an event passed on before the reset).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let base: string;
const open: AbortController[] = [];

/** The kinds and ids of the events a stream is told, as they come. */
async function subscribe(token: string): Promise<Array<{ id: string; event: string }>> {
  const controller = new AbortController();
  open.push(controller);
  const response = await fetch(`${base}/api/live/events`, { headers: { token }, signal: controller.signal });
  expect(response.status).toBe(200);
  const received: Array<{ id: string; event: string }> = [];
  const reader = response.body!.getReader();
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
          if (field('data')) received.push({ id: field('id') ?? '', event: field('event') ?? '' });
        }
      }
    } catch {
      // aborted
    }
  })();
  return received;
}

async function until(check: () => boolean): Promise<void> {
  const limit = Date.now() + 10_000;
  while (!check() && Date.now() < limit) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** An offline device of T0001 with a new secret, and a report of it (which brings it online). */
async function offlineDevice(token: string, offset: number) {
  const [row] = await server.db.query<{ code: string }>(
    "SELECT code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL AND online_state = 'offline' ORDER BY code LIMIT 1 OFFSET $1",
    [offset],
  );
  const answer = await server.call<{ secret: string }>('device.credential.reset', { code: row.code }, { token });
  expect(answer.code, answer.message).toBe('200');
  return () =>
    server.app.inject({
      method: 'POST',
      url: '/api/device/telemetry/_report',
      headers: { 'x-device-code': row.code, 'x-device-secret': answer.data!.secret, 'content-type': 'application/json' },
      payload: JSON.stringify({ metrics: { temperature: 21.5 } }),
    });
}

beforeAll(async () => {
  server = await startServer();
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  for (const controller of open) controller.abort();
  await server.close();
});

it('an open stream is told of what happens after dev.reset, under an id it was never told', async () => {
  const first = await subscribe(await server.login('tadmin'));
  expect((await (await offlineDevice(await server.login('tadmin'), 0))()).statusCode).toBe(200);
  await until(() => first.length >= 1);
  expect(first.map((event) => event.event)).toEqual(['device.online']);

  expect((await server.call('dev.reset', {})).code).toBe('200');
  // The reset ended every session: a tab signs in again and opens a new stream (the server's
  // memory of what it passed on is the same).
  const token = await server.login('tadmin');
  const second = await subscribe(token);
  expect((await (await offlineDevice(token, 1))()).statusCode).toBe(200);
  await until(() => second.length >= 1);
  expect(second.map((event) => event.event)).toEqual(['device.online']);
  expect(BigInt(second[0].id)).toBeGreaterThan(BigInt(first[0].id));
});
