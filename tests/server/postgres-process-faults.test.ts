import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { adminQuery } from '../support/postgresCluster';
import { copySeededDatabase, DEMO_PASSWORD, postgresCluster } from './harness';
import { announceLiveEvent, startServerProcess, type ServerProcess } from './serverProcess';
import type { TokenPair } from '../../server/security/tokens';

/**
 * The database ends the connections of a running server process (`server/main.ts`, as an operator
 * runs it: issue 30): idle ones, ones checked out of the pool between two statements of a
 * transaction, ones running a statement, and the LISTEN connection. The process must survive
 * each, answer every call in flight (success, or "503" 服务繁忙，请稍后重试), and keep every write
 * it acknowledged. The in-process harness cannot show this: its timing differs, and an unhandled
 * `error` event there fails a test instead of ending a process.
 */

let server: ServerProcess;
let database: string;
let token: string;
/** A superuser connection of its own, polling and ending the server's backends. */
let admin: pg.Client;

beforeAll(async () => {
  database = await copySeededDatabase();
  server = await startServerProcess({ DATABASE_URL: postgresCluster.appUrl(database), LOG_LEVEL: 'warn' });
  const login = await server.call<TokenPair>('auth.login', { loginName: 'tadmin', password: DEMO_PASSWORD });
  if (login.code !== '200' || !login.data) throw new Error(`tadmin could not sign in: ${login.code} ${login.message}`);
  token = login.data.accessToken;
  // On the server's database: pg_notify is heard within one database only.
  admin = new pg.Client({ connectionString: postgresCluster.adminUrl(database) });
  await admin.connect();
}, 60_000);

afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

interface BackendEnded {
  state: string;
}

/** Ends the server's pooled backends in one of `states` (pg_stat_activity's state); answers those it ended. */
async function endBackends(states: readonly string[], applicationName = 'iot-console'): Promise<BackendEnded[]> {
  const { rows } = await admin.query<BackendEnded & { ended: boolean }>(
    `SELECT state, pg_terminate_backend(pid) AS ended FROM pg_stat_activity
      WHERE datname = $1 AND application_name = $2 AND state = ANY($3::text[])`,
    [database, applicationName, states],
  );
  return rows.filter((row) => row.ended);
}

interface AddressAnswer {
  code: string;
  message: string;
  id: number | null;
}

const address = (n: number) => ({ address: { receiver: '故障演练', phone: '13700001111', region: '浙江省 杭州市 滨江区', detail: `江南大道 ${n} 号` } });

/** Twenty addresses saved at once (a tenant keeps 20 at most: the wave starts from none). */
function saveAddresses(wave: number): Array<Promise<AddressAnswer>> {
  return Array.from({ length: 20 }, async (_, n) => {
    // A call the process never answered (it exited, the connection broke) is counted as such.
    const reply = await server.call<{ id: number }>('mall.address.insert', address(wave * 100 + n), token).catch(() => null);
    return { code: reply?.code ?? 'no answer', message: reply?.message ?? '', id: reply?.data?.id ?? null };
  });
}

async function storedAddressIds(ids: readonly number[]): Promise<Set<number>> {
  const rows = await adminQuery<{ id: number }>(postgresCluster, 'SELECT id FROM mall_address WHERE id = ANY($1::int[])', [ids], database);
  return new Set(rows.map((row) => row.id));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the process is still running; when it has exited, what it printed last is shown. */
async function alive(): Promise<boolean> {
  const running = await Promise.race([server.exited.then(() => false), pause(50).then(() => true)]);
  if (!running) console.error(`the server process exited:\n${server.output().slice(-4000)}`);
  return running;
}

/**
 * While `writes` are in flight, ends the first backends found in `states`, one at a time, up to
 * `limit` of them (ending every backend at every turn would leave no write a chance to succeed);
 * answers what it ended.
 */
async function endWhile(writes: Promise<unknown>, states: readonly string[], limit: number): Promise<BackendEnded[]> {
  let settled = false;
  void writes.finally(() => {
    settled = true;
  });
  const ended: BackendEnded[] = [];
  while (!settled && ended.length < limit) {
    const { rows } = await admin.query<BackendEnded & { ended: boolean }>(
      `SELECT state, pg_terminate_backend(pid) AS ended FROM (
         SELECT pid, state FROM pg_stat_activity WHERE datname = $1 AND application_name = 'iot-console' AND state = ANY($2::text[]) LIMIT 1) AS one`,
      [database, states],
    );
    ended.push(...rows.filter((row) => row.ended));
    await pause(rows.length ? 20 : 1);
  }
  return ended;
}

describe('connections the database ends under a running server process', () => {
  it('connections checked out between two statements of a transaction, and ones running a statement: every call answered, every acknowledged address stored, the process alive', async () => {
    const answers: AddressAnswer[] = [];
    const endedStates: string[] = [];
    // Waves until backends were ended both between statements and while running one (at most 12).
    for (let wave = 0; wave < 12; wave += 1) {
      await adminQuery(postgresCluster, "DELETE FROM mall_address WHERE tenant_code = 'T0001'", [], database);
      const writes = Promise.all(saveAddresses(wave));
      const ended = await endWhile(writes, ['idle in transaction', 'active'], 4);
      const waveAnswers = await writes;
      answers.push(...waveAnswers);
      endedStates.push(...ended.map((backend) => backend.state));
      expect(await alive()).toBe(true);
      // Checked before the next wave removes them.
      const acknowledged = waveAnswers.filter((answer) => answer.code === '200').map((answer) => answer.id ?? -1);
      const stored = await storedAddressIds(acknowledged);
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
      if (wave >= 2 && endedStates.includes('idle in transaction') && endedStates.includes('active')) break;
    }
    expect(endedStates).toContain('idle in transaction');
    expect(endedStates).toContain('active');
    // Every call in flight was answered: stored, or refused as busy; none was a fault or lost.
    expect(answers.length % 20).toBe(0);
    expect(answers.filter((answer) => answer.code !== '200' && answer.code !== '503')).toEqual([]);
    expect(answers.some((answer) => answer.code === '200')).toBe(true);
    console.info(
      `backends ended: ${endedStates.length} (${endedStates.filter((state) => state === 'idle in transaction').length} between statements of a transaction); ` +
        `calls ${answers.length}: acknowledged ${answers.filter((answer) => answer.code === '200').length}, 503 ${answers.filter((answer) => answer.code === '503').length}, acknowledged and missing 0`,
    );
    // And it goes on answering.
    expect((await server.call('auth.init', {}, token)).code).toBe('200');
  });

  it('idle pooled connections ended: replaced, the next call answered', async () => {
    expect((await server.call('auth.init', {}, token)).code).toBe('200');
    const ended = await endBackends(['idle']);
    expect(ended.length).toBeGreaterThan(0);
    await pause(100);
    expect(await alive()).toBe(true);
    expect((await server.call('auth.init', {}, token)).code).toBe('200');
  });

  it('the LISTEN connection ended: it listens again, an event written while it was away reaches the open stream, and what is announced after too', async () => {
    const [device] = await adminQuery<{ organization_code: string }>(postgresCluster, "SELECT organization_code FROM device WHERE tenant_code = 'T0001' ORDER BY id LIMIT 1", [], database);
    // A device code of the test's own, so the server's events about real devices are not mistaken for these.
    const event = { tenantCode: 'T0001', organizationCode: device.organization_code, deviceCode: 'LISTEN-PROBE' };
    const stream = await openLiveStream(server.url, token, event.deviceCode);
    try {
      const first = await announceLiveEvent(admin, event);
      expect((await stream.next()).id).toBe(first);
      const ended = await endBackends(['idle'], 'iot-console-listen');
      expect(ended).toHaveLength(1);
      // Written and announced while nobody listens (the server connects again a second later).
      const unheard = await announceLiveEvent(admin, event);
      let listening = false;
      for (let tries = 0; tries < 100 && !listening; tries += 1) {
        await pause(100);
        const { rows } = await admin.query("SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND application_name = 'iot-console-listen'", [database]);
        listening = rows.length === 1;
      }
      expect(listening).toBe(true);
      expect(await alive()).toBe(true);
      // Caught up from the table once it listens again, before anything newer.
      expect((await stream.next()).id).toBe(unheard);
      const after = await announceLiveEvent(admin, event);
      expect((await stream.next()).id).toBe(after);
    } finally {
      stream.close();
    }
  });
});

interface LiveFrame {
  id: string;
  deviceCode?: string;
}

/** An SSE client of /api/live/events: `next()` answers the next event frame (about device `only` when given). */
async function openLiveStream(url: string, accessToken: string, only?: string): Promise<{ next(timeoutMs?: number): Promise<LiveFrame>; close(): void }> {
  const abort = new AbortController();
  const response = await fetch(`${url}/api/live/events`, { headers: { token: accessToken, accept: 'text/event-stream' }, signal: abort.signal });
  if (!response.body) throw new Error('no stream');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const frames: LiveFrame[] = [];
  const waiting: Array<(frame: LiveFrame) => void> = [];
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.+)$/m.exec(block)?.[1];
        if (!id) continue;
        const data = /^data: (.+)$/m.exec(block)?.[1];
        const frame: LiveFrame = { id, deviceCode: data ? (JSON.parse(data) as { payload?: { deviceCode?: string } }).payload?.deviceCode : undefined };
        // The server's own events (an offline sweep, a rule) share the stream; the test follows its device.
        if (only && frame.deviceCode !== only) continue;
        const taker = waiting.shift();
        if (taker) taker(frame);
        else frames.push(frame);
      }
    }
  })();
  return {
    next: (timeoutMs = 5_000) =>
      new Promise<LiveFrame>((resolve, reject) => {
        const ready = frames.shift();
        if (ready) return resolve(ready);
        const timer = setTimeout(() => {
          const at = waiting.indexOf(take);
          if (at >= 0) waiting.splice(at, 1);
          reject(new Error('no live event'));
        }, timeoutMs);
        const take = (frame: LiveFrame) => {
          clearTimeout(timer);
          resolve(frame);
        };
        waiting.push(take);
      }),
    close: () => abort.abort(),
  };
}
