import { advanceIdSequences, insertRows, truncateApplicationTables, type Row } from '../db/bulk';
import type { Database, Queryable } from '../db/database';
import { organizationRows } from './organizations';
import { USER_STATUS } from '../domain/users';
import { activityTables } from './activity';
import { cardOrderRows } from './cardOrders';
import { deviceTables } from './devices';
import { alarmsTables } from './alarms';
import { firmwareTables } from './firmware';
import { cardsTables } from './cards';
import { workOrdersTables } from './workOrders';
import { fleetExtrasTables } from './fleetExtras';
import { maintenanceTables } from './maintenance';
import { notificationTables } from './notifications';
import { createRandom } from './prng';
import { resourceTables } from './resources';
import { ROLES } from './roles';
import { readDictionaries, readMenus } from './schemaFiles';
import { userTables } from './users';

/** The rows of the demo world, table by table in insertion order. */
export type SeedData = ReadonlyArray<{ table: string; rows: readonly Row[] }>;

export const SEED = 20260101;

/** Builds the demo world in memory; deterministic for a given seed and schema files. */
export async function buildSeed(seed = SEED, today = new Date()): Promise<SeedData> {
  const random = createRandom(seed);
  const users = await userTables(random);
  const activity = activityTables(
    random,
    users.users.filter((u) => u.status === USER_STATUS.active).map((u) => ({
      id: Number(u.id),
      loginName: String(u.login_name),
      organizationCode: String(users.userOrganizations.find((o) => o.user_id === u.id)?.organization_code ?? ''),
    })),
    today,
  );
  // Their own generator, so adding them left the rest of the world as it was.
  const notifications = notificationTables(
    createRandom(seed + 4),
    users.users.map((u) => ({
      id: Number(u.id),
      loginName: String(u.login_name),
      organizationCode: String(users.userOrganizations.find((o) => o.user_id === u.id)?.organization_code ?? ''),
    })),
    today,
  );
  const tenantOf = (organizationCode: string) => organizationCode.slice(0, 5);
  // The device side's clock is the start of the current hour: recent enough for "last seen"
  // times, and the same world for every build within the hour.
  const hour = new Date(Math.floor(today.getTime() / 3_600_000) * 3_600_000);
  const devices = deviceTables(
    createRandom(seed + 5),
    hour,
    users.users
      .filter((u) => ['tadmin', 'tuser', 'badmin'].includes(String(u.login_name)))
      .map((u) => ({ userId: Number(u.id), tenantCode: tenantOf(String(users.userOrganizations.find((o) => o.user_id === u.id)?.organization_code ?? '')) })),
  );
  const { resources, grants } = resourceTables(readMenus());
  const dictionaries = readDictionaries();
  return [
    { table: 'organization', rows: organizationRows() },
    { table: 'role', rows: ROLES.map((role, index) => ({ code: role.code, name: role.name, scope: role.scope, sort: index + 1 })) },
    { table: 'app_user', rows: users.users },
    { table: 'user_organization', rows: users.userOrganizations },
    { table: 'user_role', rows: users.userRoles },
    { table: 'login_log', rows: activity.loginLog },
    { table: 'usage_message', rows: activity.usage },
    { table: 'resource', rows: resources },
    { table: 'role_resource', rows: grants },
    { table: 'dict_type', rows: dictionaries.map((d, index) => ({ type: d.dictType, name: d.dictName, sort: index + 1 })) },
    {
      table: 'dict_item',
      rows: dictionaries.flatMap((d) => d.items.map((item, index) => ({ type: d.dictType, value: item.value, label: item.label, sort: index + 1 }))),
    },
    { table: 'notification', rows: notifications.notifications },
    { table: 'notification_recipient', rows: notifications.recipients },
    { table: 'card_order', rows: cardOrderRows(today) },
    { table: 'device_category', rows: devices.categories },
    { table: 'product', rows: devices.products },
    // Gateways first: sub-devices refer to them.
    { table: 'device', rows: devices.devices.filter((d) => d.gateway_code === null) },
    { table: 'device', rows: devices.devices.filter((d) => d.gateway_code !== null) },
    { table: 'device_care', rows: devices.care },
    // Each part of the device side draws from its own generator, so none shifts another.
    ...fleetExtrasTables(createRandom(seed + 6), hour, devices),
    ...maintenanceTables(createRandom(seed + 7), hour, devices),
    ...alarmsTables(createRandom(seed + 8), hour, devices),
    ...firmwareTables(createRandom(seed + 9), hour, devices),
    ...workOrdersTables(createRandom(seed + 10), hour, devices),
    ...cardsTables(createRandom(seed + 11), hour, devices),
  ];
}

async function load(db: Queryable, data: SeedData): Promise<void> {
  for (const { table, rows } of data) await insertRows(db, table, rows);
  await advanceIdSequences(db);
}

/** Seeds an empty database (no organisation yet); answers whether it did. */
export async function seedIfEmpty(db: Database, data: () => Promise<SeedData>): Promise<boolean> {
  const [{ count }] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM organization');
  if (count > 0) return false;
  const rows = await data();
  await db.transaction((tx) => load(tx, rows));
  return true;
}

/** Where a copy of the seeded tables is kept for fast resets (dropped and rebuilt once per process). */
const SNAPSHOT_SCHEMA = 'seed_snapshot';
const snapshots = new WeakMap<Database, SeedData>();

/** The tables of `data` in load order, each once. */
const seededTables = (data: SeedData): string[] => [...new Set(data.map(({ table }) => table))];

/**
 * Replaces everything with the seeded world, in one transaction. The first reset of a process
 * loads the rows and keeps a copy of the seeded tables in a side schema; later resets copy the
 * tables back with INSERT … SELECT, an order of magnitude faster than loading ten thousands of
 * rows from JSON again (dev.reset runs before every browser test).
 */
export async function resetToSeed(db: Database, data: SeedData): Promise<void> {
  if (snapshots.get(db) === data) {
    await db.transaction(async (tx) => {
      await truncateApplicationTables(tx);
      // The copy was consistent when taken: skip re-checking every foreign key row by row (a
      // superuser's privilege: always so on PGlite, not necessarily on a PostgreSQL server).
      const [role] = await tx.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user');
      if (role?.rolsuper) await tx.exec('SET LOCAL session_replication_role = replica');
      for (const table of seededTables(data)) await tx.exec(`INSERT INTO ${table} SELECT * FROM ${SNAPSHOT_SCHEMA}.${table}`);
      await advanceIdSequences(tx);
    });
    return;
  }
  await db.transaction(async (tx) => {
    await truncateApplicationTables(tx);
    await load(tx, data);
    await tx.exec(`DROP SCHEMA IF EXISTS ${SNAPSHOT_SCHEMA} CASCADE; CREATE SCHEMA ${SNAPSHOT_SCHEMA}`);
    for (const table of seededTables(data)) await tx.exec(`CREATE TABLE ${SNAPSHOT_SCHEMA}.${table} AS SELECT * FROM ${table}`);
  });
  snapshots.set(db, data);
}
