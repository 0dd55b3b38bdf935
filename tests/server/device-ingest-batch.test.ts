// Ingestion in batches (issue 22): the readings that arrive within a few milliseconds share one
// transaction (server/ingest/deviceReports.ts ReportBatcher, storeReports) with what each would do
// alone: a device's readings in the order they came, each answered on its own, one that cannot be
// stored failing alone while the rest of its batch is stored, and one alarm per episode however
// many breaching readings of a device (and of other devices) a burst puts in one batch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { ReportBatcher, storeReports, type ReportingDevice, type ReportToStore, type StoredReport } from '../../server/ingest/deviceReports';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let tadmin: string;
let devices: ReportingDevice[];

beforeAll(async () => {
  server = await startServer();
  tadmin = await server.login('tadmin');
  devices = await server.db.query<ReportingDevice>(
    "SELECT id, code, name, tenant_code, organization_code, product_code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL ORDER BY id LIMIT 60",
  );
});
afterAll(() => server.close());

/** The database, counting the transactions begun through it. */
function counted(db: Database): { db: Database; transactions: () => number } {
  let transactions = 0;
  return {
    db: {
      ...db,
      transaction: (work) => {
        transactions += 1;
        return db.transaction(work);
      },
    },
    transactions: () => transactions,
  };
}

const batcher = (db: Database, size = 100, delayMs = 30) => new ReportBatcher(db, { size, delayMs, concurrency: 2, timeZone: 'Asia/Shanghai', log: (line) => server.logs.push(line) });
const reading = (device: ReportingDevice, secondsAgo: number, fields: Record<string, unknown>): ReportToStore => {
  const now = server.now();
  return { device, report: { ...fields, readAt: new Date(now.getTime() - secondsAgo * 1000) }, now };
};
const stored = async (deviceId: number, since: Date) =>
  (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_telemetry WHERE device_id = $1 AND reported_at >= $2', [deviceId, since]))[0].n;
const batteryOf = async (deviceId: number) => (await server.db.query<{ battery_level: number | null }>('SELECT battery_level FROM device WHERE id = $1', [deviceId]))[0].battery_level;

async function rule(fields: Record<string, unknown>): Promise<number> {
  const insert = await server.call<{ code: string }>(
    'alarm.config.insert',
    { rule: { alarmType: 'threshold', level: 2, metric: 'turbidity', operator: 'gt', threshold: 50, notifyChannels: [], ...fields } },
    { token: tadmin },
  );
  expect(insert.code, insert.message).toBe('200');
  return (await server.db.query<{ id: number }>('SELECT id FROM alarm_rule WHERE code = $1', [insert.data!.code]))[0].id;
}

describe('ingestion in batches', () => {
  it('stores the readings that arrive together in one transaction, each answered on its own', async () => {
    const { db, transactions } = counted(server.db);
    const since = new Date(server.now().getTime() - 120_000);
    const some = devices.slice(0, 40);
    // One batcher for all of them, as the server has.
    const shared = batcher(db);
    const replies = await Promise.all(some.map((device, index) => shared.store(reading(device, 60, { batteryLevel: 10 + index }))));
    expect(transactions()).toBe(1);
    expect(replies.every((reply) => reply.latest)).toBe(true);
    for (const [index, device] of some.entries()) {
      expect(await stored(device.id, since)).toBe(1);
      expect(await batteryOf(device.id)).toBe(10 + index);
    }
  });

  it('keeps the order of one device’s readings within a batch: each sees the one before', async () => {
    const [a, b] = devices.slice(40, 42);
    const since = new Date(server.now().getTime() - 100_000);
    // a: three readings in time order; b: its newest first, then an older one (buffered, late).
    const replies = await storeReports(
      server.db,
      [reading(a, 50, { batteryLevel: 71 }), reading(b, 40, { batteryLevel: 81 }), reading(a, 45, { batteryLevel: 72 }), reading(b, 90, { batteryLevel: 82 }), reading(a, 44, { batteryLevel: 73 })],
      'Asia/Shanghai',
      () => undefined,
    );
    expect(replies.map((reply: StoredReport) => reply.latest)).toEqual([true, true, true, false, true]);
    expect(await stored(a.id, since)).toBe(3);
    expect(await stored(b.id, since)).toBe(2);
    // The latest of a is its last reading; b's late reading went to the history only.
    expect(await batteryOf(a.id)).toBe(73);
    expect(await batteryOf(b.id)).toBe(81);
  });

  it('one reading that cannot be stored fails alone: the others of its batch are stored', async () => {
    const { db, transactions } = counted(server.db);
    const some = devices.slice(42, 47);
    const since = new Date(server.now().getTime() - 100_000);
    // A device the database does not have (deleted for good while its reading waited): its history row breaks the foreign key.
    const gone: ReportingDevice = { ...some[0], id: 2_000_000_000, code: 'GONE00000001' };
    // Offline before: each comes online once, its event written once (the failed batch's rolled back with it).
    await server.db.query("UPDATE device SET online_state = 'offline' WHERE id = ANY($1::int[])", [some.map((device) => device.id)]);
    const shared = batcher(db);
    const outcomes = await Promise.allSettled([...some.slice(0, 2), gone, ...some.slice(2)].map((device) => shared.store(reading(device, 30, { batteryLevel: 33 }))));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    // The batch, then each of its six alone.
    expect(transactions()).toBe(7);
    for (const device of some) expect(await stored(device.id, since)).toBe(1);
    expect(server.logs.some((line) => line.includes('a batch of 6 readings failed'))).toBe(true);
    const online = await server.db.query<{ code: string; n: number }>(
      "SELECT payload ->> 'deviceCode' AS code, count(*)::int AS n FROM live_event WHERE kind = 'device.online' AND payload ->> 'deviceCode' = ANY($1::text[]) GROUP BY 1 ORDER BY 1",
      [some.map((device) => device.code)],
    );
    expect(online).toEqual(some.map((device) => ({ code: device.code, n: 1 })).sort((x, y) => x.code.localeCompare(y.code)));
  });

  it('raises one alarm per episode under a burst: many breaching readings of each device, batched together', async () => {
    const ruleId = await rule({ name: '批量浊度测试', threshold: 50 });
    const burst = devices.slice(50, 55);
    const shared = batcher(server.db, 7, 5);
    // Eight breaching readings of each of five devices at once, newest last, through the per-device queue a server keeps.
    const queued = new Map<number, Promise<StoredReport>>();
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, k) => k).flatMap((k) =>
        burst.map((device) => {
          const next = (queued.get(device.id) ?? Promise.resolve()).then(() => shared.store(reading(device, 20 - k, { metrics: { turbidity: 60 + k } })));
          queued.set(device.id, next);
          return next.then((reply) => ({ device: device.id, reply }));
        }),
      ),
    );
    for (const device of burst) {
      const raised = replies.filter((entry) => entry.device === device.id).flatMap((entry) => entry.reply.alarms.filter((alarm) => alarm.ruleId === ruleId && alarm.change === 'raised'));
      expect(raised, device.code).toHaveLength(1);
      const [{ n }] = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM alarm_record WHERE rule_id = $1 AND device_code = $2', [ruleId, device.code]);
      expect(n, device.code).toBe(1);
    }
    // Three breaching readings of one device in one batch (as a batch given them at once stores them: in turn): one alarm.
    const lone = devices[55];
    const inOne = await storeReports(server.db, [5, 4, 3].map((secondsAgo) => reading(lone, secondsAgo, { metrics: { turbidity: 70 } })), 'Asia/Shanghai', () => undefined);
    expect(inOne.map((reply) => reply.alarms.filter((alarm) => alarm.ruleId === ruleId).map((alarm) => alarm.change))).toEqual([['raised'], [], []]);
    // Back within bounds, together: each episode ends and its alarm recovers once.
    const back = await Promise.all([...burst, lone].map((device) => shared.store(reading(device, 1, { metrics: { turbidity: 10 } }))));
    expect(back.map((reply) => reply.alarms.filter((alarm) => alarm.change === 'recovered').length)).toEqual([...burst, lone].map(() => 1));
    const [{ open }] = await server.db.query<{ open: number }>('SELECT count(*)::int AS open FROM alarm_rule_episode WHERE rule_id = $1', [ruleId]);
    expect(open).toBe(0);
  });
  it('writes what a batch changes in a few statements whatever its size: devices back online, alarms raised, told and recovered', async () => {
    const ruleId = await rule({ name: '批量语句测试', threshold: 50, notifyChannels: ['dingtalk', 'feishu', 'mail', 'sms', 'voice', 'wechat'] });
    const more = await server.db.query<ReportingDevice>(
      "SELECT id, code, name, tenant_code, organization_code, product_code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL ORDER BY id OFFSET 60 LIMIT 45",
    );
    expect(more).toHaveLength(45);
    const maxId = async (table: string) => (await server.db.query<{ id: number }>(`SELECT COALESCE(max(id), 0)::int AS id FROM ${table}`))[0].id;
    /** Stores one reading of each device in one batch, counting the statements; answers what the batch wrote. */
    async function batchOf(some: readonly ReportingDevice[], turbidity: number, secondsAgo: number) {
      const marks = { outbox: await maxId('outbox'), notification: await maxId('notification'), liveEvent: await maxId('live_event') };
      let statements = 0;
      const counting: Database = {
        ...server.db,
        transaction: (work) =>
          server.db.transaction((tx) =>
            work({
              query: (sql, params) => {
                statements += 1;
                return tx.query(sql, params);
              },
              exec: (sql) => {
                statements += 1;
                return tx.exec(sql);
              },
            }),
          ),
      };
      const replies = await storeReports(counting, some.map((device) => reading(device, secondsAgo, { metrics: { turbidity } })), 'Asia/Shanghai', () => undefined);
      const [{ outbox }] = await server.db.query<{ outbox: number }>('SELECT count(*)::int AS outbox FROM outbox WHERE id > $1', [marks.outbox]);
      const [{ bells, recipients }] = await server.db.query<{ bells: number; recipients: number }>(
        `SELECT count(DISTINCT n.id)::int AS bells, count(r.user_id)::int AS recipients FROM notification n LEFT JOIN notification_recipient r ON r.notification_id = n.id
          WHERE n.id > $1 AND n.title LIKE '告警：%'`,
        [marks.notification],
      );
      const events = await server.db.query<{ kind: string; n: number }>('SELECT kind, count(*)::int AS n FROM live_event WHERE id > $1 GROUP BY kind ORDER BY kind', [marks.liveEvent]);
      return { statements, replies, outbox, bells, recipients, events: Object.fromEntries(events.map((row) => [row.kind, row.n])) };
    }
    // This rule alone watches turbidity here: what each alarm is told is then the same for every device.
    await server.db.query("UPDATE alarm_rule SET enabled = false WHERE tenant_code = 'T0001' AND metric = 'turbidity' AND id <> $1", [ruleId]);
    const small = more.slice(0, 5);
    const large = more.slice(5);
    await server.db.query("UPDATE device SET online_state = 'offline' WHERE id = ANY($1::int[])", [more.map((device) => device.id)]);
    const [raisedSmall, raisedLarge] = [await batchOf(small, 90, 5), await batchOf(large, 90, 5)];
    // Five devices or forty: the same statements.
    expect(raisedLarge.statements).toBe(raisedSmall.statements);
    for (const [run, some] of [[raisedSmall, small], [raisedLarge, large]] as const) {
      const codes = run.replies.flatMap((reply) => reply.alarms.filter((alarm) => alarm.ruleId === ruleId && alarm.change === 'raised').map((alarm) => alarm.alarmCode));
      expect(codes).toHaveLength(some.length);
      expect(new Set(codes).size).toBe(some.length);
      for (const code of codes) expect(code).toMatch(/^AL\d{13}$/);
      const stored = await server.db.query<{ device_code: string }>('SELECT device_code FROM alarm_record WHERE code = ANY($1::text[]) ORDER BY device_code', [codes]);
      expect(stored.map((row) => row.device_code)).toEqual(some.map((device) => device.code).sort());
      const raised = run.replies.flatMap((reply) => reply.alarms.filter((alarm) => alarm.change === 'raised')).length;
      expect(raised).toBe(some.length);
      expect(run.events).toEqual({ 'alarm.raised': raised, 'device.online': some.length });
      // Each alarm in the tenant admins' bell, and through every enabled channel of the tenant.
      expect(run.bells).toBe(raised);
    }
    expect(raisedSmall.recipients).toBeGreaterThan(0);
    expect(raisedLarge.recipients / large.length).toBe(raisedSmall.recipients / small.length);
    expect(raisedSmall.outbox).toBeGreaterThan(0);
    expect(raisedLarge.outbox / large.length).toBe(raisedSmall.outbox / small.length);
    // Back within bounds: each alarm recovers, again in the same statements for five or forty.
    const [recoveredSmall, recoveredLarge] = [await batchOf(small, 10, 2), await batchOf(large, 10, 2)];
    expect(recoveredLarge.statements).toBe(recoveredSmall.statements);
    for (const [run, some] of [[recoveredSmall, small], [recoveredLarge, large]] as const) {
      const recovered = run.replies.map((reply) => reply.alarms.filter((alarm) => alarm.change === 'recovered'));
      expect(recovered.map((alarms) => alarms.filter((alarm) => alarm.ruleId === ruleId).length)).toEqual(some.map(() => 1));
      expect(run.events).toEqual({ 'alarm.recovered': recovered.flat().length });
    }
    const [{ open }] = await server.db.query<{ open: number }>("SELECT count(*)::int AS open FROM alarm_record WHERE rule_id = $1 AND state <> 'recovered'", [ruleId]);
    expect(open).toBe(0);
  });
});
