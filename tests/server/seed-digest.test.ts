import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Database, Queryable } from '../../server/db/database';
import { openDatabase } from '../../server/openDatabase';
import { adminQuery } from '../support/postgresCluster';
import { engine, postgresCluster } from './harness';

/**
 * The seeded world, row for row (issue 32: server/seed becomes fixtures and small generators, and
 * must build the same world). A fresh database is opened, migrated and seeded the way the server
 * starts (server/openDatabase.ts) at a fixed moment, and every table's rows, ordered by primary
 * key, are hashed. A refactor of the seed keeps every one of these digests.
 */

/** The moment the world is built at: the seed's "today" and the device side's hour come from it. */
const BUILT_AT = new Date('2026-06-15T03:25:45.678Z');

/**
 * Columns whose value is random or the time of the run by design, left out of the digest:
 * - schema_migration.applied_at: when the migration ran;
 * - server_secret.value: the instances' shared secret, random bytes (security/secrets.ts);
 * - notification_channel.secrets: each secret sealed with that random key and a random IV
 *   (seed/channelSecrets.ts); its masks and the rest of the row are kept;
 * - the `created_at` (catalogue_delivery: `delivered_at`) that the database's clock fills in
 *   (DEFAULT now()) where the seed gives none: the organisations, roles, users, dictionaries, the
 *   catalogue's deliveries and the instances' secret. PostgreSQL's clock is the real one; PGlite's
 *   is the process's, which the test holds still, so only PostgreSQL showed them.
 */
const LEFT_OUT: Record<string, readonly string[]> = {
  schema_migration: ['applied_at'],
  server_secret: ['value', 'created_at'],
  notification_channel: ['secrets'],
  organization: ['created_at'],
  role: ['created_at'],
  app_user: ['created_at'],
  dict_type: ['created_at'],
  dict_item: ['created_at'],
  catalogue_delivery: ['delivered_at'],
};

/**
 * Columns holding the day the seed was loaded, by the database's clock (device_state_day: today's
 * row of each tally is written by a trigger as the devices load, keyed by current_date; the seed's
 * history lies before it): the latest day is written as 'today', every earlier one as it is.
 */
const LOADED_TODAY: Record<string, string> = { device_state_day: 'day' };

/** Each public table's row count and the md5 of its rows as JSON (less LEFT_OUT), ordered by primary key. */
async function tableDigests(db: Queryable): Promise<Record<string, string>> {
  const tables = await db.query<{ name: string; key: string | null }>(
    `SELECT c.relname AS name,
            (SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY k.ord)
               FROM pg_index i CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
              WHERE i.indrelid = c.oid AND i.indisprimary) AS key
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY c.relname`,
  );
  const digests: Record<string, string> = {};
  for (const { name, key } of tables) {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected table name ${name}`);
    const today = LOADED_TODAY[name];
    const rendered = today
      ? `(to_jsonb(t) - $1::text[]) || jsonb_build_object('${today}', CASE WHEN t.${today} = (SELECT max(${today}) FROM ${name}) THEN to_jsonb('today'::text) ELSE to_jsonb(t.${today}) END)`
      : `(to_jsonb(t) - $1::text[])`;
    const row = (await db.query<{ print: string }>(
      `SELECT count(*) || ':' || md5(coalesce(string_agg((${rendered})::text, E'\\n' ORDER BY ${key ?? 't::text'}), '')) AS print FROM ${name} t`,
      [[...(LEFT_OUT[name] ?? [])]],
    ))[0];
    digests[name] = row.print;
  }
  return digests;
}

/** A fresh database on this project's engine, opened, migrated and seeded as the server starts, at BUILT_AT. */
async function seededAtBuiltAt(): Promise<Database> {
  let databaseUrl: string | undefined;
  if (engine === 'postgres') {
    const name = `iot_seed_digest_${process.pid}`;
    await adminQuery(postgresCluster, `CREATE DATABASE ${name} OWNER iot_app`);
    databaseUrl = postgresCluster.appUrl(name);
  }
  vi.useFakeTimers({ toFake: ['Date'], now: BUILT_AT });
  try {
    const { db, seed } = await openDatabase(databaseUrl ? { databaseUrl } : { memory: true });
    if (!seed) throw new Error('the fresh database was not seeded');
    return db;
  } finally {
    vi.useRealTimers();
  }
}

/**
 * What every table held after the seed on the code before the refactor (cce3903; row count : md5).
 * The same on PGlite and PostgreSQL: each row is rendered as jsonb text by the engine, in the
 * platform's time zone, which both pin per connection.
 */
const EXPECTED: Record<string, string> = {
  alarm_record: '25522:255ce4c4ae8f82e834e3e36fd16a3a74',
  alarm_rule: '27:977359de7177617c0721f726f3cd2496',
  alarm_rule_episode: '0:d41d8cd98f00b204e9800998ecf8427e',
  app_user: '25:91503b76311d6df97f29948c09784abb',
  app_version: '28:80ef55a426c38fcab1f94118e1e08877',
  auth_session: '0:d41d8cd98f00b204e9800998ecf8427e',
  authorization_generation: '1:cb35e3590c3911eea5c3fe70ce7d8c5a',
  broker_account: '0:d41d8cd98f00b204e9800998ecf8427e',
  camera: '60:6d83fa2bbfbcf7fe385026b08c2c9cd2',
  captcha: '0:d41d8cd98f00b204e9800998ecf8427e',
  card_alter: '83:184725c95b96c04b7d1474fc52b2ef85',
  card_alter_item: '1030:eb16b1d017791f670107be31506ad0ac',
  card_charge_standard: '10:6a61c656c557dfd38f5d00097ae59b8b',
  card_custom: '8:e8691de2943645253828c87ba051525f',
  card_delivery: '276:563bb386a16936a9ad25f262a6a954f9',
  card_delivery_item: '10148:9b2c722bad6764b986bf0270e7e0b716',
  card_flow_daily: '1074:dbd3fe6700fe6543be0a0f87f3679f61',
  card_order: '281:24a54e089656be29bd03a34415a16f01',
  card_recharge: '68:3bb0ea7f2d45f4b6397741dfb0d6e00d',
  card_recharge_item: '2173:9afcf245472613809c4dcdd4d4591022',
  card_renew: '521:505296b7e38348902b04fb14a17dc019',
  card_renew_order: '14:519bcaf0e0057c4b4405588d516d556d',
  card_sale_order: '285:74232a8ce7cbf4a1ca6dbfa61b30433f',
  card_stock_batch: '11:585f3fb960b788255f7e93ba0010e4cd',
  card_supplier: '4:67dbae2e1402fdaba16557224f2fb053',
  card_sync: '3:234c9046daddf248d9e5f69ef7192be1',
  catalogue_delivery: '2043:bae1cc9d1cb34fb6bc735329b3263a9b',
  channel_access_token: '0:d41d8cd98f00b204e9800998ecf8427e',
  contact_verification: '0:d41d8cd98f00b204e9800998ecf8427e',
  device: '10200:e19bcc40e229ab1f08779dece0ea4150',
  device_care: '36:f0d1b7870066c1c202411197449bb7ee',
  device_category: '10:769da337f1dfc740a4e42e2ea1add94f',
  device_command: '300:e3301f53af5dbaea675b3aca20aa73c5',
  device_credential: '0:d41d8cd98f00b204e9800998ecf8427e',
  device_error: '3200:858aa1ddca0c29a2dfde995c3644df47',
  device_health_sample: '8998:df8dc1abbcfb558cd0079676c5bf0539',
  device_import: '4:a7d7aad87d3c6b9d814c215aa41de289',
  device_import_error: '6:f4f03698b554e11044c5dd3ad226a4ee',
  device_state_day: '5329:f5db61b87cde72dc53d0a46c3e6424fb',
  device_tally: '144:8504ac840b90712844653a5fad1981e3',
  device_telemetry: '27301:e83935fc426f864a64ada04e3026a59d',
  device_wake_record: '156:50e955e446588cb1a1e66a7267f4f1b9',
  dict_item: '379:ce8365e6ea759fd53d3da60da3dd2366',
  dict_type: '97:7bf6f1514071f9df2014e6a564fe1feb',
  feedback: '300:c62193c43e09f4ac1ee6760deb85f791',
  firmware_file: '0:d41d8cd98f00b204e9800998ecf8427e',
  form_template: '12:e61da279f673001f75322c54ecb898c5',
  form_template_version: '17:3e7e9303f49f3042f7fd1a91203abfe6',
  invoice: '174:689f9a3371225ef601be56c7e53b54c6',
  invoice_title: '3:20d8a7cc1066e503da49d3d1f68aa3b0',
  live_event: '0:d41d8cd98f00b204e9800998ecf8427e',
  login_account_failure: '0:d41d8cd98f00b204e9800998ecf8427e',
  login_failure: '0:d41d8cd98f00b204e9800998ecf8427e',
  login_log: '3433:b4278eb5f9a31f8d3d45807d575457d7',
  maintained_notification: '48:f36e43446ff1038cb18b6f32f111a9f6',
  mall_address: '9:4c21af1aeab908a72bcb780771ed5def',
  mall_discount: '12:5d26b378418cf7ddb1d508fa2079571c',
  mall_goods: '29:9127af62e0593eaeb760c50b9a8c40ed',
  mall_order: '240:04ca2b1ee538323b9d83244968a9add9',
  mall_order_card: '2557:4e152234629df607aa7d15894ba5f26e',
  mall_order_item: '387:ff868b43d0216f2d2b1035985a22d8f9',
  material: '61:256bd8ee0ae47a830f9ac6e8041e211a',
  mqtt_bridge_session: '0:d41d8cd98f00b204e9800998ecf8427e',
  notification: '341:cc9a14621cd4bc12b872b6b061714463',
  notification_channel: '15:fb2a84e05fea33bb4dd0857de10c3bf7',
  notification_recipient: '729:3fbc51e611c6636f0483a80c9b626157',
  notification_send: '212:69244322309781080ebc330074775581',
  notification_send_recipient: '460:b45cd76e5a5a3c9c3b42fe8dcff04583',
  office_request: '165:f483dcc546bf7ba5bd85a369e7d1582b',
  office_request_history: '451:37f0373f13fa6f3fafa8d55ea9db1ce3',
  online_configuration: '10:e954a870e4787a0c67abf1cb2064b158',
  open_api_call: '0:d41d8cd98f00b204e9800998ecf8427e',
  open_api_nonce: '0:d41d8cd98f00b204e9800998ecf8427e',
  organization: '31:5734c0ad2742fe4077df93a61a63ecb8',
  outbox: '0:d41d8cd98f00b204e9800998ecf8427e',
  outbox_attempt: '0:d41d8cd98f00b204e9800998ecf8427e',
  patrol_record: '1409:e6583e8cad1c37c0e3f869c4f7776200',
  patrol_task: '244:dd05fbb4b689d8e997985a9ce35c79c7',
  patrol_task_device: '1960:a9509dbffecbc5e0959f8bf5a1bd2288',
  product: '8:68dd21ffdf070582993ce8d00e8e36fa',
  product_tenant_setting: '2:f41cb6908561dd982701e232e0a7d781',
  project_area: '14:47da2bf03842197c7187d658ddf5bf34',
  rate_counter: '0:d41d8cd98f00b204e9800998ecf8427e',
  repair_batch: '22:1e008532fb2874b8318842526a0eccbf',
  repair_order_tally: '1318:06021d081a5bd1c8de9ea95ef141a2a9',
  repair_report: '420:43d2daa9fec83d56885f5effe93e0832',
  repair_spare_part: '6:45140aa7e7650bb56c14d0319ac7b1e0',
  resource: '449:6cdf8d21f6ee31f311fec8f2985b1982',
  role: '7:087f4dfca5174ea186cef3846c128b5e',
  role_resource: '1118:fb3e5d3e75d514f913c4446da76d4871',
  schema_migration: '60:ed72c815c0003b6ca145031879cac206',
  server_secret: '1:d5ec371656f17b0140dd1ebfd9bf61b6',
  sim_card: '12548:24be91698ef776d3402aeb19573cde5d',
  sim_card_package_tally: '7:6ff8bfe01d60820231ad1d4f6c9825a0',
  tag_display_config: '2:b1b48aca2efd28d53615532fa0b18378',
  telemetry_minute: '0:d41d8cd98f00b204e9800998ecf8427e',
  tenant_access_key: '0:d41d8cd98f00b204e9800998ecf8427e',
  tenant_label_constant: '9:1e37720e65bcddbce921a54a38af8930',
  tenant_setting: '5:9e9679ba36bc537758f012c879d77016',
  text_template: '20:ed0137dcd8927acd8624787e851d688f',
  upgrade_package: '44:6308b2b2cdf1530dc12046611ff84ea0',
  upgrade_task: '14:e82ac570c04b3acd7ef93a06078aa345',
  upgrade_task_device: '2137:319e53187737ca3f1343f8c27df44641',
  uploaded_file: '0:d41d8cd98f00b204e9800998ecf8427e',
  usage_message: '3781:a8dc8e5cef650c03e8ae20b7396dc4ff',
  user_organization: '25:99d1d26177b3934ebbaf76a12f5c6c6d',
  user_role: '25:3982afdb88920c1739258568bb91d2a0',
  verification_code: '0:d41d8cd98f00b204e9800998ecf8427e',
  webhook: '0:d41d8cd98f00b204e9800998ecf8427e',
  webhook_attempt: '0:d41d8cd98f00b204e9800998ecf8427e',
  webhook_delivery: '0:d41d8cd98f00b204e9800998ecf8427e',
  wechat_bind_key: '0:d41d8cd98f00b204e9800998ecf8427e',
  wechat_ticket: '0:d41d8cd98f00b204e9800998ecf8427e',
  work_order: '2061:1139844e84629ce36a26aa917c6661d8',
  work_order_history: '8865:f9566d03c79eada37b79fe37258dcd79',
};

const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

describe('the seeded world', () => {
  it('is row for row the world of the seed before its refactor', async () => {
    const db = await seededAtBuiltAt();
    opened.push(db);
    const digests = await tableDigests(db);
    expect(digests).toEqual(EXPECTED);
  }, 300_000);
});
