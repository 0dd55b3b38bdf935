// The role matrix (#9), generated from the catalogue: for every demo role, every button operation
// its menu does not grant is refused by the server with "403" 无权限访问 — a hidden button is not
// a way in. And every button its menu grants gets past admission (whatever its input says).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuResource } from '../../server/domain/menus';
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
