import { advanceIdSequences, applicationTables, insertRows, truncateApplicationTables, type SeedData } from '../db/bulk';
import { DEFAULT_TIME_ZONE, type Database, type Queryable } from '../db/database';
import { organizationRows } from './organizations';
import { USER_STATUS } from '../domain/users';
import { activityTables } from './activity';
import { cardOrderRows } from './cardOrders';
import { deviceTables } from './devices';
import { alarmsTables } from './alarms';
import { firmwareTables } from './firmware';
import { cardsTables } from './cards';
import { sealedChannelRows } from './channelSecrets';
import { workOrdersTables } from './workOrders';
import { formTemplateTables } from './formTemplates';
import { fleetExtrasTables } from './fleetExtras';
import { fleetHistoryRows } from './fleetHistory';
import { maintenanceTables } from './maintenance';
import { mallTables } from './mall';
import { notificationTables } from './notifications';
import { officeTables } from './office';
import { noticeTables } from './notice';
import { createRandom } from './prng';
import { resourceTables } from './resources';
import { ROLES } from './roles';
import { readDictionaries, readMenus } from '../domain/schemaFiles';
import { labelConstantRows, loginHistoryRows } from './statistics';
import { userTables } from './users';
import { entitySeedTables } from '../entities/tables';

export const SEED = 20260101;

/**
 * Builds the demo world in memory; deterministic for a given seed, schema files and time. Its days
 * (login history, daily data use, dates in codes) are business days of `timeZone`, so that the
 * dashboards' "today" is the seed's today.
 */
export async function buildSeed(seed = SEED, today = new Date(), timeZone = DEFAULT_TIME_ZONE): Promise<SeedData> {
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
    timeZone,
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
    timeZone,
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
  // The statistics' year of login history and the tenants' labels, from their own generator.
  const accountId = (loginName: string) => Number(users.users.find((u) => u.login_name === loginName)?.id);
  const loginHistory = loginHistoryRows(
    createRandom(seed + 16),
    users.users.filter((u) => u.status === USER_STATUS.active).map((u) => ({ id: Number(u.id), loginName: String(u.login_name) })),
    today,
    timeZone,
  );
  const cards = cardsTables(createRandom(seed + 11), hour, devices, timeZone);
  const alarms = alarmsTables(createRandom(seed + 8), hour, devices, timeZone);
  const { resources, grants } = resourceTables(readMenus());
  const dictionaries = readDictionaries();
  return [
    { table: 'organization', rows: organizationRows() },
    { table: 'role', rows: ROLES.map((role, index) => ({ code: role.code, name: role.name, scope: role.scope, sort: index + 1 })) },
    { table: 'app_user', rows: users.users },
    { table: 'user_organization', rows: users.userOrganizations },
    { table: 'user_role', rows: users.userRoles },
    // The older history first, so that login ids follow time.
    { table: 'login_log', rows: loginHistory },
    { table: 'login_log', rows: activity.loginLog },
    { table: 'usage_message', rows: activity.usage },
    { table: 'tenant_label_constant', rows: labelConstantRows(today, { T0001: accountId('tadmin'), T0002: accountId('badmin') }, timeZone) },
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
    ...fleetExtrasTables(createRandom(seed + 6), hour, devices, timeZone),
    ...maintenanceTables(createRandom(seed + 7), hour, devices, timeZone),
    ...alarms,
    // The fleet's daily states before today (today's are written from the tally as the devices load).
    { table: 'device_state_day', rows: fleetHistoryRows(devices.devices, alarms.find((t) => t.table === 'alarm_record')?.rows ?? [], hour, timeZone) },
    ...firmwareTables(createRandom(seed + 9), hour, devices, timeZone),
    // The form templates come first (orders name them); their generator also fills the orders' forms.
    ...formTemplateTables(createRandom(seed + 14), hour, workOrdersTables(createRandom(seed + 10), hour, devices, timeZone), timeZone),
    ...cards,
    // Project areas, office requests, templates, tenant settings and materials: their own generator.
    ...officeTables(createRandom(seed + 12), hour, users, timeZone),
    // Channels, maintained notifications (the published ones into the bells, after the frame's own) and sends.
    ...noticeTables(createRandom(seed + 13), users, { firstNotificationId: notifications.notifications.length + 1, now: hour, timeZone }),
    // The mall: goods, discounts, addresses, orders with the cards of the devices they brought, invoices.
    ...mallTables(createRandom(seed + 15), hour, devices, cards.filter((t) => t.table === 'sim_card').flatMap((t) => t.rows), timeZone),
    // The managed entities' demo rows (schemas/entities, issue 25), for each tenant.
    ...entitySeedTables(organizationRows(), hour),
  ];
}

async function load(db: Queryable, data: SeedData): Promise<void> {
  // The channels' secrets are sealed as they are written (./channelSecrets.ts).
  for (const { table, rows } of data) await insertRows(db, table, table === 'notification_channel' ? await sealedChannelRows(db, rows) : rows);
  // The seeded telemetry history is not traffic: 工作台's readings per minute start from nothing.
  await db.exec('DELETE FROM telemetry_minute');
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

/**
 * Where a copy of the seeded tables is kept for fast resets. It lives in the database, so a dump or
 * a data folder carries it: a server loaded from a dump that has it resets cheaply from the first
 * time on.
 */
const SNAPSHOT_SCHEMA = 'seed_snapshot';
/** The tables written since the last reset, noted by a statement trigger on each table. */
const CHANGED_TABLE_NAME = 'changed_table';
const CHANGED_TABLES = `${SNAPSHOT_SCHEMA}.${CHANGED_TABLE_NAME}`;
/**
 * The last migration applied when the copy was taken: a copy from before a later migration may not
 * fit the tables any more, so it is taken again.
 */
const SNAPSHOT_MARK_NAME = 'taken_under';
const SNAPSHOT_MARK = `${SNAPSHOT_SCHEMA}.${SNAPSHOT_MARK_NAME}`;
/** Databases of this process whose kept copy is known to be good. */
const snapshots = new WeakSet<Database>();

/** The tables of `data` in load order, each once. */
const seededTables = (data: SeedData): string[] => [...new Set(data.map(({ table }) => table))];

/**
 * Whether this role may switch foreign-key triggers off for a restore (`session_replication_role`):
 * a superuser may, and since PostgreSQL 15 a role granted `SET ON PARAMETER session_replication_role`.
 */
async function mayRestoreInPlace(db: Queryable): Promise<boolean> {
  const [role] = await db.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user');
  if (role?.rolsuper === true) return true;
  try {
    const [granted] = await db.query<{ allowed: boolean }>(`SELECT has_parameter_privilege('session_replication_role', 'SET') AS allowed`);
    return granted?.allowed === true;
  } catch {
    // Before PostgreSQL 15 there is no such grant (and no such function).
    return false;
  }
}

/** The last migration applied, as an SQL expression. */
const LATEST_MIGRATION = '(SELECT max(name) FROM schema_migration)';

/** Whether the database holds a kept copy of the seeded world that fits its tables (and may use it). */
async function hasSnapshot(db: Database): Promise<boolean> {
  if (snapshots.has(db)) return true;
  const [mark] = await db.query<{ present: boolean }>(`SELECT to_regclass('${SNAPSHOT_MARK}') IS NOT NULL AS present`);
  if (!mark?.present || !(await mayRestoreInPlace(db))) return false;
  const [taken] = await db.query<{ fits: boolean }>(`SELECT (SELECT migration FROM ${SNAPSHOT_MARK}) = ${LATEST_MIGRATION} AS fits`);
  if (taken?.fits !== true) return false;
  snapshots.add(db);
  return true;
}

/** The seeded tables that the kept copy holds. */
async function keptTables(db: Queryable): Promise<Set<string>> {
  const rows = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = '${SNAPSHOT_SCHEMA}' AND table_name NOT IN ('${CHANGED_TABLE_NAME}', '${SNAPSHOT_MARK_NAME}')`,
  );
  return new Set(rows.map((row) => row.name));
}

/** Notes, for every application table, that a statement wrote to it (a reset then restores just those). */
async function trackChanges(tx: Queryable): Promise<void> {
  await tx.exec(`
    CREATE TABLE ${CHANGED_TABLES} (name text PRIMARY KEY);
    CREATE FUNCTION ${SNAPSHOT_SCHEMA}.note_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO ${CHANGED_TABLES} VALUES (TG_TABLE_NAME) ON CONFLICT DO NOTHING; RETURN NULL; END
    $$`);
  for (const table of await applicationTables(tx)) {
    await tx.exec(`CREATE TRIGGER seed_snapshot_note_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION ${SNAPSHOT_SCHEMA}.note_change()`);
  }
}

/**
 * Replaces everything with the seeded world. Without a kept copy (or one taken before the last
 * migration) it loads the rows of `data`, keeps a copy of the seeded tables in a side schema and
 * starts noting which tables are written. With one, it puts back only the tables written since
 * (and those their foreign keys cascade to): a browser test that signed in and saved one record
 * costs a few small tables, not the ten thousand devices (dev.reset runs before every browser
 * test).
 */
export async function resetToSeed(db: Database, data: () => Promise<SeedData>): Promise<void> {
  const unusedLiveEventId = await takeLiveEventId(db);
  // Restoring table by table skips re-checking every foreign key row by row, a superuser's
  // privilege or a granted one (always so on PGlite; on a PostgreSQL server without it, all is reloaded).
  if (await hasSnapshot(db)) {
    await db.transaction(async (tx) => {
      const seeded = await keptTables(tx);
      const changed = (await tx.query<{ name: string }>(`SELECT name FROM ${CHANGED_TABLES}`)).map((row) => row.name);
      await tx.exec('SET LOCAL session_replication_role = replica');
      // A foreign key's cascade runs as a statement on the referencing table, so its trigger has
      // noted that table too: the list is complete without following the keys.
      for (const table of changed) {
        await tx.exec(`DELETE FROM ${table}`);
        if (seeded.has(table)) await tx.exec(`INSERT INTO ${table} SELECT * FROM ${SNAPSHOT_SCHEMA}.${table}`);
      }
      await tx.exec(`DELETE FROM ${CHANGED_TABLES}`);
      // Every sequence, not only the changed tables': a failed insert takes an id too.
      await advanceIdSequences(tx);
      await keepLiveEventIdsFrom(tx, unusedLiveEventId);
    });
    return;
  }
  const rows = await data();
  await db.transaction(async (tx) => {
    await truncateApplicationTables(tx);
    await load(tx, rows);
    await takeSnapshot(tx, new Set(seededTables(rows)));
    await keepLiveEventIdsFrom(tx, unusedLiveEventId);
  });
  if (await mayRestoreInPlace(db)) snapshots.add(db);
}

/**
 * A live event's id is a place in the stream (server/live/liveEvents.ts): the server passes each id
 * on once and a reconnecting tab asks for what came after its last one, so a reset, which puts
 * live_event back to the seed's rows, must not give ids out again (the next event would be dropped
 * as one passed on already). One id is taken before the reset; the sequence goes on from it.
 */
async function takeLiveEventId(db: Queryable): Promise<string> {
  const [row] = await db.query<{ id: string }>(`SELECT nextval(pg_get_serial_sequence('live_event', 'id'))::text AS id`);
  return row.id;
}

async function keepLiveEventIdsFrom(tx: Queryable, unused: string): Promise<void> {
  await tx.query(`SELECT setval(pg_get_serial_sequence('live_event', 'id'), GREATEST($1::bigint, (SELECT COALESCE(MAX(id), 0) + 1 FROM live_event)), false)`, [unused]);
}

async function takeSnapshot(tx: Queryable, seeded: ReadonlySet<string>): Promise<void> {
  await tx.exec(`DROP SCHEMA IF EXISTS ${SNAPSHOT_SCHEMA} CASCADE; CREATE SCHEMA ${SNAPSHOT_SCHEMA}`);
  for (const table of seeded) await tx.exec(`CREATE TABLE ${SNAPSHOT_SCHEMA}.${table} AS SELECT * FROM ${table}`);
  await trackChanges(tx);
  await tx.exec(`CREATE TABLE ${SNAPSHOT_MARK} AS SELECT ${LATEST_MIGRATION} AS migration`);
}

/**
 * Keeps the copy the resets restore from, from a database this process has just seeded with
 * `data` (its tables are that world already): the first dev.reset then costs what the later ones
 * do, instead of reloading every row first.
 */
/**
 * Drops the kept copy of the seeded world (a managed entity's table was created or widened since
 * it was taken): the next dev.reset reloads the seed and keeps a copy that fits.
 */
export async function forgetSeedSnapshot(db: Database): Promise<void> {
  await db.exec(`DROP SCHEMA IF EXISTS ${SNAPSHOT_SCHEMA} CASCADE`);
  snapshots.delete(db);
}

export async function keepSeedSnapshot(db: Database, data: SeedData): Promise<void> {
  await db.transaction((tx) => takeSnapshot(tx, new Set(seededTables(data))));
  if (await mayRestoreInPlace(db)) snapshots.add(db);
}
