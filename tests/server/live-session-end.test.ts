// The live stream ends with its session (issue 30, "Sessions and codes"): a tab's stream of device
// and alarm events is told `event: session` {"code":"301"} and closed when its session is signed
// out, its user disabled (by the status switch or the user form), its password changed elsewhere,
// its user deleted, or its access token expires (by the clock, or moved to now), on every instance
// that serves it; an announcement missed (the listening connection lost) is made up by a sweep. A
// session that goes on keeps its stream.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { defaultConfig } from '../../server/config';
import type { Database } from '../../server/db/database';
import { watchSessionEnds } from '../../server/live/sessionEnd';
import { DEMO_PASSWORD, startServer, type TestServer } from './harness';

let server: TestServer;
let base: string;
let tadmin: string;
const open: AbortController[] = [];

interface Stream {
  status: number;
  /** The event names of the frames received, in order. */
  events: string[];
  /** Whether the server closed the stream. */
  ended(): boolean;
  close(): void;
}

const addressOf = (app: FastifyInstance) => {
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
};

/** Opens a stream as an EventSource would (token in the address) and follows it to its end. */
async function subscribe(token: string, at = base): Promise<Stream> {
  const controller = new AbortController();
  open.push(controller);
  const response = await fetch(`${at}/api/live/events?token=${encodeURIComponent(token)}`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  const events: string[] = [];
  let ended = false;
  if (response.body) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = block.split('\n').find((line) => line.startsWith('event: '));
            if (event) events.push(`${event.slice(7)} ${block.split('\n').find((line) => line.startsWith('data: '))?.slice(6) ?? ''}`);
          }
        }
        ended = true;
      } catch {
        // aborted by the test
      }
    })();
  }
  // The stream is registered once its first line is written.
  await until(() => false, 100);
  return { status: response.status, events, ended: () => ended, close: () => controller.abort() };
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const limit = Date.now() + ms;
  while (!check() && Date.now() < limit) await new Promise((resolve) => setTimeout(resolve, 25));
}

const SESSION_ENDED = 'session {"code":"301"}';

async function expectEnded(stream: Stream): Promise<void> {
  await until(stream.ended);
  expect(stream.ended()).toBe(true);
  expect(stream.events).toContain(SESSION_ENDED);
}

async function userId(loginName: string): Promise<number> {
  const [row] = await server.db.query<{ id: number }>('SELECT id FROM app_user WHERE login_name = $1', [loginName]);
  return row.id;
}

beforeAll(async () => {
  server = await startServer();
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  base = addressOf(server.app);
  tadmin = await server.login('tadmin');
});
afterAll(async () => {
  for (const controller of open) controller.abort();
  await server.close();
});

describe('a live stream ends with its session', () => {
  it('when the session signs out, and not before; another session of the user keeps its stream', async () => {
    const [token, other] = [await server.login('hz01'), await server.login('hz01')];
    const stream = await subscribe(token);
    const kept = await subscribe(other);
    expect(stream.status).toBe(200);
    await until(() => false, 300);
    expect(stream.ended()).toBe(false);
    expect((await server.call('auth.logout', {}, { token })).code).toBe('200');
    await expectEnded(stream);
    await until(() => false, 300);
    expect(kept.ended()).toBe(false);
    kept.close();
  });

  it('when its user is disabled by the status switch', async () => {
    const stream = await subscribe(await server.login('hz02'));
    expect((await server.call('system.user.changeStatus', { id: await userId('hz02'), status: '0' }, { token: tadmin })).code).toBe('200');
    await expectEnded(stream);
  });

  it('when its user is disabled in the user form', async () => {
    const stream = await subscribe(await server.login('hz03'));
    const detail = await server.call<Record<string, unknown>>('system.user.detail', { id: await userId('hz03') }, { token: tadmin });
    const { loginName, userName, phoneNumber, mail, roleCode, organizationCode } = detail.data!;
    const modified = await server.call(
      'system.user.modify',
      { id: await userId('hz03'), user: { loginName, userName, phoneNumber, mail, roleCode, organizationCode, status: '0' } },
      { token: tadmin },
    );
    expect(modified.code, modified.message).toBe('200');
    await expectEnded(stream);
  });

  it('when the password is changed in another session', async () => {
    const stream = await subscribe(await server.login('hz05'));
    const changer = await server.login('hz05');
    const changed = await server.call('user.password.update', { oldPassWord: DEMO_PASSWORD, updatePassWord: 'Other@2026x' }, { token: changer });
    expect(changed.code, changed.message).toBe('200');
    await expectEnded(stream);
  });

  it('when its user is deleted', async () => {
    const stream = await subscribe(await server.login('hz06'));
    expect((await server.call('system.user.delete', { ids: [await userId('hz06')] }, { token: tadmin })).code).toBe('200');
    await expectEnded(stream);
  });

  it('when its access token is made to expire now', async () => {
    const stream = await subscribe(await server.login('hz07'));
    expect((await server.call('dev.session.expire', { loginName: 'hz07' }, { token: tadmin })).code).toBe('200');
    await expectEnded(stream);
  });

  it('on another instance of the same database', async () => {
    let other: FastifyInstance | null = null;
    try {
      other = await buildApp({ db: server.db, config: defaultConfig({ dev: true }) });
      await other.listen({ port: 0, host: '127.0.0.1' });
      const token = await server.login('tuser');
      const there = await subscribe(token, addressOf(other));
      expect(there.status).toBe(200);
      expect((await server.call('auth.logout', {}, { token })).code).toBe('200');
      await expectEnded(there);
    } finally {
      await other?.close();
    }
  });
});

describe('a live stream ends at its token’s expiry', () => {
  let shortLived: TestServer;
  beforeAll(async () => {
    shortLived = await startServer({ config: { accessTokenTtlSeconds: 2 } });
    await shortLived.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await shortLived.close();
  });

  it('by itself, with nothing else said', async () => {
    const stream = await subscribe(await shortLived.login('tadmin'), addressOf(shortLived.app));
    expect(stream.status).toBe(200);
    expect(stream.events).toEqual([]);
    await expectEnded(stream);
  });
});

describe('a missed announcement', () => {
  it('is made up by the sweep: a session that ended unheard still ends its watch', async () => {
    // A database whose notifications never arrive, as while the listening connection is lost.
    const deaf: Database = { ...server.db, listen: async () => async () => undefined };
    const ends = await watchSessionEnds(deaf, server.now, () => undefined, 200);
    try {
      const token = await server.login('repair');
      const [session] = await server.db.query<{ id: number; user_id: number }>(
        "SELECT s.id, s.user_id FROM auth_session s JOIN app_user u ON u.id = s.user_id WHERE u.login_name = 'repair' AND s.revoked_at IS NULL ORDER BY s.id DESC LIMIT 1",
      );
      let ended = false;
      await ends.watch({ sessionId: session.id, userId: session.user_id, accessToken: token, end: () => (ended = true) });
      await until(() => false, 500);
      expect(ended).toBe(false);
      expect((await server.call('auth.logout', {}, { token })).code).toBe('200');
      await until(() => ended);
      expect(ended).toBe(true);
    } finally {
      await ends.stop();
    }
  });
});
