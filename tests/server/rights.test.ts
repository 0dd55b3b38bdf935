// The server keeps what it read of a user's rights under the authorisation generation of migration
// 025. These prove that no change to what rights are made of outlives its transaction: each table
// is changed with plain SQL, as any writer would, and the next request of a session signed in
// before the change already sees it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  expect((await server.call('dev.reset')).code).toBe('200');
  token = await server.login('tadmin');
  // Read the rights once, so that each test meets them cached.
  expect(await admission()).toBe('400');
});

/** "400" once past admission (the empty body is invalid), "403" or "301" when refused there. */
async function admission(orgCode?: string): Promise<string> {
  return (await server.call('device.insert', {}, { token, orgCode })).code;
}

const tadminId = async () => (await server.db.query<{ id: number }>("SELECT id FROM app_user WHERE login_name = 'tadmin'"))[0].id;

describe('cached rights follow every change at once', () => {
  it('a disabled user is refused on the next request', async () => {
    await server.db.query('UPDATE app_user SET status = 0 WHERE id = $1', [await tadminId()]);
    expect(await admission()).toBe('301');
  });

  it('roles taken away take the buttons with them', async () => {
    await server.db.query("UPDATE user_role SET role_code = 'ROLE_TENANT_ORDINARY' WHERE user_id = $1", [await tadminId()]);
    expect(await admission()).toBe('403');
  });

  it('a grant removed from the role, or its resource renamed, refuses the button', async () => {
    const grant = await server.db.query<{ resource_code: string }>(
      `DELETE FROM role_resource g USING resource r WHERE g.resource_code = r.code AND r.url = 'device.insert' AND g.role_code = 'TENANT_ADMIN'
        RETURNING g.resource_code`,
    );
    expect(grant.length).toBeGreaterThan(0);
    expect(await admission()).toBe('403');
    await server.db.query('INSERT INTO role_resource (role_code, resource_code) SELECT $1, unnest($2::text[])', ['TENANT_ADMIN', grant.map((g) => g.resource_code)]);
    expect(await admission()).toBe('400');
    await server.db.query("UPDATE resource SET url = 'device.insert.renamed' WHERE url = 'device.insert'");
    expect(await admission()).toBe('403');
  });

  it('a new organisation in the caller’s tree may be worked in at once; one moved out may not', async () => {
    await server.db.query("INSERT INTO organization (code, name, type, parent_code, sort) VALUES ('T0001P99', '新建项目', 3, 'T0001', 99)");
    expect(await admission('T0001P99')).toBe('400');
    await server.db.query("UPDATE organization SET parent_code = 'T0002' WHERE code = 'T0001P99'");
    expect(await admission('T0001P99')).toBe('403');
  });

  it('a user moved to another organisation leaves the old one', async () => {
    expect(await admission('T0001')).toBe('400');
    await server.db.query("UPDATE user_organization SET organization_code = 'T0002' WHERE user_id = $1", [await tadminId()]);
    expect(await admission('T0001')).toBe('403');
    expect(await admission('T0002')).toBe('400');
  });

  it('signing out refuses the token on the next request', async () => {
    expect((await server.call('auth.logout', {}, { token })).code).toBe('200');
    expect(await admission()).toBe('301');
  });

  it('dev.reset puts the seeded rights back for a session that outlives it', async () => {
    await server.db.query("DELETE FROM role_resource WHERE role_code = 'TENANT_ADMIN'");
    expect(await admission()).toBe('403');
    const pair = await server.loginPair('tadmin');
    expect((await server.call('dev.reset')).code).toBe('200');
    // The reset also ends every session: sign in again and find the seeded grants.
    expect((await server.call('device.insert', {}, { token: pair.accessToken })).code).toBe('301');
    token = await server.login('tadmin');
    expect(await admission()).toBe('400');
  });
});
