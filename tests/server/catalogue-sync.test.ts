// Menus, buttons, grants and dictionaries of the schema files reach an existing database on start
// (issue 25, server/seed/catalogueSync.ts): what the database never had is added once, what staff
// deleted or changed since is left as they left it, and a second start adds nothing. On both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueChangesLine, syncCatalogue } from '../../server/seed/catalogueSync';
import { startServer, type TestServer } from './harness';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const sync = () => server.db.transaction((tx) => syncCatalogue(tx));
const exists = async (sql: string, params: unknown[]) => (await server.db.query(sql, params as never)).length > 0;
const grantsOf = async (resource: string) =>
  (await server.db.query<{ role_code: string }>('SELECT role_code FROM role_resource WHERE resource_code = $1 ORDER BY role_code', [resource])).map((row) => row.role_code);
/** As if the database had been seeded before the entry was in the files: gone, and never delivered. */
const neverHad = async (kind: string, key: string) => server.db.query('DELETE FROM catalogue_delivery WHERE kind = $1 AND key = $2', [kind, key]);

describe('syncCatalogue', () => {
  it('on a database that has the whole catalogue, adds nothing and records it all as delivered', async () => {
    const first = await sync();
    expect(first).toEqual({ menus: [], buttons: [], grants: [], dictionaries: [], dictionaryItems: [] });
    expect(catalogueChangesLine(first)).toBeNull();
    const [{ count }] = await server.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM catalogue_delivery WHERE kind = 'resource'`);
    const [{ resources }] = await server.db.query<{ resources: number }>('SELECT count(*)::int AS resources FROM resource');
    expect(count).toBe(resources);
  });

  it('adds a screen the database never had, with its grants, and a dictionary item, and says so', async () => {
    const grants = await grantsOf('setting.status');
    expect(grants).toEqual(['PLATFORM_ADMIN', 'PLATFORM_OPERATOR']);
    await server.db.query(`DELETE FROM resource WHERE code = 'setting.status'`);
    await server.db.query(`DELETE FROM dict_item WHERE type = 'menu_classification' AND value = 'project'`);
    await neverHad('resource', 'setting.status');
    for (const role of grants) await neverHad('grant', `${role} setting.status`);
    await neverHad('dict_item', 'menu_classification project');

    const changes = await sync();
    expect(changes).toEqual({
      menus: ['setting.status'],
      buttons: [],
      grants: ['PLATFORM_ADMIN setting.status', 'PLATFORM_OPERATOR setting.status'],
      dictionaries: [],
      dictionaryItems: ['menu_classification project'],
    });
    expect(catalogueChangesLine(changes)).toBe('菜单与字典同步：新增 1 个菜单、2 项角色授权、1 个字典项（setting.status）');
    expect(await exists(`SELECT 1 FROM resource WHERE code = 'setting.status' AND parent_code = 'setting' AND view = 'system/status' AND kind = 'menu'`, [])).toBe(true);
    expect(await grantsOf('setting.status')).toEqual(grants);
    expect(await exists(`SELECT 1 FROM dict_item WHERE type = 'menu_classification' AND value = 'project' AND label = '项目'`, [])).toBe(true);
    // The platform admin's menu has it again (a new sign-in reads the rights that changed).
    const admin = await server.login('admin', 'Admin@2026');
    const menus = await server.call('resource.menu.list', {}, { token: admin });
    expect(menus.code).toBe('200');
    expect(JSON.stringify(menus.data)).toContain('setting.status');
    // A second start adds nothing.
    expect(catalogueChangesLine(await sync())).toBeNull();
  });

  it('leaves what staff deleted or changed after it was delivered: a button, a grant, a label', async () => {
    await server.db.query(`DELETE FROM role_resource WHERE role_code = 'PLATFORM_ADMIN' AND resource_code = 'device.list.delete'`);
    await server.db.query(`DELETE FROM resource WHERE code = 'device.list.edit'`);
    await server.db.query(`UPDATE dict_item SET label = '物联网平台' WHERE type = 'menu_classification' AND value = 'internet'`);
    await server.db.query(`UPDATE resource SET name = '系统运行状态' WHERE code = 'setting.status'`);
    try {
      expect(catalogueChangesLine(await sync())).toBeNull();
      expect(await grantsOf('device.list.delete')).toEqual(['TENANT_ADMIN']);
      expect(await exists(`SELECT 1 FROM resource WHERE code = 'device.list.edit'`, [])).toBe(false);
      expect(await exists(`SELECT 1 FROM dict_item WHERE type = 'menu_classification' AND value = 'internet' AND label = '物联网平台'`, [])).toBe(true);
      expect(await exists(`SELECT 1 FROM resource WHERE code = 'setting.status' AND name = '系统运行状态'`, [])).toBe(true);
      // A grant the files give an existing button and the database never had is delivered, once.
      await neverHad('grant', 'PLATFORM_ADMIN device.list.delete');
      expect((await sync()).grants).toEqual(['PLATFORM_ADMIN device.list.delete']);
      expect(await grantsOf('device.list.delete')).toEqual(['PLATFORM_ADMIN', 'TENANT_ADMIN']);
    } finally {
      await server.db.query(`UPDATE dict_item SET label = '物联网' WHERE type = 'menu_classification' AND value = 'internet'`);
      await server.db.query(`UPDATE resource SET name = '系统状态' WHERE code = 'setting.status'`);
      await neverHad('resource', 'device.list.edit');
      await neverHad('grant', 'TENANT_ADMIN device.list.edit');
      await neverHad('grant', 'PLATFORM_ADMIN device.list.edit');
      expect((await sync()).buttons).toEqual(['device.list.edit']);
    }
  });
});
