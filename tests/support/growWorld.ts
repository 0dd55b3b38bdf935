// Grows the seeded world to a platform's size (issue 19): the tables whose rows grow with the number
// of devices, the time the platform runs and the staff who use it, filled with SQL generate_series
// over tenant 杭州云联 (T0001)'s projects and areas, as a large customer's would be. Used by the
// EXPLAIN test (tests/server/postgres-explain.test.ts, a few ten thousand rows a table) and the
// benchmark (scripts/bench, millions). Works on both engines (plain SQL, no temporary tables).
//
// Grown, because they grow with the fleet, with time or with use, without bound:
//   device                    the fleet itself (a platform runs 10^5..10^6 devices)
//   alarm_record              ~10 per device a year
//   device_error              the maintenance view's abnormal devices, per device and day
//   device_telemetry          every report of every device (the biggest table of a real platform)
//   device_health_sample      one a device a day
//   upgrade_task, upgrade_task_device   one row per device a firmware task reaches
//   work_order (all four types), repair_report, repair_batch, patrol_task, patrol_record
//                             work grows with the fleet and with time
//   sim_card, card_order, card_delivery, card_alter, card_recharge, card_renew, card_renew_order
//                             one card per device, and the orders, deliveries, renewals and
//                             recharges of those cards over the years
//   login_log, usage_message  every sign-in and every page a user opens
//   notification, notification_recipient   per user and day
//   mall_order, mall_order_item, invoice   the tenants' purchases over the years
// Left at the seed's size, because they grow with the number of organisations, staff or products a
// person maintains by hand (tens to a few thousand rows even on a big platform), or are read only by
// key: organisations, users, roles, menus and resources, dictionaries, products and categories,
// alarm rules, cameras, materials, firmware packages, app versions, text and form templates,
// notification channels, maintained and sent notifications (written by hand), office requests,
// feedback, online configurations, project areas, mall goods, discounts, addresses, invoice titles,
// card suppliers, charge standards and customisations, stock batches, device imports, device care
// (a user follows tens of devices), sessions, codes and the other security tables, and the detail
// rows read by their parent's key (work order history, card delivery / alter / recharge items).
import type { Queryable } from '../../server/db/database';

/** Rows added to each grown table (0 leaves a table as it is). */
export interface GrowthSizes {
  device: number;
  alarm_record: number;
  device_error: number;
  device_telemetry: number;
  device_health_sample: number;
  upgrade_task_device: number;
  work_order: number;
  repair_report: number;
  repair_batch: number;
  patrol_task: number;
  patrol_record: number;
  sim_card: number;
  card_order: number;
  card_delivery: number;
  card_alter: number;
  card_recharge: number;
  card_renew: number;
  card_renew_order: number;
  login_log: number;
  usage_message: number;
  notification: number;
  notification_recipient: number;
  mall_order: number;
  invoice: number;
}

export type GrownTable = keyof GrowthSizes;

/** What the EXPLAIN test grows: every grown table comfortably past 10,000 rows, in a few seconds. */
export const DEFAULT_GROWTH: Readonly<GrowthSizes> = {
  // The seed holds ~10,000 devices, ~25,000 alarms and ~27,000 telemetry reports already.
  device: 15_000,
  alarm_record: 5_000,
  device_error: 15_000,
  device_telemetry: 5_000,
  device_health_sample: 8_000,
  upgrade_task_device: 15_000,
  // Four types: ~7,500 orders a list.
  work_order: 30_000,
  repair_report: 15_000,
  repair_batch: 12_000,
  patrol_task: 15_000,
  patrol_record: 12_000,
  sim_card: 8_000,
  card_order: 12_000,
  card_delivery: 12_000,
  card_alter: 12_000,
  card_recharge: 12_000,
  card_renew: 15_000,
  card_renew_order: 12_000,
  login_log: 15_000,
  usage_message: 15_000,
  notification: 12_000,
  notification_recipient: 15_000,
  // Two thirds completed: an invoice each for 12,000 of them.
  mall_order: 18_000,
  invoice: 12_000,
};

export interface GrowthOptions {
  /** The tenant whose projects and areas the rows are spread over. */
  tenantCode?: string;
  /** Rows one statement inserts at most (a million rows are inserted in slices). */
  slice?: number;
  /** Tables grown (and vacuumed) at once, each on a connection of its own where the database has a pool (2). */
  parallel?: number;
  /** Told after each slice. */
  log?: (line: string) => void;
}

/**
 * The statements that add one slice of a table's rows: `series` is the FROM item of the slice's row
 * numbers (`generate_series(1, size) AS s(i)`), `i` the number. Every statement picks the rows it
 * refers to (devices, cards, organisations, users) from sets numbered once per statement, so the
 * rows spread evenly; codes continue from the table's largest id, so growing again adds new rows.
 */
type Grower = (i: string, series: string) => string[];

/** The tenant's projects and areas (where devices and work live) and its staff: short arrays. */
const PICKS = (tenant: string) => `
  orgs AS (SELECT array_agg(code ORDER BY code) AS a FROM organization WHERE code LIKE '${tenant}P%'),
  staff AS (SELECT array_agg(u.id ORDER BY u.id) AS a FROM app_user u JOIN user_organization uo ON uo.user_id = u.id WHERE uo.organization_code LIKE '${tenant}%')`;
/**
 * A long set numbered 1…n (`name.r`) and its size (`name_n.c`): rows join it on a number, where
 * subscripting a long text array would walk it from the start for every row.
 */
const numbered = (name: string, columns: string, from: string, order: string) => `
  ${name} AS (SELECT ${columns}, row_number() OVER (ORDER BY ${order}) AS r FROM ${from}),
  ${name}_n AS (SELECT count(*) AS c FROM ${name})`;
/** Joins row `position` (any integer; taken modulo the size) of a numbered set. */
const joinNumbered = (name: string, position: string) => `JOIN ${name} ON ${name}.r = 1 + (${position}) % ${name}_n.c`;
/** The element of short array `a` that row `i` takes (spread with a stride). */
const pick = (array: string, i: string, stride = 1) => `${array}[1 + ((${i})::bigint * ${stride}) % cardinality(${array})]`;
/** A time `i`-dependent minutes before now, within `days`. */
const ago = (i: string, days: number, stride = 1) => `now() - ((${i})::bigint * ${stride} % ${days * 1440}) * interval '1 minute'`;

/** The next free number of a table's grown codes (so that growing twice adds rows with new codes). */
const base = (table: string) => `(SELECT COALESCE(max(id), 0) FROM ${table})`;
/** Rows of a table already there (for tables without an id). */
const rowsOf = (table: string, where = 'TRUE') => `(SELECT count(*) FROM ${table} WHERE ${where})`;

function growers(tenant: string): Record<GrownTable, Grower> {
  const picks = PICKS(tenant);
  const devs = numbered('devs', 'id, code, organization_code AS org', `device WHERE tenant_code = '${tenant}' AND deleted_at IS NULL`, 'id');
  /** The device row `i` refers to, spread over the fleet with a prime stride. */
  const device = (i: string) => joinNumbered('devs', `(${i})::bigint * 7919`);
  return {
    device: (i, series) => [`
      WITH ${picks}, b AS (SELECT ${base('device')} AS n),
        products AS (SELECT array_agg(code ORDER BY code) FILTER (WHERE node_type <> 'gateway') AS plain,
                            array_agg(code ORDER BY code) FILTER (WHERE node_type = 'gateway') AS gateway
                       FROM product WHERE tenant_code IS NULL OR tenant_code = '${tenant}')
      INSERT INTO device (code, name, product_code, organization_code, tenant_code, imei, firmware_version, online_state, health_state,
                          health_score, battery_level, signal_strength, temperature, longitude, latitude, address, sleeping, sleep_since,
                          last_seen_at, activated_at, deleted_at, deleted_by, recycle_reason, created_at)
      SELECT 'G' || lpad((b.n + ${i})::text, 11, '0'), '扩容设备-' || (b.n + ${i}),
             CASE WHEN ${i} % 200 = 0 THEN ${pick('products.gateway', i)} ELSE ${pick('products.plain', i)} END,
             ${pick('orgs.a', i)}, '${tenant}', '86' || lpad((b.n + ${i})::text, 13, '0'), '1.0.' || (${i} % 7),
             (ARRAY['online','online','online','offline','inactive'])[1 + ${i} % 5], (ARRAY['healthy','healthy','subhealthy','faulty'])[1 + ${i} % 4],
             (${i} * 37) % 101, CASE WHEN ${i} % 10 = 0 THEN NULL ELSE (${i} * 53) % 101 END, ${i} % 32, (${i} % 500) / 10.0,
             120.0 + (${i} % 1000) / 2500.0, 30.1 + (${i} % 997) / 2500.0, '浙江省杭州市扩容路' || ${i} || '号',
             ${i} % 20 = 0, CASE WHEN ${i} % 20 = 0 THEN ${ago(i, 30, 13)} END,
             ${ago(i, 7, 7)}, ${ago(i, 400, 31)},
             CASE WHEN ${i} % 50 = 0 THEN ${ago(i, 60, 17)} END, CASE WHEN ${i} % 50 = 0 THEN 'tadmin' END, CASE WHEN ${i} % 50 = 0 THEN '扩容回收' END,
             ${ago(i, 700)}
        FROM orgs, products, b, ${series}`],
    alarm_record: (i, series) => [`
      WITH ${devs}, b AS (SELECT ${base('alarm_record')} AS n)
      INSERT INTO alarm_record (code, device_code, organization_code, tenant_code, alarm_type, level, state, title, content, triggered_at, source, created_at)
      SELECT 'GA' || lpad((b.n + ${i})::text, 12, '0'), devs.code, devs.org, '${tenant}',
             (ARRAY['threshold','offline','fault','battery'])[1 + ${i} % 4], 1 + ${i} % 4,
             (ARRAY['pending','processing','resolved','recovered','ignored'])[1 + ${i} % 5], '扩容告警', '扩容生成的告警记录',
             ${ago(i, 90)}, CASE WHEN ${i} % 8 = 0 THEN 'monitoring' ELSE 'device' END, ${ago(i, 90)}
        FROM devs_n CROSS JOIN b CROSS JOIN ${series} ${device(i)}`],
    device_error: (i, series) => [`
      WITH ${devs}, b AS (SELECT ${base('device_error')} AS n)
      INSERT INTO device_error (code, device_code, organization_code, tenant_code, error_type, description, occurred_at, state, created_at)
      SELECT 'GE' || lpad((b.n + ${i})::text, 12, '0'), devs.code, devs.org, '${tenant}',
             (ARRAY['offline_long','data_abnormal','signal_weak','report_missing'])[1 + ${i} % 4], '扩容异常',
             ${ago(i, 90)}, (ARRAY['pending','handled','repairing'])[1 + ${i} % 3], ${ago(i, 90)}
        FROM devs_n CROSS JOIN b CROSS JOIN ${series} ${device(i)}`],
    // One report a device every 10 minutes, back from a year ago: device n % devices, report n / devices.
    device_telemetry: (i, series) => [`
      WITH ${devs}, b AS (SELECT ${rowsOf('device_telemetry')} AS n)
      INSERT INTO device_telemetry (device_id, reported_at, metrics, battery_level, signal_strength, temperature)
      SELECT devs.id, date_trunc('minute', now()) - interval '1 year' - ((b.n + ${i}) / devs_n.c) * interval '10 minutes',
             jsonb_build_object('flow', ${i} % 100), ${i} % 101, ${i} % 32, (${i} % 400) / 10.0
        FROM devs_n CROSS JOIN b CROSS JOIN ${series} ${joinNumbered('devs', `b.n + ${i}`)}
      ON CONFLICT DO NOTHING`],
    device_health_sample: (i, series) => [`
      WITH ${devs}, b AS (SELECT ${rowsOf('device_health_sample')} AS n)
      INSERT INTO device_health_sample (device_code, sample_date, health_score, health_state)
      SELECT devs.code, (now() - interval '1 year')::date - ((b.n + ${i}) / devs_n.c)::int,
             ${i} % 101, (ARRAY['healthy','healthy','subhealthy','faulty'])[1 + ${i} % 4]
        FROM devs_n CROSS JOIN b CROSS JOIN ${series} ${joinNumbered('devs', `b.n + ${i}`)}
      ON CONFLICT DO NOTHING`],
    // Tasks of 50 devices each (made first, as many as the slice needs).
    upgrade_task_device: (i, series) => {
      const grown = rowsOf('upgrade_task_device', `task_id IN (SELECT id FROM upgrade_task WHERE code LIKE 'GU%')`);
      return [
        `WITH b AS (SELECT ${grown} AS n), last AS (SELECT max(${i}) AS m FROM ${series})
         INSERT INTO upgrade_task (code, name, package_name, package_version, product_code, tenant_code, organization_code, state, created_by, created_at)
         SELECT 'GU' || lpad(t::text, 8, '0'), '扩容升级任务' || t, '扩容固件', '2.0.0', (SELECT min(code) FROM product), '${tenant}', '${tenant}',
                (ARRAY['pending','upgrading','succeeded','failed','cancelled'])[1 + t % 5], 'tadmin', now() - t * interval '1 hour'
           FROM b, last, generate_series((b.n / 50)::int + 1, ((b.n + last.m - 1) / 50)::int + 1) AS t
         ON CONFLICT (code) DO NOTHING`,
        `WITH ${devs}, b AS (SELECT ${grown} AS n)
         INSERT INTO upgrade_task_device (task_id, device_code, from_version, state, progress, queued_at, updated_at)
         SELECT task.id, devs.code, '1.0.0', (ARRAY['pending','upgrading','succeeded','failed','cancelled'])[1 + ${i} % 5], (${i} % 5) * 25,
                ${ago(i, 60)}, ${ago(i, 60)}
           FROM devs_n CROSS JOIN b CROSS JOIN ${series} ${joinNumbered('devs', `b.n + ${i}`)}
           JOIN upgrade_task task ON task.code = 'GU' || lpad(((b.n + ${i} - 1) / 50 + 1)::text, 8, '0')
         ON CONFLICT DO NOTHING`,
      ];
    },
    // One in twenty still open (the backlog: created, assigned, in progress, waiting for audit); the
    // rest finished, as a platform's old work is.
    work_order: (i, series) => [`
      WITH ${picks}, ${devs}, b AS (SELECT ${base('work_order')} AS n)
      INSERT INTO work_order (code, type, title, state, source, priority, tenant_code, organization_code, device_code, creator_id, assignee_id,
                              plan_start_at, deadline_at, audit_state, created_at, updated_at)
      SELECT 'GW' || lpad((b.n + ${i})::text, 12, '0'), (ARRAY['repair','construction','exploration','maintenance'])[1 + ${i} % 4], '扩容工单' || ${i},
             CASE WHEN ${i} % 20 = 0 THEN (ARRAY['created','assigned','accepted','in_progress','completed','rejected'])[1 + (${i} / 20) % 6]
                  ELSE (ARRAY['closed','audited','closed','completed'])[1 + (${i} / 4) % 4] END,
             (ARRAY['manual','alarm','report','patrol'])[1 + (${i} / 32) % 4], (ARRAY['urgent','high','normal','low'])[1 + ${i} % 3],
             '${tenant}', devs.org, devs.code, ${pick('staff.a', i)}, ${pick('staff.a', i, 3)},
             ${ago(i, 400, 7)}, ${ago(i, 300)} + interval '7 days', CASE WHEN ${i} % 20 = 0 THEN 'pending' WHEN ${i} % 2 = 0 THEN 'approved' END, ${ago(i, 400)}, ${ago(i, 400)}
        FROM staff CROSS JOIN devs_n CROSS JOIN b CROSS JOIN ${series} ${device(i)}`],
    repair_report: (i, series) => [`
      WITH ${picks}, ${devs}, b AS (SELECT ${base('repair_report')} AS n)
      INSERT INTO repair_report (code, tenant_code, organization_code, device_code, fault_type, description, reporter_id, state, created_at)
      SELECT 'GR' || lpad((b.n + ${i})::text, 12, '0'), '${tenant}', devs.org, devs.code,
             (ARRAY['leak','damage','offline','other'])[1 + ${i} % 4], '扩容报修', ${pick('staff.a', i)}, 'pending', ${ago(i, 400)}
        FROM staff CROSS JOIN devs_n CROSS JOIN b CROSS JOIN ${series} ${device(i)}`],
    repair_batch: (i, series) => [`
      WITH ${picks}, b AS (SELECT ${base('repair_batch')} AS n)
      INSERT INTO repair_batch (code, name, tenant_code, organization_code, fault_type, priority, creator_id, assignee_id, deadline_at, created_at)
      SELECT 'GB' || lpad((b.n + ${i})::text, 12, '0'), '扩容批量维修' || ${i}, '${tenant}', ${pick('orgs.a', i)}, 'damage',
             (ARRAY['urgent','high','normal','low'])[1 + ${i} % 4], ${pick('staff.a', i)}, ${pick('staff.a', i, 3)}, ${ago(i, 300)} + interval '7 days', ${ago(i, 400)}
        FROM orgs, staff, b, ${series}`],
    patrol_task: (i, series) => [`
      WITH ${picks}, b AS (SELECT ${base('patrol_task')} AS n)
      INSERT INTO patrol_task (code, name, tenant_code, organization_code, assignee_id, creator_id, plan_start_at, plan_end_at, state, created_at, updated_at)
      SELECT 'GP' || lpad((b.n + ${i})::text, 12, '0'), '扩容巡检' || ${i}, '${tenant}', ${pick('orgs.a', i)}, ${pick('staff.a', i, 3)}, ${pick('staff.a', i)},
             ${ago(i, 400)}, ${ago(i, 400)} + interval '1 day', (ARRAY['pending','in_progress','completed','overdue'])[1 + ${i} % 4],
             ${ago(i, 400)}, ${ago(i, 400)}
        FROM orgs, staff, b, ${series}`],
    // Ten devices checked a task, the newest tasks first.
    patrol_record: (i, series) => [`
      WITH ${picks}, ${devs}, ${numbered('tasks', 'id', `patrol_task WHERE tenant_code = '${tenant}'`, 'id DESC')},
        b AS (SELECT ${rowsOf('patrol_record')} AS n)
      INSERT INTO patrol_record (task_id, device_code, result, description, patroller_id, checked_at)
      SELECT tasks.id, devs.code, CASE WHEN ${i} % 9 = 0 THEN 'abnormal' ELSE 'normal' END, '扩容巡检记录', ${pick('staff.a', i)}, ${ago(i, 400)}
        FROM staff CROSS JOIN devs_n CROSS JOIN tasks_n CROSS JOIN b CROSS JOIN ${series}
        ${joinNumbered('tasks', `(b.n + ${i}) / 10`)} ${joinNumbered('devs', `b.n + ${i}`)}
      ON CONFLICT DO NOTHING`],
    // Cards of the tenant in service (one in 25 in the platform's stock).
    sim_card: (i, series) => [`
      WITH ${picks}, b AS (SELECT ${base('sim_card')} AS n),
        pkg AS (SELECT code, operator, flow_mb FROM card_charge_standard ORDER BY tenant_code NULLS FIRST, code LIMIT 1),
        sup AS (SELECT code FROM card_supplier ORDER BY code LIMIT 1),
        root AS (SELECT code FROM organization WHERE parent_code IS NULL ORDER BY code LIMIT 1)
      INSERT INTO sim_card (iccid, msisdn, imsi, operator, supplier_code, package_code, flow_mb, state, organization_code, tenant_code,
                            activated_at, expires_at, month_used_mb, total_used_mb, created_at, updated_at)
      SELECT '89869' || lpad((b.n + ${i})::text, 14, '0'), '1499' || lpad((b.n + ${i})::text, 9, '0'), '46099' || lpad((b.n + ${i})::text, 10, '0'),
             pkg.operator, sup.code, pkg.code, pkg.flow_mb,
             CASE WHEN ${i} % 25 = 0 THEN 'in_stock' ELSE (ARRAY['testing','active','active','active','suspended','deactivated'])[1 + ${i} % 6] END,
             CASE WHEN ${i} % 25 = 0 THEN root.code ELSE ${pick('orgs.a', i)} END, CASE WHEN ${i} % 25 = 0 THEN NULL ELSE '${tenant}' END,
             ${ago(i, 700)}, now() + (((${i})::bigint * 7919) % 1000 - 200) * interval '1 day', ${i} % 300, ${i} % 5000, ${ago(i, 700)}, ${ago(i, 30)}
        FROM orgs, pkg, sup, root, b, ${series}`],
    card_order: (i, series) => [`
      WITH ${picks}, b AS (SELECT ${base('card_order')} AS n)
      INSERT INTO card_order (code, tenant_code, organization_code, state, card_count, created_at, updated_at)
      SELECT 'GCO' || lpad((b.n + ${i})::text, 12, '0'), '${tenant}', ${pick('orgs.a', i)},
             (ARRAY['pending_delivery','delivering','pending_confirm','confirmed','completed','cancelled'])[1 + ${i} % 6], 1 + ${i} % 50,
             ${ago(i, 700)}, ${ago(i, 700)}
        FROM orgs, b, ${series}`],
    card_delivery: (i, series) => [`
      WITH ${picks}, ${numbered('orders', 'code', `card_order WHERE tenant_code = '${tenant}'`, 'id DESC')}, b AS (SELECT ${base('card_delivery')} AS n)
      INSERT INTO card_delivery (code, order_code, tenant_code, organization_code, state, card_count, created_by, created_at, updated_at)
      SELECT 'GCD' || lpad((b.n + ${i})::text, 12, '0'), orders.code, '${tenant}', ${pick('orgs.a', i)},
             (ARRAY['created','shipped','received','revoked','cancelled'])[1 + ${i} % 5], 1 + ${i} % 50, 'operator', ${ago(i, 700)}, ${ago(i, 700)}
        FROM orgs CROSS JOIN orders_n CROSS JOIN b CROSS JOIN ${series} ${joinNumbered('orders', i)}`],
    card_alter: (i, series) => [`
      WITH ${picks}, b AS (SELECT ${base('card_alter')} AS n)
      INSERT INTO card_alter (code, tenant_code, organization_code, kind, state, reason, applicant, created_at, updated_at)
      SELECT 'GCA' || lpad((b.n + ${i})::text, 12, '0'), '${tenant}', ${pick('orgs.a', i)}, CASE WHEN ${i} % 3 = 0 THEN 'no_card' ELSE 'with_card' END,
             (ARRAY['applied','created','shipped','recovered','cancelled'])[1 + ${i} % 5], '扩容换卡', 'tadmin', ${ago(i, 700)}, ${ago(i, 700)}
        FROM orgs, b, ${series}`],
    card_recharge: (i, series) => [`
      WITH ${picks}, b AS (SELECT ${base('card_recharge')} AS n)
      INSERT INTO card_recharge (code, tenant_code, organization_code, state, payment_method, years, card_count, amount, created_by, created_at, updated_at)
      SELECT 'GCR' || lpad((b.n + ${i})::text, 12, '0'), '${tenant}', ${pick('orgs.a', i)},
             (ARRAY['pending_payment','paid','confirmed','cancelled'])[1 + ${i} % 4], (ARRAY['wechat','alipay','corporate'])[1 + ${i} % 3],
             1 + ${i} % 3, 1 + ${i} % 40, (1 + ${i} % 40) * 12.5, 'tadmin', ${ago(i, 700)}, ${ago(i, 700)}
        FROM orgs, b, ${series}`],
    // One renewal row a card and expiry: the tenant's cards, each at expiries a year apart.
    card_renew: (i, series) => [`
      WITH ${numbered('cards', 'iccid, expires_at', `sim_card WHERE tenant_code = '${tenant}'`, 'id')}, b AS (SELECT ${rowsOf('card_renew')} AS n)
      INSERT INTO card_renew (iccid, tenant_code, state, expires_at, created_at, updated_at)
      SELECT cards.iccid, '${tenant}', CASE WHEN ${i} % 11 = 0 THEN 'locked' ELSE 'unregistered' END,
             COALESCE(cards.expires_at, now()) + ((b.n + ${i}) / cards_n.c + 1) * interval '1 year', ${ago(i, 300)}, ${ago(i, 300)}
        FROM cards_n CROSS JOIN b CROSS JOIN ${series} ${joinNumbered('cards', `b.n + ${i}`)}
      ON CONFLICT DO NOTHING`],
    card_renew_order: (i, series) => [`
      WITH ${picks}, b AS (SELECT ${base('card_renew_order')} AS n)
      INSERT INTO card_renew_order (code, tenant_code, organization_code, state, card_count, amount, created_by, created_at)
      SELECT 'GCN' || lpad((b.n + ${i})::text, 12, '0'), '${tenant}', ${pick('orgs.a', i)}, CASE WHEN ${i} % 2 = 0 THEN 'confirmed' ELSE 'pending_confirm' END,
             1 + ${i} % 40, (1 + ${i} % 40) * 10, 'tadmin', ${ago(i, 700)}
        FROM orgs, b, ${series}`],
    login_log: (i, series) => [`
      WITH ${picks}
      INSERT INTO login_log (login_name, user_id, method, success, reason, ip, user_agent, created_at)
      SELECT u.login_name, u.id, 'password', ${i} % 17 <> 0, CASE WHEN ${i} % 17 = 0 THEN '密码错误' ELSE '' END,
             '10.0.' || (${i} % 250) || '.' || (${i} % 200), 'Mozilla/5.0 扩容', ${ago(i, 365)}
        FROM staff CROSS JOIN ${series} JOIN app_user u ON u.id = ${pick('staff.a', i)}`],
    usage_message: (i, series) => [`
      WITH ${picks}
      INSERT INTO usage_message (user_id, organization_code, action_type, usage_url, active_time, pending_time, platform, created_at)
      SELECT ${pick('staff.a', i)}, ${pick('orgs.a', i, 3)}, 'didPush', (ARRAY['/device/all','/alarm/record','/repair','/dashboard'])[1 + ${i} % 4],
             ${ago(i, 365)}, ${i} % 600, 'web', ${ago(i, 365)}
        FROM orgs, staff, ${series}`],
    notification: (i, series) => [`
      INSERT INTO notification (tab_type, title, body_html, body_text, created_at)
      SELECT 1 + ${i} % 2, '扩容通知' || ${i}, '<p>扩容通知</p>', '扩容通知', ${ago(i, 365)}
        FROM ${series}`],
    // Each of the tenant's staff receives the newest notifications in turn.
    notification_recipient: (i, series) => [`
      WITH ${picks}, ${numbered('notes', 'id', 'notification', 'id DESC')}, b AS (SELECT ${rowsOf('notification_recipient')} AS n)
      INSERT INTO notification_recipient (notification_id, user_id, read_at)
      SELECT notes.id, staff.a[1 + (b.n + ${i}) % cardinality(staff.a)], CASE WHEN ${i} % 3 = 0 THEN NULL ELSE now() END
        FROM staff CROSS JOIN notes_n CROSS JOIN b CROSS JOIN ${series} ${joinNumbered('notes', `(b.n + ${i}) / cardinality(staff.a)`)}
      ON CONFLICT DO NOTHING`],
    // Two thirds completed, the rest cancelled (by the buyer, or unpaid after 30 minutes; the few
    // newest still wait for payment); one item each.
    mall_order: (i, series) => [`
      WITH ${picks}, b AS (SELECT ${base('mall_order')} AS n),
        goods AS (SELECT code, name, category, unit, price FROM mall_goods WHERE deleted_at IS NULL ORDER BY id LIMIT 1),
        made AS (
          INSERT INTO mall_order (code, tenant_code, organization_code, state, goods_amount, pay_amount, receiver, receiver_phone, address, buyer,
                                  created_at, pay_deadline, pay_no, paid_at, express_company, express_no, shipped_at, received_at, cancelled_at, updated_at)
          SELECT 'GM' || lpad((b.n + ${i})::text, 12, '0'), '${tenant}', ${pick('orgs.a', i)},
                 CASE WHEN ${i} % 6 IN (0, 2, 4, 5) THEN 'completed' WHEN ${i} % 6 = 1 AND ${i} < 25 THEN 'pending_payment' ELSE 'cancelled' END,
                 goods.price, goods.price,
                 '扩容收货人', '13800000000', '浙江省杭州市扩容路' || ${i} || '号', 'tadmin', ${ago(i, 700)}, ${ago(i, 700)} + interval '30 minutes',
                 CASE WHEN ${i} % 6 IN (0, 2, 4, 5) THEN 'GPAY' || lpad((b.n + ${i})::text, 12, '0') END,
                 CASE WHEN ${i} % 6 IN (0, 2, 4, 5) THEN ${ago(i, 700)} + interval '5 minutes' END,
                 CASE WHEN ${i} % 6 IN (0, 2, 4, 5) THEN '顺丰速运' END, CASE WHEN ${i} % 6 IN (0, 2, 4, 5) THEN 'SF' || lpad((b.n + ${i})::text, 12, '0') END,
                 CASE WHEN ${i} % 6 IN (0, 2, 4, 5) THEN ${ago(i, 700)} + interval '1 day' END,
                 CASE WHEN ${i} % 6 IN (0, 2, 4, 5) THEN ${ago(i, 700)} + interval '3 days' END,
                 CASE WHEN ${i} % 6 = 3 OR (${i} % 6 = 1 AND ${i} >= 25) THEN ${ago(i, 700)} + interval '30 minutes' END, ${ago(i, 700)}
            FROM orgs, goods, b, ${series}
          RETURNING code)
      INSERT INTO mall_order_item (order_code, goods_code, goods_name, category, unit, unit_price, quantity, amount)
      SELECT made.code, goods.code, goods.name, goods.category, goods.unit, goods.price, 1, goods.price FROM made, goods`],
    // An invoice for each completed grown order that has none, newest first.
    invoice: (i, series) => [`
      WITH b AS (SELECT ${base('invoice')} AS n),
        orders AS (
          SELECT o.code, o.tenant_code, o.organization_code, o.pay_amount, o.created_at, row_number() OVER (ORDER BY o.id DESC) AS r
            FROM mall_order o
           WHERE o.tenant_code = '${tenant}' AND o.state = 'completed' AND o.code LIKE 'GM%'
             AND NOT EXISTS (SELECT 1 FROM invoice v WHERE v.order_code = o.code AND v.state <> 'rejected'))
      INSERT INTO invoice (code, tenant_code, organization_code, order_code, invoice_type, title_name, tax_no, amount, content, state, invoice_no, issued_at,
                           applied_by, created_at, updated_at)
      SELECT 'GV' || lpad((b.n + ${i})::text, 12, '0'), orders.tenant_code, orders.organization_code, orders.code, 'normal', '杭州云联科技有限公司',
             '91330100MA2AXXXX0X', orders.pay_amount, '物联网设备', CASE WHEN ${i} % 2 = 0 THEN 'issued' ELSE 'applied' END,
             CASE WHEN ${i} % 2 = 0 THEN 'INV' || lpad((b.n + ${i})::text, 10, '0') END, CASE WHEN ${i} % 2 = 0 THEN orders.created_at + interval '5 days' END,
             'tadmin', orders.created_at + interval '4 days', orders.created_at + interval '4 days'
        FROM b CROSS JOIN ${series} JOIN orders ON orders.r = ${i}`],
  };
}

/** What each grown table's rows refer to among the grown tables: those are grown first. */
const NEEDS: Readonly<Record<GrownTable, readonly GrownTable[]>> = {
  device: [],
  alarm_record: ['device'],
  device_error: ['device'],
  device_telemetry: ['device'],
  device_health_sample: ['device'],
  upgrade_task_device: ['device'],
  work_order: ['device'],
  repair_report: ['device'],
  repair_batch: [],
  patrol_task: [],
  patrol_record: ['device', 'patrol_task'],
  sim_card: [],
  card_order: [],
  card_delivery: ['card_order'],
  card_alter: [],
  card_recharge: [],
  card_renew: ['sim_card'],
  card_renew_order: [],
  login_log: [],
  usage_message: [],
  notification: [],
  notification_recipient: ['notification'],
  mall_order: [],
  invoice: ['mall_order'],
};

/** Tables that grow along with a grown one (rows its statements insert too). */
const ALONG: Partial<Record<GrownTable, readonly string[]>> = { upgrade_task_device: ['upgrade_task'], mall_order: ['mall_order_item'] };

/** The grown tables and those that grow with them. */
export const GROWN_TABLES: readonly string[] = (Object.keys(NEEDS) as GrownTable[]).flatMap((table) => [table, ...(ALONG[table] ?? [])]);

/** Runs `work` for every item, at most `width` at a time, an item only once `ready(item)` (its prerequisites done). */
async function inTurns<T>(items: readonly T[], width: number, ready: (item: T, done: ReadonlySet<T>) => boolean, work: (item: T) => Promise<void>): Promise<void> {
  const done = new Set<T>();
  const waiting = [...items];
  const running = new Map<T, Promise<T>>();
  while (waiting.length || running.size) {
    for (let index = 0; index < waiting.length && running.size < width; ) {
      const item = waiting[index];
      if (ready(item, done)) {
        waiting.splice(index, 1);
        running.set(item, work(item).then(() => item));
      } else index += 1;
    }
    if (!running.size) throw new Error('growWorld: a table waits for one that is never grown');
    const finished = await Promise.race(running.values());
    running.delete(finished);
    done.add(finished);
  }
}

/**
 * Adds `sizes` rows to each grown table (see the head of this file), in slices of `slice` rows,
 * two tables at a time (a table after those its rows refer to), then brings the planner's
 * statistics and the visibility map of the grown tables up to date, as autovacuum would on a
 * database that grew over time. Answers the milliseconds each table took (and `vacuum`).
 */
export async function growWorld(db: Queryable, sizes: Partial<GrowthSizes> = DEFAULT_GROWTH, options: GrowthOptions = {}): Promise<Record<string, number>> {
  const tenant = options.tenantCode ?? 'T0001';
  if (!/^[A-Z0-9]+$/.test(tenant)) throw new Error(`not an organisation code: ${tenant}`);
  const slice = options.slice ?? 200_000;
  const width = options.parallel ?? 2;
  const all = growers(tenant);
  const took: Record<string, number> = {};
  const grown = (Object.keys(NEEDS) as GrownTable[]).filter((table) => (sizes[table] ?? 0) > 0);
  // A prerequisite that is not grown this time is there already (or is not needed).
  const ready = (table: GrownTable, done: ReadonlySet<GrownTable>) => NEEDS[table].every((needed) => done.has(needed) || !grown.includes(needed));
  await inTurns(grown, width, ready, async (table) => {
    const count = sizes[table] ?? 0;
    const started = performance.now();
    for (let done = 0; done < count; done += slice) {
      const size = Math.min(slice, count - done);
      for (const sql of all[table]('s.i', `generate_series(1, ${size}) AS s(i)`)) await db.exec(sql);
      options.log?.(`${table}: ${done + size} / ${count}`);
    }
    took[table] = Math.round(performance.now() - started);
  });
  const started = performance.now();
  await vacuum(db, grown.flatMap((table) => [table, ...(ALONG[table] ?? [])]), width);
  took.vacuum = Math.round(performance.now() - started);
  return took;
}

/**
 * ANALYZE, then VACUUM (again for a table whose pages did not all become all-visible): a list's
 * count and its choice of rows are index-only scans, which read the table wherever the visibility
 * map is not set. ANALYZE first, so that no autovacuum ANALYZE of a grown table (which holds a
 * snapshot, and with it the horizon that VACUUM may mark pages all-visible up to) runs meanwhile.
 */
async function vacuum(db: Queryable, tables: readonly string[], width: number): Promise<void> {
  const each = (list: readonly string[], command: string) => inTurns(list, width, () => true, (table) => db.exec(`${command} ${table}`));
  await each(tables, 'ANALYZE');
  let pending = [...tables];
  for (let round = 0; round < 5 && pending.length; round += 1) {
    if (round > 0) await new Promise((resolve) => setTimeout(resolve, 250 * round));
    await each(pending, 'VACUUM');
    const rows = await db.query<{ name: string; visible: number }>(
      `SELECT relname AS name, relallvisible::float8 / GREATEST(relpages, 1) AS visible FROM pg_class WHERE relname = ANY($1::text[]) AND relkind = 'r'`,
      [pending],
    );
    pending = rows.filter((row) => Number(row.visible) < 0.95).map((row) => row.name);
  }
}
