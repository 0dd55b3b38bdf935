// Issue 19, the lists that counted per row: the product and area lists read their device counts
// from device_tally (migration 092, kept by statement triggers on device), and the gateway,
// staff, repair summary, backlog and device error lists choose their rows before looking up what
// they show (migration 093's indexes). Two things are proven here on both engines:
//   - the tally equals a fresh count of the devices after every kind of write: inserts, bulk
//     inserts, moves of product, organisation and online state, soft deletes, restores, deletes,
//     a concurrent pair of inserts (a known and a new product and organisation), and a reset of
//     the seed (which restores tables in replica mode and in any order);
//   - each list answers on the seed what its old query answered (the old SQL is written out here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/database';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';
import { column, pageCall } from './devices-maintenance-helpers';

let server: TestServer;
let admin: string;
let tadmin: string;

beforeAll(async () => {
  server = await startServer();
  [admin, tadmin] = await Promise.all([server.login('admin', ADMIN_PASSWORD), server.login('tadmin')]);
});
afterAll(() => server.close());

/** The (product, tenant, organisation) rows where device_tally differs from counting device now. */
async function tallyMismatches(db: Queryable = server.db): Promise<unknown[]> {
  return db.query(`
    SELECT product_code, tenant_code, organization_code, f.devices AS counted, k.devices AS kept, f.online AS counted_online, k.online AS kept_online
      FROM (SELECT product_code, tenant_code, organization_code, count(*)::int AS devices, (count(*) FILTER (WHERE online_state = 'online'))::int AS online
              FROM device WHERE deleted_at IS NULL GROUP BY 1, 2, 3) f
      FULL JOIN device_tally k USING (product_code, tenant_code, organization_code)
     WHERE f.devices IS DISTINCT FROM k.devices OR f.online IS DISTINCT FROM k.online`);
}

async function expectTallyExact(): Promise<void> {
  expect(await tallyMismatches()).toEqual([]);
  // Rows that fell to zero are gone: the table holds exactly the combinations that have devices.
  expect(await column<number>(server, 'SELECT count(*)::int AS value FROM device_tally WHERE devices <= 0')).toEqual([0]);
}

/** Every record of a paged list (page by page, `pageSize` at a time). */
async function allRecords<T>(name: string, token: string, param: object = {}, options: { orgCode?: string; sort?: Array<{ field: string; order: 'asc' | 'desc' }>; pageSize?: number } = {}): Promise<T[]> {
  const records: T[] = [];
  const pageSize = options.pageSize ?? 1000;
  for (let pageNumber = 1; ; pageNumber += 1) {
    const reply = await pageCall<T>(server, name, token, param, { ...options, pageNumber, pageSize });
    expect(reply.code, reply.message).toBe('200');
    records.push(...reply.data.records);
    if (records.length >= reply.data.total || reply.data.records.length < pageSize) return records;
  }
}

/** The organisation `code` and every one below it. */
async function subtree(code: string): Promise<string[]> {
  return column<string>(
    server,
    `WITH RECURSIVE sub (code) AS (SELECT code FROM organization WHERE code = $1 UNION SELECT o.code FROM organization o JOIN sub ON o.parent_code = sub.code)
     SELECT code AS value FROM sub ORDER BY code`,
    [code],
  );
}

/** A device code of 12 letters and digits, unique per call. */
let made = 0;
const newCode = (prefix: string) => `${prefix}${String((made += 1)).padStart(12 - prefix.length, '0')}`;

/** Inserts `count` live devices of `product` at `organization` (of tenant T0001) in one statement. */
async function insertDevices(db: Queryable, prefix: string, count: number, product: string, organization: string, online = 'online'): Promise<string[]> {
  const codes = Array.from({ length: count }, () => newCode(prefix));
  await db.query(
    `INSERT INTO device (code, name, product_code, organization_code, tenant_code, online_state)
     SELECT c, '计数测试' || c, $2, $3, 'T0001', $4 FROM unnest($1::text[]) AS c`,
    [codes, product, organization, online],
  );
  return codes;
}

describe('lists answer on the seed what their old queries answered', () => {
  it('product.page: the device and online counts of each product within the platform, a tenant and part of it', async () => {
    interface ProductRecord {
      code: string;
      deviceCount: number;
      onlineCount: number;
    }
    const part = await subtree('T0001P01');
    const scopes: Array<{ token: string; orgCode?: string; where: string; params: unknown[] }> = [
      { token: admin, where: 'TRUE', params: [] },
      { token: tadmin, where: 'd.tenant_code = $2', params: ['T0001'] },
      { token: tadmin, orgCode: 'T0001P01', where: 'd.tenant_code = $2 AND d.organization_code = ANY($3::text[])', params: ['T0001', part] },
    ];
    let counted = 0;
    for (const scope of scopes) {
      const records = await allRecords<ProductRecord>('product.page', scope.token, {}, { orgCode: scope.orgCode });
      expect(records.length).toBeGreaterThan(0);
      for (const record of records) {
        const [old] = await server.db.query<{ devices: number; online: number }>(
          `SELECT (SELECT count(*)::int FROM device d WHERE d.product_code = $1 AND d.deleted_at IS NULL AND ${scope.where}) AS devices,
                  (SELECT count(*)::int FROM device d WHERE d.product_code = $1 AND d.deleted_at IS NULL AND d.online_state = 'online' AND ${scope.where}) AS online`,
          [record.code, ...scope.params] as never,
        );
        expect({ code: record.code, devices: record.deviceCount, online: record.onlineCount }).toEqual({ code: record.code, ...old });
        counted += old.devices;
      }
    }
    expect(counted).toBeGreaterThan(0);
    // Sorted by the count, as before: by the same numbers.
    const byCount = await allRecords<ProductRecord>('product.page', tadmin, {}, { sort: [{ field: 'deviceCount', order: 'desc' }] });
    expect(byCount.map((record) => record.deviceCount)).toEqual([...byCount.map((record) => record.deviceCount)].sort((a, b) => b - a));
  });

  it('project.area.page: the live devices of each area', async () => {
    const records = await allRecords<{ code: string; deviceCount: number; canDelete: boolean; childCount: number }>('project.area.page', tadmin);
    expect(records.length).toBeGreaterThan(0);
    const old = new Map(
      (await server.db.query<{ code: string; devices: number }>(
        'SELECT o.code, (SELECT count(*)::int FROM device d WHERE d.organization_code = o.code AND d.deleted_at IS NULL) AS devices FROM organization o WHERE o.code = ANY($1::text[])',
        [records.map((record) => record.code)],
      )).map((row) => [row.code, row.devices]),
    );
    for (const record of records) {
      expect({ code: record.code, devices: record.deviceCount }).toEqual({ code: record.code, devices: old.get(record.code) });
      expect(record.canDelete).toBe(record.childCount === 0 && old.get(record.code) === 0);
    }
    expect(records.some((record) => record.deviceCount > 0)).toBe(true);
  });

  it('gateway.page: the same gateways in the same order, with their live sub-devices within the scope', async () => {
    interface GatewayRecord {
      code: string;
      subDeviceCount: number;
      onlineSubDeviceCount: number;
    }
    for (const token of [admin, tadmin]) {
      const tenant = token === tadmin ? 'T0001' : null;
      const old = await server.db.query<{ code: string; sub: number; online: number }>(
        `SELECT d.code,
                (SELECT count(*)::int FROM device s WHERE s.gateway_code = d.code AND s.deleted_at IS NULL AND ($1::text IS NULL OR s.tenant_code = $1)) AS sub,
                (SELECT count(*)::int FROM device s WHERE s.gateway_code = d.code AND s.deleted_at IS NULL AND s.online_state = 'online' AND ($1::text IS NULL OR s.tenant_code = $1)) AS online
           FROM device d JOIN product p ON p.code = d.product_code
          WHERE p.node_type = 'gateway' AND d.deleted_at IS NULL AND ($1::text IS NULL OR d.tenant_code = $1)
          ORDER BY d.code`,
        [tenant],
      );
      expect(old.length).toBeGreaterThan(0);
      const records = await allRecords<GatewayRecord>('gateway.page', token, {}, { sort: [{ field: 'code', order: 'asc' }], pageSize: 3 });
      expect(records.map((record) => ({ code: record.code, sub: record.subDeviceCount, online: record.onlineSubDeviceCount }))).toEqual(old);
    }
  });

  it('brand.user.page: each member open work', async () => {
    const records = await allRecords<{ id: number; openWorkCount: number }>('brand.user.page', tadmin);
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      const [old] = await column<number>(
        server,
        `SELECT ((SELECT count(*) FROM work_order w WHERE w.assignee_id = $1 AND w.state = ANY('{assigned,accepted,in_progress}'::text[]))
               + (SELECT count(*) FROM patrol_task t WHERE t.assignee_id = $1 AND t.state IN ('pending', 'in_progress')))::int AS value`,
        [record.id],
      );
      expect({ id: record.id, open: record.openWorkCount }).toEqual({ id: record.id, open: old });
    }
    expect(records.some((record) => record.openWorkCount > 0)).toBe(true);
  });

  it('repair.collect.page: the same groups, counts and order for every dimension, and the same pages', async () => {
    const names = { organization: 'org.name', assignee: "coalesce(au.user_name, '未指派')", faultType: "coalesce(o.fault_type, '')", month: "to_char(o.created_at, 'YYYY-MM')" };
    const keys = { organization: 'o.organization_code', assignee: "coalesce(o.assignee_id::text, '')", faultType: "coalesce(o.fault_type, '')", month: "to_char(o.created_at, 'YYYY-MM')" };
    for (const dimension of ['organization', 'assignee', 'faultType', 'month'] as const) {
      const old = await server.db.query<{ key: string; name: string; total: number; completed: number; overdue: number; total_cost: string | null }>(
        `SELECT * FROM (
           SELECT ${keys[dimension]} AS key, min(${names[dimension]}) AS name, count(*)::int AS total,
                  count(*) FILTER (WHERE o.state IN ('completed', 'audited'))::int AS completed,
                  count(*) FILTER (WHERE o.deadline_at < $1 AND o.state NOT IN ('completed', 'audited', 'closed'))::int AS overdue,
                  sum(o.cost)::numeric(12, 2)::text AS total_cost
             FROM work_order o JOIN organization org ON org.code = o.organization_code LEFT JOIN app_user au ON au.id = o.assignee_id
            WHERE o.type = 'repair' AND o.tenant_code = 'T0001'
            GROUP BY 1) g ORDER BY total DESC, key`,
        [server.now()],
      );
      expect(old.length).toBeGreaterThan(0);
      const reply = await pageCall<{ key: string; name: string; total: number; completed: number; overdue: number; totalCost: number }>(
        server,
        'repair.collect.page',
        tadmin,
        { dimension },
        { pageSize: 1000, sort: [{ field: 'total', order: 'desc' }] },
      );
      expect(reply.code).toBe('200');
      expect(reply.data.total).toBe(old.length);
      expect(reply.data.records.map((record) => ({ key: record.key, total: record.total, completed: record.completed, overdue: record.overdue, totalCost: record.totalCost }))).toEqual(
        old.map((row) => ({ key: row.key, total: row.total, completed: row.completed, overdue: row.overdue, totalCost: row.total_cost === null ? 0 : Number(row.total_cost) })),
      );
      if (dimension !== 'faultType') expect(reply.data.records.map((record) => record.name)).toEqual(old.map((row) => row.name));
      // A page of two is the same slice of the same order.
      const second = await pageCall<{ key: string }>(server, 'repair.collect.page', tadmin, { dimension }, { pageNumber: 2, pageSize: 2, sort: [{ field: 'total', order: 'desc' }] });
      expect(second.data.total).toBe(old.length);
      expect(second.data.records.map((record) => record.key)).toEqual(old.slice(2, 4).map((row) => row.key));
    }
  });

  it('brand.backlog.page: the same items in the same order with the same names, page by page and by keyword', async () => {
    const old = await server.db.query<{ kind: string; code: string; title: string; organization_name: string; assignee_name: string | null; device_code: string | null; device_name: string | null }>(
      `SELECT b.* FROM (
         SELECT o.type AS kind, o.code, o.title, o.priority, org.name AS organization_name, au.user_name AS assignee_name, o.device_code, d.name AS device_name, o.deadline_at AS due_at, o.created_at
           FROM work_order o JOIN organization org ON org.code = o.organization_code LEFT JOIN device d ON d.code = o.device_code LEFT JOIN app_user au ON au.id = o.assignee_id
          WHERE o.tenant_code = 'T0001' AND (o.state = 'created' OR (o.type = 'repair' AND o.state = 'rejected') OR (o.state = 'completed' AND o.audit_state = 'pending' AND o.type IN ('repair', 'construction', 'exploration')))
         UNION ALL
         SELECT 'patrol', t.code, t.name, 'normal', org.name, au.user_name, NULL, NULL, t.plan_end_at, t.created_at
           FROM patrol_task t JOIN organization org ON org.code = t.organization_code LEFT JOIN app_user au ON au.id = t.assignee_id
          WHERE t.tenant_code = 'T0001' AND t.state = 'pending' AND t.assignee_id IS NULL) b
       ORDER BY b.due_at ASC NULLS LAST, array_position(ARRAY['urgent','high','normal','low'], b.priority), b.created_at, b.code`,
    );
    expect(old.length).toBeGreaterThan(3);
    const expected = old.map((row) => ({
      kind: row.kind,
      code: row.code,
      title: row.title,
      organizationName: row.organization_name,
      assigneeName: row.assignee_name ?? '',
      deviceCode: row.device_code ?? '',
      deviceName: row.device_name ?? '',
    }));
    const shown = (records: Array<Record<string, unknown>>) =>
      records.map((record) => ({
        kind: record.kind,
        code: record.code,
        title: record.title,
        organizationName: record.organizationName,
        assigneeName: record.assigneeName,
        deviceCode: record.deviceCode,
        deviceName: record.deviceName,
      }));
    expect(shown(await allRecords('brand.backlog.page', tadmin))).toEqual(expected);
    expect(shown(await allRecords('brand.backlog.page', tadmin, {}, { pageSize: 3 }))).toEqual(expected);
    // The keyword still finds an item by its device's name.
    const named = expected.find((item) => item.deviceName !== '');
    expect(named).toBeDefined();
    const found = shown(await allRecords('brand.backlog.page', tadmin, { keyword: named!.deviceName }));
    expect(found).toContainEqual(named);
    expect(found).toEqual(expected.filter((item) => [item.code, item.title, item.deviceCode, item.deviceName].some((text) => text.toLowerCase().includes(named!.deviceName.toLowerCase()))));
  });

  it('device.error.page: the errors of live devices in the same order, also once a device is recycled and restored', async () => {
    const oldCodes = () =>
      column<string>(
        server,
        `SELECT e.code AS value FROM device_error e JOIN device d ON d.code = e.device_code
          WHERE e.tenant_code = 'T0001' AND d.deleted_at IS NULL ORDER BY e.occurred_at DESC, e.id DESC`,
      );
    const listed = async () => (await allRecords<{ code: string }>('device.error.page', tadmin, {}, { pageSize: 30 })).map((record) => record.code);
    const before = await oldCodes();
    expect(before.length).toBeGreaterThan(0);
    expect(await listed()).toEqual(before);
    const [device] = await column<string>(server, "SELECT device_code AS value FROM device_error WHERE tenant_code = 'T0001' ORDER BY occurred_at DESC, id DESC LIMIT 1");
    await server.db.query('UPDATE device SET deleted_at = now() WHERE code = $1', [device]);
    const recycled = await oldCodes();
    expect(recycled.length).toBeLessThan(before.length);
    expect(await listed()).toEqual(recycled);
    // Filtered by a device column (the join comes back for it).
    const [product] = await column<string>(server, 'SELECT product_code AS value FROM device WHERE code = (SELECT device_code FROM device_error WHERE tenant_code = $1 ORDER BY id LIMIT 1)', ['T0001']);
    const byProduct = await allRecords<{ code: string; productCode: string }>('device.error.page', tadmin, { productCode: product });
    expect(byProduct.length).toBeGreaterThan(0);
    expect(byProduct.every((record) => record.productCode === product)).toBe(true);
    await server.db.query('UPDATE device SET deleted_at = NULL WHERE code = $1', [device]);
    expect(await listed()).toEqual(before);
  });
});

describe('device_tally', () => {
  it('equals the devices counted on the seed', async () => {
    await expectTallyExact();
    expect(await column<number>(server, 'SELECT count(*)::int AS value FROM device_tally')).not.toEqual([0]);
  });

  it('follows inserts, bulk inserts, moves, soft deletes, restores and deletes', async () => {
    const [product, other] = await column<string>(server, "SELECT code AS value FROM product WHERE node_type <> 'gateway' ORDER BY code LIMIT 2");
    const single = await insertDevices(server.db, 'LC', 1, product, 'T0001P01A01');
    await expectTallyExact();
    // One statement of many devices over several products and organisations.
    await server.db.query(
      `INSERT INTO device (code, name, product_code, organization_code, tenant_code, online_state)
       SELECT 'LB' || lpad(n::text, 10, '0'), '批量' || n, CASE WHEN n % 3 = 0 THEN $1 ELSE $2 END,
              CASE WHEN n % 2 = 0 THEN 'T0001P01A01' ELSE 'T0001P02A01' END, 'T0001', CASE WHEN n % 4 = 0 THEN 'online' ELSE 'offline' END
         FROM generate_series(1, 500) AS n`,
      [product, other],
    );
    await expectTallyExact();
    // Moves: product, organisation, online state, several at once and one that changes nothing counted.
    await server.db.query("UPDATE device SET product_code = $1 WHERE code LIKE 'LB%' AND right(code, 1) IN ('1', '2')", [other]);
    await server.db.query("UPDATE device SET organization_code = 'T0001P02A02' WHERE code LIKE 'LB%' AND right(code, 1) IN ('3', '4', '5')");
    await server.db.query("UPDATE device SET online_state = CASE online_state WHEN 'online' THEN 'offline' ELSE 'online' END WHERE code LIKE 'LB%' AND right(code, 1) = '6'");
    await server.db.query("UPDATE device SET last_seen_at = now(), name = name || '·' WHERE code LIKE 'LB%'");
    await expectTallyExact();
    // A move into a combination nobody had, and out of it again (the emptied row goes).
    const [unusedOrganization] = await column<string>(
      server,
      `SELECT o.code AS value FROM organization o WHERE o.code LIKE 'T0001%'
          AND NOT EXISTS (SELECT 1 FROM device_tally k WHERE k.organization_code = o.code AND k.product_code = $1) ORDER BY o.code LIMIT 1`,
      [product],
    );
    expect(unusedOrganization).toBeDefined();
    await server.db.query('UPDATE device SET organization_code = $1, product_code = $2 WHERE code = $3', [unusedOrganization, product, single[0]]);
    await expectTallyExact();
    await server.db.query("UPDATE device SET organization_code = 'T0001P01A01' WHERE code = $1", [single[0]]);
    await expectTallyExact();
    // Soft delete (the recycle bin is not counted), restore, and a change made in the bin.
    await server.db.query("UPDATE device SET deleted_at = now() WHERE code LIKE 'LB%' AND right(code, 1) IN ('7', '8')");
    await expectTallyExact();
    await server.db.query("UPDATE device SET online_state = 'online', product_code = $1 WHERE code LIKE 'LB%' AND deleted_at IS NOT NULL", [product]);
    await expectTallyExact();
    await server.db.query("UPDATE device SET deleted_at = NULL WHERE code LIKE 'LB%' AND right(code, 1) = '7'");
    await expectTallyExact();
    // Deletes: live and recycled devices.
    await server.db.query("DELETE FROM device WHERE code LIKE 'LB%' OR code = $1", [single[0]]);
    await expectTallyExact();
  });

  it('counts the devices written through the operations (a gateway created, moved and recycled)', async () => {
    const count = async () => {
      const [row] = await server.db.query<{ devices: number }>("SELECT coalesce(sum(devices), 0)::int AS devices FROM device_tally WHERE product_code = 'PRD-GW-4G' AND tenant_code = 'T0001'");
      return row.devices;
    };
    const before = await count();
    const gateway = { code: 'GWLC00000001', name: '计数网关', productCode: 'PRD-GW-4G', organizationCode: 'T0001P01A01' };
    expect((await server.call('gateway.insert', { gateway }, { token: tadmin })).code).toBe('200');
    expect(await count()).toBe(before + 1);
    expect((await server.call('gateway.modify', { code: gateway.code, gateway: { ...gateway, organizationCode: 'T0001P02A01' } }, { token: tadmin })).code).toBe('200');
    await expectTallyExact();
    expect((await server.call('gateway.delete', { code: gateway.code }, { token: tadmin })).code).toBe('200');
    expect(await count()).toBe(before);
    await expectTallyExact();
  });

  it('counts both of two transactions adding devices of one product at once, to a known and to a new combination', async () => {
    const [product] = await column<string>(server, "SELECT code AS value FROM product WHERE node_type <> 'gateway' ORDER BY code LIMIT 1");
    const [fresh] = await column<string>(
      server,
      `SELECT o.code AS value FROM organization o WHERE o.code LIKE 'T0001%'
          AND NOT EXISTS (SELECT 1 FROM device_tally k WHERE k.organization_code = o.code AND k.product_code = $1) ORDER BY o.code DESC LIMIT 1`,
      [product],
    );
    for (const organization of ['T0001P01A01', fresh]) {
      const before = await column<number>(server, 'SELECT coalesce(sum(devices), 0)::int AS value FROM device_tally WHERE product_code = $1 AND organization_code = $2', [product, organization]);
      // The first holds its transaction open a moment after writing, so that on PostgreSQL the
      // second writes the same tally row meanwhile (and waits for it); PGlite runs them in turn.
      await Promise.all([
        server.db.transaction(async (tx) => {
          await insertDevices(tx, 'LX', 2, product, organization);
          await tx.query('SELECT pg_sleep(0.2)');
        }),
        server.db.transaction(async (tx) => {
          await insertDevices(tx, 'LY', 3, product, organization);
        }),
      ]);
      expect(await column<number>(server, 'SELECT coalesce(sum(devices), 0)::int AS value FROM device_tally WHERE product_code = $1 AND organization_code = $2', [product, organization])).toEqual([
        before[0] + 5,
      ]);
      await expectTallyExact();
    }
    await server.db.query("DELETE FROM device WHERE code LIKE 'LX%' OR code LIKE 'LY%'");
    await expectTallyExact();
  });

  it('is counted again with the devices when the seed is restored (tables put back in replica mode, in any order)', async () => {
    const seeded = await server.db.query('SELECT * FROM device_tally ORDER BY product_code, tenant_code, organization_code');
    const [product] = await column<string>(server, "SELECT code AS value FROM product WHERE node_type <> 'gateway' ORDER BY code LIMIT 1");
    await insertDevices(server.db, 'LR', 4, product, 'T0001P01A02');
    await server.db.query("UPDATE device SET deleted_at = now() WHERE id IN (SELECT id FROM device WHERE deleted_at IS NULL AND code NOT LIKE 'LR%' ORDER BY id LIMIT 3)");
    expect(await server.db.query('SELECT * FROM device_tally ORDER BY product_code, tenant_code, organization_code')).not.toEqual(seeded);
    expect((await server.call('dev.reset')).code).toBe('200');
    await expectTallyExact();
    expect(await server.db.query('SELECT * FROM device_tally ORDER BY product_code, tenant_code, organization_code')).toEqual(seeded);
    // The tally alone emptied from outside (as the reset does when it comes first) is counted again.
    await server.db.query('DELETE FROM device_tally');
    expect(await server.db.query('SELECT * FROM device_tally ORDER BY product_code, tenant_code, organization_code')).toEqual(seeded);
  });
});
