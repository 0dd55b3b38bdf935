// The role matrix (#9), generated from the catalogue: for every demo role, every button operation
// its menu does not grant is refused by the server with "403" 无权限访问 — a hidden button is not
// a way in. And every button its menu grants gets past admission (whatever its input says).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuResource } from '../../server/domain/menus';
import { IMPLEMENTED_OPERATION_NAMES } from '../../server/operations';
import { ADMIN_PASSWORD, catalogue, startServer, type TestServer } from './harness';

const ACCOUNTS: Array<[string, string | undefined]> = [
  ['tadmin', undefined],
  ['tuser', undefined],
  ['repair', undefined],
  ['patrol', undefined],
  ['implement', undefined],
  ['badmin', undefined],
  ['operator', undefined],
  ['admin', ADMIN_PASSWORD],
];
const BUTTON_OPERATIONS = Object.entries(catalogue).filter(([, entry]) => entry.button);

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const flatten = (nodes: readonly MenuResource[]): MenuResource[] => nodes.flatMap((node) => [node, ...flatten(node.children ?? [])]);

describe('role matrix: button permissions are enforced by the server', () => {
  it.each(ACCOUNTS)('%s: a button its menu lacks answers "403"; one it holds gets past admission', async (loginName, password) => {
    expect(BUTTON_OPERATIONS.length).toBeGreaterThan(50);
    const token = await server.login(loginName, password);
    const menu = await server.call<MenuResource[]>('resource.menu.list', { clientType: 1 }, { token });
    expect(menu.code).toBe('200');
    const granted = new Set(flatten(menu.data ?? []).flatMap((node) => (node.buttonList ?? []).map((button) => button.resourceUrl)));
    const wrong: string[] = [];
    for (const [name, entry] of BUTTON_OPERATIONS) {
      // A param no operation accepts: admission answers first, so only a refusal or "400"/"501" can come back.
      const response = await server.app.inject({
        method: entry.kind === 'get' ? 'GET' : 'POST',
        url: `/api${entry.path}`,
        headers: { token, 'content-type': 'application/json' },
        ...(entry.kind === 'get' ? {} : { payload: { param: { __matrix__: true } } }),
      });
      const code = String(response.headers['content-type'] ?? '').includes('json') ? response.json<{ code: string }>().code : '200';
      if (granted.has(name) ? code === '403' : code !== '403') wrong.push(`${name} → ${code}（${granted.has(name) ? '已授权' : '未授权'}）`);
    }
    expect(wrong).toEqual([]);
  });
});

/**
 * Issue 18, findings 2 and 4, tried on every catalogued operation: the roles whose menus show
 * neither the user screens nor the login log (tuser, repair, patrol, implement) read no other
 * user's phone number, mail or login address through any operation, and every operation over the
 * login records (login log, login statistics, login users) refuses them "403" 无权限访问.
 */
describe('role matrix: other users\' personal data and the login records (issue 18)', () => {
  const ORDINARY = ['tuser', 'repair', 'patrol', 'implement'];
  /** Reads: lists, details, trees, boards, statistics — every operation that does not change anything. */
  const READ = /\.(page|list|allList|roleList|detail|details|tree|get|find|board|statistics|overview|dashboard|dynamic|tenant|active|activity|queryUsage|year|count|info|card|detailNum|operDetail|runInfo)$|Statistics|Trend/;
  const implemented = new Set(IMPLEMENTED_OPERATION_NAMES);
  const READS = Object.entries(catalogue).filter(
    ([name, entry]) => implemented.has(name) && (entry.access ?? 'token') === 'token' && !name.startsWith('dev.') && !name.startsWith('auth.') && entry.kind !== 'blob' && entry.kind !== 'upload' && READ.test(name),
  );
  /**
   * The fields of a user record (system.user.*, brand.user.*, work.staff.list, login users and
   * login log). A document's own contact (a work order's 联系电话 and 处理人电话, a card order's
   * contact) is the document's, shown by its screens to those who work on it: not a user record.
   */
  const USER_RECORD_FIELDS = /^(phone|phoneNumber|mail|email|ip|loginIp|lastLoginIp|userAgent)$/;
  const LOGIN_RECORDS = Object.keys(catalogue).filter((name) => implemented.has(name) && /^(system\.loginLog|loginLog\.statistics|loginUser)\./.test(name));

  async function answer(name: string, token: string, param: unknown): Promise<{ code: string; message?: string; data?: unknown }> {
    const entry = catalogue[name];
    if (entry.kind === 'get') {
      const query = new URLSearchParams(Object.entries(param as Record<string, unknown>).map(([key, value]) => [key, String(value)]));
      return (await server.app.inject({ method: 'GET', url: `/api${entry.path}?${query}`, headers: { token } })).json();
    }
    const body = entry.kind === 'page' ? { pageParam: { pageNumber: 1, pageSize: 100 }, param, sortParamList: [] } : { param };
    const response = await server.app.inject({ method: 'POST', url: `/api${entry.path}`, headers: { token, 'content-type': 'application/json' }, payload: body });
    return String(response.headers['content-type'] ?? '').includes('json') ? response.json() : { code: '200' };
  }

  it.each(ORDINARY)('%s: no operation answers another user\'s phone, mail or login address; the login records answer "403"', async (loginName) => {
    expect(READS.length).toBeGreaterThan(100);
    expect(LOGIN_RECORDS.length).toBeGreaterThanOrEqual(12);
    const token = await server.login(loginName);
    const [me] = await server.db.query<{ id: number }>('SELECT id FROM app_user WHERE login_name = $1', [loginName]);
    // Another user of the same tenant: the one whose records a leak would show.
    const [colleague] = await server.db.query<{ id: number }>("SELECT id FROM app_user WHERE login_name = 'tadmin'");
    const personal = await server.db.query<{ value: string }>(
      `SELECT phone AS value FROM app_user WHERE id <> $1 AND phone IS NOT NULL
       UNION SELECT mail FROM app_user WHERE id <> $1 AND mail IS NOT NULL
       UNION SELECT DISTINCT ip FROM login_log WHERE user_id <> $1 AND ip <> '' AND ip NOT IN (SELECT ip FROM login_log WHERE user_id = $1)`,
      [me.id],
    );
    const values = new Set(personal.map((row) => row.value));
    expect(values.size).toBeGreaterThan(20);
    const leaks: string[] = [];
    let read = 0;
    for (const [name] of READS) {
      const reply = await answer(name, token, /\.(detail|get)$/.test(name) ? { id: colleague.id, userId: colleague.id } : {});
      if (reply.code === '400' && /\.(detail|get)$/.test(name)) continue;
      if (reply.code !== '200') continue;
      read += 1;
      const found: string[] = [];
      JSON.stringify(reply.data ?? null, (key, value: unknown) => {
        if (typeof value === 'string' && values.has(value) && USER_RECORD_FIELDS.test(key)) found.push(`${key}=${value}`);
        return value;
      });
      if (found.length) leaks.push(`${name}: ${[...new Set(found)].slice(0, 3).join(', ')}`);
    }
    expect(read).toBeGreaterThan(10);
    expect(leaks).toEqual([]);
    const refused = [];
    for (const name of LOGIN_RECORDS) refused.push(`${name} → ${(await answer(name, token, {})).code}`);
    expect(refused).toEqual(LOGIN_RECORDS.map((name) => `${name} → 403`));
  });
});
