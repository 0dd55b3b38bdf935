import { advanceIdSequences, insertRows, truncateApplicationTables, type Row } from '../db/bulk';
import type { Database, Queryable } from '../db/database';
import { organizationRows } from './organizations';
import { USER_STATUS } from '../domain/users';
import { activityTables } from './activity';
import { cardOrderRows } from './cardOrders';
import { deviceTables } from './devices';
import { alarmsTables } from './alarms';
import { firmwareTables } from './firmware';
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
  const devices = deviceTables(
    createRandom(seed + 5),
    today,
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
    ...fleetExtrasTables(createRandom(seed + 6), today, devices),
    ...maintenanceTables(createRandom(seed + 7), today, devices),
    ...alarmsTables(createRandom(seed + 8), today, devices),
    ...firmwareTables(createRandom(seed + 9), today, devices),
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

/** Replaces everything with the seeded world, in one transaction. */
export async function resetToSeed(db: Database, data: SeedData): Promise<void> {
  await db.transaction(async (tx) => {
    await truncateApplicationTables(tx);
    await load(tx, data);
  });
}
