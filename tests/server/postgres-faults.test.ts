import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitOutcomeUnknown, isConnectionLost, isPlainRead } from '../../server/db/postgres';
import { adminQuery } from '../support/postgresCluster';
import { ADMIN_PASSWORD, postgresCluster, startServer, type TestServer } from './harness';

/**
 * The database ends connections under the server (a restart, a failover, an administrator's
 * `pg_terminate_backend`): the process must survive, replace them, keep answering, and never lose
 * a write it acknowledged.
 */

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login('admin', ADMIN_PASSWORD);
});
afterAll(() => server.close());

/** Ends every connection of the server's database but the caller's; answers how many. */
async function endServerConnections(): Promise<number> {
  const rows = await adminQuery<{ ended: boolean }>(
    postgresCluster,
    'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [server.databaseName],
  );
  return rows.filter((row) => row.ended).length;
}

const newUser = (loginName: string) => ({
  loginName,
  userName: '压测用户',
  organizationCode: 'T0001P01',
  roleCode: 'ROLE_TENANT_REPAIR',
  status: '1',
});

describe('connections ended by the database server', () => {
  it('an idle pooled connection ended by the server is replaced; the process does not exit', async () => {
    expect((await server.call('auth.init', {}, { token })).code).toBe('200');
    expect(await endServerConnections()).toBeGreaterThan(0);
    // The pool hears of it on the idle connections (its error listener), then opens new ones.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await server.call('auth.init', {}, { token })).code).toBe('200');
  });

  it('ending every backend in the middle of a burst of writes: the server keeps answering and every acknowledged write is stored', async () => {
    const accounts = Array.from({ length: 120 }, (_, index) => `kill_${process.pid}_${index}`);
    const answers: Array<{ account: string; code: string }> = [];
    let ended = 0;
    // Six waves of twenty writes at once, the backends ended while each wave is in flight.
    for (let wave = 0; wave < 6; wave += 1) {
      const batch = accounts.slice(wave * 20, wave * 20 + 20);
      const writes = batch.map(async (account) => {
        const reply = await server.call('system.user.insert', { user: newUser(account) }, { token });
        answers.push({ account, code: reply.code });
      });
      await new Promise((resolve) => setTimeout(resolve, 5 * wave));
      ended += await endServerConnections();
      await Promise.all(writes);
    }
    expect(ended).toBeGreaterThan(0);
    // Every call was answered with an envelope; none was a server fault.
    expect(answers).toHaveLength(accounts.length);
    expect(answers.filter((answer) => answer.code === '500')).toEqual([]);
    const acknowledged = answers.filter((answer) => answer.code === '200').map((answer) => answer.account);
    expect(acknowledged.length).toBeGreaterThan(0);
    const stored = await server.db.query<{ login_name: string }>('SELECT login_name FROM app_user WHERE login_name = ANY($1::text[])', [accounts]);
    const storedNames = new Set(stored.map((row) => row.login_name));
    expect(acknowledged.filter((account) => !storedNames.has(account))).toEqual([]);
    // The figures README "Production database" quotes.
    const busy = answers.filter((answer) => answer.code === '503').length;
    console.info(`connections ended: ${ended}; writes: ${answers.length}, acknowledged ${acknowledged.length}, 503 ${busy}, stored ${storedNames.size}, acknowledged and missing 0`);
    // And the server still answers.
    expect((await server.call('auth.init', {}, { token })).code).toBe('200');
  });
});

describe('what is sent again when the server ended its connection', () => {
  it('a statement outside a transaction only when it is a plain read (a commit may have landed before the end)', () => {
    expect(isPlainRead('SELECT id FROM app_user WHERE login_name = $1')).toBe(true);
    expect(isPlainRead('  select count(*) from device')).toBe(true);
    expect(isPlainRead('WITH RECURSIVE scope (code) AS (SELECT code FROM organization) SELECT code FROM scope')).toBe(true);
    expect(isPlainRead('SELECT id, updated_at, deleted_by FROM mall_address WHERE tenant_code = $1')).toBe(true);
    expect(isPlainRead('INSERT INTO captcha (uuid) VALUES ($1)')).toBe(false);
    expect(isPlainRead('UPDATE device SET name = $1')).toBe(false);
    expect(isPlainRead('WITH gone AS (DELETE FROM live_event RETURNING id) SELECT count(*) FROM gone')).toBe(false);
    expect(isPlainRead("SELECT pg_notify('live_event', $1)")).toBe(false);
    expect(isPlainRead("SELECT nextval('device_id_seq')")).toBe(false);
  });

  it('a COMMIT whose connection was lost is of unknown outcome: "503", never run again', () => {
    const unknown = new CommitOutcomeUnknown(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }));
    expect(unknown.code).toBe('08007');
    expect(isConnectionLost(unknown)).toBe(true);
  });
});
