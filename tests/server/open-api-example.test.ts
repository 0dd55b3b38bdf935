// The README's open API example (issue 23), run as written against a real listening server: the
// curl lines and the Node script (kept in scripts/open-api-example.mjs, which the README holds verbatim).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { expectDocumented, issueKey, type OpenKey } from './open-api-helpers';

const run = promisify(execFile);
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const SCRIPT_FILE = new URL('../../scripts/open-api-example.mjs', import.meta.url);

/** The fenced blocks of `language` in the README's "Open API" section. */
function blocksOf(language: string): string[] {
  const start = README.indexOf('\n## Open API\n');
  const end = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, end);
  return [...section.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]);
}

let server: TestServer;
let key: OpenKey;
let url: string;
beforeAll(async () => {
  server = await startServer();
  key = await issueKey(server);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const env = () => ({ ...process.env, OPEN_API_URL: url, OPEN_API_ACCESS_KEY: key.accessKey, OPEN_API_SECRET: key.secret });

describe('the README example', () => {
  it('holds the script verbatim', () => {
    expect(blocksOf('js')).toEqual([readFileSync(SCRIPT_FILE, 'utf8')]);
  });

  it('the Node script signs a request and lists the online devices', async () => {
    const { stdout } = await run(process.execPath, [SCRIPT_FILE.pathname], { env: env(), timeout: 20_000 });
    const [first, ...devices] = stdout.trim().split('\n');
    const [{ total }] = await server.db.query<{ total: number }>("SELECT count(*)::int AS total FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL AND online_state = 'online'");
    expect(first).toBe(`共 ${total} 台在线设备`);
    expect(devices).toHaveLength(Math.min(10, total));
    for (const line of devices) expect(line).toMatch(/^[A-Za-z0-9]{12} \S+/);
    const [audit] = await server.db.query<{ operation: string; code: string; user_agent: string }>('SELECT operation, code, user_agent FROM open_api_call WHERE access_key = $1 ORDER BY id DESC LIMIT 1', [key.accessKey]);
    expect(audit).toMatchObject({ operation: 'device.page', code: '200' });
  });

  it('the curl lines sign a request and list devices', async () => {
    const [curl] = blocksOf('sh');
    const { stdout } = await run('bash', ['-eo', 'pipefail', '-c', curl], { env: env(), timeout: 20_000 });
    const answer = JSON.parse(stdout) as { code: string; data: { total: number; records: unknown[] } };
    expect(answer.code).toBe('200');
    expect(answer.data.records).toHaveLength(10);
    await expectDocumented(server, 'device.page', answer);
  });

  it('the script says why when the key is wrong', async () => {
    const failed = await run(process.execPath, [SCRIPT_FILE.pathname], { env: { ...env(), OPEN_API_SECRET: 'sk_wrong' }, timeout: 20_000 }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in failed && failed.code).toBe(1);
    expect((failed as { stderr: string }).stderr).toContain('401 签名错误');
  });
});
